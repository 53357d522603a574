"""A trained policy as a file, and as a bot (方策ボット).

A :class:`Policy` is a small multilayer perceptron over one game's observation vector
(:class:`~kirifuda.env.core.GameEnv`'s, with its ``scaled`` and ``claims`` options): tanh hidden
layers, a head of logits over the game's fixed actions (illegal ones masked out) and a value
head.  It is saved as a numpy ``.npz`` file: the weights, and a ``meta`` JSON text naming the
format (:data:`POLICY_FORMAT`), the game, its options, the env options and the env layout
version it was trained on.  Loading never unpickles anything (``allow_pickle=False``).

:class:`PolicyBot` plays a saved policy as a kirifuda bot from the seat's view only, wherever a
bot's kind is accepted: ``make_bot("policy:FILE", game)`` — ``kirifuda play --bots policy:FILE``,
``kirifuda tournament --bots policy:FILE,heuristic``, a bot seat of the web app.  It encodes the
view as the env does, masks the view's legal actions and takes the most probable action; a
multi-card discard is chosen card by card, as in the env.  A policy trained with ``recall="cards"``
keeps the same memory from the views it is shown (:meth:`PolicyBot.observe`, after every action
where the runner offers it: the cards each seat played face up this deal).  A policy trained
for some phases only (``meta["phases"]``, e.g. card play: ``["play"]``) leaves the seat's other
decisions to the bot named by ``meta["delegate"]`` (e.g. ``heuristic``), as it was trained.  Where the environment variable
``KIRIFUDA_POLICY_DIR`` is set, policy files are read from that directory only (a server
seating policies from its users' requests sets it).

>>> import numpy as np, random
>>> from kirifuda.env.core import GameEnv
>>> env = GameEnv("meitora", claims="auto", scaled=True)
>>> policy = Policy.new(env, hidden=(8,), seed=0)
>>> env.reset(seed=1)
>>> a = policy.act(env.observe(env.to_act), env.legal_mask())
>>> bool(env.legal_mask()[a])
True
"""

from __future__ import annotations

import dataclasses
import json
import os
import random
from pathlib import Path
from typing import Any, Mapping, Sequence

import numpy as np

from ..actions import Action, Discard
from ..cards import Card
from ..errors import OptionError
from ..game import View
from ..tricks import Trick
from .core import ENV_VERSION, ActionCatalog, GameEnv

__all__ = ["Policy", "PolicyBot", "POLICY_FORMAT", "legal_ids_of"]

POLICY_FORMAT = "kirifuda-policy/1"
"""The ``format`` of a policy file's ``meta``."""


class Policy:
    """A policy network: ``meta`` (what it plays: game, options, env options) and ``params``
    (``w0``, ``b0``, … for the hidden layers, ``pi_w``, ``pi_b``, ``v_w``, ``v_b``)."""

    def __init__(self, meta: Mapping[str, Any], params: Mapping[str, np.ndarray]) -> None:
        self.meta = dict(meta)
        self.params = {k: np.asarray(v, dtype=np.float64) for k, v in params.items()}
        self.depth = sum(1 for k in self.params if k.startswith("w"))

    @classmethod
    def new(
        cls,
        env: GameEnv,
        hidden: Sequence[int] = (128, 128),
        seed: int = 0,
        *,
        phases: Sequence[str] | None = None,
        delegate: str | None = None,
    ) -> "Policy":
        """A fresh policy for ``env`` (orthogonal initialisation, as PPO implementations use).
        ``phases``: the phases it decides (all by default); the seat's decisions in the others
        are the bot ``delegate``'s."""
        if env.recall not in (None, "cards"):
            raise OptionError(f"recall={env.recall!r}: a policy bot keeps the memory of recall='cards' only (or none)")
        if (phases is None) != (delegate is None):
            raise OptionError("phases and delegate go together: the bot that takes the other phases' decisions")
        rng = np.random.default_rng(seed)
        sizes = [env.obs_size, *hidden]
        params: dict[str, np.ndarray] = {}

        def ortho(n_in: int, n_out: int, gain: float) -> np.ndarray:
            a = rng.standard_normal((max(n_in, n_out), min(n_in, n_out)))
            q, r = np.linalg.qr(a)
            q = q * np.sign(np.diag(r))
            w = q if n_in >= n_out else q.T
            return gain * w[:n_in, :n_out]

        for i, (a, b) in enumerate(zip(sizes, sizes[1:])):
            params[f"w{i}"] = ortho(a, b, np.sqrt(2.0))
            params[f"b{i}"] = np.zeros(b)
        params["pi_w"] = ortho(sizes[-1], env.catalog.size, 0.01)
        params["pi_b"] = np.zeros(env.catalog.size)
        params["v_w"] = ortho(sizes[-1], 1, 1.0)
        params["v_b"] = np.zeros(1)
        meta = {
            "format": POLICY_FORMAT,
            "game": env.game_id,
            "options": env.options_json,
            "scaled": env.scaled,
            "claims": env.claims,
            "obs_size": env.obs_size,
            "actions": env.catalog.size,
            "env": env.version,
            "env_version": ENV_VERSION,
            "hidden": list(hidden),
        }
        if env.recall is not None:
            meta["recall"] = env.recall
        if phases is not None:
            meta["phases"] = list(phases)
            meta["delegate"] = delegate
        return cls(meta, params)

    # -- the network ---------------------------------------------------------------------
    def forward(self, obs: np.ndarray) -> tuple[np.ndarray, np.ndarray, list[np.ndarray]]:
        """Logits and values of a batch of observations, and the hidden activations (input
        first) that the training's backward pass needs."""
        x = np.asarray(obs, dtype=np.float64)
        acts = [x]
        p = self.params
        for i in range(self.depth):
            x = np.tanh(x @ p[f"w{i}"] + p[f"b{i}"])
            acts.append(x)
        return x @ p["pi_w"] + p["pi_b"], (x @ p["v_w"] + p["v_b"])[..., 0], acts

    def probabilities(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """The action probabilities, the illegal actions' zero."""
        logits = self.forward(obs)[0]
        return masked_softmax(logits, mask)

    def act(self, obs: np.ndarray, mask: np.ndarray, rng: random.Random | None = None) -> int:
        """The most probable legal action (or one drawn with ``rng``)."""
        if not np.any(mask):
            raise ValueError("no legal action to choose from")
        probs = self.probabilities(obs, mask)
        if rng is None:
            return int(np.argmax(probs))
        return int(rng.choices(range(len(probs)), weights=probs.tolist())[0])

    # -- the file ------------------------------------------------------------------------
    def save(self, path: str | Path) -> None:
        """Write the policy as ``.npz`` (weights as float32, ``meta`` as JSON text)."""
        arrays: dict[str, Any] = {k: v.astype(np.float32) for k, v in self.params.items()}
        arrays["meta"] = np.array(json.dumps(self.meta, sort_keys=True))
        with open(path, "wb") as f:
            np.savez_compressed(f, **arrays)

    @classmethod
    def load(cls, path: str | Path) -> "Policy":
        """Read a policy file; :class:`~kirifuda.errors.OptionError` naming what is wrong."""
        name = str(path)
        try:
            with np.load(path, allow_pickle=False) as data:
                meta = json.loads(str(data["meta"]))
                params = {k: data[k] for k in data.files if k != "meta"}
        except FileNotFoundError:
            raise OptionError(f"no policy file {name!r}") from None
        except (OSError, ValueError, KeyError, json.JSONDecodeError):
            raise OptionError(f"{name!r} is not a kirifuda policy file (.npz with a meta entry)") from None
        if not isinstance(meta, dict) or meta.get("format") != POLICY_FORMAT:
            raise OptionError(
                f"{name!r}: the policy's format is {meta.get('format') if isinstance(meta, dict) else None!r}, "
                f"this kirifuda reads {POLICY_FORMAT!r}"
            )
        policy = cls(meta, params)
        need = {"pi_w", "pi_b", "v_w", "v_b"} | {f"{w}{i}" for i in range(policy.depth) for w in "wb"}
        if not need <= set(params):
            raise OptionError(f"{name!r}: the policy file lacks {', '.join(sorted(need - set(params)))}")
        return policy


def masked_softmax(logits: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Softmax over the legal actions (``mask`` nonzero); the others get 0."""
    z = np.where(mask > 0, logits, -np.inf)
    z = z - z.max(axis=-1, keepdims=True)
    e = np.exp(z)
    return np.asarray(e / e.sum(axis=-1, keepdims=True))


def legal_ids_of(
    catalog: ActionCatalog, view: View, pending: tuple[int, ...] = (), masked_out: frozenset[int] = frozenset()
) -> tuple[int, ...]:
    """The env's legal action indices for the seat whose ``view`` this is, as
    :meth:`kirifuda.env.core.Stepper.legal_ids` finds them from the state: the attempts left out
    (masking them in would tell of hidden cards), a multi-card discard as single picks of the
    discards that hold ``pending``."""
    attempts = set(view.attempts)
    out: set[int] = set()
    start = catalog.discard_start
    picked = set(pending)
    for a in view.legal_actions:
        if a in attempts:
            continue
        if type(a) is Discard and len(a.cards) > 1:
            ids = {c.id for c in a.cards}
            if start is not None and picked <= ids:
                out.update(start + c for c in ids - picked)
            continue
        if not pending:
            out.add(catalog.index(a))
    return tuple(sorted(out - masked_out))


def _plays_in(value: Any) -> list[tuple[tuple[int, Any], ...]]:
    """The ``(seat, card)`` plays a view field shows: a trick, tricks, or a trick as its plays
    (a face-down card, ``None``, is not a card shown)."""
    if isinstance(value, Trick):
        return [value.plays]
    if not isinstance(value, tuple) or not value:
        return []
    if all(isinstance(p, tuple) and len(p) == 2 and isinstance(p[0], int) for p in value):
        if any(isinstance(p[1], Card) or p[1] is None for p in value):
            return [value]
    out: list[tuple[tuple[int, Any], ...]] = []
    for item in value:
        if isinstance(item, Trick):
            out.append(item.plays)
        elif isinstance(item, tuple) and item and isinstance(item[0], Trick):  # (trick, winner)
            out.append(item[0].plays)
    return out


def _policy_path(name: str) -> Path:
    """The file of ``policy:NAME``, inside ``KIRIFUDA_POLICY_DIR`` where that is set."""
    root = os.environ.get("KIRIFUDA_POLICY_DIR")
    if not name:
        raise OptionError("policy:FILE names a policy file (.npz)")
    if root is None:
        return Path(name)
    base = Path(root).resolve()
    path = (base / name).resolve()
    if base != path and base not in path.parents:
        raise OptionError(f"policy files are read from the policy directory only; {name!r} is outside it")
    return path


_LOADED: dict[tuple[str, float], Policy] = {}


class PolicyBot:
    """A saved :class:`Policy` as a kirifuda bot (``policy:FILE``): it plays from the seat's
    view only, the most probable legal action of the policy's game."""

    def __init__(self, policy: Policy, game: str | None = None, name: str = "policy") -> None:
        meta = policy.meta
        if game is not None and game != meta.get("game"):
            raise OptionError(f"the policy plays {meta.get('game')!r}, not {game!r}")
        self.name = name
        self.policy = policy
        recall = meta.get("recall")
        if recall not in (None, "cards"):
            raise OptionError(f"the policy was trained with recall={recall!r}; a policy bot keeps recall='cards' only")
        self.env = GameEnv(
            str(meta["game"]),
            meta.get("options") or {},
            scaled=bool(meta.get("scaled")),
            claims=str(meta.get("claims", "keep")),
            recall=recall,
        )
        if self.env.obs_size != meta.get("obs_size") or self.env.catalog.size != meta.get("actions"):
            raise OptionError(
                f"the policy was trained on {meta.get('env')!r}; this kirifuda's env is {self.env.version!r}"
            )
        self.options_json = dict(meta.get("options") or {})
        self._table_options = dict(self.env.new_match().view(None).options)
        """The options as a table's views show them (the record's form)."""
        phases = meta.get("phases")
        self.phases: frozenset[str] | None = None if phases is None else frozenset(str(p) for p in phases)
        self.delegate: Any = None
        """The bot of the phases the policy leaves out (``meta["delegate"]``)."""
        if self.phases is not None:
            from ..bots import make_bot

            kind = str(meta.get("delegate"))
            if kind.split(":", 1)[0] in ("policy", "oracle"):
                raise OptionError(f"a policy's delegate plays from the view: {kind!r} is not one")
            self.delegate = make_bot(kind, self.env.game_id)
        self._seen: set[tuple[int, int]] = set()
        """``(seat, card id)`` of every card seen played face up this deal (``recall``)."""
        self._seen_key: tuple[int, int] = (-1, -1)

    @classmethod
    def from_file(cls, name: str, game: str | None = None) -> "PolicyBot":
        """The bot of ``policy:NAME`` (a file's policy is read once per process)."""
        path = _policy_path(name)
        try:
            key = (str(path.resolve()), path.stat().st_mtime)
        except OSError:
            raise OptionError(f"no policy file {name!r}") from None
        policy = _LOADED.get(key)
        if policy is None:
            policy = _LOADED[key] = Policy.load(path)
        return cls(policy, game, name=f"policy:{name}")

    def observe(self, view: View) -> None:
        """The seat's view after an action (the runner's offer): the memory of ``recall``."""
        if self.delegate is not None:
            observe = getattr(self.delegate, "observe", None)
            if observe is not None:
                observe(view)
        if self.env.memory is not None:
            self._remember(view)

    def _remember(self, view: View) -> None:
        """Add the cards face up in ``view``'s tricks to the deal's memory (a new deal, or
        another one than remembered, starts it afresh)."""
        key = (int(getattr(view, "deal_number", 0)), int(getattr(view, "tricks_played", 0)))
        if view.phase != "play" or key[0] != self._seen_key[0] or key[1] < self._seen_key[1]:
            self._seen = set()
        self._seen_key = key
        for f in dataclasses.fields(view):
            for plays in _plays_in(getattr(view, f.name)):
                self._seen.update((seat, card.id) for seat, card in plays if isinstance(card, Card))

    def observation(self, view: View, pending: tuple[int, ...] = ()) -> np.ndarray:
        """The observation vector the env gives the seat of ``view`` (with ``recall``: what
        the bot has remembered of the deal, as :meth:`observe` was shown it)."""
        env = self.env
        out = env.encoder.encode(view, pending)
        if env.scale is not None:
            out = out * env.scale
        if env.memory is not None:
            n, seat = env.num_players, view.seat if view.seat is not None else 0
            recall = np.zeros(env.memory.size, dtype=out.dtype)
            for s, card in self._seen:
                recall[((s - seat) % n) * 53 + card] = 1.0
            out = np.concatenate([out, recall])
        return out

    def choose(self, view: View, rng: random.Random) -> Action:
        if not view.legal_actions:
            raise ValueError(f"seat {view.seat} has no action to take")
        self._check_options(view)
        if self.env.memory is not None:
            self._remember(view)
        if self.phases is not None and view.phase not in self.phases:
            action: Action = self.delegate.choose(view, rng)
            return action
        catalog = self.env.catalog
        masked = self.env.masked_out
        pending: tuple[int, ...] = ()
        while True:
            ids = legal_ids_of(catalog, view, pending, masked)
            if not ids:  # only the claim (left out of the policy's actions) is legal
                ids = legal_ids_of(catalog, view, pending)
            mask = np.zeros(catalog.size, dtype=np.int8)
            mask[list(ids)] = 1
            index = self.policy.act(self.observation(view, pending), mask)
            start = catalog.discard_start
            multi = [a for a in view.legal_actions if type(a) is Discard and len(a.cards) > 1]
            if not multi or start is None or not start <= index < start + 53:
                return catalog.actions[index]
            pending = pending + (index - start,)
            for a in multi:
                if len(a.cards) == len(pending) and {c.id for c in a.cards} == set(pending):
                    return a

    def _check_options(self, view: View) -> None:
        if view.game != self.env.game_id:
            raise OptionError(f"the policy plays {self.env.game_id!r}, not {view.game!r}")
        if dict(view.options) != self._table_options:
            raise OptionError(f"the policy was trained with options {self.options_json}; this table's differ")
