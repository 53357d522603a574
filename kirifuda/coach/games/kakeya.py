"""掛合トランプ (Kakeya Trump) for the coach: each legal card's value with all hands open is the
face cards (絵札) of the player's pair at the deal's end (of 16)."""

from __future__ import annotations

import random

from ...actions import Action
from ...game import GameState
from ...i18n import add_terms
from ..kinds import DealKind, play_out
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
    pos = KakeyaPosition(
        state.trump.index,
        tuple(state._hands[s] for s in active),  # type: ignore[arg-type]
        leader,
        trick,
        maxside,
    )
    raw = move_bounds(kakeya_rules(pos.trump), pos.hands, pos.leader, pos.trick, pos.led, pos.maxside, max_nodes)
    so_far = len(state._faces[pair])
    by_card = {c: b for (c, _), b in raw.items()}
    values: dict[Action, Bounds] = {
        a: (so_far + by_card[a.card.id][0], so_far + by_card[a.card.id][1]) for a in plays(state)
    }
    return OpenValues(seat, values, exactness(values), "face_cards")


# -- practice deals of a kind ---------------------------------------------------------------

add_terms(
    {
        "practice.kind.kakeya.faces": ("絵札を 5 枚以上持つ手", "a hand with five face cards or more"),
        "practice.kind.kakeya.close": (
            "きわどい勝負 (絵札の差が 2 枚以内)",
            "a close game (the pairs' face cards within two)",
        ),
    }
)


def _faces(state: GameState, seat: int, rng: random.Random) -> bool:
    """Your own hand (dealt face down until the trump is chosen) holds five face cards (絵札:
    A, K, Q, J) or more."""
    hand = state.record_deals()[-1]["hands"][seat]
    return sum(1 for code in hand if str(code)[0] in "AKQJ") >= 5


def _close(state: GameState, seat: int, rng: random.Random) -> bool:
    """Played out by the heuristic bots, the pairs' face cards differ by two at most."""
    play_out(state, rng)
    deal = state.deal_summaries()[-1]
    faces = [int(x) for x in deal.get("face_cards") or ()]
    return len(faces) == 2 and abs(faces[0] - faces[1]) <= 2


DEAL_KINDS = (
    DealKind("faces", "practice.kind.kakeya.faces", _faces),
    DealKind("close", "practice.kind.kakeya.close", _close, tries=32),
)


COACH = CoachPart(open_values, nodes=500_000, count_unit="face_cards", score_unit="chips", deal_kinds=DEAL_KINDS)
