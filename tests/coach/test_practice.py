"""The practice table's undo rule (``may_undo``): one's own last decision, only with bots at
the table, and only while no hidden card has been shown to the seat since."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kirifuda.actions import Bid, Play
from kirifuda.cards import format_card, parse_card
from kirifuda.coach.hint import seat_views
from kirifuda.coach.practice import may_undo, undone
from kirifuda.errors import KirifudaError
from kirifuda.game import GameState

from .helpers import GAMES, played_deal


def _actions(state: GameState) -> list[dict[str, object]]:
    return state.record_deals()[-1]["actions"]  # type: ignore[no-any-return]


def test_no_undo_at_a_table_with_other_humans() -> None:
    state = played_deal("meitora", 1, stop=lambda s: len(_actions(s)) >= 2)
    v = may_undo(state, 0, humans={0, 2})
    assert not v.allowed and v.key == "undo.other_humans"
    assert v.reason("en") == "no undo at a table with other humans" and "ほかの人" in v.reason("ja")
    with pytest.raises(KirifudaError, match="undo refused"):
        undone(state, v)


def test_nothing_to_undo_before_ones_first_decision() -> None:
    state = played_deal("meitora", 1, stop=lambda s: len(_actions(s)) == 0)
    seat = (state.to_act or 0) + 1
    v = may_undo(state, seat % 4, humans={seat % 4})
    assert not v.allowed and v.key == "undo.nothing"


def test_a_bid_is_undone_while_the_bidding_shows_no_card() -> None:
    """Bids reveal no card: the seat's bid and the bots' bids after it are taken back."""

    def after_my_bid(s: GameState) -> bool:
        acts = _actions(s)
        return s.phase.value == "bidding" and len(acts) >= 2 and any(a["seat"] == 0 for a in acts[:-1])

    state = played_deal("meitora", 5, stop=after_my_bid)
    v = may_undo(state, 0, humans={0})
    assert v.allowed and v.keep is not None, v.reason()
    before = undone(state, v)
    assert before.to_act == 0 and len(_actions(before)) == v.keep
    assert before.view(0).to_json() == seat_views(state, 0)[v.keep].to_json()
    assert any(isinstance(a, Bid) for a in before.legal_actions())
    assert "can be taken back" in v.reason("en")


def test_a_card_is_not_undone_once_a_bot_has_played_after_it() -> None:
    def bot_followed(s: GameState) -> bool:
        acts = _actions(s)
        return len(acts) >= 2 and "play" in acts[-2] and acts[-2]["seat"] == 0 and acts[-1]["seat"] != 0

    state = played_deal("kakeya", 3, stop=bot_followed)
    v = may_undo(state, 0, humans={0})
    assert not v.allowed and v.key == "undo.revealed"
    shown = _actions(state)[-1]["play"]
    assert shown in v.params["cards"].split()
    assert format_card(parse_card(shown), "en") in v.reason("en")  # the card's face, not its code
    assert format_card(parse_card(shown), "ja") in v.reason("ja")


def test_after_a_deal_passed_out_a_card_answered_by_a_bot_is_not_undone() -> None:
    """A deal passed out is shown face up, every hand, in the next deal's views: those cards are
    not counted as seen in this deal, so a bot's card after the seat's is still news."""
    import random

    from kirifuda.bots import make_bot
    from kirifuda.games import find_game

    def after_a_redeal(s: GameState) -> bool:
        if s.needs_deal or s.deal_number < 1:
            return False
        acts = _actions(s)
        return (
            s.deal_summaries()[-2]["outcome"] != "played"
            and len(acts) >= 2
            and "play" in acts[-2]
            and acts[-2]["seat"] == 0
            and acts[-1]["seat"] != 0
        )

    rng = random.Random(5)
    state = find_game("meitora").new_state()
    bots = [make_bot("heuristic", "meitora") for _ in range(state.num_players)]
    while not after_a_redeal(state):
        assert not state.is_over
        if state.needs_deal:
            state.deal_random(rng)
            continue
        seat = state.to_act
        assert seat is not None
        state.apply(bots[seat].choose(state.view(seat), rng), seat)
    assert getattr(state.view(0), "last_deal", None)
    v = may_undo(state, 0, humans={0})
    assert not v.allowed and v.key == "undo.revealed"
    assert _actions(state)[-1]["play"] in v.params["cards"].split()


def test_a_card_is_undone_before_anyone_answers_it() -> None:
    def just_played(s: GameState) -> bool:
        acts = _actions(s)
        return bool(acts) and "play" in acts[-1] and acts[-1]["seat"] == 0 and s.to_act != 0

    state = played_deal("unsun", 2, stop=just_played)
    v = may_undo(state, 0, humans={0})
    assert v.allowed, v.reason()
    before = undone(state, v)
    assert before.to_act == 0
    assert any(isinstance(a, Play) and a.card.code == _actions(state)[-1]["play"] for a in before.legal_actions())


def test_winning_the_contract_shows_the_agari_so_no_undo() -> None:
    """Meitora: the last bid of a won auction hands the declarer the agari: a card it had not
    seen."""

    def declarer_discarding(s: GameState) -> bool:
        return s.phase.value == "discard"

    state = played_deal("meitora", 0, stop=declarer_discarding)
    seat = state.to_act
    assert seat is not None
    acts = _actions(state)
    assert any(a["seat"] == seat for a in acts)
    v = may_undo(state, seat, humans={seat})
    assert not v.allowed and v.key == "undo.revealed"


def test_no_undo_once_the_deal_is_over() -> None:
    state = played_deal("meitora", 2)
    v = may_undo(state, 0, humans={0})
    assert not v.allowed and v.key == "undo.deal_over"


@pytest.mark.parametrize("game", GAMES)
@given(seed=st.integers(0, 10_000), k=st.integers(1, 40))
@settings(max_examples=5, deadline=None)
def test_an_allowed_undo_restores_the_seats_decision_and_shows_nothing_new(game: str, seed: int, k: int) -> None:
    state = played_deal(game, seed, stop=lambda s: len(_actions(s)) >= k)
    if state.needs_deal or state.is_over:
        return
    for seat in range(state.num_players):
        v = may_undo(state, seat, humans={seat})
        assert may_undo(state, seat, humans={seat}) == v  # pure: asking changes nothing
        if not v.allowed:
            assert v.key in ("undo.nothing", "undo.revealed")
            continue
        assert v.keep is not None
        before = undone(state, v)
        assert before.to_act == seat
        views = seat_views(state, seat)
        assert before.view(seat).to_json() == views[v.keep].to_json()
        # nothing the seat sees now was hidden from it at its decision
        from kirifuda.coach.practice import _cards_in

        seen = set().union(*(_cards_in(w) for w in views[: v.keep + 1]))
        assert _cards_in(state.view(seat)) <= seen


@settings(max_examples=12, deadline=None)
@given(game=st.sampled_from(GAMES), seed=st.integers(0, 50), trick=st.integers(0, 4))
def test_a_deal_goes_back_to_the_lead_of_any_trick_led(game: str, seed: int, trick: int) -> None:
    """``trick_start`` and ``rewound``: the same cards, the tricks before it complete, nothing of
    it played; a trick not yet led is refused in words."""
    from kirifuda.coach.practice import rewound, trick_start

    state = played_deal(game, seed, stop=lambda s: len(getattr(s, "tricks", ())) >= 3)
    deal = len(state.record_deals()) - 1
    keep = trick_start(state, deal, trick) if trick <= 3 else None
    if keep is None:
        with pytest.raises(KirifudaError, match="not been led"):
            trick_start(state, deal, trick)
        return
    back = rewound(state, deal, keep)
    assert back.record_deals()[-1]["hands"] == state.record_deals()[-1]["hands"]
    assert back.record_deals()[-1]["actions"] == _actions(state)[:keep]
    assert len(back.tricks) == max(0, trick - 1)  # type: ignore[attr-defined]
    if trick:
        assert back.to_act is not None and not getattr(back.view(None), "trick", None)
