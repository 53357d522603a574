"""Every legal card's value with all hands open (全員の手を開いた評価), per game.

For the deal review: at a card play of a real deal, each legal card's value is the count the
player's own side ends the deal with after it, with best play by everyone from then on:

- Meitora: the tricks of the player's team (of 10);
- Kakeya Trump: the face cards (絵札) of the player's pair (of 16);
- Napoleon: the face cards of the player's side (the army, or the allies: every face card still
  in play that the army does not take);
- Unsun: the player's own tricks, each other seat playing against it (the paranoid value of
  :mod:`kirifuda.solver.unsun`); exact from ``UNSUN_EXACT_TRICKS`` tricks left, estimated
  before by the oracle's rollouts on the real deal (:func:`kirifuda.bots.search_unsun.totals_add`).

Values are bounds ``(lo, hi)``: equal where the solver finished within its node budget, the
bounds it proved where it did not.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Callable, Sequence

from ..actions import Action, Play
from ..cards import JOKER_ID
from ..game import GameState
from ..solver import _core, has_c_core, solve_moves
from ..solver.rules import TrickRules

__all__ = ["OpenValues", "open_values", "UNSUN_EXACT_TRICKS", "UNSUN_ROLLOUTS"]

UNSUN_EXACT_TRICKS = 5
"""Unsun: tricks left (the one in progress included) from which the review solves exactly."""
UNSUN_ROLLOUTS = 16
"""Unsun: rollouts per card on the real deal before that."""
UNSUN_NODES = 400_000
"""Unsun: the paranoid solver's node budget per position (over it: the rollouts)."""

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


def move_bounds(rules: TrickRules, hands: Sequence[int], leader: int, trick: Sequence[int], led: int,
                maxside: int, max_nodes: int) -> dict[tuple[int, int], Bounds]:
    """:func:`kirifuda.solver.solve_moves` with each choice's proven bounds, not their middle
    (the pure-Python core: exact values, no budget)."""
    if not has_c_core():
        return {k: (v, v) for k, v in solve_moves(rules, hands, leader, trick, led, maxside).items()}
    seat = (leader + len(trick)) % rules.num_players
    legal = rules.legal_mask(hands[seat], len(trick), led)
    rep = rules.merged(list(hands), seat, legal, list(trick), rules.first_trick)
    res, _ = _core.csolver.solve_moves(rules.compiled(), list(hands), leader, list(trick),  # type: ignore[union-attr]
                                       led if trick else 0, maxside, -1, max_nodes)
    values: dict[tuple[int, int], Bounds] = {(int(c), int(ld)): (float(lo), float(hi)) for c, ld, lo, hi in res}
    out = dict(values)
    for c, head in rep.items():
        if head != c:
            for (hc, ld), b in list(values.items()):
                if hc == head:
                    out[(c, ld)] = b
    return out


def _flip(b: Bounds, total: float) -> Bounds:
    return (total - b[1], total - b[0])


def _method(values: dict[Action, Bounds]) -> str:
    return "exact" if all(lo == hi for lo, hi in values.values()) else "bounds"


def _plays(state: GameState) -> list[Play]:
    return [a for a in state.legal_actions() if isinstance(a, Play)]


# -- Meitora ------------------------------------------------------------------------------------

def _meitora(state: GameState, max_nodes: int, rng: random.Random) -> OpenValues:
    from ..games.meitora import MeitoraState
    from ..solver.meitora import REQUESTS, position_of

    assert isinstance(state, MeitoraState)
    seat = state.to_act
    assert seat is not None
    pos = position_of(state)
    raw = move_bounds(pos.rules, pos.hands, pos.leader, pos.trick, pos.led, pos.maxside, max_nodes)
    team = pos.declarer % 2
    taken = state.team_tricks[team]
    mine = seat % 2 == team
    values: dict[Action, Bounds] = {}
    for a in _plays(state):
        c = a.card.id
        ld = pos.led if pos.trick else -1
        if not pos.trick and c == JOKER_ID and pos.joker_lead == "request":
            ld = REQUESTS.index(a.request or "any")
        key = next(k for k in raw if k[0] == c and (ld < 0 or k[1] == ld))
        b = (taken + raw[key][0], taken + raw[key][1])
        values[a] = b if mine else _flip(b, 10)
    return OpenValues(seat, values, _method(values), "tricks")


# -- Kakeya -------------------------------------------------------------------------------------

def _kakeya(state: GameState, max_nodes: int, rng: random.Random) -> OpenValues:
    from ..games.kakeya import KakeyaState
    from ..solver.kakeya import KakeyaPosition, kakeya_rules

    assert isinstance(state, KakeyaState)
    seat = state.to_act
    assert seat is not None
    active = list(state.active_seats)
    idx = {s: i for i, s in enumerate(active)}
    pair = state.pair_of(seat)
    maxside = sum(1 << idx[s] for s in state.pair_seats(pair))
    trick = tuple(c for _, c in state._trick)
    leader = idx[state._trick[0][0]] if state._trick else idx[seat]
    pos = KakeyaPosition(state.trump.index, tuple(state._hands[s] for s in active), leader, trick,  # type: ignore[arg-type]
                         maxside)
    raw = move_bounds(kakeya_rules(pos.trump), pos.hands, pos.leader, pos.trick, pos.led, pos.maxside, max_nodes)
    so_far = len(state._faces[pair])
    by_card = {c: b for (c, _), b in raw.items()}
    values: dict[Action, Bounds] = {a: (so_far + by_card[a.card.id][0], so_far + by_card[a.card.id][1])
                                    for a in _plays(state)}
    return OpenValues(seat, values, _method(values), "face_cards")


# -- Napoleon -----------------------------------------------------------------------------------

def _napoleon(state: GameState, max_nodes: int, rng: random.Random) -> OpenValues:
    from ..bots.search_napoleon import _key
    from ..games.napoleon import FACE_MASK, S3, NapoleonState
    from ..solver.napoleon import position_of
    from ..solver.rules import CALLED

    assert isinstance(state, NapoleonState)
    seat = state.to_act
    assert seat is not None
    pos = position_of(state)
    raw = move_bounds(pos.rules, pos.hands, pos.leader, pos.trick, pos.led if pos.trick else 4, pos.maxside,
                      max_nodes)
    if (S3, 0) in raw and (S3, CALLED) not in raw:
        raw[(S3, CALLED)] = raw[(S3, 0)]  # no other hand holds the joker: the call changes nothing
    army = state.army_face_cards()
    in_play = 0
    for h in pos.hands:
        in_play += (h & FACE_MASK).bit_count()
    for c in pos.trick:
        in_play += (FACE_MASK >> c) & 1
    for s in range(state.num_players):
        in_play += len(state.face_cards_taken(s))
    mine = pos.maxside >> seat & 1
    values: dict[Action, Bounds] = {}
    for a in _plays(state):
        lo, hi = raw[_key(a, pos.trick, pos.led)]
        b = (army + lo, army + hi)
        values[a] = b if mine else _flip(b, in_play)
    return OpenValues(seat, values, _method(values), "face_cards")


# -- Unsun --------------------------------------------------------------------------------------

def _unsun(state: GameState, max_nodes: int, rng: random.Random) -> OpenValues:
    from ..bots.search_unsun import totals_add
    from ..games.unsun import UnsunState
    from ..solver.unsun import Budget, UnsunPosition

    assert isinstance(state, UnsunState)
    seat = state.to_act
    assert seat is not None
    plays = _plays(state)
    won = state.tricks_won[seat]
    pos = UnsunPosition(trump=state._trump, hands=tuple(state._hands), start=state._start,
                        trick=tuple(state._trick), me=seat)
    if pos.tricks_left() <= UNSUN_EXACT_TRICKS:
        try:
            exact = pos.move_values(UNSUN_NODES)
        except Budget:
            pass
        else:
            values: dict[Action, Bounds] = {a: (won + exact[a.card.id], won + exact[a.card.id]) for a in plays}
            return OpenValues(seat, values, "exact", "tricks")
    reps = [a.card.id for a in plays]
    totals = dict.fromkeys(reps, 0.0)
    totals_add(totals, reps, state._trump, list(state._hands), state._start, list(state._trick),
               state.num_players, seat, False, 0, UNSUN_ROLLOUTS, rng)
    est: dict[Action, Bounds] = {a: (won + totals[a.card.id], won + totals[a.card.id]) for a in plays}
    return OpenValues(seat, est, "rollouts", "tricks")


_GAMES: dict[str, Callable[[GameState, int, random.Random], OpenValues]] = {
    "meitora": _meitora, "kakeya": _kakeya, "napoleon": _napoleon, "unsun": _unsun}


def open_values(state: GameState, max_nodes: int, rng: random.Random) -> OpenValues | None:
    """Each legal card's value at a card play (``None`` where the seat to act has no card to
    choose: not a card play)."""
    if not _plays(state):
        return None
    return _GAMES[state.game_id](state, max_nodes, rng)
