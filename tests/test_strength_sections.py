"""The evaluation's tables beyond the pairings: per number of bots at a table, against
OpenSpiel's bots, the levels' ratings; and the page that one command regenerates."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kirifuda.bots.levels import FORMAT, level_ratings, rate_levels, rated_name
from kirifuda.bots.strength import SECTIONS, _join, _split
from kirifuda.errors import OptionError
from kirifuda.tournament import run_tournament, seatings_with


@given(st.integers(2, 7), st.data())
def test_seatings_give_the_first_bot_k_seats_and_every_seat_alike(n: int, data: st.DataObject) -> None:
    k = data.draw(st.integers(1, n - 1))
    seatings = seatings_with(["a", "b"], k, n)
    assert all(s.count("a") == k and len(s) == n for s in seatings)
    per_seat = Counter(seat for s in seatings for seat, who in enumerate(s) if who == "a")
    assert len(set(per_seat.values())) == 1 and len(per_seat) == n  # each seat holds `a` as often


@given(st.integers(2, 3), st.data())
def test_in_a_partnership_game_the_first_bot_fills_whole_teams_first(units: int, data: st.DataObject) -> None:
    n = 2 * units
    k = data.draw(st.integers(1, n - 1))
    for seating in seatings_with(["a", "b"], k, n, units):
        teams = [{seating[s], seating[s + units]} for s in range(units)]
        whole = sum(1 for t in teams if t == {"a"})
        assert whole == k // 2  # k // 2 teams are wholly `a`; an odd seat partners `b`
        assert sum(1 for t in teams if t == {"a", "b"}) == k % 2


def test_seatings_refuse_what_cannot_be_seated() -> None:
    with pytest.raises(OptionError, match="1 to 3 of the 4 seats"):
        seatings_with(["a", "b"], 4, 4)
    with pytest.raises(OptionError, match="two bots"):
        seatings_with(["a", "b", "c"], 1, 4)


def test_one_search_among_three_heuristics_is_played_in_every_seat() -> None:
    summary, results = run_tournament("meitora", ["search", "heuristic"], deals=1, seed=3, jobs=1, seats=1)
    assert summary["seats"] == 1
    assert [r["players"].count("search") for r in results[0].records] == [1, 1, 1, 1]
    assert sorted(r["players"].index("search") for r in results[0].records) == [0, 1, 2, 3]


def test_the_page_keeps_the_sections_it_does_not_make() -> None:
    page = _join({"pairings": "# top\n\nrows\n", "seats": "\n## Seats\n| x |\n", "levels": "\n## Levels\n"})
    parts = _split(page)
    assert set(parts) == {"pairings", "seats", "levels"}
    assert _join({**parts, "seats": "\n## Seats\n| y |\n"}).count("| y |") == 1
    assert "| x |" not in _join({**parts, "seats": "\n## Seats\n| y |\n"})
    assert list(SECTIONS)[0] == "pairings"


@pytest.mark.slow
def test_the_seats_table_gives_the_same_figures_for_the_same_seed(tmp_path: Path) -> None:
    from kirifuda.bots.strength import main

    tables = []
    for i in range(2):
        out = tmp_path / f"strength{i}.md"
        out.write_text("# Strength\n\nthe pairings, kept\n")
        args = ["--sections", "seats", "--seat-games", "unsun", "--deals", "1", "--seed", "7", "--jobs", "1"]
        assert main([*args, "--out", str(out)]) == 0
        text = out.read_text()
        assert "the pairings, kept" in text and "## Per number of bots at a table" in text
        rows = [r for r in text.splitlines() if r.startswith("| unsun")]
        assert [r.split("|")[4].strip() for r in rows] == ["1", "2", "3"]  # search holds 1, 2, 3 of 4 seats
        tables.append(rows)
    assert tables[0] == tables[1]


# -- against OpenSpiel's bots ----------------------------------------------------------------


def _openspiel_state():  # type: ignore[no-untyped-def]
    pytest.importorskip("pyspiel")
    import random

    import pyspiel

    import kirifuda.env.openspiel  # noqa: F401

    game = pyspiel.load_game("kirifuda_meitora", {"claims": "off"})
    state = game.new_initial_state()
    rng = random.Random(0)
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
    return game, state


def test_an_openspiel_bot_is_handed_the_seats_information_state_only() -> None:
    from kirifuda.bots.versus import InfoState

    _, state = _openspiel_state()
    seat = state.current_player()
    info = InfoState(state)
    assert info.legal_actions() == state.legal_actions()
    assert info.information_state_string() == state.information_state_string(seat)
    world = info.resample_from_infostate(seat, lambda: 0.5)
    assert world.information_state_string(seat) == state.information_state_string(seat)
    for other in {0, 1, 2, 3} - {seat}:
        with pytest.raises(PermissionError):
            info.information_state_string(other)
        with pytest.raises(PermissionError):
            info.resample_from_infostate(other, lambda: 0.5)
    for name in ("view", "history", "observation_string", "returns", "chance_outcomes", "serialize"):
        assert not hasattr(info, name), name


@pytest.mark.slow
@pytest.mark.parametrize("other", ["ismcts", "pimc"])
def test_the_match_against_openspiel_gives_the_same_figures_for_the_same_seed(other: str) -> None:
    pytest.importorskip("pyspiel")
    from kirifuda.bots.versus import run

    a, ra = run("meitora", ["heuristic", other], deals=1, seed=2, simulations=3)
    b, rb = run("meitora", ["heuristic", other], deals=1, seed=2, simulations=3)
    for s in (a, b):
        s.pop("decision_s", None)
        s.pop("mean_decision_s", None)
    assert a == b
    assert [r["players"] for r in ra[0].records] == [["heuristic", other] * 2, [other, "heuristic"] * 2]
    assert [r["deals"][0]["hands"] for r in ra[0].records][0] == ra[0].records[1]["deals"][0]["hands"]


def test_the_match_against_openspiel_refuses_bad_input() -> None:
    from kirifuda.bots.versus import run

    with pytest.raises(OptionError, match="two bots"):
        run("meitora", ["search"], deals=1, simulations=1)
    with pytest.raises(OptionError, match="oracle"):
        run("meitora", ["oracle", "ismcts"], deals=1, simulations=1)
    with pytest.raises(OptionError, match="either --seconds-per-move or --simulations"):
        run("meitora", ["search", "ismcts"], deals=1)
    with pytest.raises(OptionError, match="unknown game"):
        run("go", ["search", "ismcts"], deals=1, simulations=1)


# -- the levels' ratings -----------------------------------------------------------------------


def test_a_round_robin_rates_the_stronger_level_higher() -> None:
    got = rate_levels("meitora", 2, seed=1, levels=("random", "heuristic"))
    levels = got["levels"]
    assert set(levels) == {"random", "heuristic"}
    assert levels["heuristic"]["mu"] > 25 > levels["random"]["mu"]
    assert levels["heuristic"]["matches"] == levels["random"]["matches"] == 4  # 2 deals × 2 rotations
    assert got == rate_levels("meitora", 2, seed=1, levels=("random", "heuristic"))


def test_the_levels_file_is_read_per_game(tmp_path: Path) -> None:
    path = tmp_path / "levels.json"
    entry = {"mu": 30.0, "sigma": 2.0, "ordinal": 24.0, "matches": 8}
    path.write_text(json.dumps({"format": FORMAT, "games": {"meitora": {"levels": {rated_name("search"): entry}}}}))
    assert level_ratings("meitora", path) == {"search:normal": entry}
    assert level_ratings("napoleon", path) == {}
    assert level_ratings("meitora", tmp_path / "missing.json") == {}
    path.write_text(json.dumps({"format": "something-else", "games": {}}))
    assert level_ratings("meitora", path) == {}


def test_the_levels_section_is_rendered_from_the_ratings_file(tmp_path: Path) -> None:
    from kirifuda.bots.strength import main

    ratings = tmp_path / "levels.json"
    entry = {"mu": 31.5, "sigma": 1.25, "ordinal": 27.75, "matches": 40}
    ratings.write_text(
        json.dumps(
            {"format": FORMAT, "games": {"meitora": {"deals_per_pairing": 4, "levels": {"search:normal": entry}}}}
        )
    )
    page = tmp_path / "strength.md"
    page.write_text("# Strength\n\nkept\n")
    assert main(["--sections", "levels", "--levels-from", str(ratings), "--out", str(page)]) == 0
    text = page.read_text()
    assert "kept" in text and "| meitora | `search:normal` | 31.50 | 1.25 | 27.75 | 40 | 4 |" in text
    with pytest.raises(SystemExit):
        main(["--sections", "levels", "--levels-from", str(tmp_path / "none.json"), "--out", str(page)])
    with pytest.raises(SystemExit):
        main(["--sections", "nothing", "--out", str(page)])


@pytest.mark.slow
def test_one_command_makes_every_section_of_the_page(tmp_path: Path) -> None:
    pytest.importorskip("pyspiel")
    from kirifuda.bots.strength import main

    out, ratings = tmp_path / "strength.md", tmp_path / "levels.json"
    args = ["--games", "unsun", "--pairings", "heuristic,random", "--deals", "1", "--seed", "3", "--jobs", "1"]
    assert main([*args, "--simulations", "2", "--levels-file", str(ratings), "--out", str(out)]) == 0
    text = out.read_text()
    for heading in ("# Strength of the bots", "## Per number of bots", "## Against OpenSpiel's bots", "## Levels"):
        assert heading in text, heading
    assert "| unsun | `search` | `ismcts` |" in text and "| unsun | `search` | `pimc` |" in text
    assert "| unsun | `heuristic` | `random` |" in text
    assert set(json.loads(ratings.read_text())["games"]["unsun"]["levels"]) == {
        rated_name(x) for x in ("random", "heuristic", "search:easy", "search", "search:strong")
    }
