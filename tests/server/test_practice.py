"""Practice tables over HTTP: one human with bots, undo where the rule allows it (the exact
earlier view back), replaying a deal, deals of a chosen kind, and nothing hidden shown."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from kirifuda import record as records
from kirifuda.cards import parse_card
from kirifuda.coach.kinds import deal_kinds
from kirifuda.errors import KirifudaError
from kirifuda.games import BUILTIN, GAMES
from kirifuda.server.store import Store

from .conftest import ServerThread


def _sqlite(tmp_path: Path) -> str:
    return f"sqlite+aiosqlite:///{tmp_path / 'p.db'}"


def _detail(r: httpx.Response) -> dict[str, Any]:
    detail = r.json()["detail"]
    assert isinstance(detail, dict) and detail["code"] and detail["message"], r.text
    return detail


def _seats(game: str, human: int = 0, n: int = 4) -> list[dict[str, Any]]:
    return [{"kind": "human"} if s == human else {"kind": "bot", "bot": "heuristic"} for s in range(n)]


def _create(srv: ServerThread, game: str = "meitora", kind: str | None = None, **body: Any) -> dict[str, Any]:
    n = GAMES[game].new_state(GAMES[game].options({})).num_players
    r = httpx.post(
        srv.url + "/api/tables", json={"game": game, "seats": _seats(game, 0, n), "practice": {"kind": kind}, **body}
    )
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


def _my_turn(srv: ServerThread, tid: str, seat: int = 0, timeout: float = 20) -> int:
    deadline = time.time() + timeout
    while True:
        table = srv.app.state.manager.tables[tid]
        if table.state.to_act == seat and not table.lock.locked():
            return int(table.version)
        assert time.time() < deadline, "the human's turn never came"
        time.sleep(0.02)


def _post(srv: ServerThread, tid: str, what: str, body: dict[str, Any]) -> httpx.Response:
    return httpx.post(f"{srv.url}/api/tables/{tid}/{what}", json=body, timeout=30)


class _Seat:
    """The human seat over its WebSocket: every frame it is sent is kept."""

    def __init__(self, srv: ServerThread, tid: str, token: str) -> None:
        self._open = contextlib.ExitStack()  # closed by close(): a connection used as a context manager
        self.ws = self._open.enter_context(connect(f"ws://127.0.0.1:{srv.port}/ws/{tid}"))
        self.ws.send(json.dumps({"type": "hello", "token": token}))
        self.frames: list[dict[str, Any]] = []
        self.seen = -1
        """The version of the latest frame; a frame already used to act is not the seat's turn."""

    def until(self, cond: Any, timeout: float = 20) -> dict[str, Any]:
        deadline = time.time() + timeout
        while True:
            msg = json.loads(self.ws.recv(timeout=max(0.1, deadline - time.time())))
            if msg.get("type") == "state":
                self.frames.append(msg)
                self.seen = msg["version"]
                if cond(msg):
                    return msg

    def my_turn(self, seat: int = 0) -> dict[str, Any]:
        """The latest frame if it is the seat's decision, else the next such frame."""
        if (
            self.frames
            and self.frames[-1]["view"]["to_act"] == seat
            and self.frames[-1]["legal"]
            and self.frames[-1]["version"] == self.seen
        ):
            return self.frames[-1]
        return self.until(lambda m: m["view"]["to_act"] == seat and m.get("legal"))

    def act(self, frame: dict[str, Any], pick: int = 0) -> None:
        self.seen = -1
        self.ws.send(json.dumps({"type": "act", "version": frame["version"], "action": frame["legal"][pick]["action"]}))

    def close(self) -> None:
        self._open.close()


def test_a_practice_table_is_checked_when_created(db_url: str) -> None:
    with ServerThread(db_url, bot_delay=0) as srv:

        def refused(body: dict[str, Any], word: str) -> None:
            r = httpx.post(srv.url + "/api/tables", json={"game": "meitora", **body})
            assert r.status_code == 400 and word in r.text, r.text

        refused({"seats": [{"kind": "human"}] * 2 + _seats("meitora")[2:], "practice": {}}, "exactly one human")
        refused({"seats": _seats("meitora"), "practice": {}, "hints": False}, "hints")
        refused({"seats": _seats("meitora"), "practice": {"kind": "nosuch"}}, "declarer")  # names the known
        refused({"seats": _seats("meitora"), "practice": {"kind": 3}}, "kind")
        refused({"seats": _seats("meitora"), "practice": {"extra": 1}}, "extra")
        made = _create(srv)
        info = httpx.get(f"{srv.url}/api/tables/{made['id']}").json()
        assert info["practice"] == {"seat": 0, "kind": None}
        # an ordinary table has no practice part, and refuses undo in words
        r = httpx.post(srv.url + "/api/tables", json={"game": "meitora", "seats": _seats("meitora")})
        other = r.json()
        assert "practice" not in httpx.get(f"{srv.url}/api/tables/{other['id']}").json()
        r = _post(srv, other["id"], "undo", {"token": other["tokens"][0]})
        assert r.status_code == 403 and _detail(r)["code"] == "not_practice"


def test_undo_restores_the_exact_earlier_view_and_is_refused_in_words(db_url: str) -> None:
    """Meitora, the human the first bidder; the bots wait 3 s before answering: a bid (the
    bidding shows no card) is taken back, and the very view of before comes back."""
    with ServerThread(db_url, bot_delay=3) as srv:
        made = _create(srv)
        tid, token = made["id"], made["tokens"][0]
        seat = _Seat(srv, tid, token)
        try:
            frame = seat.my_turn()
            # nothing to take back yet: refused, saying why, nothing changed
            r = _post(srv, tid, "undo", {"token": token, "lang": "ja"})
            assert r.status_code == 409 and _detail(r)["code"] == "undo_refused"
            assert "まだありません" in _detail(r)["message"]
            st = _post(srv, tid, "practice", {"token": token}).json()
            assert st["undo"]["allowed"] is False and st["undo"]["reason"]
            before = frame["view"]
            seat.act(frame, len(frame["legal"]) - 1)
            seat.until(lambda m: m["version"] > frame["version"])
            st = _post(srv, tid, "practice", {"token": token}).json()
            assert st["undo"]["allowed"] is True, st
            r = _post(srv, tid, "undo", {"token": token, "version": st["version"]})
            assert r.status_code == 200, r.text
            assert r.json()["undone"] == frame["legal"][-1]["label"]["en"]  # what was taken back
            again = seat.until(lambda m: m["view"]["to_act"] == 0 and m["version"] > frame["version"])
            assert again["view"] == before
            assert again["legal"] == frame["legal"] and again["hand"] == frame["hand"]
            # bad input: words, nothing changed
            version = srv.app.state.manager.tables[tid].version
            for body, status, code in [
                ({"token": "nope"}, 403, "unauthenticated"),
                ({"token": token, "version": version + 5}, 409, "stale"),
                ({"token": token, "extra": 1}, 400, "malformed"),
                ({"token": 7}, 400, "malformed"),
            ]:
                r = _post(srv, tid, "undo", body)
                assert (r.status_code, _detail(r)["code"]) == (status, code), (body, r.text)
            r = httpx.post(f"{srv.url}/api/tables/{tid}/undo", content=b"{nope")
            assert r.status_code == 400 and _detail(r)["code"] == "malformed"
            r = _post(srv, "nosuch", "undo", {"token": token})
            assert r.status_code == 404 and _detail(r)["code"] == "unknown_table"
            assert srv.app.state.manager.tables[tid].version == version
        finally:
            seat.close()


def test_undo_is_refused_once_a_bot_has_shown_a_card_after_it(db_url: str) -> None:
    """Unsun: no bidding; the human (seat 0) plays a card and the bots answer: their cards were
    hidden before, so the card is not taken back."""
    with ServerThread(db_url, bot_delay=0) as srv:
        made = _create(srv, "unsun")
        tid, token = made["id"], made["tokens"][0]
        seat = _Seat(srv, tid, token)
        table = srv.app.state.manager.tables[tid]
        tested = False
        try:
            for _ in range(4):
                frame = seat.my_turn()
                seat.act(frame, 0)
                seat.my_turn()
                actions = table.state.record_deals()[-1]["actions"]
                mine = max(j for j, a in enumerate(actions) if a["seat"] == 0)
                if any("play" in a for a in actions[mine + 1 :]):  # a bot's card came after mine
                    r = _post(srv, tid, "undo", {"token": token})
                    assert r.status_code == 409 and _detail(r)["code"] == "undo_refused"
                    assert "shown to you" in _detail(r)["message"]
                    tested = True
                    break
            assert tested
        finally:
            seat.close()


def test_a_deal_is_played_again_from_its_start_or_a_trick(db_url: str) -> None:
    with ServerThread(db_url, bot_delay=0) as srv:
        made = _create(srv, "unsun")
        tid, token = made["id"], made["tokens"][0]
        seat = _Seat(srv, tid, token)
        table = srv.app.state.manager.tables[tid]
        try:
            for _ in range(3):  # a few of the human's cards
                frame = seat.my_turn()
                seat.act(frame, 0)
                seat.until(lambda m: m["version"] > frame["version"])
            _my_turn(srv, tid)
            dealt = table.state.record_deals()[-1]
            first_trick = table.state.tricks[0]
            assert len(table.state.tricks) >= 2

            def mine(deal: dict[str, Any]) -> list[dict[str, Any]]:
                return [a for a in deal["actions"] if a["seat"] == 0 and "play" in a]

            # bots play on at once (no delay): look once the human's turn is back
            r = _post(srv, tid, "replay", {"token": token, "trick": 2})
            assert r.status_code == 200, r.text
            _my_turn(srv, tid)
            now = table.state.record_deals()[-1]
            assert now["hands"] == dealt["hands"] and len(table.state.tricks) == 1
            assert table.state.tricks[0] == first_trick and mine(now) == mine(dealt)[:1]
            r = _post(srv, tid, "replay", {"token": token, "trick": 0})
            assert r.status_code == 200, r.text
            _my_turn(srv, tid)
            now = table.state.record_deals()[-1]
            assert now["hands"] == dealt["hands"] and not table.state.tricks and mine(now) == []
            for body, code in [
                ({"token": token, "trick": 9}, "bad_point"),
                ({"token": token, "deal": 5}, "bad_point"),
                ({"token": token, "trick": -1}, "bad_point"),
                ({"token": token, "trick": "2"}, "malformed"),
            ]:
                r = _post(srv, tid, "replay", body)
                assert r.status_code == 400 and _detail(r)["code"] == code, r.text
            # the table's record is its final line: it replays through the engine
            rec = table.record()
            assert records.replay(rec).record_deals()[-1]["hands"] == dealt["hands"]
        finally:
            seat.close()


def _cards_in(value: Any) -> set[str]:
    out: set[str] = set()
    if isinstance(value, str):
        try:
            out.add(parse_card(value).code)
        except KirifudaError:
            pass
    elif isinstance(value, dict):
        for v in value.values():
            out |= _cards_in(v)
    elif isinstance(value, list):
        for v in value:
            out |= _cards_in(v)
    return out


@pytest.mark.parametrize("game", ["meitora", "unsun"])
def test_practice_frames_show_no_hidden_card(db_url: str, game: str) -> None:
    """Acting, undoing and replaying at random: every frame the human is sent shows no card
    beyond what the engine's own view of that moment shows it (its view, and the last deal's
    hands once over), so undo and replay add nothing hidden to a frame."""
    rng = random.Random(game)
    with ServerThread(db_url, bot_delay=0) as srv:
        made = _create(srv, game)
        tid, token = made["id"], made["tokens"][0]
        table = srv.app.state.manager.tables[tid]
        seat = _Seat(srv, tid, token)
        try:
            for _ in range(14):
                frame = seat.my_turn()
                roll = rng.random()
                if roll < 0.2 and _post(srv, tid, "undo", {"token": token}).status_code == 200:
                    seat.seen = -1  # the rewound frame is on its way
                    continue
                if (
                    roll < 0.3
                    and _post(srv, tid, "replay", {"token": token, "trick": rng.randint(0, 2)}).status_code == 200
                ):
                    seat.seen = -1
                    continue
                seat.act(frame, rng.randrange(len(frame["legal"])))
                seat.until(lambda m: m["version"] > frame["version"])
            rec = table.record()
            state = records.replay(rec)
            assert state.record_deals() == table.state.record_deals()
            for f in seat.frames:
                shown = _cards_in(f["view"]) | _cards_in(f["legal"]) | _cards_in(f["hand"])
                shown |= _cards_in(f["finished_deal"])
                # the state of that version, rebuilt by the engine from the table's events
                allowed = _cards_in(_engine_view(table, f["version"], 0))
                assert shown <= allowed, (f["version"], shown - allowed)
        finally:
            seat.close()


def _engine_view(table: Any, version: int, seat: int) -> dict[str, Any]:
    """The engine's view of ``seat`` after the table's first ``version`` events (rewinds
    replayed through :func:`kirifuda.coach.practice.rewound`), with its legal actions."""
    from kirifuda.coach.practice import rewound

    state = table.info.new_state(table.options, first=table.first)
    for ev in table.events[:version]:
        if "rewind" in ev:
            state = rewound(state, ev["rewind"]["deal"], ev["rewind"]["actions"])
        elif "kind" in ev:
            continue
        elif "deal" in ev:
            state.deal(ev["deal"]["hands"], ev["deal"]["rest"])
        else:
            data = ev["action"]
            state.apply(table.info.action_from_json(data, data["seat"]), data["seat"])
    view = state.view(seat).to_json()
    view["legal"] = [a.to_json() for a in state.legal_actions()] if state.to_act == seat else []
    if state.deal_number > 0:  # the last finished deal is shown face up
        d = state.record_deals()[state.deal_number - 1]
        view["finished"] = [d["hands"], d["rest"]]
    return dict(view)


@pytest.mark.parametrize("game", sorted(BUILTIN))
def test_each_kind_holds_for_the_deal_dealt(tmp_path: Path, game: str) -> None:
    """A table of each kind deals a deal for which the kind's predicate holds (or says none was
    found); the predicate is the game's own, run again on the dealt cards."""
    kinds = deal_kinds(game)
    assert kinds, f"{game} declares no practice deal kinds"
    with ServerThread(_sqlite(tmp_path), bot_delay=5) as srv:
        for kind in kinds:
            made = _create(srv, game, kind.key)
            table = srv.app.state.manager.tables[made["id"]]
            deadline = time.time() + 30
            while not table.state.record_deals():
                assert time.time() < deadline
                time.sleep(0.05)
            st = _post(srv, made["id"], "practice", {"token": made["tokens"][0]}).json()
            assert st["kind"] == kind.key and {k["key"] for k in st["kinds"]} == {k.key for k in kinds}
            d = table.state.record_deals()[0]
            check = table.info.new_state(table.options, first=table.first)
            check.deal(d["hands"], d["rest"])
            if st["found"]:
                assert kind.holds(check, 0, random.Random(0)) or _holds_with_bots(kind, check), kind.key
            else:
                assert st["kind_note"]


def _holds_with_bots(kind: Any, state: Any) -> bool:
    """A kind that plays the deal on with bots: its predicate held with the dealer's bots' seed;
    here it is checked to hold with some seed (the bots' choices are random)."""
    return any(kind.holds(state.copy(), 0, random.Random(i)) for i in range(8))


def test_the_kind_is_changed_and_kept_over_a_restart(tmp_path: Path) -> None:
    db = _sqlite(tmp_path)
    with ServerThread(db, bot_delay=0) as srv:
        made = _create(srv, "unsun")
        tid, token = made["id"], made["tokens"][0]
        r = _post(srv, tid, "kind", {"token": token, "kind": "last_player", "lang": "ja"})
        assert r.status_code == 200 and r.json()["kind"] == "last_player"
        r = _post(srv, tid, "kind", {"token": token, "kind": "nosuch", "lang": "ja"})
        assert r.status_code == 400 and _detail(r)["code"] == "unknown_kind" and "配り方" in _detail(r)["message"]
        _my_turn(srv, tid)
        r = _post(srv, tid, "replay", {"token": token, "trick": 0})
        assert r.status_code == 200
        before = [d["hands"] for d in srv.app.state.manager.tables[tid].state.record_deals()]
    with ServerThread(db, bot_delay=5) as srv:
        table = srv.app.state.manager.tables[tid]
        assert table.practice is not None and table.practice.kind == "last_player"
        assert table.practice.rewinds == 1
        assert [d["hands"] for d in table.state.record_deals()] == before


def test_old_databases_keep_their_hints_setting(tmp_path: Path) -> None:
    """A database of schema 2 whose hints setting lives in the coach's own table: migration 4
    moves it into the table's settings."""
    import sqlite3

    path = tmp_path / "old.db"
    db = f"sqlite+aiosqlite:///{path}"

    async def make() -> None:
        store = await Store.open(db)
        await store.close()

    asyncio.run(make())
    con = sqlite3.connect(path)
    con.execute("ALTER TABLE kf_tables DROP COLUMN settings")
    con.execute("UPDATE kf_schema SET version = 2")
    con.execute("CREATE TABLE kf_coach (table_id VARCHAR(32) PRIMARY KEY, hints BOOLEAN NOT NULL)")
    con.execute(
        "INSERT INTO kf_tables (id, game, options, first, seed, seats, token_hashes, timer, created, "
        "finished, secret) VALUES ('old1', 'meitora', '{}', 0, 0, ?, ?, 0, 0, 0, 'abc')",
        (json.dumps([{"kind": "bot", "bot": "heuristic"}] * 4), json.dumps([None] * 4)),
    )
    con.execute("INSERT INTO kf_coach VALUES ('old1', 0)")
    con.commit()
    con.close()
    with ServerThread(db, bot_delay=5) as srv:
        assert httpx.get(f"{srv.url}/api/tables/old1/coach").json()["hints"] is False
        assert srv.app.state.manager.tables["old1"].practice is None


def test_a_practice_table_is_never_saved_to_a_club(db_url: str) -> None:
    """Never rated, never in a club's statistics: a club refuses to save its match, saying why."""
    from types import SimpleNamespace

    from fastapi import FastAPI

    from kirifuda.server.accounts import accounts_router

    from ..clubs.test_accounts import sign_up

    fake = SimpleNamespace(practice=object(), state=SimpleNamespace(is_over=True))

    async def scenario(browser: Any, clock: Any, store: Store) -> None:
        async with browser() as kan:
            await sign_up(kan, "Kan")
            cid = (await kan.post("/api/clubs", json={"name": "Practice"})).json()["id"]
            r = await kan.post(f"/api/clubs/{cid}/tables/t1", json={"rated": False})
            assert r.status_code == 403 and "practice" in r.text and "rated" in r.text
            assert (await kan.get(f"/api/clubs/{cid}/matches")).json() == []

    async def main() -> None:
        s = await Store.open(db_url)
        app = FastAPI()
        app.include_router(accounts_router(lambda: s, lambda: {"t1": fake}))
        transport = httpx.ASGITransport(app=app)
        try:
            await scenario(lambda: httpx.AsyncClient(transport=transport, base_url="https://testserver"), None, s)
        finally:
            await s.close()

    asyncio.run(main())
