"""PettingZoo's own API and seed tests on every game and a sample of options."""

from __future__ import annotations

import random

import pytest

pytest.importorskip("pettingzoo", reason="PettingZoo is not installed (pip install 'kirifuda[pettingzoo]')")

from pettingzoo.test import api_test, seed_test  # noqa: E402

from kirifuda.env.pettingzoo import env as wrapped_env, kirifuda_env  # noqa: E402
from kirifuda.errors import IllegalActionError  # noqa: E402

from .helpers import CASE_IDS, CASES  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


@pytest.mark.parametrize(("game", "options"), CASES, ids=CASE_IDS)
def test_api_and_seed(game, options):
    api_test(kirifuda_env(game, options), num_cycles=60)
    seed_test(lambda: kirifuda_env(game, options), num_cycles=60)


@pytest.mark.parametrize("game", sorted({g for g, _ in CASES}))
def test_match_mode_api_and_wrapped_env(game):
    api_test(kirifuda_env(game, match=True), num_cycles=80)
    api_test(wrapped_env(game), num_cycles=40)


def test_rewards_are_the_deals_score_and_teammates_share_it():
    env = kirifuda_env("meitora")
    rng = random.Random(0)
    for seed in range(5):
        env.reset(seed=seed)
        got = {a: 0.0 for a in env.agents}
        for agent in env.agent_iter():
            obs, reward, term, trunc, info = env.last()
            got[agent] += reward
            if term or trunc:
                env.step(None)
                continue
            mask = obs["action_mask"]
            env.step(rng.choice([i for i, m in enumerate(mask) if m]))
        score = env.core.state.summary()["deals"][-1]["score"]
        assert [got[f"player_{s}"] for s in range(4)] == [float(score[s % 2]) for s in range(4)]


def test_illegal_action_raises():
    env = kirifuda_env("meitora")
    env.reset(seed=0)
    mask = env.observe(env.agent_selection)["action_mask"]
    illegal = next(i for i, m in enumerate(mask) if not m)
    with pytest.raises(IllegalActionError):
        env.step(illegal)
    assert (env.observe(env.agent_selection)["action_mask"] == mask).all()


def test_illegal_reward_option_terminates_instead():
    env = wrapped_env("meitora", illegal_reward=-1.0)
    env.reset(seed=0)
    agent = env.agent_selection
    mask = env.observe(agent)["action_mask"]
    env.step(next(i for i, m in enumerate(mask) if not m))
    assert all(env.terminations.values()) and env.rewards[agent] == -1.0


@pytest.mark.parametrize("game", sorted({g for g, _ in CASES}))
def test_api_and_seed_with_the_learning_options(game):
    kwargs = {"recall": "full", "scaled": True, "claims": "auto"}
    api_test(kirifuda_env(game, **kwargs), num_cycles=60)
    seed_test(lambda: kirifuda_env(game, recall="cards", claims="off"), num_cycles=60)
    api_test(wrapped_env(game, recall="cards", scaled=True), num_cycles=30)
