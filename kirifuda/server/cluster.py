"""Many processes, one lobby (クラスタ): ``kirifuda serve --db postgresql+asyncpg://… --redis redis://…``.

Any number of processes, on one machine or several, share one PostgreSQL database (the tables'
event logs, as for one process) and one Redis:

- **One owner per table, with a lease.**  The process that creates a table, or takes an
  ownerless one, holds the Redis key ``kf:lease:<table>`` (``SET NX PX``, :data:`LEASE_MS`) and
  renews it every :data:`RENEW_SECONDS` (from a thread, so that a busy event loop keeps its
  leases); only the owner holds the table in memory, runs its
  bots and clocks and commits its events.  When a process dies its leases run out; every
  process looks for unfinished tables without a lease every :data:`SCAN_SECONDS` and takes
  them (the first ``SET NX`` wins), rebuilding each from its log in the database, as a restart
  does.  The log's primary key ``(table, seq)`` is the fence: a former owner that lost its
  lease while stalled cannot write a state the new owner wrote (its commit fails, it sees
  another event in its place, and lets the table go).
- **Any process accepts any client.**  A WebSocket for a table owned elsewhere is relayed over
  Redis pub/sub (each process listens on ``kf:i:<process>``): its messages go to the owner,
  which checks them exactly as a direct connection's (:mod:`.connections`), and the owner's
  frames come back.  When the owner changes (its lease ran out), the relayed connections are
  closed with code 1012 and the clients reconnect by themselves, to find the table's new owner.
  The gateway forwards the account its client is signed in as (its sign-in cookie resolved
  there, never the cookie itself) in the head of the relayed hello, which only the processes
  write: the owner checks a rated club table's seat against it as against a direct
  connection's cookie (:meth:`kirifuda.server.clubtables.ClubTables.seat_gate`).
  An HTTP request about a table owned elsewhere (its facts, the host's and the coach's routes)
  is forwarded to the owner's address (``--advertise``).
- **One lobby.**  Each owner writes its tables' lobby facts to the Redis hash ``kf:lobby``
  (twice a second, those that changed); every process's ``GET /api/tables`` reads it.
- **Bots where the cores are** (``--remote-bots``): a bot's decision is a job on the Redis list
  ``kf:bots``, taken by a ``kirifuda bot-worker`` process (:mod:`.botworker`), which rebuilds
  the seat's views from the table's log and answers on the owner's channel; the owner applies
  an answer only for the job it is waiting for, at the version the job was made on (a late,
  doubled or stale answer is dropped), and decides itself if no worker answered within
  :attr:`Cluster.bot_timeout` seconds.

Redis holds no game state: everything that must survive is in the database.  Redis must be
private to the cluster (the bot jobs carry the tables' logs, hands included).
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
import threading
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Awaitable, Callable

import orjson

from ..actions import Action
from ..bots import Bot
from ..game import View
from .connections import greet, handle
from .protocol import ProtocolError, encode, error_frame
from .tables import _BOT_THREAD, Client, LiveTable

if TYPE_CHECKING:
    from .tables import TableManager

__all__ = ["Cluster", "LEASE_MS", "RENEW_SECONDS", "SCAN_SECONDS", "BOT_QUEUE", "channel", "pack", "unpack"]

log = logging.getLogger("kirifuda.cluster")

SeatGate = Callable[[LiveTable, int, Callable[[], Awaitable["dict[str, Any] | None"]]], Awaitable["str | None"]]
"""``(table, seat, who)``: the seat's player's name, or ProtocolError (``who()``: the account
the relayed connection is signed in as)."""

LEASE_MS = 2500
"""A table's lease: an owner that stops renewing it loses the table after this long."""
RENEW_SECONDS = 0.5
"""How often an owner renews its leases (four times a lease)."""
SCAN_SECONDS = 0.5
"""How often each process looks for tables without an owner."""
LOBBY_SECONDS = 0.5
"""How often an owner writes the lobby facts of its tables that changed."""
LOBBY_KEEP = 1000
"""Tables the shared lobby hash keeps (the oldest finished ones leave it first)."""
BOT_QUEUE = "kf:bots"
"""The Redis list of bot decisions to make (:mod:`.botworker` takes them)."""

_RENEW = (
    "local held = redis.call('get', KEYS[1]) "
    "if held == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) end "
    "if not held then redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[2]) return 1 end "
    "return 0"
)
"""Renew a lease; one that ran out while its owner was stalled, and that nobody took since, is
taken again (the owner still holds the latest state: nobody else could commit meanwhile)."""
_RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end"


def lease_key(table_id: str) -> str:
    return f"kf:lease:{table_id}"


def alive_key(process: str) -> str:
    return f"kf:alive:{process}"


def channel(process: str, db: int = 0) -> str:
    """The pub/sub channel a process listens on (channels are shared by every database number
    of a Redis server: the cluster's number is part of the name)."""
    return f"kf:{db}:i:{process}"


def pack(head: dict[str, Any], body: str | bytes = b"") -> bytes:
    """A message between processes: a JSON head, a newline, then the body as is (a frame's
    JSON text is carried without being encoded again)."""
    return orjson.dumps(head) + b"\n" + (body.encode("utf-8") if isinstance(body, str) else body)


def unpack(data: bytes) -> tuple[dict[str, Any], bytes]:
    head, _, body = data.partition(b"\n")
    return orjson.loads(head), body


@dataclass(eq=False)
class _Relay:
    """A connection that arrived here for a table owned elsewhere (the gateway's side)."""

    table_id: str
    owner: str
    out: "asyncio.Queue[tuple[str, str | int]]" = field(default_factory=asyncio.Queue)
    """``("frame", text)`` to send, or ``("close", code)`` to close the connection."""


@dataclass(eq=False)
class _Remote:
    """A connection relayed from another process to a table owned here (the owner's side)."""

    gateway: str
    conn: str
    table_id: str
    inbox: "asyncio.Queue[tuple[str, str | None]]" = field(default_factory=asyncio.Queue)
    who: dict[str, Any] | None = None
    """The account the gateway found signed in on the connection (``id``, ``name``), if any."""
    who_unknown: bool = False
    """The gateway could not tell (its database failed): a rated seat is refused for now."""
    table: LiveTable | None = None
    client: Client | None = None
    task: "asyncio.Task[None] | None" = None


class Cluster:
    """This process's part in a cluster: its leases, its relays, its lobby facts, its bot jobs."""

    def __init__(
        self,
        redis_url: str,
        manager: "TableManager",
        *,
        process: str | None = None,
        address: str | None = None,
        remote_bots: bool = False,
        bot_timeout: float = 10.0,
        lease_ms: int = LEASE_MS,
    ) -> None:
        import redis.asyncio as aioredis

        self.redis = aioredis.from_url(redis_url)
        self.url = redis_url
        self.db = int(self.redis.connection_pool.connection_kwargs.get("db", 0) or 0)
        self.id = process or secrets.token_hex(4)
        """This process's name in the cluster (unique: a random one by default)."""
        self.address = address or ""
        """Where the other processes reach this one's HTTP API (``http://host:port``)."""
        self.manager = manager
        self.lease_ms = lease_ms
        self.remote_bots = remote_bots
        self.bot_timeout = bot_timeout
        self.owned: set[str] = set()
        self.relays: dict[str, _Relay] = {}
        self.remotes: dict[tuple[str, str], _Remote] = {}
        self._jobs: dict[str, tuple[str, int, "asyncio.Future[dict[str, Any]]"]] = {}
        self._lobby_seen: dict[str, tuple[Any, ...]] = {}
        self._tasks: list[asyncio.Task[None]] = []
        self._pubsub: Any = None
        self._outbox: dict[str, list[tuple[str, bytes]]] = {}
        """Frames for connections relayed from other processes, per process, until the next
        flush: one publish carries every frame queued in one turn of the event loop."""
        self._flushing: asyncio.Task[None] | None = None
        self._stop = threading.Event()
        self._renewer: threading.Thread | None = None
        self.bot_answers = {"applied": 0, "dropped": 0, "timed_out": 0}
        """Bot workers' answers: applied, dropped (late, doubled or stale), and jobs nobody answered."""
        self.seat_gate: SeatGate | None = None
        """Asked before a relayed connection takes a seat, as the WebSocket route asks for a
        direct one (a rated club table's seats: the app sets it)."""
        manager.cluster = self
        if remote_bots:
            manager.decide = self.decide

    # -- life ------------------------------------------------------------------------------
    async def start(self) -> None:
        await self.redis.ping()
        await self.redis.set(alive_key(self.id), self.address, px=self.lease_ms)
        self._pubsub = self.redis.pubsub()
        await self._pubsub.subscribe(channel(self.id, self.db))
        loop = asyncio.get_running_loop()
        self._renewer = threading.Thread(target=self._renew_leases, args=(loop,), daemon=True, name="kirifuda-leases")
        self._renewer.start()
        self._tasks = [
            loop.create_task(self._listen()),
            loop.create_task(self._every(RENEW_SECONDS, self.watch)),
            loop.create_task(self._every(SCAN_SECONDS, self.scan)),
            loop.create_task(self._every(LOBBY_SECONDS, self.publish_lobby)),
        ]
        await self.scan()
        log.info("process %s joined the cluster (%s)", self.id, self.address or "no address")

    async def close(self) -> None:
        self._stop.set()
        if self._renewer is not None:
            await asyncio.get_running_loop().run_in_executor(None, self._renewer.join, 5)
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        for remote in list(self.remotes.values()):
            await self._leave(remote)
        try:
            await self.publish_lobby()
            pipe = self.redis.pipeline(transaction=False)
            for tid in self.owned:
                pipe.eval(_RELEASE, 1, lease_key(tid), self.id)
            pipe.delete(alive_key(self.id))
            await pipe.execute()
            await self._pubsub.aclose()
        except Exception as exc:
            log.warning("leaving the cluster: %s", exc)
        await self.redis.aclose()

    async def _every(self, seconds: float, step: Callable[[], Awaitable[None]]) -> None:
        while True:
            await asyncio.sleep(seconds)
            try:
                await step()
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.warning("cluster %s: %s: %s", step.__name__, type(exc).__name__, exc)

    # -- leases ----------------------------------------------------------------------------
    async def claim(self, table_id: str) -> None:
        """The lease of a table being made here."""
        if not await self.redis.set(lease_key(table_id), self.id, nx=True, px=self.lease_ms):
            raise RuntimeError(f"table {table_id} already has an owner")
        self.owned.add(table_id)

    async def take(self, table_id: str) -> LiveTable | None:
        """Take an unfinished table nobody owns (rebuilt from its log); None if another process
        owns it, it is finished, or there is no such table."""
        if table_id in self.owned:
            return self.manager.tables.get(table_id)
        if not await self.redis.set(lease_key(table_id), self.id, nx=True, px=self.lease_ms):
            return None
        self.owned.add(table_id)
        try:
            stored = await self.manager.store.load_table(table_id)
        except Exception:
            await self._release(table_id)
            raise
        table = None if stored is None or stored.finished else self.manager.adopt(stored)
        if table is None:
            await self._release(table_id)
            return None
        log.info("process %s took table %s over at state %d", self.id, table_id, table.version)
        return table

    async def _release(self, table_id: str) -> None:
        self.owned.discard(table_id)
        await self.redis.eval(_RELEASE, 1, lease_key(table_id), self.id)

    async def released(self, table: LiveTable) -> None:
        """A table left this process's memory (finished and idle): its lease goes."""
        if table.id in self.owned:
            await self._write_lobby([table])
            await self._release(table.id)

    async def owner(self, table_id: str) -> str | None:
        got = await self.redis.get(lease_key(table_id))
        return got.decode() if isinstance(got, bytes) else got

    def _renew_leases(self, loop: asyncio.AbstractEventLoop) -> None:
        """Renew this process's leases and say it is alive, every :data:`RENEW_SECONDS`, from a
        thread of its own: a busy event loop (a burst of frames, a slow rebuild) is not a dead
        owner.  A lease found lost lets its table go (on the loop)."""
        import redis as sync_redis

        r = sync_redis.Redis.from_url(self.url)
        renew = r.register_script(_RENEW)
        try:
            while not self._stop.wait(RENEW_SECONDS):
                try:
                    owned = list(self.owned)
                except RuntimeError:  # changed by the loop meanwhile: next time
                    continue
                try:
                    pipe = r.pipeline(transaction=False)
                    pipe.set(alive_key(self.id), self.address, px=self.lease_ms)
                    for tid in owned:
                        renew(keys=[lease_key(tid)], args=[self.id, self.lease_ms], client=pipe)
                    results = pipe.execute()
                except Exception as exc:
                    log.warning("cluster %s: the leases could not be renewed (%s)", self.id, type(exc).__name__)
                    continue
                for tid, ok in zip(owned, results[1:]):
                    if not ok:
                        loop.call_soon_threadsafe(self._lose, tid)
        finally:
            r.close()

    def _lose(self, table_id: str) -> None:
        if table_id in self.owned:
            asyncio.get_running_loop().create_task(self._lost(table_id))

    async def renew(self) -> None:
        """Renew the leases now (the thread does it every :data:`RENEW_SECONDS`), then
        :meth:`watch`."""
        owned = sorted(self.owned)
        pipe = self.redis.pipeline(transaction=False)
        pipe.set(alive_key(self.id), self.address, px=self.lease_ms)
        for tid in owned:
            pipe.eval(_RENEW, 1, lease_key(tid), self.id, self.lease_ms)
        results = await pipe.execute()
        for tid, ok in zip(owned, results[1:]):
            if not ok and tid in self.owned:
                await self._lost(tid)
        await self.watch()

    async def watch(self) -> None:
        """Close relayed connections whose table another process took, and forget
        connections relayed from processes that died."""
        relayed = sorted({r.table_id for r in self.relays.values()})
        gateways = sorted({r.gateway for r in self.remotes.values()})
        if not relayed and not gateways:
            return
        pipe = self.redis.pipeline(transaction=False)
        for tid in relayed:
            pipe.get(lease_key(tid))
        for gw in gateways:
            pipe.exists(alive_key(gw))
        results = await pipe.execute()
        owners, alive = results[: len(relayed)], results[len(relayed) :]
        now_owner = {tid: (o.decode() if isinstance(o, bytes) else o) for tid, o in zip(relayed, owners)}
        for relay in list(self.relays.values()):
            # another owner took the table (a lease merely run out may be renewed yet)
            if now_owner.get(relay.table_id) not in (None, relay.owner):
                relay.out.put_nowait(("close", 1012))
        for gw, up in zip(gateways, alive):
            if not up:
                for remote in [r for r in self.remotes.values() if r.gateway == gw]:
                    await self._leave(remote)

    async def _lost(self, table_id: str) -> None:
        self.owned.discard(table_id)
        table = self.manager.tables.pop(table_id, None)
        log.warning("process %s lost the lease of table %s: letting it go", self.id, table_id)
        if table is not None:
            await table.close(hangup=True)

    async def scan(self) -> None:
        """Take the unfinished tables that have no owner (their owner died)."""
        ids = [tid for tid in await self.manager.store.unfinished_ids() if tid not in self.owned]
        if not ids:
            return
        pipe = self.redis.pipeline(transaction=False)
        for tid in ids:
            pipe.exists(lease_key(tid))
        for tid, held in zip(ids, await pipe.execute()):
            if not held:
                await self.take(tid)

    # -- where a table is --------------------------------------------------------------------
    async def locate(self, table_id: str) -> LiveTable | str | None:
        """The table if this process holds it (taking it if it has no owner), else the owner's
        name; None if there is no such table being played."""
        table = self.manager.tables.get(table_id)
        if table is not None:
            return table
        for _ in range(3):
            owner = await self.owner(table_id)
            if owner is None:
                table = await self.take(table_id)
                if table is not None:
                    return table
                if await self.owner(table_id) is None:
                    return await self.manager.fetch(table_id)
                continue
            if owner == self.id:
                return self.manager.tables.get(table_id)
            return owner
        return None

    async def address_of(self, process: str) -> str | None:
        got = await self.redis.get(alive_key(process))
        if not got:
            return None
        return str(got.decode() if isinstance(got, bytes) else got)

    # -- the lobby -------------------------------------------------------------------------
    async def publish_lobby(self) -> None:
        changed = []
        for tid in list(self.owned):
            table = self.manager.tables.get(tid)
            if table is None:
                continue
            key = (
                table.version,
                tuple(table.connected()),
                tuple(sorted(table.away)),
                sum(1 for c in table.clients if c.seat is None),
                table.over,
                tuple(table.drop_at),
            )
            if self._lobby_seen.get(tid) != key:
                self._lobby_seen[tid] = key
                changed.append(table)
        for tid in [t for t in self._lobby_seen if t not in self.owned]:
            del self._lobby_seen[tid]
        if changed:
            await self._write_lobby(changed)

    async def _write_lobby(self, tables: list[LiveTable]) -> None:
        await self.redis.hset("kf:lobby", mapping={t.id: orjson.dumps(t.summary_info()) for t in tables})

    async def lobby(self, limit: int) -> list[dict[str, Any]]:
        """Every process's tables, the newest first (the latest ``limit``)."""
        raw = await self.redis.hgetall("kf:lobby")
        infos = [orjson.loads(v) for v in raw.values()]
        infos.sort(key=lambda i: i.get("created", 0.0))
        if len(infos) > LOBBY_KEEP:
            old = [i["id"] for i in infos[: len(infos) - LOBBY_KEEP] if i.get("over")]
            if old:
                await self.redis.hdel("kf:lobby", *old)
        return infos[-limit:][::-1]

    async def lobby_entry(self, table_id: str) -> dict[str, Any] | None:
        raw = await self.redis.hget("kf:lobby", table_id)
        return None if raw is None else dict(orjson.loads(raw))

    # -- messages between processes ----------------------------------------------------------
    async def _listen(self) -> None:
        async for message in self._pubsub.listen():
            if message.get("type") != "message":
                continue
            try:
                head, body = unpack(message["data"])
                self._dispatch(head, body)
            except Exception:
                log.exception("cluster %s: a message could not be read", self.id)

    def _dispatch(self, head: dict[str, Any], body: bytes) -> None:
        op = head.get("op")
        if op == "frames":  # several frames to connections relayed from here
            at = 0
            for conn, size in zip(head["conns"], head["sizes"]):
                relay = self.relays.get(conn)
                if relay is not None:
                    relay.out.put_nowait(("frame", body[at : at + size].decode("utf-8")))
                at += size
        elif op in ("frame", "close"):  # to a connection relayed from here
            relay = self.relays.get(head["conn"])
            if relay is not None:
                relay.out.put_nowait(
                    ("frame", body.decode("utf-8")) if op == "frame" else ("close", int(head.get("code", 1012)))
                )
        elif op in ("msg", "leave"):  # from a connection relayed to here
            key = (head["from"], head["conn"])
            remote = self.remotes.get(key)
            if remote is None:
                if op == "leave":
                    return
                who = head.get("who")
                remote = self.remotes[key] = _Remote(
                    head["from"],
                    head["conn"],
                    head["table"],
                    who=dict(who) if isinstance(who, dict) else None,
                    who_unknown=bool(head.get("who_unknown")),
                )
                remote.task = asyncio.get_running_loop().create_task(self._serve_remote(remote))
            remote.inbox.put_nowait((op, None if head.get("binary") else body.decode("utf-8")))
        elif op == "bot":
            self._bot_answer(head)

    async def _to_gateway(self, remote: _Remote, head: dict[str, Any], body: str | bytes = b"") -> None:
        await self.redis.publish(channel(remote.gateway, self.db), pack({**head, "conn": remote.conn}, body))

    def _queue_frame(self, remote: _Remote, text: str) -> None:
        self._outbox.setdefault(remote.gateway, []).append((remote.conn, text.encode("utf-8")))
        if self._flushing is None or self._flushing.done():
            self._flushing = asyncio.get_running_loop().create_task(self._flush())

    async def _flush(self) -> None:
        """Publish the queued frames: one message per process (after this turn's frames)."""
        await asyncio.sleep(0)
        while self._outbox:
            outbox, self._outbox = self._outbox, {}
            pipe = self.redis.pipeline(transaction=False)
            for gateway, frames in outbox.items():
                pipe.publish(
                    channel(gateway, self.db),
                    pack(
                        {"op": "frames", "conns": [c for c, _ in frames], "sizes": [len(b) for _, b in frames]},
                        b"".join(b for _, b in frames),
                    ),
                )
            try:
                await pipe.execute()
            except Exception as exc:
                log.warning("cluster %s: frames to relayed connections were lost (%s)", self.id, type(exc).__name__)

    async def _serve_remote(self, remote: _Remote) -> None:
        """The owner's side of a relayed connection: its messages in order, as a direct one's."""

        async def send(text: str) -> None:
            self._queue_frame(remote, text)

        async def hangup(code: int, why: str) -> None:
            await self._to_gateway(remote, {"op": "close", "code": code})

        try:
            while True:
                op, text = await remote.inbox.get()
                if op == "leave":
                    break
                if remote.client is None:
                    table = self.manager.tables.get(remote.table_id)
                    if table is None or remote.table_id not in self.owned:
                        await hangup(1012, "moved")
                        break
                    remote.table = table
                    try:
                        remote.client = await greet(table, text, send, hangup, gate=self._gate(table, remote))
                    except ProtocolError as err:
                        await send(encode(error_frame(err, table.version)))
                elif remote.table is not None:
                    await handle(remote.table, remote.client, text)
        except asyncio.CancelledError:
            pass
        except Exception:
            log.exception("cluster %s: a relayed connection failed", self.id)
        finally:
            self.remotes.pop((remote.gateway, remote.conn), None)
            if remote.table is not None and remote.client is not None:
                remote.table.leave(remote.client)
                await remote.client.close()

    def _gate(self, table: LiveTable, remote: _Remote) -> Callable[[int], Awaitable[str | None]] | None:
        """The seat gate of a relayed hello, with the account its gateway forwarded."""
        seat_gate = self.seat_gate
        if seat_gate is None:
            return None

        async def who() -> dict[str, Any] | None:
            if remote.who_unknown:
                raise ProtocolError(
                    "unavailable", "the server could not check who is signed in (its database is busy): try again"
                )
            return remote.who

        async def gate(seat: int) -> str | None:
            return await seat_gate(table, seat, who)

        return gate

    async def _leave(self, remote: _Remote) -> None:
        remote.inbox.put_nowait(("leave", None))
        if remote.task is not None:
            try:
                await asyncio.wait_for(asyncio.shield(remote.task), 2)
            except (asyncio.TimeoutError, asyncio.CancelledError):
                remote.task.cancel()

    async def relay(
        self,
        owner: str,
        table_id: str,
        receive: Callable[[], Awaitable[str | None]],
        send: Callable[[str], Awaitable[None]],
        close: Callable[[int], Awaitable[None]],
        who: dict[str, Any] | None = None,
        who_unknown: bool = False,
    ) -> None:
        """The gateway's side of a connection to a table ``owner`` holds: every message to the
        owner, every frame back, until either side closes (or the owner changes: 1012).
        ``who``: the account the client is signed in as here (``id``, ``name``), sent with the
        first message (its hello) for the owner's seat gate; ``who_unknown``: it could not be
        read."""
        conn = secrets.token_hex(8)
        relay = self.relays[conn] = _Relay(table_id, owner)
        head: dict[str, Any] = {"from": self.id, "conn": conn, "table": table_id}
        first: dict[str, Any] = {"who": who} if who is not None else {"who_unknown": True} if who_unknown else {}

        async def write() -> None:
            while True:
                kind, item = await relay.out.get()
                if kind == "close":  # the client reconnects by itself (the page does)
                    await close(int(item))
                    return
                await send(str(item))

        writer = asyncio.get_running_loop().create_task(write())
        try:
            while not writer.done():
                reading = asyncio.ensure_future(receive())
                done, _ = await asyncio.wait({reading, writer}, return_when=asyncio.FIRST_COMPLETED)
                if reading not in done:
                    reading.cancel()
                    break
                text = reading.result()
                await self.redis.publish(
                    channel(owner, self.db), pack({**head, **first, "op": "msg", "binary": text is None}, text or b"")
                )
                first = {}
        finally:
            self.relays.pop(conn, None)
            writer.cancel()
            try:
                await self.redis.publish(channel(owner, self.db), pack({**head, "op": "leave"}))
            except Exception:
                pass

    # -- bots --------------------------------------------------------------------------------
    async def decide(self, table: LiveTable, seat: int, bot: Bot, view: View, seed: str) -> Action:
        """A bot's decision made by a bot worker (or here, if none answers in time)."""
        job = secrets.token_hex(8)
        fut: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._jobs[job] = (table.id, table.version, fut)
        spec = table.seats[seat]
        payload = {
            "job": job,
            "reply": self.id,
            "channel": channel(self.id, self.db),
            "table": table.id,
            "version": table.version,
            "seat": seat,
            "game": table.info.id,
            "options": table.options_json,
            "first": table.first,
            "bot": spec.get("bot", "default"),
            "seed": seed,
            "events": table.events,
            "made": time.time(),
        }
        try:
            await self.redis.lpush(BOT_QUEUE, orjson.dumps(payload))
            answer = await asyncio.wait_for(fut, self.bot_timeout)
            self.bot_answers["applied"] += 1
            return table.info.action_from_json(answer["action"], seat)
        except (asyncio.TimeoutError, ConnectionError, OSError) as exc:
            self.bot_answers["timed_out"] += 1
            log.warning("table %s: no bot worker answered (%s); deciding here", table.id, type(exc).__name__)
            return await asyncio.get_running_loop().run_in_executor(_BOT_THREAD, bot.choose, view, random.Random(seed))
        finally:
            self._jobs.pop(job, None)

    def _bot_answer(self, head: dict[str, Any]) -> None:
        waiting = self._jobs.get(head.get("job", ""))
        if waiting is None or waiting[2].done() or waiting[0] != head.get("table") or waiting[1] != head.get("version"):
            self.bot_answers["dropped"] += 1
            return
        waiting[2].set_result(head)
