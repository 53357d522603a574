"""Train a card-play policy against kirifuda's ``heuristic`` bot (PyTorch on the CPU).

A single-file recipe in two stages, then an export to kirifuda's policy file:

1. **Behaviour cloning** of a teacher bot (``search`` by default): deals are played with the
   teacher at the agent's seats (0 and 2: one pair) and ``heuristic`` at the others, every
   seat bidding and discarding as ``heuristic`` does; each card decision of the teacher is kept
   (the seat's observation, legal mask, the teacher's card, and the pair's score of the deal),
   and the network learns the teacher's cards (cross-entropy over the legal ones) and the
   deal's score (its value head).
2. **PPO** against ``heuristic`` (clipped surrogate, GAE, advantage normalisation, value loss,
   entropy bonus, Adam, gradient clipping, in the manner of CleanRL's ``ppo.py``) on Gymnasium's
   vector env of :class:`kirifuda.env.single.SingleAgentEnv`: the agent plays seat 0's cards,
   ``heuristic`` bids for it and plays the other three seats.  Rewards are the game's own
   score of the deal, divided by its bound.

Observations have the seat's memory of the deal (``recall="cards"``: every card seen played),
the claim is left to the env (``claims="auto"``), numbers are scaled.  The network is
:class:`kirifuda.env.policy.Policy`'s MLP (tanh hidden layers, a logit head over the game's
actions, a value head); its weights are written as that ``.npz`` policy file (never unpickled),
so ``policy:FILE`` plays it without torch, bidding by its ``delegate`` (``heuristic``)::

    pip install -e '.[train]'
    nice python tools/train_policy.py --out data/policies/meitora-play.npz
    kirifuda tournament meitora --bots policy:data/policies/meitora-play.npz,heuristic --deals 1000

Every stage is bounded by counts (``--bc-deals``, ``--ppo-steps``) and optionally by seconds;
a seed makes a run on one worker reproducible.  The learning curve (cloning: the validation
accuracy and loss per epoch; PPO: mean return of the last 200 deals per update) is printed and
kept in the file's ``meta["training"]``.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import random
import resource
import sys
import time
from typing import Any, Callable, Iterator, Sequence

for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")

import numpy as np  # noqa: E402

try:
    import torch  # noqa: E402
    from torch import nn  # noqa: E402
except ImportError:  # pragma: no cover - the message is the point
    sys.exit("tools/train_policy.py needs PyTorch: pip install -e '.[train]'")

import gymnasium  # noqa: E402

from kirifuda.env.bots import BotAgent  # noqa: E402
from kirifuda.env.core import GameEnv  # noqa: E402
from kirifuda.env.policy import Policy  # noqa: E402
from kirifuda.env.single import SingleAgentEnv  # noqa: E402

ENV_OPTIONS: dict[str, Any] = {"claims": "auto", "scaled": True, "recall": "cards"}
"""The env options of training and of the policy file (its bot keeps the same memory)."""
PHASES = ("play",)
"""The agent decides card play; the seat's other decisions are the delegate's."""


# --------------------------------------------------------------------------------------------
# The network


class Net(nn.Module):  # type: ignore[misc]
    """:class:`kirifuda.env.policy.Policy`'s network in torch: tanh hidden layers, a logit head
    and a value head on the last hidden layer."""

    def __init__(self, size: int, n_actions: int, hidden: Sequence[int]) -> None:
        super().__init__()
        layers: list[nn.Module] = []
        last = size
        for h in hidden:
            layer = nn.Linear(last, h)
            nn.init.orthogonal_(layer.weight, np.sqrt(2.0))
            nn.init.zeros_(layer.bias)
            layers += [layer, nn.Tanh()]
            last = h
        self.trunk = nn.Sequential(*layers)
        self.pi = nn.Linear(last, n_actions)
        nn.init.orthogonal_(self.pi.weight, 0.01)
        nn.init.zeros_(self.pi.bias)
        self.v = nn.Linear(last, 1)
        nn.init.orthogonal_(self.v.weight, 1.0)
        nn.init.zeros_(self.v.bias)

    def forward(self, obs: torch.Tensor, mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Masked logits (illegal actions at a large negative number) and values."""
        h = self.trunk(obs)
        logits = self.pi(h).masked_fill(mask == 0, -1e9)
        return logits, self.v(h).squeeze(-1)


def export(net: Net, env: GameEnv, hidden: Sequence[int], delegate: str, training: dict[str, Any]) -> Policy:
    """The kirifuda policy of ``net`` (weights transposed to ``x @ w``)."""
    policy = Policy.new(env, hidden, phases=PHASES, delegate=delegate)
    linears = [m for m in net.trunk if isinstance(m, nn.Linear)]
    params: dict[str, np.ndarray] = {}
    for i, layer in enumerate(linears):
        params[f"w{i}"] = layer.weight.detach().double().numpy().T.copy()
        params[f"b{i}"] = layer.bias.detach().double().numpy().copy()
    params["pi_w"] = net.pi.weight.detach().double().numpy().T.copy()
    params["pi_b"] = net.pi.bias.detach().double().numpy().copy()
    params["v_w"] = net.v.weight.detach().double().numpy().T.copy()
    params["v_b"] = net.v.bias.detach().double().numpy().copy()
    assert set(params) == set(policy.params)
    policy.params = params
    policy.meta["training"] = training
    return policy


def load_into(net: Net, policy: Policy, env: GameEnv) -> None:
    """Set ``net``'s weights from a policy file written by :func:`export` (to go on training)."""
    if policy.meta.get("env") != env.version or policy.meta.get("recall") != ENV_OPTIONS["recall"]:
        raise SystemExit(f"the policy was trained on {policy.meta.get('env')!r}, this run's env is {env.version!r}")
    linears = [m for m in net.trunk if isinstance(m, nn.Linear)]
    pairs = [(layer, f"w{i}", f"b{i}") for i, layer in enumerate(linears)]
    pairs += [(net.pi, "pi_w", "pi_b"), (net.v, "v_w", "v_b")]
    with torch.no_grad():
        for layer, w, b in pairs:
            if w not in policy.params or policy.params[w].shape != tuple(layer.weight.shape[::-1]):
                raise SystemExit(f"the policy's layers differ from --hidden ({w})")
            layer.weight.copy_(torch.from_numpy(policy.params[w].T.copy()))
            layer.bias.copy_(torch.from_numpy(policy.params[b].copy()))


# --------------------------------------------------------------------------------------------
# Stage 1: the teacher's card decisions


def show(env: GameEnv, others: list[BotAgent], teachers: dict[int, BotAgent]) -> None:
    """Every bot sees its seat's view after an action (the memory a player keeps)."""
    if env.done:
        return
    for s, bot in enumerate(others):
        view = env.view(s)
        bot.observe(view)
        if s in teachers:
            teachers[s].observe(view)


def play_deals(job: tuple[str, str, str, int, int, int]) -> dict[str, np.ndarray]:
    """Deals ``first … first + count − 1`` of ``seed`` with ``teacher`` playing the cards of
    seats 0 and 2, ``delegate`` everything else; the teacher's card decisions."""
    game, teacher, delegate, seed, first, count = job
    env = GameEnv(game, first="random", **ENV_OPTIONS)
    n = env.num_players
    students = {s for s in range(n) if env.units[s] == env.units[0]}
    obs: list[np.ndarray] = []
    masks: list[np.ndarray] = []
    actions: list[int] = []
    returns: list[float] = []
    scale = 1.0 / float(env.spec.deal_score or 1)
    for deal in range(first, first + count):
        rng = random.Random(f"{seed}:{deal}")
        others = [BotAgent(game, delegate, seed=rng.randrange(1 << 31), masked_out=env.masked_out) for _ in range(n)]
        teachers = {
            s: BotAgent(game, teacher, seed=rng.randrange(1 << 31), masked_out=env.masked_out) for s in students
        }
        env.reset(rng.randrange(1 << 31))
        show(env, others, teachers)
        start = len(actions)
        seats: list[int] = []
        reward: list[float] | None = None
        while not env.done:
            s = env.to_act
            assert s is not None
            view = env.view(s)
            if s in teachers and view.phase in PHASES and not env.pending(s):
                a = teachers[s].act(view)
                obs.append(env.observe(s).astype(np.float16))
                masks.append(env.legal_mask().astype(np.bool_))
                actions.append(a)
                seats.append(s)
            else:
                a = others[s].act(view, env.pending(s))
            got = env.step(a)
            show(env, others, teachers)
            if got is not None:
                reward = got
        assert reward is not None
        returns.extend(reward[s] * scale for s in seats)
        assert len(returns) == len(actions) == start + len(seats)
    size, n_actions = env.obs_size, env.catalog.size
    return {
        "obs": np.array(obs, dtype=np.float16).reshape(-1, size),
        "mask": np.array(masks, dtype=np.bool_).reshape(-1, n_actions),
        "action": np.array(actions, dtype=np.int64),
        "ret": np.array(returns, dtype=np.float32),
    }


def collect(
    game: str,
    teacher: str,
    delegate: str,
    deals: int,
    seed: int,
    workers: int,
    seconds: float | None,
    log: Callable[[str], None],
) -> tuple[dict[str, np.ndarray], int]:
    """The teacher's decisions over ``deals`` deals (fewer if ``seconds`` run out: whole
    chunks of 10 deals, in order), on ``workers`` processes; and the deals played."""
    chunk = 10
    jobs = [(game, teacher, delegate, seed, i, min(chunk, deals - i)) for i in range(0, deals, chunk)]
    parts: list[dict[str, np.ndarray]] = []
    start = time.perf_counter()
    played = 0

    def results() -> Iterator[dict[str, np.ndarray]]:
        if workers <= 1:
            for job in jobs:
                yield play_deals(job)
            return
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            yield from pool.imap(play_deals, jobs)

    for job, part in zip(jobs, results()):
        parts.append(part)
        played += int(job[5])
        if played % 100 == 0 or played == deals:
            n = sum(len(p["action"]) for p in parts)
            log(f"cloning data: {played} deals, {n} decisions, {time.perf_counter() - start:.0f} s")
        if seconds is not None and time.perf_counter() - start > seconds:
            break
    data = {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}
    return data, played


def clone(
    net: Net,
    data: dict[str, np.ndarray],
    epochs: int,
    lr: float,
    batch: int,
    seed: int,
    log: Callable[[str], None],
) -> list[list[float]]:
    """Cross-entropy on the teacher's cards and squared error on the deal's score; 10% of the
    decisions held out.  The curve: per epoch, the held-out accuracy and the two losses."""
    n = len(data["action"])
    order = np.random.default_rng(seed).permutation(n)
    held = order[: max(1, n // 10)]
    train = order[len(held) :]
    obs = torch.from_numpy(data["obs"].astype(np.float32))
    mask = torch.from_numpy(data["mask"])
    act = torch.from_numpy(data["action"])
    ret = torch.from_numpy(data["ret"])
    opt = torch.optim.Adam(net.parameters(), lr=lr, eps=1e-5)
    gen = torch.Generator().manual_seed(seed)
    curve: list[list[float]] = []
    for epoch in range(1, epochs + 1):
        net.train()
        perm = torch.from_numpy(train)[torch.randperm(len(train), generator=gen)]
        for s in range(0, len(perm), batch):
            j = perm[s : s + batch]
            logits, values = net(obs[j], mask[j])
            loss = nn.functional.cross_entropy(logits, act[j]) + 0.5 * ((values - ret[j]) ** 2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
        with torch.no_grad():
            h = torch.from_numpy(held)
            logits, values = net(obs[h], mask[h])
            acc = float((logits.argmax(-1) == act[h]).float().mean())
            ce = float(nn.functional.cross_entropy(logits, act[h]))
            mse = float(((values - ret[h]) ** 2).mean())
        curve.append([epoch, round(acc, 4), round(ce, 4), round(mse, 4)])
        log(f"cloning epoch {epoch:3d}  held-out accuracy {acc:.3f}  cross-entropy {ce:.3f}  value mse {mse:.4f}")
    return curve


# --------------------------------------------------------------------------------------------
# Stage 2: PPO against the bots


def make_envs(game: str, opponents: str, delegate: str, num_envs: int) -> Any:
    def make() -> SingleAgentEnv:
        return SingleAgentEnv(game, opponents=opponents, phases=PHASES, delegate=delegate, **ENV_OPTIONS)

    return gymnasium.vector.SyncVectorEnv(
        [make for _ in range(num_envs)], autoreset_mode=gymnasium.vector.AutoresetMode.SAME_STEP
    )


def ppo(
    net: Net,
    game: str,
    opponents: str,
    delegate: str,
    steps: int,
    seconds: float | None,
    seed: int,
    cfg: dict[str, float],
    log: Callable[[str], None],
) -> tuple[list[list[float]], int, int]:
    """PPO for ``steps`` agent decisions (or ``seconds``); the curve (steps, seconds, mean
    return of the last 200 deals), the steps taken and the deals played."""
    E, T = int(cfg["num_envs"]), int(cfg["num_steps"])
    envs = make_envs(game, opponents, delegate, E)
    probe = envs.envs[0].core
    scale = 1.0 / float(probe.spec.deal_score or 1)
    opt = torch.optim.Adam(net.parameters(), lr=cfg["lr"], eps=1e-5)
    gen = torch.Generator().manual_seed(seed)
    size, n_actions = probe.obs_size, probe.catalog.size
    obs_buf = torch.zeros((T, E, size))
    mask_buf = torch.zeros((T, E, n_actions), dtype=torch.bool)
    act_buf = torch.zeros((T, E), dtype=torch.int64)
    logp_buf = torch.zeros((T, E))
    rew_buf = torch.zeros((T, E))
    done_buf = torch.zeros((T, E))
    val_buf = torch.zeros((T, E))
    o, _ = envs.reset(seed=seed)
    ep_return = np.zeros(E)
    finished: list[float] = []
    curve: list[list[float]] = []
    updates = max(1, steps // (E * T))
    start = time.perf_counter()
    total = 0
    for update in range(updates):
        if seconds is not None and time.perf_counter() - start >= seconds:
            break
        for g in opt.param_groups:
            g["lr"] = cfg["lr"] * (1.0 - update / updates)
        net.eval()
        for t in range(T):
            x = torch.from_numpy(o["observation"])
            m = torch.from_numpy(o["action_mask"].astype(np.bool_))
            with torch.no_grad():
                logits, values = net(x, m)
                dist = torch.distributions.Categorical(logits=logits)
                a = dist.sample()  # follows torch.manual_seed
            obs_buf[t], mask_buf[t], act_buf[t], val_buf[t] = x, m, a, values
            logp_buf[t] = dist.log_prob(a)
            o, reward, term, trunc, _ = envs.step(a.numpy())
            ended = np.logical_or(term, trunc)
            rew_buf[t] = torch.from_numpy(np.asarray(reward, dtype=np.float32) * scale)
            done_buf[t] = torch.from_numpy(ended.astype(np.float32))
            ep_return += reward
            for i in np.nonzero(ended)[0]:
                finished.append(float(ep_return[i]))
                ep_return[i] = 0.0
        total += E * T
        with torch.no_grad():
            next_value = net(torch.from_numpy(o["observation"]), torch.from_numpy(o["action_mask"].astype(np.bool_)))[1]
        adv = torch.zeros((T, E))
        last = torch.zeros(E)
        for t in reversed(range(T)):
            nv = next_value if t == T - 1 else val_buf[t + 1]
            nonterminal = 1.0 - done_buf[t]
            delta = rew_buf[t] + cfg["gamma"] * nv * nonterminal - val_buf[t]
            last = delta + cfg["gamma"] * cfg["gae_lambda"] * nonterminal * last
            adv[t] = last
        ret = adv + val_buf
        b_obs, b_mask = obs_buf.reshape(T * E, size), mask_buf.reshape(T * E, n_actions)
        b_act, b_logp = act_buf.reshape(-1), logp_buf.reshape(-1)
        b_adv, b_ret = adv.reshape(-1), ret.reshape(-1)
        mb = (T * E) // int(cfg["minibatches"])
        net.train()
        kl = 0.0
        for _ in range(int(cfg["epochs"])):
            perm = torch.randperm(T * E, generator=gen)
            for s in range(0, T * E, mb):
                j = perm[s : s + mb]
                logits, values = net(b_obs[j], b_mask[j])
                dist = torch.distributions.Categorical(logits=logits)
                logp = dist.log_prob(b_act[j])
                ratio = (logp - b_logp[j]).exp()
                a_j = b_adv[j]
                a_j = (a_j - a_j.mean()) / (a_j.std() + 1e-8)
                pg = torch.max(-a_j * ratio, -a_j * ratio.clamp(1 - cfg["clip"], 1 + cfg["clip"])).mean()
                v_loss = 0.5 * ((values - b_ret[j]) ** 2).mean()
                probs = dist.probs
                entropy = -(probs * torch.log(probs.clamp_min(1e-12))).sum(-1).mean()
                loss = pg + cfg["vf_coef"] * v_loss - cfg["ent_coef"] * entropy
                opt.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(net.parameters(), cfg["max_grad_norm"])
                opt.step()
                with torch.no_grad():
                    kl = float(((ratio - 1) - (logp - b_logp[j])).mean())
        recent = finished[-200:]
        mean = round(float(np.mean(recent)), 3) if recent else float("nan")
        sec = round(time.perf_counter() - start, 1)
        curve.append([float(total), sec, mean])
        log(f"ppo update {update + 1:4d}  steps {total:8d}  {sec:7.1f} s  mean return {mean:7.3f}  kl {kl:.4f}")
    envs.close()
    return curve, total, len(finished)


# --------------------------------------------------------------------------------------------


def cpu_seconds() -> float:
    """The CPU time of this process and of its finished workers (user and system)."""
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def main(argv: Sequence[str] | None = None) -> None:
    p = argparse.ArgumentParser(
        prog="tools/train_policy.py",
        description="behaviour cloning of a teacher bot, then PPO against heuristic; writes a policy file",
    )
    p.add_argument("--game", default="meitora")
    p.add_argument("--teacher", default="search", help="the bot whose card play is cloned (default search)")
    p.add_argument("--opponents", default="heuristic", help="the bots PPO plays against (default heuristic)")
    p.add_argument("--delegate", default="heuristic", help="the bot of the seat's bidding (default heuristic)")
    p.add_argument("--bc-deals", type=int, default=2000, help="deals of the teacher's play to clone")
    p.add_argument("--bc-seconds", type=float, default=None, help="stop collecting after this many seconds")
    p.add_argument("--bc-epochs", type=int, default=30)
    p.add_argument("--ppo-steps", type=int, default=100_000, help="PPO agent decisions (0: cloning only)")
    p.add_argument("--ppo-seconds", type=float, default=None)
    p.add_argument("--ppo-lr", type=float, default=1e-4)
    p.add_argument("--envs", type=int, default=8)
    p.add_argument("--hidden", default="256,256")
    p.add_argument("--workers", type=int, default=1, help="processes collecting the teacher's play")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", required=True, help="the policy file to write (.npz)")
    p.add_argument("--bc-out", default=None, help="also write the cloned policy, before PPO, here")
    p.add_argument("--init", default=None, help="start from this policy file (same --hidden) instead of afresh")
    p.add_argument("--save-data", default=None, help="write the teacher's decisions collected here (.npz)")
    p.add_argument("--data", nargs="*", default=[], help="decisions saved by earlier runs to clone as well")
    args = p.parse_args(argv)
    torch.set_num_threads(1)
    torch.manual_seed(args.seed)
    hidden = tuple(int(x) for x in args.hidden.split(",") if x)
    wall0 = time.perf_counter()

    def log(line: str) -> None:
        print(line, flush=True)

    env = GameEnv(args.game, **ENV_OPTIONS)
    net = Net(env.obs_size, env.catalog.size, hidden)
    if args.init:
        load_into(net, Policy.load(args.init), env)
        log(f"starting from {args.init}")
    parts: list[dict[str, np.ndarray]] = []
    played = 0
    if args.bc_deals > 0:
        fresh, played = collect(
            args.game, args.teacher, args.delegate, args.bc_deals, args.seed, args.workers, args.bc_seconds, log
        )
        parts.append(fresh)
        if args.save_data:
            np.savez_compressed(args.save_data, deals=np.array(played), **fresh)
            log(f"saved the decisions to {args.save_data}")
    for name in args.data:  # decisions collected by earlier runs (arrays only: never unpickled)
        with np.load(name, allow_pickle=False) as saved:
            parts.append({k: saved[k] for k in ("obs", "mask", "action", "ret")})
            played += int(saved["deals"])
    if not parts and not args.init:
        p.error("nothing to clone: give --bc-deals or --data (or --init to go on with PPO)")
    data = {k: np.concatenate([part[k] for part in parts]) for k in parts[0]} if parts else {}
    del parts
    decisions = len(data["action"]) if data else 0
    bc_curve = clone(net, data, args.bc_epochs, 1e-3, 256, args.seed, log) if data else []
    if args.bc_epochs == 0 and args.ppo_steps == 0:
        return
    del data
    cloning = {"deals": played, "decisions": decisions, "epochs": args.bc_epochs, "curve": bc_curve}
    if args.bc_out:
        export(net, env, hidden, args.delegate, {"algorithm": "behaviour cloning", "cloning": cloning}).save(
            args.bc_out
        )
        log(f"saved {args.bc_out}")
    cfg: dict[str, float] = {
        "num_envs": args.envs,
        "num_steps": 128,
        "epochs": 4,
        "minibatches": 4,
        "lr": args.ppo_lr,
        "gamma": 1.0,
        "gae_lambda": 0.95,
        "clip": 0.1,
        "ent_coef": 0.003,
        "vf_coef": 0.5,
        "max_grad_norm": 0.5,
    }
    ppo_curve: list[list[float]] = []
    steps = episodes = 0
    if args.ppo_steps > 0:
        ppo_curve, steps, episodes = ppo(
            net, args.game, args.opponents, args.delegate, args.ppo_steps, args.ppo_seconds, args.seed, cfg, log
        )
    training = {
        "algorithm": "behaviour cloning, then ppo",
        "script": "tools/train_policy.py",
        "teacher": args.teacher,
        "opponents": args.opponents,
        "delegate": args.delegate,
        "seed": args.seed,
        "cloning": cloning,
        "ppo": {"steps": steps, "episodes": episodes, "config": cfg, "curve": ppo_curve},
        "steps": steps,
        "episodes": episodes,
        "curve": [[s, sec, (None if r != r else r)] for s, sec, r in ppo_curve],
        "seconds": round(time.perf_counter() - wall0, 1),
        "cpu_seconds": round(cpu_seconds(), 1),
    }
    policy = export(net, env, hidden, args.delegate, training)
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    policy.save(args.out)
    log(f"saved {args.out} ({json.dumps({k: training[k] for k in ('seconds', 'cpu_seconds')})})")


if __name__ == "__main__":
    main()
