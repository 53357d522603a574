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
from typing import Any, Callable

__all__ = [
    "unsun_ending_states",
    "bench_unsun",
    "meitora_first_trick_states",
    "bench_meitora",
    "kakeya_positions",
    "bench_kakeya",
    "napoleon_states",
    "bench_napoleon",
    "bench_dds",
]


def _play_until(state: Any, bot: Any, rng: random.Random, reached: Callable[[Any], bool]) -> bool:
    """Let ``bot`` play every seat of ``state``'s deal until ``reached(state)``; False if the
    deal ended first (played out, or void: everyone passed, and it is to be dealt again)."""
    deal = state.deal_number
    while state.deal_number == deal and state.to_act is not None:
        if reached(state):
            return True
        state.apply(bot.choose(state.view(state.to_act), rng))
    return False


def _heuristic_states(
    new_state: Callable[[], Any], bot: Any, n: int, seed: int, reached: Callable[[Any], bool]
) -> list[Any]:
    """``n`` states of fresh deals (``new_state()``, dealt from ``seed``) played by ``bot``
    until ``reached``; a deal that ends first is skipped."""
    rng = random.Random(seed)
    out: list[Any] = []
    while len(out) < n:
        s = new_state()
        s.deal_random(rng)
        if _play_until(s, bot, rng, reached):
            out.append(s)
    return out


def meitora_first_trick_states(n: int, seed: int = 0) -> list[Any]:
    """``n`` Meitora states at the first trick (bidding and negri by the heuristic bot)."""
    from ..bots.meitora_heuristic import MeitoraHeuristicBot
    from ..games.meitora import MeitoraState, Phase

    return _heuristic_states(MeitoraState, MeitoraHeuristicBot(), n, seed, lambda st: st.phase is Phase.PLAY)


def _summary(times: list[float]) -> dict[str, float]:
    times = sorted(times)
    return {
        "full_deal_ms_median": round(statistics.median(times) * 1e3, 3),
        "full_deal_ms_mean": round(statistics.mean(times) * 1e3, 3),
        "full_deal_ms_p90": round(times[int(0.9 * (len(times) - 1))] * 1e3, 3),
        "full_deal_ms_max": round(times[-1] * 1e3, 3),
        "deals": len(times),
    }


def bench_meitora(n: int = 200, seed: int = 0, backend: str | None = None) -> dict[str, Any]:
    """Solve ``n`` full Meitora deals (all 10 tricks, every hand open), exactly, as
    ``MeitoraPosition.value()`` does with no guess (the search starts from its own estimate);
    and again for the value of every first lead (``every_card_ms_median``:
    ``MeitoraPosition.move_values()``, the work of DDS's default mode)."""
    from . import has_c_core
    from .meitora import position_of

    states = meitora_first_trick_states(n, seed)
    times, every = [], []
    for s in states:
        pos = position_of(s)
        t0 = time.process_time()
        pos.value(backend)
        times.append(time.process_time() - t0)
        t0 = time.process_time()
        pos.move_values(backend)
        every.append(time.process_time() - t0)
    out: dict[str, Any] = dict(_summary(times))
    out["every_card_ms_median"] = round(statistics.median(every) * 1e3, 3)
    out["core"] = backend or ("c" if has_c_core() else "python")
    return out


def kakeya_positions(n: int, tricks_left: int, seed: int = 0) -> list[Any]:
    """``n`` Kakeya positions at a trick start with ``tricks_left`` tricks to play, the trump,
    who leads and every card before chosen by the ``heuristic`` bot (four players)."""
    from ..bots.kakeya_heuristic import KakeyaHeuristicBot
    from ..games.kakeya import KakeyaState
    from .kakeya import KakeyaPosition

    def at_trick_start(st: Any) -> bool:
        return bool(
            st.phase.value == "play" and not st._trick and st._hands[st.active_seats[0]].bit_count() == tricks_left
        )

    out: list[Any] = []
    for s in _heuristic_states(KakeyaState, KakeyaHeuristicBot(), n, seed, at_trick_start):
        idx = {x: i for i, x in enumerate(s.active_seats)}
        seat = s.to_act
        assert seat is not None
        maxside = sum(1 << idx[x] for x in s.pair_seats(s.pair_of(seat)))
        out.append(KakeyaPosition(s.trump.index, tuple(s._hands[x] for x in s.active_seats), idx[seat], (), maxside))
    return out


def _budgeted(
    positions: list[Any], solve: Callable[[Any, int], tuple[int, int]], max_nodes: int = 0
) -> tuple[dict[str, Any], int]:
    """Time ``solve(position, max_nodes) -> (lo, hi)`` on each position: the summary, and how
    many were solved exactly (``lo == hi``)."""
    times, exact = [], 0
    for pos in positions:
        t0 = time.process_time()
        lo, hi = solve(pos, max_nodes)
        times.append(time.process_time() - t0)
        exact += lo == hi
    return _summary(times), exact


def _by_tricks_left(fig: dict[str, Any], exact: int) -> dict[str, Any]:
    return {
        "ms_median": fig["full_deal_ms_median"],
        "ms_p90": fig["full_deal_ms_p90"],
        "ms_max": fig["full_deal_ms_max"],
        "positions": fig["deals"],
        "exact": exact,
    }


def _budgeted_figures(
    positions_at: Callable[[int, int], list[Any]],
    solve: Callable[[Any, int], tuple[int, int]],
    counts: tuple[tuple[int, int, int], ...],
    full_tricks: int,
    full_deals: int,
    full_deal_nodes: int,
) -> dict[str, Any]:
    """The figures of a game whose full deal is not solved exactly in reasonable time: positions
    with fewer tricks left (``counts``: tricks left, how many, node budget or 0 for exact), and
    ``full_deals`` deals from the first lead within ``full_deal_nodes`` nodes."""
    from . import has_c_core

    by_left = {}
    for left, count, nodes in counts:
        fig, exact = _budgeted(positions_at(count, left), solve, nodes)
        by_left[str(left)] = _by_tricks_left(fig, exact)
    fig, exact = _budgeted(positions_at(full_deals, full_tricks), solve, full_deal_nodes)
    out: dict[str, Any] = dict(fig)
    out.update(
        {
            "full_deal_exact": exact,
            "full_deal_node_budget": full_deal_nodes,
            "by_tricks_left": by_left,
            "core": "c" if has_c_core() else "python",
        }
    )
    return out


def bench_kakeya(n: int = 200, seed: int = 0, full_deals: int = 3, full_deal_nodes: int = 20_000_000) -> dict[str, Any]:
    """Kakeya: a full deal (13 tricks, face cards as the value) is not solved exactly in
    reasonable time, so this reports exact solves of positions with 6 and 8 tricks left (``n``
    of each, after heuristic play), positions with 10 left (``n // 4``) and ``full_deals`` deals
    from the first trick under a budget of ``full_deal_nodes`` search nodes (one 10-left
    position took 128 s to solve exactly): their times, and how many were exact."""
    from . import solve_bounds
    from .kakeya import kakeya_rules

    def solve(pos: Any, max_nodes: int) -> tuple[int, int]:
        return solve_bounds(kakeya_rules(pos.trump), pos.hands, pos.leader, (), 4, pos.maxside, None, -1, max_nodes)

    return _budgeted_figures(
        lambda count, left: kakeya_positions(count, left, seed),
        solve,
        ((6, n, 0), (8, n, 0), (10, max(1, n // 4), full_deal_nodes)),
        13,
        full_deals,
        full_deal_nodes,
    )


def napoleon_states(n: int, tricks_left: int, seed: int = 0) -> list[Any]:
    """``n`` Napoleon states (five players, default options) with ``tricks_left`` tricks to
    play, everything before played by the ``heuristic`` bot (bids, adjutant, exchange, cards)."""
    from ..bots.napoleon_heuristic import NapoleonHeuristicBot
    from ..games.napoleon import NapoleonState, Phase

    return _heuristic_states(
        NapoleonState,
        NapoleonHeuristicBot(),
        n,
        seed,
        lambda st: st.phase is Phase.PLAY and not st._trick and len(st._tricks) == 10 - tricks_left,
    )


NAPOLEON_NODES = 5_000_000
"""The node budget of a Napoleon solve in the benchmark (about half a second of one core)."""


def bench_napoleon(n: int = 200, seed: int = 0, backend: str | None = None) -> dict[str, Any]:
    """Napoleon (five players, face cards as the value, special tricks): positions with 6 and 8
    tricks left and full deals from the first lead (``n``, ``n // 4`` and ``n // 4`` of them),
    solved for the Napoleon army's face cards within ``NAPOLEON_NODES`` nodes (how many were
    exact is given); and the search bot's own look-ahead from the first lead (two tricks
    searched, the rest estimated: the horizon)."""
    from . import solve_bounds
    from .napoleon import NapoleonPosition, position_of

    def solve(s: Any, max_nodes: int) -> tuple[int, int]:
        pos = position_of(s)
        return solve_bounds(
            pos.rules, pos.hands, pos.leader, pos.trick, pos.led, pos.maxside, backend, s.contract.count, max_nodes
        )

    out = _budgeted_figures(
        lambda count, left: napoleon_states(count, left, seed),
        solve,
        ((6, n, NAPOLEON_NODES), (8, max(1, n // 4), NAPOLEON_NODES)),
        10,
        max(1, n // 4),
        NAPOLEON_NODES,
    )
    if backend is not None:
        out["core"] = backend
    times = []
    for s in napoleon_states(max(1, n // 4), 10, seed):
        p = position_of(s)
        pos = NapoleonPosition(p.trump, p.hands, p.leader, p.trick, p.led, p.maxside, p.first, horizon=8)
        t0 = time.process_time()
        pos.move_values()
        times.append(time.process_time() - t0)
    fig = _summary(times)
    out["first_lead_horizon_2_tricks"] = _by_tricks_left(fig, 0) | {"exact": None}
    return out


def unsun_ending_states(n: int, tricks_left: int, seed: int = 0) -> list[Any]:
    """``n`` four-player Unsun states with ``tricks_left`` tricks left (at a trick start), the
    deal played to that point by the ``heuristic`` bot."""
    from ..bots.unsun_heuristic import UnsunHeuristicBot
    from ..games.unsun import UnsunOptions, UnsunState

    return _heuristic_states(
        lambda: UnsunState(UnsunOptions(deals=1)),
        UnsunHeuristicBot(),
        n,
        seed,
        lambda st: not st._trick and st._hands[0].bit_count() == tricks_left,
    )


UNSUN_ENDINGS = ((3, 1), (4, 4), (5, 20), (6, 60))
"""(tricks left, one position per this many of the ``n`` asked): the longer solves are fewer
(3 and 4 tricks left at least one position, 5 and 6 only when ``n`` reaches the divisor:
200 gives 200, 50, 10 and 3)."""


def bench_unsun(n: int = 200, seed: int = 0, full_deals: int = 1, full_deal_nodes: int = 30_000) -> dict[str, Any]:
    """Unsun (:mod:`kirifuda.solver.unsun`, pure Python; four players, every hand open, the
    paranoid value of the seat to act): exact solves of endings with 3, 4, 5 and 6 tricks left
    after heuristic play, and ``full_deals`` deals from the first lead within
    ``full_deal_nodes`` nodes (a whole deal, 12 tricks with no must-follow, is beyond the exact
    solver: not exact within the budget)."""
    from .unsun import Budget, position_of

    def positions_at(count: int, left: int) -> list[Any]:
        return [position_of(s, s.to_act) for s in unsun_ending_states(count, left, seed + left)]

    def solve(pos: Any, max_nodes: int) -> tuple[int, int]:
        try:
            v = pos.value(max_nodes)
        except Budget:
            return 0, pos.tricks_left()
        return v, v

    counts = tuple((left, n // per if left > 4 else max(1, n // per), 0) for left, per in UNSUN_ENDINGS)
    fig = _budgeted_figures(positions_at, solve, tuple(c for c in counts if c[1] > 0), 12, full_deals, full_deal_nodes)
    fig["core"] = "python"
    fig["value"] = "paranoid tricks of the seat to act"
    return fig


def bench_dds(n: int = 200, tricks_left: int = 10, seed: int = 0) -> dict[str, Any] | None:
    """DDS (through endplay) on ``n`` random bridge deals after ``13 - tricks_left`` tricks of
    random legal play, solving for the best card's value (the summary), and again for every
    card's value (``all_cards_ms_median`` and ``_mean``: endplay's default mode, what
    ``solve_board(deal)`` does); with the C core, kirifuda's
    solver on the same positions under bridge's rules (``kirifuda_ms_median``, and in how many
    positions its value differs from DDS's: ``kirifuda_differs``, 0 unless there is a bug);
    ``None`` without endplay."""
    try:
        from endplay.dds import solve_board  # type: ignore[import-not-found,import-untyped,unused-ignore]
        from endplay.dds.solve import SolveMode  # type: ignore[import-not-found,import-untyped,unused-ignore]
        from endplay.types import Deal, Denom, Player  # type: ignore[import-not-found,import-untyped,unused-ignore]
    except ImportError:
        return None
    from . import has_c_core, solve
    from .rules import plain_trick_rules

    rng = random.Random(seed)
    deals = []
    for _ in range(n):
        cards = list(range(52))
        rng.shuffle(cards)
        ranks = "23456789TJQKA"
        hands = []
        for h in range(4):
            mine = cards[13 * h : 13 * h + 13]
            hands.append(
                ".".join(
                    "".join(ranks[c % 13] for c in sorted((c for c in mine if c // 13 == s), reverse=True))
                    for s in range(4)
                )
            )
        deal = Deal.from_pbn("N:" + " ".join(hands))
        deal.trump = Denom(rng.randrange(5))
        deal.first = Player(rng.randrange(4))
        for _ in range(4 * (13 - tricks_left)):
            deal.play(rng.choice(list(deal.legal_moves())))
        deals.append(deal)

    def timed(mode: Any) -> tuple[list[float], list[int]]:
        """The time of each solve, and the best card's value."""
        times, values = [], []
        for deal in deals:
            t0 = time.process_time()
            board = solve_board(deal, mode)
            times.append(time.process_time() - t0)
            values.append(max(tricks for _, tricks in board))
        return times, values

    best_times, dds_values = timed(SolveMode.OptimalOne)
    out: dict[str, Any] = dict(_summary(best_times))
    all_times = timed(SolveMode.Default)[0]
    out["all_cards_ms_median"] = round(statistics.median(all_times) * 1e3, 3)
    out["all_cards_ms_mean"] = round(statistics.mean(all_times) * 1e3, 3)
    if has_c_core():
        # kirifuda's own solver on the same positions, through bridge's plain trick rules
        times, differ = [], 0
        rules_of = {trump: plain_trick_rules(trump) for trump in range(5)}
        for deal, want in zip(deals, dds_values):
            held = [
                sum(1 << (card.suit.value * 13 + card.rank.value.bit_length() - 3) for card in deal[p]) for p in Player
            ]
            leader = deal.first.value
            rules = rules_of[deal.trump.value]
            rules.compiled()
            t0 = time.process_time()
            got = solve(rules, held, leader, (), 0, 0b0101 << (leader % 2), None, -1)
            times.append(time.process_time() - t0)
            differ += got != want
        out["kirifuda_ms_median"] = round(statistics.median(times) * 1e3, 3)
        out["kirifuda_differs"] = differ
    return out
