"""``kirifuda serve``: start uvicorn on the port asked for and print the URL.

The listening socket is bound here, with ``SO_REUSEADDR``: a restart takes the same port even
while the last run's connections linger in TIME-WAIT.  A port really in use is an error naming
it (the server never moves to another port silently); ``--port 0`` takes any free port.
"""

from __future__ import annotations

import logging
import os
import socket
import sys
import webbrowser

__all__ = ["serve", "bind", "PortInUse"]


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
        raise PortInUse(exc.errno, f"port {port} on {host} cannot be used ({reason}): stop the program "
                        "that holds it, or choose another with --port (0: any free port)") from None
    sock.set_inheritable(True)
    return sock


def serve(host: str = "127.0.0.1", port: int = 8000, db: str | None = None, grace: float = 60.0,
          bot_delay: float = 0.8, open_browser: bool = False) -> int:
    import uvicorn

    from .app import create_app
    from .limits import Limits
    from .store import default_db_url

    try:
        limits = Limits.from_env()
    except ValueError as exc:
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
    db_url = db or default_db_url()
    shown_db = db_url.split("@")[-1] if "@" in db_url else db_url
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    print(f"kirifuda: open {url} in your browser  (database: {shown_db}; Ctrl-C stops)", flush=True)
    if os.environ.get("KIRIFUDA_DEAL_SECRET"):
        print("kirifuda: KIRIFUDA_DEAL_SECRET is set: every table deals the same cards "
              "(for tests and benchmarks only)", file=sys.stderr, flush=True)
    if open_browser:
        webbrowser.open(url)
    app = create_app(db_url, grace=grace, bot_delay=bot_delay, limits=limits)
    config = uvicorn.Config(app, host=host, port=port, log_level="warning", ws="websockets-sansio",
                            ws_max_size=limits.frame_bytes, limit_concurrency=limits.max_connections, 
                            ws_per_message_deflate=limits.ws_deflate)
    try:
        uvicorn.Server(config).run(sockets=[sock])
    except KeyboardInterrupt:   # Ctrl-C: uvicorn has shut down; no traceback
        pass
    return 0
