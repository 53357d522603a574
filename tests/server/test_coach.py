"""The coach over HTTP: hints for the seat to act (by its token, from its view alone, as the
table allows), and reviews of a table's finished deals and of uploaded records."""

from __future__ import annotations

import asyncio
import random
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from kirifuda import record as records
from kirifuda.game import GameState, options_to_json
from kirifuda.games import GAMES
from kirifuda.record import from_state
from kirifuda.server.coach import MAX_DEALS, MAX_RECORD
from kirifuda.server.store import Store, StoredTable
from kirifuda.server.tables import hash_token

from ..coach.helpers import played_deal
from ..coach.test_hint import _stop_after, _twin
from .conftest import ServerThread

HUMANS = [{"kind": "human"} for _ in range(4)]


def _sqlite(tmp_path: Path, name: str = "kirifuda.db") -> str:
    return f"sqlite+aiosqlite:///{tmp_path / name}"


def _detail(r: httpx.Response) -> dict[str, Any]:
    detail = r.json()["detail"]
    assert isinstance(detail, dict) and detail["message"]
    return detail


def _store_table(db: str, table_id: str, state: GameState, humans: set[int], token: str) -> None:
    """Put a table whose events are ``state``'s match into the database, the seats in
    ``humans`` held by ``token`` (each: ``token`` + the seat number), the others bots."""
    rec = from_state(state)
    events: list[dict[str, Any]] = []
    for d in rec.deals:
        events.append({"deal": {"hands": d.hands, "rest": d.rest}})
        events += [{"action": a} for a in d.actions]
    n = state.num_players
    seats = [
        {"kind": "human", "name": f"P{s}"} if s in humans else {"kind": "bot", "bot": "heuristic", "name": f"B{s}"}
        for s in range(n)
    ]
    info = GAMES[state.game_id]

    async def go() -> None:
        store = await Store.open(db)
        try:
            await store.create_table(
                StoredTable(
                    id=table_id,
                    game=info.id,
                    options=options_to_json(state.options),
                    first=rec.first,
                    seed=7,
                    seats=seats,
                    token_hashes=[hash_token(f"{token}{s}") if s in humans else None for s in range(n)],
                    timer=0,
                    created=time.time(),
                    finished=False,
                )
            )
            await store.append_events(table_id, 0, events)
        finally:
            await store.close()

    asyncio.run(go())


def _deals(game: str, n: int) -> GameState:
    """A match of ``n`` deals played by heuristic bots."""
    from kirifuda.bots import make_bot

    rng = random.Random(n)
    state = GAMES[game].new_state(GAMES[game].options({}))
    bots = [make_bot("heuristic", game) for _ in range(state.num_players)]
    while len(state.record_deals()) < n or not state.needs_deal:
        assert not state.is_over
        if state.needs_deal:
            state.deal_random(rng)
            continue
        seat = state.to_act
        assert seat is not None
        state.apply(bots[seat].choose(state.view(seat), rng), seat)
    return state


def _create(srv: ServerThread, **body: Any) -> dict[str, Any]:
    r = httpx.post(srv.url + "/api/tables", json={"game": "meitora", "seats": HUMANS, **body})
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


def _to_act(srv: ServerThread, table_id: str) -> tuple[int, int]:
    """The seat to act and the version, once the table is dealt (a loaded machine: 30 s)."""
    deadline = time.time() + 30
    while True:
        table = srv.app.state.manager.tables[table_id]
        seat = table.state.to_act
        if seat is not None:
            return seat, table.version
        assert time.time() < deadline, "the table was never dealt"
        time.sleep(0.02)


def test_a_hint_for_the_seat_to_act_and_refusals_in_words(db_url: str) -> None:
    with ServerThread(db_url, bot_delay=0) as srv:
        made = _create(srv)
        tid, tokens = made["id"], made["tokens"]
        seat, version = _to_act(srv, tid)
        # a hand of four jacks ends a deal as it is dealt (ブロークン): deal 0 may be over already
        coach = httpx.get(f"{srv.url}/api/tables/{tid}/coach").json()
        assert coach["hints"] is True and coach["finished_deals"] in ([], [0])
        url = f"{srv.url}/api/tables/{tid}/hint"
        r = httpx.post(url, timeout=60, json={"token": tokens[seat], "lang": "ja", "version": version, "seat": seat})
        assert r.status_code == 200, r.text
        got = r.json()
        assert got["seat"] == seat and got["version"] == version and got["table"] == tid
        legal = [a.to_json() for a in srv.app.state.manager.tables[tid].state.legal_actions()]
        assert got["hint"]["action"] in legal
        assert got["hint"]["reason"] == got["reasons"]["ja"] and got["reasons"]["en"]
        assert {"alternatives", "kind", "samples", "chosen"} <= set(got["hint"])
        # asked again at the same state: the same answer
        assert (
            httpx.post(url, timeout=60, json={"token": tokens[seat]}).json()["hint"]["action"] == got["hint"]["action"]
        )

        refusals = [
            ({"token": "not-a-token"}, 403, "unauthenticated"),
            ({"token": tokens[(seat + 1) % 4]}, 409, "not_your_turn"),
            ({"token": tokens[seat], "seat": (seat + 1) % 4}, 403, "wrong_seat"),
            ({"token": tokens[(seat + 1) % 4], "seat": seat}, 403, "wrong_seat"),
            ({"token": tokens[seat], "version": version + 1}, 409, "stale"),
            ({"token": 5}, 400, "malformed"),
            ({"token": tokens[seat], "lang": "fr"}, 400, "malformed"),
            ({"token": tokens[seat], "extra": 1}, 400, "malformed"),
            ({}, 400, "malformed"),
        ]
        for body, status, code in refusals:
            r = httpx.post(url, timeout=60, json=body)
            assert (r.status_code, _detail(r)["code"]) == (status, code), (body, r.text)
        r = httpx.post(url, content=b"{not json")
        assert r.status_code == 400 and _detail(r)["code"] == "malformed"
        r = httpx.post(f"{srv.url}/api/tables/nosuch/hint", json={"token": tokens[seat]})
        assert r.status_code == 404 and _detail(r)["code"] == "unknown_table"
        # nothing changed at the table
        assert srv.app.state.manager.tables[tid].version == version
        assert httpx.get(f"{srv.url}/api/tables/{tid}/coach").json() == coach


def test_the_host_may_forbid_hints_and_the_setting_is_checked_and_kept(tmp_path: Path) -> None:
    db = _sqlite(tmp_path)
    with ServerThread(db, bot_delay=0) as srv:
        r = httpx.post(srv.url + "/api/tables", json={"game": "meitora", "seats": HUMANS, "hints": "no"})
        assert r.status_code == 400 and "hints" in r.json()["detail"]
        made = _create(srv, hints=False)
        tid = made["id"]
        seat, _ = _to_act(srv, tid)
        r = httpx.post(f"{srv.url}/api/tables/{tid}/hint?lang=ja", json={"token": made["tokens"][seat], "lang": "ja"})
        assert r.status_code == 403 and _detail(r)["code"] == "hints_off"
        assert "ヒント" in _detail(r)["message"]
    with ServerThread(db, bot_delay=0) as srv:  # a restart keeps the setting
        assert httpx.get(f"{srv.url}/api/tables/{tid}/coach").json()["hints"] is False
        r = httpx.post(f"{srv.url}/api/tables/{tid}/hint", json={"token": made["tokens"][seat]})
        assert r.status_code == 403 and _detail(r)["code"] == "hints_off"


@pytest.mark.parametrize("game,k", [("meitora", 0), ("kakeya", 12), ("napoleon", 14), ("unsun", 9)])
def test_a_hint_never_depends_on_hidden_cards(tmp_path: Path, game: str, k: int) -> None:
    """Two tables whose deals differ only in cards the seat to act has not seen (two unplayed
    cards swapped between two other hands) give the same hint."""
    state = played_deal(game, 11 + k, stop=_stop_after(k))
    seat = state.to_act
    assert seat is not None
    twin = _twin(state, seat, random.Random(k))
    assert twin is not None and twin.record_deals()[-1]["hands"] != state.record_deals()[-1]["hands"]
    db = _sqlite(tmp_path)
    _store_table(db, "first", state, {seat}, "tok")
    _store_table(db, "twin", twin, {seat}, "tok")
    with ServerThread(db, bot_delay=0) as srv:
        got = []
        for tid in ("first", "twin"):
            r = httpx.post(f"{srv.url}/api/tables/{tid}/hint", json={"token": f"tok{seat}"}, timeout=30)
            assert r.status_code == 200, r.text
            got.append(r.json())
        assert got[0]["hint"] == got[1]["hint"] and got[0]["reasons"] == got[1]["reasons"]
        assert got[0]["version"] == got[1]["version"]


def test_a_deal_is_reviewed_only_once_it_is_over(tmp_path: Path) -> None:
    db = _sqlite(tmp_path)
    finished = played_deal("meitora", 4)  # one deal played to its end; the next is dealt on load
    assert finished.record_deals()[-1]["actions"]
    _store_table(db, "done", finished, {0, 1, 2, 3}, "t")
    with ServerThread(db, bot_delay=0) as srv:
        made = _create(srv)
        r = httpx.get(f"{srv.url}/api/tables/{made['id']}/review")
        assert r.status_code == 403 and _detail(r)["code"] == "deal_not_over"
        r = httpx.get(f"{srv.url}/api/tables/{made['id']}/review?deal=0&lang=ja")
        assert r.status_code == 403 and "検討" in _detail(r)["message"]
        r = httpx.get(f"{srv.url}/api/tables/{made['id']}/review?deal=first")
        assert r.status_code == 400 and _detail(r)["code"] == "malformed" and "deal" in _detail(r)["message"]
        r = httpx.get(f"{srv.url}/api/tables/{made['id']}/review?deal=3")
        assert r.status_code == 404 and _detail(r)["code"] == "no_deal"

        _to_act(srv, "done")
        last = len(finished.record_deals()) - 1
        info = httpx.get(f"{srv.url}/api/tables/done/coach").json()
        assert info["finished_deals"] == list(range(last + 1))
        r = httpx.get(f"{srv.url}/api/tables/done/review", timeout=60)
        assert r.status_code == 200, r.text
        got = r.json()
        assert got["deal"] == last and [d["deal"] for d in got["review"]["deals"]] == [last]
        marks = got["review"]["deals"][0]["marks"]
        played = finished.record_deals()[-1]["actions"]
        assert marks and all(played[m["index"]]["seat"] == m["seat"] for m in marks)
        assert "Review of" in got["text"]
        # the deal now in play is not reviewed
        r = httpx.get(f"{srv.url}/api/tables/done/review?deal={last + 1}")
        assert r.status_code == 403 and _detail(r)["code"] == "deal_not_over"


def test_an_uploaded_record_is_reviewed_checked_and_limited(tmp_path: Path) -> None:
    state = played_deal("meitora", 9)
    text = records.dumps(from_state(state))
    last = len(state.record_deals()) - 1
    with ServerThread(_sqlite(tmp_path), bot_delay=0) as srv:
        r = httpx.post(f"{srv.url}/api/review?lang=ja&deal={last}", content=text, timeout=60)
        assert r.status_code == 200, r.text
        assert [d["deal"] for d in r.json()["review"]["deals"]] == [last] and "検討" in r.json()["text"]

        r = httpx.post(f"{srv.url}/api/review", content=b"{oops")
        assert r.status_code == 400 and _detail(r)["code"] == "bad_record" and "JSON" in _detail(r)["message"]
        broken = text.replace('"play"', '"plya"', 1)
        r = httpx.post(f"{srv.url}/api/review", content=broken)
        assert r.status_code == 400 and _detail(r)["code"] == "bad_record"
        r = httpx.post(f"{srv.url}/api/review", content=b" " * (MAX_RECORD + 1))
        assert r.status_code == 413 and _detail(r)["code"] == "too_big"
        r = httpx.post(f"{srv.url}/api/review?deal={last + 5}", content=text)
        assert r.status_code == 404 and _detail(r)["code"] == "no_deal"
        many = _deals("meitora", MAX_DEALS + 1)
        r = httpx.post(f"{srv.url}/api/review", content=records.dumps(from_state(many)))
        assert r.status_code == 400 and _detail(r)["code"] == "too_many_deals"
        assert str(len(many.record_deals())) in _detail(r)["message"]
