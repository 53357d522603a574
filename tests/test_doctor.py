"""``kirifuda doctor`` and the start-up notice: where a C core failed to build, kirifuda says
so once (play, serve, tournament) and the doctor says which and why; with both built, nothing
is said at start-up."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from kirifuda import doctor
from kirifuda.cli import main
from kirifuda.games import meitora
from kirifuda.solver import _core, has_c_core

_NO_C = (
    "import sys\n"
    "sys.modules['kirifuda.solver._csolver'] = None\n"  # an import that fails, as where
    "sys.modules['kirifuda.games._meitora_core'] = None\n"  # no C compiler built them
    "from kirifuda.cli import main\n"
)


def _run(prelude: str, argv: list[str]) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "KIRIFUDA_PURE_PYTHON"}
    return subprocess.run(
        [sys.executable, "-c", prelude + f"sys.exit(main({argv!r}))"],
        capture_output=True,
        text=True,
        env={**env, "LANG": "C"},
        timeout=120,
    )


def test_a_missing_core_is_announced_once_at_the_start_of_a_tournament() -> None:
    run = _run(_NO_C, ["tournament", "meitora", "--bots", "heuristic,random", "--deals", "1", "--jobs", "1", "--quiet"])
    assert run.returncode == 0, run.stderr
    assert run.stderr.count("was not built") == 1, run.stderr
    assert "kirifuda.solver._csolver" in run.stderr and "kirifuda.games._meitora_core" in run.stderr
    assert "kirifuda doctor" in run.stderr


def test_the_doctor_names_what_is_missing_and_why() -> None:
    run = _run(_NO_C, ["doctor", "--quick", "--json"])
    assert run.returncode == 0, run.stderr
    data = json.loads(run.stdout)
    cores = {c["name"]: c for c in data["cores"]}
    assert not cores["kirifuda.solver._csolver"]["built"]
    assert "could not be imported" in cores["kirifuda.solver._csolver"]["why_missing"]
    assert not cores["kirifuda.games._meitora_core"]["built"]
    assert data["solver_build"] is None
    assert data["speed"]["solver"]["core"] == "python" and data["speed"]["solver"]["ms_median"] > 0
    assert data["speed"]["engine"]["core"] == "python"
    text = _run(_NO_C, ["doctor", "--quick", "--lang", "ja"]).stdout
    assert "純 Python" in text and "pip install -e ." in text


@pytest.mark.skipif(not (has_c_core() and meitora.HAS_C_CORE), reason="the C cores are not built")
def test_with_both_cores_built_nothing_is_announced(capsys: pytest.CaptureFixture[str]) -> None:
    assert doctor.fallback_notice("en") is None
    assert not doctor.announce_fallback("en")
    text, data = doctor.report("en", quick=True)
    assert all(c["built"] for c in data["cores"])
    assert data["solver_build"] in ("bmi2", "portable")
    assert data["speed"]["solver"]["core"] == "c" and data["speed"]["decision"]["cpu_s"] > 0
    assert "built" in text


def test_the_notice_is_printed_once_per_process(monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    monkeypatch.setattr(_core, "csolver", None)
    monkeypatch.setattr(_core, "missing", "no compiler")
    monkeypatch.setattr(doctor, "_announced", False)
    out = io.StringIO()
    assert doctor.announce_fallback("ja", out)
    assert not doctor.announce_fallback("ja", out)
    assert out.getvalue().count("kirifuda.solver._csolver") == 1
    assert "ビルドされていません" in out.getvalue()


def test_doctor_on_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["doctor", "--quick", "--lang", "en"]) == 0
    out = capsys.readouterr().out
    assert "kirifuda.solver._csolver" in out and "kirifuda.games._meitora_core" in out
