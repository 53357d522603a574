"""Bad input at the edge: each fault once found against ``kirifuda serve``, refused in words,
and the table and the lobby go on (SQLite and PostgreSQL)."""

from __future__ import annotations

import asyncio
import json
import re
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from kirifuda.errors import OptionError
from kirifuda.server.store import Store
from kirifuda.server.tables import TableManager

from .conftest import ServerThread
from .test_protocol import HUMANS, create, recv_until


def hello(ws: Any, token: str | None) -> Any:
    ws.send(json.dumps({"type": "hello", "token": token}))
    assert recv_until(ws, "welcome")
    return ws


def test_a_surrogate_in_a_name_is_refused_and_nothing_freezes(db_url: str) -> None:
    """A lone surrogate is valid JSON but not UTF-8: refused at creation and in hello (it used
    to be taken, and then every frame of the table and the lobby failed)."""
    with ServerThread(db_url, bot_delay=0) as srv:
        body = json.dumps({"game": "meitora", "seats": [{"kind": "human", "name": "\ud800"}] + HUMANS[1:]})
        assert "\\ud800" in body  # valid JSON text, escaped
        r = httpx.post(srv.url + "/api/tables", content=body, headers={"content-type": "application/json"})
        assert r.status_code == 400 and "surrogate" in r.json()["detail"]
        made = create(srv)
        tid, tokens = made["id"], made["tokens"]
        with connect(f"ws://127.0.0.1:{srv.port}/ws/{tid}") as ws:
            ws.send('{"type": "hello", "token": "%s", "name": "x\\ud800"}' % tokens[0])
            err = recv_until(ws, "error")
            assert err["code"] == "malformed" and "surrogate" in err["message"]
            # control and format characters, blank and overlong names: refused, naming why
            for name, why in (
                ("a\u0000b", "U+0000"),
                ("\u202eevil", "U+202E"),
                ("   ", "visible"),
                ("x" * 41, "at most 40"),
            ):
                ws.send(json.dumps({"type": "hello", "token": tokens[0], "name": name}))
                err = recv_until(ws, "error")
                assert err["code"] == "malformed" and why in err["message"], (name, err)
            ws.send(json.dumps({"type": "hello", "token": tokens[0], "name": "👩‍💻 花子"}))
            assert recv_until(ws, "welcome")["seat"] == 0
            state = recv_until(ws, "state", lambda m: m["version"] >= 1)
            assert state["table"]["seats"][0]["name"] == "👩‍💻 花子"
        assert httpx.get(srv.url + "/api/tables").status_code == 200
        assert httpx.get(f"{srv.url}/api/tables/{tid}").json()["seats"][0]["name"] == "👩‍💻 花子"


def test_the_python_api_refuses_a_surrogate_name_too(db_url: str) -> None:
    async def go() -> None:
        store = await Store.open(db_url)
        manager = TableManager(store, bot_delay=0)
        with pytest.raises(OptionError, match="seat 1: .*U\\+D800"):
            await manager.create(
                "meitora",
                {},
                [{"kind": "human"}, {"kind": "human", "name": "\ud800"}, {"kind": "human"}, {"kind": "human"}],
            )
        assert manager.tables == {}
        await manager.close()
        await store.close()

    asyncio.run(go())


def test_no_client_chooses_the_deals(db_url: str) -> None:
    """A seed in the body is refused (a chosen seed let its sender compute every hand); each
    table draws 256 bits from the OS, and no answer or frame ever carries them."""
    with ServerThread(db_url, bot_delay=0) as srv:
        for seed in (5, 2**63, -1, "x"):
            r = httpx.post(srv.url + "/api/tables", json={"game": "meitora", "seats": HUMANS, "seed": seed})
            assert r.status_code == 400 and "seed: unknown field" in r.json()["detail"]
        made = [create(srv) for _ in range(3)]
        tables = [srv.app.state.manager.tables[m["id"]] for m in made]
        secrets_ = {t.secret for t in tables}
        assert len(secrets_) == 3 and all(re.fullmatch(r"[0-9a-f]{64}", s) for s in secrets_)
        deals = {json.dumps(t.events[0]) for t in tables if t.events}
        assert len(deals) == len([t for t in tables if t.events])
        texts = [httpx.get(srv.url + "/api/tables").text, httpx.get(srv.url + f"/api/tables/{made[0]['id']}").text]
        with connect(f"ws://127.0.0.1:{srv.port}/ws/{made[0]['id']}") as ws:
            hello(ws, made[0]["tokens"][0])
            texts.append(json.dumps(recv_until(ws, "state")))
        for s in secrets_:
            assert all(s not in t and s[:16] not in t for t in texts)


def test_binary_frames_deep_json_and_big_numbers_get_words(db_url: str) -> None:
    """Each used to drop the connection or answer 500."""
    with ServerThread(db_url, bot_delay=0) as srv, ExitStack() as stack:
        made = create(srv)
        ws = hello(stack.enter_context(connect(f"ws://127.0.0.1:{srv.port}/ws/{made['id']}")), made["tokens"][0])
        version = recv_until(ws, "state", lambda m: m["version"] >= 1)["version"]
        for raw in (
            b"\x00\x01binary",
            b'{"type": "ping"}',
            "[" * 4000,
            '{"type": "act", "version": %d, "action": %s}' % (version, "[" * 3000 + "]" * 3000),
            '{"type": "act", "version": 99999999999999999999999, "action": {"bid": "pass"}}',
            '{"type": "act", "version": 1e400, "action": {"bid": "pass"}}',
        ):
            ws.send(raw)
            err = recv_until(ws, "error")
            assert err["code"] == "malformed" and err["message"], raw[:40]
        ws.send(json.dumps({"type": "ping"}))
        assert recv_until(ws, "pong")  # still connected: no grace started
        assert srv.app.state.manager.tables[made["id"]].connected()[0]
        ws.close()
        for body in (
            "[" * 60000,
            '{"game": "meitora", "seats": ' + "[" * 5000 + "]" * 5000 + "}",
            '{"game": "meitora", "seats": [], "first": 18446744073709551616}',
            json.dumps({"game": "meitora", "seats": HUMANS, "options": {"target": 10**30}}),
            json.dumps({"game": "meitora", "seats": HUMANS, "options": {"target": 10**9}}),
            json.dumps({"game": "meitora", "seats": HUMANS, "first": True}),
            '{"game": "meitora", "seats": [{"kind": "human", "name": "\\udfff"}]}',
            b"\xff\xfe{}",
            "",
        ):
            r = httpx.post(
                srv.url + "/api/tables",
                content=body if isinstance(body, bytes) else body.encode(),
                headers={"content-type": "application/json"},
            )
            assert r.status_code == 400 and r.json()["detail"], (body[:60], r.status_code, r.text)
        r = httpx.post(srv.url + "/api/replay", content=b"[" * 100000)
        assert r.status_code == 400 and "JSON" in r.json()["detail"]["message"]
        assert httpx.get(srv.url + "/api/tables").status_code == 200


def test_a_policy_bot_sits_only_where_the_server_keeps_policy_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``policy:PATH`` would let a client make the server open any file (and tell by the answer
    whether it exists): refused unless the host names a directory of policy files."""
    monkeypatch.delenv("KIRIFUDA_POLICY_DIR", raising=False)
    with ServerThread(f"sqlite+aiosqlite:///{tmp_path / 'p.db'}", bot_delay=0) as srv:
        for path in ("/etc/passwd", "/nonexistent.npz"):
            seats = [{"kind": "human"}] + [{"kind": "bot", "bot": f"policy:{path}"}] * 3
            r = httpx.post(srv.url + "/api/tables", json={"game": "meitora", "seats": seats})
            assert r.status_code == 400 and "KIRIFUDA_POLICY_DIR" in r.json()["detail"]
        assert srv.app.state.manager.tables == {}
