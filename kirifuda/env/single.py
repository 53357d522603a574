"""One seat against kirifuda's bots, as a single-agent Gymnasium environment (一人用の環境).

``pip install 'kirifuda[pettingzoo]'`` (Gymnasium comes with it).  The agent plays ``seat``;
every other seat is a kirifuda bot of a chosen level (:mod:`kirifuda.env.bots`), following the
table from its own views.  Observations are the agent's seat's, as in the PettingZoo env:
``{"observation": float32 vector, "action_mask": int8 vector}`` (the mask also in ``info``).
The reward of a step is the agent's share of every deal that ended during it (its team's score
in Meitora and Kakeya).  With ``phases`` (e.g. ``("play",)``: card play only) the agent decides
in those phases only; its seat's other decisions (bidding, discards) are made by the bot
``delegate`` (``heuristic`` by default), as :class:`~kirifuda.env.policy.PolicyBot` does for a
policy trained so.

>>> env = SingleAgentEnv("meitora", opponents="heuristic", claims="auto")
>>> obs, info = env.reset(seed=3)
>>> obs["observation"].shape == env.observation_space["observation"].shape
True
>>> done = False
>>> while not done:
...     obs, reward, done, truncated, info = env.step(int(obs["action_mask"].nonzero()[0][0]))
>>> isinstance(reward, float)
True

An illegal action raises :class:`~kirifuda.errors.IllegalActionError` and changes nothing, or
with ``illegal_reward`` set ends the episode with that reward (Gymnasium's checker steps with
random actions).
"""

from __future__ import annotations

import random
from typing import Any, Mapping

import numpy as np

try:
    import gymnasium  # type: ignore[import-untyped, import-not-found, unused-ignore]
    from gymnasium import spaces  # type: ignore[import-untyped, import-not-found, unused-ignore]
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise ImportError("kirifuda.env.single needs Gymnasium: pip install 'kirifuda[pettingzoo]'") from exc

from ..errors import IllegalActionError, OptionError
from .bots import BotAgent
from .core import GameEnv

__all__ = ["SingleAgentEnv"]


class SingleAgentEnv(gymnasium.Env):  # type: ignore[misc, unused-ignore]
    """``game`` played by the agent at ``seat`` against bots: ``opponents`` is a bot level for
    every other seat, or a mapping seat → level.  ``options``, ``match``, ``first``, ``recall``,
    ``scaled`` and ``claims`` are :class:`~kirifuda.env.core.GameEnv`'s.  ``phases``: the phases
    the agent decides in (all by default), the seat's other decisions are ``delegate``'s."""

    metadata = {"render_modes": ["ansi"]}

    def __init__(
        self,
        game: str,
        options: Mapping[str, Any] | None = None,
        *,
        seat: int = 0,
        opponents: str | Mapping[int, str] = "heuristic",
        match: bool = False,
        first: int | str = 0,
        recall: str | None = None,
        scaled: bool = False,
        claims: str = "keep",
        phases: tuple[str, ...] | None = None,
        delegate: str = "heuristic",
        illegal_reward: float | None = None,
        render_mode: str | None = None,
    ) -> None:
        self.core = GameEnv(game, options, match=match, first=first, recall=recall, scaled=scaled, claims=claims)
        n = self.core.num_players
        if not (isinstance(seat, int) and 0 <= seat < n):
            raise OptionError(f"seat={seat!r}: a {game} table has seats 0..{n - 1}")
        levels = {s: opponents for s in range(n) if s != seat} if isinstance(opponents, str) else dict(opponents)
        if set(levels) != set(range(n)) - {seat}:
            raise OptionError(
                f"opponents must name a bot level for each seat but {seat} "
                f"(seats {sorted(set(range(n)) - {seat})}), got {sorted(levels)}"
            )
        self.seat = seat
        self.bots = {
            s: BotAgent(self.core.game_id, kind, seed=s, masked_out=self.core.masked_out) for s, kind in levels.items()
        }
        phase_names = {p.value for p in type(self.core.info.new_state(self.core.options).phase)}
        if phases is not None and (not phases or not set(phases) <= phase_names):
            raise OptionError(f"phases={phases!r}: a {game} deal's phases are {sorted(phase_names)}")
        self.phases = None if phases is None else frozenset(phases)
        if self.phases is not None:
            self.bots[seat] = BotAgent(self.core.game_id, delegate, seed=seat, masked_out=self.core.masked_out)
        self.illegal_reward = illegal_reward
        self.render_mode = render_mode
        N = self.core.catalog.size
        self.observation_space = spaces.Dict(
            {
                "observation": spaces.Box(low=-np.inf, high=np.inf, shape=(self.core.obs_size,), dtype=np.float32),
                "action_mask": spaces.Box(low=0, high=1, shape=(N,), dtype=np.int8),
            }
        )
        self.action_space = spaces.Discrete(N)
        self._seeds = random.Random()
        self.core.listeners.append(self._follow)

    def _follow(self, event: str) -> None:
        core = self.core
        if core.done:
            return
        for s, bot in self.bots.items():
            bot.observe(core.view(s))

    def _agents_turn(self) -> bool:
        """Whether the agent decides now: its seat is to act, in one of its phases."""
        core = self.core
        if core.done or core.to_act != self.seat:
            return False
        return self.phases is None or core.view(self.seat).phase in self.phases

    def _obs(self) -> dict[str, np.ndarray]:
        core = self.core
        mask = core.legal_mask() if self._agents_turn() else np.zeros(core.catalog.size, dtype=np.int8)
        return {"observation": core.observe(self.seat), "action_mask": mask}

    def _run_bots(self) -> float:
        """Let the bots act until the agent is to act or the episode ends; the agent's reward."""
        core = self.core
        reward = 0.0
        while not core.done and not self._agents_turn():
            s = core.to_act
            assert s is not None
            got = core.step(self.bots[s].act(core.view(s), core.pending(s)))
            if got is not None:
                reward += got[self.seat]
        return reward

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None:
            self._seeds = random.Random(seed)
        for bot in self.bots.values():
            bot.seed = self._seeds.randrange(1 << 31)
            bot.restart()
        self.core.reset(self._seeds.randrange(1 << 31))
        self._run_bots()
        if self.core.done:  # the deal ended before the agent's first turn: another one
            return self.reset(options=options)
        obs = self._obs()
        return obs, {"action_mask": obs["action_mask"]}

    def step(self, action: Any) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        core = self.core
        if core.done:
            raise IllegalActionError(self.seat, f"action {action!r}", "the episode is over: reset() first")
        try:
            got = core.step(int(action))
        except IllegalActionError:
            if self.illegal_reward is None:
                raise
            core.done = True
            obs = self._obs()
            return obs, float(self.illegal_reward), True, False, {"action_mask": obs["action_mask"], "illegal": True}
        reward = got[self.seat] if got is not None else 0.0
        reward += self._run_bots()
        obs = self._obs()
        info: dict[str, Any] = {"action_mask": obs["action_mask"]}
        if core.done:
            info["totals"] = list(core.state.view(None).totals)
        return obs, float(reward), core.done, False, info

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        from ..ui.render import view_lines

        return "\n".join(view_lines(self.core.view(self.seat)))
