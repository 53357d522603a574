"""Several ``kirifuda serve`` processes on one PostgreSQL and one Redis (started by the tests:
Debian's ``postgresql`` and ``redis-server``; skipped, saying why, where either cannot start).

Two processes; a table made on one and played by clients connected to both; the owner killed
(SIGKILL) in the middle of a trick: the other takes the table over within 5 s, the clients
reconnect by themselves and play on, and the finished record equals the same table played
without interruption.  The lobby of each process lists every table.  A bot decision made in
another process is applied once, at the version it was made on.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
from typing import Any

import httpx
import orjson
import pytest

from kirifuda import record as records
from kirifuda.games import GAMES

from .conftest import free_port

pytestmark = [pytest.mark.slow, pytest.mark.redis]

SECRET = "cluster-test-secret"
HUMANS = [{"kind": "human"}] * 4
OPTIONS = {"target": 2}
LIFTED = {
    "KIRIFUDA_LIMIT_TABLES_PER_MINUTE": "100000",
    "KIRIFUDA_LIMIT_OPEN_TABLES_PER_CLIENT": "100000",
    "KIRIFUDA_LIMIT_CONNECTIONS_PER_CLIENT": "100000",
}


class Process:
    """One ``kirifuda serve`` of the cluster."""

    def __init__(self, name: str, db: str, redis: str, *extra: str) -> None:
        self.name = name
        self.port = free_port()
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "kirifuda",
                "serve",
                "--port",
                str(self.port),
                "--db",
                db,
                "--redis",
                redis,
                "--process",
                name,
                "--bot-delay",
                "0.002",
                *extra,
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            env={**os.environ, **LIFTED, "KIRIFUDA_DEAL_SECRET": SECRET},
        )
        deadline = time.time() + 30
        while time.time() < deadline:
            try:
                if httpx.get(self.url + "/api/tables", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.1)
        self.stop()
        raise AssertionError(f"process {name} did not start: {self.output()}")

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def output(self) -> str:
        if self.proc.poll() is None:
            return ""
        return self.proc.stdout.read().decode(errors="replace")[-3000:] if self.proc.stdout else ""

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)


def choose(version: int, legal: list[dict[str, Any]]) -> dict[str, Any]:
    """The test's players: a legal action that depends on the state's version alone (never a
    claim), so that the same table played again makes the same moves."""
    actions = sorted((e for e in legal if "claim" not in e), key=lambda a: orjson.dumps(a, option=orjson.OPT_SORT_KEYS))
    return actions[version % len(actions)] if actions else legal[0]


def straight_record(players: list[str]) -> str:
    """The table played without interruption (the same deals, the same choices)."""
    info = GAMES["meitora"]
    import random

    state = info.new_state(info.options(OPTIONS))
    version = 0
    while not state.is_over:
        if state.needs_deal:
            state.deal_random(random.Random(f"{SECRET}:{state.deal_number}"))
        else:
            seat = state.to_act
            assert seat is not None
            view = state.view(seat)
            data = choose(version, [a.to_json() for a in view.legal_actions])
            state.apply(info.action_from_json(data, seat), seat)
        version += 1
    return records.dumps(records.from_state(state, players=players))


class Seat:
    """A player's client: plays its seat, reconnecting by itself (to the other process too)."""

    def __init__(self, seat: int, token: str, table: str, addresses: list[str]) -> None:
        self.seat, self.token, self.table, self.addresses = seat, token, table, addresses
        self.version = 0
        self.over = False
        self.reconnects = 0
        self.frames_after: dict[int, float] = {}
        self.mid_trick: int | None = None

    async def play(self, deadline: float) -> None:
        import websockets

        turn = 0
        while not self.over and time.monotonic() < deadline:
            address = self.addresses[turn % len(self.addresses)]
            turn += 1
            try:
                async with websockets.connect(f"{address}/ws/{self.table}", open_timeout=3) as ws:
                    await ws.send(json.dumps({"type": "hello", "token": self.token}))
                    async for raw in ws:
                        m = orjson.loads(raw)
                        if m["type"] != "state":
                            continue
                        self.version = m["version"]
                        self.frames_after.setdefault(m["version"], time.monotonic())
                        if m["view"].get("trick"):
                            self.mid_trick = m["version"]
                        if m["table"]["over"]:
                            self.over = True
                            return
                        if m["legal"]:
                            action = choose(m["version"], [e["action"] for e in m["legal"]])
                            await ws.send(
                                orjson.dumps({"type": "act", "version": m["version"], "action": action}).decode()
                            )
            except (OSError, asyncio.TimeoutError, websockets.exceptions.WebSocketException):
                pass
            self.reconnects += 1
            await asyncio.sleep(0.1)


def wait_lobby(proc: Process, ids: set[str], timeout: float = 10) -> list[dict[str, Any]]:
    deadline = time.time() + timeout
    lobby: list[dict[str, Any]] = []
    while time.time() < deadline:
        lobby = httpx.get(proc.url + "/api/tables").json()
        if ids <= {i["id"] for i in lobby}:
            return lobby
        time.sleep(0.1)
    raise AssertionError(f"the lobby of {proc.name} lacks {ids - {i['id'] for i in lobby}}")


def test_owner_killed_mid_trick_the_other_takes_over(pg_url: str, redis_url: str) -> None:
    a = Process("a", pg_url, redis_url)
    b = Process("b", pg_url, redis_url)
    try:
        made = httpx.post(a.url + "/api/tables", json={"game": "meitora", "options": OPTIONS, "seats": HUMANS}).json()
        tid = made["id"]
        other = httpx.post(b.url + "/api/tables", json={"game": "meitora", "seats": HUMANS}).json()["id"]
        for proc in (a, b):  # each lobby lists every table
            wait_lobby(proc, {tid, other})
        assert httpx.get(f"{b.url}/api/tables/{tid}").json()["id"] == tid  # forwarded to the owner
        host = made["host"].split("#host=", 1)[1]  # the host's routes too
        hosted = httpx.post(f"{b.url}/api/tables/{tid}/host", json={"host": host})
        assert hosted.status_code == 200 and len(hosted.json()["seats"]) == 4
        assert httpx.post(f"{b.url}/api/tables/{tid}/host", json={"host": "wrong"}).status_code == 403
        seats = [Seat(s, tok, tid, [a.ws, b.ws] if s < 2 else [b.ws, a.ws]) for s, tok in enumerate(made["tokens"])]

        async def run() -> float:
            deadline = time.monotonic() + 120
            tasks = [asyncio.ensure_future(s.play(deadline)) for s in seats]
            while not any(s.mid_trick is not None and s.mid_trick >= 20 for s in seats):
                await asyncio.sleep(0.005)
                assert time.monotonic() < deadline
            killed_at = max(s.version for s in seats)
            a.kill()
            t0 = time.monotonic()
            while not any(v > killed_at for s in seats for v in s.frames_after):
                await asyncio.sleep(0.01)
                assert time.monotonic() - t0 < 15, "nobody took the table over"
            took = min(t for s in seats for v, t in s.frames_after.items() if v > killed_at) - t0
            await asyncio.gather(*tasks)
            return took

        took = asyncio.run(run())
        print(f"take-over after kill -9: {took:.2f} s; reconnects {[s.reconnects for s in seats]}")
        assert took < 5.0, f"the take-over took {took:.1f} s"
        assert all(s.over for s in seats)
        assert all(s.reconnects >= 1 for s in seats)  # every client went through a reconnect
        info = httpx.get(f"{b.url}/api/tables/{tid}").json()
        assert info["over"]
        text = httpx.get(f"{b.url}/api/tables/{tid}/record").text
        rec = records.loads(text)
        assert records.replay(rec).is_over
        assert text == straight_record(rec.players)
        # the database holds each state once, in order: as many events as the record's
        # deals and actions
        events = sum(1 + len(d.actions) for d in rec.deals)
        assert info["version"] == events
        wait_lobby(b, {tid, other})
    finally:
        a.stop()
        b.stop()


def test_bot_decision_made_elsewhere_applied_once(pg_url: str, redis_url: str) -> None:
    import redis as sync_redis

    from kirifuda.server.botworker import Decider
    from kirifuda.server.cluster import BOT_QUEUE, channel, pack

    a = Process("a", pg_url, redis_url, "--remote-bots")
    worker: subprocess.Popen[bytes] | None = None
    r = sync_redis.Redis.from_url(redis_url)
    try:
        seats = [{"kind": "bot", "bot": "heuristic"}] * 4
        tid = httpx.post(
            a.url + "/api/tables", json={"game": "meitora", "options": {"target": 1}, "seats": seats}
        ).json()["id"]
        got = r.brpop([BOT_QUEUE], timeout=10)  # this test is the worker of the first decision
        assert got is not None, "no bot job was queued"
        job = orjson.loads(got[1])
        assert job["table"] == tid and job["reply"] == "a"
        assert job["channel"] == channel("a", 0)
        action = Decider().decide(job)
        answer = {"op": "bot", "job": job["job"], "table": tid, "version": job["version"], "action": action}
        stale = {**answer, "version": job["version"] - 1}
        r.publish(job["channel"], pack(stale))  # made on another version: dropped
        r.publish(job["channel"], pack(answer))
        r.publish(job["channel"], pack(answer))  # the same answer again: dropped
        deadline = time.time() + 10
        while httpx.get(f"{a.url}/api/tables/{tid}").json()["version"] <= job["version"] and time.time() < deadline:
            time.sleep(0.05)
        time.sleep(0.5)
        assert httpx.get(f"{a.url}/api/tables/{tid}").json()["version"] == job["version"] + 1
        nxt = orjson.loads(r.lindex(BOT_QUEUE, 0) or b"{}")  # the next decision waits for a worker
        assert nxt.get("version") == job["version"] + 1
        worker = subprocess.Popen(
            [sys.executable, "-m", "kirifuda", "bot-worker", "--redis", redis_url, "--threads", "2"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.time() + 120
        while not httpx.get(f"{a.url}/api/tables/{tid}").json()["over"]:
            assert time.time() < deadline
            time.sleep(0.1)
        text = httpx.get(f"{a.url}/api/tables/{tid}/record").text
        rec = records.loads(text)
        assert records.replay(rec).is_over
        first = rec.deals[0].actions[job["version"] - 1]  # version 0 is the deal
        assert {k: v for k, v in first.items() if k != "seat"} == action
        # the same table with the bots deciding in the server itself: the same record
        straight = asyncio.run(_straight_bots(seats))
        assert json.loads(text)["deals"] == json.loads(straight)["deals"]
    finally:
        if worker is not None:
            worker.kill()
            worker.wait(10)
        a.stop()
        r.close()


async def _straight_bots(seats: list[dict[str, Any]]) -> str:
    import tempfile

    from kirifuda.server.store import Store
    from kirifuda.server.tables import TableManager

    with tempfile.TemporaryDirectory() as tmp:
        store = await Store.open(f"sqlite+aiosqlite:///{tmp}/straight.db")
        manager = TableManager(store, grace=60, bot_delay=0)
        table, _ = await manager.create("meitora", {"target": 1}, seats, secret=SECRET)
        while not table.state.is_over:
            await asyncio.sleep(0.005)
        text = records.dumps(table.record())
        await manager.close()
        await store.close()
    return text


def test_several_processes_refuse_sqlite(tmp_path: Any) -> None:
    db = f"sqlite+aiosqlite:///{tmp_path / 'one.db'}"
    out = subprocess.run(
        [sys.executable, "-m", "kirifuda", "serve", "--port", "0", "--db", db, "--redis", "redis://127.0.0.1:1"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 2 and "PostgreSQL and Redis" in out.stderr
    first = subprocess.Popen(
        [sys.executable, "-m", "kirifuda", "serve", "--port", str(free_port()), "--db", db],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    try:
        deadline = time.time() + 30
        while not (tmp_path / "one.db.lock").exists() or not (tmp_path / "one.db.lock").read_text():
            assert time.time() < deadline and first.poll() is None
            time.sleep(0.05)
        second = subprocess.run(
            [sys.executable, "-m", "kirifuda", "serve", "--port", "0", "--db", db],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert second.returncode == 2
        assert f"pid {first.pid}" in second.stderr and "PostgreSQL and Redis" in second.stderr
    finally:
        first.terminate()
        first.wait(15)
