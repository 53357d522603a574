"""``kirifuda.seen``: the one walk of the cards a view shows, used by the terminal, the practice
table's undo and the research environments."""

from __future__ import annotations

import random

import pytest

from kirifuda.cards import CARDS
from kirifuda.coach.practice import _cards_in
from kirifuda.games import GAMES
from kirifuda.seen import NOT_SHOWN, cards_in, shown_cards
from kirifuda.ui.terminal import visible_cards


def _views(game_id: str, seed: int, steps: int = 60):  # type: ignore[no-untyped-def]
    """Every seat's view after each of ``steps`` random legal actions of a fresh match."""
    rng = random.Random(seed)
    info = GAMES[game_id]
    state = info.new_state(info.options())
    for _ in range(steps):
        if state.is_over:
            break
        if state.needs_deal:
            state.deal_random(rng)
            continue
        for seat in range(state.num_players):
            yield state, seat, state.view(seat)
        state.apply(rng.choice(state.legal_actions()), state.to_act)


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_the_front_ends_see_the_same_cards(game_id: str) -> None:
    for _, _, view in _views(game_id, seed=7):
        ids = shown_cards(view)
        codes = {CARDS[i].code for i in ids}
        assert {c.code for c in visible_cards(view)} == codes
        assert _cards_in(view) == codes
        assert set(ids) <= set(cards_in(view))  # everything inside, the legal actions too


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_a_view_shows_its_own_hand(game_id: str) -> None:
    for _, _, view in _views(game_id, seed=11):
        hand = getattr(view, "hand", None)
        if hand is not None:
            assert {c.id for c in hand if c is not None} <= set(shown_cards(view))


def test_a_card_only_the_choices_name_is_not_shown() -> None:
    """Napoleon's adjutant choice names every card; the view shows only its hand and table."""
    for state, seat, view in _views("napoleon", seed=3, steps=400):
        if seat == state.to_act and state.phase.value == "adjutant":
            named = set(cards_in(view.legal_actions))
            shown = set(shown_cards(view))
            assert len(named) > 40 and len(shown) < 20
            assert set(cards_in([getattr(view, n) for n in NOT_SHOWN if hasattr(view, n)])) >= named - shown
            return
    pytest.fail("no adjutant choice reached")
