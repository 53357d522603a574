"""Meitora's claim check answers some claims at once (a joker or a stronger trump in another
hand); the complete search of the remaining play answers the same everywhere."""

from __future__ import annotations

import random

import pytest

from kirifuda.actions import Claim
from kirifuda.games.meitora import MeitoraOptions, MeitoraState, _claim_fails_at_once, _ClaimSearch


def play_positions(joker_lead: str, deals: int, seed: int) -> list[MeitoraState]:
    """Positions of the play of random deals (every seat's turn), by random legal actions."""
    rng = random.Random(seed)
    out: list[MeitoraState] = []
    for _ in range(deals):
        s = MeitoraState(MeitoraOptions(joker_lead=joker_lead))
        s.deal_random(rng)
        while s.to_act is not None and s.deal_number == 0:
            legal = [a for a in s.legal_actions() if not isinstance(a, Claim)]
            if s.phase.value == "play":
                out.append(s.copy())
            s.apply(rng.choice(legal))
    return out


@pytest.mark.slow
@pytest.mark.parametrize("joker_lead", ["request", "trump"])
def test_the_quick_failures_are_the_searchs(joker_lead):
    quick = held = 0
    for s in play_positions(joker_lead, 25, seed=len(joker_lead)):
        seat = s.to_act
        assert seat is not None
        searched = _ClaimSearch(s, seat).run()
        if _claim_fails_at_once(s._hands, seat, s._strain, not s._trick):
            assert not searched
            quick += 1
        assert s._claim_is_valid(seat) == searched
        held += searched
    assert quick > 40 and held > 2  # both kinds of answer are met
