"""The engines' views are made fast (a view maker instead of the frozen dataclass's
``__init__``; Meitora keeps its tricks as the views show them and reads the bidding as the
log's first entries): the views stay exactly those a fresh engine shows, asked before and after
every action, on a state and on the copies that go their own way from it."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

from kirifuda.actions import Claim
from kirifuda.games import GAMES


def fresh(game: str, events: list[tuple[Any, ...]]) -> Any:
    """A new match of ``game`` taken through ``events`` (deals and actions): no cache of any
    earlier view can be in it."""
    info = GAMES[game]
    state = info.new_state(info.options({}), first=0)
    for event in events:
        if event[0] == "deal":
            state.deal(event[1], event[2])
        else:
            state.apply(event[1])
    return state


def all_views(state: Any) -> list[Any]:
    return [state.view(seat) for seat in [None, *range(state.num_players)]]


def deal(state: Any, rng: random.Random, events: list[tuple[Any, ...]]) -> None:
    state.deal_random(rng)
    dealt = state.record_deals()[-1]
    events.append(("deal", dealt["hands"], dealt["rest"]))


def check(game: str, state: Any, events: list[tuple[Any, ...]]) -> None:
    views = all_views(state)
    assert views == all_views(fresh(game, events))
    for view in views:  # every field set, as the constructor sets them
        fields = {f.name: getattr(view, f.name) for f in dataclasses.fields(view)}
        assert set(vars(view)) == set(fields)
        assert type(view)(**fields) == view


@pytest.mark.parametrize("game", sorted(GAMES))
def test_views_asked_before_and_after_each_action_are_a_fresh_engines(game):
    rng = random.Random(7)
    info = GAMES[game]
    state = info.new_state(info.options({}), first=0)
    events: list[tuple[Any, ...]] = []
    steps = 0
    while not state.is_over and steps < 120:
        if state.needs_deal:
            deal(state, rng, events)
            check(game, state, events)
            continue
        all_views(state)  # asked before the action: a kept view must not go stale
        legal = state.legal_actions()
        if rng.random() < 0.95:  # claims mostly left out, so that deals go on to their last tricks
            legal = tuple(a for a in legal if not isinstance(a, Claim)) or legal
        if rng.random() < 0.2 and len(legal) > 1:  # a copy goes another way, then is dropped
            other = state.copy()
            all_views(other)
            first, second = rng.sample(list(legal), 2)
            other.apply(second)
            check(game, other, [*events, ("act", second)])
            action = first
        else:
            action = rng.choice(list(legal))
        state.apply(action)
        events.append(("act", action))
        check(game, state, events)
        steps += 1
    assert steps > 20
