"""うんすんかるた (Unsun) for the coach: each legal card's value with all hands open is the
player's own tricks at the deal's end, each other seat playing against it (the paranoid value of
:mod:`kirifuda.solver.unsun`); exact from ``UNSUN_EXACT_TRICKS`` tricks left, estimated before
by the oracle's rollouts on the real deal (:func:`kirifuda.bots.search_unsun.totals_add`)."""

from __future__ import annotations

import random

from ...actions import Action
from ...game import GameState
from ...i18n import add_terms
from ..kinds import DealKind, play_out
from ..positions import Bounds, CoachPart, OpenValues, plays

UNSUN_EXACT_TRICKS = 5
"""Tricks left (the one in progress included) from which the review solves exactly."""
UNSUN_ROLLOUTS = 16
"""Rollouts per card on the real deal before that."""
UNSUN_NODES = 400_000
"""The paranoid solver's node budget per position (over it: the rollouts)."""

add_terms(
    {
        "coach.unsun_exact": (
            "残り {n} トリックから正確に解いています (それより前は推定)",
            "exact from {n} tricks left (estimated before)",
        ),
    }
)


def open_values(state: GameState, max_nodes: int, rng: random.Random) -> OpenValues:
    from ...bots.search_unsun import totals_add
    from ...games.unsun import UnsunState
    from ...solver.unsun import Budget, UnsunPosition

    assert isinstance(state, UnsunState)
    seat = state.to_act
    assert seat is not None
    choices = plays(state)
    won = state.tricks_won[seat]
    pos = UnsunPosition(
        trump=state._trump, hands=tuple(state._hands), start=state._start, trick=tuple(state._trick), me=seat
    )
    if pos.tricks_left() <= UNSUN_EXACT_TRICKS:
        try:
            exact = pos.move_values(UNSUN_NODES)
        except Budget:
            pass
        else:
            values: dict[Action, Bounds] = {a: (won + exact[a.card.id], won + exact[a.card.id]) for a in choices}
            return OpenValues(seat, values, "exact", "tricks")
    reps = [a.card.id for a in choices]
    totals = dict.fromkeys(reps, 0.0)
    totals_add(
        totals,
        reps,
        state._trump,
        list(state._hands),
        state._start,
        list(state._trick),
        state.num_players,
        seat,
        False,
        0,
        UNSUN_ROLLOUTS,
        rng,
    )
    est: dict[Action, Bounds] = {a: (won + totals[a.card.id], won + totals[a.card.id]) for a in choices}
    return OpenValues(seat, est, "rollouts", "tricks")


# -- practice deals of a kind ---------------------------------------------------------------

add_terms(
    {
        "practice.kind.unsun.last_player": (
            "あなたが最初の取り番 (勝負を選べる)",
            "you are the first trick's last player (取り番: you pick the contest)",
        ),
        "practice.kind.unsun.close": (
            "きわどい回 (上位 2 人の差が 1 トリック以内)",
            "a close deal (the top two within one trick)",
        ),
    }
)


def _last_player(state: GameState, seat: int, rng: random.Random) -> bool:
    """You are the last player (取り番) of the first trick: you hold ♣J, or it is left over and
    you deal — public as soon as the deal begins."""
    return bool(state.view(None).last_player == seat)  # type: ignore[attr-defined]


def _close(state: GameState, seat: int, rng: random.Random) -> bool:
    """Played out by the heuristic bots, the two best seats' tricks differ by one at most."""
    play_out(state, rng)
    won = sorted((int(x) for x in state.deal_summaries()[-1].get("tricks_won") or ()), reverse=True)
    return len(won) >= 2 and won[0] - won[1] <= 1


DEAL_KINDS = (
    DealKind("last_player", "practice.kind.unsun.last_player", _last_player),
    DealKind("close", "practice.kind.unsun.close", _close, tries=32),
)


COACH = CoachPart(
    open_values,
    nodes=0,
    count_unit="tricks",
    score_unit="tricks",
    exact_from=UNSUN_EXACT_TRICKS,
    exact_note="coach.unsun_exact",
    review_json={"unsun_exact_from": UNSUN_EXACT_TRICKS},
    deal_kinds=DEAL_KINDS,
)
