"""Hypothesis against the edge: random bodies for every HTTP route that reads one, random paths,
and random WebSocket messages (text and binary, before and after hello).  Nothing answers 500,
every refusal says why, no message goes unanswered or closes the connection, and the lobby and
the table answer afterwards (SQLite and PostgreSQL)."""

from __future__ import annotations

import json
from typing import Any

import httpx
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from websockets.sync.client import connect

from .conftest import ServerThread
from .test_protocol import HUMANS, create

_TEXT = st.text(st.characters(codec=None, exclude_categories=()), max_size=12) | st.sampled_from(
    [
        "\ud800",
        "x\udfff",
        "\u0000",
        "\u202e",
        "meitora",
        "human",
        "bot",
        "search",
        "oracle",
        "hello",
        "act",
        "ping",
        "AS",
        "JK",
        "7H",
        "pass",
        "any",
        " ",
        "👩‍💻",
    ]
)
_SCALAR = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False)
    | _TEXT
    | st.sampled_from([2**63, -(2**63), 10**40, 0, -1, 1.5])
)
_JSON = st.recursive(
    _SCALAR, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_TEXT, inner, max_size=4), max_leaves=12
)
_FIELDS = ["game", "options", "seats", "timer", "first", "seed", "kind", "bot", "name", "target", "deals"]
_SEAT = st.fixed_dictionaries(
    {},
    optional={
        "kind": st.sampled_from(["human", "bot", "x"]) | _JSON,
        "bot": st.sampled_from(["search", "random", "oracle", "nope"]) | _JSON,
        "name": _TEXT | _JSON,
    },
)
_CREATE = st.fixed_dictionaries(
    {},
    optional={
        "game": st.sampled_from(["meitora", "napoleon", "kakeya", "unsun", "whist"]) | _JSON,
        "seats": st.lists(_SEAT, max_size=6) | _JSON,
        "options": st.dictionaries(
            st.sampled_from(["target", "deals", "games", "claim_failure", "joker_lead", "x"]), _JSON, max_size=3
        )
        | _JSON,
        "timer": st.sampled_from([0, 30, 45]) | _JSON,
        "first": st.integers(-2, 12) | _JSON,
        "seed": _JSON,
    },
)
_DEEP = st.integers(1, 3000).map(lambda n: "[" * n + "]" * n) | st.integers(1, 3000).map(lambda n: "[" * n)


def _encode(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=True).encode()  # lone surrogates as \\udXXX escapes


_BODY = (
    _CREATE.map(_encode)
    | _JSON.map(_encode)
    | _DEEP.map(str.encode)
    | st.binary(max_size=200)
    | st.dictionaries(st.sampled_from(_FIELDS), _JSON, max_size=5).map(_encode)
)


def _refusal_in_words(r: httpx.Response) -> None:
    assert r.status_code < 500, (r.status_code, r.text[:200])
    if r.status_code >= 400:
        detail = r.json()["detail"]
        assert detail if isinstance(detail, str) else detail["message"]


def test_every_http_body_and_path(db_url: str) -> None:
    with ServerThread(db_url, bot_delay=0) as srv, httpx.Client(base_url=srv.url, timeout=30) as http:
        made = create(srv)

        @settings(max_examples=120, deadline=None, suppress_health_check=list(HealthCheck))
        @given(
            route=st.sampled_from(["/api/tables", "/api/replay"]),
            body=_BODY,
            path=st.sampled_from(["/api/tables/", "/api/tables/{}/record", "/api/tables/{}/replay", "/t/"]),
            tid=_TEXT.filter(lambda t: "/" not in t and "?" not in t and "#" not in t) | st.just(made["id"]),
        )
        def check(route: str, body: bytes, path: str, tid: str) -> None:
            _refusal_in_words(http.post(route, content=body, headers={"content-type": "application/json"}))
            url = path.format(tid) if "{}" in path else path + tid
            try:
                r = http.get(httpx.URL(url.encode("utf-8", "surrogatepass").decode("utf-8", "replace")))
            except httpx.InvalidURL:
                return
            _refusal_in_words(r)

        check()
        assert http.get("/api/tables").status_code == 200
        assert http.get(f"/api/tables/{made['id']}").status_code == 200


_ACTION = (
    st.dictionaries(
        st.sampled_from(["play", "bid", "discard", "broken", "claim", "request", "seat", "chombo", "adjutant", "x"]),
        st.sampled_from(["AS", "JK", "7H", "pass", "any", True, 3, ["5C"], None]) | _JSON,
        max_size=3,
    )
    | _JSON
)
_MESSAGE = st.fixed_dictionaries(
    {"type": st.sampled_from(["hello", "act", "ping", "x"]) | _JSON},
    optional={"token": _TEXT | _JSON, "name": _TEXT | _JSON, "version": st.integers(-1, 3) | _JSON, "action": _ACTION},
)
_RAW = _MESSAGE.map(_encode) | _JSON.map(_encode) | _DEEP.map(str.encode) | st.binary(max_size=100)


def test_every_websocket_message(db_url: str) -> None:
    with ServerThread(db_url, bot_delay=0) as srv:
        made = create(srv, HUMANS)
        url = f"ws://127.0.0.1:{srv.port}/ws/{made['id']}"

        @settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
        @given(
            before=st.lists(_RAW, max_size=3),
            seat=st.sampled_from([None, 0, 1]),
            after=st.lists(_RAW, max_size=4),
            binary=st.booleans(),
        )
        def check(before: list[bytes], seat: int | None, after: list[bytes], binary: bool) -> None:
            with connect(url) as ws:
                joined = False

                def answered(raw: bytes) -> None:
                    nonlocal joined
                    ws.send(raw.decode("utf-8") if _utf8(raw) and not binary else raw)
                    m = json.loads(ws.recv(timeout=30))  # every message is answered
                    if m["type"] == "error":
                        assert m["code"] and m["message"]
                    joined = joined or m["type"] == "welcome"

                for raw in before:
                    answered(raw)
                if not joined:
                    token = None if seat is None else made["tokens"][seat]
                    ws.send(json.dumps({"type": "hello", "token": token}))
                    while json.loads(ws.recv(timeout=30))["type"] != "welcome":
                        pass
                for raw in after:
                    answered(raw)
                ws.send('{"type": "ping"}')
                while json.loads(ws.recv(timeout=30))["type"] != "pong":
                    pass

        check()
        assert httpx.get(f"{srv.url}/api/tables/{made['id']}").status_code == 200


def _utf8(raw: bytes) -> bool:
    try:
        raw.decode("utf-8")
        return True
    except UnicodeDecodeError:
        return False
