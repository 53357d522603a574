"""Perfect-information solvers (完全情報ソルバー): the exact value of a trick-taking position
with every hand open.

The core is generic (:mod:`.rules` describes a game's tricks as tables): exact alpha-beta with a
transposition table at trick starts, move ordering (masters first on lead; the cheapest winning
card, or the lowest card when the partner wins, when following), and equivalent cards merged (two
cards of one effective suit in one hand with nothing but played cards between them are one
choice).  It runs in C (``_csolver.c``, compiled at install: besides the above, a winning-ranks table
whose entries match every position that agrees on the cards whose rank mattered, sure-trick and
quick-trick bounds, MTD(f) probes) and falls back to the plain alpha-beta in pure Python
(``_pysolver.py``, slower, the same values) where the extension is missing; ``backend="python"``
forces it.

Per game: :mod:`.meitora`, :mod:`.kakeya`, :mod:`.napoleon` (special tricks: :mod:`.rules`).
"""

from __future__ import annotations

from typing import Sequence

from . import _core
from ._pysolver import PySolver
from .rules import NO_SUIT, TrickRules

__all__ = ["TrickRules", "NO_SUIT", "solve", "solve_bounds", "solve_moves", "has_c_core", "Backend", "Work"]

Backend = str
INF = 1 << 20


class Work:
    """A running count of search nodes, for callers that budget work over many solves (a bot's
    whole decision): :func:`solve_moves` adds what it spends to ``nodes``."""

    __slots__ = ("nodes",)

    def __init__(self) -> None:
        self.nodes = 0


def has_c_core() -> bool:
    return _core.csolver is not None


def _backend(backend: str | None) -> str:
    if backend is None:
        return "c" if _core.csolver is not None else "python"
    if backend == "c" and _core.csolver is None:
        raise RuntimeError("the solver's C core is not built (reinstall kirifuda with a C compiler)")
    return backend


def solve(
    rules: TrickRules,
    hands: Sequence[int],
    leader: int,
    trick: Sequence[int],
    led: int,
    maxside: int,
    backend: str | None = None,
    guess: int = -1,
) -> int:
    """The points (tricks, when cards carry no points) the side ``maxside`` (a mask of seats)
    takes from this position on, with best play by everyone.  ``trick``: the cards of the trick
    in progress from ``leader`` on; ``led``: its led suit (ignored when the trick is empty).
    ``guess``: where the search makes its first probe (the value is the same whatever it is; only
    the time depends on it); -1: the solver's own estimate."""
    lo, hi = solve_bounds(rules, hands, leader, trick, led, maxside, backend, guess)
    return lo


def solve_bounds(
    rules: TrickRules,
    hands: Sequence[int],
    leader: int,
    trick: Sequence[int],
    led: int,
    maxside: int,
    backend: str | None = None,
    guess: int = -1,
    max_nodes: int = 0,
) -> tuple[int, int]:
    """Bounds ``(lo, hi)`` on the value of :func:`solve`: exact (``lo == hi``) unless
    ``max_nodes`` (a budget of search nodes) ran out first."""
    if _backend(backend) == "c":
        lo, hi, _ = _core.csolver.solve(  # type: ignore[union-attr]
            rules.compiled(),
            list(hands),
            leader,
            list(trick),
            led if trick else 0,
            maxside,
            guess,
            max_nodes,
        )
        return int(lo), int(hi)
    lo, hi, _ = _py_bounds(rules, hands, leader, trick, led, maxside, max_nodes)
    return lo, hi


def _py_bounds(
    rules: TrickRules, hands: Sequence[int], leader: int, trick: Sequence[int], led: int, maxside: int, max_nodes: int
) -> tuple[int, int, int]:
    """:func:`solve_bounds` in the Python core, and the nodes it searched."""
    solver = PySolver(rules, list(hands), maxside, max_nodes)
    if not max_nodes:
        v = solver.value(leader, list(trick), led, -1, INF)
        return v, v, solver.nodes
    lo, hi = solver.bounds(leader, list(trick), led, _upper(rules, hands, trick))
    return lo, hi, solver.nodes


def _upper(rules: TrickRules, hands: Sequence[int], trick: Sequence[int]) -> int:
    left = max(h.bit_count() for h in hands)
    pts = sum(rules.points[c] for h in hands for c in range(64) if h >> c & 1) + sum(rules.points[c] for c in trick)
    return left * rules.trick_base + pts


def solve_moves(
    rules: TrickRules,
    hands: Sequence[int],
    leader: int,
    trick: Sequence[int],
    led: int,
    maxside: int,
    backend: str | None = None,
    guess: int = -1,
    max_nodes: int = 0,
    work: Work | None = None,
) -> dict[tuple[int, int], float]:
    """The exact value after each legal choice of the player to move: ``{(card, led): value}``
    where ``led`` is the led suit the choice sets (a multi-lead card has one entry per choice;
    on a follow it is the trick's led suit).  Equivalent cards get their representative's value.
    ``max_nodes``: a budget of search nodes per choice; a choice whose search ran out gets the
    middle of its bounds.  ``work``: the nodes searched are added to it."""
    r = rules
    seat = (leader + len(trick)) % r.num_players
    legal = r.legal_mask(hands[seat], len(trick), led)
    rep = r.merged(list(hands), seat, legal, list(trick), r.first_trick)
    values: dict[tuple[int, int], float] = {}
    if _backend(backend) == "c":
        res, nodes = _core.csolver.solve_moves(  # type: ignore[union-attr]
            r.compiled(),
            list(hands),
            leader,
            list(trick),
            led if trick else 0,
            maxside,
            guess,
            max_nodes,
        )
        if work is not None:
            work.nodes += int(nodes)
        for c, ld, lo, hi in res:
            values[(c, ld)] = lo if lo == hi else (lo + hi) / 2
    else:
        for c, ld in PySolver(r, list(hands), maxside).moves(seat, list(trick), led):
            h2 = list(hands)
            h2[seat] ^= 1 << c
            t2 = list(trick) + [c]
            w = 0
            if len(t2) == r.num_players:
                winner = (leader + r.winner(t2, ld, r.first_trick)) % r.num_players
                w = (r.trick_base + sum(r.points[x] for x in t2)) if maxside >> winner & 1 else 0
                lo, hi, nodes = _py_bounds(r.after_first(), h2, winner, [], NO_SUIT, maxside, max_nodes)
            else:
                lo, hi, nodes = _py_bounds(r, h2, leader, t2, ld, maxside, max_nodes)
            if work is not None:
                work.nodes += nodes
            values[(c, ld)] = w + (lo if lo == hi else (lo + hi) / 2)
    out: dict[tuple[int, int], float] = dict(values)
    for c, head in rep.items():
        if head != c:
            for (hc, ld), hv in list(values.items()):
                if hc == head:
                    out[(c, ld)] = hv
    return out
