"""Each of the server's limits, set low, refuses in words what is past it (SQLite and
PostgreSQL); the defaults come from ``KIRIFUDA_LIMIT_*``."""

from __future__ import annotations

import dataclasses
import json
import time
from contextlib import ExitStack
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from kirifuda.server.limits import Limits, RateLimiter

from .conftest import TEST_LIMITS, ServerThread
from .test_protocol import HUMANS, create, recv_until

BOTS = [{"kind": "bot", "bot": "random"}] * 4


def limits(**kw: Any) -> Limits:
    return Limits(**{**TEST_LIMITS, **kw})


def test_limits_come_from_the_environment() -> None:
    got = Limits.from_env(
        {
            "KIRIFUDA_LIMIT_TABLES_PER_MINUTE": "3",
            "KIRIFUDA_LIMIT_OPENAPI": "yes",
            "KIRIFUDA_LIMIT_HELLO_SECONDS": "1.5",
        }
    )
    assert (got.tables_per_minute, got.openapi, got.hello_seconds) == (3, True, 1.5)
    assert got.max_deals == Limits().max_deals
    with pytest.raises(ValueError, match="KIRIFUDA_LIMIT_MAX_DEALS must be a int"):
        Limits.from_env({"KIRIFUDA_LIMIT_MAX_DEALS": "many"})


def test_rate_limiter_window() -> None:
    r = RateLimiter(2, 60)
    assert r.allow("a", 0) and r.allow("a", 1) and not r.allow("a", 2) and r.allow("b", 2)
    assert r.allow("a", 60.5)


def test_tables_per_minute_and_open_tables_per_client(db_url: str) -> None:
    with ServerThread(db_url, bot_delay=0, limits=limits(tables_per_minute=3)) as srv:
        for _ in range(3):
            create(srv)
        r = httpx.post(srv.url + "/api/tables", json={"game": "meitora", "seats": HUMANS})
        assert r.status_code == 429 and "3 tables a minute" in r.json()["detail"]
        assert len(srv.app.state.manager.tables) == 3
    with ServerThread(db_url, bot_delay=0, limits=limits(open_tables_per_client=2)) as srv:
        open_before = srv.app.state.manager.open_tables_of("127.0.0.1")
        assert open_before == 0  # a restart forgets who opened what
        create(srv)
        create(srv)
        r = httpx.post(srv.url + "/api/tables", json={"game": "meitora", "seats": HUMANS})
        assert r.status_code == 429 and "at most 2 tables in play" in r.json()["detail"]


def test_deals_per_match(db_url: str) -> None:
    """A longer match-length option is refused; a match still going at the limit (here: the
    limit lowered since it began, as after a restart with a new setting) is cut between deals,
    marked finished, and its record (nothing is hidden between deals) is given."""
    with ServerThread(db_url, bot_delay=0, limits=limits(max_deals=2)) as srv:
        for game, options, n in (
            ("napoleon", {"deals": 3}, 5),
            ("meitora", {"target": 3}, 4),
            ("kakeya", {"games": 10**9}, 4),
        ):
            r = httpx.post(
                srv.url + "/api/tables", json={"game": game, "seats": [{"kind": "human"}] * n, "options": options}
            )
            assert r.status_code == 400 and "at most 2 deals" in r.json()["detail"], r.text
    with ServerThread(db_url, bot_delay=0) as srv:
        made = create(srv, BOTS)
        t = srv.app.state.manager.tables[made["id"]]
        t.limits = dataclasses.replace(t.limits, max_deals=2)
        deadline = time.time() + 60
        while not t.over and time.time() < deadline:
            time.sleep(0.05)
        assert t.cut and not t.state.is_over and t.state.deal_number == 2 and t.state.needs_deal
        version = t.version
        time.sleep(0.3)
        assert t.version == version  # no third deal
        info = httpx.get(f"{srv.url}/api/tables/{made['id']}").json()
        assert info["over"] and info["cut"]
        rec = httpx.get(f"{srv.url}/api/tables/{made['id']}/record")
        assert rec.status_code == 200 and len(rec.json()["deals"]) == 2


def test_connections_per_table_and_per_client(db_url: str) -> None:
    with ServerThread(db_url, bot_delay=0, limits=limits(connections_per_table=2)) as srv, ExitStack() as stack:
        made = create(srv)
        url = f"ws://127.0.0.1:{srv.port}/ws/{made['id']}"
        for _ in range(2):
            stack.enter_context(connect(url))
        with connect(url) as third:
            err = json.loads(third.recv(timeout=30))
            assert err["code"] == "limit" and "2 connections" in err["message"]
            with pytest.raises(ConnectionClosed):
                third.recv(timeout=30)
            assert third.close_code == 4429
    with ServerThread(db_url, bot_delay=0, limits=Limits(connections_per_client=2)) as srv, ExitStack() as stack:
        tables = [create(srv)["id"] for _ in range(2)]
        for tid in tables:
            stack.enter_context(connect(f"ws://127.0.0.1:{srv.port}/ws/{tid}"))
        with connect(f"ws://127.0.0.1:{srv.port}/ws/{tables[0]}") as third:
            err = json.loads(third.recv(timeout=30))
            assert err["code"] == "limit" and "from one address" in err["message"]


def test_hello_within_seconds(db_url: str) -> None:
    with ServerThread(db_url, bot_delay=0, limits=limits(hello_seconds=0.5)) as srv:
        made = create(srv)
        with connect(f"ws://127.0.0.1:{srv.port}/ws/{made['id']}") as ws:
            start = time.time()
            err = json.loads(ws.recv(timeout=30))
            assert err["code"] == "timeout" and "hello within 0.5 seconds" in err["message"]
            with pytest.raises(ConnectionClosed):
                ws.recv(timeout=30)
            assert time.time() - start < 5
        with connect(f"ws://127.0.0.1:{srv.port}/ws/{made['id']}") as ws:  # a prompt hello stays
            ws.send(json.dumps({"type": "hello", "token": None}))
            recv_until(ws, "state")
            time.sleep(0.8)
            ws.send(json.dumps({"type": "ping"}))
            assert recv_until(ws, "pong")


def test_frame_and_body_sizes_are_refused_before_reading(db_url: str) -> None:
    with ServerThread(db_url, bot_delay=0, limits=limits(frame_bytes=2048, body_bytes=1000)) as srv:
        made = create(srv)
        with connect(f"ws://127.0.0.1:{srv.port}/ws/{made['id']}") as ws:
            ws.send(json.dumps({"type": "hello", "token": None}))
            recv_until(ws, "state")
            ws.send(json.dumps({"type": "ping", "pad": "x" * 5000}))
            with pytest.raises(ConnectionClosed):
                for _ in range(50):
                    ws.recv(timeout=30)
            assert ws.close_code == 1009  # "message too big", said by the protocol
        body = json.dumps({"game": "meitora", "seats": HUMANS, "options": {}, "pad": "x" * 2000})
        r = httpx.post(srv.url + "/api/tables", content=body, headers={"content-type": "application/json"})
        assert r.status_code == 413 and "at most 1000 bytes" in r.json()["detail"]

        def chunks() -> Any:  # no Content-Length: counted as it comes
            for _ in range(20):
                yield b"x" * 100

        r = httpx.post(srv.url + "/api/tables", content=chunks())
        assert r.status_code == 413
        big = httpx.post(srv.url + "/api/replay", content=b"{}" * 1000)  # its own, larger limit
        assert big.status_code == 400


@pytest.mark.slow
def test_idle_bot_tables_end(db_url: str) -> None:
    """A table of bots only that nobody watches ends at the end of its deal: marked finished
    (it does not come back at a restart), its record given, the lobby saying why."""
    heuristic = [{"kind": "bot", "bot": "heuristic"}] * 4  # no random claims: no quick end
    with ServerThread(db_url, bot_delay=0.002, limits=limits(idle_bot_table_seconds=0.3)) as srv:
        made = create(srv, heuristic)
        watched = create(srv, heuristic)
        with connect(f"ws://127.0.0.1:{srv.port}/ws/{watched['id']}") as ws:  # someone watches
            ws.send(json.dumps({"type": "hello", "token": None}))
            deadline = time.time() + 60
            info: dict[str, Any] = {}
            while time.time() < deadline:
                info = httpx.get(f"{srv.url}/api/tables/{made['id']}").json()
                if info["over"]:
                    break
                time.sleep(0.05)
            assert info["over"] and info["cut"] and info["end_reason"] == "idle"
            assert not httpx.get(f"{srv.url}/api/tables/{watched['id']}").json()["over"]
        t = srv.app.state.manager.tables[made["id"]]
        assert t.state.needs_deal and not t.state.is_over  # ended between deals
        version = t.version
        time.sleep(0.2)
        assert t.version == version  # and plays no more
        r = httpx.get(f"{srv.url}/api/tables/{made['id']}/record")
        assert r.status_code == 200 and len(r.json()["deals"]) == t.state.deal_number
    with ServerThread(db_url, bot_delay=0.002) as srv:  # a restart keeps it ended
        info = httpx.get(f"{srv.url}/api/tables/{made['id']}").json()
        assert info["over"] and info["cut"] and info["version"] == version


@pytest.mark.slow
def test_finished_tables_leave_memory(db_url: str) -> None:
    """A finished table nobody watches leaves memory; its lobby entry, facts, record and replay
    are still served (from the database)."""
    with ServerThread(db_url, bot_delay=0, limits=limits(finished_table_seconds=0.2)) as srv:
        made = create(srv, BOTS, options={"target": 1})
        manager = srv.app.state.manager
        deadline = time.time() + 60
        while made["id"] in manager.tables and time.time() < deadline:
            time.sleep(0.05)
        assert made["id"] not in manager.tables
        lobby = httpx.get(f"{srv.url}/api/tables").json()
        assert [i["id"] for i in lobby] == [made["id"]] and lobby[0]["over"]
        record = httpx.get(f"{srv.url}/api/tables/{made['id']}/record")
        assert record.status_code == 200
        assert httpx.get(f"{srv.url}/api/tables/{made['id']}").json()["over"]
        assert httpx.get(f"{srv.url}/api/tables/{made['id']}/replay").status_code == 200
        assert httpx.get(f"{srv.url}/api/tables/0123456789ab").status_code == 404
        deadline = time.time() + 30
        while made["id"] in manager.tables and time.time() < deadline:  # and leaves again
            time.sleep(0.05)
        assert made["id"] not in manager.tables
        again = httpx.get(f"{srv.url}/api/tables/{made['id']}/record")
        assert again.text == record.text


def test_openapi_only_when_asked(db_url: str) -> None:
    with ServerThread(db_url, bot_delay=0) as srv:
        assert httpx.get(srv.url + "/openapi.json").status_code == 404
    with ServerThread(db_url, bot_delay=0, limits=limits(openapi=True)) as srv:
        assert httpx.get(srv.url + "/openapi.json").status_code == 200
