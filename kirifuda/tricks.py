"""Tricks (場).  A trick stores its leader and its ``(seat, card)`` plays; who wins is a pure
function of the plays under a key that the game supplies, so game quirks (almighty, left jacks,
the rensho) live in the games, not here.

>>> from kirifuda.cards import parse_card as c
>>> t = Trick(leader=1, plays=((1, c("5H")), (2, c("KH")), (3, c("2S"))))
>>> t.led, t.cards, t.winner(lambda seat, card: card.rank if card.suit == t.led.suit else -1)
(Card('5H'), (Card('5H'), Card('KH'), Card('2S')), 2)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable, Sequence

from .cards import Card

__all__ = ["Trick", "strongest"]


@dataclass(frozen=True, slots=True)
class Trick:
    leader: int
    """The seat that played the first card."""
    plays: tuple[tuple[int, Card], ...] = ()
    """``(seat, card)`` in the order played."""

    @property
    def led(self) -> Card | None:
        return self.plays[0][1] if self.plays else None

    @property
    def cards(self) -> tuple[Card, ...]:
        return tuple(card for _, card in self.plays)

    @property
    def seats(self) -> tuple[int, ...]:
        return tuple(seat for seat, _ in self.plays)

    def winner(self, key: Callable[[int, Card], object]) -> int:
        """The seat whose play has the greatest ``key(seat, card)``; the earlier play wins ties."""
        best_seat, best_key = self.plays[0][0], key(*self.plays[0])
        for seat, card in self.plays[1:]:
            k = key(seat, card)
            if k > best_key:  # type: ignore[operator]
                best_seat, best_key = seat, k
        return best_seat

    def to_json(self, winner: int | None = None) -> dict[str, object]:
        out: dict[str, object] = {"leader": self.leader, "cards": [c.code for c in self.cards]}
        if winner is not None:
            out["winner"] = winner
        return out


def strongest(plays: Iterable[tuple[int, int]], strength: Sequence[int]) -> tuple[int, int]:
    """The seat of the strongest of ``(seat, card id)`` plays by ``strength[card id]`` (the
    earlier play wins ties), and that strength: the trick winner of the games whose special
    cards fit one strength table per led suit (the engines' hot paths and the bots).

    >>> strongest([(1, 3), (2, 11), (3, 7)], list(range(13)))
    (2, 11)
    """
    it = iter(plays)
    best_seat, c = next(it)
    best = strength[c]
    for seat, c in it:
        v = strength[c]
        if v > best:
            best_seat, best = seat, v
    return best_seat, best
