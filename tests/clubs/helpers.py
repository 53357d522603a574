"""What the clubs' tests share: signed-in players over HTTP and WebSocket, a club of three, a
rated table, a hello answered, waiting for a table's end and for the club service's tasks."""

from __future__ import annotations

import json
import time
from typing import Any

import httpx
from websockets.sync.client import ClientConnection, connect

from ..server.conftest import ServerThread

__all__ = ["PASSWORD", "BOTS3", "Player", "club_of_three", "rated_table", "hello", "wait_over", "settled"]

PASSWORD = "correct horse battery"
BOTS3 = [{"kind": "bot", "bot": "heuristic"}] * 3


class Player:
    """A browser of one signed-in player: the sign-in cookie sent by hand (it is ``Secure``;
    the test server speaks plain HTTP on the loopback).  ``url``: the server signed up at (a
    test may point :attr:`url` at another server on the same database)."""

    def __init__(self, url: str, name: str) -> None:
        self.url = url
        self.name = name
        r = httpx.post(url + "/api/accounts", json={"name": name, "password": PASSWORD})
        assert r.status_code == 200, r.text
        self.cookie = r.headers["set-cookie"].split(";")[0]
        self.headers = {"Cookie": self.cookie}

    def get(self, path: str, **kw: Any) -> httpx.Response:
        return httpx.get(self.url + path, headers=self.headers, **kw)

    def post(self, path: str, **kw: Any) -> httpx.Response:
        return httpx.post(self.url + path, headers=self.headers, **kw)

    def put(self, path: str, **kw: Any) -> httpx.Response:
        return httpx.put(self.url + path, headers=self.headers, **kw)

    def call(self, method: str, path: str, **kw: Any) -> Any:
        """A request that must succeed; its JSON."""
        r = httpx.request(method, self.url + path, headers=self.headers, **kw)
        assert r.status_code == 200, r.text
        return r.json()

    def ws(self, table_id: str, url: str | None = None) -> ClientConnection:
        """A WebSocket to the table, signed in (through ``url``'s server, else :attr:`url`'s)."""
        base = (url or self.url).replace("http://", "ws://", 1)
        return connect(f"{base}/ws/{table_id}", additional_headers=self.headers, open_timeout=10)


def club_of_three(url: str) -> tuple[Player, Player, Player, str]:
    """Aki administers the club KIT, Bo is a member, Chie is not."""
    aki, bo, chie = Player(url, "Aki"), Player(url, "Bo"), Player(url, "Chie")
    club = aki.post("/api/clubs", json={"name": "KIT"}).json()["id"]
    assert aki.post(f"/api/clubs/{club}/members", json={"name": "Bo"}).status_code == 200
    return aki, bo, chie, club


def rated_table(creator: Player, club: str, humans: int = 1, **body: Any) -> dict[str, Any]:
    """A rated Unsun table of one deal for the club: ``humans`` human seats, then heuristic bots."""
    seats = [{"kind": "human"}] * humans + BOTS3[: 4 - humans]
    made = creator.post(
        "/api/tables",
        json={"game": "unsun", "options": {"deals": 1}, "club": club, "rated": True, "seats": seats, **body},
    )
    assert made.status_code == 200, made.text
    out: dict[str, Any] = made.json()
    return out


def hello(ws: Any, token: str | None) -> dict[str, Any]:
    """Say hello with a seat's token: the welcome, or the error that refused it."""
    ws.send(json.dumps({"type": "hello", "token": token}))
    while True:
        m = json.loads(ws.recv(timeout=20))
        if m["type"] in ("welcome", "error"):
            return dict(m)


def wait_over(srv: ServerThread, table_id: str, timeout: float = 60) -> Any:
    """The live table once its match is over."""
    table = srv.app.state.manager.tables[table_id]
    deadline = time.time() + timeout
    while not table.over:
        assert time.time() < deadline, "the match did not end"
        time.sleep(0.05)
    return table


def settled(srv: ServerThread, timeout: float = 30) -> None:
    """Wait until the club service has no task left (a match being saved, a seat abandoned)."""
    service = srv.app.state.club_tables
    deadline = time.time() + timeout
    while service._tasks and time.time() < deadline:
        time.sleep(0.02)
    assert not service._tasks
