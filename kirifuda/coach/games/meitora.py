"""明専トランプ (Meitora) for the coach: each legal card's value with all hands open is the tricks
of the player's team at the deal's end (of 10); a claim (オープン) is worth every trick left
when it holds."""

from __future__ import annotations

import random

from ...actions import Action
from ...cards import JOKER_ID
from ...game import GameState
from ...i18n import add_terms
from ..kinds import DealKind, first_bid, play_out
from ..positions import Bounds, CoachPart, OpenValues, exactness, flip, move_bounds, plays


def open_values(state: GameState, max_nodes: int, rng: random.Random) -> OpenValues:
    from ...games.meitora import MeitoraState
    from ...solver.meitora import REQUESTS, position_of

    assert isinstance(state, MeitoraState)
    seat = state.to_act
    assert seat is not None
    pos = position_of(state)
    raw = move_bounds(pos.rules, pos.hands, pos.leader, pos.trick, pos.led, pos.maxside, max_nodes)
    team = pos.declarer % 2
    taken = state.team_tricks[team]
    mine = seat % 2 == team
    values: dict[Action, Bounds] = {}
    for a in plays(state):
        c = a.card.id
        ld = pos.led if pos.trick else -1
        if not pos.trick and c == JOKER_ID and pos.joker_lead == "request":
            ld = REQUESTS.index(a.request or "any")
        key = next(k for k in raw if k[0] == c and (ld < 0 or k[1] == ld))
        b = (taken + raw[key][0], taken + raw[key][1])
        values[a] = b if mine else flip(b, 10)
    return OpenValues(seat, values, exactness(values), "tricks")


def claim_after(state: GameState, seat: int) -> Bounds:
    """The claiming team's tricks after a claim by ``seat``: every trick left when it holds."""
    from ...games.meitora import MeitoraState

    assert isinstance(state, MeitoraState) and state.declarer is not None
    own = state.team_tricks[seat % 2]
    left = 10 - sum(state.team_tricks)
    holds = state._claim_is_valid(seat)
    return (float(own + left),) * 2 if holds else (float(own),) * 2


# -- practice deals of a kind ---------------------------------------------------------------

add_terms(
    {
        "practice.kind.meitora.declarer": ("あなたが吹き上げる (宣言者になる) 配り", "you become the declarer"),
        "practice.kind.meitora.should_bid": ("競りに出るべき手", "a hand that should bid"),
        "practice.kind.meitora.close": (
            "きわどい契約 (ちょうど入るか 1 トリック足りない)",
            "a close contract (made exactly or down one)",
        ),
        "practice.kind.meitora.defend_nt": ("相手のノートランプを守る配り", "you defend against no-trump"),
    }
)


def _declarer(state: GameState, seat: int, rng: random.Random) -> bool:
    """The heuristic bots bidding at every seat (yours too) leave the contract to you."""
    play_out(state, rng, until=lambda s: s.view(None).declarer is not None)  # type: ignore[attr-defined]
    return bool(state.view(None).declarer == seat)  # type: ignore[attr-defined]


def _defend_nt(state: GameState, seat: int, rng: random.Random) -> bool:
    """The heuristic bots bidding at every seat (yours too) leave a no-trump contract to the
    other team."""
    play_out(state, rng, until=lambda s: s.view(None).declarer is not None)  # type: ignore[attr-defined]
    view = state.view(None)
    declarer, contract = view.declarer, view.contract  # type: ignore[attr-defined]
    return declarer is not None and declarer % 2 != seat % 2 and contract is not None and contract.strain == "N"


def _close(state: GameState, seat: int, rng: random.Random) -> bool:
    """Played out by the heuristic bots, the contract is made exactly or goes down by one."""
    play_out(state, rng)
    deal = state.deal_summaries()[-1]
    if deal.get("outcome") != "played" or deal.get("declarer") is None:
        return False
    count = int(str(deal["contract"])[:-1])
    return deal["team_tricks"][deal["declarer"] % 2] in (count - 1, count)


DEAL_KINDS = (
    DealKind("declarer", "practice.kind.meitora.declarer", _declarer),
    DealKind("should_bid", "practice.kind.meitora.should_bid", first_bid),
    DealKind("close", "practice.kind.meitora.close", _close, tries=32),
    DealKind("defend_nt", "practice.kind.meitora.defend_nt", _defend_nt, tries=256),
)


COACH = CoachPart(
    open_values,
    nodes=2_000_000,
    count_unit="tricks",
    score_unit="points",
    claim_after=claim_after,
    deal_kinds=DEAL_KINDS,
)
