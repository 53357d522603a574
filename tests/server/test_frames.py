"""The server's frame encoder is the engine's: :func:`jsonable` (decided once per type) and the
shared ``last_deal`` (encoded once per deal) give exactly ``view.to_json()``, for every seat and
the spectator, at every moment of random matches of every game."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kirifuda.game import to_jsonable
from kirifuda.games import GAMES
from kirifuda.server.protocol import LastDealCache, jsonable, view_json


@pytest.mark.parametrize("game", sorted(GAMES))
@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 2**31))
def test_frames_encode_views_exactly(game: str, seed: int) -> None:
    info = GAMES[game]
    rng = random.Random(seed)
    state = info.new_state(info.options({}))
    cache = LastDealCache()
    compared = 0
    for _ in range(400):
        if state.is_over:
            break
        for seat in [None, *range(state.num_players)]:
            view = state.view(seat)
            assert jsonable(view) == view.to_json() == to_jsonable(view)
            assert view_json(view, cache) == view_json(view)
            compared += 1
        if state.needs_deal:
            state.deal_random(rng)
        else:
            state.apply(rng.choice(state.legal_actions()), state.to_act)
    assert compared > 100


def test_an_unknown_value_is_refused_as_the_engine_does() -> None:
    with pytest.raises(TypeError, match="cannot encode"):
        jsonable(object())
