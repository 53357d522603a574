"""``kirifuda serve`` keeps its port: a restart after a stop with connections open takes the
same port (its old connections in TIME-WAIT used to push it to the next one, breaking every open
page and invitation link); a port really in use is an error naming it; ``--port 0`` takes any."""

from __future__ import annotations

import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
from websockets.sync.client import connect

from kirifuda.server.serve import PortInUse, bind

from .conftest import free_port


def start(db: str, port: int) -> tuple[subprocess.Popen[str], int]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "kirifuda", "serve", "--port", str(port), "--db", db],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    line = proc.stdout.readline()
    m = re.search(r"http://localhost:(\d+)/", line)
    assert m, (line, proc.stderr.read() if proc.stderr else "")
    got = int(m.group(1))
    deadline = time.time() + 30
    while time.time() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{got}/api/tables", timeout=1).status_code == 200:
                return proc, got
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise AssertionError("the server did not start")


def stop(proc: subprocess.Popen[str]) -> None:
    proc.send_signal(signal.SIGINT)
    try:
        proc.wait(15)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(5)


def test_a_restart_takes_the_same_port(tmp_path: Path) -> None:
    db = f"sqlite+aiosqlite:///{tmp_path / 'k.db'}"
    port = free_port()
    proc, got = start(db, port)
    assert got == port
    try:
        made = httpx.post(
            f"http://127.0.0.1:{port}/api/tables", json={"game": "meitora", "seats": [{"kind": "human"}] * 4}
        ).json()
        with (
            connect(f"ws://127.0.0.1:{port}/ws/{made['id']}") as ws,
            socket.create_connection(("127.0.0.1", port)) as keep_alive,
        ):
            ws.send('{"type": "hello", "token": null}')
            ws.recv(timeout=30)
            keep_alive.sendall(b"GET /api/games HTTP/1.1\r\nHost: x\r\n\r\n")
            stop(proc)  # the server closes the open connections first: its side of
            keep_alive.settimeout(10)  # each lingers in TIME-WAIT once we close ours in order
            while keep_alive.recv(65536):
                pass
    finally:
        if proc.poll() is None:
            stop(proc)
    with socket.socket() as probe:  # what the old check saw: the port looked taken
        try:
            probe.bind(("127.0.0.1", port))
            lingering = False
        except OSError:
            lingering = True
    assert lingering, "no connection of the old server lingers: the test would show nothing"
    proc, got = start(db, port)
    try:
        assert got == port, f"moved from {port} to {got}"
        assert httpx.get(f"http://127.0.0.1:{port}/api/tables/{made['id']}").status_code == 200
    finally:
        stop(proc)


def test_a_port_in_use_is_an_error_naming_it(tmp_path: Path) -> None:
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen(1)
        port = holder.getsockname()[1]
        run = subprocess.run(
            [
                sys.executable,
                "-m",
                "kirifuda",
                "serve",
                "--port",
                str(port),
                "--db",
                f"sqlite+aiosqlite:///{tmp_path / 'k.db'}",
            ],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert run.returncode == 2
        assert f"port {port} on 127.0.0.1 cannot be used" in run.stderr and "--port" in run.stderr
        try:
            bind("127.0.0.1", port)
            raise AssertionError("bound a port in use")
        except PortInUse as exc:
            assert str(port) in str(exc)


def test_port_zero_takes_any_free_port(tmp_path: Path) -> None:
    proc, got = start(f"sqlite+aiosqlite:///{tmp_path / 'k.db'}", 0)
    try:
        assert got > 0
    finally:
        stop(proc)


def test_one_process_per_sqlite_file(tmp_path: Path) -> None:
    """A second holder of a SQLite database's lock is refused, naming the first and saying
    that several processes need PostgreSQL and Redis; a PostgreSQL URL takes no lock."""
    import pytest

    from kirifuda.server.serve import SQLiteInUse, sqlite_lock

    url = f"sqlite+aiosqlite:///{tmp_path / 'a.db'}"
    first = sqlite_lock(url)
    assert first is not None
    try:
        with pytest.raises(SQLiteInUse, match=r"pid \d+.*PostgreSQL and Redis"):
            sqlite_lock(url)
    finally:
        first.close()
    again = sqlite_lock(url)  # released with its holder
    assert again is not None
    again.close()
    assert sqlite_lock("postgresql+asyncpg://u@h/db") is None
    assert sqlite_lock("sqlite+aiosqlite:///:memory:") is None
