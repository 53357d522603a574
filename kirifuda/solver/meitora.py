"""Meitora (明専トランプ) for the solver: the trick rules per strain, and positions.

The value of a Meitora position is the number of tricks the declarer's team (seats
``declarer % 2`` and ``+2``) takes from it.  The joker (タンツェン) is a *free* card (it may be
played to any trick), *last-forced* (it may not be kept to the last trick) and, with
``joker_lead="request"``, a *multi-lead* card (a joker lead names S, H, D, C or any); with
``joker_lead="trump"`` its lead asks for trump, which is its effective suit already.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from ..cards import JOKER_ID
from ..games.meitora import EFF_SUIT, STRENGTH, STRAINS
from . import solve, solve_bounds, solve_moves
from .rules import NCARD, NO_SUIT, TrickRules

if TYPE_CHECKING:
    from ..games.meitora import MeitoraState

__all__ = ["meitora_rules", "MeitoraPosition", "position_of", "solve_state", "REQUESTS"]

JK_BIT = 1 << JOKER_ID
REQUESTS = ("S", "H", "D", "C", "any")
"""A joker lead's request by led index (0–3 the suits, 4 no request)."""


@lru_cache(maxsize=None)
def meitora_rules(strain: int, joker_lead: str = "request") -> TrickRules:
    """The trick rules of a contract in ``STRAINS[strain]``."""
    eff = [-1] * NCARD
    strength = [[0] * NCARD for _ in range(5)]
    for c in range(53):
        e = EFF_SUIT[strain][c]
        if c == JOKER_ID or (c % 13) >= 3:  # ranks 5..A and the joker
            eff[c] = e
            for led in range(5):
                strength[led][c] = STRENGTH[strain][led][c]
    multi = JK_BIT if joker_lead == "request" else 0
    return TrickRules(
        num_players=4,
        eff=tuple(eff),
        strength=tuple(tuple(r) for r in strength),
        free_mask=JK_BIT,
        multi_lead_mask=multi,
        lead_choices=(0, 1, 2, 3, 4) if multi else (),
        last_forced_mask=JK_BIT,
        trick_base=1,
        nomerge_mask=JK_BIT,
    )


@dataclass(frozen=True)
class MeitoraPosition:
    """A play position with every hand open."""

    strain: int
    hands: tuple[int, int, int, int]
    leader: int
    trick: tuple[int, ...]
    """Cards of the trick in progress, from the leader on."""
    led: int
    declarer: int
    joker_lead: str = "request"

    @property
    def rules(self) -> TrickRules:
        return meitora_rules(self.strain, self.joker_lead)

    @property
    def maxside(self) -> int:
        team = self.declarer % 2
        return (1 << team) | (1 << (team + 2))

    @property
    def to_act(self) -> int:
        return (self.leader + len(self.trick)) % 4

    def value(self, backend: str | None = None, guess: int = -1) -> int:
        """Tricks the declarer's team takes from here on."""
        return solve(self.rules, self.hands, self.leader, self.trick, self.led, self.maxside, backend, guess)

    def estimate(self, max_nodes: int, guess: int = -1) -> float:
        """The value, or the middle of its bounds where ``max_nodes`` ran out first."""
        lo, hi = solve_bounds(
            self.rules, self.hands, self.leader, self.trick, self.led, self.maxside, None, guess, max_nodes
        )
        return lo if lo == hi else (lo + hi) / 2

    def move_values(
        self, backend: str | None = None, guess: int = -1, max_nodes: int = 0
    ) -> dict[tuple[int, str | None], float]:
        """Tricks the declarer's team takes from here after each legal play of the seat to act:
        ``{(card id, request or None): tricks}`` (exact unless ``max_nodes`` ran out)."""
        raw = solve_moves(
            self.rules, self.hands, self.leader, self.trick, self.led, self.maxside, backend, guess, max_nodes
        )
        out: dict[tuple[int, str | None], float] = {}
        for (c, ld), v in raw.items():
            req = REQUESTS[ld] if (not self.trick and c == JOKER_ID and self.joker_lead == "request") else None
            out[(c, req)] = v
        return out


def position_of(state: "MeitoraState") -> MeitoraPosition:
    """The play position of a state (all hands: for the oracle, tests and benchmarks)."""
    assert state.declarer is not None and state.phase.value == "play"
    return MeitoraPosition(
        strain=state._strain,
        hands=tuple(state._hands),  # type: ignore[arg-type]
        leader=state._leader,
        trick=tuple(c for _, c in state._trick),
        led=state._led if state._trick else NO_SUIT,
        declarer=state.declarer,
        joker_lead=state.options.joker_lead,
    )


def solve_state(state: "MeitoraState", backend: str | None = None) -> int:
    """Tricks the declarer's team ends the deal with (taken so far + from here, best play)."""
    pos = position_of(state)
    return state.team_tricks[pos.declarer % 2] + pos.value(backend)


STRAIN_INDEX = {s: i for i, s in enumerate(STRAINS)}
