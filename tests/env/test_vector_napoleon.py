"""Napoleon's batched C core (kirifuda.games.napoleon_vector) against the Python env: the engine
is the truth.

The C core and ``kirifuda.env.core.GameEnv`` reset with the same seed are dealt the same cards
(the core draws CPython's Mersenne Twister as ``random.Random(seed)`` does) and take the same legal
actions, chosen at random with a bias that reaches the rare branches (void deals, solo, approved
re-declarations, joker leads and ♠3 calls); at every step every seat's observation, the mask,
the seat to act, the rewards and the end of the deal must be equal, for every option set.
Batched and one-by-one stepping give the same trajectories; bad input is refused with a clear
error and changes nothing; Gymnasium's env checker and PettingZoo's parallel API test pass on
the wrappers."""

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

GAME = "napoleon"
pytestmark = pytest.mark.skipif(not has_batch_core(GAME), reason="the Napoleon C core was not built")

MASK64 = 2**64 - 1


def python_env(options: dict[str, Any], seed: int, **env_opts: Any) -> GameEnv:
    env = GameEnv(GAME, options, **env_opts)
    env.reset(seed=seed)
    return env


class Picker:
    """Random legal actions, biased so that the rare branches come up: passes in the bidding
    (void deals, low contracts), the adjutant named from Napoleon's own hand or the middle
    (solo), re-declarations and approvals, joker leads and ♠3 calls."""

    def __init__(self, env: GameEnv, seed: int) -> None:
        self.rng = random.Random(seed)
        self.env = env
        start = env.catalog.family_start
        self.pass_ = start["pass"]
        self.adjutant = start["adjutant"]
        self.redeclare = start["redeclare"]
        self.approve = start["approve"]
        self.style = self.rng.random()

    def __call__(self) -> int:
        env, rng = self.env, self.rng
        ids = env.legal_ids()
        if self.pass_ in ids:
            if rng.random() < 0.5 + 0.45 * self.style:
                return self.pass_
            return ids[0] if rng.random() < 0.8 else rng.choice(ids)  # mostly the lowest declaration
        if ids[0] >= self.adjutant and ids[-1] < self.adjutant + 53 and rng.random() < 0.3:
            state: Any = env.state
            own = [self.adjutant + c.id for c in state.hand(env.to_act)] + [self.adjutant + c.id for c in state.middle]
            return rng.choice([i for i in own if i in ids])
        if ids[0] == self.redeclare and rng.random() < 0.5:
            return self.redeclare
        if ids[0] == self.approve:
            return ids[0] if rng.random() < 0.8 else ids[1]
        specials = [i for i in ids if 53 <= i <= 58]
        if specials and rng.random() < 0.5:
            return rng.choice(specials)
        if self.style > 0.6 and ids[-1] < 53:  # the army plays its highest cards, the allies their lowest
            state: Any = env.state
            army = env.to_act in (state._napoleon, state.adjutant)
            return max(ids, key=lambda i: (i == 12, i % 13)) if army else min(ids, key=lambda i: i % 13)
        return rng.choice(ids)


def directed(ids: Any, seat: int, nap: int | None, adj: int | None, hand: int) -> int:
    """A fixed policy under which the army sometimes takes every face card: the first bidder
    declares the lowest spade count and everyone else passes, Napoleon names the highest card
    he lacks and discards his lowest, the army plays its highest cards, the allies their lowest."""
    ids = [int(i) for i in ids]
    if 99 in ids:
        return ids[0] if nap is None or nap < 0 else 99
    if 100 <= ids[0] < 153:
        return max((i for i in ids if not hand >> (i - 100) & 1), key=lambda i: ((i - 100) % 13, -i))
    if 153 <= ids[0] < 206:
        return min(ids, key=lambda i: ((i - 153) % 13, i))
    if ids[0] in (206, 247):
        return ids[0]
    if seat in (nap, adj):
        return max(ids, key=lambda i: (i == 12, i % 13))
    return min(ids, key=lambda i: (i % 13, i))


def play_deal(options: dict[str, Any], seed: int, choice_seed: int | None, **env_opts: Any) -> tuple[int, list[float]]:
    """One episode (a deal, or with ``match=True`` a match) side by side, actions by
    :class:`Picker` (or :func:`directed` without a ``choice_seed``); returns its number of steps
    and its last rewards."""
    core = BatchCore(GAME, 1, options, autoreset=False, **env_opts)
    core.reset(seed=seed)
    env = python_env(options, seed, **env_opts)
    state: Any = env.state
    if choice_seed is None:

        def pick() -> int:
            seat = env.to_act
            assert seat is not None
            hand = sum(1 << c.id for c in state.hand(seat))
            return directed(env.legal_ids(), seat, state._napoleon, state.adjutant, hand)

    else:
        pick = Picker(env, choice_seed)
    steps = 0
    assert_same(core, env)
    rewards: list[float] | None = None
    while not env.done:
        action = pick()
        rewards = step_both(core, env, action)
        steps += 1
    assert rewards is not None
    return steps, rewards


OPTIONS = st.fixed_dictionaries(
    {},
    optional={
        "players": st.sampled_from([5, 4]),
        "joker": st.booleans(),
        "yoromeki": st.booleans(),
        "first_trick_plain": st.booleans(),
        "strategy_b": st.booleans(),
        "redeclare": st.booleans(),
        "deals": st.integers(1, 12),
    },
)


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(
    options=OPTIONS,
    seed=st.integers(0, MASK64),
    choice_seed=st.integers(0, 2**32),
    first=st.integers(0, 3),
    recall=st.sampled_from([None, "cards", "full"]),
    scaled=st.booleans(),
    match=st.booleans(),
)
def test_the_c_core_plays_as_the_python_env(
    options: dict[str, Any],
    seed: int,
    choice_seed: int,
    first: int,
    recall: str | None,
    scaled: bool,
    match: bool,
) -> None:
    if match:  # a whole match of a few deals
        options = {**options, "deals": min(options.get("deals", 2), 3)}
    play_deal(options, seed, choice_seed, first=first, recall=recall, scaled=scaled, match=match)


OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"players": 4},
    {"joker": True},
    {"players": 4, "joker": True},
    {"yoromeki": True, "first_trick_plain": True},
    {"strategy_b": False, "redeclare": False, "deals": 1},
    {"players": 4, "joker": True, "yoromeki": True, "redeclare": False},
]


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "default")
def test_each_option_set_plays_as_the_python_env(options: dict[str, Any]) -> None:
    for k in range(3):
        play_deal(options, 1000 + k, k, first=k % 4, recall=("full", "cards", None)[k], scaled=k == 2)


@pytest.mark.parametrize("options", [{"deals": 2}, {"players": 4, "joker": True, "deals": 2}])
def test_a_whole_match_plays_as_the_python_env(options: dict[str, Any]) -> None:
    """``match=True``: one episode is the match, each deal's score rewarded when it ends, the
    next deal dealt at once from the same stream (void deals do not count)."""
    steps, _ = play_deal(options, 77, 5, match=True, recall="cards")
    assert steps > 2 * 40


@pytest.mark.slow
def test_the_c_core_plays_as_the_python_env_over_many_deals() -> None:
    """Many deals of every option set: the rare ends (void deals, solo both ways, approved and
    rejected re-declarations, joker leads and ♠3 calls, the allies' win under strategy B when
    the army takes too much) come up among them."""
    rng = random.Random(2028)
    played = 0
    ends: set[str] = set()
    for k in range(140):
        options = dict(OPTION_SETS[k % len(OPTION_SETS)])
        steps, rewards = play_deal(options, rng.getrandbits(64), k, first=k % 4, recall="full" if k % 6 == 0 else None)
        played += steps
        ends.add("void" if not any(rewards) else "played")
    assert ends == {"void", "played"}
    assert played > 140 * 20


ALL_TWENTY = (419, 1396, 2050)
"""Seeds whose deal, played by :func:`directed`, gives the army all 20 face cards (found by
stepping the C core under that policy; the engine confirms it below)."""


@pytest.mark.parametrize("seed", ALL_TWENTY)
def test_strategy_b_when_the_army_takes_all_twenty(seed: int) -> None:
    """作戦B: all 20 taken below a 20 declaration is the allies' win; without it, Napoleon's."""
    _, with_b = play_deal({}, seed, None)
    _, without_b = play_deal({"strategy_b": False}, seed, None, recall="cards")
    env = python_env({}, seed)
    while not env.done:
        state: Any = env.state
        seat = env.to_act
        assert seat is not None
        hand = sum(1 << c.id for c in state.hand(seat))
        env.step(directed(env.legal_ids(), seat, state._napoleon, state.adjutant, hand))
    last = env.state._results[-1]  # type: ignore[attr-defined]
    assert last.army_face_cards == 20 and last.napoleon_wins is False
    assert with_b == [-x for x in without_b] and max(without_b) > 0


@settings(max_examples=150, deadline=None)
@given(
    cards=st.lists(st.integers(0, 52), min_size=4, max_size=5, unique=True),
    request=st.integers(0, 3),
    trump=st.integers(0, 3),
    first=st.booleans(),
    yoromeki=st.booleans(),
    plain=st.booleans(),
)
def test_the_trick_goes_where_the_engine_sends_it(
    cards: list[int], request: int, trump: int, first: bool, yoromeki: bool, plain: bool
) -> None:
    """The core's rule of the trick (the almighty, yoromeki, the first-trick ace or the plain
    first trick, same-2, the jacks, trumps, the led suit, the joker) on any trick."""
    from kirifuda.games import napoleon, napoleon_vector

    napoleon_vector._configure()
    led = request if cards[0] == 52 else cards[0] // 13
    want = napoleon.trick_winner(cards, led, trump, first=first, yoromeki=yoromeki, first_trick_plain=plain)
    assert napoleon_vector._c.trick_winner(cards, led, trump, first, yoromeki, plain) == want


@pytest.mark.parametrize("seed", [0, 1, 2**32 - 1, 2**32, 2**63 + 12345, MASK64])
def test_the_core_draws_as_cpython_random(seed: int) -> None:
    from kirifuda.games import napoleon_vector

    rng = random.Random(seed)
    assert napoleon_vector.random_words(seed, 700) == [int(rng.random() * 2**53) for _ in range(700)]


def test_every_deal_is_dealt_as_the_engine_deals_it() -> None:
    for options in ({}, {"players": 4, "joker": True}):
        core = BatchCore(GAME, 50, options)
        core.reset(seed=99)
        for i in range(50):
            env = python_env(options, 99 + i)
            info = core.state_info(i)
            state: Any = env.state
            assert list(info["hands"]) == [sum(1 << c.id for c in state.hand(s)) for s in range(env.num_players)]
            assert info["middle"] == sum(1 << c.id for c in state.middle)
            np.testing.assert_array_equal(core.obs[i], env.observe(0))
        assert core.state_info(0)["hands"] != core.state_info(1)["hands"]


def test_batched_and_one_by_one_stepping_give_the_same_trajectories() -> None:
    n = 5
    batch = BatchCore(GAME, n, {"joker": True}, recall="cards")
    batch.reset(seed=500)
    lone = [BatchCore(GAME, 1, {"joker": True}, recall="cards") for _ in range(n)]
    for i, one in enumerate(lone):
        one.reset(seed=500 + i)
    rng = np.random.default_rng(1)
    ended = 0
    for _ in range(300):  # several deals each: the autoreset goes on with each env's stream
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
    core = BatchCore(GAME, 1, {"players": 4})
    core.reset(seed=7)
    env = python_env({"players": 4}, 7)
    pick = Picker(env, 3)
    deals = 0
    while deals < 4:
        action = pick()
        env.step(action)
        core.step([action])
        if env.done:
            deals += 1
            assert core.done[0]
            env.reset()
        np.testing.assert_array_equal(core.obs[0], env.observe(env.to_act))
        np.testing.assert_array_equal(core.mask[0], env.legal_mask())


def test_the_sampler_draws_legal_actions() -> None:
    core = BatchCore(GAME, 8, {"joker": True})
    core.reset(seed=5)
    for k in range(400):
        actions = core.sample(seed=k)
        assert all(core.mask[i, a] for i, a in enumerate(actions))
        core.step(actions)


# -- bad input ------------------------------------------------------------------------------


def test_bad_actions_are_refused_and_change_nothing() -> None:
    core = BatchCore(GAME, 3)
    core.reset(seed=1)
    before = (core.obs.copy(), core.mask.copy(), core.to_act.copy(), core.state_info(0))
    legal = [int(np.flatnonzero(m)[0]) for m in core.mask]
    with pytest.raises(ValueError, match=r"expected shape \(3,\)"):
        core.step(legal[:2])
    with pytest.raises(ValueError, match="integers"):
        core.step(["pass", "pass", "pass"])
    illegal = int(np.flatnonzero(core.mask[1] == 0)[0])
    with pytest.raises(IllegalActionError, match=r"env 1: not in its action mask") as err:
        core.step([legal[0], illegal, legal[2]])
    assert "seat 0" in str(err.value)
    with pytest.raises(IllegalActionError, match=r"env 2: an action is an integer 0\.\.248"):
        core.step([legal[0], legal[1], 249])
    after = (core.obs, core.mask, core.to_act, core.state_info(0))
    for x, y in zip(before[:3], after[:3]):
        np.testing.assert_array_equal(x, y)
    assert before[3] == after[3]
    core.step(legal)  # still steps


def test_what_the_core_does_not_play_is_refused_by_name() -> None:
    with pytest.raises(OptionError, match="first=5"):
        BatchCore(GAME, 2, {"players": 5}, first=5)
    with pytest.raises(OptionError, match="first=4"):
        BatchCore(GAME, 2, {"players": 4}, first=4)
    with pytest.raises(OptionError, match="players"):
        BatchCore(GAME, 2, {"players": 3})


def test_an_option_the_core_does_not_know_is_refused_by_name(monkeypatch: pytest.MonkeyPatch) -> None:
    """An option added to the game later (here: the core told it does not know ``joker``) is
    refused by name when it is not at its default, and played when it is."""
    from kirifuda.games import napoleon_vector

    monkeypatch.setattr(napoleon_vector, "SUPPORTED_OPTIONS", ("players", "yoromeki"))
    with pytest.raises(OptionError, match=r"option joker=True: the batched C core of Napoleon does not play it"):
        BatchCore(GAME, 2, {"joker": True})
    BatchCore(GAME, 2, {"joker": False, "players": 4}).reset(seed=1)


# -- the wrappers ---------------------------------------------------------------------------


def test_gymnasium_env_checker_passes() -> None:
    from gymnasium.utils.env_checker import check_env

    check_env(batch_env(GAME, illegal_reward=-1.0), skip_render_check=True)
    check_env(
        batch_env(GAME, {"players": 4, "joker": True}, recall="cards", scaled=True, illegal_reward=-1.0),
        skip_render_check=True,
    )
    env = batch_env(GAME, {"joker": True})
    obs, info = env.reset(seed=3)
    assert env.observation_space.contains(obs)
    done = False
    while not done:
        obs, reward, done, truncated, info = env.step(int(np.flatnonzero(obs["action_mask"])[-1]))
    assert info["seat_rewards"].shape == (5,)
    with pytest.raises(IllegalActionError, match="reset"):
        env.step(0)


def test_the_vector_env_steps_arrays() -> None:
    envs = batch_vector_env(GAME, 4, {"players": 4}, scaled=True)
    obs, info = envs.reset(seed=11)
    assert envs.observation_space.contains(obs)
    assert obs["observation"].shape == (4, envs.core.obs_size) and obs["action_mask"].shape == (4, 249)
    rng = np.random.default_rng(0)
    total = np.zeros(4)
    ended = 0
    for _ in range(400):
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in obs["action_mask"]])
        obs, rewards, terminated, truncated, info = envs.step(actions)
        assert rewards.shape == (4,) and terminated.dtype == np.bool_ and not truncated.any()
        np.testing.assert_array_equal(rewards, info["seat_rewards"][np.arange(4), info["actor"]])
        np.testing.assert_array_equal(info["seat_rewards"].sum(1), 0)  # every deal sums to zero
        total += np.abs(info["seat_rewards"]).sum(0)
        ended += int(terminated.sum())
    assert ended > 0 and total.any()


def test_pettingzoo_parallel_api_test_passes() -> None:
    from pettingzoo.test import parallel_api_test

    parallel_api_test(batch_parallel_env(GAME), num_cycles=300)
    parallel_api_test(batch_parallel_env(GAME, {"players": 4, "joker": True}), num_cycles=300)
    env = batch_parallel_env(GAME, recall="cards")
    obs, infos = env.reset(seed=4)
    assert len(env.agents) == 5
    agent = next(a for a in env.agents if obs[a]["action_mask"].any())
    with pytest.raises(ValueError, match=f"{agent} is to act"):
        env.step({a: 0 for a in env.agents if a != agent})


def test_pettingzoo_parallel_seed_test_passes_with_an_illegal_reward() -> None:
    """PettingZoo's seed test sends unmasked random actions: with ``illegal_reward`` an illegal
    one ends the deal with the penalty to its sender."""
    from pettingzoo.test import parallel_seed_test

    parallel_seed_test(lambda: batch_parallel_env(GAME, {"players": 4}, recall="cards", illegal_reward=-1.0))
