"""Ratings (kirifuda.ratings): teams in partnership games, free-for-all in the others, only
rated matches count, an abandoning player loses, bots are rated under their level names."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from kirifuda import record
from kirifuda.ratings import MatchResult, Ratings, result_of, units_of

MEITORA = ["Aki", "Bo", "Chie", "Dai"]


def test_a_team_win_raises_both_partners_and_lowers_both_opponents() -> None:
    book = Ratings()
    book.rate(MatchResult("meitora", MEITORA, [17, 12]))
    aki, bo, chie, dai = (book.get("meitora", p) for p in MEITORA)
    assert aki.mu > 25 and chie.mu > 25 and aki.mu == chie.mu
    assert bo.mu < 25 and dai.mu < 25
    assert all(r.matches == 1 for r in (aki, bo, chie, dai))
    assert aki.sigma < 25 / 3  # more is known after a match


def test_kakeya_six_players_rates_three_pairs() -> None:
    assert units_of("kakeya", 6) == [[0, 3], [1, 4], [2, 5]]
    book = Ratings()
    book.rate(MatchResult("kakeya", ["A", "B", "C", "D", "E", "F"], [9, 6, 0]))
    a, b, c = (book.get("kakeya", p).mu for p in "ABC")
    assert a > b > c and book.get("kakeya", "D").mu == a


def test_free_for_all_orders_by_totals_and_ties_share() -> None:
    book = Ratings()
    book.rate(MatchResult("unsun", ["A", "B", "C", "D"], [20, 12, 12, 4]))
    a, b, c, d = (book.get("unsun", p) for p in "ABCD")
    assert a.mu > b.mu == c.mu > d.mu
    assert MatchResult("napoleon", list("ABCDE"), [6, -3, 3, -3, -3]).ranks() == [0, 2, 1, 2, 2]


def test_an_unrated_match_changes_nothing() -> None:
    book = Ratings()
    book.rate(MatchResult("meitora", MEITORA, [17, 12]))
    before = {p: book.get("meitora", p) for p in MEITORA}
    book.rate(MatchResult("meitora", MEITORA, [3, 17], rated=False))
    assert {p: book.get("meitora", p) for p in MEITORA} == before
    assert book.get("unsun", "Aki").matches == 0


def test_the_seat_that_abandons_loses_even_when_ahead() -> None:
    book = Ratings()
    book.rate(MatchResult("unsun", ["A", "B", "C"], [10, 4, 2], abandoned_by=0))
    assert book.get("unsun", "A").mu < 25 < book.get("unsun", "B").mu
    assert MatchResult("meitora", MEITORA, [10, 3], abandoned_by=2).ranks() == [1, 0]


def test_bots_are_rated_by_level_and_ratings_are_per_game() -> None:
    book = Ratings()
    seats = ["Aki", "search:strong", "search:easy", "search:strong"]
    for _ in range(3):
        book.rate(MatchResult("meitora", seats, [5, 17]))
    board = book.leaderboard("meitora")
    assert board[0][0] == "search:strong" and board[0][1].matches == 3
    assert [name for name, _ in board][-1] in ("Aki", "search:easy")
    assert book.leaderboard("napoleon") == []
    assert [n for n, _ in book.leaderboard("meitora", players=["Aki"])] == ["Aki"]


def test_a_rated_record_updates_from_its_replay() -> None:
    rec = record.from_json(
        {
            "format": "kirifuda-record/1",
            "game": "unsun",
            "players": list("ABCD"),
            "options": {"deals": 1},
            "deals": [{"scored": {"tricks_won": [2, 6, 3, 1]}}],
        }
    )
    result = result_of(rec)
    assert list(result.totals) == [2, 6, 3, 1] and result.ranks() == [2, 0, 1, 3]
    book = Ratings()
    book.rate(result)
    assert book.leaderboard("unsun")[0][0] == "B"


@settings(max_examples=40, deadline=None)
@given(totals=st.lists(st.integers(-20, 20), min_size=5, max_size=5))
def test_a_better_total_never_rates_lower(totals: list[int]) -> None:
    book = Ratings()
    book.rate(MatchResult("napoleon", list("ABCDE"), totals))
    mus = [book.get("napoleon", p).mu for p in "ABCDE"]
    for i in range(5):
        for j in range(5):
            if totals[i] > totals[j]:
                assert mus[i] > mus[j]
            elif totals[i] == totals[j]:
                assert abs(mus[i] - mus[j]) < 1e-9
