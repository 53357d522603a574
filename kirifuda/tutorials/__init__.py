"""Tutorials (チュートリアル): a guided first deal of each game, written as data.

Each game's tutorial is ``kirifuda/tutorials/<game>.json`` (the format: ``README.md`` beside
it): a game record with prepared hands, the learner's seat, and notes in Japanese and English
tied to the record's steps.  :func:`load` reads and checks one; :class:`Lesson` plays it
through.  A club writes its own for its local rule and plays it with
``kirifuda learn --file FILE``.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from .lesson import Event, Lesson, TrickDone, Verdict
from .model import FORMAT, Tutorial, TutorialError, load_file, parse_tutorial

__all__ = [
    "FORMAT",
    "Tutorial",
    "TutorialError",
    "Lesson",
    "Verdict",
    "Event",
    "TrickDone",
    "load",
    "load_file",
    "parse_tutorial",
    "available",
    "TUTORIAL_DIR",
]

TUTORIAL_DIR = Path(__file__).parent


def available() -> tuple[str, ...]:
    """The games that have a tutorial, in the registry's order."""
    from ..games import GAMES

    return tuple(g for g in GAMES if (TUTORIAL_DIR / f"{g}.json").is_file())


@lru_cache(maxsize=None)
def load(game: str) -> Tutorial:
    """The checked tutorial of a game (by id); :class:`TutorialError` if there is none or it is
    faulty."""
    path = TUTORIAL_DIR / f"{game}.json"
    if game not in available():
        raise TutorialError(f"there is no tutorial for {game!r}; the tutorials are: {', '.join(available())}")
    tutorial = load_file(path)
    if tutorial.game != game:
        raise TutorialError(f"{path.name}: game: the file is named for {game!r} but holds {tutorial.game!r}")
    return tutorial
