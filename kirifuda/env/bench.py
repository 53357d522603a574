"""Benchmarks of the research environments that need OpenSpiel: IS-MCTS simulations per second.

``kirifuda bench`` prints them in its env section (``ismcts_sims_per_s``) beside the env steps
per second through OpenSpiel and OpenSpiel's own euchre.  ``python -m kirifuda.env.bench``
prints the same figures for every game as a table, with each game's steps as a share of
euchre's in the same run, measured by wall clock or (``--cpu``) by the process's CPU time, the
fair figure on a machine shared with other work.
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any, Callable, Sequence

Clock = Callable[[], float]


def play_point(game: Any, seed: int) -> Any:
    """A state of a random deal at a card-play decision (after a few decisions), seeded."""
    rng = random.Random(seed)
    while True:
        s = game.new_initial_state()
        decisions = 0
        while not s.is_terminal():
            if s.is_chance_node():
                s.apply_action(rng.choice(s.chance_outcomes())[0])
                continue
            if decisions > 2 and s.view(None).phase == "play":
                return s
            s.apply_action(rng.choice(s.legal_actions()))
            decisions += 1


def bench_ismcts(
    game_id: str, seconds: float = 2.0, seed: int = 0, simulations: int = 50, clock: Clock = time.perf_counter
) -> float | None:
    """OpenSpiel's IS-MCTS (``open_spiel.python.algorithms.ismcts``, one random rollout per
    simulation) choosing card plays of random deals of ``kirifuda_<game>``: simulations per
    second.  ``None`` without OpenSpiel."""
    try:
        import numpy as np
        import pyspiel  # type: ignore[import-untyped, import-not-found, unused-ignore]
        from open_spiel.python.algorithms import ismcts, mcts  # type: ignore[import-untyped, import-not-found, unused-ignore]

        from .openspiel import game_name
    except ImportError:
        return None
    game = pyspiel.load_game(game_name(game_id))
    done = 0
    elapsed = 0.0
    point = seed
    while elapsed < seconds:
        s = play_point(game, point)
        point += 1
        bot = ismcts.ISMCTSBot(
            game,
            mcts.RandomRolloutEvaluator(1, np.random.RandomState(point)),
            uct_c=2.0,
            max_simulations=simulations,
            random_state=np.random.RandomState(point),
        )
        t = clock()
        bot.step(s)
        elapsed += clock() - t
        done += simulations
    return round(done / elapsed, 1)


def openspiel_steps(name: str, seconds: float = 2.0, seed: int = 0, clock: Clock = time.perf_counter) -> float | None:
    """Decision steps per second of the OpenSpiel game ``name`` driven from Python, as
    :func:`kirifuda.bench.bench_openspiel_env` drives it (the acting player's observation tensor
    — information-state tensor where the game has none — the legal actions, a random one;
    chance outcomes drawn and not counted), timed with ``clock``.  ``None`` without OpenSpiel."""
    try:
        import pyspiel  # type: ignore[import-untyped, import-not-found, unused-ignore]

        from . import openspiel  # noqa: F401  (registers kirifuda_<game>)
    except ImportError:
        return None
    g = pyspiel.load_game(name)
    observe = "observation_tensor" if g.get_type().provides_observation_tensor else "information_state_tensor"
    rand = random.Random(seed).random
    steps = 0
    start = clock()
    while clock() - start < seconds:
        s = g.new_initial_state()
        while not s.is_terminal():
            if s.is_chance_node():
                outcomes = s.chance_outcomes()
                s.apply_action(outcomes[int(rand() * len(outcomes))][0])
            else:
                getattr(s, observe)(s.current_player())
                legal = s.legal_actions()
                s.apply_action(legal[int(rand() * len(legal))])
                steps += 1
    return round(steps / (clock() - start), 1)


def aec_turns(game: str, seconds: float = 2.0, seed: int = 0, clock: Clock = time.perf_counter) -> float | None:
    """Turns per second of the PettingZoo AEC env with random legal actions, as PettingZoo's
    ``performance_benchmark`` drives it (``env.last()``, the mask's random action, ``step``;
    reset when every agent is done), timed with ``clock``.  ``None`` without PettingZoo."""
    try:
        from .pettingzoo import kirifuda_env
    except ImportError:
        return None
    env = kirifuda_env(game)
    env.reset(seed=seed)
    rng = random.Random(seed)
    turns = 0
    start = clock()
    while clock() - start < seconds:
        for _agent in env.agent_iter(env.num_agents):
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
            else:
                env.step(rng.choice(obs["action_mask"].nonzero()[0].tolist()))
            turns += 1
            if all(env.terminations.values()) or all(env.truncations.values()):
                env.reset()
    return round(turns / (clock() - start), 1)


def vector_steps(
    game: str, num_envs: int, seconds: float = 2.0, seed: int = 0, clock: Clock = time.perf_counter
) -> float | None:
    """The agent's steps per second over :func:`kirifuda.env.vector.vector_env` of ``num_envs``
    envs (observations and masks as numpy arrays, autoreset), the other seats ``random``, the
    agent's actions random legal ones.  ``None`` without Gymnasium."""
    try:
        from .vector import vector_env
    except ImportError:
        return None
    envs = vector_env(game, num_envs, opponents="random", claims="auto")
    obs, _ = envs.reset(seed=seed)
    rng = random.Random(seed)
    steps = 0
    start = clock()
    while clock() - start < seconds:
        actions = [rng.choice(m.nonzero()[0].tolist()) if m.any() else 0 for m in obs["action_mask"]]
        obs, *_ = envs.step(actions)
        steps += num_envs
    envs.close()
    return round(steps / (clock() - start), 1)


def main(argv: Sequence[str] | None = None) -> None:
    """``python -m kirifuda.env.bench``: steps/s through OpenSpiel beside euchre's, and IS-MCTS
    simulations/s, per game."""
    from ..games import GAMES
    from .openspiel import game_name

    p = argparse.ArgumentParser(prog="python -m kirifuda.env.bench", description=main.__doc__)
    p.add_argument("--games", default=",".join(sorted(GAMES)), help="comma-separated games (default: every game)")
    p.add_argument("--seconds", type=float, default=2.0, help="seconds per figure (default 2)")
    p.add_argument("--simulations", type=int, default=50, help="IS-MCTS simulations a move (default 50)")
    p.add_argument("--cpu", action="store_true", help="time by the process's CPU time, not the wall clock")
    p.add_argument("--no-ismcts", action="store_true", help="leave out IS-MCTS")
    p.add_argument(
        "--envs",
        type=int,
        default=0,
        help="also the PettingZoo AEC env's turns/s and the vector env's steps/s with this many envs",
    )
    args = p.parse_args(argv)
    clock: Clock = time.process_time if args.cpu else time.perf_counter
    euchre = openspiel_steps("euchre", args.seconds, clock=clock)
    if euchre is None:
        raise SystemExit("OpenSpiel is not installed: pip install 'kirifuda[openspiel]'")
    print(
        f"{'game':10s} {'steps/s':>10s} {'of euchre':>10s} {'IS-MCTS sims/s':>15s}   ({'CPU' if args.cpu else 'wall'} time)"
    )
    print(f"{'euchre':10s} {euchre:10.0f} {'100%':>10s}")
    for game in [g for g in args.games.split(",") if g]:
        steps = openspiel_steps(game_name(game), args.seconds, clock=clock) or 0.0
        sims = None if args.no_ismcts else bench_ismcts(game, args.seconds, simulations=args.simulations, clock=clock)
        print(f"{game:10s} {steps:10.0f} {steps / euchre:10.0%} {'' if sims is None else f'{sims:15.1f}'}", flush=True)
        if args.envs > 0:
            aec = aec_turns(game, args.seconds, clock=clock)
            vec = vector_steps(game, args.envs, args.seconds, clock=clock)
            print(
                f"{'':10s} PettingZoo AEC {aec or 0:.0f} turns/s; vector env of {args.envs}: "
                f"{vec or 0:.0f} agent steps/s",
                flush=True,
            )


if __name__ == "__main__":
    main()
