"""A deal's result in words, per game and language, from the deal's public summary."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kirifuda.bots import make_bot
from kirifuda.cards import CARDS, format_card
from kirifuda.games import GAMES
from kirifuda.ui.render import read_card
from kirifuda.ui.results import deal_result, number_text, signed_text


def test_numbers_as_players_write_them() -> None:
    assert number_text(4.5) == "4½"
    assert number_text(0.5) == "½"
    assert signed_text(4.5) == "+4½"
    assert signed_text(-2) == "−2"
    assert signed_text(0) == "0"


def test_meitora_made_and_set_in_both_languages() -> None:
    made = {
        "outcome": "played",
        "score": [0, 4.5],
        "declarer": 1,
        "contract": "8H",
        "team_tricks": [1, 9],
        "broken": None,
        "tricks": [],
    }
    assert deal_result("meitora", made, "en")[0] == "Team 1 (Seat 1 & Seat 3) made 8♥ with 9 tricks: +4½"
    assert deal_result("meitora", made, "ja")[0] == "チーム1 (席1・席3) 8♥ 9トリックで成立 +4½"
    named = deal_result("meitora", made, "en", names=["Aki", "Bo", "Chie", "Dai"])
    assert named[0].startswith("Team 1 (Bo & Dai) made")
    down = dict(made, score=[2, 0], team_tricks=[4, 6])
    assert (
        deal_result("meitora", down, "en")[0]
        == "Team 1 (Seat 1 & Seat 3) went down in 8♥ with 6 tricks: Team 0 (Seat 0 & Seat 2) +2"
    )
    assert "落ち" in deal_result("meitora", down, "ja")[0] and "成立" not in deal_result("meitora", down, "ja")[0]


def test_meitora_shows_agari_and_negri_once_face_up() -> None:
    deal = {"outcome": "redeal", "score": [0, 0], "broken": None, "agari": "JK", "negri": None}
    assert deal_result("meitora", deal, "en") == ["Everyone passed: redeal, no score", "Agari Joker, negri -"]


def test_napoleon_payments_by_role() -> None:
    deal = {
        "outcome": "played",
        "score": [8, -4, -4, 4, -4],
        "napoleon": 0,
        "contract": "14S",
        "declared": "13S",
        "adjutant_card": "AH",
        "adjutant": 3,
        "army_face_cards": 15,
        "napoleon_wins": True,
        "solo": False,
        "middle": ["2C", "3C", "4C"],
        "discard": ["5D", "6D", "7D"],
    }
    lines = deal_result("napoleon", deal, "en")
    assert lines == [
        "Napoleon Seat 0 declared 13♠, re-declared 14♠",
        "Adjutant (A♥): Seat 3",
        "The Napoleon army took 15 face cards (14 needed): the Napoleon army wins",
        "Napoleon Seat 0 +8, adjutant Seat 3 +4, allies (Seat 1, Seat 2, Seat 4) −4 each",
        "Middle 2♣ 3♣ 4♣, discard 5♦ 6♦ 7♦",
    ]
    strat_b = dict(deal, score=[-8, 4, 4, -4, 4], army_face_cards=20, napoleon_wins=False)
    assert "strategy B" in deal_result("napoleon", strat_b, "en")[2]
    assert "連合軍の勝ち" in deal_result("napoleon", dict(deal, napoleon_wins=False, army_face_cards=10), "ja")[2]


def test_kakeya_chips_and_why() -> None:
    deal = {
        "outcome": "played",
        "score": [-2, 2],
        "trump": "D",
        "rensho": "AS",
        "face_cards": [5, 11],
        "winning_pair": 1,
        "payment": 2,
        "payment_column": "rensho_trump_ace",
        "sitting_out": None,
    }
    assert deal_result("kakeya", deal, "en")[:2] == [
        "Seat 1 & Seat 3 win with 11 face cards to 5",
        "Seat 0 & Seat 2 pay 2 chips (they were dealt the rensho and the trump ace)",
    ]
    tie = dict(deal, face_cards=[8, 8], payment=1, payment_column="plain")
    assert deal_result("kakeya", tie, "ja")[0] == "絵札 8 対 8: れんしょを配られなかった 席1・席3 の勝ち"


def test_unsun_winners() -> None:
    deal = {
        "outcome": "played",
        "score": [4, 4, 2, 2],
        "tricks_won": [4, 4, 2, 2],
        "winners": [0, 1],
        "trump": "H",
        "indicator": "7H",
        "dealer": 2,
    }
    lines = deal_result("unsun", deal, "en")
    assert lines[0] == "Seat 0 & Seat 1 share the deal with 4 tricks each"
    assert lines[2] == "Indicator 7♥: trump ♥; dealer Seat 2"


@pytest.mark.parametrize("game_id", sorted(GAMES))
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_every_finished_deal_has_words_without_raw_values(game_id: str, lang: str) -> None:
    info = GAMES[game_id]
    state = info.new_state(info.options({}))
    rng = random.Random(5)
    bots = [make_bot("random", game_id) for _ in range(state.num_players)]
    finished = 0
    while not state.is_over and finished < 4:
        if state.needs_deal:
            state.deal_random(rng)
            continue
        seat = state.to_act
        assert seat is not None
        before = state.deal_number
        state.apply(bots[seat].choose(state.view(seat), rng), seat)
        if state.deal_number != before:
            finished += 1
            last = state.view(0).last_deal
            assert last is not None
            lines = deal_result(game_id, dict(last), lang)
            assert lines
            text = "\n".join(lines)
            for raw in ("True", "False", "None", "[", "{"):
                assert raw not in text


@given(
    st.sampled_from([c for c in CARDS if not c.is_joker]), st.sampled_from(["en", "ja"]), st.booleans(), st.booleans()
)
def test_every_written_form_of_a_card_reads_back(card, lang: str, upper: bool, suit_first: bool) -> None:
    rank = card.code[0].replace("T", "10")
    suit = card.code[1]
    typed = f"{suit}{rank}" if suit_first else f"{rank}{suit}"
    typed = typed.upper() if upper else typed.lower()
    assert read_card(typed) == card
    assert read_card(format_card(card, lang)) == card  # as the screen shows it: A♠, ♠A
    assert read_card(f"{rank} {suit.lower()}") == card


@given(st.integers(-200, 200))
def test_half_points_are_written_exactly(halves: int) -> None:
    text = signed_text(halves / 2)
    back = text.replace("−", "-").replace("+", "").replace("½", ".5")
    if back.startswith(".") or back.startswith("-."):
        back = back.replace(".", "0.")
    assert float(back) == halves / 2
