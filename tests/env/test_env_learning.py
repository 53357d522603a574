"""Observations for learning: the seat's memory of the deal (recall), scaled numbers, and the
claims option."""

from __future__ import annotations

import json
import random

import pytest

np = pytest.importorskip("numpy")

from kirifuda.cards import parse_card  # noqa: E402
from kirifuda.env.core import GameEnv  # noqa: E402
from kirifuda.errors import IllegalActionError, OptionError  # noqa: E402

from .helpers import CASE_IDS, CASES  # noqa: E402


def _random_episode(env: GameEnv, seed: int, stop: int | None = None) -> int:
    env.reset(seed=seed)
    rng = random.Random(seed)
    steps = 0
    while not env.done and (stop is None or steps < stop):
        env.step(rng.choice(env.legal_ids()))
        steps += 1
    return steps


@pytest.mark.parametrize(("game", "options"), CASES, ids=CASE_IDS)
def test_recall_holds_every_card_seen_played_this_deal(game, options):
    """``recall="cards"``: the cards each seat was seen to play this deal, by relative seat, as
    the record has them (face-down plays and discards excepted); the view part is unchanged."""
    env = GameEnv(game, options, recall="cards")
    plain = GameEnv(game, options)
    n = env.num_players
    for seed in range(3):
        _random_episode(env, seed, stop=30 + 7 * seed)
        _random_episode(plain, seed, stop=30 + 7 * seed)
        if env.done:
            continue
        deal = env.state.record_deals()[-1]
        for seat in range(n):
            obs = env.observe(seat)
            assert np.array_equal(obs[: plain.encoder.size], plain.observe(seat))
            block = obs[plain.encoder.size :].reshape(n, 53)
            for rel in range(n):
                actor = (seat + rel) % n
                played = {int(c) for c in np.flatnonzero(block[rel])}
                record = {parse_card(a["play"]).id for a in deal["actions"] if a.get("seat") == actor and "play" in a}
                assert played <= record
                if game != "unsun":  # Unsun's face-down plays stay hidden
                    assert played == record


@pytest.mark.parametrize("game", sorted({g for g, _ in CASES}))
def test_full_recall_rows_are_openspiels_information_state(game):
    """``recall="full"``: the rows of the deal's steps are those of OpenSpiel's information state
    tensor for the same deal and actions (perfect recall)."""
    pyspiel = pytest.importorskip("pyspiel")
    from kirifuda.env.openspiel import game_name

    env = GameEnv(game, recall="full")
    g = pyspiel.load_game(game_name(game))
    for seed in range(2):
        steps = _random_episode(env, seed, stop=25)
        if env.done:
            continue
        deal = env.state.record_deals()[-1]
        s = g.new_initial_state()
        for c in [parse_card(c).id for c in deal["rest"]] + [parse_card(c).id for h in deal["hands"] for c in h]:
            s.apply_action(c)
        # the env's actions again, in OpenSpiel
        replay = GameEnv(game)
        replay.reset(seed=seed)
        rng = random.Random(seed)
        for _ in range(steps):
            a = rng.choice(replay.legal_ids())
            replay.step(a)
            s.apply_action(a)
        base = env.encoder.size + env.num_players * 53
        for p in range(env.num_players):
            ours = env.observe(p)[base:]
            theirs = np.asarray(s.information_state_tensor(p))[g.obs_size :]
            assert np.array_equal(ours, theirs), p


@pytest.mark.parametrize(("game", "options"), CASES, ids=CASE_IDS)
def test_scaled_observations_stay_in_small_ranges(game, options):
    env = GameEnv(game, options, scaled=True, match=True)
    plain = GameEnv(game, options, match=True)
    top = 0.0
    for seed in range(2):
        env.reset(seed=seed)
        plain.reset(seed=seed)
        rng = random.Random(seed)
        for _ in range(150):
            if env.done:
                break
            for seat in range(env.num_players):
                obs = env.observe(seat)
                top = max(top, float(np.abs(obs).max()))
                raw = plain.observe(seat)
                assert np.array_equal(obs != 0, raw != 0)
            a = rng.choice(env.legal_ids())
            env.step(a)
            plain.step(a)
    assert top <= 4.0, top


def _claim(env: GameEnv) -> int:
    return env.catalog.family_start["claim"]


def test_claims_off_leaves_the_claim_out_of_the_mask():
    env = GameEnv("meitora", claims="off")
    for seed in range(5):
        env.reset(seed=seed)
        rng = random.Random(seed)
        while not env.done:
            assert _claim(env) not in env.legal_ids()
            if env.state.phase.value == "play":
                with pytest.raises(IllegalActionError, match="claims option"):
                    env.step(_claim(env))
            env.step(rng.choice(env.legal_ids()))
        assert not env.state.summary()["deals"][-1].get("failed_claim")


@pytest.mark.parametrize("options", [{}, {"claim_failure": "refuse"}], ids=json.dumps)
def test_claims_auto_claims_exactly_when_the_claim_holds(options):
    """Random agents: with ``claims="keep"`` many deals end in a failed claim (chombo); with
    ``"auto"`` none does, and deals end by a claim made for the seat when it holds."""
    keep, auto = GameEnv("meitora", options), GameEnv("meitora", options, claims="auto")
    failed = claimed = 0
    for seed in range(40):
        _random_episode(keep, seed)
        failed += bool(keep.state.summary()["deals"][-1].get("failed_claim"))
        _random_episode(auto, seed)
        deal = auto.state.record_deals()[-1]
        assert not deal.get("failed_claim")
        claimed += any("claim" in a for a in deal["actions"])
    if not options:
        assert failed > 10
    assert claimed > 0


def test_bad_learning_options_are_named():
    with pytest.raises(OptionError, match="recall='all'"):
        GameEnv("meitora", recall="all")
    with pytest.raises(OptionError, match="claims='never'"):
        GameEnv("meitora", claims="never")
