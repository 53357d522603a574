"""The host link, the seat handed to a bot, the page's descriptors and catalogue (HTTP and WebSocket)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from kirifuda.server import messages, ui
from kirifuda.games import GAMES

from ..server.conftest import ServerThread


SERVER_OPTIONS = {"deal_secret": "3"}
"""Over the shared ``server`` fixture's (tests/conftest.py): this module's deal secret."""


def make(server: ServerThread, humans: int = 2) -> dict[str, Any]:
    seats = [
        {"kind": "human", "name": f"P{s}"} if s < humans else {"kind": "bot", "bot": "heuristic"} for s in range(4)
    ]
    r = httpx.post(server.url + "/api/tables", json={"game": "meitora", "seats": seats})
    assert r.status_code == 200, r.text
    return r.json()  # type: ignore[no-any-return]


def hello(server: ServerThread, table: str, token: str | None) -> dict[str, Any]:
    with connect(f"ws://127.0.0.1:{server.port}/ws/{table}") as ws:
        ws.send(json.dumps({"type": "hello", "token": token}))
        return json.loads(ws.recv())  # type: ignore[no-any-return]


def host_token(made: dict[str, Any]) -> str:
    return made["host"].split("#host=")[1]  # type: ignore[no-any-return]


def test_the_host_reissues_a_link_and_the_old_token_is_retired(server: ServerThread) -> None:
    made = make(server)
    old = made["tokens"][1]
    assert hello(server, made["id"], old)["seat"] == 1
    r = httpx.post(f"{server.url}/api/tables/{made['id']}/host/link", json={"host": host_token(made), "seat": 1})
    assert r.status_code == 200, r.text
    new = r.json()["token"]
    assert r.json()["link"] == f"/t/{made['id']}#token={new}" and new != old
    refused = hello(server, made["id"], old)
    assert refused["type"] == "error" and refused["code"] == "unauthenticated"
    assert hello(server, made["id"], new)["seat"] == 1
    # the host token is not a seat's token, and a seat's token is not the host's
    assert hello(server, made["id"], host_token(made))["type"] == "error"
    r = httpx.post(f"{server.url}/api/tables/{made['id']}/host/link", json={"host": made["tokens"][0], "seat": 1})
    assert r.status_code == 403 and "host link" in r.json()["detail"]


def test_a_connected_holder_of_a_retired_link_becomes_a_spectator(server: ServerThread) -> None:
    made = make(server)
    with connect(f"ws://127.0.0.1:{server.port}/ws/{made['id']}") as ws:
        ws.send(json.dumps({"type": "hello", "token": made["tokens"][0]}))
        assert json.loads(ws.recv(timeout=20))["seat"] == 0
        httpx.post(f"{server.url}/api/tables/{made['id']}/host/link", json={"host": host_token(made), "seat": 0})
        for _ in range(20):
            m = json.loads(ws.recv(timeout=20))
            if m["type"] == "error":
                assert m["code"] == "replaced"
                break
        else:
            raise AssertionError("no 'replaced' notice")
        for _ in range(20):
            m = json.loads(ws.recv(timeout=20))
            if m["type"] == "state":
                assert m["seat"] is None and m["view"]["hand"] == []
                break


def test_the_host_hands_a_seat_to_a_bot_and_the_table_moves_on(server: ServerThread) -> None:
    made = make(server, humans=1)
    r = httpx.post(f"{server.url}/api/tables/{made['id']}/host/bot", json={"host": host_token(made), "seat": 0})
    assert r.status_code == 200, r.text
    assert r.json()["seats"][0]["kind"] == "bot"
    info = httpx.get(f"{server.url}/api/tables/{made['id']}").json()
    assert info["seats"][0]["kind"] == "bot" and info["seats"][0]["name"] == "P0"
    assert hello(server, made["id"], made["tokens"][0])["type"] == "error"  # its link is retired
    import time

    deadline = time.time() + 20
    while httpx.get(f"{server.url}/api/tables/{made['id']}").json()["version"] < 3:
        assert time.time() < deadline, "the bots did not play on"
        time.sleep(0.05)


@pytest.mark.parametrize(
    "body, status, words",
    [
        ({"seat": 1}, 400, "host token"),
        ({"host": "nope", "seat": 1}, 403, "not valid"),
        ({"host": None, "seat": 1}, 400, "host token"),
    ],
)
def test_bad_host_requests_are_refused_saying_why(
    server: ServerThread, body: dict[str, Any], status: int, words: str
) -> None:
    made = make(server)
    r = httpx.post(f"{server.url}/api/tables/{made['id']}/host/link", json=body)
    assert r.status_code == status and words in r.json()["detail"]


@pytest.mark.parametrize(
    "seat, words", [(9, "seat must be"), ("1", "seat must be"), (True, "seat must be"), (3, "bot")]
)
def test_bad_seats_are_refused_and_nothing_changes(server: ServerThread, seat: Any, words: str) -> None:
    made = make(server)
    r = httpx.post(f"{server.url}/api/tables/{made['id']}/host/bot", json={"host": host_token(made), "seat": seat})
    assert r.status_code == 400 and words in r.json()["detail"]
    assert hello(server, made["id"], made["tokens"][0])["seat"] == 0
    assert httpx.get(f"{server.url}/api/tables/{made['id']}").json()["seats"][0]["kind"] == "human"


def test_unknown_table_and_non_json(server: ServerThread) -> None:
    assert httpx.post(f"{server.url}/api/tables/nope/host", json={"host": "x"}).status_code == 404
    made = make(server)
    r = httpx.post(f"{server.url}/api/tables/{made['id']}/host", content=b"{oops")
    assert r.status_code == 400 and "JSON" in r.json()["detail"]
    ok = httpx.post(f"{server.url}/api/tables/{made['id']}/host", json={"host": host_token(made)})
    assert [s["kind"] for s in ok.json()["seats"]] == ["human", "human", "bot", "bot"]


def test_presence_counts_down_a_dropped_seat(server: ServerThread) -> None:
    made = make(server)
    hello(server, made["id"], made["tokens"][1])  # joins, then drops
    import time

    deadline = time.time() + 20
    while True:
        drop = httpx.get(f"{server.url}/api/tables/{made['id']}").json()["drop_in"]
        if drop[1] is not None:
            break
        assert time.time() < deadline
        time.sleep(0.05)
    assert 0 < drop[1] <= 60 and drop[2] is None


def test_the_page_gets_every_descriptor_and_both_catalogues(server: ServerThread) -> None:
    data = httpx.get(f"{server.url}/api/ui").json()
    assert set(data["games"]) == set(GAMES)
    ja, en = data["i18n"]["ja"], data["i18n"]["en"]
    assert set(ja) == set(en)
    assert ja["web.your_turn"] == "あなたの番です" and en["web.your_turn"] == "Your turn"
    for game, d in data["games"].items():
        for name in d["options"]:
            assert f"web.opt.{game}.{name}" in ja and f"web.opt.{game}.{name}.doc" in en
        for phase in d["hints"]:
            assert f"web.hint.{game}.{phase}" in ja


def test_a_key_lacking_a_language_is_found() -> None:
    assert messages.missing_languages() == []
    from kirifuda import i18n

    i18n.add_terms(messages={"web.test.broken": ("", "only English")})
    try:
        assert messages.missing_languages() == ["web.test.broken"]
    finally:
        del i18n._MESSAGES["web.test.broken"]


def test_every_key_the_page_uses_is_in_the_catalogue() -> None:
    import re

    source = (Path(ui.__file__).parent / "static" / "app.js").read_text(encoding="utf-8")
    used = set(re.findall(r"""\bt\(\s*["']([a-z0-9_.:-]+)["']""", source))
    assert len(used) > 50
    ja = messages.catalogue("ja")
    whole = {k for k in used if not k.endswith(".")}
    prefixes = used - whole  # t("bots." + kind): some key must start so
    assert sorted(k for k in whole if "web." + k not in ja and k not in ja) == []
    assert sorted(p for p in prefixes if not any(k.startswith("web." + p) for k in ja)) == []
    # no Japanese is written into the page's code: it all comes from the catalogue
    assert not re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", source)


def test_descriptors_name_real_fields() -> None:
    for game, info in GAMES.items():
        d = ui.descriptor(game)
        state = info.new_state(info.options({}))
        import random

        state.deal_random(random.Random(0))
        fields = set(state.view(0).to_json())
        named = (
            {r[0] for r in d["seat_roles"] + d["unit_roles"]} | set(d["headline"]) | {s["field"] for s in d["stats"]}
        )
        if d["bids"]:
            named.add(d["bids"])
        if isinstance(d["units"], dict) and "field" in d["units"]:
            named.add(d["units"]["field"])
        assert named <= fields, (game, named - fields)


def test_results_in_words_for_the_page_are_the_terminal_s(server: ServerThread) -> None:
    import random

    from kirifuda.ui.results import deal_result

    info = GAMES["napoleon"]
    state = info.new_state(info.options({}))
    rng = random.Random(9)
    while state.deal_number < 1:
        if state.needs_deal:
            state.deal_random(rng)
            continue
        seat = state.to_act
        state.apply(rng.choice(state.view(seat).legal_actions), seat)
    deal = {k: v for k, v in state.summary()["deals"][0].items() if k not in ("tricks", "hands")}
    names = ["Aki", "Ben", "Chie", "Dai", "Eri"]
    r = httpx.post(f"{server.url}/api/results", json={"game": "napoleon", "deals": [deal], "names": names})
    assert r.status_code == 200, r.text
    assert r.json()["ja"] == [deal_result("napoleon", deal, "ja", names)]
    assert r.json()["en"] == [deal_result("napoleon", deal, "en", names)]
    assert any("Aki" in x or "Ben" in x for x in r.json()["en"][0])


@pytest.mark.parametrize(
    "body, words",
    [
        ({"game": "chess", "deals": []}, "game must be"),
        ({"game": "meitora", "deals": "x"}, "deals must be"),
        ({"game": "meitora", "deals": [{}] * 501}, "deals must be"),
        ({"game": "meitora", "deals": [], "names": ["x" * 41]}, "names must be"),
    ],
)
def test_bad_result_requests_are_refused_saying_why(server: ServerThread, body: dict[str, Any], words: str) -> None:
    r = httpx.post(f"{server.url}/api/results", json=body)
    assert r.status_code == 400 and words in r.json()["detail"]


def test_a_refusal_in_each_language(server: ServerThread) -> None:
    r = httpx.post(
        f"{server.url}/api/reason", json={"text": "the claim is not valid: the others can still take a trick"}
    )
    assert r.status_code == 200
    assert "オープン" in r.json()["ja"] and "claim" in r.json()["en"]
    assert httpx.post(f"{server.url}/api/reason", json={"text": 5}).status_code == 400
