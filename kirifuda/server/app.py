"""The FastAPI application of ``kirifuda serve``.

HTTP: ``GET /`` (the browser client), ``/static/…``, ``GET /api/games`` (every game with its
options, defaults and one-line explanations, its bots and its view's terms), ``POST /api/tables``
(a new table: returns each human seat's invitation link), ``GET /api/tables`` and
``GET /api/tables/{id}`` (public facts), ``GET /api/tables/{id}/record`` (the record, once the
match is over: it holds every hand), ``POST /api/replay`` (a record, checked and stepped through
for the replay viewer).  WebSocket: ``/ws/{id}`` speaking :mod:`.protocol`.

Routes are grouped in :class:`fastapi.APIRouter` s (:func:`pages_router`, :func:`api_router`,
:func:`ws_router`): a feature adds its own router with ``app.include_router``.  Every body and
message is validated at the edge (:mod:`.schema`); the limits are :class:`.limits.Limits`.
"""

from __future__ import annotations

import ast
import asyncio
import dataclasses
import functools
import inspect
import json
import logging
import os
import random
import re
import textwrap
import time
import typing
from contextlib import asynccontextmanager
from importlib import resources
from typing import Any, AsyncIterator, Callable

import orjson
from fastapi import APIRouter, FastAPI, HTTPException, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from sqlalchemy.exc import SQLAlchemyError

from .. import record as records
from ..bots import BOT_KINDS, make_bot
from ..bots.base import default_bot
from ..errors import KirifudaError, OptionError, RecordError
from ..game import GameInfo, View
from ..games import GAMES
from ..i18n import field_label
from ..ui.render import sorted_hand
from .limits import BodyLimit, Limits, RateLimiter
from .connections import greet, handle
from .protocol import ProtocolError, encode, error_frame, view_json
from .schema import CreateTable, InputError, load_json, validate
from .coach import router as coach_router
from .store import Store
from .tables import LOBBY_SIZE, TIMERS, Client, LiveTable, TableManager
from . import host as hosting
from .refusals import refusal_response

__all__ = ["create_app", "games_info", "replay_steps", "pages_router", "api_router", "ws_router", "client_key"]

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
        if (
            isinstance(prev, ast.AnnAssign)
            and isinstance(prev.target, ast.Name)
            and isinstance(node, ast.Expr)
            and isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, str)
        ):
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
        elif origin in (typing.Union, __import__("types").UnionType):
            lits = [a for a in args if typing.get_origin(a) is typing.Literal]
            spec["type"] = "choice" if lits else "json"
            if lits:
                spec["choices"] = [v for a in lits for v in typing.get_args(a)] + ([None] if type(None) in args else [])
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
    return {n: {"ja": field_label(n, "ja", game=info.id), "en": field_label(n, "en", game=info.id)} for n in names}


def games_info() -> list[dict[str, Any]]:
    out = []
    for info in GAMES.values():
        out.append(
            {
                "id": info.id,
                "name": {"ja": info.name_ja, "en": info.name_en},
                "min_players": info.min_players,
                "max_players": info.max_players,
                "options": _option_spec(info.options_type),
                "bots": _bots_for(info.id),
                "default_bot": default_bot(info.id),
                "terms": _terms(info),
            }
        )
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

    def snap(
        deal: int, index: int, seat: int | None, action: dict[str, Any] | None, label: dict[str, str] | None
    ) -> None:
        views = [state.view(s) for s in range(n)]
        steps.append(
            {
                "deal": deal,
                "index": index,
                "seat": seat,
                "action": action,
                "label": label,
                "hands": [[c.code for c in sorted_hand(v)] for v in views],
                "view": _public(state.view(None)),
            }
        )

    for i, deal in enumerate(rec.deals):
        if not state.needs_deal:
            raise RecordError("the previous deal is not finished, but another deal follows", deal=i)
        if deal.scored is not None:  # a deal given by its facts (docs/records.md, "Scored deals")
            from ..scored import score_deal

            score_deal(state, deal.scored, i)
            snap(i, -1, None, {"scored": deal.scored}, {"en": "scored deal", "ja": "得点記録"})
            continue
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


def client_key(conn: Request | WebSocket) -> str:
    """The client a limit counts: its address as this server sees it."""
    return conn.client.host if conn.client is not None else "?"


def create_app(
    db_url: str | None = None,
    *,
    grace: float = 60.0,
    bot_delay: float = 0.8,
    limits: Limits | None = None,
    deal_secret: str | None = None,
    redis: str | None = None,
    process: str | None = None,
    address: str | None = None,
    remote_bots: bool = False,
) -> FastAPI:
    """The web app on the database at ``db_url`` (default: SQLite in the user's data dir).

    ``limits``: see :class:`.limits.Limits` (default: from ``KIRIFUDA_LIMIT_*``).
    ``deal_secret`` fixes every table's deals (tests and benchmarks only; default: the
    ``KIRIFUDA_DEAL_SECRET`` environment variable, else each table draws its own).
    ``redis``: this process is one of a cluster (:mod:`.cluster`) named ``process``, reached by
    the others at ``address``; ``remote_bots``: its bots decide in ``kirifuda bot-worker`` s."""
    limits = limits or Limits.from_env()
    deal_secret = deal_secret or os.environ.get("KIRIFUDA_DEAL_SECRET") or None
    state: dict[str, Any] = {}

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = await Store.open(db_url)
        manager = TableManager(store, grace=grace, bot_delay=bot_delay, limits=limits, deal_secret=deal_secret)
        manager.hooks.append(app.state.club_tables.on_table)  # clubs' tables: their matches, rated
        cluster = None
        if redis is not None:
            from . import accounts
            from .cluster import Cluster

            # every module's tables made once, before any request (instances start at once)
            await store.create_all([accounts.metadata])

            cluster = Cluster(redis, manager, process=process, address=address, remote_bots=remote_bots)
            clubs = app.state.club_tables
            # a relayed hello's seat is checked by the owner, with the account its gateway forwarded
            cluster.seat_gate = lambda table, seat, who: clubs.seat_gate(table, seat, None, who)
        await manager.load(playing=cluster is None)
        if cluster is not None:
            await cluster.start()
        state["store"] = store
        state["manager"] = manager
        app.state.manager = manager
        yield
        await manager.close()
        if cluster is not None:
            await cluster.close()
        await store.close()

    app = FastAPI(
        title="kirifuda",
        lifespan=lifespan,
        docs_url=None,
        redoc_url=None,
        openapi_url="/openapi.json" if limits.openapi else None,
    )
    app.state.limits = limits
    app.add_middleware(TableRouting, state=state)
    app.add_middleware(
        BodyLimit,
        limit=limits.body_bytes,
        larger={"/api/replay": limits.record_bytes, "/api/review": limits.record_bytes},
    )
    app.mount("/static", StaticFiles(directory=str(STATIC)), name="static")
    app.include_router(hosting.router)  # the host link, the UI descriptors, the catalogue

    def manager() -> TableManager:
        m: TableManager = state["manager"]
        return m

    app.include_router(pages_router())
    app.include_router(api_router(manager, limits))
    app.include_router(ws_router(manager, limits))
    from .tutorials import router as tutorials_router  # the tutorials' page and API

    app.include_router(tutorials_router)
    app.include_router(coach_router)
    from .practice import router as practice_router  # practice tables: undo, replay, deal kinds

    app.include_router(practice_router)
    from .accounts import accounts_router  # accounts, clubs, score keeper's matches

    clubs_api = accounts_router(lambda: state["store"], lambda: state["manager"].tables)
    app.include_router(clubs_api)
    app.state.club_tables = clubs_api.club_tables  # type: ignore[attr-defined]
    return app


class TableRouting:
    """ASGI middleware: a request about one table finds it first.  A finished table that left
    memory is loaded from the database; in a cluster, a table owned by another process is
    forwarded there (at most once), and a table without an owner is taken."""

    PATH = re.compile(r"^/api/(?:clubs/[^/]+/)?tables/([^/]+)")

    def __init__(self, app: Any, state: dict[str, Any]) -> None:
        self.app = app
        self.state = state
        self._http: Any = None

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        manager: TableManager | None = self.state.get("manager")
        match = self.PATH.match(scope.get("path", "")) if scope["type"] == "http" else None
        if match is None or manager is None or match.group(1) in manager.tables:
            await self.app(scope, receive, send)
            return
        table_id = match.group(1)
        try:
            if manager.cluster is None:
                await manager.fetch(table_id)
            else:
                where = await manager.cluster.locate(table_id)
                forwarded = any(k == b"x-kirifuda-forwarded" for k, _ in scope.get("headers", ()))
                if isinstance(where, str) and not forwarded:
                    address = await manager.cluster.address_of(where)
                    if address:
                        await self._forward(address, scope, receive, send)
                        return
        except Exception as exc:  # the route answers 404 (or the database's own 503)
            log.warning("table %s could not be found (%s)", table_id, type(exc).__name__)
        await self.app(scope, receive, send)

    async def _forward(self, address: str, scope: Any, receive: Any, send: Any) -> None:
        import httpx

        if self._http is None:
            self._http = httpx.AsyncClient(timeout=30)
        body = b""
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return
            body += message.get("body", b"")
            if not message.get("more_body", False):
                break
        headers = [(k, v) for k, v in scope.get("headers", ()) if k not in (b"host", b"content-length")]
        headers.append((b"x-kirifuda-forwarded", b"1"))
        url = (
            address.rstrip("/")
            + scope["path"]
            + ("?" + scope["query_string"].decode("latin-1") if scope.get("query_string") else "")
        )
        try:
            r = await self._http.request(scope["method"], url, content=body, headers=headers)
        except Exception:
            out = orjson.dumps({"detail": "the server playing this table cannot be reached: try again"})
            await send(
                {"type": "http.response.start", "status": 503, "headers": [(b"content-type", b"application/json")]}
            )
            await send({"type": "http.response.body", "body": out})
            return
        keep = [
            (k.encode("latin-1"), v.encode("latin-1"))
            for k, v in r.headers.items()
            if k.lower() not in ("content-length", "transfer-encoding", "connection", "content-encoding")
        ]
        await send({"type": "http.response.start", "status": r.status_code, "headers": keep})
        await send({"type": "http.response.body", "body": r.content})


async def relay(websocket: WebSocket, manager: TableManager, owner: str, table_id: str) -> None:
    """A connection for a table another process of the cluster holds: relayed there."""
    first = True
    hello = manager.limits.hello_seconds

    async def receive() -> str | None:
        nonlocal first
        message = await (asyncio.wait_for(websocket.receive(), hello) if first else websocket.receive())
        first = False
        if message["type"] == "websocket.disconnect":
            raise WebSocketDisconnect(message.get("code", 1000))
        text = message.get("text")
        return text if isinstance(text, str) else None

    async def close(code: int) -> None:
        await websocket.close(code=code)

    # the account signed in here goes with the hello, for the owner's check of a rated seat
    who: dict[str, Any] | None = None
    who_unknown = False
    clubs = getattr(websocket.app.state, "club_tables", None)
    cookie = websocket.cookies.get("kf_session")
    if clubs is not None and cookie:
        try:
            who = await clubs.acc.user(cookie)
        except Exception as exc:
            log.warning(
                "table %s: the relayed connection's account could not be read (%s)", table_id, type(exc).__name__
            )
            who_unknown = True
    try:
        await manager.cluster.relay(
            owner, table_id, receive, websocket.send_text, close, who=who, who_unknown=who_unknown
        )
    except (WebSocketDisconnect, RuntimeError, asyncio.TimeoutError):
        pass


def _table_or_404(manager: TableManager, table_id: str) -> LiveTable:
    t = manager.tables.get(table_id)
    if t is None:
        raise HTTPException(404, "no such table" if len(table_id) > 32 else f"no table {table_id!r}")
    return t


def pages_router() -> APIRouter:
    """The browser client's pages (one page; the script reads the path)."""
    router = APIRouter()

    def index() -> HTMLResponse:
        return HTMLResponse((STATIC / "index.html").read_text(encoding="utf-8"), headers={"Cache-Control": "no-cache"})

    @router.get("/", response_class=HTMLResponse)
    async def root() -> HTMLResponse:
        return index()

    @router.get("/t/{table_id}", response_class=HTMLResponse)
    async def table_page(table_id: str) -> HTMLResponse:
        return index()

    @router.get("/replay", response_class=HTMLResponse)
    async def replay_page() -> HTMLResponse:
        return index()

    return router


def api_router(get_manager: Callable[[], TableManager], limits: Limits) -> APIRouter:
    """``/api/…``: the games, the tables, records and replays."""
    router = APIRouter()
    games_cache: list[dict[str, Any]] = []
    created = RateLimiter(limits.tables_per_minute, 60.0)

    @router.get("/api/games")
    async def api_games() -> list[dict[str, Any]]:
        if not games_cache:
            games_cache.extend(games_info())
        return games_cache

    @router.post("/api/tables")
    async def api_create(request: Request) -> JSONResponse:
        try:  # a refusal says why in English and, as a code and params, in the page's words
            return await _create(request)
        except HTTPException as exc:
            return refusal_response(exc)

    async def _create(request: Request) -> JSONResponse:
        try:
            body = validate(CreateTable, load_json(await request.body(), "the body"), "the table")
        except InputError as exc:
            raise HTTPException(400, str(exc)) from None
        manager = get_manager()
        who = client_key(request)
        if manager.open_tables_of(who) >= limits.open_tables_per_client:
            raise HTTPException(
                429,
                f"at most {limits.open_tables_per_client} tables in play may be "
                "opened from one address: finish one first",
            )
        if not created.allow(who):
            raise HTTPException(
                429, f"at most {limits.tables_per_minute} tables a minute may be opened from one address: wait a moment"
            )
        # a club's table, a rated one: checked (HTTPException) before anything is made
        clubs = getattr(request.app.state, "club_tables", None)
        club = await clubs.admit(request, body) if clubs is not None else None
        try:
            table, tokens = await manager.create(
                body.game,
                dict(body.options),
                [s.model_dump(exclude_none=True) for s in body.seats],
                timer=body.timer,
                first=body.first,
                creator=who,
                settings=body.settings(),
            )
            if clubs is not None:
                await clubs.register(table, club)
        except (OptionError, KirifudaError) as exc:
            raise HTTPException(400, str(exc)) from None
        except (SQLAlchemyError, OSError) as exc:
            log.warning("a table could not be created: %s", type(exc).__name__)
            raise HTTPException(
                503, "the table could not be saved (the database is busy or down): try again in a moment"
            ) from None
        links = [f"/t/{table.id}#token={tok}" if tok else None for tok in tokens]
        host = await hosting.issue_host(table)
        return JSONResponse(
            {
                "id": table.id,
                "tokens": tokens,
                "links": links,
                "host": host,
                "watch": f"/t/{table.id}",
                "timers": list(TIMERS),
            }
        )

    @router.get("/api/tables")
    async def api_tables() -> Response:
        manager = get_manager()
        if manager.cluster is not None:
            return Response(orjson.dumps(await manager.cluster.lobby(LOBBY_SIZE)), media_type="application/json")
        return Response(orjson.dumps(manager.lobby()), media_type="application/json")

    @router.get("/api/tables/{table_id}")
    async def api_table(table_id: str) -> Response:
        return Response(
            orjson.dumps(_table_or_404(get_manager(), table_id).summary_info()), media_type="application/json"
        )

    @router.get("/api/tables/{table_id}/record")
    async def api_record(table_id: str) -> Response:
        t = _table_or_404(get_manager(), table_id)
        if not t.over:
            raise HTTPException(403, "the record is given once the match is over: it holds every hand")
        return Response(
            records.dumps(t.record()),
            media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="{t.info.id}-{t.id}.json"'},
        )

    @router.get("/api/tables/{table_id}/replay")
    async def api_table_replay(table_id: str) -> dict[str, Any]:
        t = _table_or_404(get_manager(), table_id)
        if not t.over:
            raise HTTPException(403, "the replay is given once the match is over: it shows every hand")
        return replay_steps(t.record())

    @router.post("/api/replay")
    async def api_replay(request: Request) -> dict[str, Any]:
        body = await request.body()
        if len(body) > limits.record_bytes:
            raise HTTPException(413, f"a record may be at most {limits.record_bytes} bytes")
        try:
            load_json(body, "a record")  # depth and encoding checked before the record reader
            rec = records.loads(body)
            return replay_steps(rec)
        except InputError as exc:
            raise HTTPException(400, {"message": str(exc), "deal": None, "action": None}) from None
        except RecordError as exc:
            raise HTTPException(400, {"message": str(exc), "deal": exc.deal, "action": exc.action}) from None
        except (KirifudaError, ValueError, TypeError, KeyError, AttributeError, IndexError, RecursionError) as exc:
            raise HTTPException(
                400, {"message": f"not a record: {type(exc).__name__}", "deal": None, "action": None}
            ) from None

    return router


class _Connections:
    """Open WebSocket connections, per table and per client, against the limits."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.per_table: dict[str, int] = {}
        self.per_client: dict[str, int] = {}

    def refusal(self, table_id: str, who: str) -> str | None:
        if self.per_table.get(table_id, 0) >= self.limits.connections_per_table:
            return f"this table already has {self.limits.connections_per_table} connections"
        if self.per_client.get(who, 0) >= self.limits.connections_per_client:
            return f"at most {self.limits.connections_per_client} connections from one address"
        return None

    def add(self, table_id: str, who: str, step: int) -> None:
        for d, k in ((self.per_table, table_id), (self.per_client, who)):
            d[k] = d.get(k, 0) + step
            if d[k] <= 0:
                del d[k]


def ws_router(get_manager: Callable[[], TableManager], limits: Limits) -> APIRouter:
    """``/ws/{table}``: the table's protocol (:mod:`.protocol`)."""
    router = APIRouter()
    conns = _Connections(limits)

    async def refuse(websocket: WebSocket, code: str, message: str, version: int | None, close: int) -> None:
        await websocket.send_text(encode({"type": "error", "code": code, "message": message, "version": version}))
        await websocket.close(code=close)

    async def receive_text(websocket: WebSocket, timeout: float | None = None) -> str | None:
        """The next text message; None for a binary one; WebSocketDisconnect when closed."""
        if timeout is None:
            message = await websocket.receive()
        else:
            message = await asyncio.wait_for(websocket.receive(), timeout)
        if message["type"] == "websocket.disconnect":
            raise WebSocketDisconnect(message.get("code", 1000))
        text = message.get("text")
        return text if isinstance(text, str) else None

    @router.websocket("/ws/{table_id}")
    async def ws(websocket: WebSocket, table_id: str) -> None:
        await websocket.accept()
        manager = get_manager()
        where: LiveTable | str | None = manager.tables.get(table_id)
        if where is None:
            try:
                where = await (
                    manager.cluster.locate(table_id) if manager.cluster is not None else manager.fetch(table_id)
                )
            except Exception as exc:
                log.warning("table %s could not be found (%s)", table_id, type(exc).__name__)
                await refuse(
                    websocket, "unavailable", "the table cannot be reached just now: try again in a moment", None, 1013
                )
                return
        if isinstance(where, str):
            await relay(websocket, manager, where, table_id)
            return
        table = where
        if table is None:
            await refuse(
                websocket,
                "unknown_table",
                "no such table" if len(table_id) > 32 else f"no table {table_id!r}",
                None,
                4404,
            )
            return
        who = client_key(websocket)
        why = conns.refusal(table_id, who)
        if why is not None:
            await refuse(websocket, "limit", why, table.version, 4429)
            return
        conns.add(table_id, who, 1)
        client: Client | None = None
        try:
            # the first message must be hello, within hello_seconds
            deadline = time.monotonic() + limits.hello_seconds
            while client is None:
                try:
                    raw = await receive_text(websocket, max(0.0, deadline - time.monotonic()))
                except asyncio.TimeoutError:
                    await refuse(
                        websocket, "timeout", f"say hello within {limits.hello_seconds:g} seconds", table.version, 4408
                    )
                    return
                try:
                    clubs = getattr(websocket.app.state, "club_tables", None)
                    cookie = websocket.cookies.get("kf_session")
                    gate = (
                        None
                        if clubs is None  # a rated seat: a signed-in member's
                        else functools.partial(_seat_gate, clubs, table, cookie)
                    )
                    client = await greet(
                        table,
                        raw,
                        websocket.send_text,
                        lambda code, why: websocket.close(code=code, reason=why),
                        gate=gate,
                    )
                except ProtocolError as err:
                    await websocket.send_text(encode(error_frame(err, table.version)))
            while True:
                await handle(table, client, await receive_text(websocket))
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            conns.add(table_id, who, -1)
            if client is not None:
                table.leave(client)
                await client.close()

    return router


async def _seat_gate(clubs: Any, table: LiveTable, cookie: str | None, seat: int) -> str | None:
    """A seat's gate at ``hello`` (kirifuda.server.connections.greet): a rated club table's seat
    is a signed-in member's (kirifuda.server.clubtables)."""
    name: str | None = await clubs.seat_gate(table, seat, cookie)
    return name
