"""kirifuda's own bots as players of the environments (対戦相手としてのボット).

:class:`BotAgent` plays one seat with a kirifuda bot (``random``, ``heuristic``,
``search:easy``, ``search``, ``search:strong``) through the env's integer actions, from that
seat's views only: it is told the views as they come (:meth:`BotAgent.observe`, the memory a
player at the table keeps) and asked for an action with the seat's current view
(:meth:`BotAgent.act`).  A multi-card discard chosen by the bot is handed out one card per env
step, as the environments take it.  The adapters build on it: ``kirifuda.env.openspiel.KirifudaBot``
(a ``pyspiel.Bot``) and ``kirifuda.env.pettingzoo.BotPolicy``.

The oracle sees every card: it is refused here (an environment's seat has its view only).

>>> from kirifuda.env.core import GameEnv
>>> env = GameEnv("meitora"); env.reset(seed=1)
>>> agent = BotAgent("meitora", "heuristic", seed=0)
>>> env.catalog.describe(agent.act(env.view(env.to_act)))
'pass'
"""

from __future__ import annotations

import dataclasses
import random

from ..actions import Action, Discard
from ..bots import Bot, make_bot
from ..errors import OptionError
from ..game import View
from .core import ActionCatalog

__all__ = ["BotAgent", "AGENT_KINDS"]

AGENT_KINDS = ("random", "heuristic", "search:easy", "search", "search:strong")
"""The bot levels a seat of an environment can have (every level that plays from a view)."""


class BotAgent:
    """One seat played by a kirifuda bot of level ``kind``, seeded with ``seed``.
    ``masked_out``: the env's actions left out of its legal actions (its ``claims`` option);
    a bot that chooses one is asked again with them left out of its view's legal actions."""

    def __init__(self, game: str, kind: str, seed: int | None = 0, masked_out: frozenset[int] = frozenset()) -> None:
        if kind.split(":", 1)[0] == "oracle":
            raise OptionError(
                "the oracle sees every card: an environment's seat plays from its view "
                f"only (the levels are {', '.join(AGENT_KINDS)})"
            )
        self.game = game
        self.kind = kind
        self.seed = seed
        self.catalog = ActionCatalog.for_game(game)
        self.bot: Bot = make_bot(kind, game)
        self.rng = random.Random(seed)
        self.masked_out = masked_out
        self._plan: tuple[int, ...] = ()

    def _masked(self, action: Action) -> bool:
        if isinstance(action, Discard) and len(action.cards) > 1:
            return False
        return self.catalog.index(action) in self.masked_out

    def restart(self) -> None:
        """A fresh bot (a new match: its memory of the old one is dropped), reseeded."""
        self.bot = make_bot(self.kind, self.game)
        self.rng = random.Random(self.seed)
        self._plan = ()

    def observe(self, view: View) -> None:
        """Show the bot a view of its seat (after any action; bots that remember keep it)."""
        observe = getattr(self.bot, "observe", None)
        if observe is not None:
            observe(view)

    def act(self, view: View, pending: tuple[int, ...] = ()) -> int:
        """The env action of the seat whose ``view`` this is; ``pending``: the cards it has
        picked so far of a multi-card discard."""
        if not view.legal_actions:
            raise ValueError(f"seat {view.seat} has no action to take")
        start = self.catalog.discard_start
        if pending:
            rest = [c for c in self._plan if c not in pending]
            if start is None or not rest or not set(pending) <= set(self._plan):
                raise ValueError(f"seat {view.seat} is in the middle of a discard the bot did not choose")
            return start + rest[0]
        self._plan = ()
        action = self.bot.choose(view, self.rng)
        if self.masked_out and self._masked(action):
            kept = tuple(a for a in view.legal_actions if not self._masked(a))
            if kept:
                action = self.bot.choose(
                    dataclasses.replace(
                        view, legal_actions=kept, attempts=tuple(a for a in view.attempts if a in kept)
                    ),
                    self.rng,
                )
        if isinstance(action, Discard) and len(action.cards) > 1:
            assert start is not None
            self._plan = tuple(c.id for c in action.cards)
            return start + self._plan[0]
        return self.catalog.index(action)
