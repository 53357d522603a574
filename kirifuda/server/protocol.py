"""The WebSocket protocol of ``kirifuda serve``: JSON text frames, one object each.

Client → server:

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
- ``{"type": "error", "code", "message", "version"}`` — a refused message; nothing changed.
  Codes: ``malformed``, ``unauthenticated``, ``spectator``, ``stale``, ``not_your_turn``,
  ``illegal``, ``over``.
- ``{"type": "pong"}``.

The state ``version`` counts the table's events (deals dealt and actions taken): an action made
on any other version is stale and refused.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..actions import Action, Chombo
from ..errors import InvalidActionError
from ..game import GameInfo, GameState, View
from ..tricks import Trick
from ..ui.render import sorted_hand

if TYPE_CHECKING:
    from .tables import LiveTable

__all__ = ["ProtocolError", "Hello", "Act", "Ping", "parse_message", "state_frame", "error_frame",
           "legal_entries", "MAX_FRAME"]

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
    """Read one client frame.  Raises :class:`ProtocolError` (``malformed``) naming the fault."""
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise ProtocolError("malformed", "a message must be UTF-8 JSON text") from None
    if len(raw) > MAX_FRAME:
        raise ProtocolError("malformed", f"a message may be at most {MAX_FRAME} characters long")
    try:
        data = json.loads(raw)
    except (json.JSONDecodeError, RecursionError):
        raise ProtocolError("malformed", "a message must be one JSON object") from None
    if not isinstance(data, dict):
        raise ProtocolError("malformed", "a message must be one JSON object")
    kind = data.get("type")
    if kind == "hello":
        token = data.get("token")
        if token is not None and not isinstance(token, str):
            raise ProtocolError("malformed", "hello: token must be a string or null")
        name = data.get("name")
        if name is not None and (not isinstance(name, str) or len(name) > 40):
            raise ProtocolError("malformed", "hello: name must be a string of at most 40 characters")
        return Hello(token, name.strip() or None if isinstance(name, str) else None)
    if kind == "ping":
        return Ping()
    if kind == "act":
        version = data.get("version")
        if not isinstance(version, int) or isinstance(version, bool):
            raise ProtocolError("malformed", "act: version must be the state version (a whole number)")
        action_data = data.get("action")
        if not isinstance(action_data, dict):
            raise ProtocolError("malformed", "act: action must be an object such as {\"play\": \"AS\"}")
        if "seat" in action_data:
            raise ProtocolError("malformed", "act: the action names no seat (the seat is the one you hold)")
        try:
            action = info.action_from_json(action_data, seat)
        except (InvalidActionError, ValueError, TypeError, KeyError) as exc:
            raise ProtocolError("malformed", f"act: {exc}") from None
        if isinstance(action, Chombo):
            raise ProtocolError("malformed", "act: a chombo is recorded by a referee, not played")
        return Act(version, action)
    raise ProtocolError("malformed", f"unknown message type {kind!r}; the types are hello, act, ping")


def error_frame(err: ProtocolError, version: int) -> dict[str, Any]:
    return {"type": "error", "code": err.code, "message": err.message, "version": version}


def legal_entries(view: View) -> list[dict[str, Any]]:
    """The seat's legal actions with their labels in both languages."""
    return [{"action": a.to_json(), "label": {"en": a.label("en"), "ja": a.label("ja")}}
            for a in view.legal_actions]


def score_sheet(state: GameState) -> list[dict[str, Any]]:
    """The finished deals' results (no cards: a finished deal's tricks are left out)."""
    out = []
    for d in state.summary()["deals"]:
        if d.get("outcome") == "in-progress":
            continue
        out.append({k: v for k, v in d.items() if k not in ("tricks", "hands")})
    return out


def view_json(view: View) -> dict[str, Any]:
    """``view.to_json()``, with each trick also naming the seat of each card (``seats``)."""
    out = view.to_json()
    for f in dataclasses.fields(view):
        value = getattr(view, f.name)
        if isinstance(value, Trick) and isinstance(out.get(f.name), dict):
            out[f.name]["seats"] = list(value.seats)
        elif (isinstance(value, tuple) and value and all(isinstance(v, Trick) for v in value)
              and isinstance(out.get(f.name), list)):
            for t, j in zip(value, out[f.name]):
                if isinstance(j, dict):
                    j["seats"] = list(t.seats)
    return out


def state_frame(table: "LiveTable", seat: int | None) -> dict[str, Any]:
    """The frame for one seat (``None``: a spectator), from that seat's view alone."""
    view = table.state.view(seat)
    view_json_ = view_json(view)
    return {
        "type": "state",
        "version": table.version,
        "seat": seat,
        "table": table.public_info(),
        "view": view_json_,
        "legal": legal_entries(view),
        "hand": [c.code for c in sorted_hand(view)],
        "sheet": table.sheet(),
        "finished_deal": table.finished_deal(),
        "deadline": table.deadline_for(seat),
    }
