"""The single-agent Gymnasium env against kirifuda's bots, the vector env and the parallel
wrapper: Gymnasium's and PettingZoo's own checks, and batched stepping equal to one by one."""

from __future__ import annotations

import random

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import parallel_api_test, parallel_seed_test  # noqa: E402

from kirifuda.env.single import SingleAgentEnv  # noqa: E402
from kirifuda.env.vector import parallel_env, vector_env  # noqa: E402
from kirifuda.errors import IllegalActionError, OptionError  # noqa: E402

from .helpers import CASES  # noqa: E402

GAMES = sorted({g for g, _ in CASES})
pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


@pytest.mark.parametrize("game", GAMES)
def test_gymnasium_checker_passes_the_single_agent_env(game):
    check_env(SingleAgentEnv(game, illegal_reward=-1.0), skip_render_check=True)
    check_env(
        SingleAgentEnv(game, seat=1, opponents="random", recall="cards", scaled=True, illegal_reward=-1.0),
        skip_render_check=True,
    )


@pytest.mark.parametrize("game", GAMES)
def test_the_agent_gets_its_share_of_each_deal(game):
    env = SingleAgentEnv(game, seat=1, opponents="heuristic")
    rng = random.Random(0)
    for seed in range(4):
        obs, info = env.reset(seed=seed)
        assert env.core.to_act == 1 and obs["action_mask"].any()
        total, done = 0.0, False
        while not done:
            legal = np.flatnonzero(obs["action_mask"])
            obs, reward, done, truncated, info = env.step(int(rng.choice(legal)))
            total += reward
            assert not truncated
        deal = env.core.state.summary()["deals"][-1]
        score = deal.get("score")
        if score is not None and len(score) == env.core.num_units:
            assert total == float(score[env.core.units[1]])


def test_the_single_agent_env_is_seeded_and_refuses_illegal_actions():
    a, b = SingleAgentEnv("napoleon", opponents="search:easy"), SingleAgentEnv("napoleon", opponents="search:easy")
    oa, _ = a.reset(seed=5)
    ob, _ = b.reset(seed=5)
    for _ in range(30):
        assert np.array_equal(oa["observation"], ob["observation"])
        if a.core.done:
            break
        act = int(np.flatnonzero(oa["action_mask"])[0])
        oa, ra, da, _, _ = a.step(act)
        ob, rb, db, _, _ = b.step(act)
        assert (ra, da) == (rb, db)
        if da:
            break
    env = SingleAgentEnv("meitora")
    obs, _ = env.reset(seed=1)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError):
        env.step(illegal)
    assert np.array_equal(env._obs()["observation"], obs["observation"])
    with pytest.raises(OptionError, match="opponents"):
        SingleAgentEnv("meitora", opponents={1: "heuristic"})
    with pytest.raises(OptionError, match="seat=7"):
        SingleAgentEnv("meitora", seat=7)


@pytest.mark.parametrize("game", GAMES)
def test_vector_env_steps_as_lone_envs_do(game):
    n, seed = 3, 11
    envs = vector_env(game, n, opponents="heuristic", claims="auto")
    lone = [SingleAgentEnv(game, opponents="heuristic", claims="auto") for _ in range(n)]
    obs, _ = envs.reset(seed=seed)
    lone_obs = [e.reset(seed=seed + i)[0] for i, e in enumerate(lone)]
    rng = random.Random(0)
    reset_next = [False] * n
    episodes = 0
    for _ in range(120):
        for i in range(n):
            assert np.array_equal(obs["observation"][i], lone_obs[i]["observation"])
            assert np.array_equal(obs["action_mask"][i], lone_obs[i]["action_mask"])
        actions = [int(rng.choice(np.flatnonzero(m))) if m.any() else 0 for m in obs["action_mask"]]
        obs, rewards, terminated, truncated, _ = envs.step(actions)
        for i, e in enumerate(lone):
            if reset_next[i]:  # Gymnasium's next-step autoreset: this step only resets
                lone_obs[i], _ = e.reset()
                assert rewards[i] == 0.0 and not terminated[i]
                reset_next[i] = False
                continue
            lone_obs[i], r, d, _, _ = e.step(actions[i])
            assert (rewards[i], terminated[i]) == (r, d)
            reset_next[i] = d
            episodes += d
    assert episodes > 0


@pytest.mark.parametrize("game", GAMES)
def test_parallel_wrapper_passes_pettingzoo_tests(game):
    parallel_api_test(parallel_env(game), num_cycles=200)
    # the seed test sends actions sampled without the mask: illegal ones end the episode
    parallel_seed_test(lambda: parallel_env(game, recall="cards", illegal_reward=-1.0))


@pytest.mark.parametrize("claims", ["off", "auto"])
def test_bots_never_take_an_action_the_env_leaves_out(claims):
    """With the claim left out of the env's actions, a bot seated at the env that would claim
    (the random bot often does) is asked again without it, instead of breaking the episode."""
    env = SingleAgentEnv("meitora", opponents="random", claims=claims)
    rng = random.Random(0)
    for seed in range(12):
        obs, _ = env.reset(seed=seed)
        done = False
        while not done:
            obs, _, done, _, _ = env.step(rng.choice(obs["action_mask"].nonzero()[0].tolist()))
