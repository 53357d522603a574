"""Connections come and go: a dropped player keeps the seat for the grace period, then the
stand-in bot plays for them until they come back; a turn timer lets the stand-in play one move
that runs out.  (Short clocks here: the behaviour, not the durations.)"""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

from kirifuda import record as records
from kirifuda.server.store import Store
from kirifuda.server.tables import Client, TableManager


def client(seat: int | None, frames: list[dict[str, Any]]) -> Client:
    """A connection that keeps the state frames it is sent (decoded)."""

    async def send(text: str) -> None:
        frame = json.loads(text)
        if frame["type"] == "state":
            frames.append(frame)

    return Client(seat, send)


async def until(pred: Any, timeout: float = 10) -> None:
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not pred():
        assert loop.time() < end, "timed out"
        await asyncio.sleep(0.01)


def test_grace_then_standin_then_return(db_url: str) -> None:
    async def go() -> None:
        store = await Store.open(db_url)
        manager = TableManager(store, grace=0.3, bot_delay=0)
        table, tokens = await manager.create("meitora", {}, [{"kind": "human"}] + [{"kind": "bot"}] * 3, secret="3")
        await until(lambda: table.version >= 1)
        frames: list[dict[str, Any]] = []
        me = client(0, frames)
        table.join(me)
        await until(lambda: table.state.to_act == 0)
        v = table.version
        table.leave(me)
        await me.close()
        await asyncio.sleep(0.1)
        assert table.version == v and 0 not in table.away  # within the grace: the seat waits
        await until(lambda: table.version > v)  # then the stand-in plays
        assert 0 in table.away
        assert records.replay(table.record()).summary() == table.state.summary()
        back: list[dict[str, Any]] = []
        again = client(0, back)
        table.join(again)  # back with the link: the seat is theirs again
        assert 0 not in table.away
        await until(lambda: bool(back))
        assert back[-1]["view"]["seat"] == 0 and back[-1]["view"]["hand"]
        assert table.public_info()["seats"][0]["connected"]
        await manager.close()
        await store.close()

    asyncio.run(go())


def test_turn_timer_lets_the_standin_play_one_move(db_url: str) -> None:
    async def go() -> None:
        store = await Store.open(db_url)
        manager = TableManager(store, grace=60, bot_delay=0)
        table, _ = await manager.create("meitora", {}, [{"kind": "human"}] * 4, timer=30, secret="5")
        await until(lambda: table.version >= 1)
        frames: list[dict[str, Any]] = []
        for s in range(4):
            table.join(client(s, frames))
        await until(lambda: bool(frames))
        assert 0 < frames[-1]["deadline"] <= 30
        table.timer = 0.2  # the same clock, shortened for the test
        table._arm_timer()
        v = table.version
        await until(lambda: table.version == v + 1)
        table.timer = 30
        table._arm_timer()
        await asyncio.sleep(0.4)
        # one move only: the next human has their own (full) time, and no one is away
        assert table.version == v + 1 and not table.away
        assert table.state.to_act == 1 and table.deadline_for(1) > 29
        await manager.close()
        await store.close()

    asyncio.run(go())


def test_a_table_rebuilt_from_its_log_resumes_its_turn_timer(db_url: str) -> None:
    """A restart or a cluster's take-over rebuilds the table from its log: the turn's clock goes
    on from the time it had left (its event's commit time is stored), not a whole turn anew; a
    turn that ran out while nobody held the table gets the few seconds of RESUME_AT_LEAST."""
    from sqlalchemy import text

    from kirifuda.server.tables import RESUME_AT_LEAST

    async def go() -> None:
        store = await Store.open(db_url)
        first = TableManager(store, grace=60, bot_delay=0)
        table, _ = await first.create("meitora", {}, [{"kind": "human"}] * 4, timer=30, secret="7")
        await until(lambda: table.version >= 1 and table.deadline_for(None) is not None)
        tid, version = table.id, table.version
        await first.close()  # the owner is gone; its table's clock had 30 s

        async def taken_over(began_ago: float) -> float:
            async with store.engine.begin() as conn:  # the turn began that long ago
                await conn.execute(
                    text("UPDATE kf_events SET at = :at WHERE table_id = :t AND seq = :s"),
                    {"at": time.time() - began_ago, "t": tid, "s": version - 1},
                )
            stored = await store.load_table(tid)
            assert stored is not None and stored.last_at is not None
            other = TableManager(store, grace=60, bot_delay=0)
            again = other.adopt(stored)
            assert again is not None and again.version == version
            frames: list[dict[str, Any]] = []
            again.join(client(None, frames))
            await until(lambda: bool(frames))
            left = again.deadline_for(None)
            assert left is not None and frames[-1]["deadline"] is not None
            assert abs(frames[-1]["deadline"] - left) < 1
            await other.close()
            return left

        left = await taken_over(20)
        assert 8 <= left <= 10.1, left  # 30 s less the 20 s gone by: not 30 anew
        left = await taken_over(1000)
        assert RESUME_AT_LEAST - 2 <= left <= RESUME_AT_LEAST, left
        await store.close()

    asyncio.run(go())


def test_a_schema_4_database_gains_the_commit_times(tmp_path: Any) -> None:
    """Opening a database of schema 4 adds ``kf_events.at``; its events have no commit time,
    so a table of it resumes with a whole turn (as before), and new events get one."""
    from sqlalchemy import text

    from kirifuda.server.store import SCHEMA_VERSION

    async def go() -> None:
        url = f"sqlite+aiosqlite:///{tmp_path / 'old.db'}"
        store = await Store.open(url)
        first = TableManager(store, grace=60, bot_delay=0)
        table, _ = await first.create("meitora", {}, [{"kind": "human"}] * 4, timer=30, secret="9")
        await until(lambda: table.version >= 1)
        await first.close()
        async with store.engine.begin() as conn:  # as schema 4 left it
            await conn.execute(text("ALTER TABLE kf_events DROP COLUMN at"))
            await conn.execute(text("UPDATE kf_schema SET version = 4"))
        await store.close()
        store = await Store.open(url)
        assert await store.schema_version() == SCHEMA_VERSION == 5
        stored = await store.load_table(table.id)
        assert stored is not None and stored.events and stored.last_at is None
        other = TableManager(store, grace=60, bot_delay=0)
        again = other.adopt(stored)
        assert again is not None and 28 <= (again.deadline_for(None) or 0) <= 30
        before = time.time()
        await store.append_events(table.id, again.version, [{"action": {"seat": 0, "bid": "pass"}}])
        later = await store.load_table(table.id)
        assert later is not None and later.last_at is not None and before <= later.last_at <= time.time()
        await other.close()
        await store.close()

    asyncio.run(go())
