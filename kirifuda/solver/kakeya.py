"""Kakeya Trump (掛合トランプ) for the solver: trick rules per trump suit, and positions.

The value of a Kakeya position is the number of face cards (A K Q J, 絵札) the maximising pair
captures from it: a trick is worth the face cards in it (``trick_base`` 0, each face card 1).
The rensho (れんしょ: ♠A, or ♣A when spades are trump) keeps its printed suit for following and
wins any trick it is played to: its strength is the highest whatever is led, and it is never
merged with its neighbours.  The four active players are numbered 0–3 in turn order.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from ..games.kakeya import FACE_MASK, STRENGTH, rensho_of
from . import solve_bounds, solve_moves
from .rules import NCARD, TrickRules

__all__ = ["kakeya_rules", "KakeyaPosition"]


@lru_cache(maxsize=None)
def kakeya_rules(trump: int) -> TrickRules:
    eff = [-1] * NCARD
    strength = [[0] * NCARD for _ in range(5)]
    points = [0] * NCARD
    for c in range(52):
        eff[c] = c // 13
        for led in range(4):
            strength[led][c] = STRENGTH[trump][led][c]
        strength[4][c] = STRENGTH[trump][trump][c]
        points[c] = 1 if FACE_MASK >> c & 1 else 0
    return TrickRules(
        num_players=4,
        eff=tuple(eff),
        strength=tuple(tuple(r) for r in strength),
        trick_base=0,
        points=tuple(points),
        nomerge_mask=1 << rensho_of(trump),
    )


@dataclass(frozen=True)
class KakeyaPosition:
    """A play position with every hand open; players 0–3 in turn order, ``maxside`` a mask of
    them (the maximising pair)."""

    trump: int
    hands: tuple[int, int, int, int]
    leader: int
    trick: tuple[int, ...]
    maxside: int

    @property
    def led(self) -> int:
        return self.trick[0] // 13 if self.trick else 4

    def estimate(self, max_nodes: int = 0, guess: int = -1) -> float:
        lo, hi = solve_bounds(
            kakeya_rules(self.trump),
            self.hands,
            self.leader,
            self.trick,
            self.led,
            self.maxside,
            None,
            guess,
            max_nodes,
        )
        return lo if lo == hi else (lo + hi) / 2

    def move_values(self, max_nodes: int = 0, guess: int = -1) -> dict[int, float]:
        raw = solve_moves(
            kakeya_rules(self.trump),
            self.hands,
            self.leader,
            self.trick,
            self.led,
            self.maxside,
            None,
            guess,
            max_nodes,
        )
        return {c: v for (c, _), v in raw.items()}
