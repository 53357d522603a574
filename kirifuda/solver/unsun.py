"""Unsun (うんすんかるた) for the solver: a perfect-information solver of its own.

The generic solver (:mod:`kirifuda.solver`) describes tricks by tables over a led suit and
must-follow; Unsun has neither: the trick's winner depends on the groups of the cards played
before the last player (取り番) and on the last player's card (spec §5), and any card may be
played at any time.  So Unsun has this solver, pure Python on int bitmasks.

**The value.**  Unsun is each for themselves and the game scores a deal by the tricks each
player takes (the deal's winner has the most; the match is won on total tricks).  The solver is
*paranoid*: the value of a position is the number of tricks one seat (``me``) takes from it on
when it maximises them and every other seat plays to minimise them, as a coalition.  It is a
lower bound on what the seat can guarantee against any play of the others, and exact for that
game (verified against brute force through the engine in ``tests/test_solver_unsun.py``).

**The search.**  Alpha-beta over single plays (each seat plays its card in turn, all hands
open), fail-soft, with

- a transposition table at trick starts: the remaining hands and the starting player → bounds;
- equivalent cards merged: cards of one group in the hand to play whose ranks are not separated
  (nor tied) by any card of that group in another hand or in the trick in progress are one
  choice — the suits inside a group do not matter (cards compare by group and rank alone), and
  a tie ("of two cards of the same rank the one played earlier is stronger") can only be with a
  card of another hand or of the trick, which the test keeps apart;
- move ordering: for ``me``, the cards that take the trick now (cheapest first) then the
  lowest cards; for the others, the cards that keep the trick from ``me`` first;
- an optional budget of nodes (:class:`Budget` is raised when it runs out).

Exact on endings: with four players it solves 3–4 tricks left in milliseconds, 5 in tens to
hundreds of milliseconds (``kirifuda bench``, ``docs/bots.md``); whole deals are beyond it,
which is why the search bot plays out the early deal with rollouts (:mod:`kirifuda.bots.search_unsun`).

Seat 0 takes the trump ace's trick, then must lead 2♠ into a black group (♠ and ♣ under a ♥
trump) where the others hold K♠ and Q♠: one trick, whichever card it plays first.

>>> from kirifuda.cards import parse_cards, mask_of, Suit
>>> hands = [mask_of(parse_cards(h)) for h in (["AH", "2S"], ["KS", "3C"], ["QS", "4C"])]
>>> UnsunPosition(trump=Suit.HEARTS.index, hands=tuple(hands), start=0, trick=(), me=0).value()
1
>>> UnsunPosition(trump=Suit.HEARTS.index, hands=tuple(hands), start=0, trick=(), me=0).move_values()
{25: 1, 0: 1}
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..games.unsun import GROUPS, _winner_index
from ._pysolver import bounds_after

if TYPE_CHECKING:
    from ..games.unsun import UnsunState

__all__ = ["UnsunPosition", "Budget", "winner_index", "Tables", "tables", "position_of"]

RANK = tuple(c % 13 for c in range(52))


class Budget(Exception):
    """The node budget ran out before the solve ended."""


class Tables:
    """Per-trump tables: each card's group; each group's cards as a mask; per group and rank, the
    cards of the group ranked above it."""

    __slots__ = ("trump", "group", "group_mask", "above", "rank_bits")

    def __init__(self, trump: int) -> None:
        self.trump = trump
        self.group = GROUPS[trump]
        gm = [0, 0, 0]
        for c in range(52):
            gm[self.group[c]] |= 1 << c
        self.group_mask = tuple(gm)
        above: list[list[int]] = []
        for g in range(3):
            row = []
            for r in range(-1, 13):
                row.append(sum(1 << c for c in range(52) if self.group[c] == g and c % 13 > r))
            above.append(row)
        self.above = tuple(tuple(r) for r in above)
        """``above[g][r + 1]``: the cards of group ``g`` ranked above ``r`` (``r = -1``: all)."""
        self.rank_bits = tuple(1 << (c % 13) for c in range(52))


_TABLES = [Tables(t) for t in range(4)]


def tables(trump: int) -> Tables:
    return _TABLES[trump]


winner_index = _winner_index
"""The index (in play order) of the card that wins a complete trick of card ids under trump
``trump`` (spec §5): the engine's own rule (:func:`kirifuda.games.unsun._winner_index`), not a
copy of it."""


@dataclass(frozen=True)
class UnsunPosition:
    """A play position with every hand open: ``hands`` per seat (masks, seats in turn order),
    the trick in progress (card ids from ``start`` on) and the seat whose tricks are the value."""

    trump: int
    hands: tuple[int, ...]
    start: int
    trick: tuple[int, ...]
    me: int

    @property
    def to_act(self) -> int:
        return (self.start + len(self.trick)) % len(self.hands)

    def tricks_left(self) -> int:
        """Tricks still to be completed, the one in progress included."""
        return self.hands[self.start].bit_count() + (1 if self.trick else 0)

    def value(self, max_nodes: int = 0) -> int:
        """The tricks ``me`` takes from here on (paranoid: every other seat against it)."""
        s = _Solver(self, max_nodes)
        return s.search(list(self.hands), self.start, list(self.trick), -1, self.tricks_left() + 1)

    def move_values(self, max_nodes: int = 0) -> dict[int, int]:
        """Each legal card of the seat to act → the value after playing it (every card of a
        merged class gets its class's value).  ``max_nodes`` bounds the whole call."""
        s = _Solver(self, max_nodes)
        seat = self.to_act
        hands = list(self.hands)
        trick = list(self.trick)
        out: dict[int, int] = {}
        top = self.tricks_left() + 1
        for rep, members in s.classes(hands, seat, trick):
            hands[seat] ^= 1 << rep
            trick.append(rep)
            v = s.after_play(hands, self.start, trick, -1, top)
            trick.pop()
            hands[seat] ^= 1 << rep
            for c in members:
                out[c] = v
        return out

    def nodes_for_value(self) -> int:
        """The nodes an exact solve visits (for benchmarks)."""
        s = _Solver(self, 0)
        s.search(list(self.hands), self.start, list(self.trick), -1, self.tricks_left() + 1)
        return s.nodes


def position_of(state: "UnsunState", me: int) -> UnsunPosition:
    """The position of an engine state in play (the whole state: for the oracle and tests)."""
    return UnsunPosition(
        trump=state._trump, hands=tuple(state._hands), start=state._start, trick=tuple(state._trick), me=me
    )


class _Solver:
    def __init__(self, pos: UnsunPosition, max_nodes: int) -> None:
        self.n = len(pos.hands)
        self.me = pos.me
        self.trump = pos.trump
        self.t = tables(pos.trump)
        self.tt: dict[tuple[tuple[int, ...], int], tuple[int, int]] = {}
        group = GROUPS[pos.trump]
        self.suits = tuple(tuple(13 * su for su in range(4) if group[13 * su] == g) for g in range(3))
        """Per group, the bit offsets of its suits."""
        self.nodes = 0
        self.max_nodes = max_nodes

    # -- moves -------------------------------------------------------------------------
    def classes(self, hands: list[int], seat: int, trick: list[int]) -> list[tuple[int, list[int]]]:
        """The hand's cards in classes of equivalent cards: (representative, members), ordered
        for the search (see :meth:`order`)."""
        others = 0
        for s in range(self.n):
            if s != seat:
                others |= hands[s]
        for c in trick:
            others |= 1 << c
        out: list[tuple[int, list[int]]] = []
        hand = hands[seat]
        for suits in self.suits:
            mr = tr = 0
            for sh in suits:
                mr |= hand >> sh & 0x1FFF
                tr |= others >> sh & 0x1FFF
            if not mr:
                continue
            cls: list[int] = []
            lo = -1
            while mr:
                low = mr & -mr
                r = low.bit_length() - 1
                mr ^= low
                # a card of another hand or of the trick ranked in [lo, r] separates them
                if cls and tr & ((low << 1) - (1 << lo)):
                    out.append((cls[0], cls))
                    cls = []
                for sh in suits:
                    if hand >> (sh + r) & 1:
                        cls.append(sh + r)
                lo = r
            out.append((cls[0], cls))
        return self.order(out, seat, trick, hands)

    def order(
        self, classes: list[tuple[int, list[int]]], seat: int, trick: list[int], hands: list[int]
    ) -> list[tuple[int, list[int]]]:
        """Move ordering: when the seat plays last, the cards that win the trick first (the
        cheapest winner first); otherwise high cards first for ``me`` (trumps, then ranks) and
        low cards first for the others, who mostly keep their strength for later."""
        n = self.n
        group = self.t.group
        if len(trick) == n - 1:
            best_r = [-1, -1, -1]
            best_i = [-1, -1, -1]
            for i, c in enumerate(trick):
                g, r = group[c], RANK[c]
                if r > best_r[g]:
                    best_r[g], best_i[g] = r, i
            tmax = best_r[0]

            def winner(c: int) -> int:
                """The winning index of the trick with ``c`` played last (spec §5)."""
                g, r = group[c], RANK[c]
                if tmax >= 0:
                    return n - 1 if g == 0 and r > tmax else best_i[0]
                if g == 0:
                    return n - 1
                if best_r[g] >= 0:
                    return n - 1 if r > best_r[g] else best_i[g]
                return best_i[3 - g]

            if seat == self.me:
                classes.sort(
                    key=lambda cc: (0 if winner(cc[0]) == n - 1 else 1, 1 if group[cc[0]] == 0 else 0, RANK[cc[0]])
                )
            else:
                me_pos = (self.me - seat - 1) % n  # the trick started at the seat after this one
                classes.sort(
                    key=lambda cc: (1 if winner(cc[0]) == me_pos else 0, 1 if group[cc[0]] == 0 else 0, RANK[cc[0]])
                )
            return classes
        classes.sort(key=lambda cc: (0 if group[cc[0]] == 0 else 1, -RANK[cc[0]]))
        return classes

    # -- search ------------------------------------------------------------------------
    def search(self, hands: list[int], start: int, trick: list[int], alpha: int, beta: int) -> int:
        """The value (tricks of ``me`` from here on) of the position, fail-soft in
        ``(alpha, beta)``."""
        if not trick:
            left = hands[start].bit_count()
            if left == 0:
                return 0
            key = (tuple(hands), start)
            hit = self.tt.get(key)
            if hit is not None:
                lo, hi = hit
                if lo == hi or lo >= beta:
                    return lo
                if hi <= alpha:
                    return hi
                if lo > alpha:
                    alpha = lo
                if hi < beta:
                    beta = hi
            else:
                lo, hi = 0, left
                if beta > left + 1:
                    beta = left + 1
            v = self._node(hands, start, trick, alpha, beta)
            self.tt[key] = bounds_after(lo, hi, alpha, beta, v)
            return v
        return self._node(hands, start, trick, alpha, beta)

    def _node(self, hands: list[int], start: int, trick: list[int], alpha: int, beta: int) -> int:
        self.nodes += 1
        if self.max_nodes and self.nodes > self.max_nodes:
            raise Budget
        n = self.n
        seat = (start + len(trick)) % n
        maxing = seat == self.me
        best = -1 if maxing else 1 << 20
        for rep, _ in self.classes(hands, seat, trick):
            hands[seat] ^= 1 << rep
            trick.append(rep)
            v = self.after_play(hands, start, trick, alpha, beta)
            trick.pop()
            hands[seat] ^= 1 << rep
            if maxing:
                if v > best:
                    best = v
                    if v > alpha:
                        alpha = v
                        if alpha >= beta:
                            break
            else:
                if v < best:
                    best = v
                    if v < beta:
                        beta = v
                        if alpha >= beta:
                            break
        return best

    def after_play(self, hands: list[int], start: int, trick: list[int], alpha: int, beta: int) -> int:
        """The value once the last card of ``trick`` has been played."""
        n = self.n
        if len(trick) < n:
            return self.search(hands, start, trick, alpha, beta)
        w = (start + winner_index(trick, self.trump)) % n
        gain = 1 if w == self.me else 0
        saved = trick[:]
        trick.clear()
        v = gain + self.search(hands, w, trick, alpha - gain, beta - gain)
        trick.extend(saved)
        return v
