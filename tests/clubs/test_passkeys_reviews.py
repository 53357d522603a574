"""Passkeys' refusals over HTTP (the whole ceremony is in test_clubs_browser, with Chromium's
virtual authenticator), and the profile's review links: each deal played card by card of a
match has one, the coach reviews it for a member; a scored deal or a missing deal is refused in
words."""

from __future__ import annotations

import json
import random
from typing import Any, Callable

import httpx
import pytest

from kirifuda import record as records
from kirifuda.bots import make_bot
from kirifuda.games import GAMES
from kirifuda.server.store import Store

from .test_accounts import Clock, _unsun_record, run, sign_up

pytestmark = pytest.mark.slow  # argon2 on sign-up, the coach's solver on review


def _played(players: list[str], seed: int = 3) -> dict[str, Any]:
    info = GAMES["unsun"]
    state = info.new_state(info.options({"deals": 1}))
    bots = [make_bot("heuristic", "unsun") for _ in range(state.num_players)]
    rng = random.Random(seed)
    state.deal_random(rng)
    while not state.is_over:
        seat = state.to_act
        assert seat is not None
        state.apply(bots[seat].choose(state.view(seat), rng), seat)
    return dict(json.loads(records.dumps(records.from_state(state, players=players))))


def test_passkey_requests_refused_in_words(tmp_path: Any) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'k.db'}"

    async def scenario(browser: Callable[[], httpx.AsyncClient], clock: Clock, store: Store) -> None:
        async with browser() as guest, browser() as aki, browser() as bo:
            r = await guest.post("/api/passkeys/register/options")
            assert r.status_code == 401 and "sign in" in r.json()["detail"]
            await sign_up(aki, "Aki")
            await sign_up(bo, "Bo")
            r = await aki.post("/api/passkeys/register/options")
            assert r.status_code == 200
            flow, options = r.json()["flow"], r.json()["options"]
            assert options["rp"]["id"] == "testserver" and options["user"]["name"] == "Aki"
            assert options["authenticatorSelection"]["residentKey"] == "required"
            # another account cannot answer Aki's request; the request is then spent
            r = await bo.post("/api/passkeys/register", json={"flow": flow, "credential": {}})
            assert r.status_code == 403 and "another account" in r.json()["detail"]
            r = await aki.post("/api/passkeys/register", json={"flow": flow, "credential": {}})
            assert r.status_code == 400 and "expired" in r.json()["detail"]
            # a malformed answer: refused, saying why
            flow = (await aki.post("/api/passkeys/register/options")).json()["flow"]
            r = await aki.post("/api/passkeys/register", json={"flow": flow, "credential": {"id": "x"}})
            assert r.status_code == 400 and r.json()["detail"].startswith("the passkey was not accepted")
            # a request past its time
            flow = (await guest.post("/api/passkeys/login/options")).json()["flow"]
            clock.now += 301
            r = await guest.post("/api/passkeys/login", json={"flow": flow, "credential": {"id": "abc"}})
            assert r.status_code == 400 and "expired" in r.json()["detail"]
            flow = (await guest.post("/api/passkeys/login/options")).json()["flow"]
            r = await guest.post("/api/passkeys/login", json={"flow": flow, "credential": {}})
            assert r.status_code == 400 and "credential id" in r.json()["detail"]
            assert (await guest.get("/api/me")).status_code == 401
            assert (await aki.get("/api/me/passkeys")).json() == []
            r = await guest.post("/api/passkeys/login", json={"credential": {}})
            assert r.status_code == 422

    run(url, scenario)


def test_each_played_deal_of_my_matches_has_a_review(tmp_path: Any) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'k.db'}"

    async def scenario(browser: Callable[[], httpx.AsyncClient], clock: Clock, store: Store) -> None:
        async with browser() as aki, browser() as bo:
            await sign_up(aki, "Aki")
            await sign_up(bo, "Bo")
            cid = (await aki.post("/api/clubs", json={"name": "KIT"})).json()["id"]
            players = ["Aki", "heuristic", "heuristic", "heuristic"]
            assert (await aki.post(f"/api/clubs/{cid}/matches", json={"record": _played(players)})).status_code == 200
            clock.now += 1
            scored = _unsun_record(["Aki", "Kan", "Chie", "search:easy"], [6, 2, 2, 2])
            assert (await aki.post(f"/api/clubs/{cid}/matches", json={"record": scored})).status_code == 200
            prof = (await aki.get("/api/me/profile")).json()
            played, kept = prof["matches"]
            assert played["reviews"] == [f"/api/clubs/{cid}/matches/{played['id']}/review?deal=0"]
            assert kept["reviews"] == []  # a scored deal has no cards to review
            r = await aki.get(played["reviews"][0] + "&lang=ja")
            assert r.status_code == 200, r.text
            got = r.json()
            assert got["deal"] == 0 and len(got["review"]["deals"][0]["seats"]) == 4 and got["text"]
            assert (await bo.get(played["reviews"][0])).status_code == 403  # not a member
            r = await aki.get(f"/api/clubs/{cid}/matches/{kept['id']}/review?deal=0")
            assert r.status_code == 400 and "score keeper" in r.json()["detail"]
            r = await aki.get(f"/api/clubs/{cid}/matches/{played['id']}/review?deal=3")
            assert r.status_code == 404 and "no deal 3" in r.json()["detail"]
            r = await aki.get(f"/api/clubs/{cid}/matches/{played['id']}/review?deal=x")
            assert r.status_code == 422

    run(url, scenario)
