"""A table the server will not make: the refusal's code and params, worded in both languages."""

from __future__ import annotations

import re
from typing import Any, Iterator

import httpx
import pytest

from kirifuda.server import messages
from kirifuda.server.limits import Limits
from kirifuda.server.refusals import REFUSAL_MESSAGES, refusal

from ..server.conftest import TEST_LIMITS, ServerThread

HUMANS = [{"kind": "human"}] * 4


def limits(**kw: Any) -> Limits:
    return Limits(**{**TEST_LIMITS, **kw})


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    db = tmp_path_factory.mktemp("refusals") / "kirifuda.db"
    with ServerThread(f"sqlite+aiosqlite:///{db}", bot_delay=0.0, limits=limits(max_deals=50)) as srv:
        yield srv


def worded(code: str, params: dict[str, Any]) -> dict[str, str]:
    """The refusal as the page words it: every placeholder filled, in each language."""
    out = {}
    for lang in ("ja", "en"):
        text = messages.catalogue(lang)[f"web.refusal.{code}"]
        holes = set(re.findall(r"\{(\w+)\}", text))
        assert holes <= set(params), (code, lang, holes, params)
        out[lang] = text.format(**params)
    return out


BAD = [
    (b"{not json", "bad_json", {}),
    ({"game": "meitora", "seats": [{"kind": "human", "name": "\u0007"}] + HUMANS[1:]}, "bad_name", {"seat": 0}),
    ({"game": "meitora", "seats": HUMANS, "hints": "no"}, "bad_field", {"field": "hints"}),
    ({"game": "chess", "seats": HUMANS}, "unknown_game", {"game": "chess"}),
    ({"game": "meitora", "seats": HUMANS, "options": {"target": 0}}, "bad_option", {"option": "target", "value": "0"}),
    ({"game": "meitora", "seats": HUMANS, "options": {"target": 51}}, "too_long", {"option": "target", "max": 50}),
    ({"game": "meitora", "seats": HUMANS, "options": {"colour": "red"}}, "unknown_option", {"options": "colour"}),
    ({"game": "kakeya", "seats": HUMANS, "options": {"stop_at_zero": False}}, "option_needed", {"option": "games"}),
    ({"game": "meitora", "seats": HUMANS[:3]}, "seat_count", {"n": 4, "got": "3"}),
    ({"game": "meitora", "seats": HUMANS, "timer": 7}, "bad_timer", {}),
    (
        {"game": "meitora", "seats": HUMANS[:3] + [{"kind": "bot", "bot": "oracle"}]},
        "oracle_bot",
        {"seat": 3, "bot": "oracle"},
    ),
    ({"game": "meitora", "seats": HUMANS[:3] + [{"kind": "bot", "bot": "genius"}]}, "unknown_bot", {"bot": "genius"}),
    ({"game": "meitora", "seats": HUMANS, "first": 5}, "bad_first", {"max": 3}),
]


@pytest.mark.parametrize("body, code, params", BAD, ids=[b[1] for b in BAD])
def test_each_refusal_has_its_code_and_words_in_both_languages(
    server: ServerThread, body: Any, code: str, params: dict[str, Any]
) -> None:
    before = len(server.app.state.manager.tables)
    if isinstance(body, bytes):
        r = httpx.post(server.url + "/api/tables", content=body, headers={"content-type": "application/json"})
    else:
        r = httpx.post(server.url + "/api/tables", json=body)
    assert r.status_code == 400, r.text
    got = r.json()
    assert isinstance(got["detail"], str) and got["detail"]  # the English words, as before
    assert got["code"] == code, got
    assert {k: got["params"].get(k) for k in params} == params, got
    words = worded(got["code"], got["params"])
    assert re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", words["ja"]) and words["en"] != words["ja"]
    assert len(server.app.state.manager.tables) == before  # nothing was made


def test_the_limits_refuse_with_their_own_codes(tmp_path: Any) -> None:
    db = f"sqlite+aiosqlite:///{tmp_path / 'k.db'}"
    with ServerThread(db, bot_delay=0, limits=limits(tables_per_minute=1)) as srv:
        assert httpx.post(srv.url + "/api/tables", json={"game": "meitora", "seats": HUMANS}).status_code == 200
        r = httpx.post(srv.url + "/api/tables", json={"game": "meitora", "seats": HUMANS})
        assert r.status_code == 429 and r.json()["code"] == "too_fast" and r.json()["params"] == {"n": 1}
        assert "1" in worded("too_fast", r.json()["params"])["ja"]
    with ServerThread(db, bot_delay=0, limits=limits(open_tables_per_client=1)) as srv:
        assert httpx.post(srv.url + "/api/tables", json={"game": "meitora", "seats": HUMANS}).status_code == 200
        r = httpx.post(srv.url + "/api/tables", json={"game": "meitora", "seats": HUMANS})
        assert r.status_code == 429 and r.json()["code"] == "too_many_open"


def test_an_unknown_message_keeps_its_words_under_the_general_code() -> None:
    assert refusal("the moon is in the way") == {"code": "refused", "params": {"text": "the moon is in the way"}}
    assert worded("refused", {})["ja"]


def test_every_refusal_is_worded_in_both_languages() -> None:
    assert set(REFUSAL_MESSAGES) <= set(messages.catalogue("ja"))
    for key, (ja, en) in REFUSAL_MESSAGES.items():
        assert ja.strip() and en.strip() and ja != en, key
        assert set(re.findall(r"\{(\w+)\}", ja)) == set(re.findall(r"\{(\w+)\}", en)), key


def test_the_host_s_refusals_have_codes_too(server: ServerThread) -> None:
    seats = [{"kind": "human"}, {"kind": "bot", "bot": "heuristic"}, {"kind": "human"}, {"kind": "human"}]
    made = httpx.post(server.url + "/api/tables", json={"game": "meitora", "seats": seats}).json()
    host = made["host"].split("#host=")[1]
    url = f"{server.url}/api/tables/{made['id']}/host"
    for path, body, status, code, params in [
        ("", {"host": "forged"}, 403, "host_denied", {}),
        ("", {}, 400, "host_denied", {}),
        ("/link", {"host": host, "seat": 9}, 400, "bad_seat_number", {"max": 3}),
        ("/bot", {"host": host, "seat": 1}, 400, "seat_is_bot", {"seat": 1}),
    ]:
        r = httpx.post(url + path, json=body)
        got = r.json()
        assert r.status_code == status and isinstance(got["detail"], str), r.text
        assert got["code"] == code and {k: got["params"][k] for k in params} == params, got
        worded(code, got["params"])
    r = httpx.post(f"{server.url}/api/tables/nosuch/host", json={"host": host})
    assert r.status_code == 404 and r.json()["code"] == "unknown_table"
    assert httpx.post(url, json={"host": host}).status_code == 200  # the wrapper lets answers through


def test_every_code_a_pattern_gives_has_its_words() -> None:
    from kirifuda.server.refusals import _PATTERNS

    codes = {code for _, code in _PATTERNS} | {"refused"}
    assert sorted(c for c in codes if f"web.refusal.{c}" not in REFUSAL_MESSAGES) == []
    for pattern, code in _PATTERNS:  # each message's placeholders are the pattern's groups
        for lang in (0, 1):
            holes = set(re.findall(r"\{(\w+)\}", REFUSAL_MESSAGES[f"web.refusal.{code}"][lang]))
            assert holes <= set(pattern.groupindex), (code, holes, pattern.pattern)


def test_no_replay_of_a_match_in_play_before_a_deal_is_over(server: ServerThread) -> None:
    made = httpx.post(server.url + "/api/tables", json={"game": "meitora", "seats": HUMANS}).json()
    r = httpx.get(f"{server.url}/api/tables/{made['id']}/replay/finished")
    assert r.status_code == 403 and r.json()["code"] == "no_finished_deal"
    assert httpx.get(f"{server.url}/api/tables/nosuch/replay/finished").json()["code"] == "unknown_table"
