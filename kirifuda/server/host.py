"""The table's host (卓の管理) and what the page needs beyond the protocol's frames.

The creator of a table gets a **host link** (``/t/{id}#host=…``) beside the seats' invitation
links.  The server keeps only hashes, so a lost invitation link cannot be shown again: the host
asks for a **new link** instead, which retires the seat's old token (anyone connected with it is
turned into a spectator).  The host may also hand a seat to a **bot** (the seat's stand-in, which
has watched the deal from that seat, takes it over for good).

The host token's hash is kept after the seats' hashes in the table's ``token_hashes`` (index
``len(seats)``), so older tables simply have no host.

HTTP (this module's router):

- ``GET /api/ui``: every game's UI descriptor (:mod:`.ui`) and the whole catalogue in each
  language (:mod:`.messages`), for the page;
- ``POST /api/results`` ``{"game", "deals", "names"}``: each deal's result in words, both languages;
- ``POST /api/reason`` ``{"text"}``: an engine's refusal in each language;
- ``POST /api/tables/{id}/host`` ``{"host": token}``: the seats as the host sees them;
- ``POST /api/tables/{id}/host/link`` ``{"host": token, "seat": s}``: a new invitation link;
- ``POST /api/tables/{id}/host/bot`` ``{"host": token, "seat": s}``: the seat goes to a bot;
- ``GET /api/tables/{id}/replay/finished``: the deals of a match still in play that are over, as
  the replay viewer's steps (each of their cards was shown to every seat when the deal ended;
  the deal in play is left out), so that the deal just played can be replayed and reviewed.

:func:`presence` adds to a table's public facts what the page tells as events: how long until
a dropped player's stand-in takes over, and the last move a stand-in made for a present player
whose turn timer ran out.
"""

from __future__ import annotations

import dataclasses
import json
import secrets
import time
from typing import TYPE_CHECKING, Any

from fastapi import APIRouter, HTTPException, Request
from sqlalchemy import update

from ..games import GAMES
from ..i18n import LANGS
from . import messages, ui
from .refusals import refusing
from .protocol import encode
from .store import kf_tables

if TYPE_CHECKING:
    from .tables import LiveTable, TableManager

__all__ = ["router", "issue_host", "presence", "host_hash"]

router = APIRouter()


def host_hash(token: str) -> str:
    from .tables import hash_token

    return hash_token("host:" + token)


def _host_index(table: "LiveTable") -> int:
    return table.num_seats


async def _save_hashes(table: "LiveTable") -> None:
    store = table.store
    async with store._writing(), store.engine.begin() as conn:
        await conn.execute(
            update(kf_tables).where(kf_tables.c.id == table.id).values(token_hashes=json.dumps(table.token_hashes))
        )


async def issue_host(table: "LiveTable") -> str:
    """A new host token for ``table`` (the previous one, if any, is retired); returns the link."""
    token = secrets.token_urlsafe(18)
    hashes = list(table.token_hashes[: _host_index(table)])
    hashes.append(host_hash(token))
    table.token_hashes = hashes
    await _save_hashes(table)
    return f"/t/{table.id}#host={token}"


def presence(table: "LiveTable") -> dict[str, Any]:
    """Per seat, seconds until a dropped player's stand-in plays (``None``: not dropped, or
    already away); the last stand-in move for a player whose timer ran out; once the match is
    over, the winning scoring units (more than one for a shared win)."""
    now = time.monotonic()
    drop_at: dict[int, float] = getattr(table, "drop_at", {})
    played = getattr(table, "standin_played", None)
    out = table.state.outcome() if table.state.is_over else None
    winner = None if out is None else list(out.winner) if isinstance(out.winner, tuple) else [out.winner]
    return {
        "winners": winner,
        "drop_in": [
            max(0.0, round(drop_at[s] - now, 1)) if s in drop_at and s not in table.away else None
            for s in range(table.num_seats)
        ],
        "standin_played": {"seat": played[0], "version": played[1]} if played else None,
    }


# -- requests ---------------------------------------------------------------------------------


def _manager(request: Request) -> "TableManager":
    m: TableManager = request.app.state.manager
    return m


async def _body(request: Request) -> dict[str, Any]:
    try:
        body = await request.json()
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise HTTPException(400, "the body must be JSON") from None
    if not isinstance(body, dict):
        raise HTTPException(400, 'the body must be a JSON object such as {"host": "…", "seat": 1}')
    return body


def _hosted(request: Request, table_id: str, body: dict[str, Any]) -> "LiveTable":
    table = _manager(request).tables.get(table_id)
    if table is None:
        raise HTTPException(404, f"no table {table_id!r}")
    token = body.get("host")
    if not isinstance(token, str) or not token:
        raise HTTPException(400, "host: the host token (from the host link) is required")
    i = _host_index(table)
    stored = table.token_hashes[i] if len(table.token_hashes) > i else None
    if stored is None or not secrets.compare_digest(stored, host_hash(token)):
        raise HTTPException(403, "this host link is not valid for this table")
    return table


def _seat(table: "LiveTable", body: dict[str, Any], *, human: bool) -> int:
    seat = body.get("seat")
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < table.num_seats:
        raise HTTPException(400, f"seat must be a seat number from 0 to {table.num_seats - 1}, got {seat!r}")
    if human and table.seats[seat]["kind"] != "human":
        raise HTTPException(400, f"seat {seat} is played by a bot: it has no invitation link")
    return seat


def _retire(table: "LiveTable", seat: int, code: str, message: str) -> None:
    """Every connection holding ``seat`` becomes a spectator, told why."""
    for c in table.clients:
        if c.seat == seat:
            c.seat = None
            c.put(encode({"type": "error", "code": code, "message": message, "version": table.version}))


def _seats(table: "LiveTable") -> list[dict[str, Any]]:
    conn = table.connected()
    return [
        {"seat": i, "kind": s["kind"], "name": table.players()[i], "connected": conn[i]}
        for i, s in enumerate(table.seats)
    ]


@router.get("/api/ui")
async def api_ui() -> dict[str, Any]:
    return {"games": ui.descriptors(), "i18n": {lang: messages.catalogue(lang) for lang in LANGS}}


@router.post("/api/results")
async def api_results(request: Request) -> dict[str, Any]:
    """Each deal's result in words, in both languages: ``{"game", "deals": [deal summaries],
    "names": [player names]}`` → ``{"ja": [[sentence, …] per deal], "en": …}`` (the sentences of
    :func:`kirifuda.ui.results.deal_result`, a pure function of a deal's public summary: the
    terminal says the same)."""
    from ..ui.results import deal_result

    body = await _body(request)
    game, deals, names = body.get("game"), body.get("deals"), body.get("names") or []
    if game not in GAMES:
        raise HTTPException(400, f"game must be one of {', '.join(sorted(GAMES))}, got {game!r}")
    if not isinstance(deals, list) or len(deals) > 500 or not all(isinstance(d, dict) for d in deals):
        raise HTTPException(400, "deals must be a list of at most 500 deal summaries (objects)")
    if not isinstance(names, list) or len(names) > 8 or not all(isinstance(x, str) and len(x) <= 40 for x in names):
        raise HTTPException(400, "names must be a list of at most 8 names of at most 40 characters")
    out: dict[str, Any] = {}
    for lang in LANGS:
        try:
            out[lang] = [deal_result(game, d, lang, names) for d in deals]
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise HTTPException(400, f"a deal summary lacks or misstates a field: {exc!r}") from None
    return out


@router.post("/api/reason")
async def api_reason(request: Request) -> dict[str, str]:
    """An engine's refusal (``{"text": "must follow ♠ (S)"}``) in each language, from the
    catalogue (:func:`kirifuda.ui.reasons.reason_text`, as the terminal words it)."""
    from ..ui.reasons import reason_text

    text = (await _body(request)).get("text")
    if not isinstance(text, str) or len(text) > 500:
        raise HTTPException(400, "text must be the refusal's message (at most 500 characters)")
    return {lang: reason_text(text, lang) for lang in LANGS}


@router.get("/api/tables/{table_id}/replay/finished")
@refusing
async def api_finished_replay(table_id: str, request: Request) -> dict[str, Any]:
    from .app import replay_steps

    table = _manager(request).tables.get(table_id)
    if table is None:
        raise HTTPException(404, "no such table")
    dealt = len(table.state.record_deals())
    over = dealt if table.state.is_over else min(dealt, table.state.deal_number)
    if over == 0:
        raise HTTPException(403, "no deal of this table is over yet")
    rec = table.record()
    return replay_steps(dataclasses.replace(rec, deals=rec.deals[:over]))


@router.post("/api/tables/{table_id}/host")
@refusing
async def api_host(table_id: str, request: Request) -> dict[str, Any]:
    table = _hosted(request, table_id, await _body(request))
    return {"id": table.id, "seats": _seats(table), "over": table.state.is_over}


@router.post("/api/tables/{table_id}/host/link")
@refusing
async def api_host_link(table_id: str, request: Request) -> dict[str, Any]:
    body = await _body(request)
    table = _hosted(request, table_id, body)
    seat = _seat(table, body, human=True)
    from .tables import hash_token

    async with table.lock:
        token = secrets.token_urlsafe(18)
        old = list(table.token_hashes)
        table.token_hashes[seat] = hash_token(token)
        try:
            await _save_hashes(table)
        except Exception:
            table.token_hashes = old
            raise
        _retire(table, seat, "replaced", "this seat's invitation link was replaced by the host")
    table.broadcast()
    return {"seat": seat, "token": token, "link": f"/t/{table.id}#token={token}"}


@router.post("/api/tables/{table_id}/host/bot")
@refusing
async def api_host_bot(table_id: str, request: Request) -> dict[str, Any]:
    body = await _body(request)
    table = _hosted(request, table_id, body)
    seat = _seat(table, body, human=True)
    from .tables import STANDIN_BOT, _bot

    async with table.lock:
        old_seats = [dict(s) for s in table.seats]
        old_hashes = list(table.token_hashes)
        table.seats[seat] = {"kind": "bot", "bot": STANDIN_BOT, "name": table.players()[seat]}
        table.token_hashes[seat] = None
        try:
            await table.store.set_seats(table.id, table.seats)
            await _save_hashes(table)
        except Exception:
            table.seats, table.token_hashes = old_seats, old_hashes
            raise
        # the stand-in has watched the deal from this seat: it plays on
        table._bots[seat] = table._standins.pop(seat) if seat in table._standins else _bot(STANDIN_BOT, table.info.id)
        table.away.discard(seat)
        task = table._grace_tasks.pop(seat, None)
        if task is not None:
            task.cancel()
        getattr(table, "drop_at", {}).pop(seat, None)
        _retire(table, seat, "replaced", "the host handed this seat to a bot")
        table._arm_timer()
    table.broadcast()
    table.kick()
    return {"seat": seat, "seats": _seats(table)}
