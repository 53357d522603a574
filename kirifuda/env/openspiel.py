"""OpenSpiel python games for every registered game (``pip install 'kirifuda[openspiel]'``).

Importing this module registers ``kirifuda_<game>`` for every game of :data:`kirifuda.games.GAMES`
(``kirifuda_meitora``, ``kirifuda_napoleon``, …) with ``pyspiel.register_game``:

>>> import pyspiel
>>> game = pyspiel.load_game("kirifuda_meitora", {"options": '{"target": 5}'})
>>> str(game)
'kirifuda_meitora(first=0,match=False,options=target:5)'
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())
(True, 41)

Parameters: ``options`` (the game's options as a JSON object, or ``players:4;joker:true``, the
comma-free form the game string keeps; default none), ``match``
(``False``: one deal per episode; ``True``: the whole match), ``first`` (the seat that starts
the match, as the record's ``first``; default 0) and ``claims`` (``keep``, ``off``: the claim
left out of the legal actions, ``auto``: that, and the claim made for the seat to act whenever
it holds; :class:`kirifuda.env.core.GameEnv`).

- **Chance.** The deal is dealt card by card as explicit chance outcomes (card ids 0–52), each
  uniform over the cards not dealt yet: first the undealt rest in record order (Unsun's indicator
  first; under ``reflip_face_card`` its outcomes are the non-face cards), then seat 0's hand,
  seat 1's … (the sizes of each deal, Kakeya's sitting-out seats included, come from the engine).
  No one observes a chance outcome: a seat sees its cards through its view once the deal is done
  (Kakeya: once the trump is chosen).
- **Actions** are the fixed integers of :class:`kirifuda.env.core.ActionCatalog`; a multi-card
  discard is taken card by card (see :mod:`kirifuda.env.core`).
- **Observation** tensor/string: the seat's current view (the encoder of :mod:`kirifuda.env.core`;
  the string is the view as canonical JSON).
- **Information state** string: every view the seat has had since the deal began, each with the
  step that led to it (the actor and the action, or ``?`` where the seat could not see it);
  tensor: the observation tensor, then one row per env step of the deal
  (actor relative to the seat, the action one-hot or a hidden bit).  A step is *seen* by a seat
  when it is the actor's own, or names no card, or the card it names newly shows in the seat's
  view (a card played face up, the adjutant's card named); so face-down plays and others'
  discards are hidden.  In match mode the information state covers the current deal; earlier
  deals enter through the view (totals, the previous deal's result).
- ``resample_from_infostate(player, sampler)``: a seat's knowledge of where the cards are comes
  from what its views show (its hand, the cards on the table and in tricks, the cards the rules
  show it: :func:`~kirifuda.env.core.placed_cards`), never from what its legal actions may name;
  a card merely named (Napoleon's adjutant card, Kakeya's rensho) stays named while its holder
  moves.  The cards it cannot place, and the cards that a taker of the rest (Napoleon, Meitora's
  declarer) played face up, are relabelled at random (uniformly, keeping each card the taker
  played in its hand or the rest, which are one pool), in the deal and in the steps the seat did
  not see; the steps it saw stay as they were; the deal is replayed and kept only if the seat's
  every view is the same (so its information state string is).  After
  :data:`RESAMPLE_TRIES` rejected draws, random transpositions from the true deal, each kept
  when consistent (where few were kept the sample stays close to the true deal).  Budgets are
  counts, not times: the same sampler gives the same resample on any machine.
- States pickle and serialise (``pyspiel.serialize_game_and_state``) as their game and actions;
  a restored state works as the original.
"""

from __future__ import annotations

import json
import random
from itertools import repeat
from typing import Any, Callable, Mapping, Sequence

import numpy as np

try:
    import pyspiel  # type: ignore[import-untyped, import-not-found, unused-ignore]
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise ImportError("kirifuda.env.openspiel needs OpenSpiel: pip install 'kirifuda[openspiel]'") from exc

from ..actions import Play
from ..cards import CARDS, parse_card
from ..game import GameState
from ..games import GAMES
from ..game import View
from .core import GameEnv, Stepper, count_cards, view_cards, view_fields, view_key, view_string

__all__ = ["KirifudaGame", "KirifudaState", "KirifudaBot", "register_all", "game_name", "RESAMPLE_TRIES"]

RESAMPLE_TRIES = 200
"""Independent draws of a resampling before it falls back to transpositions."""
RESAMPLE_TRANSPOSITIONS = 2
"""Transpositions tried in the fallback, per movable card."""


def game_name(game_id: str) -> str:
    return f"kirifuda_{game_id}"


# --------------------------------------------------------------------------------------------
# The game


def parse_options(text: str) -> dict[str, Any]:
    """The ``options`` parameter: a JSON object (``{"players": 4}``) or the comma-free form that
    game strings use, ``players:4;joker:true`` (values read as JSON where they can be).

    >>> parse_options('players:4;joker:true;initial_trump:S') == {"players": 4, "joker": True, "initial_trump": "S"}
    True
    """
    text = text.strip()
    if not text:
        return {}
    if text.startswith("{"):
        data = json.loads(text)
        if not isinstance(data, dict):
            raise ValueError(f"options must be a JSON object, got {text!r}")
        return data
    out: dict[str, Any] = {}
    for item in text.split(";"):
        if not item.strip():
            continue
        name, sep, value = item.partition(":")
        if not sep:
            raise ValueError(f"an option is written name:value, got {item!r}")
        try:
            out[name.strip()] = json.loads(value)
        except json.JSONDecodeError:
            out[name.strip()] = value.strip()
    return out


def options_text(options: Mapping[str, Any]) -> str:
    """The comma-free form of options (sorted by name)."""
    return ";".join(f"{k}:{v if isinstance(v, str) else json.dumps(v)}" for k, v in sorted(options.items()))


class KirifudaGame(pyspiel.Game):  # type: ignore[misc, unused-ignore]
    """One kirifuda game as an OpenSpiel game (see the module docstring)."""

    def __init__(self, game_id: str, params: Mapping[str, Any] | None = None) -> None:
        params = dict(params or {})
        options = parse_options(str(params.get("options", "") or ""))
        params["options"] = options_text(options)  # canonical: OpenSpiel's game strings split on commas
        match = bool(params.get("match", False))
        claims = str(params.get("claims", "keep"))
        if claims == "keep":
            params.pop("claims", None)  # the default stays out of the game string, as before
        self.first = int(params.get("first", 0))
        self.env = env = GameEnv(game_id, options, match=match, first=self.first, claims=claims)
        spec = env.spec
        n = env.num_players
        bound = spec.deal_score * (1 if not match else 500)
        self.match = match
        self.deal_steps = spec.deal_steps
        game_type = _game_type(game_id, match)
        max_len = (spec.deal_steps + 53) * (4 if not match else 400)
        info = pyspiel.GameInfo(
            num_distinct_actions=env.catalog.size,
            max_chance_outcomes=53,
            num_players=n,
            min_utility=-bound,
            max_utility=bound,
            utility_sum=0.0 if spec.zero_sum else None,
            max_game_length=max_len,
        )
        super().__init__(game_type, info, params)
        self.game_id = game_id
        self.catalog = env.catalog
        self.encoder = env.encoder
        self.obs_size = env.encoder.size
        self.step_size = n + env.catalog.size + 1
        self.info_size = self.obs_size + spec.deal_steps * self.step_size
        self._layouts: dict[tuple[int, ...], tuple[tuple[int, ...], tuple[int, ...], int]] = {}
        self._initial: _Core | None = None
        """The core of a new initial state, copied for each new one."""
        self._initial_obs: dict[int | None, np.ndarray] = {}

    def layout(self, state: GameState) -> tuple[tuple[int, ...], tuple[int, ...], int]:
        """The deck, the hand sizes per seat and the size of the rest of the next deal of
        ``state``: from a probe deal's record (cached by the hand sizes a spectator sees)."""
        probe = state.copy()
        probe.deal_random(random.Random(0))
        key = tuple(probe.view(None).hand_sizes) if probe.deal_number == state.deal_number else ()
        got = self._layouts.get(key) if sum(key) else None
        if got is None:
            rec = probe.record_deals()[state.deal_number]
            hands = [[parse_card(c).id for c in h] for h in rec["hands"]]
            rest = [parse_card(c).id for c in rec["rest"]]
            got = (tuple(sorted([c for h in hands for c in h] + rest)), tuple(map(len, hands)), len(rest))
            if sum(key):
                self._layouts[key] = got
        return got

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its game string: loading it runs this constructor again (OpenSpiel's own
        pickling of a game would skip it, leaving the game without its encoder)."""
        return (pyspiel.load_game, (str(self),))

    def new_initial_state(self) -> "KirifudaState":
        state = KirifudaState(self, self._initial)
        if self._initial is None:
            self._initial = state._k.__deepcopy__({})
        return state

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> "KirifudaObserver":
        if params:
            raise ValueError(f"observation parameters are not supported; passed {params}")
        return KirifudaObserver(self, iig_obs_type)


def _game_type(game_id: str, match: bool = False) -> Any:
    info = GAMES[game_id]
    from .core import spec_of

    spec = spec_of(game_id)
    return pyspiel.GameType(
        short_name=game_name(game_id),
        long_name=f"kirifuda {info.name_en}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=(pyspiel.GameType.Utility.ZERO_SUM if spec.zero_sum else pyspiel.GameType.Utility.GENERAL_SUM),
        reward_model=(pyspiel.GameType.RewardModel.REWARDS if match else pyspiel.GameType.RewardModel.TERMINAL),
        max_num_players=spec.max_seats,
        min_num_players=info.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"options": "", "match": False, "first": 0, "claims": "keep"},
    )


# --------------------------------------------------------------------------------------------
# The state


class _History:
    """What one player has seen this deal: its view after each step (with the cards it has picked
    so far of a discard), each step as seen, and the cards whose place it has seen."""

    __slots__ = ("views", "keys", "texts", "events", "placed", "counts", "picks", "text", "fresh")

    def __init__(self) -> None:
        self.views: list[tuple[View, tuple[int, ...]]] = []
        """The view after each env step (index 0: once dealt) and the seat's own pending picks."""
        self.keys: list[tuple[Any, ...]] = []
        """The same as comparable tuples (:func:`~kirifuda.env.core.view_key`)."""
        self.texts: list[str | None] = []
        """The same as text, made when first asked for."""
        self.events: list[tuple[int, int]] = []
        """``(actor, action index or -1 when hidden)`` per env step."""
        self.placed: set[int] = set()
        """The cards whose place the seat has seen (:func:`~kirifuda.env.core.placed_cards`)."""
        self.counts: dict[int, int] = {}
        """How often each card shows in the latest view (:func:`~kirifuda.env.core.shown_cards`)."""
        self.picks: list[int] = []
        """Event indices of a pending multi-card discard by another seat."""
        self.text: str | None = None
        """The information state string, once made (until the next step)."""
        self.fresh: list[frozenset[int]] = []
        """The cards that newly showed in the view at each env step."""

    def copy(self) -> "_History":
        new = _History()
        new.views = self.views[:]
        new.keys = self.keys[:]
        new.texts = self.texts[:]
        new.events = self.events[:]
        new.placed = set(self.placed)
        new.counts = self.counts
        new.picks = self.picks[:]
        new.text = self.text
        new.fresh = self.fresh[:]
        return new

    def add(self, view: View, pending: tuple[int, ...]) -> None:
        self.views.append((view, pending))
        self.keys.append((view_key(view), pending))
        self.texts.append(None)
        self.text = None

    def view_text(self, i: int) -> str:
        """The first view as canonical JSON; each later one as the fields that changed from the
        view before it (``name=value``), so the whole text tells every view exactly."""
        got = self.texts[i]
        if got is None:
            view, pending = self.views[i]
            if i == 0:
                got = view_string(view)
            else:
                before = self.keys[i - 1][0]
                names = _key_names(view)
                got = (
                    " ".join(
                        f"{names[j]}={v!r}"
                        for j, (v, u) in enumerate(zip(self.keys[i][0], before))
                        if v is not u and v != u
                    )
                    or "="
                )
            if pending:
                got += f" picked {list(pending)}"
            self.texts[i] = got
        return got


class _Core:
    """The python side of a state (copied fast by ``__deepcopy__``, which OpenSpiel's clone uses)."""

    __slots__ = (
        "g",
        "stepper",
        "pre",
        "dealt",
        "deck",
        "steps",
        "start",
        "returns",
        "done",
        "hist",
        "rest_size",
        "hand_sizes",
        "deal_no",
        "rewards",
        "obs_key",
        "obs_val",
        "prefix",
        "left",
        "snap",
        "mute",
        "draw",
        "pre_totals",
    )
    g: KirifudaGame
    prefix: tuple[int, ...]
    """The OpenSpiel actions before the current deal (earlier deals, in match mode)."""
    left: list[int]
    """The cards of the deck not dealt yet."""
    stepper: Stepper | None
    pre: GameState
    """The match before the current deal (never mutated)."""
    pre_totals: tuple[Any, ...] | None
    """The match totals before the current deal, once asked for (copies and resamples share
    ``pre``, and so these)."""
    dealt: list[int]
    deck: tuple[int, ...]
    steps: list[tuple[int, int]]
    start: GameState | None
    """The match just after the current deal was dealt (never mutated)."""
    returns: list[float]
    rewards: list[float]
    """The rewards since the last decision (a deal's score when it ended there; kept through the
    next deal's chance nodes, as OpenSpiel reads rewards at decision nodes)."""
    done: bool
    hist: dict[int, _History]
    rest_size: int
    hand_sizes: tuple[int, ...]
    deal_no: int
    obs_key: tuple[int, ...] | None
    """The last observation tensor encoded, and for whom (OpenSpiel asks twice per call)."""
    obs_val: np.ndarray | None
    snap: "tuple[Stepper, int] | None"
    """Set on a copy: the table when it was copied and the steps taken by then.  The copy's
    histories are not kept up to date step by step (a rollout never asks for them); one asked
    for is brought up to date from there."""
    mute: bool
    """While set, applied actions only enter OpenSpiel's history (a resample installs the core
    it has already replayed)."""
    draw: "tuple[tuple[int, int, int, int], _Resampler | None] | None"
    """The last resampler made (IS-MCTS resamples one state again and again), and for whom and
    when: ``(player, actions before the deal, cards dealt, steps)``; never copied (it belongs to this state)."""

    def __deepcopy__(self, memo: Any) -> "_Core":
        new = object.__new__(_Core)
        new.stepper = self.stepper.copy() if self.stepper is not None else None
        new.pre = self.pre  # never mutated: copied before use
        new.pre_totals = self.pre_totals
        new.g = self.g
        new.dealt = self.dealt[:]
        new.prefix = self.prefix
        new.left = self.left[:]
        new.deck = self.deck
        new.steps = self.steps[:]
        new.start = self.start
        new.returns = self.returns[:]
        new.rewards = self.rewards[:]
        new.done = self.done
        new.hist = {p: h.copy() for p, h in self.hist.items()}
        new.snap = self.snap
        if new.hist and new.snap is None and self.stepper is not None:
            new.snap = (self.stepper.copy(), len(self.steps))
        new.mute = False
        new.draw = None
        new.rest_size = self.rest_size
        new.hand_sizes = self.hand_sizes
        new.deal_no = self.deal_no
        new.obs_key = self.obs_key
        new.obs_val = self.obs_val
        return new

    def actions(self) -> list[int]:
        """Every OpenSpiel action that led here (chance outcomes included)."""
        return [*self.prefix, *self.dealt, *(idx for _, idx in self.steps)]

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled (OpenSpiel's serialization pickles a python state's attributes) as its game
        and actions: unpickling replays them, so nothing of the engine is pickled."""
        return (_core_after, (self.g, self.actions()))


class KirifudaState(pyspiel.State):  # type: ignore[misc, unused-ignore]
    """A kirifuda match (or deal) as an OpenSpiel state."""

    def __init__(self, game: KirifudaGame, initial: "_Core | None" = None) -> None:
        super().__init__(game)
        if initial is not None:
            self._k = initial.__deepcopy__({})
            return
        k = self._k = object.__new__(_Core)
        k.g = game
        env = game.env
        state = env.info.new_state(env.options, first=game.first)
        k.stepper = None
        k.returns = [0.0] * env.num_players
        k.rewards = [0.0] * env.num_players
        k.done = False
        k.steps = []
        k.dealt = []
        k.prefix = ()
        k.hist = {}
        k.start = None
        k.deal_no = 0
        k.obs_key = None
        k.obs_val = None
        k.snap = None
        k.mute = False
        k.draw = None
        self._begin_deal(state)

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its game and history: unpickling replays the history on a new state, so
        every method of the restored state works as the original's (serialization)."""
        return (_restore_state, (self.get_game(), list(self.history())))

    @property
    def _g(self) -> KirifudaGame:
        return self._k.g

    # -- dealing -------------------------------------------------------------------------
    def _begin_deal(self, state: GameState) -> None:
        """Prepare the chance nodes of the next deal of ``state`` (which needs a deal)."""
        k = self._k
        k.prefix = tuple(k.actions())
        k.pre = state.copy()
        k.pre_totals = None
        k.deck, k.hand_sizes, k.rest_size = self._g.layout(state)
        k.dealt = []
        k.left = list(k.deck)
        k.steps = []
        k.hist = {}
        k.snap = None
        k.start = None
        k.stepper = None
        k.deal_no = state.deal_number

    def _finish_deal(self) -> None:
        k = self._k
        state = k.pre.copy()
        state.deal(*self._split(k.dealt))
        k.start = state.copy()
        k.stepper = Stepper(state, self._g.catalog, self._g.env.masked_out)
        self._after_deal_events(state)

    def _after_deal_events(self, state: GameState) -> None:
        """A deal that ended at once (Meitora's four jacks) is dealt again."""
        k = self._k
        if state.deal_number != k.deal_no or state.is_over:
            self._deal_ended(state)

    def _deal_ended(self, state: GameState) -> None:
        k = self._k
        env = self._g.env
        if state.deal_number != k.deal_no or state.is_over:
            before = k.pre_totals
            if before is None:
                before = k.pre_totals = k.pre.view(None).totals
                initial = self._g._initial
                if initial is not None and initial.pre is k.pre:  # every new initial state's
                    initial.pre_totals = before
            after = state.view(None).totals
            score = [float(a) - float(b) for a, b in zip(after, before)]
            made_decisions = bool(k.steps)
            for s in range(env.num_players):
                k.returns[s] += score[env.units[s]]
                k.rewards[s] += score[env.units[s]]
            if state.is_over or (made_decisions and not self._g.match):
                k.done = True
                return
            self._begin_deal(state)

    # -- OpenSpiel API -------------------------------------------------------------------
    def current_player(self) -> int:
        k = self._k
        if k.done:
            return int(pyspiel.PlayerId.TERMINAL)
        if k.stepper is None:
            return int(pyspiel.PlayerId.CHANCE)
        seat = k.stepper.to_act
        assert seat is not None
        return seat

    def _legal_actions(self, player: int) -> list[int]:
        k = self._k
        if k.stepper is None or k.done or k.stepper.to_act != player:
            return []
        return list(k.stepper.legal_ids())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        k = self._k
        assert k.stepper is None and not k.done
        left = k.left
        slot = len(k.dealt)
        filt = self._g.env.spec.chance_filter
        if filt is not None and slot < k.rest_size:
            left = [c for c in left if filt(self._g.env.options, slot, c)]
        return list(zip(left, repeat(1.0 / len(left))))

    def _apply_action(self, action: int) -> None:
        k = self._k
        if k.mute:
            return
        if k.stepper is None:
            dealt = k.dealt
            try:
                i = k.left.index(action)
            except ValueError:
                i = -1
            if i < 0 or (
                len(dealt) < k.rest_size
                and (filt := k.g.env.spec.chance_filter) is not None
                and not filt(k.g.env.options, len(dealt), action)
            ):
                raise ValueError(f"{CARDS[action].code if 0 <= action < 53 else action} is not a chance outcome now")
            del k.left[i]
            dealt.append(int(action))
            if len(dealt) == len(k.deck):
                self._finish_deal()
            return
        k.rewards = [0.0] * len(k.returns)
        stepper = k.stepper
        seat = stepper.to_act
        assert seat is not None
        state = stepper.state
        deal_no = state.deal_number
        applied = stepper.apply(action)
        if self._g.env.claims == "auto" and state.deal_number == deal_no and applied is not None:
            stepper.claim_if_it_holds()
        k.steps.append((seat, int(action)))
        if k.snap is None:
            for p, h in k.hist.items():
                _extend(h, self._g, stepper, p, seat, int(action), applied)
        if state.deal_number != deal_no or state.is_over:
            self._deal_ended(state)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {CARDS[action].code}"
        return self._g.catalog.describe(action)

    def is_terminal(self) -> bool:
        return self._k.done

    def returns(self) -> list[float]:
        return list(self._k.returns)

    def rewards(self) -> list[float]:
        return list(self._k.rewards)

    def __str__(self) -> str:
        k = self._k
        if k.stepper is None:
            return f"dealing {len(k.dealt)}/{len(k.deck)}: " + " ".join(CARDS[c].code for c in k.dealt)
        st = k.stepper.state
        hands = " | ".join(" ".join(c.code for c in st.view(s).hand) for s in range(st.num_players))
        return f"{view_string(st.view(None))}\nhands: {hands}\npending: {list(k.stepper.pending)}"

    # -- what a seat sees (public API for agents) ----------------------------------------
    def view(self, player: int | None) -> View:
        """The engine's view of ``player`` (``None``: a spectator's): all that seat may know."""
        k = self._k
        return (k.pre if k.stepper is None else k.stepper.state).view(player)

    def pending(self, player: int) -> tuple[int, ...]:
        """The cards ``player`` has picked so far of a multi-card discard (its own knowledge)."""
        k = self._k
        return k.stepper.pending if k.stepper is not None and k.stepper.to_act == player else ()

    # -- information states --------------------------------------------------------------
    def history_of(self, player: int) -> _History:
        """The player's information of this deal (computed by replay once, then kept up to date)."""
        k = self._k
        h = k.hist.get(player)
        if k.snap is not None and k.hist:
            self._catch_up()
            h = k.hist.get(player)
        if h is None:
            h = _History()
            if k.start is not None:
                stepper = Stepper(k.start.copy(), self._g.catalog, self._g.env.masked_out)
                auto = self._g.env.claims == "auto"
                _start_history(h, stepper, player)
                for seat, idx in k.steps:
                    applied = stepper.apply(idx, trusted=True)
                    if auto and applied is not None:
                        stepper.claim_if_it_holds()
                    _extend(h, self._g, stepper, player, seat, idx, applied)
            k.hist[player] = h
        return h

    def _catch_up(self) -> None:
        """Bring the histories of a copy up to date (from the table when it was copied) and keep
        them so from now on."""
        k = self._k
        assert k.snap is not None
        base, done = k.snap
        k.snap = None
        if done == len(k.steps):
            return
        stepper = base.copy()
        auto = self._g.env.claims == "auto"
        for seat, idx in k.steps[done:]:
            applied = stepper.apply(idx, trusted=True)
            if auto and applied is not None:
                stepper.claim_if_it_holds()
            for p, h in k.hist.items():
                _extend(h, self._g, stepper, p, seat, idx, applied)

    def info_string(self, player: int) -> str:
        k = self._k
        head = f"p{player} deal {k.deal_no}"
        if k.stepper is None:
            return f"{head} dealing {len(k.dealt)}/{len(k.deck)}\n{view_string(k.pre.view(player))}"
        h = self.history_of(player)
        if h.text is None:
            lines = [head, h.view_text(0)]
            for i, (actor, idx) in enumerate(h.events):
                lines.append(f"{actor}:{idx if idx >= 0 else '?'} {h.view_text(i + 1)}")
            h.text = "\n".join(lines)
        return h.text

    def obs_string(self, player: int) -> str:
        k = self._k
        if k.stepper is None:
            return f"dealing {len(k.dealt)}/{len(k.deck)} {view_string(k.pre.view(player))}"
        pending = list(k.stepper.pending) if k.stepper.to_act == player else []
        return view_string(k.stepper.state.view(player)) + (f" picked {pending}" if pending else "")

    def obs_tensor(self, player: int | None, out: np.ndarray) -> None:
        out[:] = self._obs_array(player)

    def _obs_array(self, player: int | None) -> np.ndarray:
        """The observation tensor of ``player`` (None: a spectator's), kept until the next step
        (OpenSpiel asks for it more than once per call; never written to)."""
        k = self._k
        enc = self._g.encoder
        if k.stepper is None:
            g = self._g
            initial = g._initial is not None and k.pre is g._initial.pre
            got = g._initial_obs.get(player) if initial else None
            if got is None:
                got = enc.encode(k.pre.view(player), ())
                if initial:  # OpenSpiel encodes a new initial state to learn the tensor's shape
                    g._initial_obs[player] = got
            return got
        pending = k.stepper.pending if player is not None and k.stepper.to_act == player else ()
        key = (k.deal_no, len(k.dealt), len(k.steps), -1 if player is None else player, *pending)
        if k.obs_key == key and k.obs_val is not None:
            return k.obs_val
        got = enc.encode(k.stepper.state.view(player), pending)
        k.obs_key, k.obs_val = key, got
        return got

    # -- the same for Python callers, without OpenSpiel's observer round trip ----------------
    # (pyspiel's own methods build an observer and encode a new initial state on every call;
    # C++ callers still reach these states through pyspiel's methods, with the same results)

    def _seat(self, player: Any) -> int | None:
        """``player`` (or the player to act) when it is a seat, else None."""
        if player is None:
            player = self.current_player()
        return int(player) if 0 <= player < self._g.env.num_players else None

    def is_chance_node(self) -> bool:
        k = self._k
        return k.stepper is None and not k.done

    def legal_actions(self, player: Any = None) -> list[int]:
        k = self._k
        stepper = k.stepper
        if stepper is not None and not k.done and (player is None or player == stepper.state.to_act):
            return list(stepper.legal_ids())
        return pyspiel.State.legal_actions(self) if player is None else pyspiel.State.legal_actions(self, player)  # type: ignore[no-any-return]

    def observation_tensor(self, player: Any = None) -> list[float]:
        seat = self._seat(player)
        if seat is None:  # OpenSpiel's own error
            return pyspiel.State.observation_tensor(self, -1 if player is None else player)  # type: ignore[no-any-return]
        k = self._k
        if k.stepper is None:
            return self._g.encoder.encode_list(k.pre.view(seat))
        return self._g.encoder.encode_list(k.stepper.state.view(seat), self.pending(seat))

    def observation_string(self, player: Any = None) -> str:
        seat = self._seat(player)
        if seat is None:
            return pyspiel.State.observation_string(self, -1 if player is None else player)  # type: ignore[no-any-return]
        return self.obs_string(seat)

    def information_state_string(self, player: Any = None) -> str:
        seat = self._seat(player)
        if seat is None:
            return pyspiel.State.information_state_string(self, -1 if player is None else player)  # type: ignore[no-any-return]
        return self.info_string(seat)

    def information_state_tensor(self, player: Any = None) -> list[float]:
        seat = self._seat(player)
        if seat is None:
            return pyspiel.State.information_state_tensor(self, -1 if player is None else player)  # type: ignore[no-any-return]
        out = np.zeros(self._g.info_size, np.float32)
        self.info_tensor(seat, out)
        return _as_list(out)

    def info_tensor(self, player: int, out: np.ndarray) -> None:
        g = self._g
        out.fill(0.0)
        self.obs_tensor(player, out[: g.obs_size])
        if self._k.stepper is None:
            return
        h = self.history_of(player)
        n = g.env.num_players
        size = g.step_size
        base = g.obs_size
        for t, (actor, idx) in enumerate(h.events[: g.deal_steps]):
            o = base + t * size
            out[o + (actor - player) % n] = 1.0
            if idx >= 0:
                out[o + n + idx] = 1.0
            else:
                out[o + n + g.catalog.size] = 1.0

    # -- resampling ----------------------------------------------------------------------
    def resample_from_infostate(self, player_id: int, probability_sampler: Callable[[], float]) -> "KirifudaState":
        rng = random.Random(int(probability_sampler() * (1 << 52)))
        k = self._k
        if k.stepper is None:  # dealing: no one has seen a dealt card yet
            return self._rebuild(self._random_dealt(rng), [])
        key = (player_id, len(k.prefix), len(k.dealt), len(k.steps))
        if k.draw is not None and k.draw[0] == key:
            draw = k.draw[1]
        else:
            draw = self._sampler(player_id)
            k.draw = (key, draw)
        if draw is None:
            return self._rebuild(k.dealt, k.steps)
        for _ in range(RESAMPLE_TRIES):
            got = draw.attempt(*draw.random(rng))
            if got is not None:
                return self._install(player_id, *got)
        # random transpositions from the true deal, each kept when consistent
        perm = {c: c for c in draw.movable}
        best: tuple[Sequence[int], Sequence[tuple[int, int]]] = (k.dealt, k.steps)
        for _ in range(RESAMPLE_TRANSPOSITIONS * len(draw.movable)):
            a, b = rng.sample(draw.movable, 2)
            trial = dict(perm)
            trial[a], trial[b] = perm[b], perm[a]
            if draw.allowed(trial):
                got = draw.attempt(trial)
                if got is not None:
                    perm, best = trial, got[:2]
        return self._rebuild(*best)

    def _sampler(self, player: int) -> "_Resampler | None":
        """What may move in a resample for ``player`` (None: nothing)."""
        k = self._k
        h = self.history_of(player)
        catalog = self._g.catalog
        place = self._places()
        takers = self._takers()
        if player in takers:
            takers = set()
        # the cards the seat cannot place: never by its legal actions, never a card merely named
        free = [c for c in k.dealt if c not in h.placed]
        # the cards a taker of the rest played face up: from its hand or from the rest
        taken = []
        for actor, idx in h.events:
            action = catalog.actions[idx] if idx >= 0 and actor in takers else None
            if isinstance(action, Play) and action.card.id in place:
                taken.append(action.card.id)
        movable = free + [c for c in taken if c not in free]
        if len(movable) < 2:
            return None
        # the steps the seat did not see are relabelled with the cards; the steps it saw stay
        # as they were (a named adjutant card stays named while its holder moves)
        relabel = [
            actor != player and h.events[t][1] < 0 and catalog.card_of(idx) is not None
            for t, (actor, idx) in enumerate(k.steps)
        ]
        named = {c for (_, idx), r in zip(k.steps, relabel) if r and (c := catalog.card_of(idx)) is not None}
        return _Resampler(self, player, h, movable, taken, named, takers, place, relabel)

    def _takers(self) -> set[int]:
        """The seats that took cards of the rest this deal (Napoleon, Meitora's declarer): public
        by the rules, found here from the deal (a card of the rest in its hand or its steps)."""
        k = self._k
        rest = set(k.dealt[: k.rest_size])
        if not rest or k.stepper is None:
            return set()
        state = k.stepper.state
        out = {seat for seat in range(state.num_players) if any(c.id in rest for c in state.view(seat).hand)}
        catalog = self._g.catalog
        out |= {seat for seat, idx in k.steps if catalog.card_of(idx) in rest}
        return out

    def _places(self) -> dict[int, int]:
        """The place of each dealt card in the deal: -1 for the rest, else the seat dealt it."""
        k = self._k
        out = {c: -1 for c in k.dealt[: k.rest_size]}
        i = k.rest_size
        for seat, size in enumerate(k.hand_sizes):
            for c in k.dealt[i : i + size]:
                out[c] = seat
            i += size
        return out

    def _split(self, dealt: Sequence[int]) -> tuple[list[list[Any]], list[Any]]:
        """The hands and the rest of a deal given in chance order."""
        k = self._k
        r = k.rest_size
        hands = []
        i = r
        for size in k.hand_sizes:
            hands.append([CARDS[c] for c in dealt[i : i + size]])
            i += size
        return hands, [CARDS[c] for c in dealt[:r]]

    def _consistent(self, player: int, h: _History, dealt: Sequence[int], steps: Sequence[tuple[int, int]]) -> bool:
        """Whether the match before this deal, dealt ``dealt`` and played ``steps``, shows the
        player exactly the views it has had (stopping at the first that differs)."""
        return self._replay(player, h, dealt, steps) is not None

    def _replay(
        self, player: int, h: _History, dealt: Sequence[int], steps: Sequence[tuple[int, int]]
    ) -> "tuple[GameState, Stepper] | None":
        """The match just after the deal and the table after ``steps`` where the match before
        this deal, dealt ``dealt`` and played ``steps``, shows the player exactly the views it
        has had (None at the first view that differs)."""
        k = self._k
        state = k.pre.copy()
        try:
            state.deal(*self._split(dealt))
        except ValueError:
            return None
        if state.deal_number != k.deal_no:
            return None
        keys = h.keys
        if (view_key(state.view(player)), ()) != keys[0]:
            return None
        start = state.copy()
        stepper = Stepper(state, self._g.catalog, self._g.env.masked_out)
        auto = self._g.env.claims == "auto"
        for t, (seat, idx) in enumerate(steps):
            if stepper.to_act != seat:
                return None
            try:
                # not checked by the stepper: the engine's apply refuses an illegal action
                # itself (a multi-card discard's picks: as a whole, at the last pick)
                applied = stepper.apply(idx, trusted=True)
            except (ValueError, KeyError):  # an illegal relabelled action
                return None
            if auto and applied is not None and state.deal_number == k.deal_no:
                stepper.claim_if_it_holds()
            pending = stepper.pending if seat == player and stepper.to_act == player else ()
            if (view_key(state.view(player)), tuple(pending)) != keys[t + 1]:
                return None
        return start, stepper

    def _random_dealt(self, rng: random.Random) -> list[int]:
        k = self._k
        filt = self._g.env.spec.chance_filter
        while True:
            cards = list(k.deck)
            rng.shuffle(cards)
            out = cards[: len(k.dealt)]
            if filt is None or all(filt(self._g.env.options, i, c) for i, c in enumerate(out[: k.rest_size])):
                return out

    def _install(
        self, player: int, dealt: Sequence[int], steps: Sequence[tuple[int, int]], replayed: "tuple[GameState, Stepper]"
    ) -> "KirifudaState":
        """The state :meth:`_rebuild` makes, from the table a resample has already replayed:
        OpenSpiel's history gets the actions, the python side is installed as it stands, and
        the player's history is its own (the replay showed it every view it has had)."""
        k = self._k
        own = self.history_of(player)
        if k.done or k.mute or not self._same_events(own, steps):
            return self._rebuild(dealt, steps)
        new = self._g.new_initial_state()
        new._k.mute = True
        for a in (*k.prefix, *dealt, *(idx for _, idx in steps)):
            new.apply_action(a)
        core = object.__new__(_Core)
        for name in _Core.__slots__:
            setattr(core, name, getattr(k, name))
        start, stepper = replayed
        core.dealt = list(dealt)
        core.left = []
        core.steps = list(steps)
        core.start = start
        core.stepper = stepper
        core.returns = k.returns[:]
        core.rewards = k.rewards[:]
        core.snap = None
        core.mute = False
        core.draw = None
        core.obs_key = core.obs_val = None
        core.hist = {player: own.copy()}
        new._k = core
        return new

    def _same_events(self, own: _History, steps: Sequence[tuple[int, int]]) -> bool:
        """Whether relabelled ``steps`` leave the player's steps as it saw them: no relabelled
        (unseen) step may name a card that newly shows in its view then or later (it would be
        seen there; the views themselves are the same)."""
        catalog = self._g.catalog
        later: set[int] = set()
        for t in range(len(steps) - 1, -1, -1):
            later |= own.fresh[t]
            idx = steps[t][1]
            if idx != self._k.steps[t][1] and catalog.card_of(idx) in later:
                return False
        return True

    def _rebuild(self, dealt: Sequence[int], steps: Sequence[tuple[int, int]]) -> "KirifudaState":
        """A state with OpenSpiel history: this state's actions before the deal, the new deal's
        chance outcomes, then ``steps``."""
        new = self._g.new_initial_state()
        for a in self._k.prefix:
            new.apply_action(a)
        for c in dealt:
            new.apply_action(c)
        for _, idx in steps:
            new.apply_action(idx)
        return new

    def full_history(self) -> list[int]:
        return list(self.history())


def _core_after(game: KirifudaGame, actions: Sequence[int]) -> _Core:
    return _restore_state(game, actions)._k


def _restore_state(game: KirifudaGame, history: Sequence[int]) -> "KirifudaState":
    """A state of ``game`` after ``history`` (its actions, chance outcomes included)."""
    state = game.new_initial_state()
    for action in history:
        state.apply_action(action)
    return state


class _Resampler:
    """Draws relabellings of a deal for one seat and keeps those its information allows.

    ``movable``: the cards the seat cannot place, and the cards a taker of the rest played face
    up (dealt to it or to the rest: the seat cannot tell which).  A relabelling maps each movable
    card to a movable card; each taken card's preimage must lie in the taker's hand or the rest
    (so it is the taker's to play), and a card named by a step the seat did not see never maps
    to a taken card (the taker plays that one face up later).  The taker's hand and the rest are
    one pool: the relabelled cards there are shuffled between them."""

    __slots__ = ("st", "player", "h", "movable", "taken", "named", "pool", "place", "relabel", "pool_slots", "free")

    def __init__(
        self,
        st: KirifudaState,
        player: int,
        h: _History,
        movable: list[int],
        taken: list[int],
        named: set[int],
        takers: set[int],
        place: dict[int, int],
        relabel: list[bool],
    ) -> None:
        self.st, self.player, self.h = st, player, h
        self.movable, self.taken, self.named, self.place, self.relabel = movable, taken, named, place, relabel
        pool_places = takers | {-1} if takers else set()
        self.pool = [c for c in movable if place[c] in pool_places and c not in named]
        mset = set(movable)
        taken_set = set(taken)
        self.free = [c for c in movable if c not in taken_set]
        """The movable cards that are not taken cards, in order (the images of the others)."""
        self.pool_slots = (
            [i for i, c in enumerate(st._k.dealt) if c in mset and place[c] in pool_places] if takers else []
        )

    def random(self, rng: random.Random) -> tuple[dict[int, int], int | None]:
        """A uniform relabelling among those :meth:`allowed` admits, and a seed shuffling the
        pool (None: no pool)."""
        taken = self.taken
        if len(self.pool) < len(taken):
            return {c: c for c in self.movable}, None
        pre = rng.sample(self.pool, len(taken)) if taken else []
        images = rng.sample(taken, len(taken))
        perm = dict(zip(pre, images))
        chosen = set(pre)
        others = [c for c in self.movable if c not in chosen]
        free = self.free[:]
        rng.shuffle(free)
        perm.update(zip(others, free))
        return perm, (rng.randrange(1 << 30) if self.pool_slots else None)

    def allowed(self, perm: dict[int, int]) -> bool:
        taken = set(self.taken)
        inv = {v: c for c, v in perm.items()}
        pool = set(self.pool)
        # a card outside ``perm`` does not move: it is its own image
        return all(inv.get(t, t) in pool for t in taken) and not any(perm[c] in taken for c in self.named if c in perm)

    def attempt(
        self, perm: dict[int, int], seed: int | None = None
    ) -> "tuple[list[int], list[tuple[int, int]], tuple[GameState, Stepper]] | None":
        """The deal and steps relabelled by ``perm`` (the pool shuffled by ``seed``), if they
        show the seat exactly what it has seen."""
        st, k = self.st, self.st._k
        new_dealt = [perm.get(c, c) for c in k.dealt]
        if seed is not None:
            slots = self.pool_slots
            cards = [new_dealt[i] for i in slots]
            random.Random(seed).shuffle(cards)
            for i, c in zip(slots, cards):
                new_dealt[i] = c
        g = st._g
        filt = g.env.spec.chance_filter
        if filt is not None and any(not filt(g.env.options, i, c) for i, c in enumerate(new_dealt[: k.rest_size])):
            return None
        steps = k.steps
        catalog = g.catalog
        if any(self.relabel):
            steps = []
            for (seat, idx), r in zip(k.steps, self.relabel):
                card = catalog.card_of(idx) if r else None
                steps.append((seat, idx if card is None else catalog.with_card(idx, perm.get(card, card))))
        replayed = st._replay(self.player, self.h, new_dealt, steps)
        if replayed is None:
            return None
        return new_dealt, steps, replayed


def _as_list(tensor: np.ndarray) -> list[float]:
    """A tensor as the list of floats pyspiel's methods return (built from its few nonzero
    entries: several times faster than ``tolist`` on these sparse encodings)."""
    out = [0.0] * len(tensor)
    nz = np.flatnonzero(tensor)
    for i, v in zip(nz.tolist(), tensor[nz].tolist()):
        out[i] = v
    return out


def _key_names(view: View) -> tuple[str, ...]:
    return view_fields(type(view))[2]


def _start_history(h: _History, stepper: Stepper, player: int) -> None:
    v = stepper.state.view(player)
    shown, placed = view_cards(v)
    h.counts = count_cards(shown)
    h.placed = set(placed)
    h.add(v, ())


def _extend(h: _History, g: KirifudaGame, stepper: Stepper, player: int, actor: int, idx: int, applied: Any) -> None:
    """Record one env step in a player's history (the stepper has already taken it).

    A step of another seat naming a card is seen when that card newly shows in the player's
    view (a card played face up, the adjutant's card named); otherwise (a discard, a face-down
    play) it is hidden.  The player's legal actions never count as shown."""
    v = stepper.state.view(player)
    shown, placed = view_cards(v)
    counts = count_cards(shown)
    card = g.catalog.card_of(idx)
    if actor == player or card is None:
        seen_idx = idx
    elif applied is None:  # a pick of a multi-card discard: seen once the discard is made
        seen_idx = -1
        h.picks.append(len(h.events))
    else:
        seen_idx = idx if counts.get(card, 0) > h.counts.get(card, 0) else -1
    if applied is not None and h.picks:
        for e in h.picks:
            a, i = h.events[e]
            c = g.catalog.card_of(i)
            h.events[e] = (a, i if c is not None and counts.get(c, 0) > h.counts.get(c, 0) else -1)
        h.picks = []
    pending = stepper.pending if actor == player and stepper.to_act == player else ()
    before = h.counts
    h.fresh.append(frozenset(c for c, n in counts.items() if n > before.get(c, 0)))
    h.events.append((actor, seen_idx))
    h.add(v, tuple(pending))
    h.counts = counts
    h.placed.update(placed)


# --------------------------------------------------------------------------------------------
# kirifuda's bots as OpenSpiel bots


class KirifudaBot(pyspiel.Bot):  # type: ignore[misc, unused-ignore]
    """A kirifuda bot (``random``, ``heuristic``, ``search:easy``, ``search``, ``search:strong``)
    seated at ``player`` as a ``pyspiel.Bot``, for ``evaluate_bots`` and OpenSpiel's own agents.

    It sees the seat's views only (:meth:`KirifudaState.view`): told of every other seat's
    action (``inform_action``) it looks at its view, as a player at the table would; chance
    outcomes (the cards dealt) are never looked at.

    >>> import numpy as np, pyspiel
    >>> from open_spiel.python.algorithms.evaluate_bots import evaluate_bots
    >>> game = pyspiel.load_game("kirifuda_meitora")
    >>> bots = [KirifudaBot(game, p, "heuristic", seed=p) for p in range(4)]
    >>> len(evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(0)))
    4
    """

    def __init__(self, game: KirifudaGame, player: int, kind: str = "heuristic", seed: int | None = 0) -> None:
        pyspiel.Bot.__init__(self)
        from .bots import BotAgent

        self.player = player
        self.agent = BotAgent(game.game_id, kind, seed, masked_out=game.env.masked_out)

    def restart_at(self, state: KirifudaState) -> None:
        self.agent.restart()

    def inform_action(self, state: KirifudaState, player_id: int, action: int) -> None:
        if player_id >= 0 and not state.is_chance_node():
            self.agent.observe(state.view(self.player))

    def step(self, state: KirifudaState) -> int:
        if state.current_player() != self.player:
            raise ValueError(f"seat {self.player}'s bot asked to act for seat {state.current_player()}")
        view = state.view(self.player)
        self.agent.observe(view)
        return self.agent.act(view, state.pending(self.player))

    def provides_policy(self) -> bool:
        return False

    def provides_force_action(self) -> bool:
        return False

    def is_clonable(self) -> bool:
        return False


# --------------------------------------------------------------------------------------------
# Observer


class KirifudaObserver:
    """OpenSpiel's python observer: the observation (perfect_recall=False) or the information
    state (perfect_recall=True) of a seat; ``private_info=NONE`` gives a spectator's view."""

    def __init__(self, game: KirifudaGame, iig_obs_type: Any) -> None:
        self.game = game
        self.info = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        private = None if iig_obs_type is None else iig_obs_type.private_info
        if private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("kirifuda observers show one seat's private information, not all")
        self.public_only = private == pyspiel.PrivateInfoType.NONE
        size = game.info_size if self.info else game.obs_size
        self.tensor = np.zeros(size, np.float32)
        self.dict: dict[str, np.ndarray] = {}
        for name, off, sz, _ in game.encoder.layout():
            self.dict[name] = self.tensor[off : off + sz]
        if self.info:
            self.dict["history"] = self.tensor[game.obs_size :].reshape(game.deal_steps, game.step_size)

    def set_from(self, state: KirifudaState, player: int) -> None:
        if self.public_only:
            state.obs_tensor(None, self.tensor)
        elif self.info:
            state.info_tensor(player, self.tensor)
        else:
            state.obs_tensor(player, self.tensor)

    def string_from(self, state: KirifudaState, player: int) -> str:
        if self.public_only:
            k = state._k
            st = k.pre if k.stepper is None else k.stepper.state
            return view_string(st.view(None))
        return state.info_string(player) if self.info else state.obs_string(player)


# --------------------------------------------------------------------------------------------
# Registration


_CLASSES: dict[str, type] = {}


def _creator(game_id: str) -> type:
    """A KirifudaGame subclass bound to one game (OpenSpiel registers a class, as its own python
    games do; a class is kept alive until the interpreter's very end)."""
    cls = _CLASSES.get(game_id)
    if cls is None:

        def __init__(self: KirifudaGame, params: Mapping[str, Any] | None = None) -> None:
            KirifudaGame.__init__(self, game_id, params)

        name = f"KirifudaGame_{game_id}"
        cls = _CLASSES[game_id] = type(name, (KirifudaGame,), {"__init__": __init__, "__module__": __name__})
        globals()[name] = cls  # reachable by name: OpenSpiel pickles games (serialization)
    return cls


_REGISTERED: set[str] = set()


def register_all() -> list[str]:
    """Register every game of the registry not registered yet; returns the OpenSpiel names."""
    names = []
    for game_id in sorted(GAMES):
        name = game_name(game_id)
        if game_id not in _REGISTERED and name not in pyspiel.registered_names():
            pyspiel.register_game(_game_type(game_id), _creator(game_id))
        _REGISTERED.add(game_id)
        names.append(name)
    return names


register_all()
