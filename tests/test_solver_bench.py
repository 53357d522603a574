"""``kirifuda bench --json`` carries the solver and decision figures (tiny runs: the figures
themselves are measured by ``kirifuda bench``, not asserted here)."""

from __future__ import annotations

import json

import pytest

from kirifuda.cli import main
from kirifuda.solver import has_c_core


def test_bench_json_has_solver_and_decision_figures(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(
            [
                "bench",
                "--game",
                "meitora",
                "--seconds",
                "0.05",
                "--no-openspiel",
                "--solver-deals",
                "3",
                "--decision-deals",
                "1",
                "--json",
            ]
        )
        == 0
    )
    out = json.loads(capsys.readouterr().out)
    fig = out["solver"]["meitora"]
    assert fig["deals"] == 3 and 0 < fig["full_deal_ms_median"] <= fig["full_deal_ms_max"]
    assert fig["every_card_ms_median"] > 0
    assert out["decision"]["meitora"]["p95_s"] > 0
    # DDS beside it, in the same run, and the ratios the bar is read from
    dds = fig["dds_bridge"]
    assert dds["tricks_left"] == 10 and dds["deals"] == 3 and dds["all_cards_ms_mean"] > 0
    assert fig["dds_ratio"] == {
        "default_call": round(fig["full_deal_ms_median"] / dds["all_cards_ms_median"], 2),
        "best_card": round(fig["full_deal_ms_median"] / dds["full_deal_ms_median"], 2),
        "every_card": round(fig["every_card_ms_median"] / dds["all_cards_ms_median"], 2),
    }


def test_bench_prints_the_ratios_to_dds(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(
            [
                "bench",
                "--game",
                "meitora",
                "--seconds",
                "0.05",
                "--no-openspiel",
                "--solver-deals",
                "2",
                "--decision-deals",
                "0",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "meitora's median over DDS's:" in out and "× its default call (every card)" in out
    assert "× the best card alone; every first lead over every card:" in out


def test_dds_figures_time_the_best_card_and_every_card() -> None:
    from kirifuda.solver.bench import bench_dds

    fig = bench_dds(3, tricks_left=4)
    assert fig is not None and fig["deals"] == 3
    assert 0 < fig["full_deal_ms_median"] <= fig["full_deal_ms_max"] and fig["all_cards_ms_median"] > 0
    assert fig["full_deal_ms_mean"] > 0 and fig["all_cards_ms_mean"] > 0
    if has_c_core():
        assert fig["kirifuda_ms_median"] > 0 and fig["kirifuda_differs"] == 0


def test_kakeya_solver_figures_report_exact_positions_and_budgeted_full_deals() -> None:
    from kirifuda.solver.bench import bench_kakeya

    fig = bench_kakeya(2, full_deals=1, full_deal_nodes=20_000)
    assert set(fig["by_tricks_left"]) == {"6", "8", "10"} and fig["by_tricks_left"]["6"]["exact"] == 2
    assert fig["by_tricks_left"]["6"]["positions"] == 2
    assert fig["deals"] == 1 and fig["full_deal_node_budget"] == 20_000
    assert fig["full_deal_exact"] in (0, 1)


def test_napoleon_solver_figures(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(
            [
                "bench",
                "--game",
                "napoleon",
                "--seconds",
                "0.05",
                "--no-openspiel",
                "--solver-deals",
                "2",
                "--decision-deals",
                "0",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "napoleon   solver, full deal within 5,000,000 nodes" in out and "6 tricks left" in out
    assert "DDS, bridge, 10 tricks left" in out and "median over DDS's" not in out  # budgeted: no ratio
    assert "look-ahead from the first lead" in out


def test_bench_json_has_unsun_solver_and_decision_figures(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(
            [
                "bench",
                "--game",
                "unsun",
                "--seconds",
                "0.05",
                "--no-openspiel",
                "--solver-deals",
                "1",
                "--decision-deals",
                "1",
                "--json",
            ]
        )
        == 0
    )
    out = json.loads(capsys.readouterr().out)
    fig = out["solver"]["unsun"]
    assert set(fig["by_tricks_left"]) == {"3", "4"}
    assert all(e["positions"] == e["exact"] == 1 for e in fig["by_tricks_left"].values())
    assert fig["deals"] == 1 and fig["full_deal_node_budget"] > 0
    assert out["decision"]["unsun"]["p95_s"] > 0 and "play" in out["decision"]["unsun"]["p95_s_by_phase"]


def test_positions_skip_deals_that_everyone_passes() -> None:
    """Among the first 200 Meitora deals some are passed out (dealt again): the positions are
    still all at the first trick of a played deal."""
    from kirifuda.games.meitora import Phase
    from kirifuda.solver.bench import meitora_first_trick_states

    states = meitora_first_trick_states(200)
    assert len(states) == 200 and all(s.phase is Phase.PLAY and not s._tricks for s in states)
