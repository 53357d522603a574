"""The bot protocol and the bot registry."""

from __future__ import annotations

import random
from typing import Callable, Protocol, runtime_checkable

from ..actions import Action
from ..errors import OptionError
from ..game import View

__all__ = ["Bot", "make_bot", "register_heuristic", "BOT_KINDS"]


@runtime_checkable
class Bot(Protocol):
    """A player.  ``choose`` gets what the seat sees and a seeded generator, nothing more."""

    name: str

    def choose(self, view: View, rng: random.Random) -> Action: ...


_HEURISTICS: dict[str, Callable[[], Bot]] = {}
BOT_KINDS = ("random", "heuristic")


def register_heuristic(game_id: str, factory: Callable[[], Bot]) -> None:
    """A game's rule-of-thumb bot (registered by the module that defines it)."""
    _HEURISTICS[game_id] = factory


def make_bot(kind: str, game: str | None = None) -> Bot:
    """A bot by kind: ``random`` or ``heuristic`` (which needs the game)."""
    from .random import RandomBot

    base = kind.split(":", 1)[0]
    if base == "random":
        return RandomBot()
    if base == "heuristic":
        from . import heuristics  # noqa: F401  (registers each game's heuristic bot)

        if game is None or game not in _HEURISTICS:
            raise OptionError(f"no heuristic bot for game {game!r}")
        return _HEURISTICS[game]()
    raise OptionError(f"unknown bot {kind!r}; the bots are {', '.join(BOT_KINDS)}")
