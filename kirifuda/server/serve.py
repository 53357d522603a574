"""``kirifuda serve``: start uvicorn on the port asked for and print the URL.

The listening socket is bound here, with ``SO_REUSEADDR``: a restart takes the same port even
while the last run's connections linger in TIME-WAIT.  A port really in use is an error naming
it (the server never moves to another port silently); ``--port 0`` takes any free port.

One process on SQLite (the default) holds a lock on the database file: a second ``kirifuda
serve`` on the same file refuses to start, saying why (SQLite is one machine's file with one
writer; several processes need PostgreSQL and Redis: ``--db postgresql+asyncpg://… --redis
redis://…``, :mod:`.cluster`, ``docs/deploy.md``), and so does ``--redis`` with SQLite.
"""

from __future__ import annotations

import fcntl
import logging
import os
import socket
import sys
import webbrowser
from typing import IO

__all__ = ["serve", "bind", "PortInUse", "sqlite_lock", "SQLiteInUse", "CLUSTER_NEEDS", "redis_problem"]

CLUSTER_NEEDS = (
    "several kirifuda processes share their tables through PostgreSQL and Redis "
    "(--db postgresql+asyncpg://… --redis redis://…; see docs/deploy.md): SQLite is one "
    "process's file, with one writer, on one machine"
)


class SQLiteInUse(OSError):
    """Another kirifuda process serves the same SQLite database."""


def redis_problem(url: str) -> str | None:
    """Why the Redis at ``url`` cannot serve a cluster (None: it answers)."""
    try:
        import redis as sync_redis
    except ImportError:
        return "--redis needs the redis package: pip install 'kirifuda[cluster]'"
    try:
        with sync_redis.Redis.from_url(url, socket_connect_timeout=5) as r:
            r.ping()
    except Exception as exc:
        return f"the Redis at {url.split('@')[-1]} cannot be reached ({type(exc).__name__}: {exc})"
    return None


def sqlite_lock(db_url: str) -> IO[str] | None:
    """Hold ``<database>.lock`` for as long as the returned file is open (None: not a SQLite
    file); SQLiteInUse if another process holds it."""
    if not db_url.startswith("sqlite") or "///" not in db_url:
        return None
    path = db_url.split("///", 1)[1].split("?", 1)[0]
    if not path or path == ":memory:":
        return None
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    f = open(path + ".lock", "a+")
    try:
        fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        f.seek(0)
        holder = f.read().strip() or "?"
        f.close()
        raise SQLiteInUse(
            f"another kirifuda process (pid {holder}) serves the SQLite database {path}; " + CLUSTER_NEEDS
        ) from None
    f.seek(0)
    f.truncate()
    f.write(str(os.getpid()))
    f.flush()
    return f


class PortInUse(OSError):
    """The port asked for is held by another program."""


def bind(host: str, port: int) -> socket.socket:
    """A listening TCP socket on ``host``:``port`` (0: any free port), with SO_REUSEADDR."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
        sock.listen(2048)
    except OSError as exc:
        sock.close()
        reason = exc.strerror or str(exc)
        raise PortInUse(
            exc.errno,
            f"port {port} on {host} cannot be used ({reason}): stop the program "
            "that holds it, or choose another with --port (0: any free port)",
        ) from None
    sock.set_inheritable(True)
    return sock


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    db: str | None = None,
    grace: float = 60.0,
    bot_delay: float = 0.8,
    open_browser: bool = False,
    redis: str | None = None,
    process: str | None = None,
    advertise: str | None = None,
    remote_bots: bool = False,
) -> int:
    import uvicorn

    from .app import create_app
    from .limits import Limits
    from .store import default_db_url

    try:
        limits = Limits.from_env()
    except ValueError as exc:
        print(f"kirifuda serve: {exc}", file=sys.stderr)
        return 2
    db_url = db or default_db_url()
    if redis is not None and db_url.startswith("sqlite"):
        print(f"kirifuda serve: --redis needs a shared database: {CLUSTER_NEEDS}", file=sys.stderr)
        return 2
    if remote_bots and redis is None:
        print(
            "kirifuda serve: --remote-bots sends the bots' decisions to bot workers through Redis: give --redis too",
            file=sys.stderr,
        )
        return 2
    if redis is not None:
        why = redis_problem(redis)
        if why is not None:
            print(f"kirifuda serve: {why}", file=sys.stderr)
            return 2
    try:
        lock = sqlite_lock(db_url)
    except SQLiteInUse as exc:
        print(f"kirifuda serve: {exc}", file=sys.stderr)
        return 2
    try:
        sock = bind(host, port)
    except PortInUse as exc:
        print(f"kirifuda serve: {exc.strerror}", file=sys.stderr)
        return 2
    port = int(sock.getsockname()[1])
    url_host = "localhost" if host in ("127.0.0.1", "0.0.0.0", "::") else host
    url = f"http://{url_host}:{port}/"
    shown_db = db_url.split("@")[-1] if "@" in db_url else db_url
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    print(f"kirifuda: open {url} in your browser  (database: {shown_db}; Ctrl-C stops)", flush=True)
    if os.environ.get("KIRIFUDA_DEAL_SECRET"):
        print(
            "kirifuda: KIRIFUDA_DEAL_SECRET is set: every table deals the same cards (for tests and benchmarks only)",
            file=sys.stderr,
            flush=True,
        )
    if open_browser:
        webbrowser.open(url)
    if redis is not None:
        advertise = advertise or f"http://{'127.0.0.1' if host in ('0.0.0.0', '::') else host}:{port}"
        print(
            f"kirifuda: one of a cluster (Redis {redis.split('@')[-1]}; reached by the others at "
            f"{advertise}{'; bots decide in bot workers' if remote_bots else ''})",
            flush=True,
        )
    app = create_app(
        db_url,
        grace=grace,
        bot_delay=bot_delay,
        limits=limits,
        redis=redis,
        process=process,
        address=advertise,
        remote_bots=remote_bots,
    )
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level="warning",
        ws="websockets-sansio",
        ws_max_size=limits.frame_bytes,
        limit_concurrency=limits.max_connections,
        ws_per_message_deflate=limits.ws_deflate,
    )
    try:
        uvicorn.Server(config).run(sockets=[sock])
    except KeyboardInterrupt:  # Ctrl-C: uvicorn has shut down; no traceback
        pass
    finally:
        if lock is not None:
            lock.close()
    return 0
