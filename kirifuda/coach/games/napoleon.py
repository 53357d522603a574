"""ナポレオン (Napoleon) for the coach: each legal card's value with all hands open is the face
cards of the player's side at the deal's end (the army, or the allies: every face card still in
play that the army does not take)."""

from __future__ import annotations

import random

from ...actions import Action
from ...game import GameState
from ...i18n import add_terms
from ..kinds import DealKind, first_bid, play_out
from ..positions import Bounds, CoachPart, OpenValues, exactness, flip, move_bounds, plays

add_terms(
    {
        "coach.army_count": (
            "ナポレオン軍は平均 {count}{unit}を取ります",
            "Napoleon's army ends with {count} {unit} on average",
        ),
    }
)


def open_values(state: GameState, max_nodes: int, rng: random.Random) -> OpenValues:
    from ...bots.search_napoleon import _key
    from ...games.napoleon import FACE_MASK, S3, NapoleonState
    from ...solver.napoleon import position_of
    from ...solver.rules import CALLED

    assert isinstance(state, NapoleonState)
    seat = state.to_act
    assert seat is not None
    pos = position_of(state)
    raw = move_bounds(pos.rules, pos.hands, pos.leader, pos.trick, pos.led if pos.trick else 4, pos.maxside, max_nodes)
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
    for a in plays(state):
        lo, hi = raw[_key(a, pos.trick, pos.led)]
        b = (army + lo, army + hi)
        values[a] = b if mine else flip(b, in_play)
    return OpenValues(seat, values, exactness(values), "face_cards")


# -- practice deals of a kind ---------------------------------------------------------------

add_terms(
    {
        "practice.kind.napoleon.napoleon": ("あなたがナポレオンになる配り", "you become Napoleon"),
        "practice.kind.napoleon.should_bid": ("宣言に出るべき手", "a hand that should bid"),
        "practice.kind.napoleon.close": (
            "きわどい宣言 (絵札が宣言の ±1 枚)",
            "a close contract (the army ends within one face card of it)",
        ),
    }
)


def _napoleon(state: GameState, seat: int, rng: random.Random) -> bool:
    """The heuristic bots bidding at every seat (yours too) make you Napoleon."""
    play_out(state, rng, until=lambda s: s.view(None).napoleon is not None)  # type: ignore[attr-defined]
    return bool(state.view(None).napoleon == seat)  # type: ignore[attr-defined]


def _close(state: GameState, seat: int, rng: random.Random) -> bool:
    """Played out by the heuristic bots, the army's face cards end within one of the contract."""
    play_out(state, rng)
    deal = state.deal_summaries()[-1]
    if deal.get("outcome") != "played" or not deal.get("contract"):
        return False
    count = int(str(deal["contract"])[:-1])
    return abs(int(deal["army_face_cards"]) - count) <= 1


DEAL_KINDS = (
    DealKind("napoleon", "practice.kind.napoleon.napoleon", _napoleon),
    DealKind("should_bid", "practice.kind.napoleon.should_bid", first_bid),
    DealKind("close", "practice.kind.napoleon.close", _close, tries=32),
)


COACH = CoachPart(open_values, nodes=800_000, count_unit="face_cards", score_unit="points", deal_kinds=DEAL_KINDS)
