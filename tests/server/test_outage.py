"""The database goes away and comes back: SQLite locked past its busy timeout, PostgreSQL
stopped for ten seconds.  A player acting meanwhile is told (an ``unavailable`` error frame,
nothing changed, still connected); the table's own moves (the bots) wait and go on by themselves
when the database is back, with nobody new connecting (they used to stop for good)."""

from __future__ import annotations

import json
import sqlite3
import time
from typing import Any, Callable

import pytest
from websockets.sync.client import connect

from kirifuda.server.limits import Limits

from .conftest import TEST_LIMITS, ServerThread
from .test_protocol import create, recv_until

SEATS = [{"kind": "human"}] + [{"kind": "bot", "bot": "random"}] * 3


def outage(db_url: str, request: pytest.FixtureRequest) -> tuple[Callable[[], None], Callable[[], None], float]:
    """(take the database away, bring it back, how long to keep it away)."""
    if db_url.startswith("sqlite"):
        path = db_url.split("///", 1)[1]
        holder: dict[str, sqlite3.Connection] = {}

        def lock() -> None:
            conn = sqlite3.connect(path, isolation_level=None, timeout=30)
            conn.execute("BEGIN EXCLUSIVE")
            holder["c"] = conn

        def unlock() -> None:
            conn = holder.pop("c", None)
            if conn is not None:
                conn.execute("ROLLBACK")
                conn.close()

        return lock, unlock, 7.0  # past the 5 s busy timeout
    pg = request.getfixturevalue("postgres")
    if not pg.own:
        pytest.skip("PostgreSQL from KIRIFUDA_TEST_PG: not ours to stop")
    return pg.stop_server, pg.start_server, 10.0


def act_frame(frame: dict[str, Any]) -> str:
    return json.dumps({"type": "act", "version": frame["version"], "action": frame["legal"][0]["action"]})


def test_a_database_outage_stalls_no_table(db_url: str, request: pytest.FixtureRequest) -> None:
    down, up, hold = outage(db_url, request)
    limits = Limits(**{**TEST_LIMITS, "commit_retry_seconds": 0.5})  # type: ignore[arg-type]
    with ServerThread(db_url, bot_delay=0.5, limits=limits) as srv:
        made = create(srv, SEATS)
        table = srv.app.state.manager.tables[made["id"]]
        with connect(f"ws://127.0.0.1:{srv.port}/ws/{made['id']}") as ws:
            ws.send(json.dumps({"type": "hello", "token": made["tokens"][0]}))
            mine = recv_until(ws, "state", lambda m: bool(m["legal"]), limit=500)
            v = mine["version"]
            # a player acting while the database is away: told, nothing changed, still there
            down()
            try:
                ws.send(act_frame(mine))
                err = recv_until(ws, "error", limit=500)
                assert err["code"] == "unavailable" and "try again" in err["message"]
                assert table.version == v
            finally:
                up()
            ws.send(json.dumps({"type": "ping"}))
            recv_until(ws, "pong", limit=500)
            ws.send(act_frame(mine))
            recv_until(ws, "state", lambda m: m["version"] == v + 1, limit=500)
            # the bots' turn: the database goes away before the first of them acts
            down()
            try:
                time.sleep(hold)
                assert table.version == v + 1
            finally:
                up()
            # back: the table goes on by itself, to this seat's next turn
            again = recv_until(ws, "state", lambda m: m["version"] > v + 1 and bool(m["legal"]), limit=2000)
            assert again["view"]["to_act"] == 0
        assert table._driver is not None
