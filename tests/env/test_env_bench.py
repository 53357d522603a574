"""``kirifuda bench --json`` carries the env figures through OpenSpiel beside euchre's (a tiny
run: the figures themselves are measured by ``kirifuda bench``, not asserted here)."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("pyspiel")

from kirifuda.cli import main  # noqa: E402


def test_bench_json_has_env_and_ismcts_figures(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--game", "kakeya", "--seconds", "0.05", "--no-solver", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    fig = out["games"]["kakeya"]
    assert fig["env_steps_per_s"] > 0 and fig["openspiel_env_steps_per_s"] > 0
    assert fig["ismcts_sims_per_s"] > 0
    assert out["openspiel"]["euchre"]["env_steps_per_s"] > 0
    assert main(["bench", "--game", "kakeya", "--seconds", "0.05", "--no-solver"]) == 0
    assert "IS-MCTS" in capsys.readouterr().out
