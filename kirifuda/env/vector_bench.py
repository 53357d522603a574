"""The batched environments' speed beside PettingZoo's (``kirifuda bench --vector``, or
``python -m kirifuda.env.vector_bench``).

For each game with a batched C core (:class:`kirifuda.env.vector.BatchCore`) it prints env steps
per second — each a decision of some seat, with the observation vector and the action mask of the
next seat to act written — of

- ``core``: the core alone, the random legal actions chosen in C (:meth:`BatchCore.sample`);
- ``VectorEnv``: the Gymnasium ``VectorEnv`` driven from Python, the random legal actions drawn
  by numpy from the masks, with the arrays handed over as they are (``copy=False``) and copied
  (``copy=True``, Gymnasium's default);
- the core under other env options (``claims="auto"``: the claim's search after every card;
  ``recall="full"``: the whole deal's steps in the observation);

and, for every game, PettingZoo's own ``performance_benchmark`` of the AEC env (turns per second,
by the wall clock over its fixed 5 seconds) and, for a game without a batched core, the Python
vector env (:func:`kirifuda.env.vector.vector_env`, agent steps per second against ``random``
bots).  ``--cpu`` times by the process's CPU time, the fair figure on a shared machine (PettingZoo's
benchmark keeps its wall clock).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import re
import time
from typing import Any, Callable, Sequence

import numpy as np

Clock = Callable[[], float]


def core_steps(game: str, num_envs: int, seconds: float, clock: Clock = time.perf_counter, **env_opts: Any) -> float:
    """Env steps per second of the batched core alone (random legal actions chosen in C)."""
    from .vector import BatchCore

    core = BatchCore(game, num_envs, **env_opts)
    core.reset(seed=0)
    actions = np.zeros(num_envs, dtype=np.int64)
    steps = 0
    k = 0
    start = clock()
    while clock() - start < seconds:
        for _ in range(10):
            core.sample(k, actions)
            core.step(actions)
            k += 1
        steps += 10 * num_envs
    return round(steps / (clock() - start), 1)


def vector_env_steps(
    game: str, num_envs: int, seconds: float, clock: Clock = time.perf_counter, copy: bool = False
) -> float:
    """Env steps per second of the Gymnasium ``VectorEnv`` over the batched core, the random legal
    actions drawn by numpy from the masks."""
    from .vector import batch_vector_env

    return _random_steps(batch_vector_env(game, num_envs, copy=copy), num_envs, seconds, clock)


def python_vector_steps(game: str, num_envs: int, seconds: float, clock: Clock = time.perf_counter) -> float:
    """Agent steps per second of the Python vector env (:func:`kirifuda.env.vector.vector_env`,
    the other seats ``random`` bots), the agent's random legal actions drawn from the masks."""
    from .vector import vector_env

    envs = vector_env(game, num_envs, opponents="random", claims="auto")
    try:
        return _random_steps(envs, num_envs, seconds, clock)
    finally:
        envs.close()


def _random_steps(envs: Any, num_envs: int, seconds: float, clock: Clock) -> float:
    """Steps per second of a Gymnasium vector env whose actions are drawn by numpy from its
    masks, uniformly among the legal ones."""
    obs, _ = envs.reset(seed=0)
    rng = np.random.default_rng(0)
    steps = 0
    start = clock()
    while clock() - start < seconds:
        mask = obs["action_mask"]
        actions = (rng.random(mask.shape, dtype=np.float32) * mask).argmax(axis=1)
        obs, *_ = envs.step(actions)
        steps += num_envs
    return round(steps / (clock() - start), 1)


def pettingzoo_benchmark(game: str) -> float | None:
    """PettingZoo's ``performance_benchmark`` of the game's AEC env: its turns per second (it
    runs 5 seconds by the wall clock and prints; the figure is read from what it prints)."""
    try:
        from pettingzoo.test import performance_benchmark  # type: ignore[import-untyped, import-not-found, unused-ignore]

        from .pettingzoo import kirifuda_env
    except ImportError:
        return None
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        performance_benchmark(kirifuda_env(game))
    found = re.search(r"([0-9.eE+]+) turns per second", out.getvalue())
    return round(float(found.group(1)), 1) if found else None


def run(
    games: Sequence[str] | None = None,
    num_envs: int = 256,
    seconds: float = 2.0,
    cpu: bool = False,
    pettingzoo: bool = True,
) -> dict[str, Any]:
    """Every figure, per game."""
    from ..games import GAMES
    from .vector import has_batch_core

    clock: Clock = time.process_time if cpu else time.perf_counter
    out: dict[str, Any] = {"num_envs": num_envs, "clock": "cpu" if cpu else "wall", "games": {}}
    for game in games or list(GAMES):
        fig: dict[str, Any] = {}
        if has_batch_core(game):
            fig["core_steps_per_s"] = core_steps(game, num_envs, seconds, clock)
            fig["vector_env_steps_per_s"] = vector_env_steps(game, num_envs, seconds, clock)
            fig["vector_env_copy_steps_per_s"] = vector_env_steps(game, num_envs, seconds, clock, copy=True)
            fig["core_claims_auto_steps_per_s"] = core_steps(game, num_envs, seconds, clock, claims="auto")
            fig["core_recall_full_steps_per_s"] = core_steps(game, num_envs, seconds, clock, recall="full")
        else:
            fig["python_vector_env_agent_steps_per_s"] = python_vector_steps(game, min(num_envs, 8), seconds, clock)
        if pettingzoo:
            fig["pettingzoo_aec_turns_per_s"] = pettingzoo_benchmark(game)
        out["games"][game] = fig
    return out


def lines(result: dict[str, Any]) -> list[str]:
    """The figures as text."""
    n = result["num_envs"]
    rows = [f"env steps per second ({result['clock']} clock; PettingZoo's benchmark: wall clock)"]
    for game, fig in result["games"].items():
        pz = fig.get("pettingzoo_aec_turns_per_s")
        pz_text = "" if pz is None else f"  | PettingZoo performance_benchmark (AEC): {pz:,.0f} turns/s"
        if "core_steps_per_s" in fig:
            rows.append(
                f"{game:10s} batched C core, {n} envs: {fig['core_steps_per_s']:,.0f}"
                f"  | VectorEnv {fig['vector_env_steps_per_s']:,.0f} (copy=False)"
                f" {fig['vector_env_copy_steps_per_s']:,.0f} (copy=True){pz_text}"
            )
            rows.append(
                f"{'':10s} core with claims=auto: {fig['core_claims_auto_steps_per_s']:,.0f}"
                f"  | with recall=full: {fig['core_recall_full_steps_per_s']:,.0f}"
            )
        else:
            py = fig.get("python_vector_env_agent_steps_per_s") or 0.0
            rows.append(f"{game:10s} no batched core: Python vector env {py:,.0f} agent steps/s{pz_text}")
    return rows


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m kirifuda.env.vector_bench", description=__doc__.split("\n\n")[0])
    p.add_argument("--games", default="", help="comma-separated games (default: every game)")
    p.add_argument("--envs", type=int, default=256, help="envs in a batch (default 256)")
    p.add_argument("--seconds", type=float, default=2.0, help="seconds per figure (default 2)")
    p.add_argument("--cpu", action="store_true", help="time by the process's CPU time, not the wall clock")
    p.add_argument("--no-pettingzoo", action="store_true", help="leave out PettingZoo's benchmark (5 s a game)")
    p.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = p.parse_args(argv)
    if args.envs < 1 or args.seconds <= 0:
        p.error("--envs must be at least 1 and --seconds positive")
    games = [g for g in args.games.split(",") if g] or None
    result = run(games, args.envs, args.seconds, args.cpu, not args.no_pettingzoo)
    print(json.dumps(result) if args.json else "\n".join(lines(result)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
