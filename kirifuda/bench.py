"""``kirifuda bench``: engine speed, measured.

For each game: complete random playouts per second on one core (from the deal to the end of
the deal, a uniformly random legal action at every decision through the public API
``legal_actions()`` / ``apply()``; claims are not made, as a random claim ends the deal at once),
and the cost of one ``apply``, of ``legal_actions`` (computed afresh) and of copying a state.
Where OpenSpiel is installed (``pip install 'kirifuda[bench]'``), its euchre — a game of the same
size — is driven from Python by the same loop in the same run, for comparison.

The solver and the bots (:mod:`kirifuda.solver.bench`): ``solver`` — full deals solved from the
first trick (median and worst CPU ms; DDS through ``endplay`` on bridge deals with as many tricks
left, side by side, where installed); ``decision`` — the CPU time of the default ``search`` bot's
decisions (every phase) in deals between four of them, at the 95th percentile.
"""

from __future__ import annotations

import random
import time
from typing import Any, Callable

from .actions import Claim
from .game import GameState
from .games import GAMES

__all__ = ["bench_game", "bench_openspiel", "dds_ratios", "run"]


def _playout(state: GameState, rng: random.Random) -> int:
    """Random legal actions from the deal to the end of the deal (when no one is left to act,
    a chance node or the end of the match); returns the actions taken.
    (The same driver shape as :func:`bench_openspiel`'s: bound methods, one test a step.)"""
    state.deal_random(rng)
    n = 0
    rand = rng.random
    legal_actions = state.legal_actions
    apply = state.apply
    while state.to_act is not None:  # no one to act: the deal is over
        legal = legal_actions()
        if type(legal[-1]) is Claim:
            a = legal[int(rand() * (len(legal) - 1))]
        else:
            a = legal[int(rand() * len(legal))]
        apply(a)
        n += 1
    return n


def _timed(seconds: float, body: Callable[[], int]) -> tuple[int, int, float]:
    count = actions = 0
    start = time.perf_counter()
    while True:
        actions += body()
        count += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return count, actions, elapsed


def bench_game(
    game_id: str, seconds: float = 2.0, seed: int = 0, options: dict[str, Any] | None = None
) -> dict[str, float]:
    info = GAMES[game_id]
    opts = info.options(options or {})
    rng = random.Random(seed)
    count, actions, elapsed = _timed(seconds, lambda: _playout(info.new_state(opts), rng))
    # sample positions from random playouts for the per-operation costs
    positions: list[tuple[GameState, Any]] = []
    while len(positions) < 3000:
        state = info.new_state(opts)
        state.deal_random(rng)
        while state.to_act is not None:  # the deal's end, as in _playout
            legal = [a for a in state.legal_actions() if type(a) is not Claim]
            a = rng.choice(legal)
            positions.append((state.copy(), a))
            state.apply(a)
    reps = 5

    def per_op(fn: Callable[[], None]) -> float:
        best = float("inf")
        for _ in range(reps):
            t0 = time.perf_counter()
            fn()
            best = min(best, time.perf_counter() - t0)
        return best / len(positions) * 1e6

    def do_copy() -> None:
        for s, _ in positions:
            s.copy()

    def do_legal() -> None:
        for s, _ in positions:
            s.uncached_legal_actions()

    copies: list[list[GameState]] = []

    def do_apply() -> None:
        batch = copies.pop()
        for s, (_, a) in zip(batch, positions):
            s.apply(a)

    copy_us = per_op(do_copy)
    legal_us = per_op(do_legal)
    copies.extend([s.copy() for s, _ in positions] for _ in range(reps))
    apply_us = per_op(do_apply)
    return {
        "playouts_per_s": round(count / elapsed, 1),
        "actions_per_playout": round(actions / count, 2),
        "actions_per_s": round(actions / elapsed, 1),
        "apply_us": round(apply_us, 3),
        "legal_actions_us": round(legal_us, 3),
        "copy_us": round(copy_us, 3),
    }


def bench_openspiel(seconds: float = 2.0, seed: int = 0, game: str = "euchre") -> dict[str, float] | None:
    """OpenSpiel's ``game`` driven from Python by the same loop (chance outcomes drawn
    uniformly, as its deal is uniform); ``None`` where pyspiel is not installed."""
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        return None
    g = pyspiel.load_game(game)
    rng = random.Random(seed)
    rand = rng.random

    def playout() -> int:
        s = g.new_initial_state()
        n = 0
        is_terminal, is_chance = s.is_terminal, s.is_chance_node
        chance_outcomes, legal_actions, apply_action = s.chance_outcomes, s.legal_actions, s.apply_action
        while not is_terminal():
            if is_chance():
                outcomes = chance_outcomes()
                apply_action(outcomes[int(rand() * len(outcomes))][0])
            else:
                legal = legal_actions()
                apply_action(legal[int(rand() * len(legal))])
                n += 1
        return n

    count, actions, elapsed = _timed(seconds, playout)
    return {"playouts_per_s": round(count / elapsed, 1), "actions_per_playout": round(actions / count, 2)}


def bench_env(game_id: str, seconds: float = 2.0, seed: int = 0, openspiel: bool = True) -> dict[str, float] | None:
    """Research-environment steps per second (:class:`kirifuda.env.core.GameEnv`, one deal per
    episode): at each step the acting seat's observation vector and legal mask, then a uniformly
    random legal action.  Through OpenSpiel (``kirifuda_<game>``, chance card by card, the same
    observation tensor) where pyspiel is installed.  ``None`` without numpy."""
    try:
        from .env.core import GameEnv
    except ImportError:
        return None
    env = GameEnv(game_id)
    rng = random.Random(seed)
    rand = rng.random

    def episode() -> int:
        env.reset(seed=int(rand() * 1e9))
        n = 0
        while not env.done:
            seat = env.to_act
            assert seat is not None
            env.observe(seat)
            env.legal_mask()
            ids = env.legal_ids()
            env.step(ids[int(rand() * len(ids))])
            n += 1
        return n

    count, steps, elapsed = _timed(seconds, episode)
    out = {"env_steps_per_s": round(steps / elapsed, 1)}
    if not openspiel:
        return out
    try:
        from .env.openspiel import game_name
    except ImportError:
        return out
    os_steps = bench_openspiel_env(game_name(game_id), seconds, seed)
    if os_steps is not None:
        out["openspiel_env_steps_per_s"] = os_steps
        from .env.bench import bench_ismcts

        sims = bench_ismcts(game_id, seconds, seed)
        if sims is not None:
            out["ismcts_sims_per_s"] = sims
    return out


def bench_openspiel_env(name: str, seconds: float = 2.0, seed: int = 0) -> float | None:
    """Decision steps per second of an OpenSpiel game driven from Python: the acting player's
    observation tensor (the information-state tensor where the game has none: euchre), the legal actions, a random one (chance outcomes drawn, not counted)."""
    try:
        import pyspiel
    except ImportError:
        return None
    g = pyspiel.load_game(name)
    observe = "observation_tensor" if g.get_type().provides_observation_tensor else "information_state_tensor"
    rng = random.Random(seed)
    rand = rng.random

    def episode() -> int:
        s = g.new_initial_state()
        n = 0
        while not s.is_terminal():
            if s.is_chance_node():
                outcomes = s.chance_outcomes()
                s.apply_action(outcomes[int(rand() * len(outcomes))][0])
            else:
                getattr(s, observe)(s.current_player())
                legal = s.legal_actions()
                s.apply_action(legal[int(rand() * len(legal))])
                n += 1
        return n

    count, steps, elapsed = _timed(seconds, episode)
    return round(steps / elapsed, 1)


def bench_decisions(game_id: str, deals: int = 4, seed: int = 0) -> dict[str, Any]:
    """CPU seconds per decision of the default ``search`` bot, four of them at the table."""
    from .bots import make_bot

    info = GAMES[game_id]
    rng = random.Random(seed)
    times: list[float] = []
    by_phase: dict[str, list[float]] = {}
    for _ in range(deals):
        state = info.new_state(info.options({}))
        bots = [make_bot("search", game_id) for _ in range(state.num_players)]
        deal_no = state.deal_number
        state.deal_random(rng)
        while state.deal_number == deal_no and not state.is_over:
            seat = state.to_act
            assert seat is not None
            phase = state.phase.value
            t0 = time.process_time()
            action = bots[seat].choose(state.view(seat), rng)
            times.append(time.process_time() - t0)
            by_phase.setdefault(phase, []).append(times[-1])
            state.apply(action, seat)
            for s, b in enumerate(bots):
                observe = getattr(b, "observe", None)
                if observe is not None:
                    observe(state.view(s))

    def p95(v: list[float]) -> float:
        v = sorted(v)
        return round(v[int(0.95 * (len(v) - 1))], 4)

    times.sort()
    return {
        "p95_s": p95(times),
        "median_s": round(times[len(times) // 2], 4),
        "max_s": round(times[-1], 4),
        "decisions": len(times),
        "p95_s_by_phase": {ph: p95(v) for ph, v in sorted(by_phase.items())},
    }


SOLVER_BENCHES = {
    "meitora": ("bench_meitora", 10),
    "kakeya": ("bench_kakeya", 13),
    "napoleon": ("bench_napoleon", 10),
    "unsun": ("bench_unsun", 5),
}
"""Games whose solver has a benchmark, and the tricks left of the DDS runs beside it (a deal's
tricks; Unsun: its longest exact endings)."""


def dds_ratios(fig: dict[str, Any], dds: dict[str, Any]) -> dict[str, float]:
    """A game's solver medians over DDS's, measured in the same run (for games whose full deals
    are solved exactly: Meitora): the value of a deal against endplay's default call
    (``solve_board(deal)``, every card's value: ``default_call``) and against its best card's
    value alone (``best_card``); where the game also times every first lead's value, that
    against DDS's every card (``every_card``, the same work).

    Issue #6's bar, Meitora's median no slower than DDS, is read as ``default_call`` ≤ 1: that is
    the call "DDS through endplay solving a deal" makes by default, and the one whose times match
    the issue's own figures ("about 3 ms" with 10 tricks left, "about 45 ms" for a full deal:
    its means here are about 2.4 and 40 ms, the best card's 1.1 and 18 ms). docs/bots.md."""
    out = {
        "default_call": round(fig["full_deal_ms_median"] / dds["all_cards_ms_median"], 2),
        "best_card": round(fig["full_deal_ms_median"] / dds["full_deal_ms_median"], 2),
    }
    if "every_card_ms_median" in fig:
        out["every_card"] = round(fig["every_card_ms_median"] / dds["all_cards_ms_median"], 2)
    return out


def run(
    games: list[str] | None = None,
    seconds: float = 2.0,
    openspiel: bool = True,
    solver_deals: int = 200,
    decision_deals: int = 4,
    coach_deals: int = 0,
) -> dict[str, Any]:
    out: dict[str, Any] = {"games": {}}
    for game_id in games or sorted(GAMES):
        out["games"][game_id] = bench_game(game_id, seconds)
        env = bench_env(game_id, seconds, openspiel=openspiel)
        if env is not None:
            out["games"][game_id].update(env)
    if openspiel:
        euchre = bench_openspiel(seconds)
        if euchre is not None:
            euchre_env = bench_openspiel_env("euchre", seconds)
            if euchre_env is not None:
                euchre["env_steps_per_s"] = euchre_env
            out["openspiel"] = {"euchre": euchre}
    if solver_deals > 0:
        from .solver import bench as solver_bench

        out["solver"] = {}
        for game_id in games or sorted(GAMES):
            if game_id not in SOLVER_BENCHES:
                continue
            fn, tricks = SOLVER_BENCHES[game_id]
            fig = getattr(solver_bench, fn)(solver_deals)
            dds = solver_bench.bench_dds(solver_deals, tricks_left=tricks)
            if dds is not None:
                fig["dds_bridge"] = {"tricks_left": tricks, **dds}
                if "full_deal_node_budget" not in fig:  # exact solves only: a budget's stop is no time to compare
                    fig["dds_ratio"] = dds_ratios(fig, dds)
            out["solver"][game_id] = fig
    if decision_deals > 0:
        from .bots.search import search_games

        out["decision"] = {}
        for game_id in games or sorted(GAMES):
            if game_id in search_games():
                out["decision"][game_id] = bench_decisions(game_id, decision_deals)
    if coach_deals > 0:
        from .bots.search import search_games
        from .coach.bench import bench_coach

        out["coach"] = {g: bench_coach(g, coach_deals) for g in games or sorted(GAMES) if g in search_games()}
    return out
