"""The game interface every game, bot, server and research adapter uses, and the registry.

A game is a module that declares a :class:`GameInfo` (id, names, aliases, table sizes, options
type, state type) and a state class derived from :class:`GameState`.  A state holds a whole match:

- ``phase`` and ``to_act`` (``None`` when no player is to act: before a deal, or at the end);
- ``needs_deal``: a chance node.  ``deal_random(rng)`` shuffles with the caller's seeded
  ``random.Random``; ``deal(hands, rest)`` takes the cards as given (records, tests);
- ``legal_actions()``: the single source of truth, in a stable order;
- ``check(action)`` raises :class:`IllegalActionError`; ``is_legal(action)``;
  ``apply(action)`` checks first, then changes the state (so a refused action changes nothing);
- ``view(seat)``: the only way anyone sees hidden information (``seat=None``: a spectator);
- ``outcome()``: the match result, ``None`` until the match is over;
- ``summary()``: the replay JSON of ``docs/records.md`` ("Replay").

The core knows no single game: games register themselves in :mod:`kirifuda.games`.
"""

from __future__ import annotations

import dataclasses
import functools
import random
import types
import typing
from abc import ABC, abstractmethod
from dataclasses import dataclass
from enum import Enum
from typing import Any, Callable, ClassVar, Mapping, Protocol, Sequence, TypeVar

from .actions import CHOMBO_KIND, Action, ActionFamily, ActionKind, ActionReader, Chombo
from .cards import Card
from .errors import IllegalActionError, OptionError

_NO_OPTIONS: Mapping[str, Any] = types.MappingProxyType({})

__all__ = [
    "GameState",
    "DealLog",
    "View",
    "Outcome",
    "GameInfo",
    "ActionSpace",
    "SEAT_FIELD_NAMES",
    "options_from_json",
    "options_to_json",
    "public_options",
    "parse_option_assignments",
    "to_jsonable",
]


@dataclass(frozen=True)
class Outcome:
    """The result of a finished match: totals per scoring unit and the winner(s)."""

    totals: tuple[float | int, ...]
    winner: int | tuple[int, ...]
    """A unit index, or a tuple of indices for a shared win."""


def to_jsonable(value: Any) -> Any:
    """Cards to codes, actions to their JSON, tuples to lists, enums to values."""
    if isinstance(value, Card):
        return value.code
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    to_json = getattr(value, "to_json", None)
    if callable(to_json):
        return to_json()
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_jsonable(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, Mapping):
        return {str(k): to_jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, frozenset, set)):
        return [to_jsonable(v) for v in value]
    raise TypeError(f"cannot encode {value!r}")


@dataclass(frozen=True, kw_only=True)
class View:
    """What one seat sees (or a spectator, ``seat=None``).  Games extend it with their public
    table; nothing in a view is hidden from its seat."""

    game: str
    seat: int | None
    phase: str
    to_act: int | None
    deal_number: int
    """0-based index of the current deal in the match."""
    hand: tuple[Card, ...]
    """The seat's own cards (empty for a spectator)."""
    hand_sizes: tuple[int, ...]
    legal_actions: tuple[Action, ...]
    """The seat's legal actions when it is to act, else empty: what the seat may do as far as
    it can know (with the ``attempts`` among them)."""
    attempts: tuple[Action, ...] = ()
    """Actions offered to the seat whose acceptance depends on cards it cannot see (Meitora's
    claim under ``claim_failure=refuse``): the engine refuses one that fails, with a message,
    and nothing changes.  Offering them only when they hold would tell the seat about the
    hidden cards."""
    totals: tuple[float | int, ...]
    options: Mapping[str, Any] = dataclasses.field(default_factory=lambda: _NO_OPTIONS)
    """The table's local rules, as in the record (public: every player knows them)."""

    SEAT_FIELDS: ClassVar[frozenset[str]] = frozenset({"to_act"})
    """Fields that hold a seat number (shown as the seat's name)."""

    def to_json(self) -> dict[str, Any]:
        return {f.name: to_jsonable(getattr(self, f.name)) for f in dataclasses.fields(self)}


V = TypeVar("V", bound=View)


def view_maker(cls: type[V]) -> Callable[..., V]:
    """A maker of ``cls`` views from keyword fields: the same view as ``cls(**fields)`` (equal,
    the same fields, defaults filled in), made without the frozen dataclass's ``__init__``,
    which sets each field through ``object.__setattr__``: an engine makes a view at every step
    of an environment, and that ``__init__`` was a good part of it.  The engine gives every
    field without a default and no other (``tests/test_views_fast.py`` holds each game to it:
    the maker does not check names, for speed)."""
    if hasattr(cls, "__post_init__"):
        return cls  # a check of its own: only the constructor makes it
    fields = dataclasses.fields(cls)
    defaults = {f.name: f.default for f in fields if f.default is not dataclasses.MISSING}
    factories = [(f.name, f.default_factory) for f in fields if f.default_factory is not dataclasses.MISSING]
    new = object.__new__

    def make(**given: Any) -> V:
        view = new(cls)
        d = view.__dict__
        d.update(defaults)
        for name, factory in factories:
            if name not in given:
                d[name] = factory()
        d.update(given)
        return view

    return make


S = TypeVar("S", bound="GameState")


class DealLog(Protocol):
    """A deal as it ended (or as it stands), as a game keeps it in its deal log
    (:attr:`GameState._results`): its replay summary and its record are built when asked for."""

    def summary(self) -> dict[str, Any]:
        """The deal's replay JSON (record spec §3)."""
        ...

    def record(self) -> dict[str, Any]:
        """The deal as a record deal: ``hands``, ``rest``, ``actions`` with seats."""
        ...


def _copy_fields(cls: type) -> tuple[str, ...]:
    """The fields a generated ``copy()`` carries over: ``COPY_FIELDS`` where the class declares
    them, else the ``__slots__`` of its classes (base first; ``()`` where it has none)."""
    declared: tuple[str, ...] | None = getattr(cls, "COPY_FIELDS", None)
    if declared is not None:
        return declared
    names: list[str] = []
    for klass in reversed(cls.__mro__):
        slots = klass.__dict__.get("__slots__", ())
        for name in (slots,) if isinstance(slots, str) else slots:
            if name not in names and name not in ("__dict__", "__weakref__"):
                names.append(name)
    return tuple(names)


def make_copy(cls: type[S]) -> Callable[[S], S]:
    """A ``copy()`` for the state class ``cls``, written out field by field (as fast as one
    written by hand): ``COPY_LISTS`` get their own list (``x[:]``), ``COPY_NESTED`` their own
    list of their own lists, every other field is shared (immutable values, or containers the
    state replaces whole and never changes in place)."""
    fields = _copy_fields(cls)
    lists = frozenset(getattr(cls, "COPY_LISTS", ()))
    nested = frozenset(getattr(cls, "COPY_NESTED", ()))
    unknown = sorted((lists | nested) - set(fields))
    if unknown or lists & nested:
        raise TypeError(
            f"{cls.__name__}: COPY_LISTS/COPY_NESTED name {unknown or sorted(lists & nested)}, "
            "which are not its fields or are named twice"
        )
    lines = ["def copy(self):", "    new = _new(_cls)"]
    for name in fields:
        if not name.isidentifier():
            raise TypeError(f"{cls.__name__}: {name!r} is not a field name")
        if name in nested:
            lines.append(f"    new.{name} = [x[:] for x in self.{name}]")
        elif name in lists:
            lines.append(f"    new.{name} = self.{name}[:]")
        else:
            lines.append(f"    new.{name} = self.{name}")
    lines.append("    return new")
    namespace: dict[str, Any] = {"_new": cls.__new__, "_cls": cls}
    exec(compile("\n".join(lines), f"<{cls.__qualname__}.copy>", "exec"), namespace)
    copy: Callable[[S], S] = namespace["copy"]
    copy.__qualname__ = f"{cls.__qualname__}.copy"
    copy.__doc__ = "A copy of the state to change independently (generated by ``GameState``)."
    copy._generated = True  # type: ignore[attr-defined]
    return copy


class GameState(ABC):
    """A match in progress.  Subclasses implement the ``_``-prefixed hooks."""

    game_id: ClassVar[str]
    num_players: int

    # -- copying -------------------------------------------------------------------------
    COPY_LISTS: ClassVar[tuple[str, ...]] = ()
    """Fields holding a list the state changes in place: a copy gets its own (``x[:]``)."""
    COPY_NESTED: ClassVar[tuple[str, ...]] = ()
    """Fields holding a list of lists, each changed in place: a copy gets its own of each."""
    COPY_FIELDS: ClassVar[tuple[str, ...] | None] = None
    """All the fields a copy carries over, where they are not the class's ``__slots__`` (the
    default): every other field is shared with the copy."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """A state class that declares its fields (as ``__slots__`` or ``COPY_FIELDS``) and
        neither it nor a base writes a ``copy()`` gets one generated: :func:`make_copy`."""
        super().__init_subclass__(**kwargs)
        inherited = cls.copy
        if (
            "copy" not in cls.__dict__
            and _copy_fields(cls)
            and (inherited is GameState.copy or getattr(inherited, "_generated", False))
        ):
            copy = make_copy(cls)
            cls.copy = copy  # type: ignore[method-assign, assignment]
            if "__copy__" not in cls.__dict__:
                cls.__copy__ = copy  # type: ignore[attr-defined]

    # -- what the state is ---------------------------------------------------------------
    DEAL_PHASE: ClassVar[Enum]
    """The game's phase of a chance node: the next deal must be dealt."""
    DONE_PHASE: ClassVar[Enum]
    """The game's phase once the match has ended."""
    _phase: Enum
    _to_act: int | None
    _deal_no: int

    @property
    def phase(self) -> Enum:
        return self._phase

    @property
    def to_act(self) -> int | None:
        """The seat to act; ``None`` at a chance node or when the match is over."""
        return self._to_act

    @property
    def needs_deal(self) -> bool:
        """True at a chance node: the next deal must be dealt."""
        return self._phase is self.DEAL_PHASE

    @property
    def is_over(self) -> bool:
        """True when the match has ended."""
        return self._phase is self.DONE_PHASE

    @property
    def deal_number(self) -> int:
        """0-based index of the current deal (the next one, at a chance node)."""
        return self._deal_no

    _legal: tuple[Action, ...] | None
    """The legal actions while the state does not change (``None``: to be computed); a game's
    ``_apply`` and dealing set it to ``None``."""

    def legal_actions(self) -> tuple[Action, ...]:
        """The legal actions of the seat to act, in a stable order (cached until the state
        changes)."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        return legal

    @abstractmethod
    def _compute_legal(self) -> tuple[Action, ...]:
        """The legal actions computed afresh (:meth:`legal_actions` caches them)."""

    def attempt_actions(self) -> tuple[Action, ...]:
        """The actions a view offers the seat to act whether or not they hold (see
        :attr:`View.attempts`): offered always, accepted by ``apply`` only when valid, so never
        in an agent's action mask."""
        return ()

    def uncached_legal_actions(self) -> tuple[Action, ...]:
        """``legal_actions()`` computed afresh (benchmarks measure this)."""
        return self._compute_legal()

    # -- dealing (chance) ----------------------------------------------------------------
    @abstractmethod
    def deal(self, hands: Sequence[Sequence[Card | str]], rest: Sequence[Card | str]) -> None:
        """Deal the given cards (seat order) and the undealt rest; raises ValueError naming what
        is wrong with them (sizes, a missing or doubled card)."""

    @abstractmethod
    def deal_random(self, rng: random.Random) -> None: ...

    # -- acting --------------------------------------------------------------------------
    def check(self, action: Action, seat: int | None = None) -> None:
        """Raise IllegalActionError if ``action`` (by ``seat``, if given) is not legal now."""
        if isinstance(action, Chombo):
            self._check_chombo(action)
            return
        to_act = self.to_act
        if to_act is None:
            raise IllegalActionError(seat, action, self._no_turn_reason())
        if seat is not None and seat != to_act:
            raise IllegalActionError(seat, action, f"it is seat {to_act}'s turn, not seat {seat}'s")
        if action not in self.legal_actions():
            raise IllegalActionError(to_act, action, self._why_illegal(action))

    def is_legal(self, action: Action, seat: int | None = None) -> bool:
        try:
            self.check(action, seat)
        except IllegalActionError:
            return False
        return True

    def apply(self, action: Action, seat: int | None = None) -> None:
        """Check the action, then carry it out.  A refused action leaves the state unchanged."""
        self.check(action, seat)
        self._apply(action)

    @abstractmethod
    def _apply(self, action: Action) -> None:
        """Carry out an action already checked."""

    def _check_chombo(self, action: Chombo) -> None:
        raise IllegalActionError(action.seat, action, f"{self.game_id} has no chombo")

    def _no_turn_reason(self) -> str:
        if self.is_over:
            return "the match is over"
        if self.needs_deal:
            return "the next deal has not been dealt"
        return "no one is to act"

    @abstractmethod
    def _why_illegal(self, action: Action) -> str:
        """A message naming the rule that forbids ``action`` for the seat to act."""

    # -- seeing --------------------------------------------------------------------------
    @abstractmethod
    def view(self, seat: int | None) -> View: ...

    @abstractmethod
    def outcome(self) -> Outcome | None: ...

    def unit_name(self, unit: int, lang: str = "en") -> str:
        """The display name of a scoring unit (a seat, unless the game scores by team)."""
        from .i18n import t

        return t("seat", lang, n=unit)

    @abstractmethod
    def summary(self) -> dict[str, Any]:
        """The replay JSON (record spec §3) for the match so far."""

    def copy(self: S) -> S:
        """A copy to change independently: generated from the class's declared fields
        (``__init_subclass__``), or written by a game that declares none."""
        raise NotImplementedError(
            f"{type(self).__name__} declares no fields to copy (__slots__ or COPY_FIELDS) and writes no copy()"
        )

    # -- the deal log --------------------------------------------------------------------
    _results: tuple[DealLog, ...]
    """The deals played so far, each as it ended."""
    _log: list[tuple[int, Action]]
    """The current deal's actions with their seats."""

    def _deal_in_progress(self) -> DealLog | None:
        """The deal being played as it stands (``None`` between deals)."""
        return None

    def deal_logs(self) -> list[DealLog]:
        """The deals so far: those played, then the one in progress."""
        logs = list(self._results)
        current = self._deal_in_progress()
        if current is not None:
            logs.append(current)
        return logs

    def deal_summaries(self) -> list[dict[str, Any]]:
        """The deals so far as replay JSON (``summary()``'s ``deals``)."""
        return [d.summary() for d in self.deal_logs()]

    # -- records -------------------------------------------------------------------------
    def record_deals(self) -> list[dict[str, Any]]:
        """The deals so far as record JSON: ``hands``, ``rest``, ``actions`` with seats."""
        return [d.record() for d in self.deal_logs()]

    @abstractmethod
    def options_json(self) -> dict[str, Any]: ...

    first: int


SEAT_FIELD_NAMES = frozenset(
    {
        "to_act",
        "declarer",
        "first_bidder",
        "leader",
        "dealer",
        "last_trick_winner",
        "last_player",
        "starting_player",
        "winner",
        "first",
        "taker",
        "dealing_seat",
        "leading_seat",
        "chooser",
        "sitting_out",
    }
)
"""View fields that hold a seat number in any game (with every ``*_seat``, ``*_winner`` and
``*_player``); a game adds its own in :attr:`ActionSpace.seat_fields`."""


@dataclass(frozen=True)
class ActionSpace:
    """A game's fixed action space and the bounds the research adapters need
    (:mod:`kirifuda.env`): which families of its action kinds it numbers, in that order
    (``GameInfo.action_kinds``' :class:`~kirifuda.actions.ActionFamily`, each family's actions
    in a fixed order: ``kirifuda.env.core.ActionCatalog``), and its sizes."""

    families: tuple[str, ...]
    """The action families the game's actions fall in (a legal action outside them is an error)."""
    max_seats: int
    deal_steps: int
    """An upper bound of env steps in one deal (OpenSpiel's history tensor and game length)."""
    deal_score: float
    """A bound of the absolute score of one deal, per scoring unit (OpenSpiel's utility range)."""
    bid_counts: tuple[int, ...] = ()
    """The counts a bid or re-declaration can name (with ``strains``)."""
    strains: str = ""
    """The strains a bid can name, in the catalog's order (``N``: no trump)."""
    zero_sum: bool = False
    seat_fields: tuple[str, ...] = ()
    """View fields holding a seat number, beyond :data:`SEAT_FIELD_NAMES`."""
    chance_filter: Callable[[Any, int, int], bool] | None = None
    """``(options, rest_index, card_id) -> allowed``: a restriction on a card of the rest."""


@dataclass(frozen=True)
class GameInfo:
    """A registered game: everything the rest of kirifuda knows of it (bots, env, server, UI,
    records and bench read a game only through this declaration and the state it makes)."""

    id: str
    name_ja: str
    name_en: str
    aliases: tuple[str, ...]
    min_players: int
    max_players: int
    options_type: type
    new_state: Callable[..., GameState]
    """``new_state(options, first=0)``: a fresh match waiting for its first deal."""
    action_kinds: tuple[ActionKind, ...] = ()
    """The kinds of action the game has (:class:`~kirifuda.actions.ActionKind`: the shared ones
    of :mod:`kirifuda.actions` it uses and its own), read from records by
    :meth:`action_from_json`; a referee's chombo is read for every game."""
    action_space: ActionSpace | None = None
    """The fixed action space and bounds (required of a registered game: ``tests/test_registry``)."""
    roles: Mapping[str, tuple[str, str]] = dataclasses.field(default_factory=dict)
    """The game's seats and roles by key, ``(ja, en)``: who a seat is in this game
    (``declarer``, ``napoleon``, ``dealer``, ...; ``seat`` and ``unit``, a scoring unit, at least)."""

    bot_modules: tuple[str, ...] = ()
    """The modules that register this game's bots when imported (its heuristic bot with
    ``kirifuda.bots.register_heuristic``, its search part and oracle with
    ``kirifuda.bots.search.register_search``, each with its own budgets per level)."""
    ui: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    """How the browser draws the game (the descriptor the server sends the page, which holds no
    per-game code): its keys are listed and checked in ``kirifuda/server/ui.py``."""

    parts: Mapping[str, str] = dataclasses.field(default_factory=dict)
    """The modules holding the game's part of a shared feature, by feature
    (:func:`kirifuda.games.game_part` imports them): ``words`` (its result sentences, roles and
    input forms, registered with :mod:`kirifuda.ui.results`), ``coach`` (each card's value with
    all hands open, for :mod:`kirifuda.coach`), ``scoresheet`` (what a scorer writes of a deal,
    a seat's role in it, the scoring units: :mod:`kirifuda.scored`, :mod:`kirifuda.stats`,
    :mod:`kirifuda.ratings`, the score keeper), ``vector`` (a batched env core in C for
    :mod:`kirifuda.env.vector`, optional).  A feature finds a game's part only here; a
    game without one is left out of that feature, or refused by it in words."""

    def __post_init__(self) -> None:
        if self.action_space is not None:
            known = {f.name for kind in self.action_kinds for f in kind.families}
            unknown = [f for f in self.action_space.families if f not in known]
            if unknown:
                raise ValueError(
                    f"game {self.id!r}: unknown action families {unknown}; its action kinds number "
                    f"{', '.join(sorted(known)) or 'none'}"
                )

    @functools.cached_property
    def _reader(self) -> ActionReader:
        kinds = self.action_kinds if CHOMBO_KIND in self.action_kinds else (*self.action_kinds, CHOMBO_KIND)
        return ActionReader(kinds, owner=self.name_en.split(" (")[0])

    def action_from_json(self, data: Mapping[str, Any], seat: int | None = None) -> Action:
        """One of the game's actions from its record JSON (``seat`` is the acting seat; a
        chombo's offending seat).  InvalidActionError naming the problem, or the action the game
        does not have."""
        return self._reader(data, seat)

    def action_family(self, name: str) -> ActionFamily:
        """One of the env families of the game's action kinds, by name (KeyError if none)."""
        for kind in self.action_kinds:
            for family in kind.families:
                if family.name == name:
                    return family
        raise KeyError(f"game {self.id!r} has no action family {name!r}")

    def options(self, data: Mapping[str, Any] | None = None) -> Any:
        return options_from_json(self.options_type, data or {})

    def role_name(self, role: str, lang: str = "en") -> str:
        """A role's name in ``lang`` (``ja`` or ``en``); the key itself where undeclared."""
        pair = self.roles.get(role)
        return role if pair is None else pair[0] if lang == "ja" else pair[1]


# -- options --------------------------------------------------------------------------------


def _check_type(cls_name: str, name: str, value: Any, hint: Any) -> Any:
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin is typing.Literal:
        for a in args:
            if value == a and type(value) is type(a):
                return value
        choices = ", ".join(repr(a) for a in args)
        raise OptionError(f"option {name}={value!r} is not one of {choices}")
    if origin in (typing.Union, types.UnionType):
        errors = []
        for a in args:
            try:
                return _check_type(cls_name, name, value, a)
            except OptionError as exc:
                errors.append(str(exc))
        raise OptionError(f"option {name}={value!r} has the wrong type")
    if hint is type(None):
        if value is None:
            return None
        raise OptionError(f"option {name}={value!r} is not null")
    if hint is bool:
        if isinstance(value, bool):
            return value
        raise OptionError(f"option {name}={value!r} must be true or false")
    if hint is int:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        raise OptionError(f"option {name}={value!r} must be a whole number")
    if hint is str:
        if isinstance(value, str):
            return value
        raise OptionError(f"option {name}={value!r} must be a string")
    return value


def options_from_json(cls: type, data: Mapping[str, Any]) -> Any:
    """Build an options dataclass from JSON, refusing unknown keys and wrong types."""
    if not isinstance(data, Mapping):
        raise OptionError(f"options must be an object, got {data!r}")
    hints = typing.get_type_hints(cls)
    names = {f.name for f in dataclasses.fields(cls)}
    unknown = sorted(set(data) - names)
    if unknown:
        raise OptionError(f"unknown option(s) {', '.join(unknown)}; this game's options are {', '.join(sorted(names))}")
    kwargs = {k: _check_type(cls.__name__, k, v, hints[k]) for k, v in data.items()}
    return cls(**kwargs)


def options_to_json(options: Any) -> dict[str, Any]:
    return {f.name: getattr(options, f.name) for f in dataclasses.fields(options)}


_PUBLIC_OPTIONS: dict[int, tuple[Any, Mapping[str, Any]]] = {}


def public_options(options: Any, as_json: Callable[[], dict[str, Any]]) -> Mapping[str, Any]:
    """The read-only mapping of a table's options that its views carry: ``as_json()`` (the
    state's ``options_json``, a function of the options alone), made once per options object
    (found by identity: views are made often, and hashing the options costs more)."""
    hit = _PUBLIC_OPTIONS.get(id(options))
    if hit is not None and hit[0] is options:
        return hit[1]
    if len(_PUBLIC_OPTIONS) >= 256:
        _PUBLIC_OPTIONS.clear()
    out = types.MappingProxyType(as_json())
    _PUBLIC_OPTIONS[id(options)] = (options, out)
    return out


def parse_option_assignments(items: Sequence[str]) -> dict[str, Any]:
    """``["claim_failure=refuse", "target=11"]`` → ``{"claim_failure": "refuse", "target": 11}``.
    Values are read as JSON where they can be (numbers, true/false, null), else as strings."""
    import json

    out: dict[str, Any] = {}
    for item in items:
        if "=" not in item:
            raise OptionError(f"an option is written name=value, got {item!r}")
        name, _, text = item.partition("=")
        try:
            value = json.loads(text)
        except json.JSONDecodeError:
            value = text
        out[name.strip()] = value
    return out
