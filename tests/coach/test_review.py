"""The deal review: its card values against brute force through the engine on small endings
(every game), a deal played by the oracle marks no loss for the oracle's side, the per-seat
summary adds up its marks."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kirifuda.actions import Play
from kirifuda.errors import RecordError
from kirifuda.game import GameState
from kirifuda.record import Record, from_state, loads, steps
from kirifuda.coach import review
from kirifuda.bots.search_unsun import ORACLE_EXACT
from kirifuda.coach.games.unsun import UNSUN_EXACT_TRICKS

from .helpers import GAMES, brute_force, played_deal, side_of

ENDING = {"meitora": 3, "kakeya": 3, "napoleon": 2, "unsun": 3}
"""Tricks left at which the brute force starts (Napoleon: five hands)."""


@pytest.mark.parametrize("game", GAMES)
@given(seed=st.integers(0, 10_000))
@settings(max_examples=3, deadline=None)
def test_card_marks_match_brute_force_in_the_ending(game: str, seed: int) -> None:
    state = played_deal(game, seed)
    rec = from_state(state)
    last = len(rec.deals) - 1
    rev = review(rec, nodes=20_000, deals=[last])
    (deal,) = rev.deals
    tricks = {"meitora": 10, "kakeya": 13, "napoleon": 10, "unsun": 12}[game]
    late = [m for m in deal.marks if m.kind == "play" and m.trick is not None and m.trick > tricks - ENDING[game]]
    # replay the record to each late mark and solve the position by brute force
    checked = 0
    before_of: dict[int, GameState] = {}
    for step in steps(rec):
        if step.deal == last and step.index + 1 < len(rec.deals[last].actions):
            before_of[step.index + 1] = step.state.copy()
    first = rec.new_state()
    for d in rec.deals[:last]:
        first.deal(d.hands, d.rest)
        for data in d.actions:
            first.apply(rec.info.action_from_json(data, data["seat"]), data["seat"])
    first.deal(rec.deals[last].hands, rec.deals[last].rest)
    before_of[0] = first
    for m in late:
        pos = before_of[m.index]
        side = side_of(pos, m.seat)
        assert m.method == "exact"
        values = {}
        for a in pos.legal_actions():
            if not isinstance(a, Play):
                continue
            child = pos.copy()
            child.apply(a)
            values[a] = brute_force(child, side)
        best = max(values.values())
        assert m.before == (best, best), (m, values)
        assert m.after == (values[m.action], values[m.action])
        assert m.loss == best - values[m.action]
        assert (m.best is not None) == (m.loss > 0)
        if m.best is not None:
            assert values[m.best] == best
        checked += 1
    assert checked > 0


def test_the_oracle_loses_nothing_in_meitora() -> None:
    for seed in range(3):
        state = played_deal("meitora", seed, kinds=("oracle", "heuristic"))
        rec = from_state(state)
        rev = review(rec, nodes=0, deals=[len(rec.deals) - 1])
        (deal,) = rev.deals
        cards = [m for m in deal.marks if m.kind in ("play", "claim")]
        assert cards and all(m.method == "exact" for m in cards)
        assert all(m.loss == 0 for m in cards if m.seat % 2 == 0), [m for m in cards if m.loss]
        assert deal.seats[0].lost == deal.seats[2].lost == 0


@pytest.mark.parametrize("game", ["napoleon", "unsun"])
def test_the_oracle_loses_nothing_where_it_solves_exactly(game: str) -> None:
    """Napoleon's oracle plays exactly from 6 tricks left, Unsun's from 4 (``ORACLE_EXACT``):
    there the review's exact marks show no loss for its seats.  (Napoleon's review counts face cards; under
    strategy B the army that takes all 20 below a 20 declaration loses, so the oracle rightly
    leaves one: positions where the army could take all 20 are left out.)"""
    exact_from = {"napoleon": 6, "unsun": min(ORACLE_EXACT, UNSUN_EXACT_TRICKS)}[game]
    tricks = {"napoleon": 10, "unsun": 12}[game]
    for seed in range(2):
        state = played_deal(game, seed, kinds=("oracle", "heuristic"))
        rec = from_state(state)
        (deal,) = review(rec, nodes=200_000, deals=[len(rec.deals) - 1]).deals
        marks = [
            m
            for m in deal.marks
            if m.kind == "play"
            and m.seat % 2 == 0
            and m.method == "exact"
            and m.trick is not None
            and m.trick > tricks - exact_from
            and not (game == "napoleon" and m.before is not None and m.before[1] in (0, 20))
        ]
        assert marks
        assert all(m.loss == 0 for m in marks), [m for m in marks if m.loss]


def test_the_summary_adds_up_the_marks() -> None:
    state = played_deal("meitora", 4, kinds=("random", "heuristic"))
    rec = from_state(state)
    (deal,) = review(rec, deals=[len(rec.deals) - 1]).deals
    for s in deal.seats:
        mine = [m for m in deal.marks if m.seat == s.seat and m.method == "exact" and m.loss > 0]
        assert s.lost == sum(m.loss for m in mine)
        assert s.where == tuple(m.trick for m in mine)
    assert deal.positions == sum(1 for m in deal.marks if m.kind in ("play", "claim"))
    assert deal.exact == deal.positions  # Meitora: every position solved


def test_budgeted_positions_give_proven_bounds() -> None:
    """Kakeya's first tricks within a tiny budget: bounds, the value inside them, a loss only
    where the bounds prove one."""
    state = played_deal("kakeya", 1)
    rec = from_state(state)
    (small,) = review(rec, nodes=2_000, deals=[len(rec.deals) - 1]).deals
    (big,) = review(rec, nodes=2_000_000, deals=[len(rec.deals) - 1]).deals
    bounded = [m for m in small.marks if m.method == "bounds"]
    assert bounded
    exact = {m.index: m for m in big.marks if m.method == "exact"}
    for m in bounded:
        assert m.after is not None and m.after[0] <= m.after[1]
        e = exact.get(m.index)
        if e is not None and e.after is not None:
            assert m.after[0] <= e.after[0] <= m.after[1]
            assert m.loss <= e.loss


def test_sampled_marks_for_bids() -> None:
    state = played_deal("meitora", 2)
    rec = from_state(state)
    deal = review(rec).deals[-1]
    bids = [m for m in deal.marks if m.kind == "bid"]
    assert bids and all(m.method in ("sampled", "none") for m in bids)
    for m in bids:
        if m.method == "sampled":
            assert m.before is not None and m.after is not None and m.before[0] >= m.after[0]
            assert m.loss == pytest.approx(m.before[0] - m.after[0])


def test_a_record_that_does_not_replay_is_refused() -> None:
    state = played_deal("meitora", 3)
    rec = from_state(state)
    data = rec.to_json()
    data["deals"][0]["actions"][-1], data["deals"][0]["actions"][-2] = (
        data["deals"][0]["actions"][-2],
        data["deals"][0]["actions"][-1],
    )
    import json

    bad = loads(json.dumps(data))
    with pytest.raises(RecordError):
        review(bad)
    assert isinstance(rec, Record)
