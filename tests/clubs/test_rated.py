"""A club's online tables and rated tables (kirifuda.server.clubtables), against a real server:
a rated table is created only by a signed-in member for their club; its seats are taken by the
club's signed-in members; hints are refused on it; a rated match updates the club's ratings
once when it ends; a player who abandons it (gone past the grace period) has a bot finish the
seat, cannot take it back, and the match counts as their loss.  And the lobby's presets (the
member's clubs' first) and a club's tables list."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from kirifuda.games import GAMES

from ..server.conftest import ServerThread, db_url, postgres  # noqa: F401 (fixtures: SQLite and PostgreSQL)
from ..server.test_protocol import recv_until
from .helpers import BOTS3, club_of_three, hello, rated_table, settled, wait_over

pytestmark = pytest.mark.slow


def _sqlite(tmp_path: Any) -> str:
    return f"sqlite+aiosqlite:///{tmp_path / 'kirifuda.db'}"


def _play_to_the_end(ws: Any, seat: int, srv: ServerThread, table_id: str) -> None:
    """Play ``seat``'s first legal action at each of its turns until the match is over."""
    deadline = time.time() + 60
    while time.time() < deadline:
        m = json.loads(ws.recv(timeout=20))
        if m["type"] != "state":
            continue
        if m["table"]["over"]:
            return
        if m["view"]["to_act"] == seat and m["legal"]:
            ws.send(json.dumps({"type": "act", "version": m["version"], "action": m["legal"][0]["action"]}))
    raise AssertionError("the match did not end")


def test_rated_tables_are_a_clubs_and_bad_requests_are_refused_in_words(tmp_path: Any) -> None:
    with ServerThread(_sqlite(tmp_path), bot_delay=0) as srv:
        aki, bo, chie, club = club_of_three(srv.url)
        body = {"game": "unsun", "options": {"deals": 1}, "seats": [{"kind": "human"}] + BOTS3}
        cases = [
            (aki, {**body, "rated": True}, "", 400, "rated_club"),
            (None, {**body, "club": club}, "", 401, "sign_in"),
            (chie, {**body, "club": club, "rated": True}, "", 403, "not_member"),
            (aki, {**body, "club": "nosuch"}, "", 404, "no_club"),
            (aki, {**body, "club": club, "rated": True, "seats": BOTS3 + BOTS3[:1]}, "", 400, "rated_humans"),
            (aki, {**body, "rated": True}, "?lang=ja", 400, "rated_club"),
        ]
        before = len(srv.app.state.manager.tables)
        for who, b, query, status, code in cases:
            r = (who.post if who else lambda p, **kw: httpx.post(srv.url + p, **kw))(f"/api/tables{query}", json=b)
            assert r.status_code == status, (code, r.text)
            detail = r.json()["detail"]
            assert detail["code"] == code and len(detail["message"]) > 10
            if query:
                assert "クラブ" in detail["message"]
        r = aki.post("/api/tables", json={**body, "rated": "yes"})
        assert r.status_code == 400 and "rated" in r.json()["detail"]
        assert len(srv.app.state.manager.tables) == before  # nothing was made


def test_a_rated_match_seats_members_refuses_hints_and_updates_the_ratings_once(db_url: str) -> None:
    with ServerThread(db_url, bot_delay=0) as srv:
        aki, bo, chie, club = club_of_three(srv.url)
        made = rated_table(aki, club, humans=2, hints=True)
        tid, tokens = made["id"], made["tokens"]
        # shown on the table and in the lobby
        info = httpx.get(f"{srv.url}/api/tables/{tid}").json()
        assert info["rated"] is True and info["club_table"] is True
        assert club not in json.dumps(info) and "KIT" not in json.dumps(info)  # only members see the club
        assert next(x for x in httpx.get(srv.url + "/api/tables").json() if x["id"] == tid)["rated"] is True
        # the hint button's source says no; the hint API refuses in words
        assert httpx.get(f"{srv.url}/api/tables/{tid}/coach").json()["hints"] is False
        for lang, word in (("en", "rated"), ("ja", "レート戦")):
            r = httpx.post(f"{srv.url}/api/tables/{tid}/hint", json={"token": tokens[0], "lang": lang})
            assert r.status_code == 403 and r.json()["detail"]["code"] == "rated"
            assert word in r.json()["detail"]["message"]
        # a guest, a non-member: refused; a member takes the seat; another account cannot
        with connect(f"ws://127.0.0.1:{srv.port}/ws/{tid}") as ws:
            assert hello(ws, tokens[0])["code"] == "rated_sign_in"
        with chie.ws(tid) as ws:
            assert hello(ws, tokens[0])["code"] == "rated_member"
        with bo.ws(tid) as bo_ws, aki.ws(tid) as aki_ws:
            assert hello(bo_ws, tokens[1])["type"] == "welcome"
            with aki.ws(tid) as other:
                assert hello(other, tokens[1])["code"] == "rated_taken"
            with bo.ws(tid) as other:
                assert hello(other, tokens[0])["code"] == "rated_twice"
            assert hello(aki_ws, tokens[0])["type"] == "welcome"
            table = srv.app.state.manager.tables[tid]
            assert [s["name"] for s in table.seats[:2]] == ["Aki", "Bo"]
            helper = threading.Thread(target=_play_to_the_end, args=(bo_ws, 1, srv, tid), daemon=True)
            helper.start()
            _play_to_the_end(aki_ws, 0, srv, tid)
            helper.join(30)
        settled(srv)
        matches = aki.get(f"/api/clubs/{club}/matches").json()
        assert len(matches) == 1 and matches[0]["rated"] and matches[0]["finished"]
        assert matches[0]["players"] == ["Aki", "Bo", "heuristic", "heuristic"]
        board = {r["name"]: r for r in aki.get(f"/api/clubs/{club}/leaderboard", params={"game": "unsun"}).json()}
        assert board["Aki"]["matches"] == 1 and board["Bo"]["matches"] == 1 and board["heuristic"]["matches"] == 1
        # told again (a restart's sweep, a second "over"): nothing more is saved
        loop = table._driver.get_loop()
        assert asyncio.run_coroutine_threadsafe(srv.app.state.club_tables.settle(table), loop).result(10) is None

        async def over_again() -> None:  # the hook starts its task before this returns
            table.notify("over")

        asyncio.run_coroutine_threadsafe(over_again(), loop).result(10)
        settled(srv)
        assert len(aki.get(f"/api/clubs/{club}/matches").json()) == 1
        again = {r["name"]: r for r in aki.get(f"/api/clubs/{club}/leaderboard", params={"game": "unsun"}).json()}
        assert again == board
        # a club's table is not saved a second time by hand
        r = aki.post(f"/api/clubs/{club}/tables/{tid}", json={"rated": True})
        assert r.status_code == 409 and "club" in r.json()["detail"]


def test_abandoning_a_rated_match_is_a_loss_and_a_bot_finishes_the_seat(db_url: str) -> None:
    with ServerThread(db_url, bot_delay=0, grace=0.3) as srv:
        aki, bo, chie, club = club_of_three(srv.url)
        made = rated_table(aki, club)
        tid, token = made["id"], made["tokens"][0]
        with bo.ws(tid) as ws:
            assert hello(ws, token)["type"] == "welcome"
            recv_until(ws, "state")
        # Bo is gone: past the grace period the stand-in plays the seat to the end
        wait_over(srv, tid)
        settled(srv)
        assert srv.app.state.club_tables.meta[tid].abandoned_by == 0
        with bo.ws(tid) as ws:  # the seat is not given back
            refused = hello(ws, token)
            assert refused["code"] == "rated_abandoned" and "loss" in refused["message"]
        matches = bo.get(f"/api/clubs/{club}/matches").json()
        assert len(matches) == 1 and matches[0]["rated"] and matches[0]["players"][0] == "Bo"
        board = [r["name"] for r in bo.get(f"/api/clubs/{club}/leaderboard", params={"game": "unsun"}).json()]
        assert board[-1] == "Bo"  # ranked last whatever the totals: the loss of the one who left
        bot = next(
            r
            for r in bo.get(f"/api/clubs/{club}/leaderboard", params={"game": "unsun"}).json()
            if r["name"] == "heuristic"
        )
        mine = next(
            r for r in bo.get(f"/api/clubs/{club}/leaderboard", params={"game": "unsun"}).json() if r["name"] == "Bo"
        )
        assert mine["mu"] < 25 < bot["mu"]


def test_presets_of_my_clubs_come_first_and_a_club_lists_its_open_tables(tmp_path: Any) -> None:
    with ServerThread(_sqlite(tmp_path), bot_delay=0) as srv:
        aki, bo, chie, club = club_of_three(srv.url)
        other = chie.post("/api/clubs", json={"name": "Shimane"}).json()["id"]
        assert (
            chie.put(
                f"/api/clubs/{other}/presets/Shimane tournament", json={"game": "napoleon", "options": {"deals": 4}}
            ).status_code
            == 200
        )
        for name, opts in (("KIT 2002 rules", {"target": 11}), ("KIT short", {"target": 5})):
            assert (
                aki.put(f"/api/clubs/{club}/presets/{name}", json={"game": "meitora", "options": opts}).status_code
                == 200
            )
        got = bo.get("/api/me/presets").json()
        named = [p["name"] for p in got if p["club"]]
        assert named == ["KIT 2002 rules", "KIT short"]  # mine only, in the order they were set
        assert got[0]["club"]["name"] == "KIT" and got[0]["options"] == {"target": 11}
        assert all(p["club"] is None for p in got[2:]) and [p["game"] for p in got[2:]] == list(GAMES)
        assert [p["name"] for p in chie.get("/api/me/presets").json() if p["club"]] == ["Shimane tournament"]
        assert all(p["club"] is None for p in httpx.get(srv.url + "/api/me/presets").json())  # a guest

        plain = httpx.post(srv.url + "/api/tables", json={"game": "meitora", "seats": [{"kind": "human"}] * 4}).json()
        mine = aki.post(
            "/api/tables",
            json={"game": "meitora", "options": {"target": 11}, "club": club, "seats": [{"kind": "human"}] * 4},
        ).json()
        rated = bo.post(
            "/api/tables", json={"game": "meitora", "club": club, "rated": True, "seats": [{"kind": "human"}] * 4}
        ).json()
        theirs = chie.post(
            "/api/tables", json={"game": "meitora", "club": other, "seats": [{"kind": "human"}] * 4}
        ).json()
        listed = bo.get(f"/api/clubs/{club}/tables").json()
        assert [x["id"] for x in listed] == [rated["id"], mine["id"]]  # newest first; no other club's
        assert listed[0]["rated"] and not listed[1]["rated"] and listed[0]["free"] == [0, 1, 2, 3]
        assert plain["id"] not in {x["id"] for x in listed} and theirs["id"] not in {x["id"] for x in listed}
        assert chie.get(f"/api/clubs/{club}/tables").status_code == 403
        assert httpx.get(f"{srv.url}/api/clubs/{club}/tables").status_code == 401
        # an unrated club table: hints as the host chose, and anyone with the link sits
        assert httpx.get(f"{srv.url}/api/tables/{mine['id']}/coach").json()["hints"] is True
        with connect(f"ws://127.0.0.1:{srv.port}/ws/{mine['id']}") as ws:
            assert hello(ws, mine["tokens"][0])["type"] == "welcome"


def test_a_restart_keeps_a_rated_table_rated_and_its_seats_held(tmp_path: Any) -> None:
    db = _sqlite(tmp_path)
    with ServerThread(db, bot_delay=0) as srv:
        aki, bo, chie, club = club_of_three(srv.url)
        made = rated_table(aki, club, humans=2)
        tid, tokens = made["id"], made["tokens"]
        with bo.ws(tid) as ws:
            assert hello(ws, tokens[1])["type"] == "welcome"
    with ServerThread(db, bot_delay=0) as srv:
        deadline = time.time() + 30
        while not srv.app.state.club_tables._loaded:
            assert time.time() < deadline, "the clubs' tables were not loaded"
            time.sleep(0.02)
        info = httpx.get(f"{srv.url}/api/tables/{tid}").json()
        assert info["rated"] is True and info["club_table"] is True
        assert httpx.get(f"{srv.url}/api/tables/{tid}/coach").json()["hints"] is False
        with connect(f"ws://127.0.0.1:{srv.port}/ws/{tid}") as ws:
            assert hello(ws, tokens[0])["code"] == "rated_sign_in"
        aki.url = bo.url = srv.url  # the login sessions are the database's: they outlive the restart
        with aki.ws(tid) as ws:
            assert hello(ws, tokens[1])["code"] == "rated_taken"
        with bo.ws(tid) as ws:
            assert hello(ws, tokens[1])["type"] == "welcome"
        assert bo.get(f"/api/clubs/{club}/tables").json()[0]["free"] == [0]


def test_a_members_seat_given_to_a_bot_by_the_host_counts_as_abandoned(tmp_path: Any) -> None:
    with ServerThread(_sqlite(tmp_path), bot_delay=0) as srv:
        aki, bo, chie, club = club_of_three(srv.url)
        made = rated_table(aki, club)
        tid, token, host = made["id"], made["tokens"][0], made["host"].split("#host=")[1]
        with bo.ws(tid) as ws:
            assert hello(ws, token)["type"] == "welcome"
            r = httpx.post(f"{srv.url}/api/tables/{tid}/host/bot", json={"host": host, "seat": 0})
            assert r.status_code == 200, r.text
        wait_over(srv, tid)
        settled(srv)
        (match,) = bo.get(f"/api/clubs/{club}/matches").json()
        assert match["rated"] and match["players"][0] == "Bo"  # rated under the member's name
        board = [r["name"] for r in bo.get(f"/api/clubs/{club}/leaderboard", params={"game": "unsun"}).json()]
        assert board[-1] == "Bo"
