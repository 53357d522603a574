"""Benchmarks of the research environments that need OpenSpiel: IS-MCTS simulations per second.

``kirifuda bench`` prints them in its env section (``ismcts_sims_per_s``) beside the env steps
per second through OpenSpiel and OpenSpiel's own euchre.
"""

from __future__ import annotations

import random
import time
from typing import Any


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


def bench_ismcts(game_id: str, seconds: float = 2.0, seed: int = 0, simulations: int = 50) -> float | None:
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
        bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, np.random.RandomState(point)),
                               uct_c=2.0, max_simulations=simulations,
                               random_state=np.random.RandomState(point))
        t = time.perf_counter()
        bot.step(s)
        elapsed += time.perf_counter() - t
        done += simulations
    return round(done / elapsed, 1)
