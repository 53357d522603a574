"""``kirifuda learn GAME`` through a real process, in both languages: a worse choice first at
every marked step (refused with the reason), then the tutorial's own answers to the end."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from kirifuda.i18n import t
from kirifuda.tutorials import TUTORIAL_DIR, Lesson, available, load

from .helpers import typed, wrong_choice


def _learn(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "kirifuda.cli", "learn", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        env={"PATH": "/usr/bin:/bin", "COLUMNS": "100", "PYTHONIOENCODING": "utf-8"},
    )


def _answers(game: str, lang: str) -> tuple[list[str], list[str]]:
    """The lines to type, and the reasons the worse choices must be refused with."""
    lesson = Lesson(load(game), lang)
    lines: list[str] = []
    whys: list[str] = []
    while not lesson.done:
        step = lesson.step
        assert step is not None
        if not lesson.learner_turn:
            lesson.advance()
            continue
        if step.expect is not None and step.why is not None:
            wrong = wrong_choice(lesson)
            if wrong is not None:
                lines.append(typed(lesson, wrong))
                whys.append(step.why.get(lang))
        lines.append(typed(lesson, step.action))
        lesson.answer(step.action)
    return lines, whys


@pytest.mark.parametrize("lang", ["ja", "en"])
@pytest.mark.parametrize("game", sorted(available()))
def test_learn_plays_through(game: str, lang: str) -> None:
    lines, whys = _answers(game, lang)
    out = _learn(game, "--lang", lang, stdin="\n".join(lines) + "\n")
    assert out.returncode == 0, out.stderr
    assert "Traceback" not in out.stderr
    text = " ".join(out.stdout.split())  # Rich wraps long lines
    assert " ".join(t("tutorial.done", lang, game=game).split()) in text
    assert text.count(t("tutorial.worse", lang, why="").strip()) == len(whys) >= 2
    tutorial = load(game)
    first_note = tutorial.data.notes[0].text.get(lang)
    assert " ".join(first_note.split())[:30] in text.replace("│ ", "").replace(" │", "")


def test_learn_stops_cleanly() -> None:
    out = _learn("kakeya", "--lang", "en", stdin="q\n")
    assert out.returncode == 0 and t("quit", "en") in out.stdout
    out = _learn("kakeya", "--lang", "en", stdin="")  # end of input
    assert out.returncode == 0 and "Traceback" not in out.stderr


def test_learn_bad_input_is_asked_again() -> None:
    lines, _ = _answers("kakeya", "en")
    out = _learn("kakeya", "--lang", "en", stdin="\n".join(["zz", "99"] + lines) + "\n")
    assert out.returncode == 0
    assert t("bad_input", "en", text="zz") in out.stdout


def test_learn_a_club_file(tmp_path: Path) -> None:
    bad = tmp_path / "ours.json"
    bad.write_text('{"format": "kirifuda-tutorial/1"}', encoding="utf-8")
    out = _learn("meitora", "--file", str(bad))
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert "ours.json: game:" in out.stderr
    good = tmp_path / "mine.json"
    good.write_text((TUTORIAL_DIR / "unsun.json").read_text(encoding="utf-8"), encoding="utf-8")
    out = _learn("meitora", "--file", str(good))
    assert out.returncode == 2 and "a tutorial of unsun, not meitora" in out.stderr
