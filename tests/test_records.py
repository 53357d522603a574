"""Hand-written records in ``tests/records/<game>/``, replayed with their expected results,
and bad records in ``tests/records/bad/`` refused by ``kirifuda replay`` with status 1.

A good record ``NAME.json`` has ``NAME.expected.json`` beside it: the keys given there must
equal those of ``kirifuda replay NAME.json --json`` (deals are compared key by key).
A bad record ``NAME.json`` has ``NAME.error.json``: ``{"deal": i, "action": j, "contains": [...]}``
— the error's indices and words its message must contain.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kirifuda.cli import main

from .conftest import assert_subset

HERE = Path(__file__).parent / "records"
GOOD = sorted(
    p
    for p in HERE.glob("*/*.json")
    if p.parent.name != "bad" and not p.name.endswith((".expected.json", ".error.json"))
)
BAD = sorted(p for p in (HERE / "bad").glob("*.json") if not p.name.endswith(".error.json"))


@pytest.mark.parametrize("path", GOOD, ids=[f"{p.parent.name}/{p.stem}" for p in GOOD])
def test_good_record_replays_to_its_expected_result(path, capsys):
    assert main(["replay", str(path), "--json"]) == 0
    actual = json.loads(capsys.readouterr().out)
    expected = json.loads(path.with_name(path.stem + ".expected.json").read_text())
    assert_subset(expected, actual)
    assert main(["replay", str(path), "--lang", "ja"]) == 0
    assert main(["replay", str(path), "--lang", "en"]) == 0


@pytest.mark.parametrize("path", BAD, ids=[p.stem for p in BAD])
def test_bad_record_is_refused(path, capsys):
    assert main(["replay", str(path), "--json"]) == 1
    captured = capsys.readouterr()
    error = json.loads(captured.out)["error"]
    expected = json.loads(path.with_name(path.stem + ".error.json").read_text())
    assert error["deal"] == expected["deal"]
    assert error["action"] == expected["action"]
    for word in expected["contains"]:
        assert word in error["message"], (word, error["message"])
        assert word in captured.err


def test_every_good_record_has_an_expected_result():
    for p in GOOD:
        assert p.with_name(p.stem + ".expected.json").exists(), p
    for p in BAD:
        assert p.with_name(p.stem + ".error.json").exists(), p


@pytest.mark.parametrize(
    "path", [p for p in GOOD if p.parent.name in ("meitora", "unsun")][:4], ids=lambda p: f"{p.parent.name}/{p.stem}"
)
def test_keys_another_program_adds_are_kept_and_change_nothing(path, tmp_path, capsys):
    """Keys this version does not know — at the top (a date) or in a deal (Meitora's dealer,
    which its rules say may be left out of records, so may be written; a comment) — are
    metadata: the replay is the same, and reading then writing the record keeps them."""
    from kirifuda.record import dumps, loads

    data = json.loads(path.read_text())
    data["date"] = "2026-11-22"
    for i, deal in enumerate(data["deals"]):
        deal["dealer"] = i % 4
        deal["comment"] = "第1局" if i == 0 else None
    marked = tmp_path / "marked.json"
    marked.write_text(json.dumps(data, ensure_ascii=False))
    outs = []
    for p in (path, marked):
        assert main(["replay", str(p), "--json"]) == 0
        outs.append(json.loads(capsys.readouterr().out))
    assert outs[0] == outs[1]
    again = json.loads(dumps(loads(marked.read_text())))
    assert again["date"] == "2026-11-22"
    assert [(d["dealer"], d["comment"]) for d in again["deals"]] == [
        (i % 4, "第1局" if i == 0 else None) for i in range(len(data["deals"]))
    ]
    assert loads(dumps(loads(marked.read_text()))) == loads(marked.read_text())


@pytest.mark.parametrize(
    "path,shown",
    [
        ("meitora/first-bidder-set-left-jack-half-point.json", ("Joker (asks ♥)", "ジョーカー (請求 ♥)")),
        ("napoleon/four-joker-redeclare.json", ("3♠ (calls the joker)", "♠3 (ジョーカー請求)")),
    ],
)
def test_the_readable_account_shows_a_joker_leads_request_and_a_call(path, shown, capsys):
    """A trick's lead is shown with what it asks: the joker's named suit, ♠3's call."""
    for lang, text in zip(("en", "ja"), shown):
        assert main(["replay", str(HERE / path), "--lang", lang]) == 0
        assert text in capsys.readouterr().out
