"""The score keeper page at phone size (390×844), driven by Playwright in Debian's Chromium:
whole physical matches recorded deal by deal, the running sheet, a refused deal, the record
replayed by ``kirifuda replay --json``, and saving to a club as a signed-in member."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Iterator

import httpx
import pytest

from ..browsing import CHROMIUM
from ..server.conftest import ServerThread

SHOTS = Path(os.environ.get("KIRIFUDA_SHOTS", "/tmp/kirifuda-keeper-shots"))

sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")
if not os.path.exists(CHROMIUM):
    pytest.skip(
        f"browser tests skipped: no Chromium at {CHROMIUM} (apt-get install -y chromium)", allow_module_level=True
    )


SERVER_OPTIONS = {"deal_secret": "3"}
"""Over the shared ``server`` fixture's (tests/conftest.py): this module's deal secret."""


@pytest.fixture
def phone(browser: Any, server: ServerThread) -> Iterator[Any]:
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, device_scale_factor=1, is_mobile=True, has_touch=True, locale="ja-JP"
    )
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.url + "/keeper")
    page.wait_for_selector("#k-start")
    yield page
    assert errors == []
    context.close()


def setup(page: Any, game: str, players: int, names: list[str], **fields: str) -> None:
    page.select_option("#k-game", game)
    page.select_option("#k-players", str(players))
    for i, name in enumerate(names):
        page.fill(f"#k-name-{i}", name)
    for key, value in fields.items():
        page.fill(f"#k-{key}", value)
    page.click("#k-start")
    page.wait_for_selector("#k-record")


def step_to(page: Any, stepper: str, value: int) -> None:
    """Press − or + until the stepper shows ``value``, as a scorer would."""
    for _ in range(30):
        now = int(page.get_attribute(f"#{stepper}", "data-value"))
        if now == value:
            return
        page.click(f"[data-step='{stepper}:{'+' if value > now else '-'}']")
    raise AssertionError(f"{stepper} did not reach {value}")


def record_deal(page: Any) -> None:
    before = page.evaluate("Keeper.record.deals.length")
    page.click("#k-record")
    page.wait_for_function(
        f"Keeper.record.deals.length === {before + 1} && Keeper.sheet.summary.deals.length === {before + 1}"
    )


def replay_json(record: dict[str, Any], tmp_path: Path) -> dict[str, Any]:
    path = tmp_path / "keeper.json"
    path.write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")
    run = subprocess.run(
        [sys.executable, "-m", "kirifuda", "replay", str(path), "--json"], capture_output=True, text=True, check=True
    )
    return dict(json.loads(run.stdout))


def sheet_rows(page: Any) -> list[list[str]]:
    return page.evaluate(
        "[...document.querySelectorAll('#k-sheet tbody tr')].map(r => [...r.cells].slice(1).map(c => c.textContent))"
    )


def test_a_whole_meitora_match_at_phone_size(phone: Any, tmp_path: Path) -> None:
    page = phone
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "meitora-setup.png"), full_page=True)
    setup(page, "meitora", 4, ["Aki", "Bo", "Chie", "Dai"], target="10")
    # 1: Aki declares 8♥ and her team takes 9: 3.5 points
    page.select_option("#k-declarer", "0")
    page.select_option("#k-count", "8")
    page.select_option("#k-strain", "H")
    step_to(page, "k-tricks", 9)
    page.screenshot(path=str(SHOTS / "meitora-entry.png"), full_page=True)
    record_deal(page)
    # 2: Chie breaks: a redeal, the first bidder stays
    page.click("[data-kind=broken]")
    page.select_option("#k-broken", "2")
    record_deal(page)
    # a refused deal: a count out of range is impossible from the stepper, so a claim its team
    # did not make good (Bo claims the last 5 tricks but Aki's team took 8)
    page.select_option("#k-declarer", "0")
    page.select_option("#k-count", "7")
    step_to(page, "k-tricks", 8)
    page.select_option("#k-claim", "1")
    step_to(page, "k-claim-after", 5)
    page.click("#k-record")
    page.wait_for_selector("#kmsg:not([hidden])")
    assert "scored.claim" in page.inner_text("#kmsg") and "2" in page.inner_text("#kmsg")
    assert page.evaluate("Keeper.record.deals.length") == 2
    page.select_option("#k-claim", "")
    # 3: a chombo by Bo: 5 to Aki's team
    page.click("[data-kind=chombo]")
    page.select_option("#k-chombo", "1")
    page.fill("#k-reason", "リクエスト違反")
    record_deal(page)
    # 4: Dai declares 7♠ and is set with 5: 2 to Aki's team, 10.5 in all: the match is over
    page.select_option("#k-declarer", "3")
    page.select_option("#k-count", "7")
    page.select_option("#k-strain", "S")
    step_to(page, "k-tricks", 5)
    record_deal(page)
    page.screenshot(path=str(SHOTS / "meitora-sheet.png"), full_page=True)
    page.wait_for_selector("#k-over")
    assert sheet_rows(page) == [["3.5", "0"], ["0", "0"], ["5", "0"], ["2", "0"], ["10.5", "0"]]
    assert "Aki・Chie" in page.inner_text("#k-over")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390  # no sideways scrolling
    out = replay_json(page.evaluate("Keeper.record"), tmp_path)
    assert out["totals"] == [10.5, 0] and out["finished"] and out["winner"] == 0
    assert [d["outcome"] for d in out["deals"]] == ["played", "redeal", "chombo", "played"]
    assert [d["first_bidder"] for d in out["deals"]] == [0, 1, 1, 2]


def test_unsun_and_kakeya_matches_and_the_english_page(phone: Any, tmp_path: Path) -> None:
    page = phone
    page.select_option("#klang", "en")
    page.wait_for_function("document.querySelector('#k-start').textContent === 'Start the match'")
    setup(page, "unsun", 3, ["A", "B", "C"], deals="2")
    for tricks in ([7, 5, 4], [4, 6, 6]):
        for s, v in enumerate(tricks):
            step_to(page, f"k-tricks-{s}", v)
        record_deal(page)
    page.wait_for_selector("#k-over")
    page.screenshot(path=str(SHOTS / "unsun-sheet.png"), full_page=True)
    out = replay_json(page.evaluate("Keeper.record"), tmp_path)
    assert out["totals"] == [11, 11, 10] and out["winner"] == [0, 1] and out["deals_won"] == [1, 1, 1]
    page.click("#k-new")
    setup(page, "kakeya", 4, ["A", "B", "C", "D"])
    page.select_option("#k-trump", "S")
    step_to(page, "k-faces-lead", 12)  # pair 0 leads game 1 and takes 12: 2 chips
    record_deal(page)
    step_to(page, "k-faces-lead", 8)  # 8 – 8: pair 1 was dealt the rensho, pair 0 wins
    page.select_option("#k-rensho", "1")
    page.select_option("#k-trump-ace", "1")  # and the trump ace: 2 chips
    record_deal(page)
    page.screenshot(path=str(SHOTS / "kakeya-sheet.png"), full_page=True)
    step_to(page, "k-faces-lead", 13)  # pair 0 takes 13: pair 1 pays 2 and is out of chips
    record_deal(page)
    page.wait_for_selector("#k-over")
    out = replay_json(page.evaluate("Keeper.record"), tmp_path)
    assert out["totals"] == [11, -1] and out["finished"] and out["winner"] == 0
    assert [d["payment_column"] for d in out["deals"]] == ["plain", "rensho_trump_ace", "plain"]
    assert [d["trump"] for d in out["deals"]] == ["S", "S", "S"]  # carried over as the scorer left it


def test_a_napoleon_match_saved_to_a_club_by_a_signed_in_member(
    phone: Any, server: ServerThread, tmp_path: Path
) -> None:
    page = phone
    request = page.context.request
    r = request.post(server.url + "/api/accounts", data={"name": "Scorer", "password": "a long password"})
    assert r.ok
    club = request.post(server.url + "/api/clubs", data={"name": "Museum"}).json()
    r = request.put(
        server.url + f"/api/clubs/{club['id']}/presets/Museum rules",
        data={"game": "napoleon", "options": {"deals": 1, "yoromeki": True}},
    )
    assert r.ok
    page.reload()
    page.wait_for_selector("#k-preset")  # the club's rules are offered first
    page.select_option("#k-preset", "0")
    assert page.input_value("#k-game") == "napoleon" and page.input_value("#k-deals") == "1"
    for i, name in enumerate(["Scorer", "B", "C", "D", "E"]):
        page.fill(f"#k-name-{i}", name)
    page.click("#k-start")
    page.wait_for_selector("#k-record")
    assert page.evaluate("Keeper.record.options") == {"deals": 1, "yoromeki": True, "players": 5}
    page.select_option("#k-napoleon", "0")
    page.select_option("#k-count", "13")
    page.select_option("#k-suit", "S")
    page.select_option("#k-adjutant", "2")
    for s, v in enumerate([9, 3, 5, 2, 1]):
        step_to(page, f"k-faces-{s}", v)
    record_deal(page)
    page.wait_for_selector("#k-over")
    page.wait_for_selector("#k-save")
    page.screenshot(path=str(SHOTS / "napoleon-save.png"), full_page=True)
    page.check("#k-rated")
    page.click("#k-save")
    page.wait_for_selector("#kmsg.ok:not([hidden])")
    saved = request.get(server.url + f"/api/clubs/{club['id']}/matches").json()
    assert len(saved) == 1 and saved[0]["rated"] and saved[0]["totals"] == [6, -3, 3, -3, -3]
    board = request.get(server.url + f"/api/clubs/{club['id']}/leaderboard?game=napoleon").json()
    assert board[0]["name"] == "Scorer"
    # the session cookie is HttpOnly: the page's script cannot read it
    assert "kf_session" not in page.evaluate("document.cookie")
    assert httpx.get(server.url + "/api/me").status_code == 401


def test_account_login_logout_and_a_seat_from_a_second_browser(browser: Any, server: ServerThread) -> None:
    """Sign up in one browser, keep a seat of an online table, sign in from a second browser
    context: the seat is there, and its link seats the player; signing out ends the session."""
    made = httpx.post(
        server.url + "/api/tables",
        json={
            "game": "unsun",
            "seats": [
                {"kind": "human", "name": "Mika"},
                {"kind": "bot", "bot": "heuristic"},
                {"kind": "bot", "bot": "heuristic"},
                {"kind": "bot", "bot": "heuristic"},
            ],
        },
    ).json()
    link = made["links"][0]
    phone_size = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
    first = browser.new_context(**phone_size)
    page = first.new_page()
    page.goto(server.url + "/keeper")
    page.wait_for_selector("#k-sign-up")
    page.fill("#k-user", "Mika")
    page.fill("#k-password", "short")
    page.click("#k-sign-up")
    page.wait_for_selector("#kmsg:not([hidden])")
    page.fill("#k-password", "a long password")
    page.click("#k-sign-up")
    page.wait_for_selector("#k-me")
    assert "Mika" in page.inner_text("#k-me")
    # the table page (or the player) keeps the seat in the account
    r = page.evaluate(
        """async ([table, link]) => (await fetch('/api/me/seats', {method: 'POST',
        headers: {'Content-Type': 'application/json'}, body: JSON.stringify({table_id: table, seat: 0, link})})).status""",
        [made["id"], link],
    )
    assert r == 200
    second = browser.new_context(**phone_size)
    other = second.new_page()
    other.goto(server.url + "/keeper")
    other.wait_for_selector("#k-sign-in")
    for _ in range(2):  # a wrong password first
        other.fill("#k-user", "Mika")
        other.fill("#k-password", "wrong password")
        other.click("#k-sign-in")
        other.wait_for_selector("#kmsg:not([hidden])")
    other.fill("#k-password", "a long password")
    other.click("#k-sign-in")
    other.wait_for_selector("#k-seats a")
    other.screenshot(path=str(SHOTS / "account-seats.png"), full_page=True)
    other.click("#k-seats a")
    other.wait_for_function("typeof Table !== 'undefined' && Table.frame && Table.frame.view", timeout=20000)
    assert other.evaluate("Table.frame.view.seat") == 0  # seated as Mika, not as a spectator
    assert other.url.endswith(f"/t/{made['id']}")  # (the page takes the token out of the address)
    # signing out in the first browser leaves the second signed in; signing out everywhere does not
    page.click("#k-sign-out")
    page.wait_for_selector("#k-sign-in")
    other.goto(server.url + "/keeper")
    other.wait_for_selector("#k-me")
    other.click("#k-sign-out-all")
    other.wait_for_selector("#k-sign-in")
    assert other.evaluate("fetch('/api/me').then(r => r.status)") == 401
    first.close()
    second.close()


def test_a_session_expires_in_the_browser(browser: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KIRIFUDA_SESSION_TTL", "2")
    with ServerThread(f"sqlite+aiosqlite:///{tmp_path / 'short.db'}", bot_delay=0.0, deal_secret="3") as srv:
        context = browser.new_context(viewport={"width": 390, "height": 844})
        page = context.new_page()
        page.goto(srv.url + "/keeper")
        page.wait_for_selector("#k-sign-up")
        page.fill("#k-user", "Brief")
        page.fill("#k-password", "a long password")
        page.click("#k-sign-up")
        page.wait_for_selector("#k-me")
        page.wait_for_timeout(2500)
        page.reload()
        page.wait_for_selector("#k-sign-in")  # the session has expired: signed out
        context.close()


def test_an_online_table_saved_to_a_club_rates_its_bots_and_its_members(browser: Any, server: ServerThread) -> None:
    context = browser.new_context()
    request = context.request
    assert request.post(server.url + "/api/accounts", data={"name": "Rin", "password": "a long password"}).ok
    club = request.post(server.url + "/api/clubs", data={"name": "Online club"}).json()
    bots = httpx.post(
        server.url + "/api/tables",
        json={
            "game": "unsun",
            "options": {"deals": 1},
            "seats": [
                {"kind": "bot", "bot": "search"},
                {"kind": "bot", "bot": "heuristic"},
                {"kind": "bot", "bot": "random"},
                {"kind": "bot", "bot": "heuristic"},
            ],
        },
    ).json()
    mine = httpx.post(
        server.url + "/api/tables",
        json={
            "game": "unsun",
            "options": {"deals": 1},
            "seats": [
                {"kind": "human", "name": "guest name"},
                {"kind": "bot", "bot": "heuristic"},
                {"kind": "bot", "bot": "heuristic"},
                {"kind": "bot", "bot": "heuristic"},
            ],
        },
    ).json()
    r = request.post(server.url + f"/api/clubs/{club['id']}/tables/{mine['id']}", data={"rated": True})
    assert r.status == 409  # not over, and no seat named as abandoning
    assert request.post(
        server.url + "/api/me/seats", data={"table_id": mine["id"], "seat": 0, "link": mine["links"][0]}
    ).ok
    r = request.post(
        server.url + f"/api/clubs/{club['id']}/tables/{mine['id']}", data={"rated": True, "abandoned_by": 0}
    )
    assert r.ok, r.text()
    for _ in range(200):
        if httpx.get(server.url + f"/api/tables/{bots['id']}").json()["over"]:
            break
        time.sleep(0.1)
    r = request.post(server.url + f"/api/clubs/{club['id']}/tables/{bots['id']}", data={"rated": True})
    assert r.ok, r.text()
    saved = request.get(server.url + f"/api/clubs/{club['id']}/matches").json()
    assert saved[0]["players"][0] == "Rin"  # the seat kept in Rin's account is Rin's
    assert saved[1]["players"] == ["search:normal", "heuristic", "random", "heuristic"]
    board = {
        row["name"]: row for row in request.get(server.url + f"/api/clubs/{club['id']}/leaderboard?game=unsun").json()
    }
    assert board["Rin"]["mu"] < 25  # abandoned: a loss
    assert {"search:normal", "random", "heuristic"} <= set(board)
    context.close()
