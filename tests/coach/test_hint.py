"""Hints: the search bot's choice from the seat's views alone, with alternatives and a reason.

The key property: a hint never depends on cards the seat cannot see — two deals that differ
only in hidden cards (two unplayed cards swapped between two other hands) give the same hint
with the same seed."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from kirifuda.actions import Play
from kirifuda.bots.search import SearchBot
from kirifuda.cards import parse_card
from kirifuda.coach import HintError, hint, seat_views
from kirifuda.errors import KirifudaError
from kirifuda.game import GameState
from kirifuda.record import Record, from_state

from .helpers import GAMES, played_deal


def _stop_after(k: int):  # type: ignore[no-untyped-def]
    """Stop at the first decision with a choice after ``k`` actions of the deal."""

    def stop(state: GameState) -> bool:
        deal = state.record_deals()[-1]
        return len(deal["actions"]) >= k and len(state.legal_actions()) > 1

    return stop


def _mentioned(actions: list[dict[str, object]]) -> set[str]:
    """Every card named in the deal's actions so far (played, discarded, named as adjutant)."""
    out: set[str] = set()

    def walk(v: object) -> None:
        if isinstance(v, str):
            try:
                out.add(parse_card(v).code)
            except KirifudaError:
                pass
        elif isinstance(v, dict):
            for x in v.values():
                walk(x)
        elif isinstance(v, list):
            for x in v:
                walk(x)

    for a in actions:
        walk(a)
    return out


def _twin(state: GameState, seat: int, pick: random.Random) -> GameState | None:
    """The same match with two cards swapped between two other hands of the current deal:
    cards of one suit, plain ranks (no jack, ace or joker), not yet named in any action; the
    same actions replayed.  None where no such pair exists or the replay refuses."""
    rec = from_state(state)
    deal = rec.deals[-1]
    seen = _mentioned(deal.actions)
    others = [s for s in range(state.num_players) if s != seat and deal.hands[s]]
    pick.shuffle(others)
    for a in others:
        for b in others:
            if b <= a:
                continue
            for x in deal.hands[a]:
                for y in deal.hands[b]:
                    if (
                        x[-1] == y[-1]
                        and x[0] not in "JAK"
                        and y[0] not in "JAK"
                        and "JK" not in (x, y)
                        and x not in seen
                        and y not in seen
                        and x != y
                    ):
                        hands = [list(h) for h in deal.hands]
                        hands[a][hands[a].index(x)] = y
                        hands[b][hands[b].index(y)] = x
                        twin = Record(
                            rec.game,
                            rec.options,
                            rec.players,
                            rec.first,
                            rec.deals[:-1] + [type(deal)(hands, deal.rest, deal.actions)],
                        )
                        try:
                            from kirifuda.record import replay

                            return replay(twin)
                        except KirifudaError:
                            continue
    return None


@pytest.mark.parametrize("game", GAMES)
@given(seed=st.integers(0, 10_000), k=st.integers(0, 30))
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
def test_a_hint_never_depends_on_hidden_cards(game: str, seed: int, k: int) -> None:
    state = played_deal(game, seed, stop=_stop_after(k))
    seat = state.to_act
    assume(seat is not None and len(state.legal_actions()) > 1)
    assert seat is not None
    twin = _twin(state, seat, random.Random(seed))
    assume(twin is not None)
    assert twin is not None
    # the two deals differ, but not in anything the seat has seen
    assert twin.record_deals()[-1]["hands"] != state.record_deals()[-1]["hands"]
    assert [v.to_json() for v in seat_views(twin, seat)] == [v.to_json() for v in seat_views(state, seat)]
    for lang in ("en", "ja"):
        assert hint(twin, seat, seed=seed).to_json(lang) == hint(state, seat, seed=seed).to_json(lang)


@pytest.mark.parametrize("game", GAMES)
def test_the_hint_is_the_search_bots_choice(game: str) -> None:
    """The same views and seed: the hint's action is what an untraced search bot that watched
    the deal plays (tracing changes no decision), and the views alone give the same hint."""
    for k in (0, 9, 21):
        state = played_deal(game, 17 + k, stop=_stop_after(k))
        seat = state.to_act
        if seat is None:
            continue
        views = seat_views(state, seat)
        bot = SearchBot(game)
        for v in views[:-1]:
            bot.observe(v)
        plain = bot.choose(views[-1], random.Random(5))
        h = hint(state, seat, seed=5)
        assert h.action == plain
        assert hint(views, seat, seed=5) == h


@pytest.mark.parametrize("game", GAMES)
def test_a_card_hint_gives_alternatives_and_a_reason(game: str) -> None:
    def at_play(state: GameState) -> bool:
        plays = [a for a in state.legal_actions() if isinstance(a, Play)]
        return len(plays) >= 3 and len(state.record_deals()[-1]["actions"]) > 10

    state = played_deal(game, 3, stop=at_play)
    seat = state.to_act
    assert seat is not None
    h = hint(state, seat, seed=1)
    assert h.kind == "play" and h.chosen is not None and not h.forced
    assert 1 <= len(h.alternatives) <= 3 and all(o.action != h.action for o in h.alternatives)
    # the alternatives are the next best by the search's own score, best first
    scores = [o.score for o in h.alternatives]
    assert all(s is not None for s in scores) and scores == sorted(scores, reverse=True)  # type: ignore[type-var]
    assert h.chosen.score is not None and h.chosen.score >= scores[0]  # type: ignore[operator]
    assert h.chosen.best_share is not None and 0 <= h.chosen.best_share <= 1
    en, ja = h.reason("en"), h.reason("ja")
    assert h.action.label("en") in en and h.action.label("ja") in ja
    assert f"{round(100 * h.chosen.best_share)}%" in en and "deals consistent with what you have seen" in en
    assert "配り方" in ja
    for o in h.alternatives:
        assert o.action.label("en") in en


def test_a_bid_hint_says_how_often_it_makes() -> None:
    state = played_deal("meitora", 0, stop=lambda s: s.phase.value == "bidding" and len(s.legal_actions()) > 2)
    seat = state.to_act
    assert seat is not None
    h = hint(state, seat, seed=0)
    assert h.kind == "bid"
    bids = [o for o in (h.chosen, *h.alternatives) if o is not None and o.make_share is not None]
    assert bids
    for o in bids:
        assert 0 <= o.make_share <= 1  # type: ignore[operator]
        assert f"makes in {round(100 * o.make_share)}%" in h.reason("en") or o is not h.chosen  # type: ignore[operator]


def test_a_hint_is_refused_where_the_seat_is_not_to_act() -> None:
    state = played_deal("meitora", 1, stop=_stop_after(3))
    seat = state.to_act
    assert seat is not None
    other = (seat + 1) % 4
    with pytest.raises(HintError, match=f"seat {other} is not to act"):
        hint(state, other)
    with pytest.raises(HintError, match="no seat 7"):
        hint(state, 7)
    with pytest.raises(HintError, match="at least"):
        hint([], 0)


def test_a_single_choice_is_said_to_be_forced() -> None:
    def forced(state: GameState) -> bool:
        return len([a for a in state.legal_actions() if isinstance(a, Play)]) == 1 and len(state.legal_actions()) == 1

    state = played_deal("kakeya", 2, stop=forced)
    seat = state.to_act
    assert seat is not None
    h = hint(state, seat)
    assert h.forced and h.chosen is None
    assert h.reason("en") == f"{h.action.label('en')} is your only choice"
    assert h.reason("ja").startswith(h.action.label("ja"))
