"""A rated club table's seats in a cluster: a client that reaches the table through an instance
that does not own it is checked by the owner exactly as a direct one — a guest, a non-member
and a member already seated are refused, a member takes the seat under their account's name —
with the account the gateway forwarded (its sign-in cookie is resolved there)."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from ..clubs.helpers import Player, club_of_three, hello, rated_table
from .test_cluster import Process

pytestmark = [pytest.mark.slow, pytest.mark.redis]


def _hello(who: Player | None, through: Process, table: str, token: str) -> dict[str, Any]:
    """Say hello through ``through`` as ``who`` (None: a guest); the welcome or the refusal."""
    if who is None:
        with connect(f"{through.ws}/ws/{table}", open_timeout=10) as ws:
            return hello(ws, token)
    with who.ws(table, url=through.url) as ws:
        return hello(ws, token)


def test_a_relayed_hello_takes_a_rated_seat_only_as_the_clubs_member(pg_url: str, redis_url: str) -> None:
    a = Process("a", pg_url, redis_url)
    b = Process("b", pg_url, redis_url)
    try:
        aki, bo, chie, club = club_of_three(a.url)
        made = rated_table(aki, club, humans=2)  # made on a: a owns it
        tid, tokens = made["id"], made["tokens"]
        # every hello goes through b, which does not own the table: relayed to a
        assert _hello(None, b, tid, tokens[0])["code"] == "rated_sign_in"
        assert _hello(chie, b, tid, tokens[0])["code"] == "rated_member"
        bo_seat = _hello(bo, b, tid, tokens[0])
        assert bo_seat["type"] == "welcome" and bo_seat["seat"] == 0
        assert _hello(aki, b, tid, tokens[0])["code"] == "rated_taken"  # Bo holds it
        assert _hello(bo, b, tid, tokens[1])["code"] == "rated_twice"
        aki_seat = _hello(aki, b, tid, tokens[1])
        assert aki_seat["type"] == "welcome" and aki_seat["seat"] == 1
        # the seats are held by the accounts, named by them, seen from every instance
        info = httpx.get(f"{b.url}/api/tables/{tid}").json()
        assert [s["name"] for s in info["seats"][:2]] == ["Bo", "Aki"], info["seats"]
        assert _hello(bo, a, tid, tokens[0])["type"] == "welcome"  # directly: the same holder
        assert _hello(chie, a, tid, tokens[1])["code"] == "rated_taken"
    finally:
        a.stop()
        b.stop()
