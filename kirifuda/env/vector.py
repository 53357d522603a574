"""Many kirifuda environments stepped together (一括の環境).

**Batched in C** (a game whose registry entry names a ``vector`` part, today Meitora, Napoleon,
Kakeya and Unsun):

- :class:`BatchCore`: ``num_envs`` deals stepped at once by the game's C core into numpy arrays
  — the observation of each env's seat to act (``obs``: the Python env's layout and values), its
  action mask, the rewards per seat, done flags and the seat to act — each env starting its next
  deal at once when one ends (same-step autoreset).  Seeded with ``seed``, env ``i`` plays what a
  lone batch reset with ``seed + i`` plays, step for step.
- :func:`batch_vector_env`: that as a Gymnasium ``VectorEnv`` (self-play: each env's action is
  taken for its seat to act; the reward is that seat's, every seat's is in
  ``info["seat_rewards"]``).
- :func:`batch_parallel_env`: one batched deal as a PettingZoo ``ParallelEnv``;
  :func:`batch_env`: one as a Gymnasium ``Env`` (self-play; Gymnasium's env checker passes).

**Python envs stepped in turn** (every game):

- :func:`vector_env`: ``num_envs`` single-agent envs (:class:`~kirifuda.env.single.SingleAgentEnv`,
  one seat against kirifuda's bots) as a Gymnasium ``VectorEnv`` (``SyncVectorEnv``: numpy
  arrays of observations, masks, rewards and done flags, each env reset automatically on the
  step after it ends — Gymnasium's ``next_step`` autoreset).  Seeded with ``seed``, env ``i``
  runs the trajectory a lone env reset with ``seed + i`` runs, step for step.
- :func:`parallel_env`: the PettingZoo env as a ``ParallelEnv`` (PettingZoo's turn-based wrapper:
  every agent sends an action each step, the acting agent's is taken).

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

from typing import Any, Mapping, Sequence

import numpy as np

try:
    import gymnasium  # type: ignore[import-untyped, import-not-found, unused-ignore]
    from gymnasium import spaces  # type: ignore[import-untyped, import-not-found, unused-ignore]
    from gymnasium.vector import AutoresetMode  # type: ignore[import-untyped, import-not-found, unused-ignore]
    from pettingzoo import ParallelEnv  # type: ignore[import-untyped, import-not-found, unused-ignore]
    from pettingzoo.utils.conversions import turn_based_aec_to_parallel  # type: ignore[import-untyped, import-not-found, unused-ignore]
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise ImportError("kirifuda.env.vector needs Gymnasium and PettingZoo: pip install 'kirifuda[pettingzoo]'") from exc

from ..errors import IllegalActionError, OptionError
from ..games import game_part
from .core import GameEnv
from .pettingzoo import KirifudaAEC, env as aec_env
from .single import SingleAgentEnv

__all__ = [
    "BatchCore",
    "BatchVectorEnv",
    "BatchParallelEnv",
    "BatchEnv",
    "batch_vector_env",
    "batch_parallel_env",
    "batch_env",
    "has_batch_core",
    "vector_env",
    "parallel_env",
]


# --------------------------------------------------------------------------------------------
# The batched core


def has_batch_core(game: str) -> bool:
    """Whether ``game`` has a batched C core here (declared by the game, and built)."""
    part = game_part(game, "vector")
    return part is not None and bool(part.available())


class BatchCore:
    """``num_envs`` deals of ``game`` stepped at once by the game's C core.

    The arrays are the core's own, rewritten in place by :meth:`reset` and :meth:`step`:
    ``obs`` (``num_envs × obs_size`` float32, the observation of each env's seat to act, as
    :meth:`kirifuda.env.core.GameEnv.observe` gives it), ``mask`` (int8 action masks),
    ``to_act`` (int8, the seat to act), ``rewards`` (float32 per seat, of the step just taken)
    and ``done`` (whether that step ended the env's deal).  With ``autoreset`` (the default) an
    env whose deal ended shows its next deal's first decision at once.

    The env options are :class:`~kirifuda.env.core.GameEnv`'s (``recall``, ``scaled``,
    ``claims``; ``first`` a seat); what the game's core does not play is refused by name.

    >>> batch = BatchCore("meitora", 4, claims="off")
    >>> batch.reset(seed=0)
    >>> batch.obs.shape, batch.mask.shape, batch.to_act.tolist()
    ((4, 1964), (4, 139), [0, 0, 0, 0])
    >>> batch.step([83, 83, 83, 83])  # every first bidder passes
    >>> batch.to_act.tolist()
    [1, 1, 1, 1]
    """

    def __init__(
        self,
        game: str,
        num_envs: int,
        options: Mapping[str, Any] | None = None,
        *,
        first: int = 0,
        recall: str | None = None,
        scaled: bool = False,
        claims: str = "keep",
        match: bool = False,
        autoreset: bool = True,
    ) -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise ValueError(f"num_envs must be a positive integer, got {num_envs!r}")
        self.spec = GameEnv(game, options, match=match, first=0, recall=recall, scaled=scaled, claims=claims)
        """The Python env these envs play as (the contract: actions, layout, options)."""
        n_seats = self.spec.num_players
        if isinstance(first, bool) or not isinstance(first, int) or not 0 <= first < n_seats:
            raise OptionError(f"first={first!r}: the batched core takes a seat 0-{n_seats - 1}")
        part = game_part(self.spec.game_id, "vector")
        if part is None:
            raise OptionError(
                f"{self.spec.game_id}: no batched C core; kirifuda.env.vector.vector_env steps its Python envs"
            )
        self.game_id = self.spec.game_id
        self.num_envs = num_envs
        self.num_players = n_seats
        self.num_actions = self.spec.catalog.size
        self.obs_size = self.spec.obs_size
        self.version = self.spec.version
        self.obs = np.zeros((num_envs, self.obs_size), dtype=np.float32)
        self.mask = np.zeros((num_envs, self.num_actions), dtype=np.int8)
        self.to_act = np.zeros(num_envs, dtype=np.int8)
        self.rewards = np.zeros((num_envs, n_seats), dtype=np.float32)
        self.done = np.zeros(num_envs, dtype=np.bool_)
        scale = np.ones(self.obs_size, dtype=np.float32)
        if self.spec.scale is not None:
            scale[: self.spec.encoder.size] = self.spec.scale
        self._core = part.batch(
            num_envs,
            self.spec,
            first=first,
            autoreset=autoreset,
            scale=scale,
            arrays={
                "obs": self.obs,
                "mask": self.mask,
                "to_act": self.to_act,
                "rewards": self.rewards,
                "done": self.done,
            },
        )
        self._reset_done = False

    def reset(self, seed: int | Sequence[int] | None = None) -> None:
        """A new deal in every env: env ``i`` seeded with ``seed + i`` (or ``seed[i]``); without a
        seed each env's random stream goes on (the first time: seeds from the OS's entropy)."""
        seeds: np.ndarray | None = None
        if seed is None and not self._reset_done:
            seed = [int(x) for x in np.random.SeedSequence().generate_state(self.num_envs, dtype=np.uint64)]
        if seed is not None:
            if isinstance(seed, (int, np.integer)) and not isinstance(seed, bool):
                raw = [int(seed) + i for i in range(self.num_envs)]
            elif isinstance(seed, bool):
                raise ValueError(f"reset: a seed is an integer, got {seed!r}")
            else:
                raw = [int(s) for s in seed]
                if len(raw) != self.num_envs:
                    raise ValueError(f"reset: {len(raw)} seeds for {self.num_envs} envs")
            seeds = np.array([s & (2**64 - 1) for s in raw], dtype=np.uint64)
        self._core.reset(seeds)
        self._reset_done = True

    def step(self, actions: Any) -> None:
        """One action per env (integers, shape ``(num_envs,)``) for its seat to act.  Every action
        is checked before any is taken: a wrong shape or type raises ``ValueError``, an action
        outside an env's mask :class:`~kirifuda.errors.IllegalActionError` naming the env, the
        seat and the action, and nothing changes."""
        if not self._reset_done:
            raise IllegalActionError(None, "step", "reset() first")
        a = np.asarray(actions)
        if a.shape != (self.num_envs,):
            raise ValueError(f"actions: expected shape ({self.num_envs},), one action per env; got {a.shape}")
        if a.dtype.kind not in "iu":
            if a.dtype.kind == "f" and np.all(np.floor(a) == a):
                a = a.astype(np.int64)
            else:
                raise ValueError(f"actions: integers 0..{self.num_actions - 1}, got dtype {a.dtype}")
        a64 = np.ascontiguousarray(a, dtype=np.int64)
        bad = self._core.step(a64)
        if bad >= 0:
            raise self._illegal(int(bad), int(a64[bad]))

    def _illegal(self, i: int, action: int) -> IllegalActionError:
        seat = int(self.to_act[i])
        if not 0 <= action < self.num_actions:
            return IllegalActionError(
                seat, f"action {action}", f"env {i}: an action is an integer 0..{self.num_actions - 1}"
            )
        name = self.spec.catalog.describe(action)
        if self.spec.claims != "keep" and action in self.spec.masked_out:
            why = "left out of this environment's actions (its claims option)"
        else:
            why = "not in its action mask (not legal now)"
        return IllegalActionError(seat, f"{action} ({name})", f"env {i}: {why}")

    def sample(self, seed: int = 0, out: np.ndarray | None = None) -> np.ndarray:
        """A random legal action per env, uniform over its mask, chosen in C from a stream
        seeded with ``seed`` (random agents for benchmarks and smoke tests)."""
        if out is None:
            out = np.zeros(self.num_envs, dtype=np.int64)
        self._core.sample(out, seed & (2**64 - 1))
        return out

    def observe(self, i: int, seat: int) -> np.ndarray:
        """Seat ``seat``'s observation in env ``i`` (a new array)."""
        out = np.zeros(self.obs_size, dtype=np.float32)
        self._core.observe(i, seat, out)
        return out

    def state_info(self, i: int) -> dict[str, Any]:
        """Env ``i``'s whole state (every hand: for tests and debugging, not for agents)."""
        info: dict[str, Any] = self._core.info(i)
        return info


# --------------------------------------------------------------------------------------------
# Gymnasium


def _obs_space(core: BatchCore, batch: int | None) -> Any:
    shape_o = (core.obs_size,) if batch is None else (batch, core.obs_size)
    shape_m = (core.num_actions,) if batch is None else (batch, core.num_actions)
    return spaces.Dict(
        {
            "observation": spaces.Box(low=-np.inf, high=np.inf, shape=shape_o, dtype=np.float32),
            "action_mask": spaces.Box(low=0, high=1, shape=shape_m, dtype=np.int8),
        }
    )


class BatchVectorEnv(gymnasium.vector.VectorEnv):  # type: ignore[misc, unused-ignore]
    """:class:`BatchCore` as a Gymnasium ``VectorEnv`` (self-play).

    Observations are ``{"observation": (n, size) float32, "action_mask": (n, actions) int8}``
    of each env's seat to act; an action is taken for that seat.  The reward of a step is the
    acting seat's share of a deal that ended with it (the deal's score: a Meitora team's score
    to both partners); ``info["seat_rewards"]`` has every seat's, ``info["actor"]`` the seats
    that acted and ``info["to_act"]`` the seats whose observations are returned.  Same-step
    autoreset: an env whose deal ended returns its next deal's first observation at once (a
    finished deal leaves no decision, so no final observation is kept).  With ``copy=False``
    the arrays returned are the core's own, overwritten by the next step (the fastest)."""

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP}

    def __init__(
        self, game: str, num_envs: int, options: Mapping[str, Any] | None = None, *, copy: bool = True, **kwargs: Any
    ) -> None:
        self.core = BatchCore(game, num_envs, options, **kwargs)
        self.num_envs = num_envs
        self.copy = copy
        self.single_observation_space = _obs_space(self.core, None)
        self.single_action_space = spaces.Discrete(self.core.num_actions)
        self.observation_space = _obs_space(self.core, num_envs)
        self.action_space = spaces.MultiDiscrete(np.full(num_envs, self.core.num_actions))
        self.version = self.core.version

    def _obs(self) -> dict[str, np.ndarray]:
        core = self.core
        if self.copy:
            return {"observation": core.obs.copy(), "action_mask": core.mask.copy()}
        return {"observation": core.obs, "action_mask": core.mask}

    def reset(
        self, *, seed: int | Sequence[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        self.core.reset(seed)
        return self._obs(), {"to_act": self.core.to_act.astype(np.int64)}

    def step(self, actions: Any) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        core = self.core
        actor = core.to_act.astype(np.int64)
        core.step(actions)
        seat_rewards = core.rewards.copy()
        rewards = seat_rewards[np.arange(self.num_envs), actor]
        terminated = core.done.copy()
        truncated = np.zeros(self.num_envs, dtype=np.bool_)
        info = {"seat_rewards": seat_rewards, "actor": actor, "to_act": core.to_act.astype(np.int64)}
        return self._obs(), rewards, terminated, truncated, info


class BatchEnv(gymnasium.Env):  # type: ignore[misc, unused-ignore]
    """One batched deal as a Gymnasium ``Env`` (self-play: the observation and the action are
    the seat to act's; the reward is the acting seat's, every seat's in ``info["seat_rewards"]``).
    An episode is one deal; reset after it ends.  An illegal action raises, or with
    ``illegal_reward`` ends the episode with that reward (as
    :class:`~kirifuda.env.single.SingleAgentEnv` does)."""

    metadata = {"render_modes": []}

    def __init__(
        self, game: str, options: Mapping[str, Any] | None = None, *, illegal_reward: float | None = None, **kwargs: Any
    ) -> None:
        self.core = BatchCore(game, 1, options, autoreset=False, **kwargs)
        self.illegal_reward = illegal_reward
        self.observation_space = _obs_space(self.core, None)
        self.action_space = spaces.Discrete(self.core.num_actions)
        self.version = self.core.version
        self._over = True

    def _obs(self) -> dict[str, np.ndarray]:
        return {"observation": self.core.obs[0].copy(), "action_mask": self.core.mask[0].copy()}

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        super().reset(seed=seed)
        self.core.reset(seed)
        self._over = False
        return self._obs(), {"to_act": int(self.core.to_act[0])}

    def step(self, action: Any) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        if self._over:
            raise IllegalActionError(None, f"action {action!r}", "the episode is over: reset() first")
        if isinstance(action, np.ndarray) and action.shape not in ((), (1,)):
            raise ValueError(f"action: one integer, got an array of shape {action.shape}")
        actor = int(self.core.to_act[0])
        try:
            self.core.step(np.array([action]).reshape(1))
        except IllegalActionError as exc:
            if self.illegal_reward is None:
                raise
            self._over = True
            info = {"illegal": str(exc), "actor": actor, "to_act": actor}
            return self._obs(), float(self.illegal_reward), True, False, info
        done = bool(self.core.done[0])
        self._over = done
        seat_rewards = self.core.rewards[0].copy()
        info = {"seat_rewards": seat_rewards, "actor": actor, "to_act": int(self.core.to_act[0])}
        return self._obs(), float(seat_rewards[actor]), done, False, info


def batch_vector_env(
    game: str, num_envs: int, options: Mapping[str, Any] | None = None, **kwargs: Any
) -> BatchVectorEnv:
    """``num_envs`` deals of ``game`` in the game's C core as a Gymnasium ``VectorEnv``
    (``kwargs``: ``first``, ``recall``, ``scaled``, ``claims``, ``copy``)."""
    return BatchVectorEnv(game, num_envs, options, **kwargs)


def batch_env(game: str, options: Mapping[str, Any] | None = None, **kwargs: Any) -> BatchEnv:
    """One deal of ``game`` in the game's C core as a Gymnasium ``Env`` (self-play)."""
    return BatchEnv(game, options, **kwargs)


# --------------------------------------------------------------------------------------------
# PettingZoo


class BatchParallelEnv(ParallelEnv):  # type: ignore[misc, unused-ignore]
    """One deal of the game's C core as a PettingZoo ``ParallelEnv``: agents ``player_0 …``;
    every live agent may send an action each step and the seat to act's is taken (it must
    send one); each agent observes its own seat (``{"observation", "action_mask"}``, the mask
    all 0 but for the seat to act).  Rewards per seat when the deal ends; then every agent is
    terminated.  An illegal action is refused (:class:`IllegalActionError`, nothing changes);
    with ``illegal_reward`` set it ends the episode instead, that reward to the seat that sent
    it and 0 to the others (PettingZoo's ``TerminateIllegalWrapper``, as the AEC env's
    ``illegal_reward``), so unmasked agents and PettingZoo's ``parallel_seed_test`` may play."""

    metadata = {"render_modes": [], "name": "kirifuda_batch_v1", "is_parallelizable": True}

    def __init__(
        self,
        game: str,
        options: Mapping[str, Any] | None = None,
        *,
        illegal_reward: float | None = None,
        **kwargs: Any,
    ) -> None:
        if illegal_reward is not None and (
            isinstance(illegal_reward, bool)
            or not isinstance(illegal_reward, (int, float))
            or not np.isfinite(illegal_reward)
        ):
            raise ValueError(f"illegal_reward must be a finite number or None, got {illegal_reward!r}")
        self.illegal_reward = None if illegal_reward is None else float(illegal_reward)
        self.core = BatchCore(game, 1, options, autoreset=False, **kwargs)
        self.metadata = dict(self.metadata, name=f"kirifuda_{self.core.game_id}_batch_v1")
        self.possible_agents = [f"player_{i}" for i in range(self.core.num_players)]
        self.agents: list[str] = []
        self._space = _obs_space(self.core, None)
        self._act = spaces.Discrete(self.core.num_actions)
        self._zero_mask = np.zeros(self.core.num_actions, dtype=np.int8)

    def observation_space(self, agent: str) -> Any:
        return self._space

    def action_space(self, agent: str) -> Any:
        return self._act

    def _observations(self) -> dict[str, dict[str, np.ndarray]]:
        core = self.core
        to_act = int(core.to_act[0])
        out = {}
        for seat, agent in enumerate(self.possible_agents):
            mask = core.mask[0].copy() if seat == to_act else self._zero_mask.copy()
            out[agent] = {"observation": core.observe(0, seat), "action_mask": mask}
        return out

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        self.core.reset(seed)
        self.agents = self.possible_agents[:]
        return self._observations(), {a: {} for a in self.agents}

    def step(
        self, actions: Mapping[str, Any]
    ) -> tuple[dict[str, Any], dict[str, float], dict[str, bool], dict[str, bool], dict[str, Any]]:
        if not self.agents:
            raise IllegalActionError(None, "step", "the episode is over: reset() first")
        agent = self.possible_agents[int(self.core.to_act[0])]
        if agent not in actions or actions[agent] is None:
            raise ValueError(f"{agent} is to act: its action is missing from {sorted(actions)}")
        action = actions[agent]
        if self.illegal_reward is not None and not self._legal(action):
            # the deal ends there: the offender gets the penalty, nobody else anything
            rewards = {a: (self.illegal_reward if a == agent else 0.0) for a in self.possible_agents}
            ended = {a: True for a in self.agents}
            kept = {a: False for a in self.agents}
            infos: dict[str, Any] = {a: {"illegal": a == agent} for a in self.agents}
            obs = self._observations()
            self.agents = []
            return obs, rewards, ended, kept, infos
        self.core.step(np.array([action]).reshape(1))
        done = bool(self.core.done[0])
        obs = self._observations()
        rewards = {a: float(self.core.rewards[0][i]) for i, a in enumerate(self.possible_agents)}
        terminations = {a: done for a in self.agents}
        truncations = {a: False for a in self.agents}
        infos = {a: {} for a in self.agents}
        if done:
            self.agents = []
        return obs, rewards, terminations, truncations, infos

    def _legal(self, action: Any) -> bool:
        try:
            a = int(action)
        except (TypeError, ValueError):
            return False
        return a == action and 0 <= a < self.core.num_actions and bool(self.core.mask[0][a])


def batch_parallel_env(game: str, options: Mapping[str, Any] | None = None, **kwargs: Any) -> BatchParallelEnv:
    """One deal of ``game`` in the game's C core as a PettingZoo ``ParallelEnv``
    (``kwargs``: :class:`BatchParallelEnv`'s ``illegal_reward`` and the core's env options)."""
    return BatchParallelEnv(game, options, **kwargs)


# --------------------------------------------------------------------------------------------
# The Python envs, stepped in turn


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
