"""The FastAPI application of ``kirifuda serve``.

HTTP: ``GET /`` (the browser client), ``/static/…``, ``GET /api/games`` (every game with its
options, defaults and one-line explanations, its bots and its view's terms), ``POST /api/tables``
(a new table: returns each human seat's invitation link), ``GET /api/tables`` and
``GET /api/tables/{id}`` (public facts), ``GET /api/tables/{id}/record`` (the record, once the
match is over: it holds every hand), ``POST /api/replay`` (a record, checked and stepped through
for the replay viewer).  WebSocket: ``/ws/{id}`` speaking :mod:`.protocol`.
"""

from __future__ import annotations

import ast
import asyncio
import dataclasses
import inspect
import json
import logging
import random
import textwrap
import typing
from contextlib import asynccontextmanager
from importlib import resources
from typing import Any, AsyncIterator

from fastapi import FastAPI, HTTPException, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles

from .. import record as records
from ..bots import BOT_KINDS, make_bot
from ..bots.base import default_bot
from ..errors import KirifudaError, OptionError, RecordError
from ..game import GameInfo, View
from ..games import GAMES
from ..i18n import field_label
from ..ui.render import sorted_hand
from .protocol import view_json, Act, Hello, Ping, ProtocolError, error_frame, parse_message
from .store import Store
from .tables import TIMERS, Client, LiveTable, TableManager
from . import host as hosting

__all__ = ["create_app", "games_info", "replay_steps"]

log = logging.getLogger("kirifuda.server")
STATIC = resources.files("kirifuda.server") / "static"


# -- the games, for the lobby ---------------------------------------------------------------

def _field_docs(cls: type) -> dict[str, str]:
    """The docstring under each dataclass field (the string right after its line)."""
    try:
        source = textwrap.dedent(inspect.getsource(cls))
    except (OSError, TypeError):
        return {}
    tree = ast.parse(source)
    out: dict[str, str] = {}
    body = tree.body[0].body if tree.body and isinstance(tree.body[0], ast.ClassDef) else []
    for prev, node in zip(body, body[1:]):
        if (isinstance(prev, ast.AnnAssign) and isinstance(prev.target, ast.Name)
                and isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
                and isinstance(node.value.value, str)):
            # plain text for the page: reST literals (``request``) lose their backticks
            out[prev.target.id] = " ".join(node.value.value.replace("``", "").split())
    return out


def _option_spec(cls: type) -> list[dict[str, Any]]:
    hints = typing.get_type_hints(cls)
    docs = _field_docs(cls)
    out = []
    for f in dataclasses.fields(cls):
        hint = hints[f.name]
        spec: dict[str, Any] = {"name": f.name, "default": f.default, "doc": docs.get(f.name, "")}
        origin = typing.get_origin(hint)
        args = typing.get_args(hint)
        if origin is typing.Literal:
            spec["type"] = "choice"
            spec["choices"] = list(args)
        elif hint is bool:
            spec["type"] = "bool"
        elif hint is int:
            spec["type"] = "int"
        elif hint is str:
            spec["type"] = "str"
        elif origin in (typing.Union, getattr(__import__("types"), "UnionType")):
            lits = [a for a in args if typing.get_origin(a) is typing.Literal]
            spec["type"] = "choice" if lits else "json"
            if lits:
                spec["choices"] = [v for a in lits for v in typing.get_args(a)] + \
                    ([None] if type(None) in args else [])
            else:
                spec["nullable"] = type(None) in args
                spec["inner"] = [getattr(a, "__name__", str(a)) for a in args if a is not type(None)]
        else:
            spec["type"] = "json"
        out.append(spec)
    return out


def _bots_for(game: str) -> list[str]:
    """The bots a table of ``game`` can seat (not the oracle: it needs every card)."""
    kinds = []
    for kind in BOT_KINDS:
        try:
            bot = make_bot(kind, game)
        except Exception:
            continue
        if not getattr(bot, "needs_state", False):
            kinds.append(kind)
    return kinds


def _terms(info: GameInfo) -> dict[str, dict[str, str]]:
    state = info.new_state(info.options({}))
    state.deal_random(random.Random(0))
    names = [f.name for f in dataclasses.fields(state.view(0))]
    names += ["hands", "rest", "outcome", "score", "totals", "declarer", "contract", "winner"]
    return {n: {"ja": field_label(n, "ja", game=info.id), "en": field_label(n, "en", game=info.id)}
            for n in names}


def games_info() -> list[dict[str, Any]]:
    out = []
    for info in GAMES.values():
        out.append({
            "id": info.id, "name": {"ja": info.name_ja, "en": info.name_en},
            "min_players": info.min_players, "max_players": info.max_players,
            "options": _option_spec(info.options_type),
            "bots": _bots_for(info.id),
            "default_bot": default_bot(info.id),
            "terms": _terms(info),
        })
    return out


# -- replay ---------------------------------------------------------------------------------

def _public(view: View) -> dict[str, Any]:
    data = view_json(view)
    data.pop("legal_actions", None)
    data.pop("attempts", None)
    data.pop("last_deal", None)
    return data


def replay_steps(rec: records.Record) -> dict[str, Any]:
    """A whole record as steps for the viewer: before each deal's first action and after each
    action, every hand face up and the public table.  Raises RecordError."""
    state = rec.new_state()
    n = state.num_players
    steps: list[dict[str, Any]] = []

    def snap(deal: int, index: int, seat: int | None, action: dict[str, Any] | None,
             label: dict[str, str] | None) -> None:
        views = [state.view(s) for s in range(n)]
        steps.append({"deal": deal, "index": index, "seat": seat, "action": action, "label": label,
                      "hands": [[c.code for c in sorted_hand(v)] for v in views],
                      "view": _public(state.view(None))})

    for i, deal in enumerate(rec.deals):
        if not state.needs_deal:
            raise RecordError("the previous deal is not finished, but another deal follows", deal=i)
        try:
            state.deal(deal.hands, deal.rest)
        except KirifudaError as exc:
            raise RecordError(str(exc), deal=i) from None
        snap(i, -1, None, None, None)
        for j, data in enumerate(deal.actions):
            seat = data["seat"]
            try:
                action = rec.info.action_from_json(data, seat)
                state.apply(action, seat)
            except KirifudaError as exc:
                raise RecordError(str(exc), deal=i, action=j, seat=seat) from None
            snap(i, j, seat, action.to_json(), {"en": action.label("en"), "ja": action.label("ja")})
    units = len(state.view(None).totals)
    return {
        "record": json.loads(records.dumps(rec)),
        "record_text": records.dumps(rec),
        "game": rec.game,
        "players": rec.players or [f"Seat {s}" for s in range(n)],
        "units": {lang: [state.unit_name(u, lang) for u in range(units)] for lang in ("en", "ja")},
        "summary": state.summary(),
        "steps": steps,
    }


# -- the app --------------------------------------------------------------------------------

def create_app(db_url: str | None = None, *, grace: float = 60.0, bot_delay: float = 0.8) -> FastAPI:
    """The web app on the database at ``db_url`` (default: SQLite in the user's data dir)."""
    state: dict[str, Any] = {}

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = await Store.open(db_url)
        manager = TableManager(store, grace=grace, bot_delay=bot_delay)
        await manager.load()
        state["store"] = store
        state["manager"] = manager
        app.state.manager = manager
        yield
        await manager.close()
        await store.close()

    app = FastAPI(title="kirifuda", lifespan=lifespan, docs_url=None, redoc_url=None)
    app.mount("/static", StaticFiles(directory=str(STATIC)), name="static")
    app.include_router(hosting.router)  # the host link, the UI descriptors, the catalogue
    games_cache: list[dict[str, Any]] = []

    def manager() -> TableManager:
        m: TableManager = state["manager"]
        return m

    def table_or_404(table_id: str) -> LiveTable:
        t = manager().tables.get(table_id)
        if t is None:
            raise HTTPException(404, f"no table {table_id!r}")
        return t

    def index() -> HTMLResponse:
        return HTMLResponse((STATIC / "index.html").read_text(encoding="utf-8"),
                            headers={"Cache-Control": "no-cache"})

    @app.get("/", response_class=HTMLResponse)
    async def root() -> HTMLResponse:
        return index()

    @app.get("/t/{table_id}", response_class=HTMLResponse)
    async def table_page(table_id: str) -> HTMLResponse:
        return index()

    @app.get("/replay", response_class=HTMLResponse)
    async def replay_page() -> HTMLResponse:
        return index()

    @app.get("/api/games")
    async def api_games() -> list[dict[str, Any]]:
        if not games_cache:
            games_cache.extend(games_info())
        return games_cache

    @app.post("/api/tables")
    async def api_create(request: Request) -> JSONResponse:
        try:
            body = await request.json()
        except (json.JSONDecodeError, UnicodeDecodeError):
            raise HTTPException(400, "the body must be JSON") from None
        if not isinstance(body, dict):
            raise HTTPException(400, "the body must be a JSON object")
        try:
            timer = body.get("timer", 0)
            first = body.get("first", 0)
            if not isinstance(first, int) or isinstance(first, bool):
                raise OptionError(f"first must be a seat number, got {first!r}")
            seed = body.get("seed")
            if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool) or seed < 0):
                raise OptionError("seed must be a non-negative whole number")
            table, tokens = await manager().create(
                str(body.get("game", "")), body.get("options") or {}, body.get("seats") or [],
                timer=timer, first=first, seed=seed)
        except (OptionError, KirifudaError) as exc:
            raise HTTPException(400, str(exc)) from None
        links = [f"/t/{table.id}#token={tok}" if tok else None for tok in tokens]
        host = await hosting.issue_host(table)
        return JSONResponse({"id": table.id, "tokens": tokens, "links": links, "host": host,
                             "watch": f"/t/{table.id}", "timers": list(TIMERS)})

    @app.get("/api/tables")
    async def api_tables() -> list[dict[str, Any]]:
        return [t.summary_info() for t in reversed(list(manager().tables.values()))][:100]

    @app.get("/api/tables/{table_id}")
    async def api_table(table_id: str) -> dict[str, Any]:
        return table_or_404(table_id).summary_info()

    @app.get("/api/tables/{table_id}/record")
    async def api_record(table_id: str) -> Response:
        t = table_or_404(table_id)
        if not t.state.is_over:
            raise HTTPException(403, "the record is given once the match is over: it holds every hand")
        return Response(records.dumps(t.record()), media_type="application/json",
                        headers={"Content-Disposition": f'attachment; filename="{t.info.id}-{t.id}.json"'})

    @app.get("/api/tables/{table_id}/replay")
    async def api_table_replay(table_id: str) -> dict[str, Any]:
        t = table_or_404(table_id)
        if not t.state.is_over:
            raise HTTPException(403, "the replay is given once the match is over: it shows every hand")
        return replay_steps(t.record())

    @app.post("/api/replay")
    async def api_replay(request: Request) -> dict[str, Any]:
        body = await request.body()
        if len(body) > 5_000_000:
            raise HTTPException(413, "a record may be at most 5 MB")
        try:
            rec = records.loads(body)
            return replay_steps(rec)
        except RecordError as exc:
            raise HTTPException(400, {"message": str(exc), "deal": exc.deal, "action": exc.action}) from None

    @app.websocket("/ws/{table_id}")
    async def ws(websocket: WebSocket, table_id: str) -> None:
        await websocket.accept()
        table = manager().tables.get(table_id)
        if table is None:
            await websocket.send_json({"type": "error", "code": "unknown_table",
                                       "message": f"no table {table_id!r}", "version": None})
            await websocket.close(code=4404)
            return
        client: Client | None = None
        try:
            # the first message must be hello
            while client is None:
                raw = await websocket.receive_text()
                try:
                    msg = parse_message(raw, table.info, None)
                    if not isinstance(msg, Hello):
                        raise ProtocolError("unauthenticated", "say hello first (with your seat's token, or none to watch)")
                    seat = None
                    if msg.token is not None:
                        seat = table.seat_of_token(msg.token)
                        if seat is None:
                            raise ProtocolError("unauthenticated", "this invitation link is not valid for this table")
                    client = Client(seat, websocket.send_json)
                    if seat is not None and msg.name and msg.name != table.seats[seat].get("name"):
                        table.seats[seat]["name"] = msg.name
                        await table.store.set_seats(table.id, table.seats)
                    await websocket.send_json({"type": "welcome", "seat": seat, "table": table.id})
                    table.join(client)
                except ProtocolError as err:
                    await websocket.send_json(error_frame(err, table.version))
            while True:
                raw = await websocket.receive_text()
                try:
                    msg = parse_message(raw, table.info, client.seat)
                    if isinstance(msg, Ping):
                        client.put({"type": "pong"})
                    elif isinstance(msg, Hello):
                        raise ProtocolError("malformed", "already joined: hello comes once")
                    elif isinstance(msg, Act):
                        await table.act(client.seat, msg.version, msg.action)
                except ProtocolError as err:
                    client.put(error_frame(err, table.version))
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            if client is not None:
                table.leave(client)
                await client.close()

    return app
