"""The bot protocol and the bot registry."""

from __future__ import annotations

import random
from typing import Callable, Protocol, runtime_checkable

from ..actions import Action
from ..errors import OptionError
from ..game import View

__all__ = ["Bot", "make_bot", "register_heuristic", "BOT_KINDS", "default_bot", "load_game_bots"]


@runtime_checkable
class Bot(Protocol):
    """A player.  ``choose`` gets what the seat sees and a seeded generator, nothing more."""

    name: str

    def choose(self, view: View, rng: random.Random) -> Action: ...


_HEURISTICS: dict[str, Callable[[], Bot]] = {}
BOT_KINDS = ("random", "heuristic", "search", "search:easy", "search:strong", "oracle")
"""The kinds offered to players (``search:v1``, the first search bot, is made by ``make_bot``
for measurement only)."""


def load_game_bots() -> None:
    """Import the bot modules every registered game declares (``GameInfo.bot_modules``): each
    registers its game's bots.  Idempotent; a game registered later is loaded on the next call."""
    import importlib

    from ..games import GAMES

    for info in list(GAMES.values()):
        for module in info.bot_modules:
            importlib.import_module(module)


def register_heuristic(game_id: str, factory: Callable[[], Bot]) -> None:
    """A game's rule-of-thumb bot (registered by the module that defines it)."""
    _HEURISTICS[game_id] = factory


def make_bot(kind: str, game: str | None = None) -> Bot:
    """A bot by kind: ``random``, ``heuristic``, ``search[:easy|normal|strong|v1]``, ``oracle``
    or ``policy:FILE`` (all but ``random`` need the game; the oracle plays only where it is given
    the state; ``policy:FILE`` plays a trained policy file: :mod:`kirifuda.env.policy`)."""
    from .random import RandomBot

    base = kind.split(":", 1)[0]
    if base == "policy":
        try:
            from ..env.policy import PolicyBot
        except ImportError:
            raise OptionError("a policy bot needs numpy: pip install 'kirifuda[pettingzoo]'") from None
        return PolicyBot.from_file(kind.split(":", 1)[1] if ":" in kind else "", game)
    if base == "random":
        return RandomBot()
    if base == "heuristic":
        load_game_bots()

        if game is None or game not in _HEURISTICS:
            raise OptionError(f"no heuristic bot for game {game!r}")
        return _HEURISTICS[game]()
    if base in ("search", "oracle"):
        from .search import OracleBot, SearchBot

        if game is None:
            raise OptionError(f"the {base} bot needs the game")
        if base == "oracle":
            return OracleBot(game)
        return SearchBot(game, kind.split(":", 1)[1] if ":" in kind else "normal")
    raise OptionError(f"unknown bot {kind!r}; the bots are {', '.join(BOT_KINDS)}")


def default_bot(game: str) -> str:
    """The strongest bot a user plays against by default: ``search`` where the game has one,
    else ``heuristic``."""
    from .search import search_games

    return "search" if game in search_games() else "heuristic"
