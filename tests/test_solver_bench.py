"""``kirifuda bench --json`` carries the solver and decision figures (tiny runs: the figures
themselves are measured by ``kirifuda bench``, not asserted here)."""

from __future__ import annotations

import json

import pytest

from kirifuda.cli import main


def test_bench_json_has_solver_and_decision_figures(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--game", "meitora", "--seconds", "0.05", "--no-openspiel",
                 "--solver-deals", "3", "--decision-deals", "1", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    fig = out["solver"]["meitora"]
    assert fig["deals"] == 3 and 0 < fig["full_deal_ms_median"] <= fig["full_deal_ms_max"]
    assert out["decision"]["meitora"]["p95_s"] > 0


def test_bench_json_has_unsun_solver_and_decision_figures(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--game", "unsun", "--seconds", "0.05", "--no-openspiel",
                 "--solver-deals", "1", "--decision-deals", "1", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    fig = out["solver"]["unsun"]["tricks_left"]
    assert set(fig) == {"3", "4"} and all(e["positions"] == 1 for e in fig.values())
    assert out["decision"]["unsun"]["p95_s"] > 0 and "play" in out["decision"]["unsun"]["p95_s_by_phase"]
