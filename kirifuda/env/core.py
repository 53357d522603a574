"""The environment core shared by the PettingZoo and OpenSpiel adapters, generic over the registry.

**Actions.**  Every game gets a fixed integer action space (:class:`ActionCatalog`): an enumeration
of every distinct action the game can ever take, built from *families* (play a card, a joker lead
with its request, a ♠3 lead calling the joker, bids, pass, broken, discard one card, name the
adjutant, re-declarations, approvals, trump choices, leader choices, claim).  A card family always
has 53 slots indexed by card id (♠2 … ♠A, ♥…, ♦…, ♣…, JK), whatever the game's deck, so card
``k`` means the same card in every game.  Which families a game uses is the only per-game
part, declared by the game (:attr:`kirifuda.game.GameInfo.action_space`).

**Combinations are decomposed.**  A discard of ``k > 1`` cards at once (Napoleon's exchange) is
taken as ``k`` sequential env steps, one card each, by the same seat; the env holds the cards
picked so far (they are part of the seat's observation: ``pending_discard``) and hands the
engine the whole ``Discard`` after the last pick.  A pick is legal when some legal discard
contains the cards picked so far and it.  A one-card discard (Meitora's negri) is one step.

**Episodes.**  By default one episode is one deal (``match=False``): a fresh match, a seeded deal
(``state.deal_random(rng)`` with the env's ``random.Random``), decisions until the deal ends; the
rewards are the deal's score.  A deal that ends before any decision (Meitora's automatic
four-jacks redeal) is dealt again.  A deal that ends as a redeal after decisions (all pass,
broken) is an episode with reward 0.  ``match=True`` plays the whole match in one episode, each
deal's score rewarded when the deal ends.

**Rewards.**  The change in the game's match totals (``view.totals``) over the deal, per scoring
unit, given to every seat of the unit: a team game gives both partners the team's score (unit of
seat ``s`` is ``s % len(totals)``: Meitora and Kakeya pairs sit opposite), a game scored per seat
gives each seat its own.  Kakeya's totals are chips, Napoleon's points, Unsun's tricks.

**Observations.**  :class:`ObservationEncoder` encodes exactly one seat's :class:`~kirifuda.game.View`
(the only door to hidden information), derived from the View dataclass's field types: cards →
53-slot vectors, seats → one-hot *relative to the observing seat* (0 = the seat itself, 1 = the
next seat in turn order …), per-seat tuples rotated the same way, counts as numbers, the phase
one-hot, actions one-hot over the catalog, bidding histories as per-seat action counts plus the
latest entry.  ``legal_actions`` is the action mask, not part of the vector; ``last_deal``
(the previous deal's result, a mapping) is left out (the totals carry its score).
:func:`layout_markdown` prints the layout of any game.

>>> env = GameEnv("meitora")
>>> env.reset(seed=3)
>>> env.to_act, env.catalog.size, int(env.legal_mask().sum())
(0, 139, 26)
>>> env.catalog.action(env.legal_ids()[0])
Bid(count=6, strain='S')
"""

from __future__ import annotations

import dataclasses
import json
import operator
import random
import struct
import types
import typing
from dataclasses import dataclass
from enum import Enum
from typing import Any, Callable, Iterable, Mapping, Sequence

import numpy as np

from ..actions import CLAIM, Action, Bid, Discard, Play  # noqa: F401 (Bid: the doctests)
from ..cards import CARDS, Card, Suit, parse_card  # noqa: F401 (parse_card: the doctests)
from ..errors import IllegalActionError, OptionError
from ..game import SEAT_FIELD_NAMES, ActionSpace, GameState, View, to_jsonable
from ..games import GAMES
from ..seen import NOT_SHOWN, cards_in  # noqa: F401 (cards_in: re-exported)
from ..seen import collect_cards as _collect
from ..tricks import Trick

__all__ = [
    "ActionCatalog",
    "GameSpec",
    "ObservationEncoder",
    "GameEnv",
    "Stepper",
    "layout_markdown",
    "ENV_VERSION",
    "cards_in",
    "shown_cards",
    "placed_cards",
    "view_cards",
    "view_key",
    "view_fields",
    "count_cards",
    "NAME_FIELDS",
    "NOT_SHOWN",
]

ENV_VERSION = "2"
"""Bumped whenever an action numbering or an observation layout changes."""

NO_CARD = 53
JOKER_REQUESTS = ("S", "H", "D", "C", "any")
STRAIN_ORDER = "SHDCN"
SUITS4 = "SHDC"


# --------------------------------------------------------------------------------------------
# The per-game part


GameSpec = ActionSpace
"""What the adapters know of a game beyond the common interface: each game declares its own
(:attr:`kirifuda.game.GameInfo.action_space`)."""


def spec_of(game_id: str) -> GameSpec:
    spec = GAMES[game_id].action_space
    if spec is None:
        raise ValueError(f"{game_id}: the game declares no action space (GameInfo.action_space)")
    return spec


# --------------------------------------------------------------------------------------------
# Actions


class ActionCatalog:
    """The fixed integer actions of one game: ``action(i)`` and ``index(action)``.

    >>> cat = ActionCatalog.for_game("meitora")
    >>> cat.index(Play(parse_card("AS"))), cat.action(12)
    (12, Play(card=Card('AS'), request=None, call_joker=False))
    >>> cat.describe(cat.index(Bid(7, "H")))
    'bid 7H'
    """

    def __init__(self, game_id: str, spec: GameSpec) -> None:
        self.game_id = game_id
        self.spec = spec
        actions: list[Action] = []
        names: list[str] = []
        self.family_start: dict[str, int] = {}
        self.card_families: dict[str, int] = {}
        """Families indexed by card id, and their first index."""

        def fam(name: str, items: Iterable[tuple[Action, str]], by_card: bool = False) -> None:
            self.family_start[name] = len(actions)
            if by_card:
                self.card_families[name] = len(actions)
            for a, n in items:
                actions.append(a)
                names.append(n)

        info = GAMES[game_id]
        for f in spec.families:
            try:
                family = info.action_family(f)
            except KeyError:
                raise ValueError(f"unknown action family {f!r}") from None
            fam(f, family.items(spec), by_card=family.by_card)
        self.actions: tuple[Action, ...] = tuple(actions)
        self.names: tuple[str, ...] = tuple(names)
        self._index: dict[Action, int] = {a: i for i, a in enumerate(actions)}
        self.size = len(actions)
        self.discard_start = self.family_start.get("discard")
        self._by_card_start: list[int] = [-1] * len(actions)
        """For each index in a by-card family other than plays and discards (an adjutant's
        card, say), that family's first index; -1 elsewhere."""
        for name, start in self.card_families.items():
            if name not in ("play", "discard"):
                self._by_card_start[start : start + len(CARDS)] = [start] * len(CARDS)

    _cache: dict[str, "ActionCatalog"] = {}

    @classmethod
    def for_game(cls, game_id: str) -> "ActionCatalog":
        cat = cls._cache.get(game_id)
        if cat is None:
            cat = cls._cache[game_id] = cls(game_id, spec_of(game_id))
        return cat

    def action(self, index: int) -> Action:
        return self.actions[index]

    def index(self, action: Action) -> int:
        """The index of an engine action; a multi-card discard has none (it is decomposed)."""
        try:
            return self._index[action]
        except KeyError:
            raise KeyError(f"{action!r} has no index in the {self.game_id} action catalog") from None

    def describe(self, index: int) -> str:
        return self.names[index]

    def card_of(self, index: int) -> int | None:
        """The card id an action index names (plays, discards, adjutants, joker leads), else None."""
        a = self.actions[index]
        if isinstance(a, Play):
            return a.card.id
        if isinstance(a, Discard):
            return a.cards[0].id
        start = self._by_card_start[index]
        return None if start < 0 else index - start

    def with_card(self, index: int, card: int) -> int:
        """The same action naming another card (used to relabel hidden cards)."""
        a = self.actions[index]
        c = CARDS[card]
        if isinstance(a, Play):
            if a.request is not None or a.call_joker:
                return index  # a joker lead / a joker call: the card is always seen
            return self._index[Play(c)]
        if isinstance(a, Discard):
            return self._index[Discard((c,))]
        start = self._by_card_start[index]
        return index if start < 0 else start + card


# --------------------------------------------------------------------------------------------
# The stepper: an engine state at the env's granularity (decomposed discards, deal episodes)


class Stepper:
    """An engine state driven by catalog indices, with multi-card discards taken card by card.

    ``pending`` holds the cards picked so far of a discard of ``discard_size`` cards.
    """

    __slots__ = ("state", "catalog", "pending", "_legal_ids", "_discards", "_discard_size", "masked_out")

    def __init__(self, state: GameState, catalog: ActionCatalog, masked_out: frozenset[int] = frozenset()) -> None:
        self.state = state
        self.catalog = catalog
        self.masked_out = masked_out
        """Indices left out of the legal actions (the env's ``claims`` option)."""
        self.pending: tuple[int, ...] = ()
        self._legal_ids: tuple[int, ...] | None = None
        self._discards: dict[frozenset[int], Discard] | None = None
        self._discard_size = 0

    def copy(self) -> "Stepper":
        new = Stepper(self.state.copy(), self.catalog, self.masked_out)
        new.pending = self.pending
        new._legal_ids = self._legal_ids
        new._discards = self._discards
        new._discard_size = self._discard_size
        return new

    @property
    def to_act(self) -> int | None:
        return self.state.to_act

    def _multi_discards(self, legal: Sequence[Action]) -> dict[frozenset[int], Discard] | None:
        if self._discards is None:
            found = {frozenset(c.id for c in a.cards): a for a in legal if type(a) is Discard and len(a.cards) > 1}
            self._discards = found
            self._discard_size = len(next(iter(found))) if found else 0
        return self._discards or None

    def legal_ids(self) -> tuple[int, ...]:
        """The legal indices, ascending."""
        ids = self._legal_ids
        if ids is not None:
            return ids
        state = self.state
        if state.to_act is None:
            ids = ()
        else:
            legal = state.legal_actions()
            attempts = state.attempt_actions()
            if attempts:  # offered whether or not they hold: masking them in would leak
                legal = tuple(a for a in legal if a not in attempts)
            multi = self._multi_discards(legal) if any(type(a) is Discard for a in legal) else None
            index = self.catalog._index
            out: set[int] = set()
            start = self.catalog.discard_start
            for a in legal:
                if type(a) is Discard and len(a.cards) > 1:
                    continue
                i = index.get(a)
                if i is None:
                    raise KeyError(
                        f"{state.game_id}: the legal action {a!r} has no index in the catalog"
                        " (its GameInfo.action_space)"
                    )
                out.add(i)
            if multi:
                assert start is not None
                picked = set(self.pending)
                for combo in multi:
                    if picked <= combo:
                        for c in combo - picked:
                            out.add(start + c)
            if self.masked_out:
                out -= self.masked_out
            ids = tuple(sorted(out))
        self._legal_ids = ids
        return ids

    def legal_mask(self) -> np.ndarray:
        mask = np.zeros(self.catalog.size, dtype=np.int8)
        ids = self.legal_ids()
        if ids:
            mask[list(ids)] = 1
        return mask

    def check(self, index: int) -> None:
        if not isinstance(index, (int, np.integer)) or not 0 <= int(index) < self.catalog.size:
            raise IllegalActionError(
                self.state.to_act, f"action {index!r}", f"an action is an integer 0..{self.catalog.size - 1}"
            )
        if int(index) not in self.legal_ids():
            seat = self.state.to_act
            action = self.catalog.actions[int(index)]
            if self.pending:
                raise IllegalActionError(
                    seat,
                    action,
                    f"no legal discard holds the cards picked so "
                    f"far ({' '.join(CARDS[c].code for c in self.pending)}) and this one",
                )
            if seat is None:
                raise IllegalActionError(None, action, "no one is to act")
            if int(index) in self.masked_out:
                raise IllegalActionError(seat, action, "left out of this environment's actions (its claims option)")
            self.state.check(action)  # raises with the rule's words
            raise IllegalActionError(seat, action, "not legal now")

    def claim_if_it_holds(self) -> bool:
        """Claim for the seat to act when its claim holds (the env's ``claims="auto"``): tried on
        a copy first (a failed claim there is a chombo or a refusal, and nothing happens here)."""
        state = self.state
        if state.to_act is None or self.pending or CLAIM not in state.legal_actions() + state.attempt_actions():
            return False
        trial = state.copy()
        deal_no = trial.deal_number
        try:
            trial.apply(CLAIM)
        except IllegalActionError:
            return False  # refused (claim_failure=refuse): it does not hold
        if trial.deal_number == deal_no and not trial.is_over:
            return False  # the claim did not end the play
        last = getattr(trial.view(None), "last_deal", None)
        if not isinstance(last, Mapping) or last.get("failed_claim"):
            return False
        self._legal_ids = None
        state.apply(CLAIM)
        return True

    def apply(self, index: int, trusted: bool = False) -> Action | None:
        """Take one env step; returns the engine action applied (None for a pending pick).
        ``trusted``: the stepper does not check the step (a replay of steps once taken, or of
        relabelled ones whose engine check is enough): the engine's own ``apply`` still
        refuses an illegal action, and the picks of a multi-card discard are checked as a
        whole at the last pick (``KeyError`` for a discard that is not legal)."""
        index = int(index)
        start = self.catalog.discard_start
        if not trusted:
            self.check(index)
        elif (
            self._discards is None
            and start is not None
            and start <= index < start + 53
            and any(type(a) is Discard for a in self.state.legal_actions())
        ):
            self._multi_discards(self.state.legal_actions())
        self._legal_ids = None
        if self._discards and start is not None and start <= index < start + 53:
            picked = self.pending + (index - start,)
            if len(picked) < self._discard_size:
                self.pending = picked
                return None
            action: Action = self._discards[frozenset(picked)]
            self.pending = ()
        else:
            action = self.catalog.actions[index]
        self._discards = None
        self._discard_size = 0
        self.state.apply(action)
        return action


# --------------------------------------------------------------------------------------------
# Observations


_SEAT_NAMES = SEAT_FIELD_NAMES
_SEAT_LIST_NAMES = {"face_down"}
_SKIP = {"game", "seat", "legal_actions", "attempts", "options"}
_VOCAB = ("S", "H", "D", "C", "N", "any")


def _strip_none(hint: Any) -> tuple[Any, bool]:
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(hint) if a is not type(None)]
        optional = len(args) < len(typing.get_args(hint))
        if len(args) == 1:
            return args[0], optional
        return typing.Union[tuple(args)], optional
    return hint, False


def _is_action(hint: Any) -> bool:
    """An action type: the protocol, a class following it (a game's own included), or a union
    of them."""
    if hint is Action:
        return True
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        return all(_is_action(a) for a in typing.get_args(hint))
    return (
        isinstance(hint, type) and callable(getattr(hint, "to_json", None)) and callable(getattr(hint, "label", None))
    )


def _is_seat_name(name: str, extra: tuple[str, ...]) -> bool:
    return (
        name in _SEAT_NAMES
        or name in extra
        or name.endswith("_seat")
        or name.endswith("_winner")
        or name.endswith("_player")
    )


def _is_pair_name(name: str) -> bool:
    return name.endswith("_pair") or name == "sitting_out"


def _tuple_of(hint: Any) -> Any:
    """``X`` for ``tuple[X, ...]`` (None stripped from X), else None."""
    if typing.get_origin(hint) is not tuple:
        return None
    args = typing.get_args(hint)
    if len(args) != 2 or args[1] is not Ellipsis:
        return None
    return _strip_none(args[0])[0]


def _pair_args(hint: Any) -> tuple[Any, ...]:
    """``(A, B)`` for ``tuple[A, B]`` (None stripped from each), else ()."""
    if typing.get_origin(hint) is not tuple:
        return ()
    args = typing.get_args(hint)
    if len(args) != 2 or args[1] is Ellipsis:
        return ()
    return tuple(_strip_none(a)[0] for a in args)


def _is_number(hint: Any) -> bool:
    if hint in (int, float):
        return True
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        return all(a in (int, float) for a in typing.get_args(hint))
    return False


@dataclass(frozen=True)
class Block:
    """One field's slice of the observation vector."""

    name: str
    offset: int
    size: int
    kind: str
    encode: Callable[[Any, int, np.ndarray, int], None] = dataclasses.field(repr=False, compare=False)


class ObservationEncoder:
    """Encodes a seat's view of one game (with given options) into a float32 vector.

    Built from the View subclass's field types; fields of a type it does not know are left out
    and listed in ``skipped``.
    """

    def __init__(
        self,
        game_id: str,
        options: Any,
        num_players: int,
        catalog: ActionCatalog,
        phases: Sequence[str],
        view_type: type,
    ) -> None:
        self.game_id = game_id
        self.n = n = num_players
        self.catalog = catalog
        self.phases = tuple(phases)
        spec = catalog.spec
        hints = typing.get_type_hints(view_type)
        blocks: list[Block] = []
        self.skipped: list[str] = []
        off = 0
        N = catalog.size

        def add(name: str, size: int, kind: str, fn: Callable[[Any, int, np.ndarray, int], None]) -> None:
            nonlocal off
            blocks.append(Block(name, off, size, kind, fn))
            off += size

        pairs = max(1, n // 2)
        for f in dataclasses.fields(view_type):
            name = f.name
            if name in _SKIP:
                continue
            hint, optional = _strip_none(hints[name])
            origin = typing.get_origin(hint)
            args = typing.get_args(hint)
            elem = _tuple_of(hint)
            pair = _pair_args(elem) if elem is not None else ()
            if name == "phase":
                add(
                    name,
                    len(self.phases),
                    "one-hot phase " + " ".join(self.phases),
                    _phase_encoder({p: i for i, p in enumerate(self.phases)}),
                )
            elif hint is Card:
                add(name, 53, "card one-hot (53)", _enc_card)
            elif origin in (tuple, frozenset, set) and args and args[0] is Card:
                add(name, 53, "card set (53)", _enc_cards)
            elif hint is Trick:
                add(
                    name,
                    n * 53 + n,
                    f"trick: cards by relative seat ({n}×53), leader one-hot ({n})",
                    lambda v, seat, out, o: _enc_trick(v, seat, out, o, n),
                )
            elif origin is tuple and args and args[0] is Trick:
                add(
                    name,
                    n * 53 + 1,
                    f"tricks: cards by relative seat ({n}×53), count",
                    lambda v, seat, out, o: _enc_tricks(v, seat, out, o, n),
                )
            elif hint is bool and optional:
                add(name, 2, "true, false (both 0: not known)", _enc_optional_bool)
            elif hint is bool:
                add(name, 1, "0/1", _enc_number)
            elif hint is int and _is_pair_name(name):
                add(
                    name,
                    pairs,
                    f"pair one-hot relative to the seat's own pair ({pairs}); all 0: none",
                    lambda v, seat, out, o: _enc_seat(v, seat % pairs, out, o, pairs),
                )
            elif elem is int and (name in _SEAT_LIST_NAMES or _is_seat_name(name, spec.seat_fields)):
                add(
                    name,
                    n,
                    f"relative seats multi-hot ({n})",
                    lambda v, seat, out, o: _enc_seat_list(v, seat, out, o, n),
                )
            elif pair[:1] == (int,) and pair[1:] == (Card,):
                add(
                    name,
                    n * 53 + n,
                    f"plays: card by relative seat ({n}×53), face-down flag by relative seat ({n})",
                    lambda v, seat, out, o: _enc_plays(v, seat, out, o, n),
                )
            elif pair[:1] == (Trick,) and pair[1:] == (int,):
                add(
                    name,
                    n * 53 + n,
                    f"tricks: cards by relative seat ({n}×53), tricks won by relative seat ({n})",
                    lambda v, seat, out, o: _enc_won_tricks(v, seat, out, o, n),
                )
            elif pair[:1] == (int,) and pair[1:] == (bool,):
                add(
                    name,
                    2 * n,
                    f"answers by relative seat: yes ({n}), no ({n})",
                    lambda v, seat, out, o: _enc_answers(v, seat, out, o, n),
                )
            elif hint is int and _is_seat_name(name, spec.seat_fields):
                add(
                    name,
                    n,
                    f"relative seat one-hot ({n}); all 0: none",
                    lambda v, seat, out, o: _enc_seat(v, seat, out, o, n),
                )
            elif _is_number(hint) and optional:
                add(name, 2, "number, present (0/1)", _enc_optional_number)
            elif _is_number(hint):
                add(name, 1, "number", _enc_number)
            elif _is_action(hint):
                add(name, N, f"action one-hot ({N})", lambda v, seat, out, o: _enc_action(v, out, o, catalog))
            elif hint is str or typing.get_origin(hint) is typing.Literal:
                add(name, len(_VOCAB) + 1, "one-hot " + " ".join(_VOCAB) + " other", _enc_word)
            elif elem is str:
                add(
                    name,
                    len(_VOCAB) + 1,
                    "counts " + " ".join(_VOCAB) + " other (None entries: none)",
                    _enc_word_counts,
                )
            elif hint is Suit:
                add(name, 4, "suit one-hot S H D C", _enc_suit)
            elif origin is tuple and len(args) == 2 and args[1] is Ellipsis and _is_number(args[0]):
                add(
                    name,
                    n,
                    f"numbers per seat/unit, own first (≤{n})",
                    lambda v, seat, out, o: _enc_rotated(v, seat, out, o, n),
                )
            elif origin is tuple and len(args) == 2 and args[1] is Ellipsis and args[0] is bool:
                add(
                    name,
                    n,
                    f"flags per seat/unit, own first (≤{n})",
                    lambda v, seat, out, o: _enc_rotated(v, seat, out, o, n),
                )
            elif origin is tuple and len(args) >= 2 and args[-1] is not Ellipsis and all(_is_number(a) for a in args):
                add(
                    name,
                    n,
                    f"numbers per seat/unit, own first (≤{n})",
                    lambda v, seat, out, o: _enc_rotated(v, seat, out, o, n),
                )
            elif elem is not None and typing.get_origin(elem) is tuple and typing.get_args(elem)[:1] == (Card,):
                add(
                    name,
                    n * 53,
                    f"cards per seat/unit, own first ({n}×53)",
                    lambda v, seat, out, o: _enc_card_sets(v, seat, out, o, n),
                )
            elif origin is tuple and args and _is_seat_action_pair(args[0]):
                add(
                    name,
                    n * N + n + N,
                    f"history: action counts by relative seat ({n}×{N}), "
                    f"latest entry: seat one-hot ({n}), action one-hot ({N})",
                    lambda v, seat, out, o: _enc_history(v, seat, out, o, n, catalog),
                )
            elif origin is tuple and args and _is_action(args[0]):
                add(name, N, f"action counts ({N})", lambda v, seat, out, o: _enc_action_counts(v, out, o, catalog))
            else:
                self.skipped.append(name)
        if "discard" in spec.families:
            add(
                "pending_discard",
                53,
                "card set (53): the cards picked so far of a multi-card discard",
                lambda v, seat, out, o: None,
            )
        self.blocks = tuple(blocks)
        self.size = off
        self._fields = tuple(
            (b.name, b.offset, b.encode)
            for b in blocks
            if b.name != "pending_discard" and not b.kind.startswith(("history", "action counts"))
        )
        self._memo_fields = tuple(
            (b.name, b.offset, b.size, b.encode) for b in blocks if b.kind.startswith(("history", "action counts"))
        )
        """Blocks that change seldom and cost much (bidding histories): kept per seat and copied
        while the field's value stays equal."""
        self._memo: dict[tuple[str, int], tuple[Any, np.ndarray]] = {}
        self._pending_offset = next((b.offset for b in blocks if b.name == "pending_discard"), None)
        self._all_fields = tuple(
            (b.name, b.offset, b.size, _as_float32(b.encode, b.size) if b.kind.startswith("number") else b.encode)
            for b in blocks
            if b.name != "pending_discard"
        )
        self._last: dict[int, tuple[list[Any], list[float]]] = {}
        """Per seat, the field values last encoded by :meth:`encode_list` and their encoding."""
        self._zeros = [0.0] * max((b.size for b in blocks), default=0)

    def encode(self, view: View, pending: Sequence[int] = (), out: np.ndarray | None = None) -> np.ndarray:
        if out is None:
            out = np.zeros(self.size, dtype=np.float32)
        else:
            out.fill(0.0)
        seat = view.seat if view.seat is not None else 0
        for name, off, fn in self._fields:
            v = getattr(view, name)
            if v is not None:
                fn(v, seat, out, off)
        memo = self._memo
        for name, off, size, fn in self._memo_fields:
            v = getattr(view, name)
            if v is None:
                continue
            got = memo.get((name, seat))
            if got is not None and got[0] == v:
                out[off : off + size] = got[1]
            else:
                fn(v, seat, out, off)
                memo[(name, seat)] = (v, out[off : off + size].copy())
        if pending and self._pending_offset is not None:
            for c in pending:
                out[self._pending_offset + c] = 1.0
        return out

    def encode_list(self, view: View, pending: Sequence[int] = ()) -> list[float]:
        """``encode(view, pending).tolist()``, the same floats, made incrementally: the encoder
        keeps per seat the field values it encoded last and their encoding, and encodes again
        only the fields whose value changed (a step changes few); no numpy on the way (pyspiel's
        methods return lists).  The encoding of a field is a function of its value and the seat
        alone, so a value equal to the kept one has the kept encoding."""
        seat = view.seat if view.seat is not None else 0
        last = self._last.get(seat)
        if last is None:
            values: list[Any] = [None] * len(self._all_fields)
            out = [0.0] * self.size
            last = self._last[seat] = (values, out)
            fresh = True
        else:
            values, out = last
            fresh = False
        zeros = self._zeros
        slots = typing.cast(np.ndarray, out)  # the block encoders only index, set and add: a list serves
        try:
            for i, (name, off, size, fn) in enumerate(self._all_fields):
                v = getattr(view, name)
                old = values[i]
                if not fresh and (v is old or v == old):
                    continue
                if not fresh and old is not None:
                    out[off : off + size] = zeros[:size]
                if v is not None:
                    fn(v, seat, slots, off)
                values[i] = v
        except BaseException:
            del self._last[seat]  # half encoded: start afresh next time
            raise
        o = self._pending_offset
        if o is None:
            return out[:]
        got = out[:]
        for c in pending:
            got[o + c] = 1.0
        return got

    def layout(self) -> list[tuple[str, int, int, str]]:
        return [(b.name, b.offset, b.size, b.kind) for b in self.blocks]

    def scales(self, hand: int) -> np.ndarray:
        """The factors of the ``scaled`` observation: every slot is 0/1 or a small count already,
        but numbers: card counts and tricks ÷ the hand size ``hand``, scores ÷ the bound of a
        deal's score, numbers of seats ÷ the largest table, deal counts and targets ÷ 20
        (:func:`scale_of`)."""
        out = np.ones(self.size, dtype=np.float32)
        n = self.n
        for b in self.blocks:
            if b.kind.startswith("number"):
                out[b.offset : b.offset + b.size] = 1.0 / scale_of(b.name, hand, self.catalog.spec)
            elif b.kind.startswith("tricks: cards by relative seat") and b.kind.endswith("count"):
                out[b.offset + b.size - 1] = 1.0 / hand
            elif b.kind.startswith("tricks: cards by relative seat") and "tricks won" in b.kind:
                out[b.offset + b.size - n : b.offset + b.size] = 1.0 / hand
        return out


def _as_float32(
    fn: Callable[[Any, int, np.ndarray, int], None], size: int
) -> Callable[[Any, int, np.ndarray, int], None]:
    """A number block's encoder for :meth:`ObservationEncoder.encode_list`: its floats rounded
    to float32, as the numpy encoding holds them (a score of 0.1 is 0.10000000149011612 there):
    packed to float32 and back by ``struct`` (the same rounding as numpy's cast, without an array
    per block; numpy's for what does not fit a float32)."""
    packing = struct.Struct(f"<{size}f")

    def enc(v: Any, seat: int, out: np.ndarray, o: int) -> None:
        fn(v, seat, out, o)
        block = out[o : o + size]
        try:
            out[o : o + size] = packing.unpack(packing.pack(*block))
        except (OverflowError, struct.error):
            out[o : o + size] = np.asarray(block, dtype=np.float32).tolist()

    return enc


_CARD_COUNTS = ("hand_sizes", "tricks_played", "tricks_won", "team_tricks")
_SCORES = ("totals",)


def scale_of(name: str, hand: int, spec: GameSpec) -> float:
    """The divisor of a number field of a view under ``scaled``."""
    if name in _CARD_COUNTS:
        return float(hand)
    if name in _SCORES:
        return float(spec.deal_score)
    if name == "players":
        return float(spec.max_seats)
    return 20.0


def _phase_encoder(index: dict[str, int]) -> Callable[[Any, int, np.ndarray, int], None]:
    def enc(v: Any, seat: int, out: np.ndarray, o: int) -> None:
        out[o + index[v]] = 1.0

    return enc


def _is_seat_action_pair(hint: Any) -> bool:
    if typing.get_origin(hint) is not tuple:
        return False
    a = typing.get_args(hint)
    return len(a) == 2 and a[0] is int and _is_action(a[1])


def _enc_seat_list(v: Sequence[int], seat: int, out: np.ndarray, o: int, n: int) -> None:
    for s in v:
        out[o + (s - seat) % n] = 1.0


def _enc_plays(v: Sequence[tuple[int, Card | None]], seat: int, out: np.ndarray, o: int, n: int) -> None:
    for s, c in v:
        r = (s - seat) % n
        if c is None:
            out[o + n * 53 + r] = 1.0
        else:
            out[o + r * 53 + c.id] = 1.0


def _enc_won_tricks(v: Sequence[tuple[Trick, int]], seat: int, out: np.ndarray, o: int, n: int) -> None:
    for t, w in v:
        for s, c in t.plays:
            if c is not None:
                out[o + ((s - seat) % n) * 53 + c.id] = 1.0
        out[o + n * 53 + (w - seat) % n] += 1.0


def _enc_answers(v: Sequence[tuple[int, bool]], seat: int, out: np.ndarray, o: int, n: int) -> None:
    for s, yes in v:
        out[o + (0 if yes else n) + (s - seat) % n] = 1.0


def _enc_card(v: Card, seat: int, out: np.ndarray, o: int) -> None:
    out[o + v.id] = 1.0


def _enc_cards(v: Iterable[Card], seat: int, out: np.ndarray, o: int) -> None:
    for c in v:
        if c is not None:
            out[o + c.id] = 1.0


def _enc_trick(v: Trick, seat: int, out: np.ndarray, o: int, n: int) -> None:
    for s, c in v.plays:
        if c is not None:
            out[o + ((s - seat) % n) * 53 + c.id] = 1.0
    out[o + n * 53 + (v.leader - seat) % n] = 1.0


def _enc_tricks(v: Sequence[Trick], seat: int, out: np.ndarray, o: int, n: int) -> None:
    for t in v:
        for s, c in t.plays:
            if c is not None:
                out[o + ((s - seat) % n) * 53 + c.id] = 1.0
    out[o + n * 53] = float(len(v))


def _enc_seat(v: int, seat: int, out: np.ndarray, o: int, n: int) -> None:
    out[o + (v - seat) % n] = 1.0


def _enc_number(v: Any, seat: int, out: np.ndarray, o: int) -> None:
    out[o] = float(v)


def _enc_optional_bool(v: Any, seat: int, out: np.ndarray, o: int) -> None:
    out[o if v else o + 1] = 1.0


def _enc_optional_number(v: Any, seat: int, out: np.ndarray, o: int) -> None:
    out[o] = float(v)
    out[o + 1] = 1.0


def _word_index(w: Any) -> int:
    """A word's place in ``_VOCAB`` (an enum by its value); ``len(_VOCAB)``: other."""
    w = getattr(w, "value", w)
    return _VOCAB.index(w) if w in _VOCAB else len(_VOCAB)


def _enc_word(v: Any, seat: int, out: np.ndarray, o: int) -> None:
    out[o + _word_index(v)] = 1.0


def _enc_word_counts(v: Sequence[str | None], seat: int, out: np.ndarray, o: int) -> None:
    for w in v:
        if w is not None:
            out[o + _word_index(w)] += 1.0


def _enc_suit(v: Suit, seat: int, out: np.ndarray, o: int) -> None:
    out[o + v.index] = 1.0


def _enc_rotated(v: Sequence[Any], seat: int, out: np.ndarray, o: int, n: int) -> None:
    k = len(v)
    if k == 0:
        return
    base = seat % k
    for i, x in enumerate(v[:n]):
        if x is not None:
            out[o + (i - base) % k] = float(x)


def _enc_card_sets(v: Sequence[Sequence[Card] | None], seat: int, out: np.ndarray, o: int, n: int) -> None:
    k = len(v)
    base = seat % k if k else 0
    for i, cards in enumerate(v[:n]):
        if cards is None:
            continue
        r = (i - base) % k
        for c in cards:
            if c is not None:
                out[o + r * 53 + c.id] = 1.0


def _enc_action(v: Action, out: np.ndarray, o: int, catalog: ActionCatalog) -> None:
    i = catalog._index.get(v)
    if i is not None:
        out[o + i] = 1.0


def _enc_action_counts(v: Sequence[Action], out: np.ndarray, o: int, catalog: ActionCatalog) -> None:
    for a in v:
        i = catalog._index.get(a)
        if i is not None:
            out[o + i] += 1.0


def _enc_history(
    v: Sequence[tuple[int, Action]], seat: int, out: np.ndarray, o: int, n: int, catalog: ActionCatalog
) -> None:
    N = catalog.size
    index = catalog._index
    for s, a in v:
        i = index.get(a)
        if i is not None:
            out[o + ((s - seat) % n) * N + i] += 1.0
    if v:
        s, a = v[-1]
        out[o + n * N + (s - seat) % n] = 1.0
        i = index.get(a)
        if i is not None:
            out[o + n * N + n + i] = 1.0


# --------------------------------------------------------------------------------------------
# What a view shows


# cards_in, NOT_SHOWN and the walk itself are the core's (kirifuda.seen), shared with the
# terminal and the practice table.


NAME_FIELDS = frozenset({"adjutant_card", "rensho"})
"""View fields that *name* a card without placing it: Napoleon's adjutant card (public once named;
its holder stays hidden) and Kakeya's rensho (♠A or ♣A by the trump; its holder hidden)."""

_FIELDS: dict[type, tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]] = {}
_EXTRACTORS: dict[type, dict[str, Callable[[Any, list[int]], None]]] = {}


def _action_cards(a: Any, out: list[int]) -> None:
    t = type(a)
    if t is Play:
        out.append(a.card.id)
    elif t is Discard:
        out.extend(c.id for c in a.cards)
    else:  # a game's own action naming a card (an adjutant's card, say)
        card = getattr(a, "card", None)
        if isinstance(card, Card):
            out.append(card.id)


def _extractor(hint: Any) -> Callable[[Any, list[int]], None]:
    """A fast walk for the cards of a view field of this type hint (:func:`_collect` otherwise)."""
    hint = _strip_none(hint)[0]
    elem = _tuple_of(hint)
    pair = _pair_args(elem) if elem is not None else ()

    def opt(fn: Callable[[Any, list[int]], None]) -> Callable[[Any, list[int]], None]:
        return lambda v, out: None if v is None else fn(v, out)

    if hint is Card:
        return opt(lambda v, out: out.append(v.id))
    if hint is Trick:
        return opt(lambda v, out: out.extend(c.id for _, c in v.plays if c is not None))
    if elem is Card:
        return opt(lambda v, out: out.extend(c.id for c in v if c is not None))
    if elem is Trick:
        return opt(lambda v, out: out.extend(c.id for t in v for _, c in t.plays if c is not None))
    if elem is not None and _tuple_of(elem) is Card:
        return opt(lambda v, out: out.extend(c.id for cs in v if cs is not None for c in cs if c is not None))
    if pair[:1] == (int,) and pair[1:] == (Card,):
        return opt(lambda v, out: out.extend(c.id for _, c in v if c is not None))
    if pair[:1] == (Trick,) and pair[1:] == (int,):
        return opt(lambda v, out: out.extend(c.id for t, _ in v for _, c in t.plays if c is not None))
    if pair[:1] == (int,) and _is_action(pair[1]):

        def actions(v: Any, out: list[int]) -> None:
            for _, a in v:
                _action_cards(a, out)

        return opt(actions)
    if _is_action(hint):
        return opt(_action_cards)
    return _collect


def _extractors(view_type: type) -> dict[str, Callable[[Any, list[int]], None]]:
    got = _EXTRACTORS.get(view_type)
    if got is None:
        hints = typing.get_type_hints(view_type)
        got = _EXTRACTORS[view_type] = {n: _extractor(hints[n]) for n in view_fields(view_type)[0]}
    return got


def _may_hold_cards(hint: Any, seen: frozenset[Any] = frozenset()) -> bool:
    """Whether a value of this type hint may hold a card (by its type alone)."""
    if hint is Any:
        return True
    origin = typing.get_origin(hint)
    if origin is typing.Literal:
        return False
    if origin is not None:
        return any(_may_hold_cards(a, seen) for a in typing.get_args(hint) if a is not Ellipsis)
    if hint in (int, float, bool, str, type(None), Suit) or hint in seen:
        return False
    if isinstance(hint, type) and issubclass(hint, Enum):
        return False
    if isinstance(hint, type) and dataclasses.is_dataclass(hint) and hint not in (Card, Trick):
        inner = typing.get_type_hints(hint)
        return any(_may_hold_cards(h, seen | {hint}) for h in inner.values())
    return True


def view_fields(view_type: type) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    """The fields of a view type that show cards of the deal, those of them that place cards,
    and every field but the legal actions and attempts."""
    got = _FIELDS.get(view_type)
    if got is None:
        names = [f.name for f in dataclasses.fields(view_type)]
        hints = typing.get_type_hints(view_type)
        shown = tuple(n for n in names if n not in NOT_SHOWN and _may_hold_cards(hints[n]))
        got = _FIELDS[view_type] = (
            shown,
            tuple(n for n in shown if n not in NAME_FIELDS),
            tuple(n for n in names if n not in ("legal_actions", "attempts")),
        )
    return got


def shown_cards(view: View) -> list[int]:
    """The ids of the cards of the current deal a view shows, named or placed (legal actions,
    attempts and the previous deal's result left out): a step of another seat naming a card is
    *seen* when its card newly shows here."""
    out: list[int] = []
    for name in view_fields(type(view))[0]:
        _collect(getattr(view, name), out)
    return out


def placed_cards(view: View) -> list[int]:
    """The ids of the cards whose place a view shows: the seat's hand, the cards on the table and
    in the tricks, the cards the rules show it (its discard, the middle, Unsun's indicator) — never
    a card its legal actions name, nor a card merely named (:data:`NAME_FIELDS`).  This, over the
    views a seat has had, is all a seat knows of where the cards are."""
    out: list[int] = []
    for name in view_fields(type(view))[1]:
        _collect(getattr(view, name), out)
    return out


def view_cards(view: View) -> tuple[list[int], list[int]]:
    """:func:`shown_cards` and :func:`placed_cards` of a view at once."""
    t = type(view)
    shown_names, placing, _ = view_fields(t)
    walk = _extractors(t)
    placed: list[int] = []
    for name in placing:
        walk[name](getattr(view, name), placed)
    shown = placed[:]
    for name in shown_names:
        if name in NAME_FIELDS:
            walk[name](getattr(view, name), shown)
    return shown, placed


_KEYS: dict[type, Callable[[Any], tuple[Any, ...]]] = {}


def view_key(view: View) -> tuple[Any, ...]:
    """A view as a comparable tuple, without its legal actions and attempts (they follow from the
    rest): two views of a seat are the same information when their keys are equal."""
    get = _KEYS.get(type(view))
    if get is None:
        names = view_fields(type(view))[2]
        get = _KEYS[type(view)] = operator.attrgetter(*names) if len(names) > 1 else (lambda v: (getattr(v, names[0]),))
    return get(view)


def view_string(view: View) -> str:
    """A canonical text of a view (JSON, sorted keys), without its legal actions (they follow
    from the rest of the view, and Napoleon's exchange has thousands)."""
    data = {name: _jsonable(getattr(view, name)) for name in view_fields(type(view))[2]}
    return json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


_PLAIN = frozenset({str, int, float, bool, type(None)})


def _jsonable(value: Any) -> Any:
    """:func:`~kirifuda.game.to_jsonable`, the same result, faster on what views hold most
    (plain values, cards, tuples of them): those are told by their exact type, everything else
    goes to ``to_jsonable``."""
    t = type(value)
    if t in _PLAIN:
        return value
    if t is Card:
        return value.code
    if t is tuple or t is list:
        return [_jsonable(v) for v in value]
    return to_jsonable(value)


# --------------------------------------------------------------------------------------------
# The env


class Memory:
    """What each seat has witnessed of the current deal (the env's ``recall`` option).

    A step is witnessed by every seat when it names no card or its card newly shows on the
    table (a card played face up, the adjutant's card named), else only by its actor (a
    discard, a face-down play).  Encoded for a seat: the cards each seat was seen to play
    (``n×53``, relative seats, own first) and, when ``full``, one row per step of the deal
    (the actor relative to the seat, the action one-hot or a hidden bit; up to the game's bound
    of steps), as OpenSpiel's information state tensor has them."""

    def __init__(self, num_players: int, catalog: ActionCatalog, full: bool) -> None:
        self.n = num_players
        self.catalog = catalog
        self.full = full
        self.rows = catalog.spec.deal_steps if full else 0
        self.row = num_players + catalog.size + 1
        self.size = num_players * 53 + self.rows * self.row
        self.events: list[tuple[int, int, bool]] = []
        """``(actor, action index, public)`` per step of the deal."""
        self._counts: dict[int, int] = {}

    def layout(self) -> list[tuple[str, int, int, str]]:
        n, N = self.n, self.catalog.size
        out = [("seen_played", 0, n * 53, f"recall: cards seen played this deal by relative seat ({n}×53)")]
        if self.full:
            out.append(
                (
                    "steps",
                    n * 53,
                    self.rows * self.row,
                    f"recall: per step of the deal ({self.rows} rows), actor relative seat ({n}), "
                    f"action one-hot ({N}), hidden ({1})",
                )
            )
        return out

    def start(self, state: GameState) -> None:
        self.events = []
        self._counts = count_cards(shown_cards(state.view(None)))

    def add(self, state: GameState, actor: int, index: int, applied: Action | None) -> None:
        card = self.catalog.card_of(index)
        counts = count_cards(shown_cards(state.view(None)))
        if card is None:
            public = True
        elif applied is None:  # a pick of a multi-card discard
            public = False
        else:
            public = counts.get(card, 0) > self._counts.get(card, 0)
        self._counts = counts
        self.events.append((actor, index, public))

    def encode(self, seat: int, out: np.ndarray) -> None:
        out.fill(0.0)
        n = self.n
        actions = self.catalog.actions
        base = n * 53
        row, rows = self.row, self.rows
        for t, (actor, index, public) in enumerate(self.events):
            rel = (actor - seat) % n
            seen = public or actor == seat
            action = actions[index]
            if seen and isinstance(action, Play):
                out[rel * 53 + action.card.id] = 1.0
            if t < rows:
                o = base + t * row
                out[o + rel] = 1.0
                out[o + n + (index if seen else self.catalog.size)] = 1.0


def count_cards(cards: list[int]) -> dict[int, int]:
    """How often each card id occurs."""
    out: dict[int, int] = {}
    for c in cards:
        out[c] = out.get(c, 0) + 1
    return out


def seat_units(num_players: int, num_units: int) -> list[int]:
    """The scoring unit of each seat: the seat itself, or ``seat % units`` for opposite teams."""
    return [s % num_units for s in range(num_players)]


class GameEnv:
    """One game as a research environment: integer actions, masks, observations, rewards.

    ``options``: the game's options as JSON (``{"players": 4}``); ``match``: one episode is the
    whole match instead of one deal; ``first``: the first seat of a fresh match, or ``"random"``.
    Illegal actions raise :class:`~kirifuda.errors.IllegalActionError` (state unchanged).

    For learning: ``recall`` adds the seat's memory of the deal to its observation (``"cards"``:
    the cards each seat was seen to play; ``"full"``: those and every step of the deal as the
    seat saw it, OpenSpiel's perfect recall); ``scaled`` scales the numbers of the observation to
    small ranges (:meth:`ObservationEncoder.scales`); ``claims`` (``"keep"``, ``"off"``,
    ``"auto"``): ``"off"`` leaves the claim out of the action mask, ``"auto"`` too, and claims
    for the seat to act whenever its claim holds (the rules' check with the actual hands, as the
    table does), so that random and early agents learn the game rather than chombo.
    """

    def __init__(
        self,
        game: str,
        options: Mapping[str, Any] | None = None,
        *,
        match: bool = False,
        first: int | str = 0,
        recall: str | None = None,
        scaled: bool = False,
        claims: str = "keep",
    ) -> None:
        if game not in GAMES:
            from ..games import find_game

            game = find_game(game).id
        self.info = GAMES[game]
        self.game_id = game
        self.options_json = dict(options or {})
        self.options = self.info.options(self.options_json)
        self.match = match
        self.first = first
        self.catalog = ActionCatalog.for_game(game)
        self.spec = self.catalog.spec
        probe = self.info.new_state(self.options, first=0)
        self.num_players = probe.num_players
        phases = [p.value for p in type(probe.phase)]
        probe.deal_random(random.Random(0))
        view_type = type(probe.view(0))
        self.num_units = len(probe.view(0).totals)
        self.units = seat_units(self.num_players, self.num_units)
        self.encoder = ObservationEncoder(game, self.options, self.num_players, self.catalog, phases, view_type)
        if recall not in (None, "cards", "full"):
            raise OptionError(f"recall={recall!r}: the choices are None, 'cards' and 'full'")
        if claims not in ("keep", "off", "auto"):
            raise OptionError(f"claims={claims!r}: the choices are 'keep', 'off' and 'auto'")
        self.recall = recall
        self.scaled = scaled
        self.claims = claims
        claim = self.catalog.family_start.get("claim")
        self.masked_out = frozenset([claim]) if claims != "keep" and claim is not None else frozenset()
        self.memory = Memory(self.num_players, self.catalog, recall == "full") if recall else None
        self.scale = self.encoder.scales(max(probe.view(0).hand_sizes)) if scaled else None
        self.obs_size = self.encoder.size + (self.memory.size if self.memory else 0)
        self.version = (
            f"kirifuda-env/{ENV_VERSION} {game} actions={self.catalog.size} "
            f"obs={self.obs_size}"
            + (f" recall={recall}" if recall else "")
            + (" scaled" if scaled else "")
            + (f" claims={claims}" if claims != "keep" else "")
        )
        self.rng = random.Random()
        self.stepper: Stepper | None = None
        self.done = True
        self._totals: tuple[float, ...] = ()
        self.listeners: list[Callable[[str], None]] = []
        """Called with ``"reset"`` after each reset and ``"step"`` after each step (the bots
        seated at the env follow the table through them)."""

    # -- episodes ------------------------------------------------------------------------
    def new_match(self) -> GameState:
        first = self.rng.randrange(self.num_players) if self.first == "random" else int(self.first)
        return self.info.new_state(self.options, first=first)

    def reset(self, seed: int | None = None) -> None:
        """A new episode: a fresh match and its first deal (seeded when ``seed`` is given)."""
        if seed is not None:
            self.rng = random.Random(seed)
        state = self.new_match()
        self.stepper = Stepper(state, self.catalog, self.masked_out)
        self._totals = tuple(float(x) for x in state.view(None).totals)
        self.done = False
        self._deal()
        for fn in self.listeners:
            fn("reset")

    def _deal(self) -> None:
        stepper = self.stepper
        assert stepper is not None
        state = stepper.state
        while state.needs_deal and not state.is_over:
            state.deal_random(self.rng)
        stepper._legal_ids = None
        if self.memory is not None:
            self.memory.start(state)

    @property
    def state(self) -> GameState:
        assert self.stepper is not None, "reset() first"
        return self.stepper.state

    @property
    def to_act(self) -> int | None:
        return None if self.done or self.stepper is None else self.stepper.to_act

    def legal_ids(self) -> tuple[int, ...]:
        return () if self.done or self.stepper is None else self.stepper.legal_ids()

    def legal_mask(self) -> np.ndarray:
        if self.done or self.stepper is None:
            return np.zeros(self.catalog.size, dtype=np.int8)
        return self.stepper.legal_mask()

    def view(self, seat: int | None) -> View:
        """The engine's view of ``seat`` (``None``: a spectator's): all that seat may know."""
        assert self.stepper is not None, "reset() first"
        return self.stepper.state.view(seat)

    def pending(self, seat: int) -> tuple[int, ...]:
        """The cards ``seat`` has picked so far of a multi-card discard (its own knowledge)."""
        stepper = self.stepper
        return stepper.pending if stepper is not None and stepper.to_act == seat else ()

    def observe(self, seat: int, out: np.ndarray | None = None) -> np.ndarray:
        """The observation vector of ``seat``: its view, and its pending discard picks."""
        stepper = self.stepper
        assert stepper is not None, "reset() first"
        pending = stepper.pending if stepper.to_act == seat else ()
        memory = self.memory
        if memory is None and self.scale is None:
            return self.encoder.encode(stepper.state.view(seat), pending, out)
        if out is None:
            out = np.zeros(self.obs_size, dtype=np.float32)
        size = self.encoder.size
        self.encoder.encode(stepper.state.view(seat), pending, out[:size])
        if self.scale is not None:
            out[:size] *= self.scale
        if memory is not None:
            memory.encode(seat, out[size:])
        return out

    def step(self, action: int) -> list[float] | None:
        """Take action ``action`` for the seat to act.  Returns the rewards per seat when a deal
        ended with this step (the episode may go on in match mode), else None."""
        if self.done or self.stepper is None:
            raise IllegalActionError(None, f"action {action!r}", "the episode is over: reset() first")
        stepper = self.stepper
        state = stepper.state
        deal_no = state.deal_number
        actor = stepper.to_act
        applied = stepper.apply(action)
        if self.memory is not None and state.deal_number == deal_no:
            assert actor is not None
            self.memory.add(state, actor, int(action), applied)
        if self.claims == "auto" and state.deal_number == deal_no:
            self._auto_claim()
        rewards = self._after_step(state, deal_no)
        for fn in self.listeners:
            fn("step")
        return rewards

    def _auto_claim(self) -> None:
        assert self.stepper is not None
        self.stepper.claim_if_it_holds()

    def _after_step(self, state: GameState, deal_no: int) -> list[float] | None:
        if state.deal_number == deal_no and not state.is_over:
            return None
        totals = tuple(float(x) for x in state.view(None).totals)
        score = [t - u for t, u in zip(totals, self._totals)]
        self._totals = totals
        rewards = [score[u] for u in self.units]
        if state.is_over or not self.match:
            self.done = True
        else:
            self._deal()
            if state.is_over:
                self.done = True
        return rewards


# --------------------------------------------------------------------------------------------
# Documentation


def layout_markdown(game: str, options: Mapping[str, Any] | None = None) -> str:
    """The observation layout and action ranges of a game, as a Markdown section (generated
    from the encoder: ``python -m kirifuda.env`` prints every game's)."""
    env = GameEnv(game, options, recall="full", scaled=True)
    base = env.encoder.size
    memory = env.memory
    assert memory is not None and env.scale is not None
    lines = [
        f"### {env.info.name_en} (`{game}`, options {json.dumps(dict(options or {}))})",
        "",
        f"{env.num_players} seats; {env.catalog.size} actions; observation vector of "
        f'{base} floats (`{GameEnv(game, options).version}`); with `recall="cards"` '
        f'{base + env.num_players * 53}, with `recall="full"` {env.obs_size}.',
        "",
        "| actions | first index | count |",
        "|---|---|---|",
    ]
    starts = sorted(env.catalog.family_start.items(), key=lambda kv: kv[1])
    ends = [s for _, s in starts[1:]] + [env.catalog.size]
    for (fam, start), end in zip(starts, ends):
        lines.append(f"| {fam} | {start} | {end - start} |")
    lines += ["", "| slice | view field | encoding | `scaled=True` |", "|---|---|---|---|"]
    for name, off, size, kind in env.encoder.layout():
        factors = sorted({float(x) for x in env.scale[off : off + size]})
        scale = (
            ""
            if factors == [1.0]
            else " ".join(f"×{x:.4g}" for x in factors if x != 1.0) + (" (count slots)" if len(factors) > 1 else "")
        )
        lines.append(f"| {off}:{off + size} | `{name}` | {kind} | {scale} |")
    for name, off, size, kind in memory.layout():
        lines.append(f"| {base + off}:{base + off + size} | `{name}` | {kind} | |")
    if env.encoder.skipped:
        lines += ["", "Left out: " + ", ".join(f"`{s}`" for s in env.encoder.skipped) + "."]
    return "\n".join(lines) + "\n"
