"""Game records (``kirifuda-record/1``): read, check, write and replay them.

The format is ``docs/records.md``: a JSON document holding a match's deals as dealt
and every action in order.  Reading checks the form (:func:`loads` raises :class:`RecordError`
with a JSON path); :func:`replay` plays the record through the game's engine, checking every
action against the rules, and returns the state.  Writers always emit the canonical form
(upper-case codes, ``T`` for the ten).  A deal may instead be a scored deal, ``{"scored": {...}}``:
the facts a scorer wrote down at a table playing with real cards, checked and scored by
:mod:`kirifuda.scored` (``docs/records.md``, "Scored deals").

>>> import random
>>> from kirifuda.games import find_game
>>> state = find_game("meitora").new_state()
>>> state.deal_random(random.Random(3))
>>> rec = from_state(state, players=["Aki", "Bo", "Chie", "Dai"])
>>> loads(dumps(rec)) == rec
True
>>> replay(rec).summary()["deals"][0]["outcome"]
'in-progress'
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import IO, Any, Iterator

from .actions import Action
from .cards import parse_card
from .errors import DealError, IllegalActionError, InvalidActionError, KirifudaError, OptionError, RecordError
from .game import GameInfo, GameState
from .scored import score_deal

__all__ = [
    "FORMAT",
    "Record",
    "DealRecord",
    "load",
    "loads",
    "dump",
    "dumps",
    "replay",
    "steps",
    "from_state",
    "replay_json",
]

FORMAT = "kirifuda-record/1"
_TOP_KEYS = {"format", "game", "options", "players", "first", "deals"}
_DEAL_KEYS = {"hands", "rest", "actions", "scored"}


@dataclass
class DealRecord:
    """One deal of a record: the hands (seat order), the undealt rest, the actions.  ``extra``
    keeps the deal's keys this version does not know (metadata another program wrote: Meitora's
    dealer, which the rules say affects nothing, a date, a comment), as the record's own
    ``extra`` does at the top."""

    hands: list[list[str]]
    rest: list[str]
    actions: list[dict[str, Any]] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)
    scored: dict[str, Any] | None = None
    """A scored deal's facts (``docs/records.md``, "Scored deals"): then ``hands``, ``rest``
    and ``actions`` are empty, and the deal is written as ``{"scored": {...}}``."""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any]
        if self.scored is not None:
            out = {"scored": self.scored}
        else:
            out = {"hands": self.hands, "rest": self.rest, "actions": self.actions}
        out.update(self.extra)
        return out


@dataclass
class Record:
    """A game record.  ``options`` holds the options as written (left-out ones take defaults);
    ``extra`` keeps top-level keys this version does not know (metadata such as a date)."""

    game: str
    options: dict[str, Any] = field(default_factory=dict)
    players: list[str] | None = None
    first: int = 0
    deals: list[DealRecord] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def info(self) -> GameInfo:
        from .games import GAMES

        return GAMES[self.game]

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"format": FORMAT, "game": self.game, "options": self.options}
        if self.players is not None:
            out["players"] = self.players
        out["first"] = self.first
        out.update(self.extra)
        out["deals"] = [d.to_json() for d in self.deals]
        return out

    def new_state(self) -> GameState:
        """A fresh state for this record's game, options and first seat."""
        return self.info.new_state(self.info.options(self.options), first=self.first)

    def __iter__(self) -> Iterator["Step"]:
        return steps(self)


# -- reading ------------------------------------------------------------------------------


def _canonical_cards(value: Any, path: str, deal: int) -> list[str]:
    if not isinstance(value, list):
        raise RecordError(f"{path} must be a list of card codes", deal=deal)
    out = []
    for k, code in enumerate(value):
        try:
            out.append(parse_card(code).code)
        except InvalidActionError as exc:
            raise RecordError(f"{path}[{k}]: {exc}", deal=deal) from None
    return out


def _canonical_action(info: GameInfo, data: Any, deal: int, index: int) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise RecordError("an action must be an object", deal=deal, action=index)
    seat = data.get("seat")
    if not isinstance(seat, int) or isinstance(seat, bool):
        raise RecordError(f"an action needs its seat (a number), got {seat!r}", deal=deal, action=index)
    try:
        action = info.action_from_json(data, seat)
    except InvalidActionError as exc:
        raise RecordError(str(exc), deal=deal, action=index, seat=seat) from None
    return dict(seat=seat, **action.to_json())


def from_json(data: Any) -> Record:
    """Check the form of a parsed record and build a :class:`Record` (canonical codes)."""
    from .games import GAMES

    if not isinstance(data, dict):
        raise RecordError("a record must be a JSON object")
    if data.get("format") != FORMAT:
        raise RecordError(f"format must be {FORMAT!r}, got {data.get('format')!r}")
    game = data.get("game")
    if not isinstance(game, str) or game not in GAMES:  # not a list or an object: unhashable
        raise RecordError(f"unknown game {game!r}; the games are {', '.join(sorted(GAMES))}")
    info = GAMES[game]
    options = data.get("options", {})
    if options is None:
        options = {}
    try:
        opts = info.options(options)
    except OptionError as exc:
        raise RecordError(f"options: {exc}") from None
    n = getattr(opts, "players", info.min_players)
    players = data.get("players")
    if players is not None:
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise RecordError("players must be a list of names")
        if len(players) != n:
            raise RecordError(f"players names {len(players)} seats, the table has {n}")
    first = data.get("first", 0)
    if not isinstance(first, int) or isinstance(first, bool) or not 0 <= first < n:
        raise RecordError(f"first must be a seat 0-{n - 1}, got {first!r}")
    deals_data = data.get("deals")
    if not isinstance(deals_data, list):
        raise RecordError("deals must be a list")
    deals = []
    for i, d in enumerate(deals_data):
        if not isinstance(d, dict):
            raise RecordError("a deal must be an object", deal=i)
        if "scored" in d:  # a scored deal: its facts are checked by the replay
            if not isinstance(d["scored"], dict):
                raise RecordError("scored: a scored deal's facts must be an object", deal=i)
            both = sorted(k for k in ("hands", "rest", "actions") if k in d)
            if both:
                raise RecordError(f"a scored deal carries its facts instead of {', '.join(both)}", deal=i)
            deals.append(
                DealRecord([], [], [], {k: v for k, v in d.items() if k not in _DEAL_KEYS}, scored=d["scored"])
            )
            continue
        for key in ("hands", "rest"):
            if key not in d:
                raise RecordError(f"a deal needs {key!r}", deal=i)
        if not isinstance(d["hands"], list):
            raise RecordError("hands must be a list of hands", deal=i)
        hands = [_canonical_cards(h, f"hands[{k}]", i) for k, h in enumerate(d["hands"])]
        rest = _canonical_cards(d["rest"], "rest", i)
        actions_data = d.get("actions", [])
        if not isinstance(actions_data, list):
            raise RecordError("actions must be a list", deal=i)
        actions = [_canonical_action(info, a, i, j) for j, a in enumerate(actions_data)]
        deals.append(DealRecord(hands, rest, actions, {k: v for k, v in d.items() if k not in _DEAL_KEYS}))
    extra = {k: v for k, v in data.items() if k not in _TOP_KEYS}
    return Record(game=game, options=dict(options), players=players, first=first, deals=deals, extra=extra)


def loads(text: str | bytes) -> Record:
    """Read a record from JSON text.  Raises RecordError (form only; see :func:`replay`)."""
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise RecordError(f"not valid JSON: {exc}") from None
    return from_json(data)


def load(fp: IO[str] | IO[bytes]) -> Record:
    return loads(fp.read())


# -- writing ------------------------------------------------------------------------------


def dumps(record: Record) -> str:
    """The canonical text: one line per hand and per action, so records diff well."""
    data = record.to_json()
    lines = ["{"]
    top = [(k, v) for k, v in data.items() if k != "deals"]
    for k, v in top:
        lines.append(f"  {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)},")
    lines.append('  "deals": [')
    for i, d in enumerate(data["deals"]):
        if "scored" in d:
            lines.append(f"    {json.dumps(d, ensure_ascii=False)}" + ("," if i < len(data["deals"]) - 1 else ""))
            continue
        lines.append("    {")
        lines.append('      "hands": [')
        hands = d["hands"]
        for n, h in enumerate(hands):
            lines.append(f"        {json.dumps(h)}" + ("," if n < len(hands) - 1 else ""))
        lines.append("      ],")
        lines.append(f'      "rest": {json.dumps(d["rest"])},')
        if d["actions"]:
            lines.append('      "actions": [')
            for j, a in enumerate(d["actions"]):
                lines.append(
                    f"        {json.dumps(a, ensure_ascii=False)}" + ("," if j < len(d["actions"]) - 1 else "")
                )
            lines.append("      ]")
        else:
            lines.append('      "actions": []')
        for k, v in d.items():
            if k not in _DEAL_KEYS:
                lines[-1] += ","
                lines.append(f"      {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}")
        lines.append("    }" + ("," if i < len(data["deals"]) - 1 else ""))
    lines.append("  ]")
    lines.append("}")
    return "\n".join(lines) + "\n"


def dump(record: Record, fp: IO[str]) -> None:
    fp.write(dumps(record))


def from_state(state: GameState, players: list[str] | None = None) -> Record:
    """The record of a match played (or being played) by the engine."""
    deals = [
        DealRecord([], [], [], scored=d["scored"]) if "scored" in d else DealRecord(d["hands"], d["rest"], d["actions"])
        for d in state.record_deals()
    ]
    return Record(game=state.game_id, options=state.options_json(), players=players, first=state.first, deals=deals)


# -- replaying ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Step:
    """One action of a replay: where it is, who took it, and the state after it."""

    deal: int
    index: int
    seat: int
    action: Action
    state: GameState


def steps(record: Record) -> Iterator[Step]:
    """Replay a record action by action, yielding each step (the state is shared: copy it to
    keep it).  Raises RecordError at the first deal or action the rules refuse."""
    return _walk(record, _new_state(record))


def replay(record: Record) -> GameState:
    """Play a whole record through the engine and return the final state."""
    state = _new_state(record)
    for _ in _walk(record, state):
        pass
    return state


def _new_state(record: Record) -> GameState:
    try:
        return record.new_state()
    except OptionError as exc:
        raise RecordError(f"options: {exc}") from None


def _walk(record: Record, state: GameState) -> Iterator[Step]:
    for i, deal in enumerate(record.deals):
        if not state.needs_deal:
            if state.is_over:
                raise RecordError("the match was already over before this deal", deal=i)
            raise RecordError(
                f"deal {i - 1} is not finished (its actions stop inside the deal), but another deal follows", deal=i - 1
            )
        if deal.scored is not None:
            score_deal(state, deal.scored, i)
            continue
        try:
            state.deal(deal.hands, deal.rest)
        except (DealError, InvalidActionError, IllegalActionError) as exc:
            raise RecordError(str(exc), deal=i) from None
        for j, data in enumerate(deal.actions):
            seat = data["seat"]
            try:
                action = record.info.action_from_json(data, seat)
            except InvalidActionError as exc:
                raise RecordError(str(exc), deal=i, action=j, seat=seat) from None
            if state.needs_deal or state.is_over:
                raise RecordError("the deal is already over: this action is one too many", deal=i, action=j, seat=seat)
            try:
                state.apply(action, seat)
            except KirifudaError as exc:
                raise RecordError(str(exc), deal=i, action=j, seat=seat) from None
            yield Step(i, j, seat, action, state)


def replay_json(record: Record) -> dict[str, Any]:
    """The ``kirifuda replay --json`` result."""
    return replay(record).summary()
