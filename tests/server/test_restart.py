"""Kill the server (SIGKILL) in the middle of a deal, start it again: the table resumes from the
database, and the finished match's record equals the record of the same table played without
interruption (deals and bots are drawn from the table's secret, fixed here by the server-side
setting ``KIRIFUDA_DEAL_SECRET``) and replays through the engine."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx

from kirifuda import record as records
from kirifuda.server.store import Store
from kirifuda.server.tables import TableManager

from .conftest import free_port

SEATS = [{"kind": "bot", "bot": "heuristic"}] * 4
OPTIONS = {"target": 3}
SEED = 424242


def start(db: str, port: int) -> subprocess.Popen[bytes]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "kirifuda", "serve", "--port", str(port), "--db", db, "--bot-delay", "0.005"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        env={**os.environ, "KIRIFUDA_DEAL_SECRET": str(SEED)},
    )
    deadline = time.time() + 30
    while time.time() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/tables", timeout=1).status_code == 200:
                return proc
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise AssertionError(f"the server did not start: {proc.stdout.read().decode() if proc.stdout else ''}")


def wait_for(port: int, tid: str, pred: Any, timeout: float = 60) -> dict[str, Any]:
    deadline = time.time() + timeout
    while time.time() < deadline:
        info: dict[str, Any] = httpx.get(f"http://127.0.0.1:{port}/api/tables/{tid}").json()
        if pred(info):
            return info
        time.sleep(0.05)
    raise AssertionError(f"table {tid} did not get there: {info}")


async def uninterrupted(tmp: Path) -> str:
    store = await Store.open(f"sqlite+aiosqlite:///{tmp / 'straight.db'}")
    manager = TableManager(store, grace=60, bot_delay=0)
    table, _ = await manager.create("meitora", OPTIONS, SEATS, secret=str(SEED))
    while not table.state.is_over:
        await asyncio.sleep(0.005)
    text = records.dumps(table.record())
    await manager.close()
    await store.close()
    return text


def test_kill_and_restart_resumes(db_url: str, tmp_path: Path) -> None:
    port = free_port()
    proc = start(db_url, port)
    try:
        made = httpx.post(
            f"http://127.0.0.1:{port}/api/tables", json={"game": "meitora", "options": OPTIONS, "seats": SEATS}
        ).json()
        tid = made["id"]
        info = wait_for(port, tid, lambda i: i["version"] >= 10)
        assert not info["over"]
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
    killed_at = info["version"]
    proc = start(db_url, port)
    try:
        resumed = httpx.get(f"http://127.0.0.1:{port}/api/tables/{tid}").json()
        assert resumed["version"] >= killed_at  # nothing broadcast was lost
        wait_for(port, tid, lambda i: i["over"], timeout=120)
        text = httpx.get(f"http://127.0.0.1:{port}/api/tables/{tid}/record").text
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
    rec = records.loads(text)
    assert rec.game == "meitora" and rec.options["target"] == 3
    state = records.replay(rec)
    assert state.is_over
    straight = asyncio.run(uninterrupted(tmp_path))
    assert json.loads(text)["deals"] == json.loads(straight)["deals"]
    assert text == straight
