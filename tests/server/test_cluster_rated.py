"""A rated club table's seats in a cluster: a client that reaches the table through an instance
that does not own it is checked by the owner exactly as a direct one — a guest, a non-member
and a member already seated are refused, a member takes the seat under their account's name —
with the account the gateway forwarded (its sign-in cookie is resolved there)."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from .test_cluster import Process

pytestmark = [pytest.mark.slow, pytest.mark.redis]

PASSWORD = "correct horse battery"


def _sign_up(proc: Process, name: str) -> str:
    r = httpx.post(proc.url + "/api/accounts", json={"name": name, "password": PASSWORD})
    assert r.status_code == 200, r.text
    return str(r.headers["set-cookie"].split(";")[0])


def _hello(proc: Process, table: str, token: str, cookie: str | None) -> dict[str, Any]:
    """Say hello through ``proc``; the welcome or the refusal."""
    headers = {"Cookie": cookie} if cookie else {}
    with connect(f"{proc.ws}/ws/{table}", additional_headers=headers, open_timeout=10) as ws:
        ws.send(json.dumps({"type": "hello", "token": token}))
        while True:
            m = json.loads(ws.recv(timeout=20))
            if m["type"] in ("welcome", "error"):
                return dict(m)


def test_a_relayed_hello_takes_a_rated_seat_only_as_the_clubs_member(pg_url: str, redis_url: str) -> None:
    a = Process("a", pg_url, redis_url)
    b = Process("b", pg_url, redis_url)
    try:
        aki, bo, chie = _sign_up(a, "Aki"), _sign_up(b, "Bo"), _sign_up(a, "Chie")
        club = httpx.post(a.url + "/api/clubs", json={"name": "KIT"}, headers={"Cookie": aki}).json()["id"]
        added = httpx.post(f"{a.url}/api/clubs/{club}/members", json={"name": "Bo"}, headers={"Cookie": aki})
        assert added.status_code == 200, added.text
        made = httpx.post(
            a.url + "/api/tables",
            json={
                "game": "unsun",
                "options": {"deals": 1},
                "club": club,
                "rated": True,
                "seats": [{"kind": "human"}, {"kind": "human"}] + [{"kind": "bot", "bot": "heuristic"}] * 2,
            },
            headers={"Cookie": aki},
        )
        assert made.status_code == 200, made.text
        tid, tokens = made.json()["id"], made.json()["tokens"]
        # every hello goes through b, which does not own the table: relayed to a
        assert _hello(b, tid, tokens[0], None)["code"] == "rated_sign_in"
        assert _hello(b, tid, tokens[0], chie)["code"] == "rated_member"
        bo_seat = _hello(b, tid, tokens[0], bo)
        assert bo_seat["type"] == "welcome" and bo_seat["seat"] == 0
        assert _hello(b, tid, tokens[0], aki)["code"] == "rated_taken"  # Bo holds it
        assert _hello(b, tid, tokens[1], bo)["code"] == "rated_twice"
        aki_seat = _hello(b, tid, tokens[1], aki)
        assert aki_seat["type"] == "welcome" and aki_seat["seat"] == 1
        # the seats are held by the accounts, named by them, on every instance
        info = httpx.get(f"{b.url}/api/tables/{tid}").json()
        assert [s["name"] for s in info["seats"][:2]] == ["Bo", "Aki"], info["seats"]
        assert _hello(a, tid, tokens[0], bo)["type"] == "welcome"  # directly: the same holder
        assert _hello(a, tid, tokens[0], chie)["code"] == "rated_member"
    finally:
        a.stop()
        b.stop()
