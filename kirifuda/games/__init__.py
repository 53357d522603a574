"""The game registry: every game of kirifuda, by id, with aliases.

A game is one module (or package) that declares a :class:`~kirifuda.game.GameInfo` — names,
options, the state it makes, its kinds of action (their record JSON and env families), its
action space and bounds, its seats' and roles'
names — and registers it here (:func:`register_game`).  Bots, env, server, UI, records and bench
find games only through this registry.  ``docs/architecture.md`` ("Adding a game") lists what a
new game writes.

>>> find_game("明専トランプ").id
'meitora'
>>> find_game("掛合トランプ").id
'kakeya'
>>> sorted(GAMES)[:2]
['kakeya', 'meitora']
"""

from __future__ import annotations

import importlib
from types import ModuleType

from ..errors import OptionError
from ..game import GameInfo

__all__ = ["GAMES", "BUILTIN", "find_game", "game_part", "register_game", "missing_declarations"]

GAMES: dict[str, GameInfo] = {}

BUILTIN: list[str] = []
"""The ids of kirifuda's own games (registered by this module), in the registry's order."""


def missing_declarations(info: GameInfo) -> list[str]:
    """What ``info`` does not declare of what the rest of kirifuda reads (empty: complete)."""
    missing = []
    if not info.action_kinds:
        missing.append("action_kinds")
    if info.action_space is None:
        missing.append("action_space")
    elif info.action_space.max_seats < info.max_players:
        missing.append("action_space.max_seats (fewer than max_players)")
    for role in ("seat", "unit"):
        if role not in info.roles:
            missing.append(f"roles[{role!r}]")
    for role, pair in info.roles.items():
        if len(pair) != 2 or not all(isinstance(x, str) and x for x in pair):
            missing.append(f"roles[{role!r}] (a pair of names, ja and en)")
    if not info.ui:
        missing.append("ui (the browser's descriptor)")
    if not (1 <= info.min_players <= info.max_players):
        missing.append("min_players / max_players")
    return missing


def register_game(info: GameInfo) -> GameInfo:
    """Register a game (its module calls this once; a test may register a game of its own).
    Refused with :class:`ValueError` where the declaration is incomplete or the id is taken by
    another game."""
    missing = missing_declarations(info)
    if missing:
        raise ValueError(f"game {info.id!r} declares no {', '.join(missing)}")
    old = GAMES.get(info.id)
    if old is not None and old is not info:
        raise ValueError(f"game id {info.id!r} is already registered")
    GAMES[info.id] = info
    return info


def find_game(name: str) -> GameInfo:
    """A game by id, Japanese or English name, or alias (case-insensitive)."""
    key = name.strip().lower()
    for info in GAMES.values():
        names = {info.id, info.name_ja.lower(), info.name_en.lower(), *(a.lower() for a in info.aliases)}
        if key in names:
            return info
    raise OptionError(f"unknown game {name!r}; the games are {', '.join(sorted(GAMES))}")


def game_part(game_id: str, feature: str) -> ModuleType | None:
    """The module holding a game's part of a shared feature (``GameInfo.parts``), imported;
    ``None`` where the game declares none."""
    name = find_game(game_id).parts.get(feature)
    return None if name is None else importlib.import_module(name)


def _register_builtin() -> None:
    """kirifuda's own games, in the registry's order."""
    from . import kakeya, meitora, napoleon, unsun

    for module in (meitora, napoleon, kakeya, unsun):
        register_game(module.INFO)
        BUILTIN.append(module.INFO.id)


_register_builtin()
