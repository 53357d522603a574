"""Fixtures of the server tests: a database on SQLite and on PostgreSQL, and a server in a thread.

PostgreSQL: ``KIRIFUDA_TEST_PG`` (a ``postgresql+asyncpg://`` URL of a server we may create
databases on), else a throw-away cluster started with Debian's ``initdb``/``pg_ctl`` (as the
``postgres`` user when run as root).  Where neither works the PostgreSQL cases are skipped,
saying why.
"""

from __future__ import annotations

import asyncio
import glob
import os
import shutil
import socket
import subprocess
import tempfile
import time
import uuid
from pathlib import Path
from typing import Iterator

import pytest

# the server in a thread and its limits are shared with the browser tests (tests/conftest.py)
from ..conftest import TEST_LIMITS, ServerThread, free_port  # noqa: F401


class _Postgres:
    def __init__(self, fsync: bool = False) -> None:
        self.fsync = fsync
        """Off for the tests (speed); on for benchmarks."""
        self.url: str | None = None
        self.reason = ""
        self.dir: str | None = None
        self.bin: str | None = None
        self.port = 0
        self.as_user: list[str] = []

    def start(self) -> None:
        env = os.environ.get("KIRIFUDA_TEST_PG")
        if env:
            self.url = env
            return
        bins = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
        if not bins:
            self.reason = "no PostgreSQL server installed (apt-get install postgresql, or set KIRIFUDA_TEST_PG)"
            return
        self.bin = os.path.dirname(bins[-1])
        self.dir = tempfile.mkdtemp(prefix="kirifuda-pg-")
        if os.geteuid() == 0:
            if shutil.which("runuser") is None:
                self.reason = "running as root without runuser: cannot start PostgreSQL"
                return
            shutil.chown(self.dir, "postgres", "postgres")
            self.as_user = ["runuser", "-u", "postgres", "--"]
        self.port = free_port()
        data = os.path.join(self.dir, "data")
        try:
            subprocess.run(
                self.as_user
                + [f"{self.bin}/initdb", "-D", data, "--auth=trust", "-U", "postgres", "--encoding=UTF8", "--no-sync"],
                check=True,
                capture_output=True,
                timeout=120,
            )
            self.start_server()
        except (subprocess.CalledProcessError, subprocess.TimeoutExpired, OSError) as exc:
            out = getattr(exc, "stderr", b"") or b""
            self.reason = f"PostgreSQL could not be started: {exc} {out.decode(errors='replace')[-300:]}"
            return
        self.url = f"postgresql+asyncpg://postgres@127.0.0.1:{self.port}/postgres"

    @property
    def own(self) -> bool:
        """A cluster these tests started (and may stop and start again)."""
        return self.dir is not None and self.bin is not None and self.url is not None

    def start_server(self) -> None:
        assert self.dir is not None and self.bin is not None
        subprocess.run(
            self.as_user
            + [
                f"{self.bin}/pg_ctl",
                "-D",
                os.path.join(self.dir, "data"),
                "-l",
                os.path.join(self.dir, "log"),
                "-w",
                "-t",
                "60",
                "-o",
                f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1" + ("" if self.fsync else " -c fsync=off"),
                "start",
            ],
            check=True,
            capture_output=True,
            timeout=90,
        )

    def stop_server(self) -> None:
        """Stop the server (fast: connections are cut), keeping its data for ``start_server``."""
        assert self.dir is not None and self.bin is not None
        subprocess.run(
            self.as_user + [f"{self.bin}/pg_ctl", "-D", os.path.join(self.dir, "data"), "-m", "fast", "-w", "stop"],
            check=True,
            capture_output=True,
            timeout=60,
        )

    def new_database(self) -> str:
        assert self.url is not None
        name = "kf_" + uuid.uuid4().hex[:12]

        async def create() -> None:
            import asyncpg  # type: ignore[import-untyped]

            dsn = self.url.replace("postgresql+asyncpg://", "postgresql://")  # type: ignore[union-attr]
            conn = await asyncpg.connect(dsn)
            try:
                await conn.execute(f'CREATE DATABASE "{name}"')
            finally:
                await conn.close()

        asyncio.run(create())
        base, _, _ = self.url.rpartition("/")
        return f"{base}/{name}"

    def stop(self) -> None:
        if self.dir and self.bin and self.url:
            subprocess.run(
                self.as_user + [f"{self.bin}/pg_ctl", "-D", os.path.join(self.dir, "data"), "-m", "immediate", "stop"],
                capture_output=True,
                timeout=60,
            )
        if self.dir:
            shutil.rmtree(self.dir, ignore_errors=True)


@pytest.fixture(scope="session")
def postgres() -> Iterator[_Postgres]:
    pg = _Postgres()
    pg.start()
    yield pg
    pg.stop()


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite+aiosqlite:///{tmp_path / 'kirifuda.db'}"
    pg: _Postgres = request.getfixturevalue("postgres")
    if pg.url is None:
        pytest.skip(f"PostgreSQL case skipped: {pg.reason}")
    return pg.new_database()


class _Redis:
    """A throw-away ``redis-server`` (Debian's) on a free loopback port, nothing saved to disk."""

    def __init__(self) -> None:
        self.url: str | None = None
        self.reason = ""
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        binary = shutil.which("redis-server") or (
            "/usr/bin/redis-server" if os.path.exists("/usr/bin/redis-server") else None
        )
        if binary is None:
            self.reason = "no redis-server installed (apt-get install redis-server)"
            return
        port = free_port()
        self.dir = tempfile.mkdtemp(prefix="kirifuda-redis-")
        self.proc = subprocess.Popen(
            [
                binary,
                "--port",
                str(port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                self.dir,
                "--protected-mode",
                "no",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.time() + 20
        while time.time() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1) as s:
                    s.sendall(b"PING\r\n")
                    if s.recv(16).startswith(b"+PONG"):
                        self.url = f"redis://127.0.0.1:{port}/0"
                        return
            except OSError:
                time.sleep(0.05)
        self.reason = "redis-server did not start within 20 s"
        self.stop()

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait(10)
            self.proc = None
        if getattr(self, "dir", None):
            shutil.rmtree(self.dir, ignore_errors=True)


@pytest.fixture(scope="session")
def redis_server() -> Iterator[_Redis]:
    r = _Redis()
    r.start()
    yield r
    r.stop()


@pytest.fixture
def redis_url(redis_server: _Redis) -> str:
    """A Redis for one test (flushed first); skipped, saying why, where none can start."""
    if redis_server.url is None:
        pytest.skip(f"Redis case skipped: {redis_server.reason}")
    import redis as sync_redis

    sync_redis.Redis.from_url(redis_server.url).flushall()
    return redis_server.url


@pytest.fixture
def pg_url(postgres: _Postgres) -> str:
    """A fresh PostgreSQL database; skipped, saying why, where none can start."""
    if postgres.url is None:
        pytest.skip(f"PostgreSQL case skipped: {postgres.reason}")
    return postgres.new_database()
