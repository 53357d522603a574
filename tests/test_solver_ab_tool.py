"""``tools/solver_ab.py``, the solver builds' comparison: it runs each build in a process of its
own on the bench's positions and says whether their values agree."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from kirifuda.solver import _core, has_c_core

ROOT = Path(__file__).resolve().parent.parent
TOOL = ROOT / "tools" / "solver_ab.py"

pytestmark = pytest.mark.skipif(not has_c_core(), reason="the solver's C core is not built")


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(TOOL), *args], capture_output=True, text=True, cwd=ROOT)


@pytest.mark.parametrize("kind,call", [("meitora", "value"), ("bridge", "value"), ("meitora", "moves")])
def test_a_build_against_itself_has_the_same_values_and_nodes(kind: str, call: str) -> None:
    build = str(_core.csolver.__file__)  # type: ignore[union-attr]
    out = _run(build, build, "--positions", kind, "-n", "6", "--rounds", "1", "--passes", "1", "--call", call)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert len(lines) == 2
    assert all(line.endswith("values the same") for line in lines)
    nodes = {line.split("nodes ")[1].split()[0] for line in lines}
    assert len(nodes) == 1 and int(nodes.pop()) > 6
    assert "(1.000)" in lines[0]


def _nodes(call: str) -> int:
    build = str(_core.csolver.__file__)  # type: ignore[union-attr]
    out = _run(build, "--positions", "meitora", "-n", "6", "--rounds", "1", "--passes", "1", "--call", call)
    assert out.returncode == 0, out.stderr
    return int(out.stdout.split("nodes ")[1].split()[0])


def test_every_first_choice_is_searched_with_call_moves() -> None:
    """``--call moves`` times ``solve_moves``: a value for each first choice costs more nodes
    than the position's value alone."""
    assert _nodes("moves") > _nodes("value")


def test_a_missing_build_is_named() -> None:
    out = _run("no-such-build.so")
    assert out.returncode == 2
    assert "no such build: no-such-build.so" in out.stderr
