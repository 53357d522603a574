"""Every legal card's value with all hands open (全員の手を開いた評価), per game.

For the deal review: at a card play of a real deal, each legal card's value is the count the
player's own side ends the deal with after it, with best play by everyone from then on (the
tricks of the player's team, the face cards of the player's pair or side, or the player's own
tricks against all the others, as the game counts).  How a game values its cards is the game's
part of the coach (:class:`CoachPart`), declared as ``GameInfo.parts["coach"]`` and found
through the registry (:func:`coach_part`); kirifuda's own games' are in
:mod:`kirifuda.coach.games`.

Values are bounds ``(lo, hi)``: equal where the solver finished within its node budget, the
bounds it proved where it did not; a game may estimate them instead where an exact solve is out
of reach (``rollouts``).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence

from ..actions import Action, Play
from ..errors import KirifudaError
from ..game import GameState
from ..solver import _core, has_c_core, solve_moves
from ..solver.rules import TrickRules

__all__ = [
    "Bounds",
    "CoachPart",
    "OpenValues",
    "coach_part",
    "move_bounds",
    "open_values",
    "plays",
    "flip",
    "exactness",
]

Bounds = tuple[float, float]


@dataclass(frozen=True)
class OpenValues:
    """Each legal card's value for the seat to act, in its side's final count."""

    seat: int
    values: dict[Action, Bounds]
    method: str
    """``exact`` (every value solved), ``bounds`` (some only bounded) or ``rollouts``
    (estimated: Unsun before its exact part)."""
    unit: str
    """``tricks`` or ``face_cards``."""

    def best(self) -> tuple[Action, Bounds]:
        """The best card (the highest lower bound, then upper bound) and its value."""
        action = max(self.values, key=lambda a: self.values[a])
        return action, self.values[action]


def move_bounds(
    rules: TrickRules, hands: Sequence[int], leader: int, trick: Sequence[int], led: int, maxside: int, max_nodes: int
) -> dict[tuple[int, int], Bounds]:
    """:func:`kirifuda.solver.solve_moves` with each choice's proven bounds, not their middle
    (the pure-Python core: exact values, no budget)."""
    if not has_c_core():
        return {k: (v, v) for k, v in solve_moves(rules, hands, leader, trick, led, maxside).items()}
    seat = (leader + len(trick)) % rules.num_players
    legal = rules.legal_mask(hands[seat], len(trick), led)
    rep = rules.merged(list(hands), seat, legal, list(trick), rules.first_trick)
    res, _ = _core.csolver.solve_moves(  # type: ignore[union-attr]
        rules.compiled(),
        list(hands),
        leader,
        list(trick),
        led if trick else 0,
        maxside,
        -1,
        max_nodes,
    )
    values: dict[tuple[int, int], Bounds] = {(int(c), int(ld)): (float(lo), float(hi)) for c, ld, lo, hi in res}
    out = dict(values)
    for c, head in rep.items():
        if head != c:
            for (hc, ld), b in list(values.items()):
                if hc == head:
                    out[(c, ld)] = b
    return out


def flip(b: Bounds, total: float) -> Bounds:
    """The other side's bounds, where the two sides share ``total``."""
    return (total - b[1], total - b[0])


def exactness(values: dict[Action, Bounds]) -> str:
    """``exact`` where every value is solved, else ``bounds``."""
    return "exact" if all(lo == hi for lo, hi in values.values()) else "bounds"


def plays(state: GameState) -> list[Play]:
    """The legal card plays of the seat to act."""
    return [a for a in state.legal_actions() if isinstance(a, Play)]


@dataclass(frozen=True)
class CoachPart:
    """A game's part of the coach: its module (``GameInfo.parts["coach"]``) names one ``COACH``."""

    open_values: Callable[[GameState, int, random.Random], OpenValues]
    """Each legal card's value at a card play: ``open_values(state, max_nodes, rng)``."""
    nodes: int
    """The review's solver node budget per card choice (a review of a whole deal stays within
    seconds: ``kirifuda bench`` measures it)."""
    count_unit: str
    """What the open values count (``tricks``, ``face_cards``): a deal's unit without a card play."""
    score_unit: str
    """The game's score unit (``points``, ``chips``, ``tricks``)."""
    exact_from: int | None = None
    """Where the game estimates before an exact part: the tricks left from which it is exact."""
    exact_note: str | None = None
    """The catalogue key of the review's line on that (with ``{n}``: ``exact_from``)."""
    review_json: Mapping[str, Any] = field(default_factory=dict)
    """Fields the game adds to a review's JSON."""
    claim_after: Callable[[GameState, int], Bounds] | None = None
    """Where the game has claims: the claiming side's count after a claim by ``seat``
    (``claim_after(state, seat)``; the engine checks the claim against every defence)."""
    deal_kinds: Sequence[Any] = ()
    """The practice deal kinds (:class:`kirifuda.coach.kinds.DealKind`) the game offers."""


def coach_part(game_id: str) -> CoachPart:
    """The coach's part of a registered game (its module is loaded on first use); refused with
    :class:`~kirifuda.errors.KirifudaError` where the game declares none."""
    from ..games import game_part

    module = game_part(game_id, "coach")
    part = getattr(module, "COACH", None)
    if not isinstance(part, CoachPart):
        raise KirifudaError(f"game {game_id!r} has no coach (GameInfo.parts['coach'])")
    return part


def open_values(state: GameState, max_nodes: int, rng: random.Random) -> OpenValues | None:
    """Each legal card's value at a card play (``None`` where the seat to act has no card to
    choose: not a card play)."""
    if not plays(state):
        return None
    return coach_part(state.game_id).open_values(state, max_nodes, rng)
