"""The coach's figures for ``kirifuda bench``: hint latency and the time of a deal's review.

Deals are played by ``heuristic`` bots (seeded).  **Hints**: at every decision of every seat
with more than one choice, the CPU time of :func:`kirifuda.coach.hint` (rebuilding the seat's
views from the state, then the ``search`` bot's decision with its trace), by phase.
**Review**: the CPU time of :func:`kirifuda.coach.review` of each whole deal, and the share of
its card positions solved exactly (a game exact only near the deal's end says from how many
tricks left: ``CoachPart.exact_from``).
"""

from __future__ import annotations

import random
import time
from typing import Any

from ..games import GAMES
from ..record import from_state
from .hint import hint
from .positions import coach_part
from .review import review

__all__ = ["bench_coach", "coach_lines"]


def _p(values: list[float], q: float) -> float:
    v = sorted(values)
    return round(v[int(q * (len(v) - 1))], 4) if v else 0.0


def bench_coach(game_id: str, deals: int = 2, seed: int = 0) -> dict[str, Any]:
    """Hint latency (p95, median, max; p95 by phase) and review time per deal for ``deals``
    deals of ``game_id``."""
    from ..bots import make_bot

    info = GAMES[game_id]
    rng = random.Random(seed)
    hints: list[float] = []
    by_phase: dict[str, list[float]] = {}
    reviews: list[float] = []
    positions = exact = 0
    for d in range(deals):
        state = info.new_state(info.options({}))
        bots = [make_bot("heuristic", game_id) for _ in range(state.num_players)]
        state.deal_random(rng)
        while state.deal_number == 0 and not state.is_over:
            seat = state.to_act
            assert seat is not None
            view = state.view(seat)
            if len(view.legal_actions) > 1:
                t0 = time.process_time()
                hint(state, seat, seed=d)
                hints.append(time.process_time() - t0)
                by_phase.setdefault(state.phase.value, []).append(hints[-1])
            state.apply(bots[seat].choose(view, rng), seat)
        t0 = time.process_time()
        rev = review(from_state(state), seed=d)
        reviews.append(time.process_time() - t0)
        for dr in rev.deals:
            positions += dr.positions
            exact += dr.exact
    out: dict[str, Any] = {
        "hints": len(hints),
        "hint_p95_s": _p(hints, 0.95),
        "hint_median_s": _p(hints, 0.5),
        "hint_max_s": _p(hints, 1.0),
        "hint_p95_s_by_phase": {ph: _p(v, 0.95) for ph, v in sorted(by_phase.items())},
        "deals": deals,
        "review_s_median": _p(reviews, 0.5),
        "review_s_max": _p(reviews, 1.0),
        "review_positions": positions,
        "review_exact": exact,
    }
    exact_from = coach_part(game_id).exact_from
    if exact_from is not None:
        out["review_exact_from_tricks_left"] = exact_from
    return out


def coach_lines(result: dict[str, Any]) -> list[str]:
    """``kirifuda bench``'s lines for the coach's figures."""
    lines = []
    for game_id, fig in result.items():
        lines.append(
            f"{game_id:10s} coach hints: p95 {fig['hint_p95_s']:.3f} s, median {fig['hint_median_s']:.3f} s,"
            f" max {fig['hint_max_s']:.3f} s ({fig['hints']} hints); p95 by phase: "
            + ", ".join(f"{ph} {v:.3f} s" for ph, v in fig["hint_p95_s_by_phase"].items())
        )
        share = fig["review_exact"] / fig["review_positions"] if fig["review_positions"] else 0.0
        exact_from = (
            f"; exact from {fig['review_exact_from_tricks_left']} tricks left"
            if "review_exact_from_tricks_left" in fig
            else ""
        )
        lines.append(
            f"{'':10s} coach review of a whole deal: median {fig['review_s_median']:.2f} s,"
            f" max {fig['review_s_max']:.2f} s over {fig['deals']} deals; positions solved exactly"
            f" {fig['review_exact']}/{fig['review_positions']} ({share:.0%}){exact_from}"
        )
    return lines
