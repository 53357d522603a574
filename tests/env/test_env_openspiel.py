"""OpenSpiel's own random simulation test on every game, chance and resampling."""

from __future__ import annotations

import json
import random

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is not installed (pip install 'kirifuda[openspiel]')")
np = pytest.importorskip("numpy")

from kirifuda.env.openspiel import game_name, register_all  # noqa: E402

from .helpers import CASE_IDS, CASES  # noqa: E402

register_all()


def _load(game, options=None, match=False):
    return pyspiel.load_game(game_name(game), {"options": json.dumps(options or {}), "match": match})


@pytest.mark.parametrize(("game", "options"), CASES, ids=CASE_IDS)
def test_random_sim(game, options):
    pyspiel.random_sim_test(_load(game, options), num_sims=2, serialize=True, verbose=False)


@pytest.mark.parametrize("game", sorted({g for g, _ in CASES}))
def test_random_sim_match_mode(game):
    options = {"meitora": {"target": 2}, "napoleon": {"deals": 2}, "kakeya": {"games": 2}, "unsun": {"deals": 2}}.get(
        game, {}
    )
    pyspiel.random_sim_test(_load(game, options, match=True), num_sims=1, serialize=False, verbose=False)


def _play(game, seed, decisions, options=None):
    g = _load(game, options)
    rng = random.Random(seed)
    s = g.new_initial_state()
    n = 0
    while not s.is_terminal() and n < decisions:
        if s.is_chance_node():
            s.apply_action(rng.choice(s.chance_outcomes())[0])
        else:
            s.apply_action(rng.choice(s.legal_actions()))
            n += 1
    return s


def test_chance_deals_card_by_card_uniformly():
    g = _load("meitora")
    s = g.new_initial_state()
    outcomes = s.chance_outcomes()
    assert len(outcomes) == 41 and all(abs(p - 1 / 41) < 1e-12 for _, p in outcomes)
    s.apply_action(outcomes[0][0])
    assert len(s.chance_outcomes()) == 40 and outcomes[0][0] not in dict(s.chance_outcomes())
    with pytest.raises(Exception):  # noqa: B017 (pyspiel raises a bare SpielError/RuntimeError)
        s.apply_action(outcomes[0][0])  # a card already dealt


@pytest.mark.parametrize("game", sorted({g for g, _ in CASES}))
def test_resample_keeps_the_information_state(game):
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    moved = 0
    for seed in range(4):
        s = _play(game, seed, decisions=6 + 5 * seed)
        if s.is_terminal() or s.is_chance_node():
            continue
        for player in range(s.num_players()):
            r = s.resample_from_infostate(player, sampler)
            assert r.information_state_string(player) == s.information_state_string(player)
            assert np.array_equal(r.information_state_tensor(player), s.information_state_tensor(player))
            assert r.observation_string(player) == s.observation_string(player)
            assert r.legal_actions() == s.legal_actions() or r.current_player() != player
            moved += str(r) != str(s)
    assert moved > 0


def test_information_state_hides_other_hands():
    """Swap a card of seat 1 with one of seat 2 in the deal, same decisions (bids only): seat 0's
    information state and observation are unchanged, seat 1's change."""
    s = _play("meitora", 2, decisions=3)
    assert not s.is_terminal() and not s.is_chance_node()
    history = list(s.history())
    k = s._k
    dealt = list(k.dealt)
    r, sizes = k.rest_size, k.hand_sizes
    one = r + sizes[0]  # first card of seat 1 in the chance order
    two = r + sizes[0] + sizes[1]  # first card of seat 2
    swapped = dealt[:]
    swapped[one], swapped[two] = dealt[two], dealt[one]
    begin = len(history) - len(dealt) - len(k.steps)
    t = s.get_game().new_initial_state()
    for a in history[:begin] + swapped + history[begin + len(dealt) :]:
        t.apply_action(a)
    assert t.information_state_string(0) == s.information_state_string(0)
    assert np.array_equal(t.information_state_tensor(0), s.information_state_tensor(0))
    assert np.array_equal(t.observation_tensor(0), s.observation_tensor(0))
    assert t.information_state_string(1) != s.information_state_string(1)
    assert not np.array_equal(t.observation_tensor(1), s.observation_tensor(1))


def test_ismcts_and_mcts_run():
    from open_spiel.python.algorithms import ismcts, mcts

    g = _load("meitora")
    s = _play("meitora", 0, decisions=4)
    while s.is_terminal():
        s = _play("meitora", 1, decisions=4)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(0))
    bot = ismcts.ISMCTSBot(g, evaluator, uct_c=2.0, max_simulations=8, random_state=np.random.RandomState(1))
    assert bot.step(s) in s.legal_actions()
    mbot = mcts.MCTSBot(g, 2.0, 8, evaluator, random_state=np.random.RandomState(1))
    assert mbot.step(s) in s.legal_actions()


def test_unsun_reflip_indicator_is_never_a_face_card():
    if "unsun" not in {g for g, _ in CASES}:
        pytest.skip("Unsun is not registered")
    g = _load("unsun", {"reflip_face_card": True})
    s = g.new_initial_state()
    first = [c for c, _ in s.chance_outcomes()]
    assert len(first) == 36 and all(c % 13 < 9 for c in first)  # 2 … T of each suit
    assert len(_load("unsun").new_initial_state().chance_outcomes()) == 52
    pyspiel.random_sim_test(g, num_sims=2, serialize=False, verbose=False)


@pytest.mark.parametrize(("game", "options"), CASES, ids=CASE_IDS)
def test_swapping_two_other_seats_cards_leaves_an_information_state(game, options):
    """At the first decision, swap a card between two other seats' hands in the chance outcomes:
    whenever the table's public story is the same (spectator's view), seat 0's information state
    and tensors are unchanged, and the swapped seats' observations change."""
    s = _play(game, 0, decisions=0, options=options)
    while s.is_chance_node():
        s.apply_action(s.chance_outcomes()[0][0])
    k = s._k
    history = list(s.history())
    dealt = list(k.dealt)
    begin = len(history) - len(dealt)
    starts, pos = [], k.rest_size
    for size in k.hand_sizes:
        starts.append((pos, size))
        pos += size
    others = [seat for seat in range(1, s.num_players()) if starts[seat][1] > 0]
    a, b = others[0], others[1]
    done = 0
    for i in range(starts[a][1]):
        for j in range(starts[b][1]):
            x, y = starts[a][0] + i, starts[b][0] + j
            swapped = dealt[:]
            swapped[x], swapped[y] = dealt[y], dealt[x]
            t = s.get_game().new_initial_state()
            for act in history[:begin] + swapped:
                t.apply_action(act)
            spectator = (t._k.stepper.state.view(None), s._k.stepper.state.view(None))
            if t.is_terminal() or spectator[0] != spectator[1]:
                continue
            assert t.information_state_string(0) == s.information_state_string(0)
            assert np.array_equal(t.information_state_tensor(0), s.information_state_tensor(0))
            assert np.array_equal(t.observation_tensor(0), s.observation_tensor(0))
            seen_by_a = s._k.stepper.state.view(a).hand != ()
            if seen_by_a:
                assert t.information_state_string(a) != s.information_state_string(a)
            done += 1
            if done >= 3:
                return
    assert done > 0


@pytest.mark.parametrize("claims", ["off", "auto"])
def test_claims_parameter(claims):
    """``claims=off|auto``: the claim is never a legal action; with ``auto`` random play never
    ends in a failed claim, deals end by claims made for the seats, and resampling and
    serialization still hold."""
    g = pyspiel.load_game(game_name("meitora"), {"claims": claims})
    pyspiel.random_sim_test(g, num_sims=3, serialize=True, verbose=False)
    claim = g.catalog.family_start["claim"]
    rng = random.Random(0)
    claimed = 0
    sampler = random.Random(1).random
    for _ in range(25):
        s = g.new_initial_state()
        while not s.is_terminal():
            if s.is_chance_node():
                s.apply_action(rng.choice(s.chance_outcomes())[0])
                continue
            assert claim not in s.legal_actions()
            if rng.random() < 0.1:
                p = s.current_player()
                r = s.resample_from_infostate(p, sampler)
                assert r.information_state_string(p) == s.information_state_string(p)
            s.apply_action(rng.choice(s.legal_actions()))
        deal = s._k.stepper.state.summary()["deals"][-1]
        assert not deal.get("failed_claim")
        claimed += any("claim" in a for a in s._k.stepper.state.record_deals()[-1]["actions"])
    assert (claimed > 0) == (claims == "auto")


@pytest.mark.parametrize(("game", "options"), CASES, ids=CASE_IDS)
def test_the_python_fast_paths_give_what_pyspiel_gives(game, options):
    """The state's own methods for Python callers (no observer round trip) return exactly what
    pyspiel's methods return through the game's observers, at every node of random episodes,
    and refuse what pyspiel refuses."""
    g = _load(game, options)
    rng = random.Random(7)
    base = pyspiel.State
    for _ in range(2):
        s = g.new_initial_state()
        to_check = 0.2 if game == "napoleon" else 1.0
        while not s.is_terminal():
            assert s.is_chance_node() == base.is_chance_node(s)
            assert s.legal_actions() == base.legal_actions(s)
            for p in range(g.num_players()):
                assert s.legal_actions(p) == base.legal_actions(s, p)
                if (not s.is_chance_node() and rng.random() < to_check) or rng.random() < 0.05:
                    assert s.observation_tensor(p) == base.observation_tensor(s, p)
                    assert s.observation_string(p) == base.observation_string(s, p)
                    assert s.information_state_string(p) == base.information_state_string(s, p)
                    assert s.information_state_tensor(p) == base.information_state_tensor(s, p)
            if s.is_chance_node():
                s.apply_action(rng.choice(s.chance_outcomes())[0])
            else:
                assert s.observation_tensor() == base.observation_tensor(s)
                assert s.information_state_string() == base.information_state_string(s)
                s.apply_action(rng.choice(s.legal_actions()))
        assert s.legal_actions() == base.legal_actions(s) == []
        for call in (
            s.observation_tensor,
            s.information_state_string,
            s.observation_string,
            s.information_state_tensor,
        ):
            with pytest.raises(pyspiel.SpielError):
                call()
            with pytest.raises(pyspiel.SpielError):
                call(g.num_players())


@pytest.mark.parametrize("game", sorted({g for g, _ in CASES}))
def test_copies_and_resamples_tell_what_a_fresh_replay_tells(game):
    """A clone keeps its histories lazily and a resample is installed from its own replay, with
    the seat's history handed over: every seat's information state (string and tensor) is
    still what a state replayed from the same history gives, before and after more steps."""
    g = _load(game)
    rng = random.Random(3)
    n = g.num_players()

    def same_as_fresh(s):
        fresh = g.new_initial_state()
        for a in s.history():
            fresh.apply_action(a)
        for p in range(n):
            assert s.information_state_string(p) == fresh.information_state_string(p)
            assert s.information_state_tensor(p) == fresh.information_state_tensor(p)

    for seed in range(6):
        s = _play(game, seed, 2 + seed * 3)
        if s.is_terminal() or s.is_chance_node():
            continue
        for p in range(n):
            s.information_state_string(p)  # every seat's history kept from here on
        copy = s.clone()
        sample = s.resample_from_infostate(s.current_player(), rng.random)
        for state in (copy, sample):
            for _ in range(rng.randrange(1, 6)):
                if state.is_terminal():
                    break
                if state.is_chance_node():
                    state.apply_action(rng.choice(state.chance_outcomes())[0])
                else:
                    state.apply_action(rng.choice(state.legal_actions()))
            same_as_fresh(state)
