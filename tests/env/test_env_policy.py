"""Trained policies: the policy file, the ``policy:FILE`` bot wherever a bot is accepted, and the
PPO baseline (its gradients against finite differences, a short training run)."""

from __future__ import annotations

import json
import random

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from kirifuda.bots import make_bot  # noqa: E402
from kirifuda.env.core import GameEnv  # noqa: E402
from kirifuda.env.policy import Policy, PolicyBot, masked_softmax  # noqa: E402
from kirifuda.env.ppo import PPOConfig, losses_and_grads  # noqa: E402
from kirifuda.errors import OptionError  # noqa: E402
from kirifuda.games import GAMES  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


def tiny_policy(tmp_path, game: str, options=None, seed: int = 0, **env_kwargs):
    env = GameEnv(game, options, **env_kwargs)
    policy = Policy.new(env, hidden=(8,), seed=seed)
    # random weights everywhere, so that the policy's choices vary with what it sees
    rng = np.random.default_rng(seed)
    for k in policy.params:
        policy.params[k] = rng.normal(0, 1.0, policy.params[k].shape)
    path = tmp_path / f"{game}-{seed}.npz"
    policy.save(path)
    return path, policy


def test_a_policy_file_reads_back_as_it_was_written(tmp_path):
    path, policy = tiny_policy(tmp_path, "meitora", claims="auto", scaled=True)
    again = Policy.load(path)
    assert again.meta == json.loads(json.dumps(policy.meta))
    assert again.meta["game"] == "meitora" and again.meta["claims"] == "auto" and again.meta["scaled"]
    env = GameEnv("meitora", claims="auto", scaled=True)
    env.reset(seed=4)
    obs, mask = env.observe(env.to_act), env.legal_mask()
    np.testing.assert_allclose(again.probabilities(obs, mask), policy.probabilities(obs, mask), rtol=1e-5, atol=1e-6)
    assert again.act(obs, mask) == policy.act(obs, mask)
    assert mask[again.act(obs, mask)] == 1


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_policy_bot_sees_what_the_env_shows_and_plays_whole_deals(tmp_path, game):
    """At every decision of the policy's seat, the bot's observation and mask are the env's (a
    multi-card discard card by card), and its action is the policy's choice on them."""
    path, policy = tiny_policy(tmp_path, game, scaled=True, claims="off")
    bot = make_bot(f"policy:{path}", game)
    assert isinstance(bot, PolicyBot) and bot.name == f"policy:{path}"
    env = GameEnv(game, scaled=True, claims="off")
    for seed in range(3):
        env.reset(seed=seed)
        decisions = 0
        while not env.done:
            seat = env.to_act
            view = env.view(seat)
            if not env.pending(seat):
                chosen = bot.choose(view, random.Random(0))
                assert chosen in view.legal_actions
            obs, mask = env.observe(seat), env.legal_mask()
            np.testing.assert_array_equal(bot.observation(view, env.pending(seat)), obs)
            index = policy.act(obs, mask)
            assert mask[index] == 1
            env.step(index)
            decisions += 1
        assert decisions > 0


def test_a_policy_plays_a_tournament_through_the_cli(tmp_path, capsys):
    from kirifuda.cli import main

    path, _ = tiny_policy(tmp_path, "meitora", claims="auto", scaled=True)
    main(["tournament", "meitora", "--bots", f"policy:{path},heuristic", "--deals", "2", "--out", str(tmp_path / "t")])
    out = capsys.readouterr().out
    assert f"policy:{path}" in out and "points/deal" in out
    summary = json.loads((tmp_path / "t" / "summary.json").read_text())
    assert summary["deals"] == 2


def test_a_policy_bot_names_what_is_wrong(tmp_path, monkeypatch):
    path, _ = tiny_policy(tmp_path, "meitora")
    with pytest.raises(OptionError, match="no policy file"):
        make_bot(f"policy:{tmp_path / 'missing.npz'}", "meitora")
    with pytest.raises(OptionError, match="names a policy file"):
        make_bot("policy:", "meitora")
    junk = tmp_path / "junk.npz"
    junk.write_text("not a policy")
    with pytest.raises(OptionError, match="not a kirifuda policy file"):
        make_bot(f"policy:{junk}", "meitora")
    with pytest.raises(OptionError, match="plays 'meitora', not 'napoleon'"):
        make_bot(f"policy:{path}", "napoleon")
    other = tmp_path / "other.npz"
    np.savez(other, meta=np.array(json.dumps({"format": "something-else/9"})))
    with pytest.raises(OptionError, match="format"):
        make_bot(f"policy:{other}", "meitora")
    # a table of other options than the policy's
    bot = make_bot(f"policy:{path}", "meitora")
    env = GameEnv("meitora", {"target": 5})
    env.reset(seed=0)
    with pytest.raises(OptionError, match="options"):
        bot.choose(env.view(env.to_act), random.Random(0))
    # a policy directory keeps reads inside it
    monkeypatch.setenv("KIRIFUDA_POLICY_DIR", str(tmp_path / "policies"))
    (tmp_path / "policies").mkdir()
    with pytest.raises(OptionError, match="outside"):
        make_bot(f"policy:../{path.name}", "meitora")
    (tmp_path / "policies" / "p.npz").write_bytes(path.read_bytes())
    assert isinstance(make_bot("policy:p.npz", "meitora"), PolicyBot)


def test_ppo_gradients_match_finite_differences():
    env = GameEnv("napoleon", claims="auto", scaled=True)
    policy = Policy.new(env, (6, 5), seed=1)
    rng = np.random.default_rng(0)
    for k in policy.params:
        policy.params[k] = policy.params[k] + rng.normal(0, 0.3, policy.params[k].shape)
    n = 7
    obs = rng.normal(size=(n, env.obs_size))
    masks = (rng.random((n, env.catalog.size)) < 0.3).astype(np.int8)
    masks[:, 0] = 1
    probs = masked_softmax(policy.forward(obs)[0], masks)
    acts = np.array([rng.choice(env.catalog.size, p=p) for p in probs])
    old = np.log(probs[np.arange(n), acts]) + rng.normal(0, 0.1, n)
    adv, ret = rng.normal(size=n), rng.normal(size=n)
    cfg = PPOConfig(max_grad_norm=1e9, ent_coef=0.05)

    def loss() -> float:
        s, _ = losses_and_grads(policy, obs, masks, acts, old, adv, ret, cfg)
        return s["policy_loss"] - cfg.ent_coef * s["entropy"] + cfg.vf_coef * s["value_loss"]

    _, grads = losses_and_grads(policy, obs, masks, acts, old, adv, ret, cfg)
    for name, value in policy.params.items():
        for _ in range(4):
            i = tuple(int(rng.integers(0, s)) for s in value.shape)
            keep = value[i]
            value[i] = keep + 1e-6
            up = loss()
            value[i] = keep - 1e-6
            down = loss()
            value[i] = keep
            assert (up - down) / 2e-6 == pytest.approx(grads[name][i], rel=1e-4, abs=1e-7), (name, i)


def test_a_short_ppo_run_saves_a_policy_that_plays(tmp_path):
    from kirifuda.env.ppo import main

    out = tmp_path / "ppo.npz"
    main(["meitora", "--steps", "1024", "--envs", "4", "--hidden", "16", "--seed", "3", "--out", str(out)])
    policy = Policy.load(out)
    training = policy.meta["training"]
    assert training["steps"] == 1024 and training["opponents"] == "heuristic"
    assert len(training["curve"]) == 2 and training["episodes"] > 0
    before = Policy.new(GameEnv("meitora", claims="auto", scaled=True), (16,), seed=3)
    assert any(not np.allclose(before.params[k], policy.params[k], atol=1e-6) for k in before.params)
    bot = make_bot(f"policy:{out}", "meitora")
    env = GameEnv("meitora")
    env.reset(seed=9)
    assert bot.choose(env.view(env.to_act), random.Random(0)) in env.view(env.to_act).legal_actions
