"""Many kirifuda environments stepped together (一括の環境).

- :func:`vector_env`: ``num_envs`` single-agent envs (:class:`~kirifuda.env.single.SingleAgentEnv`,
  one seat against kirifuda's bots) as a Gymnasium ``VectorEnv`` (``SyncVectorEnv``: numpy
  arrays of observations, masks, rewards and done flags, each env reset automatically on the
  step after it ends — Gymnasium's ``next_step`` autoreset).  Seeded with ``seed``, env ``i``
  runs the trajectory a lone env reset with ``seed + i`` runs, step for step.
- :func:`parallel_env`: the PettingZoo env as a ``ParallelEnv`` (PettingZoo's turn-based wrapper:
  every agent sends an action each step, the acting agent's is taken).

The environments step one after another in Python; a batched core in C is not part of this
module.

>>> envs = vector_env("meitora", 3, opponents="heuristic", claims="auto")
>>> obs, info = envs.reset(seed=7)
>>> obs["observation"].shape[0], obs["action_mask"].shape[0]
(3, 3)
>>> actions = [int(m.nonzero()[0][0]) for m in obs["action_mask"]]
>>> obs, rewards, terminated, truncated, info = envs.step(actions)
>>> rewards.shape
(3,)
"""

from __future__ import annotations

from typing import Any, Mapping

try:
    import gymnasium  # type: ignore[import-untyped, import-not-found, unused-ignore]
    from pettingzoo.utils.conversions import turn_based_aec_to_parallel  # type: ignore[import-untyped, import-not-found, unused-ignore]
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise ImportError("kirifuda.env.vector needs Gymnasium and PettingZoo: pip install 'kirifuda[pettingzoo]'") from exc

from .pettingzoo import KirifudaAEC, env as aec_env
from .single import SingleAgentEnv

__all__ = ["vector_env", "parallel_env"]


def vector_env(game: str, num_envs: int, options: Mapping[str, Any] | None = None, **kwargs: Any) -> Any:
    """``num_envs`` :class:`SingleAgentEnv` of ``game`` as a Gymnasium ``SyncVectorEnv``
    (``kwargs``: the single env's, e.g. ``seat``, ``opponents``, ``recall``, ``claims``)."""
    if not isinstance(num_envs, int) or num_envs < 1:
        raise ValueError(f"num_envs must be a positive integer, got {num_envs!r}")
    opts = dict(options or {})

    def make() -> SingleAgentEnv:
        return SingleAgentEnv(game, opts, **kwargs)

    return gymnasium.vector.SyncVectorEnv([make for _ in range(num_envs)])


def parallel_env(
    game: str, options: Mapping[str, Any] | None = None, *, illegal_reward: float | None = None, **kwargs: Any
) -> Any:
    """The PettingZoo env of ``game`` as a PettingZoo ``ParallelEnv`` (``kwargs``: the AEC
    env's; with ``illegal_reward`` an illegal action ends the episode with that reward, as
    :func:`kirifuda.env.pettingzoo.env` does, instead of raising)."""
    if illegal_reward is None:
        return turn_based_aec_to_parallel(KirifudaAEC(game, options, **kwargs))
    return turn_based_aec_to_parallel(aec_env(game, options, illegal_reward=illegal_reward, **kwargs))
