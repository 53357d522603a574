"""kirifuda's bots seated in the environments: OpenSpiel bots and PettingZoo policies, every
level, from the seat's information only."""

from __future__ import annotations

import json
import random

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is not installed (pip install 'kirifuda[openspiel]')")
np = pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")

from open_spiel.python.algorithms.evaluate_bots import evaluate_bots  # noqa: E402

from kirifuda.env.bots import AGENT_KINDS, BotAgent  # noqa: E402
from kirifuda.env.openspiel import KirifudaBot, game_name, register_all  # noqa: E402
from kirifuda.env.pettingzoo import BotPolicy, env, kirifuda_env  # noqa: E402
from kirifuda.bots.search import search_games  # noqa: E402
from kirifuda.errors import OptionError  # noqa: E402

from .helpers import CASE_IDS, CASES  # noqa: E402

register_all()
GAMES = sorted({g for g, _ in CASES})
QUICK = ("random", "heuristic", "search:easy")
LEVELS = [(g, k) for g in GAMES for k in AGENT_KINDS if not k.startswith("search") or g in search_games()]
"""Every level each game offers (a game without a search part, such as the test game, has the others)."""


def _quick(game):
    return tuple(k for k in QUICK if not k.startswith("search") or game in search_games())


def _load(game, options=None):
    return pyspiel.load_game(game_name(game), {"options": json.dumps(options or {})})


@pytest.mark.parametrize(("game", "options"), CASES, ids=CASE_IDS)
def test_bots_play_whole_deals_through_evaluate_bots(game, options):
    g = _load(game, options)
    n = g.num_players()
    for seed in range(2):
        quick = _quick(game)
        bots = [KirifudaBot(g, p, quick[(p + seed) % len(quick)], seed=p) for p in range(n)]
        returns = evaluate_bots(g.new_initial_state(), bots, np.random.RandomState(seed))
        assert len(returns) == n
        if g.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM:
            assert abs(sum(returns)) < 1e-9


@pytest.mark.parametrize("game", GAMES)
def test_openspiel_native_evaluate_bots_takes_them(game):
    g = _load(game)
    bots = [KirifudaBot(g, p, "heuristic", seed=p) for p in range(g.num_players())]
    assert len(pyspiel.evaluate_bots(g.new_initial_state(), bots, 5)) == g.num_players()


def _decision_points(game, count, seed):
    g = _load(game)
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        s = g.new_initial_state()
        stop = rng.randrange(0, 40)
        k = 0
        while not s.is_terminal():
            if s.is_chance_node():
                s.apply_action(rng.choice(s.chance_outcomes())[0])
                continue
            if k == stop:
                out.append(s.clone())
                break
            s.apply_action(rng.choice(s.legal_actions()))
            k += 1
    return g, out


@pytest.mark.parametrize(("game", "kind"), LEVELS, ids=[f"{k}-{g}" for g, k in LEVELS])
def test_every_level_acts_legally_from_the_seat_view(game, kind):
    """Every level takes a legal action, and the same one at a state that differs only in what
    the seat cannot see (a resample from its information state): it uses the seat's view only."""
    g, points = _decision_points(game, 2 if kind.startswith("search") else 4, seed=len(kind))
    for s in points:
        p = s.current_player()
        r = s.resample_from_infostate(p, random.Random(1).random)
        assert r.information_state_string(p) == s.information_state_string(p)
        a = KirifudaBot(g, p, kind, seed=3).step(s)
        assert a in s.legal_actions()
        assert KirifudaBot(g, p, kind, seed=3).step(r) == a


def test_a_multi_card_discard_is_handed_out_card_by_card():
    g = _load("napoleon")
    rng = random.Random(0)
    bots = [KirifudaBot(g, p, "heuristic", seed=p) for p in range(g.num_players())]
    for _ in range(20):
        s = g.new_initial_state()
        picks = []
        while not s.is_terminal():
            if s.is_chance_node():
                s.apply_action(rng.choice(s.chance_outcomes())[0])
                continue
            p = s.current_player()
            a = bots[p].step(s)
            assert a in s.legal_actions()
            if g.catalog.describe(a).startswith("discard"):
                picks.append(a)
            s.apply_action(a)
        if picks:
            assert len(picks) == len(set(picks)) >= 2
            return
    pytest.fail("no exchange in 20 deals")


def test_the_oracle_is_refused_with_a_clear_error():
    with pytest.raises(OptionError, match="oracle sees every card"):
        BotAgent("meitora", "oracle")
    with pytest.raises(OptionError, match="oracle"):
        KirifudaBot(_load("meitora"), 0, "oracle")


@pytest.mark.parametrize("game", GAMES)
def test_pettingzoo_policies_play_episodes_and_restart_on_reset(game):
    e = env(game)
    raw = e.unwrapped
    quick = _quick(game)
    policies = {a: BotPolicy(e, a, quick[i % len(quick)], seed=i) for i, a in enumerate(raw.possible_agents)}
    for seed in (1, 2):
        e.reset(seed=seed)
        steps = 0
        for agent in e.agent_iter():
            obs, reward, terminated, truncated, info = e.last()
            if terminated or truncated:
                e.step(None)
                continue
            action = policies[agent](obs, agent)
            assert obs["action_mask"][action] == 1
            e.step(action)
            steps += 1
        assert steps > 0
    with pytest.raises(ValueError, match="plays player_0"):
        policies["player_0"](None, "player_1")
    for p in policies.values():
        p.close()
    assert raw.core.listeners == []


def test_pettingzoo_policy_follows_every_view_of_its_seat():
    """A search policy is shown its seat's view after every step (its memory), never another's."""
    e = kirifuda_env("meitora")
    seen = []
    policy = BotPolicy(e, "player_2", "search:easy", seed=0)
    policy.bot.observe = seen.append  # type: ignore[method-assign]
    e.reset(seed=4)
    for _agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        if terminated or truncated:
            e.step(None)
            continue
        e.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert len(seen) > 10 and all(v.seat == 2 for v in seen)
