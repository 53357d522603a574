"""``kirifuda analyze RECORD``: the review printed in English and Japanese, and as JSON; a bad
record or deal number is an error message and status 1, never a traceback."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kirifuda.cli import main
from kirifuda.record import dumps, from_state

from .helpers import played_deal


@pytest.fixture(scope="module")
def record_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    state = played_deal("meitora", 4, kinds=("random", "heuristic"))
    path = tmp_path_factory.mktemp("rec") / "m.json"
    path.write_text(dumps(from_state(state, players=["Aki", "Bo", "Chie", "Dai"])), encoding="utf-8")
    return path


def test_analyze_prints_marks_and_a_summary_in_english(record_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyze", str(record_file), "--lang", "en"]) == 0
    out = capsys.readouterr().out
    assert "== Review of Meitora" in out and "-- Summary --" in out
    assert "trick 1 " in out and " → " in out
    assert "positions solved exactly" in out
    # the seats as the record names them, each summarised
    for name in ("Aki", "Bo", "Chie", "Dai"):
        assert f"\n{name} " in out


def test_analyze_in_japanese(record_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyze", str(record_file), "--lang", "ja"]) == 0
    out = capsys.readouterr().out
    assert "の検討 ==" in out and "-- まとめ --" in out and "第1トリック" in out and "正確に解いた局面" in out
    assert "Summary" not in out and "trick 1 " not in out


def test_analyze_json_matches_the_review(record_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyze", str(record_file), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["game"] == "meitora" and data["players"] == ["Aki", "Bo", "Chie", "Dai"]
    deal = data["deals"][-1]
    plays = [m for m in deal["marks"] if m["kind"] in ("play", "claim")]
    assert plays and all(m["method"] == "exact" for m in plays)
    for m in plays:
        assert m["before"][0] - m["after"][0] == m["loss"]
        assert (m["best"] is None) == (m["loss"] == 0)
    for s in deal["seats"]:
        lost = [m for m in plays if m["seat"] == s["seat"] and m["loss"] > 0]
        assert s["lost"] == sum(m["loss"] for m in lost) and s["tricks"] == [m["trick"] for m in lost]


def test_analyze_refuses_bad_input(tmp_path: Path, record_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyze", str(tmp_path / "missing.json"), "--json"]) == 1
    captured = capsys.readouterr()
    assert "cannot read it" in captured.err and "Traceback" not in captured.err
    assert json.loads(captured.out)["error"]["message"].startswith("cannot read it")
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "kirifuda-record/1", "game": "chess", "deals": []}', encoding="utf-8")
    assert main(["analyze", str(bad)]) == 1
    assert "unknown game 'chess'" in capsys.readouterr().err
    assert main(["analyze", str(record_file), "--deal", "99"]) == 1
    assert "no deal 99 in this record" in capsys.readouterr().err
