"""The game registry: every game of kirifuda, by id, with aliases.

>>> find_game("明専トランプ").id
'meitora'
>>> find_game("掛合トランプ").id
'kakeya'
>>> sorted(GAMES)[:2]
['kakeya', 'meitora']
"""

from __future__ import annotations

from ..errors import OptionError
from ..game import GameInfo
from . import kakeya, meitora, napoleon, unsun

__all__ = ["GAMES", "find_game"]

GAMES: dict[str, GameInfo] = {info.id: info for info in (meitora.INFO, napoleon.INFO, kakeya.INFO, unsun.INFO)}


def find_game(name: str) -> GameInfo:
    """A game by id, Japanese or English name, or alias (case-insensitive)."""
    key = name.strip().lower()
    for info in GAMES.values():
        names = {info.id, info.name_ja.lower(), info.name_en.lower(), *(a.lower() for a in info.aliases)}
        if key in names:
            return info
    raise OptionError(f"unknown game {name!r}; the games are {', '.join(sorted(GAMES))}")
