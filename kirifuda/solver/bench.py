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

__all__ = ["meitora_first_trick_states", "bench_meitora", "napoleon_states", "bench_napoleon", "bench_dds"]


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


def napoleon_states(n: int, tricks_left: int, seed: int = 0) -> list[Any]:
    """``n`` Napoleon states (five players, default options) with ``tricks_left`` tricks to
    play, everything before played by the ``heuristic`` bot (bids, adjutant, exchange, cards)."""
    from ..bots.napoleon_heuristic import NapoleonHeuristicBot
    from ..games.napoleon import NapoleonState, Phase

    rng = random.Random(seed)
    bot = NapoleonHeuristicBot()
    out: list[Any] = []
    while len(out) < n:
        s = NapoleonState()
        s.deal_random(rng)
        while s.phase is not Phase.PLAY and s.to_act is not None:
            s.apply(bot.choose(s.view(s.to_act), rng))
        if s.phase is not Phase.PLAY:
            continue
        while len(s._tricks) < 10 - tricks_left or s._trick:
            assert s.to_act is not None
            s.apply(bot.choose(s.view(s.to_act), rng))
        out.append(s)
    return out


NAPOLEON_NODES = 5_000_000
"""The node budget of a Napoleon solve in the benchmark (about half a second of one core)."""


def bench_napoleon(n: int = 200, seed: int = 0, backend: str | None = None) -> dict[str, Any]:
    """Napoleon positions with 6, 8 and 10 tricks left (10: the full deal from the first
    lead), solved for the Napoleon army's face cards exactly, or within ``NAPOLEON_NODES``
    nodes (the share solved exactly is given); and the search bot's own look-ahead from the
    first lead (two tricks searched, the rest estimated: the horizon)."""
    from . import has_c_core, solve_bounds
    from .napoleon import NapoleonPosition, position_of

    out: dict[str, Any] = {"core": backend or ("c" if has_c_core() else "python"),
                           "node_budget": NAPOLEON_NODES}
    for left, count in ((6, n), (8, max(1, n // 4)), (10, max(1, n // 4))):
        times = []
        exact = 0
        for s in napoleon_states(count, left, seed):
            pos = position_of(s)
            t0 = time.process_time()
            lo, hi = solve_bounds(pos.rules, pos.hands, pos.leader, pos.trick, pos.led, pos.maxside, backend,
                                  s.contract.count, NAPOLEON_NODES)
            times.append(time.process_time() - t0)
            exact += lo == hi
        fig = _summary(times)
        out[f"tricks_left_{left}"] = {k.replace("full_deal_", ""): v for k, v in fig.items()} | {
            "exact_share": round(exact / len(times), 3)}
    times = []
    for s in napoleon_states(max(1, n // 4), 10, seed):
        p = position_of(s)
        pos = NapoleonPosition(p.trump, p.hands, p.leader, p.trick, p.led, p.maxside, p.first, horizon=8)
        t0 = time.process_time()
        pos.move_values()
        times.append(time.process_time() - t0)
    out["first_lead_horizon_2_tricks"] = {k.replace("full_deal_", ""): v for k, v in _summary(times).items()}
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
