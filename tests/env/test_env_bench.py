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


def test_the_env_bench_prints_a_row_per_game_beside_euchre(capsys: pytest.CaptureFixture[str]) -> None:
    from kirifuda.env.bench import main as env_bench

    env_bench(["--games", "kakeya,unsun", "--seconds", "0.05", "--simulations", "5", "--cpu"])
    lines = capsys.readouterr().out.splitlines()
    assert "CPU time" in lines[0]
    rows = {line.split()[0]: line.split()[1:] for line in lines[1:]}
    assert set(rows) == {"euchre", "kakeya", "unsun"}
    assert rows["euchre"][1] == "100%"
    for game in ("kakeya", "unsun"):
        steps, share, sims = rows[game]
        assert float(steps) > 0 and share.endswith("%") and float(sims) > 0
