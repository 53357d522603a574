"""The protocol refuses malformed, out-of-turn, stale, spectators' and wrongly-authenticated
messages, naming the fault, and nothing changes: not the state, not the database."""

from __future__ import annotations

import asyncio
import json
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from websockets.sync.client import connect

from kirifuda import record as records
from kirifuda.server.protocol import Act, Hello, ProtocolError, parse_message
from kirifuda.server.store import Store
from kirifuda.server.tables import LiveTable, TableManager

from .conftest import ServerThread

HUMANS = [{"kind": "human"}] * 4


def recv_until(ws: Any, kind: str, pred: Any = lambda m: True, limit: int = 200) -> dict[str, Any]:
    for _ in range(limit):
        m = json.loads(ws.recv(timeout=30))
        if m["type"] == kind and pred(m):
            return m
    raise AssertionError(f"no {kind} message")


def create(srv: ServerThread, seats: list[dict[str, Any]] = HUMANS, **body: Any) -> dict[str, Any]:
    r = httpx.post(srv.url + "/api/tables", json={"game": "meitora", "seats": seats, **body})
    assert r.status_code == 200, r.text
    return r.json()  # type: ignore[no-any-return]


def table_facts(srv: ServerThread, tid: str) -> tuple[int, str]:
    t = srv.app.state.manager.tables[tid]
    return t.version, records.dumps(t.record())


def test_refusals_change_nothing(db_url: str) -> None:
    with ServerThread(db_url, bot_delay=0) as srv, ExitStack() as stack:
        made = create(srv)
        tid, tokens = made["id"], made["tokens"]
        other = create(srv)
        ws = {}
        for s in (0, 1):
            ws[s] = stack.enter_context(connect(f"ws://127.0.0.1:{srv.port}/ws/{tid}"))
            ws[s].send(json.dumps({"type": "hello", "token": tokens[s]}))
            assert recv_until(ws[s], "welcome")["seat"] == s
        frame = recv_until(ws[0], "state", lambda m: m["version"] >= 1)
        assert frame["view"]["to_act"] == 0 and frame["legal"]
        version = frame["version"]
        before = table_facts(srv, tid)
        legal = frame["legal"][0]["action"]
        cases = [
            (ws[0], "not json", "malformed"),
            (ws[0], json.dumps([1, 2]), "malformed"),
            (ws[0], json.dumps({"type": "shout"}), "malformed"),
            (ws[0], json.dumps({"type": "act", "version": version}), "malformed"),
            (ws[0], json.dumps({"type": "act", "version": "x", "action": legal}), "malformed"),
            (ws[0], json.dumps({"type": "act", "version": version, "action": {"play": "ZZ"}}), "malformed"),
            (ws[0], json.dumps({"type": "act", "version": version, "action": {"seat": 1, **legal}}), "malformed"),
            (ws[0], json.dumps({"type": "act", "version": version, "action": {"chombo": "x"}}), "malformed"),
            (ws[0], json.dumps({"type": "act", "version": version, "action": {"play": "AS"}}), "illegal"),
            (ws[0], json.dumps({"type": "act", "version": version, "action": {"bid": "5S"}}), "illegal"),
            (ws[0], json.dumps({"type": "act", "version": version - 1, "action": legal}), "stale"),
            (ws[0], json.dumps({"type": "act", "version": version + 1, "action": legal}), "stale"),
            (ws[1], json.dumps({"type": "act", "version": version, "action": legal}), "not_your_turn"),
            (ws[0], json.dumps({"type": "hello", "token": tokens[0]}), "malformed"),
            (ws[0], "x" * 10000, "malformed"),
        ]
        for sock, raw, code in cases:
            sock.send(raw)
            err = recv_until(sock, "error")
            assert err["code"] == code, (raw[:80], err)
            assert err["message"] and err["version"] == version
            assert table_facts(srv, tid) == before
        # a spectator may not act; a wrong or another table's token does not authenticate
        spec = stack.enter_context(connect(f"ws://127.0.0.1:{srv.port}/ws/{tid}"))
        spec.send(json.dumps({"type": "act", "version": version, "action": legal}))
        assert recv_until(spec, "error")["code"] == "unauthenticated"
        for bad in ("nope", other["tokens"][0], tokens[0][:-1]):
            spec.send(json.dumps({"type": "hello", "token": bad}))
            assert recv_until(spec, "error")["code"] == "unauthenticated"
        spec.send(json.dumps({"type": "hello", "token": None}))
        assert recv_until(spec, "welcome")["seat"] is None
        view = recv_until(spec, "state")
        assert view["seat"] is None and view["view"]["hand"] == [] and view["legal"] == []
        spec.send(json.dumps({"type": "act", "version": version, "action": legal}))
        assert recv_until(spec, "error")["code"] == "spectator"
        assert table_facts(srv, tid) == before
        # and the legal action, on the right version, goes through
        ws[0].send(json.dumps({"type": "act", "version": version, "action": legal}))
        assert recv_until(ws[1], "state", lambda m: m["version"] == version + 1)["view"]["to_act"] == 1


_JUNK = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 60) | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=6,
)
_KEYS = st.sampled_from(["play", "bid", "discard", "broken", "claim", "request", "adjutant", "trump", "seat", "chombo"])
_ACTIONISH = st.dictionaries(
    _KEYS,
    st.sampled_from(["AS", "JK", "5H", "7H", "pass", "any", True, False, 3, ["5C"], None, "10N"]),
    min_size=1,
    max_size=3,
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_fuzzed_messages_never_change_a_game_unless_legal(db_url: str, data: st.DataObject) -> None:
    """Random frames from random seats (spectators included), among them legal actions on
    right and wrong versions: each refused one changes nothing; each accepted one was legal."""
    asyncio.run(_fuzz(db_url, data))


async def _fuzz(db_url: str, data: st.DataObject) -> None:
    store = await Store.open(db_url)
    try:
        manager = TableManager(store, grace=60, bot_delay=0)
        table, _ = await manager.create("meitora", {}, HUMANS, secret=str(data.draw(st.integers(0, 2**31))))
        # a deal redealt at once (Meitora's four jacks…) is dealt again by the table itself
        while table.version < 1 or (table.state.needs_deal and not table.state.is_over):
            await asyncio.sleep(0.005)
        for _ in range(data.draw(st.integers(1, 25))):
            seat = data.draw(st.sampled_from([None, 0, 1, 2, 3]))
            state = table.state
            legal = state.legal_actions()
            kind = data.draw(st.sampled_from(["legal", "legal", "actionish", "junk", "text"]))
            if kind == "legal" and legal:
                action: Any = data.draw(st.sampled_from(legal)).to_json()
            elif kind == "actionish":
                action = data.draw(_ACTIONISH)
            else:
                action = data.draw(_JUNK)
            version = data.draw(
                st.sampled_from([table.version, table.version, table.version - 1, table.version + 1, 0])
            )
            raw = (
                data.draw(st.text(max_size=30))
                if kind == "text"
                else json.dumps(
                    {
                        "type": data.draw(st.sampled_from(["act", "act", "hello", "ping", "x"])),
                        "version": version,
                        "action": action,
                    }
                )
            )
            before_version, before_record = table.version, records.dumps(table.record())
            before_rows = await store.count_events(table.id)
            to_act = state.to_act
            try:
                msg = parse_message(raw, table.info, seat)
                if isinstance(msg, Act):
                    await table.act(seat, msg.version, msg.action)
                    accepted = True
                    assert msg.action in legal and seat == to_act and msg.version == before_version
                else:
                    accepted = False
            except ProtocolError as err:
                accepted = False
                assert err.message and err.code in {
                    "malformed",
                    "stale",
                    "not_your_turn",
                    "illegal",
                    "spectator",
                    "over",
                }
            if accepted:
                assert table.version == before_version + 1
                assert await store.count_events(table.id) == before_rows + 1
            else:
                assert table.version == before_version
                assert records.dumps(table.record()) == before_record
                assert await store.count_events(table.id) == before_rows
            while table.state.needs_deal and not table.state.is_over:
                await asyncio.sleep(0.005)
        # the database holds exactly the table's record
        reloaded = LiveTable((await store.load_tables())[-1], store, grace=60, bot_delay=0)
        assert records.dumps(reloaded.record()) == records.dumps(table.record())
        await manager.close()
    finally:
        await store.close()


def test_parse_message_names_the_fault() -> None:
    from kirifuda.games import GAMES

    info = GAMES["meitora"]
    assert parse_message('{"type": "hello", "token": null}', info, None) == Hello(None)
    with pytest.raises(ProtocolError, match="version"):
        parse_message('{"type": "act", "version": true, "action": {"bid": "pass"}}', info, 0)
    with pytest.raises(ProtocolError, match="request"):
        parse_message('{"type": "act", "version": 1, "action": {"play": "JK", "request": "Q"}}', info, 0)


def test_migrations_are_recorded(tmp_path: Path) -> None:
    async def go() -> None:
        url = f"sqlite+aiosqlite:///{tmp_path / 'm.db'}"
        store = await Store.open(url)
        from kirifuda.server.store import SCHEMA_VERSION

        assert await store.schema_version() == SCHEMA_VERSION
        async with store.engine.connect() as conn:
            from sqlalchemy import text

            mode = (await conn.execute(text("PRAGMA journal_mode"))).scalar_one()
        assert mode == "wal"
        await store.close()
        store = await Store.open(url)  # opening again applies nothing twice
        assert await store.schema_version() == SCHEMA_VERSION
        await store.close()

    asyncio.run(go())


def test_tables_offer_the_seatable_bots_and_refuse_the_oracle(db_url: str) -> None:
    """The lobby lists the bots a table can seat, the game's default first choice; the oracle
    (it needs every card) is refused at a table, saying why; a bot seat without a kind gets the
    game's default, and its search decides off the event loop."""
    with ServerThread(db_url, bot_delay=0) as srv:
        games = {g["id"]: g for g in httpx.get(srv.url + "/api/games").json()}
        assert "oracle" not in games["meitora"]["bots"]
        assert games["meitora"]["default_bot"] == "search" and "search" in games["meitora"]["bots"]
        r = httpx.post(
            srv.url + "/api/tables",
            json={
                "game": "meitora",
                "seats": [{"kind": "human"}, {"kind": "bot", "bot": "oracle"}, {"kind": "human"}, {"kind": "human"}],
            },
        )
        assert r.status_code == 400 and "sees every card" in r.text
        made = create(srv, [{"kind": "bot"}] * 4)
        t = srv.app.state.manager.tables[made["id"]]
        assert {s["bot"] for s in t.seats} == {"search"}
        deadline = time.time() + 60
        while t.version < 12 and time.time() < deadline:  # bidding, the negri, cards
            time.sleep(0.05)
        assert t.version >= 12
