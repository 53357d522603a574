"""Kakeya's batched C core (kirifuda.games.kakeya_vector) against the Python env: the engine is
the truth.

The C core and ``kirifuda.env.core.GameEnv`` seeded alike deal the same cards (the core redoes
Python's ``random.Random``) and take the same random legal actions; at every step every seat's
observation, the mask, the seat to act, the rewards and the end of the game must be equal, for
every option of the Kakeya options table and the env options.  Batched and one-by-one stepping
give the same trajectories; bad input is refused with a clear error and changes nothing;
Gymnasium's env checker and PettingZoo's parallel API test pass on the wrappers."""

from __future__ import annotations

import dataclasses
import random
import types
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
from kirifuda.games import kakeya_vector  # noqa: E402
from kirifuda.games.kakeya import KakeyaOptions  # noqa: E402

from .batch_helpers import assert_same, step_both  # noqa: E402

GAME = "kakeya"
pytestmark = pytest.mark.skipif(not has_batch_core(GAME), reason="the Kakeya C core was not built")

MASK64 = 2**64 - 1


def python_env(options: dict[str, Any], seed: int, **env_opts: Any) -> GameEnv:
    env = GameEnv(GAME, options, **env_opts)
    env.reset(seed=seed)
    return env


def play_game(options: dict[str, Any], seed: int, choice_seed: int, **env_opts: Any) -> tuple[list[float], int]:
    """One episode side by side (a game, or with ``match=True`` a match); returns the rewards per
    seat of its last game and the number of games played."""
    core = BatchCore(GAME, 1, options, autoreset=False, **env_opts)
    core.reset(seed=seed)
    env = python_env(options, seed, **env_opts)
    pick = random.Random(choice_seed)
    assert_same(core, env)
    last: list[float] | None = None
    games = 0
    while not env.done:
        action = pick.choice(env.legal_ids())
        rewards = step_both(core, env, action)
        if rewards is not None:
            last = rewards
            games += 1
    assert last is not None
    return last, games


OPTIONS = st.one_of(
    st.fixed_dictionaries(
        {},
        optional={
            "players": st.sampled_from([4, 6]),
            "initial_trump": st.sampled_from(["D", "S", "H", "C"]),
            "games": st.integers(1, 5),
        },
    ),
    st.fixed_dictionaries(
        {"stop_at_zero": st.just(False), "games": st.integers(1, 5)},
        optional={"players": st.sampled_from([4, 6]), "initial_trump": st.sampled_from(["D", "S", "H", "C"])},
    ),
)


@settings(max_examples=8, deadline=None)
@given(
    options=OPTIONS,
    seed=st.integers(0, MASK64),
    choice_seed=st.integers(0, 2**32),
    first=st.integers(0, 3),
    recall=st.sampled_from([None, "cards", "full"]),
    scaled=st.booleans(),
    claims=st.sampled_from(["keep", "off", "auto"]),
    match=st.booleans(),
)
def test_the_c_core_plays_as_the_python_env(
    options: dict[str, Any],
    seed: int,
    choice_seed: int,
    first: int,
    recall: str | None,
    scaled: bool,
    claims: str,
    match: bool,
) -> None:
    if match:
        options = {**options, "games": min(options.get("games", 2), 2)}  # a short match
    play_game(options, seed, choice_seed, first=first, recall=recall, scaled=scaled, claims=claims, match=match)


@pytest.mark.slow
def test_whole_matches_play_as_the_python_env() -> None:
    """``match=True``: the games of a match follow each other as the engine has them (the loser's
    pair deals, the winner's leads, the trump carries over, with six players the loser's pair sits
    out; the previous game's last trick stays on the table until the first card), up to the end
    at no chips or at the ``games`` cap; every step's memory of the game as the env keeps it."""
    lengths = []
    for k in range(30):
        options: dict[str, Any] = {"players": (4, 6)[k % 2], "initial_trump": "DSHC"[k % 4]}
        if k % 3 == 1:
            options.update(stop_at_zero=False, games=4)
        _, games = play_game(options, 31 * k + 1, k, match=True, recall=("full", "cards")[k % 2], scaled=k % 4 == 0)
        lengths.append(games)
        if k % 3 == 1:
            assert games == 4
    assert max(lengths) > 4  # matches that end at no chips, after several games


@pytest.mark.slow
def test_the_c_core_plays_as_the_python_env_over_many_games() -> None:
    """Many games of every option set: every column of the chip table and the 8 – 8 rule come
    up among them, and every game ends as the engine ends it."""
    rng = random.Random(2026)
    paid = set()
    for k in range(240):
        options: dict[str, Any] = {"players": (4, 6)[k % 2], "initial_trump": "DSHC"[k % 4]}
        if k % 5 == 0:
            options.update(stop_at_zero=False, games=2)
        rewards, games = play_game(options, rng.getrandbits(64), k, recall=("full" if k % 3 == 0 else None))
        assert games == 1
        paid.add(max(rewards))
    assert paid == {1.0, 2.0, 4.0}


def test_rewards_are_the_chips_each_pair_pays() -> None:
    """The loser's pair pays the winner's, both partners alike; a pair sitting out gets 0."""
    seen = set()
    for players in (4, 6):
        core = BatchCore(GAME, 64, {"players": players})
        core.reset(seed=5)
        ended = 0
        for k in range(60 * 13):
            core.step(core.sample(k))
            for i in np.flatnonzero(core.done):
                r = core.rewards[i]
                half = players // 2
                for s in range(players):
                    assert r[s] == r[s % half]
                assert r.sum() == 0 and r.max() in (1, 2, 4)
                if players == 6:
                    assert sorted(r[:3].tolist()).count(0.0) == 1  # the pair sitting out
                seen.add(float(r.max()))
                ended += 1
        assert ended >= 64 * 10
    assert {1.0, 2.0} <= seen


@pytest.mark.parametrize("players", [4, 6])
def test_every_game_is_dealt_as_the_engine_deals_it(players: int) -> None:
    """A batch seeded with ``s`` deals env ``i`` what ``GameEnv.reset(seed=s + i)`` deals (seeds
    of one and of two 32-bit words)."""
    for base in (99, 2**40 + 3):
        core = BatchCore(GAME, 50, {"players": players})
        core.reset(seed=base)
        for i in range(50):
            env = python_env({"players": players}, base + i)
            hands = core.state_info(i)["hands"]
            assert list(hands) == [env.state._hands[s] for s in range(players)]  # type: ignore[attr-defined]
            np.testing.assert_array_equal(core.obs[i], env.observe(env.to_act))
        assert core.state_info(0)["hands"] != core.state_info(1)["hands"]


def test_autoreset_starts_the_next_game_as_the_python_env_does() -> None:
    """After a game ends, the env's next game is the one the Python env deals next from its
    stream (reset without a seed)."""
    for options in ({}, {"players": 6, "initial_trump": "S"}):
        core = BatchCore(GAME, 1, options)
        core.reset(seed=7)
        env = python_env(options, 7)
        pick = random.Random(3)
        games = 0
        while games < 4:
            action = pick.choice(env.legal_ids())
            env.step(action)
            core.step([action])
            if env.done:
                games += 1
                assert core.done[0]
                env.reset()
            np.testing.assert_array_equal(core.obs[0], env.observe(env.to_act))
            np.testing.assert_array_equal(core.mask[0], env.legal_mask())


def test_batched_and_one_by_one_stepping_give_the_same_trajectories() -> None:
    n = 5
    batch = BatchCore(GAME, n, {"players": 6}, recall="cards")
    batch.reset(seed=500)
    lone = [BatchCore(GAME, 1, {"players": 6}, recall="cards") for _ in range(n)]
    for i, one in enumerate(lone):
        one.reset(seed=500 + i)
    rng = np.random.default_rng(1)
    ended = 0
    for _ in range(200):  # several games each: the autoreset goes on with each env's stream
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in batch.mask])
        batch.step(actions)
        for i, one in enumerate(lone):
            one.step(actions[i : i + 1])
            np.testing.assert_array_equal(batch.obs[i], one.obs[0])
            np.testing.assert_array_equal(batch.mask[i], one.mask[0])
            np.testing.assert_array_equal(batch.rewards[i], one.rewards[0])
            assert batch.done[i] == one.done[0] and batch.to_act[i] == one.to_act[0]
        ended += int(batch.done.sum())
    assert ended >= n


# -- bad input ------------------------------------------------------------------------------


def test_bad_actions_are_refused_and_change_nothing() -> None:
    core = BatchCore(GAME, 3)
    core.reset(seed=1)
    before = (core.obs.copy(), core.mask.copy(), core.to_act.copy(), core.state_info(0))
    legal = [int(np.flatnonzero(m)[0]) for m in core.mask]
    assert legal == [53, 53, 53]  # the trump decision comes first
    with pytest.raises(ValueError, match=r"expected shape \(3,\)"):
        core.step(legal[:2])
    with pytest.raises(ValueError, match="integers"):
        core.step(["keep", "keep", "keep"])
    with pytest.raises(IllegalActionError, match=r"env 1: not in its action mask") as err:
        core.step([53, 0, 53])  # a card before the trump is decided
    assert "seat 1" in str(err.value)
    with pytest.raises(IllegalActionError, match=r"env 2: an action is an integer 0\.\.63"):
        core.step([53, 53, 64])
    after = (core.obs, core.mask, core.to_act, core.state_info(0))
    for x, y in zip(before[:3], after[:3]):
        np.testing.assert_array_equal(x, y)
    assert before[3] == after[3]
    core.step(legal)  # still steps
    assert core.to_act.tolist() == [0, 0, 0]  # the leading pair's lower seat chooses the leader


def test_what_the_core_does_not_play_is_refused_by_name() -> None:
    with pytest.raises(OptionError, match="games must be set"):
        BatchCore(GAME, 2, {"stop_at_zero": False})
    # an option added to the game later, which the core does not know, is refused by name
    later = dataclasses.make_dataclass(
        "LaterOptions",
        [("house_rule", bool, dataclasses.field(default=False, kw_only=True))],
        bases=(KakeyaOptions,),
        frozen=True,
    )
    spec = BatchCore(GAME, 1).spec
    env = types.SimpleNamespace(match=False, options=later(house_rule=True), encoder=spec.encoder, num_players=4)
    with pytest.raises(OptionError, match=r"option house_rule=True: the batched C core of Kakeya does not play it"):
        kakeya_vector._check(env)
    env.options = later()
    kakeya_vector._check(env)  # at its default value it changes nothing


# -- the wrappers ---------------------------------------------------------------------------


def test_gymnasium_env_checker_passes() -> None:
    from gymnasium.utils.env_checker import check_env

    check_env(batch_env(GAME, illegal_reward=-1.0), skip_render_check=True)
    check_env(batch_env(GAME, {"players": 6}, recall="full", scaled=True, illegal_reward=-1.0), skip_render_check=True)
    env = batch_env(GAME)
    obs, info = env.reset(seed=3)
    assert env.observation_space.contains(obs)
    done = False
    steps = 0
    while not done:
        obs, reward, done, truncated, info = env.step(int(np.flatnonzero(obs["action_mask"])[0]))
        steps += 1
    assert steps == 54 and reward in (-4, -2, -1, 1, 2, 4)
    with pytest.raises(IllegalActionError, match="reset"):
        env.step(0)


def test_the_vector_env_steps_arrays() -> None:
    envs = batch_vector_env(GAME, 5, scaled=True)
    obs, info = envs.reset(seed=11)
    assert envs.observation_space.contains(obs)
    assert obs["observation"].shape == (5, envs.core.obs_size) and obs["action_mask"].shape == (5, 64)
    rng = np.random.default_rng(0)
    total = np.zeros(4)
    for _ in range(200):
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in obs["action_mask"]])
        obs, rewards, terminated, truncated, info = envs.step(actions)
        assert rewards.shape == (5,) and terminated.dtype == np.bool_ and not truncated.any()
        np.testing.assert_array_equal(rewards, info["seat_rewards"][np.arange(5), info["actor"]])
        total += np.abs(info["seat_rewards"]).sum(0)
    assert total.all()


@pytest.mark.parametrize("players", [4, 6])
def test_pettingzoo_parallel_api_test_passes(players: int) -> None:
    from pettingzoo.test import parallel_api_test

    parallel_api_test(batch_parallel_env(GAME, {"players": players}), num_cycles=200)
    env = batch_parallel_env(GAME, {"players": players}, recall="cards")
    obs, infos = env.reset(seed=4)
    agent = next(a for a in env.agents if obs[a]["action_mask"].any())
    assert agent == ("player_1" if players == 4 else "player_2")  # the dealing pair decides the trump
    with pytest.raises(ValueError, match=f"{agent} is to act"):
        env.step({a: 0 for a in env.agents if a != agent})


def test_pettingzoo_parallel_seed_test_passes_with_an_illegal_reward() -> None:
    """PettingZoo's seed test sends unmasked random actions: with ``illegal_reward`` an illegal
    one ends the game with the penalty to its sender; the same seed plays the same episode."""
    from pettingzoo.test import parallel_seed_test

    parallel_seed_test(lambda: batch_parallel_env(GAME, {"players": 6}, recall="cards", illegal_reward=-1.0))
    parallel_seed_test(lambda: batch_parallel_env(GAME, illegal_reward=-1.0))
