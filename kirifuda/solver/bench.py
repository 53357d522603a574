"""Solver benchmarks (``kirifuda bench``): full Meitora deals solved from the first trick, and,
where ``endplay`` is installed (``pip install 'kirifuda[bench]'``), DDS — the bridge double-dummy
solver — on bridge deals with the same number of tricks left, in the same run.

The Meitora deals are random deals played to the first trick the way a table would: the
``heuristic`` bot bids (a deal that everyone passes is dealt again) and chooses the negri.
Times are CPU time of one core (``time.process_time``), so other loads on the machine inflate
them less.
"""

from __future__ import annotations

import random
import statistics
import time
from typing import Any

__all__ = ["meitora_first_trick_states", "bench_meitora", "bench_dds", "unsun_ending_states", "bench_unsun"]


def meitora_first_trick_states(n: int, seed: int = 0) -> list[Any]:
    """``n`` Meitora states at the first trick (bidding and negri by the heuristic bot)."""
    from ..bots.meitora_heuristic import MeitoraHeuristicBot
    from ..games.meitora import MeitoraState, Phase

    rng = random.Random(seed)
    bot = MeitoraHeuristicBot()
    out: list[Any] = []
    while len(out) < n:
        s = MeitoraState()
        s.deal_random(rng)
        while s.phase in (Phase.BIDDING, Phase.DISCARD):
            seat = s.to_act
            assert seat is not None
            s.apply(bot.choose(s.view(seat), rng))
        if s.phase is Phase.PLAY:
            out.append(s)
    return out


def _summary(times: list[float]) -> dict[str, float]:
    times = sorted(times)
    return {
        "full_deal_ms_median": round(statistics.median(times) * 1e3, 3),
        "full_deal_ms_p90": round(times[int(0.9 * (len(times) - 1))] * 1e3, 3),
        "full_deal_ms_max": round(times[-1] * 1e3, 3),
        "deals": len(times),
    }


def bench_meitora(n: int = 200, seed: int = 0, backend: str | None = None) -> dict[str, Any]:
    """Solve ``n`` full Meitora deals (all 10 tricks, every hand open), exactly; the search
    starts from the contract's count (a guess, as the bots give it: it only orders the probes)."""
    from . import has_c_core
    from .meitora import position_of

    states = meitora_first_trick_states(n, seed)
    times = []
    for s in states:
        pos = position_of(s)
        guess = s.contract.count if s.contract is not None else -1
        t0 = time.process_time()
        pos.value(backend, guess)
        times.append(time.process_time() - t0)
    out: dict[str, Any] = dict(_summary(times))
    out["core"] = backend or ("c" if has_c_core() else "python")
    return out


def unsun_ending_states(n: int, tricks_left: int, seed: int = 0) -> list[Any]:
    """``n`` four-player Unsun states with ``tricks_left`` tricks left (at a trick start), the
    deal played to that point by the ``heuristic`` bot."""
    from ..bots.unsun_heuristic import UnsunHeuristicBot
    from ..games.unsun import UnsunOptions, UnsunState

    rng = random.Random(seed)
    bot = UnsunHeuristicBot()
    out: list[Any] = []
    for _ in range(n):
        s = UnsunState(UnsunOptions(deals=1))
        s.deal_random(rng)
        for _ in range(4 * (12 - tricks_left)):
            seat = s.to_act
            assert seat is not None
            s.apply(bot.choose(s.view(seat), rng))
        out.append(s)
    return out


UNSUN_ENDINGS = ((3, 1), (4, 4), (5, 20), (6, 60))
"""(tricks left, one position per this many of the ``n`` asked): the longer solves are fewer
(3 and 4 tricks left at least one position, 5 and 6 only when ``n`` reaches the divisor:
200 gives 200, 50, 10 and 3)."""


def bench_unsun(n: int = 200, seed: int = 0) -> dict[str, Any]:
    """Unsun endings solved exactly (four players, every hand open, the paranoid value of the
    seat to act: :mod:`kirifuda.solver.unsun`), by tricks left; a whole deal (12 tricks) is
    beyond the exact solver, so there is no full-deal figure."""
    from .unsun import position_of

    out: dict[str, Any] = {"core": "python", "value": "paranoid tricks of the seat to act", "tricks_left": {}}
    for left, per in UNSUN_ENDINGS:
        count = n // per if left > 4 else max(1, n // per)
        if count == 0:
            continue
        times = []
        for s in unsun_ending_states(count, left, seed + left):
            pos = position_of(s, s.to_act)
            t0 = time.process_time()
            pos.value()
            times.append(time.process_time() - t0)
        times.sort()
        out["tricks_left"][str(left)] = {
            "ms_median": round(statistics.median(times) * 1e3, 3),
            "ms_p90": round(times[int(0.9 * (len(times) - 1))] * 1e3, 3),
            "ms_max": round(times[-1] * 1e3, 3),
            "positions": len(times),
        }
    return out


def bench_dds(n: int = 200, tricks_left: int = 10, seed: int = 0) -> dict[str, Any] | None:
    """DDS (through endplay) on ``n`` random bridge deals after ``13 - tricks_left`` tricks of
    random legal play, solving for the best card's value; ``None`` without endplay."""
    try:
        from endplay.dds import solve_board  # type: ignore[import-not-found,import-untyped,unused-ignore]
        from endplay.dds.solve import SolveMode  # type: ignore[import-not-found,import-untyped,unused-ignore]
        from endplay.types import Deal, Denom, Player  # type: ignore[import-not-found,import-untyped,unused-ignore]
    except ImportError:
        return None
    rng = random.Random(seed)
    times = []
    for _ in range(n):
        cards = list(range(52))
        rng.shuffle(cards)
        suits, ranks = "SHDC", "23456789TJQKA"
        hands = []
        for h in range(4):
            mine = cards[13 * h:13 * h + 13]
            hands.append(".".join("".join(ranks[c % 13] for c in sorted((c for c in mine if c // 13 == s), reverse=True))
                                  for s in range(4)))
        deal = Deal.from_pbn("N:" + " ".join(hands))
        deal.trump = Denom(rng.randrange(5))
        deal.first = Player(rng.randrange(4))
        for _ in range(4 * (13 - tricks_left)):
            deal.play(rng.choice(list(deal.legal_moves())))
        t0 = time.process_time()
        solve_board(deal, SolveMode.OptimalOne)
        times.append(time.process_time() - t0)
    return _summary(times)
