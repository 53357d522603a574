"""The legal-random bot: uniform over the seat's legal actions (those that cannot be refused:
not the view's ``attempts``, whose acceptance depends on cards the seat cannot see)."""

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
        sure = [a for a in view.legal_actions if a not in view.attempts] if view.attempts else view.legal_actions
        return rng.choice(sure or view.legal_actions)
