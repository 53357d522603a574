"""Bots: players that see only a seat's view.

``make_bot("random")``, ``make_bot("heuristic", game="meitora")``.  Every bot has
``choose(view, rng) -> Action`` and never receives the state.
"""

from __future__ import annotations

from .base import BOT_KINDS, Bot, make_bot, register_heuristic
from .random import RandomBot

__all__ = ["Bot", "RandomBot", "make_bot", "register_heuristic", "BOT_KINDS"]
