"""Meitora's refused claim (``claim_failure: "refuse"``): a claimant shows their hand.  A claim
that fails is recorded as ``{"claim": true, "refused": true}``; the claimant's hand then lies
face up to every seat and the spectator for the rest of the deal (views, records, replays); play
goes on with the same seat to act.  A plain ``{"claim": true}`` that fails stays an invalid
record, and a refused claim that would have held, or under ``chombo``, is refused."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kirifuda import record as records
from kirifuda.actions import CLAIM, REFUSED_CLAIM, RefusedClaim, action_from_json
from kirifuda.errors import IllegalActionError, InvalidActionError, RecordError
from kirifuda.games import GAMES
from kirifuda.games.meitora import MeitoraState

INFO = GAMES["meitora"]


def to_play(options: dict[str, str], seed: int) -> MeitoraState:
    """A Meitora state at the first card of the play, with random bidding."""
    state = INFO.new_state(INFO.options(options))
    rng = random.Random(seed)
    while state.needs_deal or state.view(None).phase != "play":
        if state.needs_deal:
            state.deal_random(rng)
        else:
            state.apply(rng.choice(state.legal_actions()), state.to_act)
    assert isinstance(state, MeitoraState)
    return state


def test_record_form() -> None:
    assert REFUSED_CLAIM.to_json() == {"claim": True, "refused": True}
    assert action_from_json({"claim": True, "refused": True, "seat": 2}) == REFUSED_CLAIM
    assert action_from_json({"claim": True}) == CLAIM != REFUSED_CLAIM
    for bad in ({"refused": True}, {"claim": True, "refused": False}, {"claim": True, "refused": True, "x": 1}):
        with pytest.raises(InvalidActionError):
            action_from_json(bad)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**31))
def test_a_refused_claim_shows_the_hand_for_the_rest_of_the_deal(seed: int) -> None:
    state = to_play({"claim_failure": "refuse"}, seed)
    rng = random.Random(seed)
    # play on to a turn where the claim fails (early in the play it nearly always does)
    while state._claim_is_valid(state.to_act):  # type: ignore[arg-type]
        state.apply(rng.choice([a for a in state.legal_actions() if a != CLAIM]), state.to_act)
        if state.view(None).phase != "play":
            return
    seat = state.to_act
    assert seat is not None
    with pytest.raises(IllegalActionError, match="not valid"):
        state.apply(CLAIM, seat)  # the plain claim: refused, nothing changes
    assert state.view(0).shown_hands == ()
    before = state.view(seat).hand
    state.apply(REFUSED_CLAIM, seat)
    assert state.to_act == seat  # play goes on
    for other in [None, 0, 1, 2, 3]:
        assert state.view(other).shown_hands == tuple(before if s == seat else () for s in range(4))
    with pytest.raises(IllegalActionError, match="already lies face up"):
        state.apply(REFUSED_CLAIM, seat)
    deal = state.deal_number
    while state.deal_number == deal and not state.is_over:  # the rest of the deal: always shown
        if state.needs_deal:
            break
        assert state.view(None).shown_hands[seat] == state.view(seat).hand
        state.apply(
            rng.choice([a for a in state.legal_actions() if not isinstance(a, RefusedClaim) and a != CLAIM]),
            state.to_act,
        )
    assert state.view(None).shown_hands == ()  # a new deal hides it again
    # records: the refused claim replays; written as a plain claim it is an invalid record
    text = records.dumps(records.from_state(state))
    assert '"claim": true, "refused": true' in text
    assert records.dumps(records.from_state(records.replay(records.loads(text)))) == text
    with pytest.raises(RecordError, match="not valid"):
        records.replay(records.loads(text.replace('"claim": true, "refused": true', '"claim": true')))


def test_a_refused_claim_needs_refuse_and_a_failing_claim() -> None:
    state = to_play({}, 3)  # claim_failure = chombo
    with pytest.raises(IllegalActionError, match="only under claim_failure=refuse"):
        state.apply(REFUSED_CLAIM, state.to_act)
    state = to_play({"claim_failure": "refuse"}, 3)
    with pytest.raises(IllegalActionError, match="turn"):
        state.apply(REFUSED_CLAIM, (state.to_act + 1) % 4)  # type: ignore[operator]
    # a claim that holds is a claim, not a refused one: find one by playing to the last trick
    rng = random.Random(1)
    while state.view(None).phase == "play" and not state._claim_is_valid(state.to_act):  # type: ignore[arg-type]
        state.apply(rng.choice([a for a in state.legal_actions() if a != CLAIM]), state.to_act)
    if state.view(None).phase == "play":
        with pytest.raises(IllegalActionError, match="the claim holds"):
            state.apply(REFUSED_CLAIM, state.to_act)
    assert json.loads(json.dumps(state.view(0).to_json()))["shown_hands"] == []
