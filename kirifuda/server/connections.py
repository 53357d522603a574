"""What a connection to a table says, wherever it arrives: its hello, then its messages.

The WebSocket route of :mod:`.app` and the relay of :mod:`.cluster` (a connection that arrived
at another process of a cluster) both go through :func:`greet` and :func:`handle`, so that a
relayed connection is checked exactly as a direct one.
"""

from __future__ import annotations

import logging
from typing import Awaitable, Callable

from ..i18n import t
from .botnames import BOT_NAME_CODE, mimics_bot
from .protocol import Act, Hello, Ping, ProtocolError, encode, error_frame, parse_message
from .tables import Client, LiveTable

__all__ = ["greet", "handle", "BINARY", "PONG"]

log = logging.getLogger("kirifuda.server")

BINARY = "messages are JSON text frames, not binary ones"
PONG = encode({"type": "pong"})


async def greet(
    table: LiveTable,
    raw: str | None,
    send: Callable[[str], Awaitable[None]],
    hangup: Callable[[int, str], Awaitable[None]] | None = None,
    gate: Callable[[int], Awaitable[str | None]] | None = None,
) -> Client:
    """The first message: a hello with a seat's token (or none, to watch).  Sends the welcome,
    joins the table and returns the connection's :class:`Client`; ProtocolError if refused.
    ``gate``: asked for a seat before it is taken (a rated club table's seat belongs to a
    signed-in member: kirifuda.server.clubtables); it refuses with ProtocolError, or names
    the seat's player (None: the hello's name stands)."""
    if raw is None:
        raise ProtocolError("malformed", BINARY)
    msg = parse_message(raw, table.info, None)
    if not isinstance(msg, Hello):
        raise ProtocolError("unauthenticated", "say hello first (with your seat's token, or none to watch)")
    seat = None
    if msg.token is not None:
        seat = table.seat_of_token(msg.token)
        if seat is None:
            raise ProtocolError("unauthenticated", "this invitation link is not valid for this table")
    name = msg.name
    if name is not None and seat is not None and mimics_bot(name):
        raise ProtocolError(BOT_NAME_CODE, t("web.err.bot_name", "en"))
    if seat is not None and gate is not None:
        name = await gate(seat) or name
    client = Client(seat, send, hangup)
    if seat is not None and name and name != table.seats[seat].get("name"):
        table.seats[seat]["name"] = name
        try:
            await table.store.set_seats(table.id, table.seats)
        except Exception as exc:  # the name holds until a restart
            log.warning("table %s: the seat's name was not saved (%s)", table.id, type(exc).__name__)
    await send(encode({"type": "welcome", "seat": seat, "table": table.id}))
    table.join(client)
    return client


async def handle(table: LiveTable, client: Client, raw: str | None) -> None:
    """A later message (``None``: a binary one): a ping, or an action; a refusal is an error
    frame to this connection alone."""
    try:
        if raw is None:
            raise ProtocolError("malformed", BINARY)
        msg = parse_message(raw, table.info, client.seat)
        if isinstance(msg, Ping):
            client.put(PONG)
        elif isinstance(msg, Hello):
            raise ProtocolError("malformed", "already joined: hello comes once")
        elif isinstance(msg, Act):
            await table.act(client.seat, msg.version, msg.action)
    except ProtocolError as err:
        client.put(encode(error_frame(err, table.version)))
