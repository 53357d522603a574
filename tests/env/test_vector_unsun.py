"""Unsun's batched C core against the Python env (the engine is the truth).

The C core deals from CPython's own random stream (a Mersenne Twister seeded as
``random.Random(seed)``), so ``BatchCore("unsun", …).reset(seed=s)`` and
``GameEnv("unsun", …).reset(seed=s)`` deal the same cards; both then take the same random legal
actions and at every step every seat's observation, the mask, the seat to act, the rewards and
the end of the episode must be equal — for every Unsun option (``players``, ``reflip_face_card``,
``all_trumps_face_down``, ``deals``) and env option (``first``, ``recall``, ``scaled``,
``match``).  Batched and one-by-one stepping give the same trajectories; face-down cards stay
hidden; bad input is refused and changes nothing; Gymnasium's env checker and PettingZoo's
parallel API test pass on the wrappers."""

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
from kirifuda.games import unsun, unsun_vector  # noqa: E402

pytestmark = pytest.mark.skipif(not has_batch_core("unsun"), reason="the Unsun C core was not built")

MASK64 = 2**64 - 1


def play_episode(options: dict[str, Any], seed: int, choice_seed: int, **env_opts: Any) -> int:
    """One episode side by side; returns its number of steps."""
    core = BatchCore("unsun", 1, options, autoreset=False, **env_opts)
    core.reset(seed=seed)
    env = GameEnv("unsun", options, **env_opts)
    env.reset(seed)
    pick = random.Random(choice_seed)
    steps = 0
    assert_same(core, env)
    while not env.done:
        action = pick.choice(env.legal_ids())
        step_both(core, env, action)
        steps += 1
    return steps


OPTIONS = st.fixed_dictionaries(
    {"players": st.sampled_from([4, 3, 5])},
    optional={
        "reflip_face_card": st.booleans(),
        "all_trumps_face_down": st.booleans(),
        "deals": st.integers(1, 6),
    },
)


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(
    options=OPTIONS,
    seed=st.integers(0, MASK64),
    choice_seed=st.integers(0, 2**32),
    first=st.integers(0, 4),
    recall=st.sampled_from([None, "cards", "full"]),
    scaled=st.booleans(),
    claims=st.sampled_from(["keep", "off", "auto"]),
)
def test_the_c_core_plays_as_the_python_env(
    options: dict[str, Any], seed: int, choice_seed: int, first: int, recall: str | None, scaled: bool, claims: str
) -> None:
    first %= options["players"]
    play_episode(options, seed, choice_seed, first=first, recall=recall, scaled=scaled, claims=claims)


@pytest.mark.slow
@settings(max_examples=8, deadline=None)
@given(
    players=st.sampled_from([4, 3, 5]),
    deals=st.integers(1, 3),
    all_down=st.booleans(),
    seed=st.integers(0, MASK64),
    recall=st.sampled_from([None, "full"]),
)
def test_a_whole_match_plays_as_the_python_env(
    players: int, deals: int, all_down: bool, seed: int, recall: str | None
) -> None:
    """``match=True``: deal after deal from the same stream, the dealer moving on, the totals
    and the deals won carried, each deal's tricks rewarded when it ends."""
    options = {"players": players, "deals": deals, "all_trumps_face_down": all_down}
    steps = play_episode(options, seed, seed % 1000, match=True, recall=recall, first=seed % players)
    assert steps == deals * unsun.DEAL_SIZES[players][0] * players


@pytest.mark.parametrize(
    "options, env_opts",
    [
        ({}, {}),
        ({"players": 3, "reflip_face_card": True}, {"first": 2, "recall": "full", "scaled": True, "claims": "auto"}),
        ({"players": 5, "all_trumps_face_down": True, "deals": 1}, {"first": 4, "recall": "cards"}),
        ({"players": 4, "all_trumps_face_down": True, "deals": 2}, {"first": 1, "match": True}),
    ],
)
def test_a_deal_of_each_table_plays_as_the_python_env(options: dict[str, Any], env_opts: dict[str, Any]) -> None:
    """The quick differential test (the Hypothesis ones below are in the slow suite)."""
    assert play_episode(options, 31, 4, **env_opts) > 0


@pytest.mark.slow
def test_the_c_core_plays_as_the_python_env_over_many_deals() -> None:
    """Many deals of every option set and table size."""
    rng = random.Random(2026)
    played = 0
    for k in range(240):
        players = (4, 3, 5)[k % 3]
        options = {"players": players, "reflip_face_card": bool(k & 4), "all_trumps_face_down": bool(k & 8)}
        recall = (None, "cards", "full")[k % 5 % 3]
        played += play_episode(options, rng.getrandbits(64), k, first=k % players, recall=recall, scaled=k % 7 == 0)
    assert played == sum(unsun.DEAL_SIZES[(4, 3, 5)[k % 3]][0] * (4, 3, 5)[k % 3] for k in range(240))


def test_the_random_stream_is_cpythons() -> None:
    """The core's draws are ``random.Random(seed).random()``'s, for small and 64-bit seeds."""
    for seed in (0, 1, 7, 2**32 - 1, 2**32, 2**40 + 12345, MASK64):
        r = random.Random(seed)
        assert unsun_vector.random_words(seed, 700) == [int(r.random() * 2**53) for _ in range(700)]


@pytest.mark.parametrize("players", [3, 4, 5])
def test_every_deal_is_dealt_as_the_engine_deals_it(players: int) -> None:
    """Env ``i`` of a batch seeded with ``s`` deals what ``GameEnv.reset(seed=s + i)`` deals:
    the hands, the indicator, the dealer and the starting player."""
    n = 100
    core = BatchCore("unsun", n, {"players": players}, first=1)
    core.reset(seed=99)
    tenka = 0
    for i in range(n):
        env = GameEnv("unsun", {"players": players}, first=1)
        env.reset(99 + i)
        info = core.state_info(i)
        state = env.state
        assert info["hands"] == tuple(state._hands)
        assert info["indicator"] == state.indicator.id
        assert info["dealer"] == state.dealer == 1
        assert info["starting_player"] == state.starting_player
        tenka += any(h >> unsun.TENKA & 1 for h in state._hands)
    assert 0 < tenka < n  # the ♣J dealt in most deals, left over in some


def test_a_face_card_indicator_is_turned_again() -> None:
    core = BatchCore("unsun", 300, {"reflip_face_card": True})
    core.reset(seed=5)
    ranks = {core.state_info(i)["indicator"] % 13 for i in range(300)}
    assert ranks == set(range(9))  # 2 … T, never J Q K A
    plain = BatchCore("unsun", 300)
    plain.reset(seed=5)
    assert {plain.state_info(i)["indicator"] % 13 for i in range(300)} == set(range(13))


@pytest.mark.parametrize("all_down", [False, True])
def test_a_face_down_card_stays_hidden_until_its_trick_is_complete(all_down: bool) -> None:
    """While a trick is being played, no other seat's observation shows a face-down card (in
    any slot of the view or of the recall); once the trick is complete every seat sees it."""
    core = BatchCore("unsun", 1, {"all_trumps_face_down": all_down}, autoreset=False, recall="full")
    layout = {name: (off, size) for name, off, size in unsun_vector.layout(4)}
    base = layout["deals"][0] + 1
    hidden_seen = 0
    for seed in range(12):
        core.reset(seed=seed)
        rng = random.Random(seed)
        while not core.done[0]:
            seat = int(core.to_act[0])
            card = rng.choice(np.flatnonzero(core.mask[0]).tolist())
            info = core.state_info(0)
            trump = info["indicator"] // 13
            face_down = unsun.is_face_down(unsun.CARDS[card], unsun.Suit("SHDC"[trump]), all_down)
            core.step([card])
            if core.done[0] or not face_down:
                continue
            complete = core.state_info(0)["tricks_played"] > info["tricks_played"]
            for other in range(4):
                if other == seat:
                    continue
                obs = core.observe(0, other)
                rel = (seat - other) % 4
                shown = obs[layout["last_trick"][0] + rel * 53 + card] if complete else 0.0
                assert shown == (1.0 if complete else 0.0)
                if not complete:
                    hidden_seen += 1
                    off, size = layout["trick"]
                    assert obs[off + 4 * 53 + rel] == 1.0  # a face-down card was played …
                    cards = obs.copy()
                    cards[layout["indicator"][0] : layout["indicator"][0] + 53] = 0.0
                    for name in ("trick", "last_trick", "tricks"):
                        off, _ = layout[name]
                        for r in range(4):
                            assert cards[off + r * 53 + card] == 0.0  # … not which
                    for r in range(4):
                        assert obs[base + r * 53 + card] == 0.0  # nor in the recall
    assert hidden_seen > 10


@pytest.mark.parametrize("options", [{}, {"players": 5, "all_trumps_face_down": True}])
def test_batched_and_one_by_one_stepping_give_the_same_trajectories(options: dict[str, Any]) -> None:
    n = 5
    batch = BatchCore("unsun", n, options, recall="cards")
    batch.reset(seed=500)
    lone = [BatchCore("unsun", 1, options, recall="cards") for _ in range(n)]
    for i, one in enumerate(lone):
        one.reset(seed=500 + i)
    rng = np.random.default_rng(1)
    ended = 0
    for _ in range(150):  # several deals each: the autoreset goes on with each env's stream
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


@pytest.mark.parametrize("match", [False, True])
def test_autoreset_starts_the_next_deal_as_the_python_env_does(match: bool) -> None:
    """After an episode ends, the env's next one is the one the Python env deals next from its
    stream (reset without a seed); in a match, deal after deal."""
    options = {"players": 3, "deals": 2}
    core = BatchCore("unsun", 1, options, match=match, first=2)
    core.reset(seed=7)
    env = GameEnv("unsun", options, match=match, first=2)
    env.reset(7)
    pick = random.Random(3)
    deals = episodes = 0
    while deals < 4:
        action = pick.choice(env.legal_ids())
        rewards = env.step(action)
        core.step([action])
        assert bool(core.done[0]) == env.done
        if rewards is not None:
            deals += 1
            assert sum(rewards) == 16
            np.testing.assert_array_equal(core.rewards[0], np.array(rewards, dtype=np.float32))
        if env.done:
            episodes += 1
            env.reset()
        np.testing.assert_array_equal(core.obs[0], env.observe(env.to_act))
        np.testing.assert_array_equal(core.mask[0], env.legal_mask())
    assert episodes == (2 if match else 4)


# -- bad input ------------------------------------------------------------------------------


def test_bad_actions_are_refused_and_change_nothing() -> None:
    core = BatchCore("unsun", 3)
    core.reset(seed=1)
    before = (core.obs.copy(), core.mask.copy(), core.to_act.copy(), core.state_info(0))
    legal = [int(np.flatnonzero(m)[0]) for m in core.mask]
    with pytest.raises(ValueError, match=r"expected shape \(3,\)"):
        core.step(legal[:2])
    with pytest.raises(ValueError, match="integers"):
        core.step(["AS", "AS", "AS"])
    illegal = int(np.flatnonzero(core.mask[1] == 0)[0])
    with pytest.raises(IllegalActionError, match=r"env 1: not in its action mask") as err:
        core.step([legal[0], illegal, legal[2]])
    assert f"seat {int(core.to_act[1])}" in str(err.value)
    with pytest.raises(IllegalActionError, match=r"env 2: not in its action mask"):
        core.step([legal[0], legal[1], 52])  # the joker: not in the Unsun pack
    with pytest.raises(IllegalActionError, match=r"env 2: an action is an integer 0\.\.52"):
        core.step([legal[0], legal[1], 53])
    after = (core.obs, core.mask, core.to_act, core.state_info(0))
    for x, y in zip(before[:3], after[:3]):
        np.testing.assert_array_equal(x, y)
    assert before[3] == after[3]
    core.step(legal)  # still steps


def test_what_the_core_does_not_play_is_refused_by_name(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(OptionError, match="first='random'"):
        BatchCore("unsun", 2, first="random")  # type: ignore[arg-type]
    with pytest.raises(OptionError, match="first=4"):
        BatchCore("unsun", 2, first=4)
    with pytest.raises(OptionError, match="players"):
        BatchCore("unsun", 2, {"players": 6})
    # an option the core did not know would be refused by name, and left at its default allowed
    monkeypatch.setattr(unsun_vector, "SUPPORTED_OPTIONS", ("players", "reflip_face_card", "deals"))
    with pytest.raises(OptionError, match=r"all_trumps_face_down=True: the batched C core of Unsun does not play it"):
        BatchCore("unsun", 2, {"all_trumps_face_down": True})
    BatchCore("unsun", 2, {"all_trumps_face_down": False})


@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_layout_is_the_encoders(players: int) -> None:
    for recall in (None, "cards", "full"):
        core = BatchCore("unsun", 2, {"players": players}, recall=recall)
        assert core.obs.shape == (2, GameEnv("unsun", {"players": players}, recall=recall).obs_size)
        assert core.mask.shape == (2, 53) and core.rewards.shape == (2, players)
    env = GameEnv("unsun", {"players": players})
    assert tuple((n, o, s) for n, o, s, _ in env.encoder.layout()) == unsun_vector.layout(players)


# -- the wrappers ---------------------------------------------------------------------------


@pytest.mark.parametrize("options", [{}, {"players": 3, "reflip_face_card": True}])
def test_gymnasium_env_checker_passes(options: dict[str, Any]) -> None:
    from gymnasium.utils.env_checker import check_env

    check_env(batch_env("unsun", options, illegal_reward=-1.0), skip_render_check=True)
    check_env(batch_env("unsun", options, recall="full", scaled=True, illegal_reward=-1.0), skip_render_check=True)
    env = batch_env("unsun", options)
    obs, info = env.reset(seed=3)
    assert env.observation_space.contains(obs)
    done = False
    total = 0.0
    while not done:
        obs, reward, done, truncated, info = env.step(int(np.flatnonzero(obs["action_mask"])[0]))
        total += reward
    assert sum(info["seat_rewards"]) == unsun.DEAL_SIZES[env.core.num_players][0]
    with pytest.raises(IllegalActionError, match="reset"):
        env.step(0)


def test_the_vector_env_steps_arrays() -> None:
    envs = batch_vector_env("unsun", 5, {"players": 5}, scaled=True)
    obs, info = envs.reset(seed=11)
    assert envs.observation_space.contains(obs)
    assert obs["observation"].shape == (5, envs.core.obs_size) and obs["action_mask"].shape == (5, 53)
    rng = np.random.default_rng(0)
    total = np.zeros(5)
    ended = 0
    for _ in range(120):
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in obs["action_mask"]])
        obs, rewards, terminated, truncated, info = envs.step(actions)
        assert rewards.shape == (5,) and terminated.dtype == np.bool_ and not truncated.any()
        np.testing.assert_array_equal(rewards, info["seat_rewards"][np.arange(5), info["actor"]])
        total += info["seat_rewards"].sum(0)
        ended += int(terminated.sum())
    assert ended > 0 and total.sum() == 10 * ended  # ten tricks a deal at a table of five


def test_pettingzoo_parallel_api_test_passes() -> None:
    from pettingzoo.test import parallel_api_test

    parallel_api_test(batch_parallel_env("unsun"), num_cycles=200)
    parallel_api_test(batch_parallel_env("unsun", {"players": 5}, recall="cards"), num_cycles=100)
    env = batch_parallel_env("unsun", {"players": 3})
    obs, infos = env.reset(seed=4)
    assert len(env.agents) == 3
    agent = next(a for a in env.agents if obs[a]["action_mask"].any())
    with pytest.raises(ValueError, match=f"{agent} is to act"):
        env.step({a: 0 for a in env.agents if a != agent})
