"""The documentation agrees with the code: each game's options table in ``docs/<game>.md`` lists
exactly the options of the game's options type, with the same defaults and values; the docs are
self-contained (no pointer to files outside the repository) and speak of no work sessions."""

from __future__ import annotations

import dataclasses
import json
import re
import typing
from pathlib import Path
from typing import Any

import pytest

from kirifuda import find_game

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
GAMES = ("meitora", "napoleon", "kakeya", "unsun")
READER_DOCS = sorted(DOCS.glob("*.md")) + [ROOT / "README.md"]


def options_table(game: str) -> dict[str, list[str]]:
    """The rows of the table under ``## Options`` in docs/<game>.md: option name → the code
    spans of its values cell, in order."""
    text = (DOCS / f"{game}.md").read_text(encoding="utf-8")
    section = re.search(r"^## Options.*?\n(.*?)(?=^## )", text, re.S | re.M)
    assert section, f"docs/{game}.md has no '## Options' section"
    rows: dict[str, list[str]] = {}
    for line in section.group(1).splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if not line.startswith("|") or len(cells) < 3 or not cells[0].startswith("`"):
            continue
        rows[cells[0].strip("`")] = re.findall(r"`([^`]*)`", cells[1]) or [cells[1]]
        if cells[1].startswith("left out"):
            rows[cells[0].strip("`")].insert(0, "null")
    return rows


def literal(text: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text  # a description such as `players`


@pytest.mark.parametrize("game", GAMES)
def test_options_table_names_every_option_with_its_default(game: str) -> None:
    opts_type = type(find_game(game).options())
    fields = {f.name: f for f in dataclasses.fields(opts_type)}
    table = options_table(game)
    assert set(table) == set(fields), f"docs/{game}.md options table against {opts_type.__name__}"
    for name, field in fields.items():
        assert literal(table[name][0]) == field.default, f"{game} option {name}: default"


@pytest.mark.parametrize("game", GAMES)
def test_options_table_lists_every_choice(game: str) -> None:
    opts_type = type(find_game(game).options())
    hints = typing.get_type_hints(opts_type)
    table = options_table(game)
    for name, values in table.items():
        hint = hints[name]
        documented = [literal(v) for v in values]
        if typing.get_origin(hint) is typing.Literal:
            assert set(documented) == set(typing.get_args(hint)), f"{game} option {name}: values"
        elif hint is bool:
            assert set(documented) == {True, False}, f"{game} option {name}"


@pytest.mark.parametrize("path", READER_DOCS, ids=lambda p: p.name)
def test_docs_are_self_contained(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert "../shared" not in text, f"{path.name} points outside the repository"


# An HTTP or login session is a session; a work session is not something the docs speak of.
_WEB_SESSION = re.compile(r"\b(http|login|cookie|browser|database|websocket|sqlalchemy)\b", re.I)


@pytest.mark.parametrize("path", READER_DOCS, ids=lambda p: p.name)
def test_docs_speak_of_no_work_sessions(path: Path) -> None:
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if re.search(r"\bsessions?\b", line, re.I) and not _WEB_SESSION.search(line):
            pytest.fail(f"{path.name}:{number} speaks of a session: {line.strip()}")
