"""掛合トランプ (Kakeya Trump) for the coach: each legal card's value with all hands open is the
face cards (絵札) of the player's pair at the deal's end (of 16)."""

from __future__ import annotations

import random

from ...actions import Action
from ...game import GameState
from ..positions import Bounds, CoachPart, OpenValues, exactness, move_bounds, plays


def open_values(state: GameState, max_nodes: int, rng: random.Random) -> OpenValues:
    from ...games.kakeya import KakeyaState
    from ...solver.kakeya import KakeyaPosition, kakeya_rules

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
                                    for a in plays(state)}
    return OpenValues(seat, values, exactness(values), "face_cards")


COACH = CoachPart(open_values, nodes=500_000, count_unit="face_cards", score_unit="chips")
