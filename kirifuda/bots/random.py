"""The legal-random bot: uniform over the seat's legal actions."""

from __future__ import annotations

import random

from ..actions import Action
from ..game import View

__all__ = ["RandomBot"]


class RandomBot:
    name = "random"

    def choose(self, view: View, rng: random.Random) -> Action:
        if not view.legal_actions:
            raise ValueError(f"seat {view.seat} has no action to take")
        return rng.choice(view.legal_actions)
