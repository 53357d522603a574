"""``kirifuda serve``: start uvicorn on a free port and print the URL."""

from __future__ import annotations

import logging
import socket
import sys
import webbrowser

__all__ = ["serve", "free_port"]


def free_port(host: str, start: int, tries: int = 20) -> int:
    """``start`` if it is free on ``host``, else the next free one (0: any)."""
    for port in range(start, start + tries) if start else [0]:
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
            try:
                s.bind((host, port))
            except OSError:
                continue
            return int(s.getsockname()[1])
    raise OSError(f"no free port from {start} to {start + tries - 1} on {host}")


def serve(host: str = "127.0.0.1", port: int = 8000, db: str | None = None, grace: float = 60.0,
          bot_delay: float = 0.8, open_browser: bool = False) -> int:
    import uvicorn

    from .app import create_app
    from .store import default_db_url

    try:
        port = free_port(host, port)
    except OSError as exc:
        print(f"kirifuda serve: {exc}", file=sys.stderr)
        return 2
    url_host = "localhost" if host in ("127.0.0.1", "0.0.0.0", "::") else host
    url = f"http://{url_host}:{port}/"
    db_url = db or default_db_url()
    shown_db = db_url.split("@")[-1] if "@" in db_url else db_url
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    print(f"kirifuda: open {url} in your browser  (database: {shown_db}; Ctrl-C stops)", flush=True)
    if open_browser:
        webbrowser.open(url)
    app = create_app(db_url, grace=grace, bot_delay=bot_delay)
    uvicorn.run(app, host=host, port=port, log_level="warning", ws="websockets-sansio")
    return 0
