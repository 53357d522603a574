"""PettingZoo AEC environments for every registered game (``pip install 'kirifuda[pettingzoo]'``).

>>> env = kirifuda_env("meitora", options={"joker_lead": "trump"})
>>> env.reset(seed=1)
>>> obs, reward, terminated, truncated, info = env.last()
>>> obs["action_mask"].dtype.name, obs["observation"].shape == env.observation_space(env.agent_selection)["observation"].shape
('int8', True)

Agents are ``player_0 … player_{n-1}`` (seat numbers); the agent to act is the engine's seat to
act.  Actions are the game's fixed integers (:class:`kirifuda.env.core.ActionCatalog`); the
observation is ``{"observation": float32 vector, "action_mask": int8 vector}``.  An illegal
action raises :class:`~kirifuda.errors.IllegalActionError` and changes nothing
(``env(game, illegal_reward=-1)`` ends the episode with that penalty instead, PettingZoo's
``TerminateIllegalWrapper``).  Rewards are
the deal's score per seat (a team's score to both partners), given when the deal ends; with
``match=True`` the episode is the whole match.  ``infos[agent]`` carries the seat's legal
``action_mask`` too and, at the end, the ``totals``.

For learning (:class:`kirifuda.env.core.GameEnv`): ``recall="cards"`` or ``"full"`` adds the
seat's memory of the deal to the observation (``"full"``: perfect recall), ``scaled=True``
scales its numbers to small ranges, ``claims="off"`` leaves Meitora's claim out of the mask
and ``claims="auto"`` claims for a seat whenever its claim holds.
"""

from __future__ import annotations

from typing import Any, Mapping

import numpy as np

try:
    from gymnasium import spaces  # type: ignore[import-untyped, import-not-found, unused-ignore]
    from pettingzoo import AECEnv  # type: ignore[import-untyped, import-not-found, unused-ignore]
    from pettingzoo.utils import wrappers  # type: ignore[import-untyped, import-not-found, unused-ignore]
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise ImportError("kirifuda.env.pettingzoo needs PettingZoo: pip install 'kirifuda[pettingzoo]'") from exc

from .bots import BotAgent
from .core import GameEnv

__all__ = ["KirifudaAEC", "BotPolicy", "kirifuda_env", "raw_env", "env"]


class KirifudaAEC(AECEnv):  # type: ignore[misc, unused-ignore]
    """One game of kirifuda as a PettingZoo AEC environment."""

    metadata = {"render_modes": ["human", "ansi"], "name": "kirifuda_v1", "is_parallelizable": False}

    def __init__(
        self,
        game: str = "meitora",
        options: Mapping[str, Any] | None = None,
        *,
        match: bool = False,
        first: int | str = 0,
        recall: str | None = None,
        scaled: bool = False,
        claims: str = "keep",
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        self.core = GameEnv(game, options, match=match, first=first, recall=recall, scaled=scaled, claims=claims)
        self.metadata = dict(self.metadata, name=f"kirifuda_{self.core.game_id}_v1")
        self.render_mode = render_mode
        n = self.core.num_players
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self.agents: list[str] = []
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        N = self.core.catalog.size
        size = self.core.obs_size
        self._obs_space = spaces.Dict(
            {
                "observation": spaces.Box(low=-np.inf, high=np.inf, shape=(size,), dtype=np.float32),
                "action_mask": spaces.Box(low=0, high=1, shape=(N,), dtype=np.int8),
            }
        )
        self._act_space = spaces.Discrete(N)
        self.version = self.core.version

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._obs_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._act_space

    def view(self, agent: str) -> Any:
        """The engine's view of ``agent``'s seat: all that seat may know (for agents that read
        the table rather than the vector, such as :class:`BotPolicy`)."""
        return self.core.view(self._seat[agent])

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self._seat[agent]
        core = self.core
        obs = core.observe(seat)
        if core.to_act == seat:
            mask = core.legal_mask()
        else:
            mask = np.zeros(core.catalog.size, dtype=np.int8)
        return {"observation": obs, "action_mask": mask}

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.core.reset(seed)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._select()

    def _select(self) -> None:
        seat = self.core.to_act
        if seat is not None:
            self.agent_selection = self.possible_agents[seat]
            self.infos[self.agent_selection] = {"action_mask": self.core.legal_mask()}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert action is not None, "a live agent's action is an integer"
        self._cumulative_rewards[agent] = 0.0
        rewards = self.core.step(int(action))
        self.rewards = {a: 0.0 for a in self.agents}
        if rewards is not None:
            for a in self.agents:
                self.rewards[a] = rewards[self._seat[a]]
        if self.core.done:
            totals = list(self.core.state.view(None).totals)
            for a in self.agents:
                self.terminations[a] = True
                self.infos[a] = {"totals": totals}
        else:
            self.infos[agent] = {}
            self._select()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        from ..ui.render import view_lines

        text = "\n".join(view_lines(self.core.state.view(None)))
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


def raw_env(game: str = "meitora", options: Mapping[str, Any] | None = None, **kwargs: Any) -> KirifudaAEC:
    return KirifudaAEC(game, options, **kwargs)


def env(
    game: str = "meitora",
    options: Mapping[str, Any] | None = None,
    *,
    illegal_reward: float | None = None,
    **kwargs: Any,
) -> Any:
    """The environment wrapped as PettingZoo's classic games are (order enforcing, asserts).
    With ``illegal_reward`` set, an illegal action ends the episode with that reward to the
    offender (PettingZoo's ``TerminateIllegalWrapper``) instead of raising."""
    e = raw_env(game, options, **kwargs)
    if illegal_reward is not None:
        e = wrappers.TerminateIllegalWrapper(e, illegal_reward=illegal_reward)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    return wrappers.OrderEnforcingWrapper(e)


def kirifuda_env(game: str, options: Mapping[str, Any] | None = None, **kwargs: Any) -> KirifudaAEC:
    """The raw AEC environment of ``game`` (an id of :data:`kirifuda.games.GAMES`)."""
    return KirifudaAEC(game, options, **kwargs)


class BotPolicy:
    """A kirifuda bot (``random``, ``heuristic``, ``search:easy``, ``search``, ``search:strong``)
    as the policy of one agent of a kirifuda PettingZoo env: ``policy(observation, agent)``
    returns its action.  It follows the table from its seat's views only (after every step, as
    a player remembers the cards that fell; a reset starts it afresh).

    >>> e = kirifuda_env("meitora"); e.reset(seed=2)
    >>> policies = {a: BotPolicy(e, a, "heuristic", seed=i) for i, a in enumerate(e.possible_agents)}
    >>> for agent in e.agent_iter():
    ...     obs, reward, terminated, truncated, info = e.last()
    ...     e.step(None if terminated or truncated else policies[agent](obs, agent))
    >>> e.core.done, e.agents
    (True, [])
    """

    def __init__(self, env: Any, agent: str, kind: str = "heuristic", seed: int | None = 0) -> None:
        raw = env.unwrapped
        if not isinstance(raw, KirifudaAEC):
            raise TypeError(f"BotPolicy plays a kirifuda env, not {type(raw).__name__}")
        self.core = raw.core
        self.agent = agent
        self.seat = raw._seat[agent]
        self.bot = BotAgent(self.core.game_id, kind, seed, masked_out=self.core.masked_out)
        self.core.listeners.append(self._follow)
        if not self.core.done:
            self.bot.observe(self.core.view(self.seat))

    def _follow(self, event: str) -> None:
        if event == "reset":
            self.bot.restart()
        if not self.core.done:
            self.bot.observe(self.core.view(self.seat))

    def __call__(self, observation: Any = None, agent: str | None = None) -> int:
        if agent is not None and agent != self.agent:
            raise ValueError(f"this policy plays {self.agent}, not {agent}")
        core = self.core
        if core.to_act != self.seat:
            raise ValueError(f"{self.agent} is not to act")
        return self.bot.act(core.view(self.seat), core.pending(self.seat))

    def close(self) -> None:
        """Stop following the env."""
        if self._follow in self.core.listeners:
            self.core.listeners.remove(self._follow)
