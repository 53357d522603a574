"""The batched C core of kirifuda.env.vector against the Python env (the engine is the truth).

The C core and ``kirifuda.env.core.GameEnv`` are dealt the same cards (the Python env draws its
deals from the same splitmix64 stream, written here independently of the C code) and take the
same random legal actions; at every step every seat's observation, the mask, the seat to act,
the rewards and the end of the deal must be equal.  Batched and one-by-one stepping give the same
trajectories; bad input is refused with a clear error and changes nothing; Gymnasium's env
checker and PettingZoo's parallel API test pass on the wrappers."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from kirifuda.env.core import GameEnv  # noqa: E402
from kirifuda.env.vector import (  # noqa: E402
    BatchCore,
    batch_env,
    batch_parallel_env,
    batch_vector_env,
    has_batch_core,
)
from kirifuda.errors import IllegalActionError, OptionError  # noqa: E402

from .batch_helpers import assert_same, random_actions, step_both  # noqa: E402
from kirifuda.games import GAMES  # noqa: E402

GAME = next(g for g in GAMES if has_batch_core(g)) if any(has_batch_core(g) for g in GAMES) else None
pytestmark = pytest.mark.skipif(GAME is None, reason="no batched C core was built")

MASK64 = 2**64 - 1


class SplitMix(random.Random):
    """The C core's random stream (splitmix64), as the bytes the engine deals from."""

    def __init__(self, seed: int) -> None:
        self.state = seed & MASK64
        super().__init__(0)

    def word(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def randbytes(self, n: int) -> bytes:
        assert n % 8 == 0
        return b"".join(self.word().to_bytes(8, "little") for _ in range(n // 8))


def python_env(options: dict[str, Any], seed: int, **env_opts: Any) -> GameEnv:
    assert GAME is not None
    env = GameEnv(GAME, options, **env_opts)
    env.rng = SplitMix(seed)
    env.reset()
    return env


def play_deal(options: dict[str, Any], seed: int, choice_seed: int, **env_opts: Any) -> int:
    """One deal side by side; returns its number of steps."""
    assert GAME is not None
    core = BatchCore(GAME, 1, options, autoreset=False, **env_opts)
    core.reset(seed=seed)
    env = python_env(options, seed, **env_opts)
    pick = random.Random(choice_seed)
    steps = 0
    assert_same(core, env)
    while not env.done:
        action = pick.choice(env.legal_ids())
        step_both(core, env, action)
        steps += 1
    return steps


OPTIONS = st.fixed_dictionaries(
    {},
    optional={
        "target": st.integers(1, 30),
        "claim_failure": st.sampled_from(["chombo", "refuse"]),
        "joker_lead": st.sampled_from(["request", "trump"]),
    },
)


@settings(max_examples=60, deadline=None)
@given(
    options=OPTIONS,
    seed=st.integers(0, MASK64),
    choice_seed=st.integers(0, 2**32),
    first=st.integers(0, 3),
    recall=st.sampled_from([None, "cards", "full"]),
    scaled=st.booleans(),
    claims=st.sampled_from(["keep", "off", "auto"]),
)
def test_the_c_core_plays_as_the_python_env(
    options: dict[str, Any], seed: int, choice_seed: int, first: int, recall: str | None, scaled: bool, claims: str
) -> None:
    play_deal(options, seed, choice_seed, first=first, recall=recall, scaled=scaled, claims=claims)


@pytest.mark.slow
def test_the_c_core_plays_as_the_python_env_over_many_deals() -> None:
    """Many deals of every option set: the rare ends (broken, four jacks after the agari, all
    pass, chombo, claims at every point) come up among them."""
    rng = random.Random(2026)
    played = 0
    for k in range(300):
        options = {"claim_failure": rng.choice(["chombo", "refuse"]), "joker_lead": rng.choice(["request", "trump"])}
        claims = ("keep", "off", "auto")[k % 3]
        played += play_deal(options, rng.getrandbits(64), k, claims=claims, recall=("full" if k % 5 == 0 else None))
    assert played > 300 * 10


def test_a_claim_is_checked_as_the_engine_checks_it() -> None:
    """Deals where the seat to act claims as soon as it may (claims in the mask, chombo): the
    claim's check (a game-tree search) decides the same in C as in the engine."""
    assert GAME is not None
    ends = set()
    for seed in range(60):
        core = BatchCore(GAME, 1, {}, autoreset=False)
        core.reset(seed=seed)
        env = python_env({}, seed)
        pick = random.Random(seed)
        while not env.done:
            ids = env.legal_ids()
            claim = env.catalog.family_start["claim"]
            holds = claim in ids and env.state._claim_is_valid(env.to_act)  # the engine's own check
            late = claim in ids and env.state.view(None).tricks_played >= pick.randrange(5, 12)
            action = claim if holds or late else pick.choice([i for i in ids if i != claim])
            rewards = env.step(action)
            core.step([action])
            assert_same(core, env)
            if rewards is not None:
                np.testing.assert_array_equal(core.rewards[0], np.array(rewards, dtype=np.float32))
                ends.add(tuple(rewards))
    assert len(ends) > 4  # chombos both ways and claims that hold, with their scores


def test_every_deal_is_dealt_as_the_engine_deals_it() -> None:
    """The seeds deal the engine's cards (four-jacks redeals included)."""
    assert GAME is not None
    core = BatchCore(GAME, 200, claims="off")
    core.reset(seed=99)
    redealt = 0
    for i in range(200):
        env = python_env({}, 99 + i, claims="off")
        info = core.state_info(i)
        assert info["deal_number"] == env.state.view(None).deal_number
        redealt += info["deal_number"] > 0
        np.testing.assert_array_equal(core.obs[i], env.observe(0))
    assert core.state_info(0)["hands"] != core.state_info(1)["hands"]


@pytest.mark.parametrize("claims", ["keep", "auto"])
def test_batched_and_one_by_one_stepping_give_the_same_trajectories(claims: str) -> None:
    assert GAME is not None
    n = 6
    batch = BatchCore(GAME, n, claims=claims, recall="cards")
    batch.reset(seed=500)
    lone = [BatchCore(GAME, 1, claims=claims, recall="cards") for _ in range(n)]
    for i, one in enumerate(lone):
        one.reset(seed=500 + i)
    rng = np.random.default_rng(1)
    ended = 0
    for _ in range(400):  # several deals each: the autoreset goes on with each env's stream
        actions = random_actions(batch, rng)
        batch.step(actions)
        for i, one in enumerate(lone):
            one.step(actions[i : i + 1])
            np.testing.assert_array_equal(batch.obs[i], one.obs[0])
            np.testing.assert_array_equal(batch.mask[i], one.mask[0])
            np.testing.assert_array_equal(batch.rewards[i], one.rewards[0])
            assert batch.done[i] == one.done[0] and batch.to_act[i] == one.to_act[0]
        ended += int(batch.done.sum())
    assert ended >= n


def test_autoreset_starts_the_next_deal_as_the_python_env_does() -> None:
    """After a deal ends, the env's next deal is the one the Python env deals next from its
    stream (reset without a seed)."""
    assert GAME is not None
    core = BatchCore(GAME, 1, claims="off")
    core.reset(seed=7)
    env = python_env({}, 7, claims="off")
    pick = random.Random(3)
    deals = 0
    while deals < 5:
        action = pick.choice(env.legal_ids())
        env.step(action)
        core.step([action])
        if env.done:
            deals += 1
            assert core.done[0]
            env.reset()
        np.testing.assert_array_equal(core.obs[0], env.observe(env.to_act))
        np.testing.assert_array_equal(core.mask[0], env.legal_mask())


# -- bad input ------------------------------------------------------------------------------


def test_bad_actions_are_refused_and_change_nothing() -> None:
    assert GAME is not None
    core = BatchCore(GAME, 3, claims="off")
    core.reset(seed=1)
    before = (core.obs.copy(), core.mask.copy(), core.to_act.copy(), core.state_info(0))
    legal = [int(np.flatnonzero(m)[0]) for m in core.mask]
    with pytest.raises(ValueError, match=r"expected shape \(3,\)"):
        core.step(legal[:2])
    with pytest.raises(ValueError, match="expected shape"):
        core.step([legal])
    with pytest.raises(ValueError, match="integers"):
        core.step(["pass", "pass", "pass"])
    illegal = np.flatnonzero(core.mask[1] == 0)[0]
    with pytest.raises(IllegalActionError, match=r"env 1: not in its action mask") as err:
        core.step([legal[0], illegal, legal[2]])
    assert "seat 0" in str(err.value)
    with pytest.raises(IllegalActionError, match=r"env 2: an action is an integer 0\.\.138"):
        core.step([legal[0], legal[1], 139])
    with pytest.raises(IllegalActionError, match="claims option"):
        core.step([legal[0], legal[1], 138])
    after = (core.obs, core.mask, core.to_act, core.state_info(0))
    for x, y in zip(before[:3], after[:3]):
        np.testing.assert_array_equal(x, y)
    assert before[3] == after[3]
    core.step(legal)  # still steps


def test_what_the_core_does_not_play_is_refused_by_name() -> None:
    assert GAME is not None
    with pytest.raises(OptionError, match="match=True"):
        BatchCore(GAME, 2, match=True)
    with pytest.raises(OptionError, match="first='random'"):
        BatchCore(GAME, 2, first="random")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="num_envs"):
        BatchCore(GAME, 0)
    other = next((g for g in GAMES if not has_batch_core(g)), None)
    if other is not None:
        with pytest.raises(OptionError, match="no batched C core"):
            BatchCore(other, 2)


# -- the wrappers ---------------------------------------------------------------------------


def test_gymnasium_env_checker_passes() -> None:
    from gymnasium.utils.env_checker import check_env

    assert GAME is not None
    check_env(batch_env(GAME, claims="auto", illegal_reward=-1.0), skip_render_check=True)
    check_env(batch_env(GAME, recall="full", scaled=True, illegal_reward=-1.0), skip_render_check=True)
    env = batch_env(GAME, claims="auto")
    obs, info = env.reset(seed=3)
    assert env.observation_space.contains(obs)
    done = False
    total = 0.0
    while not done:
        obs, reward, done, truncated, info = env.step(int(np.flatnonzero(obs["action_mask"])[0]))
        total += reward
    with pytest.raises(IllegalActionError, match="reset"):
        env.step(0)


def test_the_vector_env_steps_arrays() -> None:
    assert GAME is not None
    envs = batch_vector_env(GAME, 5, claims="auto", scaled=True)
    obs, info = envs.reset(seed=11)
    assert envs.observation_space.contains(obs)
    assert obs["observation"].shape == (5, envs.core.obs_size) and obs["action_mask"].shape == (5, 139)
    rng = np.random.default_rng(0)
    total = np.zeros(4)
    for _ in range(300):
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in obs["action_mask"]])
        obs, rewards, terminated, truncated, info = envs.step(actions)
        assert rewards.shape == (5,) and terminated.dtype == np.bool_ and not truncated.any()
        np.testing.assert_array_equal(rewards, info["seat_rewards"][np.arange(5), info["actor"]])
        total += info["seat_rewards"].sum(0)
    assert total.any()


def test_pettingzoo_parallel_api_test_passes() -> None:
    from pettingzoo.test import parallel_api_test

    assert GAME is not None
    parallel_api_test(batch_parallel_env(GAME, claims="off"), num_cycles=200)
    env = batch_parallel_env(GAME, recall="cards")
    obs, infos = env.reset(seed=4)
    agent = next(a for a in env.agents if obs[a]["action_mask"].any())
    with pytest.raises(ValueError, match=f"{agent} is to act"):
        env.step({a: 0 for a in env.agents if a != agent})


def test_pettingzoo_parallel_seed_test_passes_with_an_illegal_reward() -> None:
    """PettingZoo's seed test sends unmasked random actions: an illegal one ends the deal with
    the penalty to its sender, and nothing else (without ``illegal_reward`` it is refused)."""
    from pettingzoo.test import parallel_seed_test

    assert GAME is not None
    parallel_seed_test(lambda: batch_parallel_env(GAME, recall="cards", illegal_reward=-1.0))
    env = batch_parallel_env(GAME, illegal_reward=-2)
    obs, _ = env.reset(seed=3)
    agent = next(a for a in env.agents if obs[a]["action_mask"].any())
    bad = int(np.flatnonzero(obs[agent]["action_mask"] == 0)[0])
    obs, rewards, ended, kept, infos = env.step({agent: bad})
    assert rewards == {a: (-2.0 if a == agent else 0.0) for a in env.possible_agents}
    assert all(ended.values()) and not any(kept.values()) and infos[agent] == {"illegal": True}
    assert env.agents == []
    strict = batch_parallel_env(GAME)
    obs, _ = strict.reset(seed=3)
    with pytest.raises(IllegalActionError):
        strict.step({agent: bad})
    for wrong in (float("nan"), "x", True):
        with pytest.raises(ValueError, match="illegal_reward"):
            batch_parallel_env(GAME, illegal_reward=wrong)
