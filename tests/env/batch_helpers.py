"""What the batched C cores' tests share: the core and the Python env compared side by side."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from kirifuda.env.core import GameEnv
    from kirifuda.env.vector import BatchCore


def assert_same(core: BatchCore, env: GameEnv, i: int = 0) -> None:
    """Every seat's observation, the mask and the seat to act agree."""
    for seat in range(env.num_players):
        np.testing.assert_array_equal(core.observe(i, seat), env.observe(seat), err_msg=f"seat {seat}")
    if env.done:
        return
    assert int(core.to_act[i]) == env.to_act
    np.testing.assert_array_equal(core.mask[i], env.legal_mask())
    np.testing.assert_array_equal(core.obs[i], env.observe(env.to_act))


def step_both(core: BatchCore, env: GameEnv, action: int) -> list[float] | None:
    """One action taken by the env and by env 0 of the core: the same end, rewards and
    observations after it; returns the env's rewards (``None`` while the episode goes on)."""
    rewards = env.step(action)
    core.step([action])
    assert bool(core.done[0]) == env.done
    expected = rewards if rewards is not None else [0.0] * env.num_players
    np.testing.assert_array_equal(core.rewards[0], np.array(expected, dtype=np.float32))
    assert_same(core, env)
    return rewards


def random_actions(core: BatchCore, rng: np.random.Generator) -> np.ndarray:
    """A random legal action for every env of the core."""
    return np.array([rng.choice(np.flatnonzero(m)) for m in core.mask])
