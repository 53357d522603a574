"""The solver in pure Python: alpha-beta with a transposition table at trick starts (exact
hands), merged equivalent cards and the C core's move ordering — the C core without its
refinements (winning-ranks table, bounds, null-window probes).  It is the reference the C core
is tested against, and the fallback where the C core was not built."""

from __future__ import annotations

from ..cards import ids_of
from .rules import CALLED, NO_SUIT, TrickRules

__all__ = ["PySolver", "OutOfNodes", "bounds_after"]

INF = 1 << 20


def bounds_after(lo: int, hi: int, alpha: int, beta: int, v: int) -> tuple[int, int]:
    """A table entry's bounds ``(lo, hi)`` once a fail-soft search in the window
    ``(alpha, beta)`` has returned ``v``: an upper bound below the window, a lower bound above
    it, the exact value inside it."""
    if v <= alpha:
        return lo, min(hi, v)
    if v >= beta:
        return max(lo, v), hi
    return v, v


class OutOfNodes(Exception):
    """The node budget ran out (the table may then hold guesses: discard the solver)."""


class PySolver:
    __slots__ = ("r", "hands", "maxside", "tt", "nodes", "limit", "first")

    def __init__(self, rules: TrickRules, hands: list[int], maxside: int, limit: int = 0) -> None:
        self.r = rules
        self.hands = list(hands)
        self.maxside = [maxside >> p & 1 for p in range(rules.num_players)]
        self.tt: dict[tuple[int, ...], tuple[int, int]] = {}
        self.nodes = 0
        self.limit = limit
        self.first = rules.first_trick and rules.special

    def bounds(self, leader: int, trick: list[int], led: int, upper: int) -> tuple[int, int]:
        """Null-window probes (a binary search): the exact value, or the bounds proved when
        the node budget runs out."""
        lo, hi = 0, upper
        try:
            while lo < hi:
                mid = (lo + hi + 1) // 2
                v = self.value(leader, trick, led, mid - 1, mid)
                if v >= mid:
                    lo = min(v, hi)
                else:
                    hi = max(v, lo)
        except OutOfNodes:
            pass
        return lo, hi

    def moves(self, seat: int, trick: list[int], led: int) -> list[tuple[int, int]]:
        r = self.r
        legal = r.legal_mask(self.hands[seat], len(trick), led)
        rep = r.merged(self.hands, seat, legal, trick, self.first)
        out: list[tuple[int, int, int]] = []
        for c, head in rep.items():
            if head != c:
                continue
            if not trick and r.multi_lead_mask >> c & 1:
                for choice in r.lead_choices:
                    out.append((self._score(seat, trick, led, c, choice), c, choice))
            else:
                out.append(
                    (self._score(seat, trick, led, c, led if trick else r.eff[c]), c, led if trick else r.eff[c])
                )
                if not trick and c == r.call_card and self._called_held(seat):
                    out.append((self._score(seat, trick, led, c, CALLED), c, CALLED))
        out.sort(key=lambda m: -m[0])  # stable, as the C insertion sort
        return [(c, ld) for _, c, ld in out]

    def _called_held(self, seat: int) -> bool:
        """Another player holds a card the call card's lead may call."""
        return any(h & self.r.restricted_mask for p, h in enumerate(self.hands) if p != seat)

    def _score(self, seat: int, trick: list[int], led: int, c: int, new_led: int) -> int:
        r = self.r
        if not trick:
            su = r.eff[c]
            st = r.strength[su][c]
            others = 0
            for p, h in enumerate(self.hands):
                if p != seat:
                    others |= h
            master = all(r.strength[su][d] <= st for d in ids_of(others & r.suit_masks[su]))
            if r.free_mask >> c & 1 and others & r.free_mask:
                master = False
            if r.multi_lead_mask >> c & 1:
                return 300 + (1 if new_led == NO_SUIT else 0)
            return 2000 + st if master else 1000 - st
        return 0  # followers: order by the caller's rule below

    def value(self, leader: int, trick: list[int], led: int, alpha: int, beta: int) -> int:
        if not trick:
            return self._trick_start(leader, alpha, beta)
        return self._ab(leader, trick, led, alpha, beta)

    def _trick_start(self, leader: int, alpha: int, beta: int) -> int:
        r = self.r
        left = self.hands[leader].bit_count()
        if left == 0:
            return 0
        if r.special and r.horizon and 1 < left <= r.horizon:
            return r.horizon_value(self.hands, self.maxside)
        maxv = left * r.trick_base + sum(r.points[c] for h in self.hands for c in ids_of(h))
        if alpha >= maxv:
            return maxv
        if beta <= 0:
            return 0
        key = (leader, *self.hands)
        lo, hi = self.tt.get(key, (0, maxv))
        if lo >= beta:
            return lo
        if hi <= alpha:
            return hi
        if lo == hi:
            return lo
        alpha = max(alpha, lo)
        beta = min(beta, hi)
        v = self._ab(leader, [], NO_SUIT, alpha, beta)
        self.tt[key] = bounds_after(lo, hi, alpha, beta, v)
        return v

    def _ab(self, leader: int, trick: list[int], led: int, alpha: int, beta: int) -> int:
        r = self.r
        np_ = r.num_players
        self.nodes += 1
        if self.limit and self.nodes > self.limit:
            raise OutOfNodes
        seat = (leader + len(trick)) % np_
        ismax = self.maxside[seat]
        best = -1 if ismax else INF
        for c, new_led in self._ordered(seat, trick, led):
            self.hands[seat] ^= 1 << c
            t2 = trick + [c]
            if len(t2) == np_:
                first = self.first
                winner = (leader + r.winner(t2, new_led, first)) % np_
                w = (r.trick_base + sum(r.points[x] for x in t2)) if self.maxside[winner] else 0
                self.first = False
                v = w + self._trick_start(winner, alpha - w, beta - w)
                self.first = first
            else:
                v = self._ab(leader, t2, new_led, alpha, beta)
            self.hands[seat] ^= 1 << c
            if ismax:
                if v > best:
                    best = v
                    alpha = max(alpha, best)
            elif v < best:
                best = v
                beta = min(beta, best)
            if alpha >= beta:
                break
        return best

    def _ordered(self, seat: int, trick: list[int], led: int) -> list[tuple[int, int]]:
        moves = self.moves(seat, trick, led)
        if not trick:
            return moves
        r = self.r
        stl = r.by_led[led]
        bi, bv = 0, stl[trick[0]]
        for i in range(1, len(trick)):
            if stl[trick[i]] > bv:
                bi, bv = i, stl[trick[i]]
        leader = (seat - len(trick)) % r.num_players
        wseat = (leader + bi) % r.num_players
        partner = self.maxside[wseat] == self.maxside[seat]

        def score(m: tuple[int, int]) -> int:
            c = m[0]
            v = stl[c]
            free = r.free_mask >> c & 1
            if partner:
                return (-5000 if free else 0) - v * 4 - r.points[c] * (-1 if self.maxside[seat] else 1)
            if v > bv:
                return (3000 if free else 5000) - v
            return -v * 4 - r.points[c]

        return sorted(moves, key=lambda m: -score(m))
