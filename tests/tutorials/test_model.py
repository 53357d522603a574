"""The tutorial files: every game has one in both languages, each record replays through the
engine, every note's step exists, every expected action is legal for the learner there, each
rule the tutorial teaches actually arises in its deal, and a faulty file is refused naming the
note and the field."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from kirifuda import record as records
from kirifuda.actions import Play
from kirifuda.games import BUILTIN, GAMES
from kirifuda.tutorials import TUTORIAL_DIR, TutorialError, available, load, parse_tutorial


def raw(game: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((TUTORIAL_DIR / f"{game}.json").read_text(encoding="utf-8"))
    return data


def test_every_builtin_game_has_a_tutorial() -> None:
    """A tutorial is optional data of a game (``tutorials/<id>.json``); kirifuda's own games
    each have one, and every tutorial is of a registered game."""
    assert BUILTIN and set(BUILTIN) <= set(available()) <= set(GAMES)


@pytest.mark.parametrize("game", sorted(available()))
def test_both_languages_everywhere(game: str) -> None:
    data = raw(game)
    texts = [data["title"]] + [n["text"] for n in data["notes"]] + [n["why"] for n in data["notes"] if "why" in n]
    for text in texts:
        assert set(text) == {"ja", "en"}
        assert text["ja"].strip() and text["en"].strip()
        assert any(ord(ch) > 0x3000 for ch in text["ja"])  # Japanese, not a copy of the English
        assert text["ja"] != text["en"]


@pytest.mark.parametrize("game", sorted(available()))
def test_record_replays_and_notes_fit(game: str) -> None:
    data = raw(game)
    rec = records.from_json(data["record"])
    steps = list(records.steps(rec))  # raises on any illegal action
    final = records.replay(rec)
    assert final.summary()["deals"][0]["outcome"] == "played"
    learner = data["seat"]
    marked = 0
    for note in data["notes"]:
        assert 0 <= note["step"] <= len(steps)
        if "expect" not in note:
            continue
        marked += 1
        state = rec.new_state()
        state.deal(rec.deals[0].hands, rec.deals[0].rest)
        for s in steps[: note["step"]]:
            state.apply(s.action, s.seat)
        assert state.to_act == learner
        for a in note["expect"]:
            assert state.is_legal(rec.info.action_from_json(a, learner), learner), (note["step"], a)
        assert steps[note["step"]].action in [rec.info.action_from_json(a, learner) for a in note["expect"]]
    assert marked >= 3  # the learner's choice is checked at several moments
    tutorial = load(game)
    assert len(tutorial.steps) == len(steps)


def _plays(game: str) -> tuple[dict[str, Any], list[tuple[int, Play]]]:
    rec = records.from_json(raw(game)["record"])
    summary = records.replay(rec).summary()["deals"][0]
    return summary, [(s.seat, s.action) for s in records.steps(rec) if isinstance(s.action, Play)]


def test_meitora_deal_meets_its_rules() -> None:
    data = raw("meitora")
    summary, plays = _plays("meitora")
    actions = data["record"]["deals"][0]["actions"]
    bids = [a["bid"] for a in actions if "bid" in a and a["bid"] != "pass"]
    assert bids == ["6S", "6D", "6H"]  # the strain order decides between equal counts
    assert summary["declarer"] == 0 and summary["contract"] == "6H"
    assert {"seat": 0, "discard": ["JC"]} in actions  # the negri, after taking the agari
    assert data["record"]["deals"][0]["rest"] == ["8S"]  # the agari
    trick = next(t for t in summary["tricks"] if "JD" in t["cards"])  # the left jack beats ♥A
    assert "AH" in trick["cards"] and trick["cards"].index("JD") == (trick["winner"] - trick["leader"]) % 4
    assert (0, Play(parse("JK"), request="H")) in plays  # the joker led with a request


def test_napoleon_deal_meets_its_rules() -> None:
    data = raw("napoleon")
    summary, plays = _plays("napoleon")
    actions = data["record"]["deals"][0]["actions"]
    assert summary["napoleon"] == 0 and {"seat": 0, "adjutant": "JS"} in actions
    first = summary["tricks"][0]
    assert "AS" in first["cards"] and first["winner"] == first["leader"]  # the almighty, led by the learner
    same2 = [
        t
        for t in summary["tricks"]
        if len({c[1] for c in t["cards"]}) == 1
        and t["cards"][(t["winner"] - t["leader"]) % 5][0] == "2"
        and t["cards"][0][0] == "A"
    ]
    assert len(same2) == 2  # a 2 beats the ace of its suit, twice


def test_kakeya_deal_meets_its_rules() -> None:
    summary, plays = _plays("kakeya")
    assert summary["rensho"] == "AS" and summary["trump"] == "D"
    trick = next(t for t in summary["tricks"] if "AS" in t["cards"])
    assert "AD" in trick["cards"] and trick["winner"] == 0  # the rensho beats the trump ace
    assert summary["face_cards"] == [10, 6] and summary["winning_pair"] == 0


def test_unsun_deal_meets_its_rules() -> None:
    summary, plays = _plays("unsun")
    assert summary["indicator"] == "TS" and summary["trump"] == "S"
    # the learner is 取り番 and wins a trick in the black group although ♥A was played
    trick = next(t for t in summary["tricks"] if "8C" in t["cards"])
    assert trick["last_player"] == 0 and trick["winner"] == 0 and "AH" in trick["cards"]
    face_down = [
        (s, a.card.code)
        for s, a in plays
        if a.card.suit is not None and a.card.suit.value == "S" and a.card.code[0] in "AKQJ"
    ]
    assert (0, "JS") in face_down and any(s != 0 for s, _ in face_down)


def parse(code: str) -> Any:
    from kirifuda.cards import parse_card

    return parse_card(code)


# -- faulty files --------------------------------------------------------------------------


def _marked(data: dict[str, Any]) -> dict[str, Any]:
    return next(n for n in data["notes"] if "expect" in n)


def _fault(change: Any) -> str:
    data = copy.deepcopy(raw("meitora"))
    change(data)
    with pytest.raises(TutorialError) as info:
        parse_tutorial(data, "club.json")
    return str(info.value)


def test_faults_name_the_note_and_field() -> None:
    msg = _fault(lambda d: d["notes"][0]["text"].pop("en"))
    assert msg.startswith("club.json: notes[0].text.en:") and "required" in msg.lower()
    msg = _fault(lambda d: d["notes"][1]["text"].update(ja=""))
    assert "notes[1].text.ja" in msg
    msg = _fault(lambda d: d["notes"][0].update(step=999))
    assert "notes[0] (step 999).step" in msg and "45 actions" in msg
    msg = _fault(lambda d: _marked(d).update(expect=[{"bid": "6S"}]))
    assert "expect[0]" in msg and "not legal" in msg and "step 3" in msg
    msg = _fault(lambda d: _marked(d).update(expect=[{"bid": "7H"}]))
    assert "record's action" in msg and "step 3" in msg
    msg = _fault(lambda d: _marked(d).pop("why"))
    assert ".why" in msg and "step 3" in msg
    msg = _fault(lambda d: d["notes"][0].update(expect=[{"bid": "6S"}], why={"ja": "x", "en": "y"}))
    assert "not the learner's" in msg
    msg = _fault(lambda d: d["notes"][0].update(colour="red"))
    assert "notes[0].colour" in msg
    msg = _fault(lambda d: _marked(d).update(expect=[{"bid": "6X"}]))
    assert "expect[0]" in msg
    msg = _fault(lambda d: d["record"]["deals"][0]["actions"].pop())
    assert "played to its end" in msg
    msg = _fault(lambda d: d["record"]["deals"][0]["actions"][5].update(play="AS"))
    assert msg.startswith("club.json: record:") and "action 5" in msg
    msg = _fault(lambda d: d.update(seat=4))
    assert msg.startswith("club.json: seat:")
    msg = _fault(lambda d: d.update(game="unsun"))
    assert "game" in msg


def test_a_club_file_is_read_from_disk(tmp_path: Any) -> None:
    from kirifuda.tutorials import load_file

    path = tmp_path / "ours.json"
    data = raw("kakeya")
    data["notes"][0]["text"]["en"] = "Our club's first game."
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    assert load_file(path).data.notes[0].text.en == "Our club's first game."
    path.write_text("{", encoding="utf-8")
    with pytest.raises(TutorialError, match="ours.json: not valid JSON"):
        load_file(path)
