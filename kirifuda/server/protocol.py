"""The WebSocket protocol of ``kirifuda serve``: JSON text frames, one object each.

Client → server (each message validated by a model of :mod:`.schema`):

- ``{"type": "hello", "token": str | null, "name": str?}`` — the first message.  A seat's secret
  token takes that seat; no token (``null``) watches as a spectator.
- ``{"type": "act", "version": int, "action": {...}}`` — an action in the record's form without
  ``seat`` (``{"bid": "7H"}``, ``{"play": "JK", "request": "any"}``), made on state ``version``.
- ``{"type": "ping"}``.

Server → client:

- ``{"type": "state", "version", "seat", "table", "view", "legal", "hand", "sheet",
  "finished_deal", "deadline"}`` — built by :func:`state_frame` from **that seat's view alone**
  (``view(None)`` for a spectator) and the table's public facts.  Sent after joining and after
  every change.  ``sheet`` holds the finished deals' results; ``finished_deal`` the hands and
  rest of the last finished deal, face up (a finished deal hides nothing).
- ``{"type": "presence", "version", "seats": [{"connected", "standin"}], "spectators"}`` —
  someone joined or left: the same facts as ``table.seats`` / ``table.spectators`` of the last
  state frame, sent instead of a whole state frame to everyone.
- ``{"type": "error", "code", "message", "version"}`` — a refused message; nothing changed.
  Codes: ``malformed``, ``unauthenticated``, ``spectator``, ``stale``, ``not_your_turn``,
  ``illegal``, ``over``, ``unavailable`` (the database could not store the action: try again),
  ``limit`` (a server limit: the message says which), ``timeout`` (no hello in time).
- ``{"type": "pong"}``.

The state ``version`` counts the table's events (deals dealt and actions taken): an action made
on any other version is stale and refused.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Any, Callable

import orjson

from ..actions import Action, Chombo
from ..errors import InvalidActionError
from ..cards import Card
from ..game import GameInfo, GameState, View, to_jsonable
from ..tricks import Trick
from ..ui.render import sorted_hand
from .schema import HelloMessage, InputError, PingMessage, parse_client_message

if TYPE_CHECKING:
    from .tables import LiveTable

__all__ = [
    "ProtocolError",
    "Hello",
    "Act",
    "Ping",
    "parse_message",
    "state_frame",
    "error_frame",
    "presence_frame",
    "encode",
    "legal_entries",
    "MAX_FRAME",
]

MAX_FRAME = 4096
"""The longest client frame accepted, in characters."""


class ProtocolError(Exception):
    """A refused message: ``code`` for programs, the message for people."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True)
class Hello:
    token: str | None
    name: str | None = None


@dataclass(frozen=True)
class Act:
    version: int
    action: Action


@dataclass(frozen=True)
class Ping:
    pass


Message = Hello | Act | Ping


def parse_message(raw: str | bytes, info: GameInfo, seat: int | None) -> Message:
    """Read one client frame.  Raises :class:`ProtocolError` (``malformed``) naming the fault.

    The frame is parsed by orjson and validated by the models of :mod:`.schema` (one per
    message type); an action is then read by the game (``action_from_json``)."""
    if len(raw) > MAX_FRAME:
        raise ProtocolError("malformed", f"a message may be at most {MAX_FRAME} characters long")
    try:
        msg = parse_client_message(raw)
    except InputError as exc:
        raise ProtocolError("malformed", str(exc)) from None
    if isinstance(msg, HelloMessage):
        return Hello(msg.token, msg.name)
    if isinstance(msg, PingMessage):
        return Ping()
    action_data = msg.action
    if "seat" in action_data:
        raise ProtocolError("malformed", "act: the action names no seat (the seat is the one you hold)")
    try:
        action = info.action_from_json(action_data, seat)
    except (InvalidActionError, ValueError, TypeError, KeyError, AttributeError, IndexError) as exc:
        raise ProtocolError("malformed", f"act: {exc}") from None
    if isinstance(action, Chombo):
        raise ProtocolError("malformed", "act: a chombo is recorded by a referee, not played")
    return Act(msg.version, action)


def error_frame(err: ProtocolError, version: int) -> dict[str, Any]:
    return {"type": "error", "code": err.code, "message": err.message, "version": version}


def legal_entries(view: View) -> list[dict[str, Any]]:
    """The seat's legal actions with their labels in both languages."""
    return [{"action": a.to_json(), "label": {"en": a.label("en"), "ja": a.label("ja")}} for a in view.legal_actions]


def score_sheet(state: GameState) -> list[dict[str, Any]]:
    """The finished deals' results (no cards: a finished deal's tricks are left out)."""
    out = []
    for d in state.summary()["deals"]:
        if d.get("outcome") == "in-progress":
            continue
        out.append({k: v for k, v in d.items() if k not in ("tricks", "hands")})
    return out


_Encoder = Callable[[Any], Any]
_ENCODERS: dict[type, _Encoder] = {}
"""Per concrete type, how :func:`kirifuda.game.to_jsonable` encodes its values (decided once
per type, in the same order of tests), so that a frame's view is not re-inspected value by
value."""


def _identity(value: Any) -> Any:
    return value


def _encoder(cls: type) -> _Encoder:
    enc = _ENCODERS.get(cls)
    if enc is not None:
        return enc
    if issubclass(cls, Card):

        def enc(value: Any) -> Any:
            return value.code
    elif issubclass(cls, Enum):

        def enc(value: Any) -> Any:
            return value.value
    elif issubclass(cls, (str, int, float, bool)) or cls is type(None):
        enc = _identity
    elif callable(getattr(cls, "to_json", None)) and not (issubclass(cls, View) and cls.to_json is View.to_json):

        def enc(value: Any) -> Any:
            return value.to_json()
    elif dataclasses.is_dataclass(cls):  # a view's to_json is this, field by field
        names = tuple(f.name for f in dataclasses.fields(cls))

        def enc(value: Any) -> Any:
            return {n: jsonable(getattr(value, n)) for n in names}
    elif issubclass(cls, Mapping):

        def enc(value: Any) -> Any:
            return {str(k): jsonable(v) for k, v in value.items()}
    elif issubclass(cls, (list, tuple, frozenset, set)):

        def enc(value: Any) -> Any:
            return [jsonable(v) for v in value]
    else:
        return to_jsonable  # raises its TypeError, naming the value
    _ENCODERS[cls] = enc
    return enc


def _field_names(cls: type) -> tuple[str, ...]:
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = _FIELD_NAMES[cls] = tuple(f.name for f in dataclasses.fields(cls))
    return names


_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


def jsonable(value: Any) -> Any:
    """:func:`kirifuda.game.to_jsonable`, the same output, decided once per type."""
    return _encoder(type(value))(value)


class LastDealCache:
    """The previous deal's result (``last_deal``: every hand face up, the same for every seat)
    encoded once per deal rather than once per frame: it is the largest part of a view and
    changes only when ``deal_number`` does (a deal's end both counts it and records it)."""

    __slots__ = ("deal_number", "value")

    def __init__(self) -> None:
        self.deal_number = -1
        self.value: Any = None

    def get(self, view: View) -> Any:
        if view.deal_number != self.deal_number:
            self.value = jsonable(getattr(view, "last_deal"))  # noqa: B009 (not every View has it)
            self.deal_number = view.deal_number
        return self.value


def view_json(view: View, last_deal: LastDealCache | None = None) -> dict[str, Any]:
    """``view.to_json()``, with each trick also naming the seat of each card (``seats``).
    With ``last_deal``, a view's ``last_deal`` field is encoded once per deal."""
    if last_deal is not None and hasattr(view, "last_deal"):
        names = _field_names(type(view))
        out: dict[str, Any] = {
            n: last_deal.get(view) if n == "last_deal" else jsonable(getattr(view, n)) for n in names
        }
    else:
        out = jsonable(view)
    for f in dataclasses.fields(view):
        value = getattr(view, f.name)
        if isinstance(value, Trick) and isinstance(out.get(f.name), dict):
            out[f.name]["seats"] = list(value.seats)
        elif (
            isinstance(value, tuple)
            and value
            and all(isinstance(v, Trick) for v in value)
            and isinstance(out.get(f.name), list)
        ):
            for t, j in zip(value, out[f.name]):
                if isinstance(j, dict):
                    j["seats"] = list(t.seats)
    return out


def state_frame(table: "LiveTable", seat: int | None) -> dict[str, Any]:
    """The frame for one seat (``None``: a spectator), from that seat's view alone."""
    view = table.view(seat)
    return {
        "type": "state",
        "version": table.version,
        "seat": seat,
        "table": table.public_info(),
        "view": view_json(view, table.last_deal_cache),
        "legal": legal_entries(view),
        "hand": [c.code for c in sorted_hand(view)],
        "sheet": table.sheet(),
        "finished_deal": table.finished_deal(),
        "deadline": table.deadline_for(seat),
    }


def presence_frame(table: "LiveTable") -> dict[str, Any]:
    """Who is at the table, after a join or a leave: per seat ``connected`` and ``standin``
    (as in the state frame's ``table.seats``), and the number of spectators."""
    info = table.public_info()
    return {
        "type": "presence",
        "version": table.version,
        "seats": [{"connected": s["connected"], "standin": s["standin"]} for s in info["seats"]],
        "spectators": info["spectators"],
        "drop_in": info.get("drop_in"),
    }


def encode(frame: dict[str, Any]) -> str:
    """A frame as JSON text (orjson; built once, sent to every connection that shares it)."""
    return orjson.dumps(frame).decode("utf-8")
