"""A baseline that learns: PPO on one seat against kirifuda's bots (学習の基準).

A single-file PPO in the manner of CleanRL's ``ppo.py`` (clipped surrogate, generalised
advantage estimation, advantage normalisation per minibatch, value loss, entropy bonus, Adam,
gradient clipping by global norm), in numpy on the CPU: the network is
:class:`kirifuda.env.policy.Policy` (a small MLP), its gradients written out by hand.  It trains
on the vector env (:func:`kirifuda.env.vector.vector_env`'s single-agent envs, one seat against
the chosen bots, Gymnasium's same-step autoreset) with the legal-action mask applied to the
logits, for a bounded number of env steps or seconds, and saves a policy file that
``policy:FILE`` seats anywhere a bot is accepted::

    python -m kirifuda.env.ppo meitora --opponents heuristic --seconds 1800 --out meitora-ppo.npz
    kirifuda tournament meitora --bots policy:meitora-ppo.npz,heuristic --deals 200

The learning curve (env steps, seconds, mean return of the episodes that ended, per update) is
kept in the file's ``meta`` (``training``) and printed as it goes.  Rewards are the deal scores
divided by the game's bound of a deal's score.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time

if "numpy" not in sys.modules:
    # one BLAS thread: the network's small products gain nothing from more, and on a busy
    # machine OpenBLAS's waiting threads cost more than the products themselves (measured:
    # 20.8 -> 12.0 s of CPU for 1,024 Meitora steps); it takes effect only before numpy loads
    for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ.setdefault(_name, "1")
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence

import numpy as np

try:
    import gymnasium  # type: ignore[import-untyped, import-not-found, unused-ignore]
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise ImportError("kirifuda.env.ppo needs Gymnasium: pip install 'kirifuda[pettingzoo]'") from exc

from .policy import Policy, masked_softmax
from .single import SingleAgentEnv

__all__ = ["PPOConfig", "train", "main"]


@dataclass
class PPOConfig:
    """The hyperparameters (CleanRL's defaults where they apply)."""

    num_envs: int = 8
    num_steps: int = 128
    """Env steps per env between updates."""
    epochs: int = 4
    minibatches: int = 4
    lr: float = 2.5e-4
    gamma: float = 0.99
    gae_lambda: float = 0.95
    clip: float = 0.2
    ent_coef: float = 0.01
    vf_coef: float = 0.5
    max_grad_norm: float = 0.5
    hidden: tuple[int, ...] = (128, 128)
    anneal_lr: bool = True
    env_kwargs: dict[str, Any] = field(default_factory=lambda: {"claims": "auto", "scaled": True})


class Adam:
    """Adam over a dict of arrays (eps 1e-5, as CleanRL's PPO)."""

    def __init__(self, params: Mapping[str, np.ndarray], lr: float) -> None:
        self.lr = lr
        self.t = 0
        self.m = {k: np.zeros_like(v) for k, v in params.items()}
        self.v = {k: np.zeros_like(v) for k, v in params.items()}

    def step(self, params: dict[str, np.ndarray], grads: Mapping[str, np.ndarray]) -> None:
        self.t += 1
        b1, b2, eps = 0.9, 0.999, 1e-5
        for k, g in grads.items():
            self.m[k] = b1 * self.m[k] + (1 - b1) * g
            self.v[k] = b2 * self.v[k] + (1 - b2) * g * g
            mh = self.m[k] / (1 - b1**self.t)
            vh = self.v[k] / (1 - b2**self.t)
            params[k] -= self.lr * mh / (np.sqrt(vh) + eps)


def losses_and_grads(
    policy: Policy,
    obs: np.ndarray,
    masks: np.ndarray,
    actions: np.ndarray,
    old_logp: np.ndarray,
    adv: np.ndarray,
    returns: np.ndarray,
    cfg: PPOConfig,
) -> tuple[dict[str, float], dict[str, np.ndarray]]:
    """PPO's loss on a minibatch and its gradient with respect to every parameter."""
    n = len(actions)
    logits, values, acts = policy.forward(obs)
    probs = masked_softmax(logits, masks)
    rows = np.arange(n)
    logp = np.log(probs[rows, actions] + 1e-12)
    adv = (adv - adv.mean()) / (adv.std() + 1e-8)
    ratio = np.exp(logp - old_logp)
    clipped = np.clip(ratio, 1 - cfg.clip, 1 + cfg.clip)
    pg_loss = float(np.mean(np.maximum(-adv * ratio, -adv * clipped)))
    inactive = ((adv > 0) & (ratio > 1 + cfg.clip)) | ((adv < 0) & (ratio < 1 - cfg.clip))
    g_logp = np.where(inactive, 0.0, -adv * ratio) / n
    plogp = np.where(probs > 0, probs * np.log(np.where(probs > 0, probs, 1.0)), 0.0)
    entropy = -plogp.sum(axis=1)
    v_loss = float(0.5 * np.mean((values - returns) ** 2))
    onehot = np.zeros_like(probs)
    onehot[rows, actions] = 1.0
    d_logits = g_logp[:, None] * (onehot - probs)
    # d(-c * mean H)/dz_j = c/n * p_j (log p_j + H)
    d_logits += cfg.ent_coef / n * (plogp + probs * entropy[:, None])
    d_values = cfg.vf_coef * (values - returns) / n
    p = policy.params
    h = acts[-1]
    grads: dict[str, np.ndarray] = {
        "pi_w": h.T @ d_logits,
        "pi_b": d_logits.sum(axis=0),
        "v_w": h.T @ d_values[:, None],
        "v_b": np.array([d_values.sum()]),
    }
    dh = d_logits @ p["pi_w"].T + d_values[:, None] @ p["v_w"].T
    for i in reversed(range(policy.depth)):
        dz = dh * (1.0 - acts[i + 1] ** 2)
        grads[f"w{i}"] = acts[i].T @ dz
        grads[f"b{i}"] = dz.sum(axis=0)
        if i:
            dh = dz @ p[f"w{i}"].T
    norm = float(np.sqrt(sum(float((g * g).sum()) for g in grads.values())))
    if norm > cfg.max_grad_norm:
        grads = {k: g * (cfg.max_grad_norm / norm) for k, g in grads.items()}
    stats = {
        "policy_loss": pg_loss,
        "value_loss": v_loss,
        "entropy": float(entropy.mean()),
        "approx_kl": float(np.mean((ratio - 1) - np.log(ratio))),
        "grad_norm": norm,
    }
    return stats, grads


def make_envs(game: str, options: Mapping[str, Any] | None, opponents: str, cfg: PPOConfig, seat: int = 0) -> Any:
    """The vector env PPO trains on (same-step autoreset: an ended env's observation is the
    next episode's first)."""

    def make() -> SingleAgentEnv:
        return SingleAgentEnv(game, dict(options or {}), seat=seat, opponents=opponents, **cfg.env_kwargs)

    return gymnasium.vector.SyncVectorEnv(
        [make for _ in range(cfg.num_envs)], autoreset_mode=gymnasium.vector.AutoresetMode.SAME_STEP
    )


def train(
    game: str,
    *,
    options: Mapping[str, Any] | None = None,
    opponents: str = "heuristic",
    steps: int | None = None,
    seconds: float | None = None,
    seed: int = 0,
    cfg: PPOConfig | None = None,
    policy: Policy | None = None,
    log: Callable[[dict[str, float]], None] | None = None,
) -> Policy:
    """Train a policy for seat 0 of ``game`` against ``opponents`` for at most ``steps`` env
    steps (the agent's decisions, over all envs) and at most ``seconds``; the policy, with its
    learning curve in ``meta["training"]``."""
    if steps is None and seconds is None:
        raise ValueError("give steps or seconds (or both): training is bounded")
    cfg = cfg or PPOConfig()
    envs = make_envs(game, options, opponents, cfg)
    probe = envs.envs[0].core
    if policy is None:
        policy = Policy.new(probe, cfg.hidden, seed=seed)
    scale = 1.0 / float(probe.spec.deal_score or 1)
    rng = np.random.default_rng(seed)
    pick = random.Random(seed)
    opt = Adam(policy.params, cfg.lr)
    E, T = cfg.num_envs, cfg.num_steps
    size = probe.obs_size
    n_actions = probe.catalog.size
    obs_buf = np.zeros((T, E, size))
    mask_buf = np.zeros((T, E, n_actions), dtype=np.int8)
    act_buf = np.zeros((T, E), dtype=np.int64)
    logp_buf = np.zeros((T, E))
    rew_buf = np.zeros((T, E))
    done_buf = np.zeros((T, E))
    val_buf = np.zeros((T, E))
    obs, _ = envs.reset(seed=seed)
    ep_return = np.zeros(E)
    finished: list[float] = []
    curve: list[list[float]] = []
    total = 0
    start = time.perf_counter()
    limit_updates = None if steps is None else max(1, steps // (E * T))
    update = 0
    while True:
        elapsed = time.perf_counter() - start
        if (limit_updates is not None and update >= limit_updates) or (seconds is not None and elapsed >= seconds):
            break
        if cfg.anneal_lr and limit_updates is not None:
            opt.lr = cfg.lr * (1.0 - update / limit_updates)
        for t in range(T):
            o, m = obs["observation"], obs["action_mask"]
            logits, values, _ = policy.forward(o)
            probs = masked_softmax(logits, m)
            actions = np.array([int(rng.choice(n_actions, p=p)) for p in probs])
            obs_buf[t], mask_buf[t], act_buf[t], val_buf[t] = o, m, actions, values
            logp_buf[t] = np.log(probs[np.arange(E), actions] + 1e-12)
            obs, reward, term, trunc, _ = envs.step(actions)
            ended = np.logical_or(term, trunc)
            rew_buf[t] = reward * scale
            done_buf[t] = ended
            ep_return += reward
            for i in np.nonzero(ended)[0]:
                finished.append(float(ep_return[i]))
                ep_return[i] = 0.0
        total += E * T
        next_value = policy.forward(obs["observation"])[1]
        adv = np.zeros((T, E))
        last = np.zeros(E)
        for t in reversed(range(T)):
            nv = next_value if t == T - 1 else val_buf[t + 1]
            nonterminal = 1.0 - done_buf[t]
            delta = rew_buf[t] + cfg.gamma * nv * nonterminal - val_buf[t]
            last = delta + cfg.gamma * cfg.gae_lambda * nonterminal * last
            adv[t] = last
        ret = adv + val_buf
        b_obs, b_mask = obs_buf.reshape(T * E, size), mask_buf.reshape(T * E, n_actions)
        b_act, b_logp = act_buf.reshape(-1), logp_buf.reshape(-1)
        b_adv, b_ret = adv.reshape(-1), ret.reshape(-1)
        idx = list(range(T * E))
        mb = (T * E) // cfg.minibatches
        stats: dict[str, float] = {}
        for _ in range(cfg.epochs):
            pick.shuffle(idx)
            for s in range(0, T * E, mb):
                j = np.array(idx[s : s + mb])
                stats, grads = losses_and_grads(
                    policy, b_obs[j], b_mask[j], b_act[j], b_logp[j], b_adv[j], b_ret[j], cfg
                )
                opt.step(policy.params, grads)
        update += 1
        recent = finished[-200:]
        point = {
            "update": float(update),
            "steps": float(total),
            "seconds": round(time.perf_counter() - start, 1),
            "episodes": float(len(finished)),
            "mean_return": round(float(np.mean(recent)), 3) if recent else float("nan"),
            **stats,
        }
        curve.append([point["steps"], point["seconds"], point["mean_return"]])
        if log is not None:
            log(point)
    envs.close()
    policy.meta["training"] = {
        "algorithm": "ppo",
        "opponents": opponents,
        "seat": 0,
        "seed": seed,
        "steps": total,
        "seconds": round(time.perf_counter() - start, 1),
        "episodes": len(finished),
        "curve": [[s, sec, (None if r != r else r)] for s, sec, r in curve],
        "config": {k: (list(v) if isinstance(v, tuple) else v) for k, v in vars(cfg).items()},
    }
    return policy


def main(argv: Sequence[str] | None = None) -> None:
    """``python -m kirifuda.env.ppo GAME --out FILE``: train and save a policy."""
    import json

    p = argparse.ArgumentParser(
        prog="python -m kirifuda.env.ppo",
        description="PPO on one seat of a kirifuda game against bots; saves a policy file",
    )
    p.add_argument("game")
    p.add_argument("--options", default="{}", help="the game's options as JSON")
    p.add_argument("--opponents", default="heuristic", help="the other seats' bot level (default heuristic)")
    p.add_argument("--steps", type=int, default=None, help="env steps to train for (the agent's decisions)")
    p.add_argument("--seconds", type=float, default=None, help="seconds to train for at most")
    p.add_argument("--envs", type=int, default=8, help="envs stepped together (default 8)")
    p.add_argument("--hidden", default="128,128", help="hidden layer sizes (default 128,128)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", required=True, help="the policy file to write (.npz)")
    args = p.parse_args(argv)
    if args.steps is None and args.seconds is None:
        p.error("give --steps or --seconds: training is bounded")
    cfg = PPOConfig(num_envs=args.envs, hidden=tuple(int(x) for x in args.hidden.split(",") if x))

    def log(point: dict[str, float]) -> None:
        print(
            f"update {int(point['update']):4d}  steps {int(point['steps']):8d}  "
            f"{point['seconds']:7.1f} s  mean return {point['mean_return']:7.3f}  "
            f"entropy {point['entropy']:.3f}  kl {point['approx_kl']:.4f}",
            flush=True,
        )

    policy = train(
        args.game,
        options=json.loads(args.options),
        opponents=args.opponents,
        steps=args.steps,
        seconds=args.seconds,
        seed=args.seed,
        cfg=cfg,
        log=log,
    )
    policy.save(args.out)
    print(f"saved {args.out}")


if __name__ == "__main__":
    main()
