"""The database of the web app, through SQLAlchemy's asyncio engine.

A table is stored as its settings and its **event log**: each deal as dealt (``hands``, ``rest``)
and each action (``seat`` + the record's action form), in order.  The record of
``docs/records.md`` is exactly that log, so a restart rebuilds each table by replaying
it through the engine.  Every event is committed before the server tells anyone about it.

Schema migrations: the ``kf_schema`` table holds the schema's version; :data:`MIGRATIONS` lists,
for each version, the statements that bring the previous version to it.  :meth:`Store.open`
applies the missing ones in order, each in its own transaction (see ``docs/server.md``).

SQLite runs in WAL mode with ``synchronous=FULL`` (a commit survives a crash of the process or
of the machine; ``KIRIFUDA_SQLITE_SYNCHRONOUS=NORMAL`` trades the machine-crash guarantee for
speed); the default file is ``~/.local/share/kirifuda/kirifuda.db``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence

import orjson
from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    Float,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    event,
    inspect,
    select,
    text,
    update,
)
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

__all__ = ["Store", "StoredTable", "default_db_url", "SCHEMA_VERSION", "MIGRATIONS"]

metadata = MetaData()

kf_schema = Table("kf_schema", metadata, Column("version", Integer, nullable=False))

kf_tables = Table(
    "kf_tables",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("game", String(32), nullable=False),
    # The options as JSON (every field, defaults included).
    Column("options", Text, nullable=False),
    Column("first", Integer, nullable=False),
    # Tables of schema 1: the seed of every deal (``Random(f"{seed}:{i}")``); 0 since schema 2.
    Column("seed", BigInteger, nullable=False),
    # Per seat: ``{"kind": "human"|"bot", "bot": kind, "name": str}``.
    Column("seats", Text, nullable=False),
    # Per seat: the SHA-256 of the seat's secret token (``null`` for a bot's seat).
    Column("token_hashes", Text, nullable=False),
    Column("timer", Integer, nullable=False),
    Column("created", Float, nullable=False),
    Column("finished", Boolean, nullable=False),
    # Since schema 2: the table's secret (hex, 256 bits from the OS's CSPRNG); deal ``i`` is
    # shuffled by ``Random(f"{secret}:{i}")``.  NULL for a table of schema 1: ``str(seed)``.
    Column("secret", String(80), nullable=True),
    # Since schema 4: the table's other settings as JSON (``{"hints": bool, "practice": {…}}``,
    # kirifuda.server.coach and .practice); NULL for an older table: the defaults.
    Column("settings", Text, nullable=True),
)

kf_events = Table(
    "kf_events",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("seq", Integer, primary_key=True),
    # ``{"deal": {"hands", "rest"}}`` or ``{"action": {"seat", ...}}``.
    Column("data", Text, nullable=False),
    # when the event was committed (Unix time; NULL before schema 5): the turn it begins
    # started then, and a process that takes the table over resumes its turn timer from it
    Column("at", Float, nullable=True),
)


def _v1(conn: Connection) -> None:
    metadata.create_all(conn, tables=[kf_tables, kf_events])


def _v2(conn: Connection) -> None:
    """Each table's deal secret (a database made at schema 1 lacks the column)."""
    if "secret" not in {c["name"] for c in inspect(conn).get_columns("kf_tables")}:
        conn.execute(text("ALTER TABLE kf_tables ADD COLUMN secret VARCHAR(80)"))


def _v3(conn: Connection) -> None:
    """Reserved (another branch's migration takes this number when merged)."""


def _v4(conn: Connection) -> None:
    """The table's settings (``settings``), with the ``hints`` setting that the coach kept in a
    table of its own (``kf_coach``, where a database has it) moved into them."""
    if "settings" not in {c["name"] for c in inspect(conn).get_columns("kf_tables")}:
        conn.execute(text("ALTER TABLE kf_tables ADD COLUMN settings TEXT"))
    if inspect(conn).has_table("kf_coach"):
        rows = conn.execute(text("SELECT table_id, hints FROM kf_coach")).all()
        for table_id, hints in rows:
            conn.execute(
                update(kf_tables).where(kf_tables.c.id == table_id).values(settings=json.dumps({"hints": bool(hints)}))
            )


def _v5(conn: Connection) -> None:
    """Each event's commit time (``kf_events.at``): a table taken over resumes its turn timer."""
    if "at" not in {c["name"] for c in inspect(conn).get_columns("kf_events")}:
        conn.execute(text("ALTER TABLE kf_events ADD COLUMN at DOUBLE PRECISION"))


MIGRATIONS: dict[int, Callable[[Connection], None]] = {1: _v1, 2: _v2, 3: _v3, 4: _v4, 5: _v5}
"""Schema version → the step that brings the previous version to it."""
SCHEMA_VERSION = max(MIGRATIONS)
_MIGRATION_LOCK = 0x6B6972696675  # "kirifu": the advisory lock the migrations take on PostgreSQL


@dataclass
class _Append:
    table_id: str
    first_seq: int
    events: list[dict[str, Any]]
    finished: bool
    done: "asyncio.Future[None]"
    table: StoredTable | None = None
    """A new table to insert (its events follow in later writes)."""
    at: float = 0.0
    """When the events were appended (Unix time): ``kf_events.at``."""


def _table_row(t: StoredTable) -> dict[str, Any]:
    return dict(
        id=t.id,
        game=t.game,
        options=json.dumps(t.options),
        first=t.first,
        seed=t.seed,
        secret=t.secret or None,
        seats=json.dumps(t.seats, ensure_ascii=False),
        token_hashes=json.dumps(t.token_hashes),
        timer=t.timer,
        created=t.created,
        finished=t.finished,
        settings=json.dumps(t.settings) if t.settings else None,
    )


def _settle(fut: "asyncio.Future[None]", exc: BaseException | None) -> None:
    if fut.done():
        return
    if exc is None:
        fut.set_result(None)
    else:
        fut.set_exception(exc)


def default_db_url() -> str:
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    path = Path(base) / "kirifuda" / "kirifuda.db"
    return f"sqlite+aiosqlite:///{path}"


@dataclass
class StoredTable:
    id: str
    game: str
    options: dict[str, Any]
    first: int
    seed: int
    seats: list[dict[str, Any]]
    token_hashes: list[str | None]
    timer: int
    created: float
    finished: bool
    events: list[dict[str, Any]] = field(default_factory=list)
    secret: str = ""
    """The deals' secret: ``Random(f"{secret}:{deal}")`` shuffles deal ``deal``."""
    settings: dict[str, Any] = field(default_factory=dict)
    """The table's other settings (``hints``, ``practice``); empty: the defaults."""
    last_at: float | None = None
    """When its last event was committed (Unix time; None: no event, or stored before schema 5):
    the turn being played began then."""


class Store:
    """The database.  ``await Store.open(url)``; every write commits before it returns."""

    def __init__(self, engine: AsyncEngine, url: str) -> None:
        self.engine = engine
        self.url = url
        self._write_lock = asyncio.Lock()
        """SQLite has one writer at a time: writes queue here rather than in SQLite's busy
        handler, whose back-off sleeps would add hundreds of milliseconds under load."""
        self._pending: list[_Append] = []
        self._insert_event = "INSERT INTO kf_events (table_id, seq, data, at) VALUES " + (
            "($1, $2, $3, $4)" if engine.dialect.name == "postgresql" else "(?, ?, ?, ?)"
        )
        self._flusher: asyncio.Task[None] | None = None

    def _writing(self) -> "asyncio.Lock | contextlib.nullcontext[None]":
        return self._write_lock if self.engine.dialect.name == "sqlite" else contextlib.nullcontext()

    @property
    def dialect(self) -> str:
        return self.engine.dialect.name

    @classmethod
    async def open(cls, url: str | None = None) -> "Store":
        url = url or default_db_url()
        kwargs: dict[str, Any] = {}
        if url.startswith("sqlite"):
            path = url.split("///", 1)[1] if "///" in url else ""
            if path and path != ":memory:":
                Path(path).parent.mkdir(parents=True, exist_ok=True)
        synchronous = os.environ.get("KIRIFUDA_SQLITE_SYNCHRONOUS", "FULL").upper()
        if synchronous not in ("FULL", "NORMAL", "EXTRA"):
            raise ValueError("KIRIFUDA_SQLITE_SYNCHRONOUS must be FULL, NORMAL or EXTRA")
        if not url.startswith("sqlite"):
            # a connection the database dropped (a restart) is noticed and replaced before use
            kwargs["pool_pre_ping"] = True
        engine = create_async_engine(url, **kwargs)
        if engine.dialect.name == "sqlite":

            @event.listens_for(engine.sync_engine, "connect")
            def _pragmas(dbapi_conn: Any, _record: Any) -> None:
                cur = dbapi_conn.cursor()
                cur.execute("PRAGMA journal_mode=WAL")
                cur.execute(f"PRAGMA synchronous={synchronous}")
                cur.execute("PRAGMA busy_timeout=5000")
                cur.close()

        store = cls(engine, url)
        await store.migrate()
        return store

    async def migrate(self) -> int:
        """Apply the missing migrations; return the schema version.  On PostgreSQL under an
        advisory lock: several processes of a cluster starting at once migrate one at a time."""
        if self.dialect != "postgresql":
            return await self._migrate()
        async with self.engine.connect() as lock:
            await lock.execute(text("SELECT pg_advisory_lock(:k)"), {"k": _MIGRATION_LOCK})
            try:
                return await self._migrate()
            finally:
                await lock.execute(text("SELECT pg_advisory_unlock(:k)"), {"k": _MIGRATION_LOCK})

    async def create_all(self, metadatas: Sequence[MetaData]) -> None:
        """Make the tables of other modules' metadata that do not exist yet (on PostgreSQL under
        the migrations' advisory lock: the processes of a cluster starting at once would race
        their CREATE TABLEs)."""
        async with self.engine.connect() as lock:
            if self.dialect == "postgresql":
                await lock.execute(text("SELECT pg_advisory_lock(:k)"), {"k": _MIGRATION_LOCK})
            try:
                async with self.engine.begin() as conn:
                    for md in metadatas:
                        await conn.run_sync(md.create_all)
            finally:
                if self.dialect == "postgresql":
                    await lock.execute(text("SELECT pg_advisory_unlock(:k)"), {"k": _MIGRATION_LOCK})

    async def _migrate(self) -> int:
        async with self.engine.begin() as conn:
            await conn.run_sync(lambda c: metadata.create_all(c, tables=[kf_schema]))
            row = (await conn.execute(select(kf_schema.c.version))).first()
            version = row[0] if row else 0
            if row is None:
                await conn.execute(kf_schema.insert().values(version=0))
        if version > SCHEMA_VERSION:
            raise RuntimeError(
                f"the database's schema is version {version}, newer than this "
                f"kirifuda's ({SCHEMA_VERSION}): upgrade kirifuda"
            )
        for v in range(version + 1, SCHEMA_VERSION + 1):
            async with self.engine.begin() as conn:
                await conn.run_sync(MIGRATIONS[v])
                await conn.execute(update(kf_schema).values(version=v))
        return SCHEMA_VERSION

    async def schema_version(self) -> int:
        async with self.engine.connect() as conn:
            return int((await conn.execute(select(kf_schema.c.version))).scalar_one())

    async def close(self) -> None:
        if self._flusher is not None:
            await asyncio.gather(self._flusher, return_exceptions=True)
        await self.engine.dispose()

    # -- writing -------------------------------------------------------------------------
    async def create_table(self, t: StoredTable) -> None:
        """Commit a new table (grouped with the other writes in flight, as events are)."""
        await self._enqueue(_Append(t.id, 0, [], t.finished, asyncio.get_running_loop().create_future(), table=t))

    async def append_events(
        self, table_id: str, first_seq: int, events: Sequence[dict[str, Any]], finished: bool = False
    ) -> None:
        """Commit events ``first_seq, first_seq+1, …`` (the primary key refuses a doubled seq).

        Group commit: the events that tables append while a commit is in flight wait and are
        committed together, in one transaction, by the next; each caller returns once its own
        events are durable (and gets the exception if they could not be written)."""
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        await self._enqueue(_Append(table_id, first_seq, list(events), finished, fut, at=time.time()))

    async def _enqueue(self, item: "_Append") -> None:
        self._pending.append(item)
        if self._flusher is None or self._flusher.done():
            self._flusher = asyncio.get_running_loop().create_task(self._flush())
        await asyncio.shield(item.done)

    async def _flush(self) -> None:
        while self._pending:
            batch, self._pending = self._pending, []
            try:
                await self._write(batch)
            except Exception as exc:
                if len(batch) == 1:
                    _settle(batch[0].done, exc)
                    continue
                # one at a time, so that a fault fails only its own table's events
                for item in batch:
                    try:
                        await self._write([item])
                    except Exception as one:
                        _settle(item.done, one)
                    else:
                        _settle(item.done, None)
                continue
            for item in batch:
                _settle(item.done, None)

    async def _write(self, batch: list["_Append"]) -> None:
        rows = [
            (a.table_id, a.first_seq + i, orjson.dumps(e).decode("utf-8"), a.at)
            for a in batch
            for i, e in enumerate(a.events)
        ]
        finished = [a.table_id for a in batch if a.finished and a.table is None]
        tables = [_table_row(a.table) for a in batch if a.table is not None]
        async with self._writing(), self.engine.begin() as conn:
            if tables:
                await conn.execute(kf_tables.insert(), tables)
            if rows:
                # the driver's own statement: no SQL to build for the hottest write
                await conn.exec_driver_sql(self._insert_event, rows)
            if finished:
                await conn.execute(update(kf_tables).where(kf_tables.c.id.in_(finished)).values(finished=True))

    async def mark_finished(self, table_id: str) -> None:
        async with self._writing(), self.engine.begin() as conn:
            await conn.execute(update(kf_tables).where(kf_tables.c.id == table_id).values(finished=True))

    async def set_seats(self, table_id: str, seats: list[dict[str, Any]]) -> None:
        async with self._writing(), self.engine.begin() as conn:
            await conn.execute(
                update(kf_tables).where(kf_tables.c.id == table_id).values(seats=json.dumps(seats, ensure_ascii=False))
            )

    # -- reading -------------------------------------------------------------------------
    async def load_tables(self, include_finished: bool = True) -> list[StoredTable]:
        """Every table (or every unfinished one), oldest first, with its events."""
        q = select(kf_tables).order_by(kf_tables.c.created)
        if not include_finished:
            q = q.where(kf_tables.c.finished == False)  # noqa: E712
        return await self._load(q)

    async def load_table(self, table_id: str) -> StoredTable | None:
        """One table with its events; None if there is none of that id."""
        found = await self._load(select(kf_tables).where(kf_tables.c.id == table_id))
        return found[0] if found else None

    async def recent_finished(self, limit: int) -> list[StoredTable]:
        """The ``limit`` finished tables made last, oldest first, with their events."""
        q = (
            select(kf_tables)
            .where(kf_tables.c.finished == True)  # noqa: E712
            .order_by(kf_tables.c.created.desc())
            .limit(limit)
        )
        return list(reversed(await self._load(q)))

    async def unfinished_ids(self) -> list[str]:
        """The ids of the tables still being played, oldest first."""
        async with self.engine.connect() as conn:
            q = (
                select(kf_tables.c.id)
                .where(kf_tables.c.finished == False)  # noqa: E712
                .order_by(kf_tables.c.created)
            )
            return [str(r) for r in (await conn.execute(q)).scalars().all()]

    async def _load(self, q: Any) -> list[StoredTable]:
        async with self.engine.connect() as conn:
            rows = (await conn.execute(q)).mappings().all()
            out = []
            for r in rows:
                events = (
                    await conn.execute(
                        select(kf_events.c.data, kf_events.c.at)
                        .where(kf_events.c.table_id == r["id"])
                        .order_by(kf_events.c.seq)
                    )
                ).all()
                out.append(
                    StoredTable(
                        id=r["id"],
                        game=r["game"],
                        options=json.loads(r["options"]),
                        first=r["first"],
                        seed=r["seed"],
                        seats=json.loads(r["seats"]),
                        token_hashes=json.loads(r["token_hashes"]),
                        timer=r["timer"],
                        created=r["created"],
                        finished=bool(r["finished"]),
                        events=[json.loads(e) for e, _ in events],
                        secret=r["secret"] or str(r["seed"]),
                        settings=json.loads(r["settings"]) if r["settings"] else {},
                        last_at=events[-1][1] if events else None,
                    )
                )
            return out

    async def event_at(self, table_id: str, seq: int) -> dict[str, Any] | None:
        """The event ``seq`` of a table (None: not written)."""
        async with self.engine.connect() as conn:
            data = (
                await conn.execute(
                    select(kf_events.c.data).where(kf_events.c.table_id == table_id).where(kf_events.c.seq == seq)
                )
            ).scalar_one_or_none()
        return None if data is None else dict(json.loads(data))

    async def count_events(self, table_id: str) -> int:
        async with self.engine.connect() as conn:
            res = await conn.execute(text("SELECT COUNT(*) FROM kf_events WHERE table_id = :t"), {"t": table_id})
            return int(res.scalar_one())
