"""Seat arithmetic.  Seats are plain ints ``0 … n-1`` in turn order (the specs' convention):
seat ``s + 1 (mod n)`` acts after seat ``s``; partners sit opposite.

>>> next_seat(3, 4), prev_seat(0, 5), partner(1, 6), seats_from(2, 4)
(0, 4, 4, (2, 3, 0, 1))
"""

from __future__ import annotations

__all__ = ["next_seat", "prev_seat", "partner", "team_of", "seats_from", "pair_of"]


def next_seat(seat: int, n: int) -> int:
    return (seat + 1) % n


def prev_seat(seat: int, n: int) -> int:
    return (seat - 1) % n


def partner(seat: int, n: int) -> int:
    """The seat opposite (対面, トイメン) at an even table."""
    return (seat + n // 2) % n


def team_of(seat: int, n: int) -> int:
    """The index of a seat's pair at an even table: pairs ``{0, n/2}``, ``{1, n/2+1}``, …"""
    return seat % (n // 2)


def pair_of(seat: int, n: int) -> tuple[int, int]:
    """Both seats of a seat's pair, lower seat first."""
    a = team_of(seat, n)
    return (a, a + n // 2)


def seats_from(start: int, n: int) -> tuple[int, ...]:
    """All seats in turn order beginning with ``start``."""
    return tuple((start + i) % n for i in range(n))
