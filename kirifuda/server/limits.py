"""The server's limits (制限): what one client may ask of it, each configurable.

Every field of :class:`Limits` has a default for a small public server and can be set with an
environment variable ``KIRIFUDA_LIMIT_<FIELD>`` (``KIRIFUDA_LIMIT_TABLES_PER_MINUTE=30``) or by
``create_app(limits=Limits(...))``; ``docs/server.md`` lists them.  A client is an IP address as
the server sees it (behind a reverse proxy, every client is the proxy: raise the per-client
limits there).  :class:`BodyLimit` refuses an HTTP body over its size before the app reads it
(a ``Content-Length`` over the limit is refused unread; a chunked body is read up to the limit
only).
"""

from __future__ import annotations

import dataclasses
import os
import time
from collections import deque
from dataclasses import dataclass
from typing import Any, Awaitable, Callable, Mapping, MutableMapping

import orjson

__all__ = ["Limits", "RateLimiter", "BodyLimit"]


@dataclass(frozen=True)
class Limits:
    """What the server allows; each field is ``KIRIFUDA_LIMIT_<FIELD>`` in the environment."""

    tables_per_minute: int = 10
    """Tables one client may create in any 60 seconds."""
    open_tables_per_client: int = 20
    """Tables created by one client that are still being played."""
    max_deals: int = 200
    """Deals a match may last: a larger match-length option (``deals``, ``games``, ``target``)
    is refused, and a match still going after this many deals is cut (no further deal)."""
    connections_per_table: int = 64
    """WebSocket connections to one table (players and spectators)."""
    connections_per_client: int = 32
    """WebSocket connections from one client, over every table."""
    max_connections: int = 4000
    """Connections and requests in progress over the whole server (beyond: 503)."""
    hello_seconds: float = 5.0
    """Seconds a new WebSocket connection has to say hello before it is closed."""
    frame_bytes: int = 16384
    """The largest WebSocket message a client may send, in bytes (refused before reading)."""
    body_bytes: int = 65536
    """The largest HTTP request body, in bytes (``POST /api/replay``: ``record_bytes``)."""
    record_bytes: int = 5_000_000
    """The largest record sent to the replay viewer, in bytes."""
    idle_bot_table_seconds: float = 600.0
    """A table of bots only plays on while someone watches, and for this long after the last
    connection left (or after it was created or the server restarted); then its match ends at
    the end of the deal (marked finished: it does not come back at a restart)."""
    finished_table_seconds: float = 60.0
    """A finished table nobody is connected to leaves memory after this long; the lobby, its
    record and its replay are then served from the database."""
    commit_retry_seconds: float = 3.0
    """How long a player's action retries a failed database commit before the player is told
    (the bots and the deals retry until the database is back)."""
    openapi: bool = False
    """Serve ``/openapi.json`` (the API's machine-readable description)."""
    ws_deflate: bool = False
    """Compress WebSocket frames (permessage-deflate): about a third of the bytes, but a
    compressor of its own per connection (CPU on every frame, about 100 KiB each)."""

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None, **overrides: Any) -> "Limits":
        """The defaults, overridden by ``KIRIFUDA_LIMIT_*`` and then by ``overrides``."""
        env = os.environ if env is None else env
        values: dict[str, Any] = {}
        for f in dataclasses.fields(cls):
            raw = env.get(f"KIRIFUDA_LIMIT_{f.name.upper()}")
            if raw is None:
                continue
            kind: type = type(f.default)
            try:
                if kind is bool:
                    values[f.name] = raw.strip().lower() in ("1", "true", "yes", "on")
                else:
                    values[f.name] = kind(raw)
            except ValueError:
                raise ValueError(f"KIRIFUDA_LIMIT_{f.name.upper()} must be a {kind.__name__}, got {raw!r}") from None
        values.update(overrides)
        return cls(**values)


class RateLimiter:
    """At most ``limit`` events per key in any ``window`` seconds."""

    def __init__(self, limit: int, window: float = 60.0) -> None:
        self.limit = limit
        self.window = window
        self._seen: dict[str, deque[float]] = {}

    def allow(self, key: str, now: float | None = None) -> bool:
        """Count one event for ``key`` if it is within the limit; False if it is not."""
        now = time.monotonic() if now is None else now
        q = self._seen.setdefault(key, deque())
        while q and q[0] <= now - self.window:
            q.popleft()
        if len(q) >= self.limit:
            return False
        q.append(now)
        if len(self._seen) > 10_000:  # forget quiet clients
            for k in [k for k, v in self._seen.items() if not v or v[-1] <= now - self.window]:
                del self._seen[k]
        return True


Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


class BodyLimit:
    """ASGI middleware: an HTTP body larger than its path's limit is answered 413, unread."""

    def __init__(self, app: ASGIApp, limit: int, larger: Mapping[str, int] | None = None) -> None:
        self.app = app
        self.limit = limit
        self.larger = dict(larger or {})

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] in ("GET", "HEAD", "OPTIONS"):
            await self.app(scope, receive, send)
            return
        limit = self.larger.get(scope["path"], self.limit)
        for name, value in scope.get("headers", ()):
            if name == b"content-length":
                try:
                    declared = int(value)
                except ValueError:
                    await _refuse(send, 400, "the Content-Length header is not a number")
                    return
                if declared > limit:
                    await _refuse(send, 413, f"the body may be at most {limit} bytes")
                    return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            body = message.get("body", b"")
            size += len(body)
            if size > limit:
                await _refuse(send, 413, f"the body may be at most {limit} bytes")
                return
            chunks.append(body)
            if not message.get("more_body", False):
                break
        whole = b"".join(chunks)
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": whole, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


async def _refuse(send: Send, status: int, message: str) -> None:
    body = orjson.dumps({"detail": message})
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"connection", b"close"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
