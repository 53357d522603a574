"""Accounts and clubs over HTTP (kirifuda.server.accounts): each security point of the issue —
passwords never stored or logged in clear, login rate-limited, sessions that expire and can be
revoked, a player seeing only their own private data, an administrator who cannot see passwords
or act for anyone — and the clubs' presets, matches, leaderboards, profiles and exports."""

from __future__ import annotations

import asyncio
import csv
import io
import json
import logging
import zipfile
from typing import Any, Awaitable, Callable

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import text

from kirifuda import record
from kirifuda.server.accounts import COOKIE, LOGIN_FAILURES, LOGIN_WINDOW, accounts_router
from kirifuda.server.store import Store
from kirifuda.stats import player_stats

from ..server.conftest import db_url, postgres  # noqa: F401 (fixtures: SQLite and PostgreSQL)

PASSWORD = "correct horse battery"


class Clock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


Scenario = Callable[[Callable[[], httpx.AsyncClient], Clock, Store], Awaitable[None]]


def run(url: str, scenario: Scenario, session_ttl: float = 3600.0) -> None:
    async def main() -> None:
        store = await Store.open(url)
        clock = Clock()
        app = FastAPI()
        app.include_router(accounts_router(lambda: store, clock=clock, session_ttl=session_ttl))
        transport = httpx.ASGITransport(app=app)

        def browser() -> httpx.AsyncClient:  # a browser context of its own: its own cookies
            return httpx.AsyncClient(transport=transport, base_url="https://testserver")

        try:
            await scenario(browser, clock, store)
        finally:
            await store.close()

    asyncio.run(main())


async def sign_up(c: httpx.AsyncClient, name: str, password: str = PASSWORD) -> dict[str, Any]:
    r = await c.post("/api/accounts", json={"name": name, "password": password})
    assert r.status_code == 200, r.text
    return dict(r.json())


def test_sign_up_sets_a_secure_httponly_samesite_cookie_and_no_password_is_kept(
    db_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)

    async def scenario(browser: Callable[[], httpx.AsyncClient], clock: Clock, store: Store) -> None:
        async with browser() as c:
            r = await c.post("/api/accounts", json={"name": "Aki", "password": PASSWORD})
            assert r.status_code == 200 and PASSWORD not in r.text
            cookie = r.headers["set-cookie"].lower()
            assert "httponly" in cookie and "secure" in cookie and "samesite=lax" in cookie
            assert (await c.get("/api/me")).json()["name"] == "Aki"
            token = c.cookies[COOKIE]
            r = await c.post("/api/accounts", json={"name": "Aki", "password": "another one!"})
            assert r.status_code == 409
            r = await c.post("/api/accounts", json={"name": "Bo", "password": "short"})
            assert r.status_code == 422
            r = await c.post("/api/accounts", json={"name": "search:strong", "password": PASSWORD})
            assert r.status_code == 422  # a bot's level name cannot be taken
        async with store.engine.connect() as conn:
            dump = ""
            for table in ("kf_acc_users", "kf_acc_sessions"):
                dump += json.dumps(
                    [list(map(str, row)) for row in (await conn.execute(text(f"SELECT * FROM {table}"))).all()]
                )
        assert PASSWORD not in dump and "$argon2id$" in dump
        assert token not in dump  # only the session token's digest is stored

    run(db_url, scenario)
    assert PASSWORD not in caplog.text


def test_login_logout_and_revoking_every_session(db_url: str) -> None:
    async def scenario(browser: Callable[[], httpx.AsyncClient], clock: Clock, store: Store) -> None:
        async with browser() as first:
            await sign_up(first, "Aki")
            async with browser() as second:  # a second device
                assert (await second.get("/api/me")).status_code == 401
                r = await second.post("/api/login", json={"name": "Aki", "password": PASSWORD})
                assert r.status_code == 200
                assert (await second.get("/api/me")).json()["name"] == "Aki"
                copied = browser()
                copied.headers["cookie"] = f"{COOKIE}={second.cookies[COOKIE]}"
                assert (await copied.get("/api/me")).status_code == 200
                assert (await second.post("/api/logout")).status_code == 200
                assert (await second.get("/api/me")).status_code == 401
                # the revoked token is refused even where it was copied before signing out
                assert (await copied.get("/api/me")).status_code == 401
                await copied.aclose()
            assert (await first.get("/api/me")).status_code == 200
            r = await first.post("/api/login", json={"name": "Aki", "password": "wrong password"})
            assert r.status_code == 401
            async with browser() as third:
                await third.post("/api/login", json={"name": "Aki", "password": PASSWORD})
                assert (await first.post("/api/sessions/revoke")).json()["revoked"] == 2
                assert (await third.get("/api/me")).status_code == 401
            assert (await first.get("/api/me")).status_code == 401

    run(db_url, scenario)


def test_a_session_expires(db_url: str) -> None:
    async def scenario(browser: Callable[[], httpx.AsyncClient], clock: Clock, store: Store) -> None:
        async with browser() as c:
            await sign_up(c, "Aki")
            clock.now += 3599
            assert (await c.get("/api/me")).status_code == 200
            clock.now += 2
            r = await c.get("/api/me")
            assert r.status_code == 401 and "expired" in r.json()["detail"]

    run(db_url, scenario, session_ttl=3600)


def test_login_is_rate_limited(db_url: str) -> None:
    async def scenario(browser: Callable[[], httpx.AsyncClient], clock: Clock, store: Store) -> None:
        async with browser() as c:
            await sign_up(c, "Aki")
            await sign_up(c, "Bo")
        async with browser() as attacker:
            for _ in range(LOGIN_FAILURES):
                r = await attacker.post("/api/login", json={"name": "Aki", "password": "guess guess"})
                assert r.status_code == 401
            # now even the right password is refused, for that name and from that address
            r = await attacker.post("/api/login", json={"name": "Aki", "password": PASSWORD})
            assert r.status_code == 429
            r = await attacker.post("/api/login", json={"name": "Bo", "password": PASSWORD})
            assert r.status_code == 429
            clock.now += LOGIN_WINDOW + 1
            r = await attacker.post("/api/login", json={"name": "Aki", "password": PASSWORD})
            assert r.status_code == 200

    run(db_url, scenario)


def _unsun_record(players: list[str], tricks: list[int]) -> dict[str, Any]:
    return {
        "format": "kirifuda-record/1",
        "game": "unsun",
        "options": {"deals": 1},
        "players": players,
        "deals": [{"scored": {"tricks_won": tricks}}],
    }


def _meitora_record(players: list[str], deals: list[dict[str, Any]], target: int = 5) -> dict[str, Any]:
    return {
        "format": "kirifuda-record/1",
        "game": "meitora",
        "options": {"target": target},
        "players": players,
        "deals": [{"scored": d} for d in deals],
    }


def test_clubs_members_presets_and_what_each_sees(db_url: str) -> None:
    async def scenario(browser: Callable[[], httpx.AsyncClient], clock: Clock, store: Store) -> None:
        async with browser() as admin, browser() as aki, browser() as bo:
            await sign_up(admin, "Kan")
            await sign_up(aki, "Aki")
            await sign_up(bo, "Bo")
            club = (await admin.post("/api/clubs", json={"name": "Meikō alumni"})).json()
            cid = club["id"]
            assert (await admin.post(f"/api/clubs/{cid}/members", json={"name": "Aki"})).status_code == 200
            assert (await admin.post(f"/api/clubs/{cid}/members", json={"name": "Nobody"})).status_code == 404
            # a member is not the administrator
            assert (await aki.post(f"/api/clubs/{cid}/members", json={"name": "Bo"})).status_code == 403
            # a non-member sees nothing of the club
            assert (await bo.get(f"/api/clubs/{cid}")).status_code == 403
            assert (await bo.get(f"/api/clubs/{cid}/matches")).status_code == 403
            r = await admin.put(
                f"/api/clubs/{cid}/presets/KIT 2002 rules",
                json={"game": "meitora", "options": {"target": 11, "claim_failure": "refuse"}},
            )
            assert r.status_code == 200
            r = await admin.put(f"/api/clubs/{cid}/presets/bad", json={"game": "meitora", "options": {"target": 0}})
            assert r.status_code == 400 and "target" in r.json()["detail"]
            assert (await aki.put(f"/api/clubs/{cid}/presets/mine", json={"game": "unsun"})).status_code == 403
            info = (await aki.get(f"/api/clubs/{cid}")).json()
            assert info["admin"] == "Kan" and info["members"] == ["Aki", "Kan"]
            assert info["presets"] == [
                {"name": "KIT 2002 rules", "game": "meitora", "options": {"target": 11, "claim_failure": "refuse"}}
            ]
            # the administrator sees names, never a password, a hash or a session
            for path in (f"/api/clubs/{cid}", f"/api/clubs/{cid}/matches"):
                body = (await admin.get(path)).text
                assert "argon2" not in body and PASSWORD not in body and "token" not in body
            # and cannot act for a member: no endpoint takes another's name for their data
            assert (await admin.get("/api/me")).json()["name"] == "Kan"
            await aki.post("/api/me/seats", json={"table_id": "t1", "seat": 2, "link": "/t/t1#token=SECRET"})
            assert (await aki.get("/api/me/seats")).json() == [
                {"table_id": "t1", "seat": 2, "link": "/t/t1#token=SECRET"}
            ]
            assert (await admin.get("/api/me/seats")).json() == []
            assert "SECRET" not in (await admin.get("/api/me/profile")).text
            r = await aki.post("/api/me/seats", json={"table_id": "t1", "seat": 2, "link": "/t/other#token=X"})
            assert r.status_code == 400

    run(db_url, scenario)


def test_matches_ratings_profile_and_exports(db_url: str) -> None:
    async def scenario(browser: Callable[[], httpx.AsyncClient], clock: Clock, store: Store) -> None:
        async with browser() as kan, browser() as aki, browser() as bo:
            await sign_up(kan, "Kan")
            await sign_up(aki, "Aki")
            await sign_up(bo, "Bo")
            cid = (await kan.post("/api/clubs", json={"name": "Shimane"})).json()["id"]
            for name in ("Aki", "Bo"):
                await kan.post(f"/api/clubs/{cid}/members", json={"name": name})
            seats = ["Aki", "Bo", "search:strong", "Kan"]
            meitora = _meitora_record(
                seats,
                [
                    {"declarer": 0, "contract": "8H", "tricks": 9},  # Aki declares and makes: 3.5
                    {"declarer": 1, "contract": "7S", "tricks": 5},
                ],
            )  # Bo set: 2 to Aki's team
            r = await aki.post(f"/api/clubs/{cid}/matches", json={"record": meitora, "rated": True})
            assert r.status_code == 200 and r.json()["finished"] and r.json()["winner"] == 0
            clock.now += 1
            # an unrated match changes no rating
            before = (await aki.get(f"/api/clubs/{cid}/leaderboard", params={"game": "meitora"})).json()
            flipped = _meitora_record(seats, [{"declarer": 1, "contract": "9N", "tricks": 10}])
            assert (await bo.post(f"/api/clubs/{cid}/matches", json={"record": flipped})).status_code == 200
            clock.now += 1
            after = (await aki.get(f"/api/clubs/{cid}/leaderboard", params={"game": "meitora"})).json()
            assert after == before
            board = {row["name"]: row for row in after}
            assert board["Aki"]["mu"] == board["search:strong"]["mu"] > 25 > board["Bo"]["mu"] == board["Kan"]["mu"]
            # a bad scored deal is refused with its deal and field, and nothing is saved
            bad = _meitora_record(seats, [{"declarer": 0, "contract": "8H", "tricks": 12}])
            r = await aki.post(f"/api/clubs/{cid}/matches", json={"record": bad, "rated": True})
            assert r.status_code == 400 and r.json()["detail"]["deal"] == 0
            assert "scored.tricks" in r.json()["detail"]["message"]
            assert len((await aki.get(f"/api/clubs/{cid}/matches")).json()) == 2
            # an abandoned match: the seat that left loses though ahead
            unsun = _unsun_record(["Aki", "Bo", "Kan", "search:easy"], [6, 2, 2, 2])
            r = await bo.post(f"/api/clubs/{cid}/matches", json={"record": unsun, "rated": True, "abandoned_by": 0})
            assert r.status_code == 200
            ub = {
                row["name"]: row
                for row in (await kan.get(f"/api/clubs/{cid}/leaderboard", params={"game": "unsun"})).json()
            }
            assert ub["Aki"]["mu"] < ub["Bo"]["mu"]
            # profile: my matches only, statistics counted from the records
            prof = (await aki.get("/api/me/profile")).json()
            assert [m["game"] for m in prof["matches"]] == ["meitora", "meitora", "unsun"]
            recs = [record.from_json(meitora), record.from_json(flipped), record.from_json(unsun)]
            assert prof["stats"] == json.loads(json.dumps(player_stats(recs, "Aki")))
            m = prof["stats"]["meitora"]
            assert m["roles"]["declarer"] == {"made": 1} and m["roles"]["defender"] == {"set": 1, "made": 1}
            assert m["against_bots"] == {"search:strong": {"matches": 2, "wins": 1}}
            replayed = (await aki.get(prof["matches"][0]["replay"])).json()
            assert replayed["summary"]["totals"] == [5.5, 0] and replayed["summary"]["finished"]
            assert (await bo.get(prof["matches"][0]["replay"])).status_code == 200  # a member
            async with browser() as stranger:
                await sign_up(stranger, "Stranger")
                assert (await stranger.get(prof["matches"][0]["replay"])).status_code == 403
            rec_text = (await aki.get(prof["matches"][0]["record"])).text
            assert record.loads(rec_text).deals[0].scored == {"declarer": 0, "contract": "8H", "tricks": 9}
            # exports
            r = await kan.get(f"/api/clubs/{cid}/export.zip")
            names = zipfile.ZipFile(io.BytesIO(r.content)).namelist()
            assert len(names) == 3 and all(n.endswith(".json") for n in names)
            r = await kan.get(f"/api/clubs/{cid}/standings.csv", params={"game": "meitora"})
            rows = list(csv.reader(io.StringIO(r.text)))
            assert rows[0][:2] == ["rank", "name"] and {row[1] for row in rows[1:]} == set(seats)
            # an outsider gets none of it
            async with browser() as other:
                await sign_up(other, "Outsider")
                assert (await other.get(f"/api/clubs/{cid}/export.zip")).status_code == 403
                assert (await other.get("/api/me/profile")).json()["matches"] == []

    run(db_url, scenario)
