"""The browser client, driven by Playwright in Debian's Chromium (never a downloaded browser).

A whole deal of every game through the page against bots; two humans in two browser contexts;
a reload in the middle of a trick; the phone layout.  Skipped, saying why, only where
``/usr/bin/chromium`` (``apt-get install chromium``) or the ``playwright`` package is missing.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from kirifuda.games import GAMES

from ..browsing import CHROMIUM
from .conftest import ServerThread


sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")
if not os.path.exists(CHROMIUM):
    pytest.skip(
        f"browser tests skipped: no Chromium at {CHROMIUM} (apt-get install -y chromium)", allow_module_level=True
    )


SERVER_OPTIONS = {"deal_secret": "7"}
"""Over the shared ``server`` fixture's (tests/conftest.py): this module's deal secret."""


def new_table(
    server: ServerThread, game: str, humans: set[int], options: dict[str, Any] | None = None
) -> dict[str, Any]:
    info = GAMES[game]
    n = info.new_state(info.options(options or {})).num_players
    seats = [
        {"kind": "human", "name": f"P{s}"} if s in humans else {"kind": "bot", "bot": "heuristic"} for s in range(n)
    ]
    r = httpx.post(server.url + "/api/tables", json={"game": game, "seats": seats, "options": options or {}})
    assert r.status_code == 200, r.text
    return r.json()  # type: ignore[no-any-return]


def frame(page: Any) -> Any:
    return page.evaluate(
        "Table.frame && {version: Table.frame.version, view: Table.frame.view, hand: Table.frame.hand, legal: Table.frame.legal, over: Table.frame.table.over}"
    )


def wait_my_turn_or(page: Any, done: str) -> None:
    page.wait_for_function(f"Table.frame && ((Table.frame.legal.length > 0) || ({done}))", timeout=20000)


def act_once(page: Any) -> None:
    """Take one legal decision through the page's controls, as a player would."""
    if page.locator("#overlay:not([hidden]) .choices button").count():
        page.locator("#overlay .choices button").first.click()
        return
    if page.locator("#overlay:not([hidden])").count():
        page.locator("#close").click()
    bids = page.locator("#controls button.bid")
    if bids.count():
        bids.first.click()
        return
    if page.locator("#hand .card.legal").count():
        page.locator("#hand .card.legal").first.click()
        if page.locator("#discard").count():
            need = len([e for e in frame(page)["legal"] if "discard" in e["action"]][0]["action"]["discard"])
            cards = page.locator("#hand .card.legal:not(.sel)")
            while page.locator("#hand .card.sel").count() < need:
                cards.first.click()
            page.locator("#discard").click()
        return
    buttons = page.locator("#controls [data-act]:not(.claim)")
    buttons.first.click()


def open_seat(page: Any, server: ServerThread, link: str) -> None:
    page.goto(server.url + link)
    page.wait_for_function("Table.frame !== null && Table.frame.version >= 1", timeout=20000)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_whole_deal_through_the_page(server: ServerThread, browser: Any, game: str) -> None:
    made = new_table(server, game, {0})
    page = browser.new_page(viewport={"width": 1100, "height": 900}, locale="en-US")
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    open_seat(page, server, made["links"][0])
    assert "#token" not in page.url  # the token leaves the address bar
    for _ in range(200):
        wait_my_turn_or(page, "Table.frame.view.deal_number >= 1 || Table.frame.table.over")
        f = frame(page)
        if f["view"]["deal_number"] >= 1 or f["over"]:
            break
        before = f["version"]
        act_once(page)
        page.wait_for_function(
            f"Table.frame.version > {before} || document.querySelector('#overlay:not([hidden])')", timeout=20000
        )
    f = frame(page)
    assert f["view"]["deal_number"] >= 1 or f["over"]
    # the deal's result with every hand face up
    page.wait_for_selector("#overlay:not([hidden]) .handrow")
    assert page.locator("#overlay .handrow").count() == len(f["view"]["hand_sizes"])
    page.locator("#close").click()
    page.locator('[data-tool="sheet"]').click()
    assert page.locator("#overlay table.sheet tr").count() >= 3
    assert not errors, errors
    page.close()


def test_two_humans_in_two_browsers(server: ServerThread, browser: Any) -> None:
    made = new_table(server, "meitora", {0, 1})
    ctx = [browser.new_context(viewport={"width": 1000, "height": 800}, locale=loc) for loc in ("en-US", "ja-JP")]
    pages = [c.new_page() for c in ctx]
    for s in (0, 1):
        open_seat(pages[s], server, made["links"][s])
    assert pages[1].evaluate("document.documentElement.lang") == "ja"  # the browser's language
    hands = [set(frame(p)["hand"]) for p in pages]
    assert len(hands[0]) == 10 and len(hands[1]) == 10 and not hands[0] & hands[1]
    # each sees the other connected
    pages[0].wait_for_selector('.seatbadge[data-seat="1"] .dot.on')
    # the server's table is the truth of whose turn it is: a page's frame may lag behind it
    table = server.app.state.manager.tables[made["id"]]

    def human_turn_or_next_deal(timeout: float = 30) -> bool:
        """Wait until a human seat is to act (True) or the first deal is over (False)."""
        deadline = time.time() + timeout
        while True:
            if table.state.view(None).deal_number >= 1:
                return False
            if table.state.to_act in (0, 1) and not table.lock.locked():
                return True
            assert time.time() < deadline, "no human's turn came"
            time.sleep(0.02)

    moves = 0
    while moves < 8 and human_turn_or_next_deal():
        to_act, version = table.state.to_act, table.version
        page = pages[to_act]
        page.wait_for_function(f"Table.frame.version >= {version} && Table.frame.legal.length > 0", timeout=30000)
        act_once(page)
        pages[1 - to_act].wait_for_function(f"Table.frame.version > {version}", timeout=30000)
        moves += 1
    assert moves >= 2
    # never the other's hand: the page holds only its own cards
    for s, p in enumerate(pages):
        f = frame(p)
        assert f["view"]["seat"] == s
        assert set(f["hand"]) == {c for c in f["view"]["hand"]}
        other = frame(pages[1 - s])["hand"]
        assert not set(other) & set(p.locator("#hand .card").evaluate_all("els => els.map(e => e.dataset.code)"))
    for c in ctx:
        c.close()


def test_reload_in_the_middle_of_a_trick(server: ServerThread, browser: Any) -> None:
    made = new_table(server, "meitora", {0})
    page = browser.new_page(viewport={"width": 1000, "height": 800})
    open_seat(page, server, made["links"][0])
    for _ in range(120):
        wait_my_turn_or(page, "false")  # our turn: the bots wait for us
        f = frame(page)
        trick = f["view"].get("trick")
        if trick and trick["cards"] and f["legal"]:
            break
        before = f["version"]
        act_once(page)
        page.wait_for_function(f"Table.frame.version > {before}", timeout=20000)
    before = frame(page)
    assert before["view"]["trick"]["cards"]
    page.reload()
    page.wait_for_function(f"Table.frame !== null && Table.frame.version >= {before['version']}", timeout=20000)
    after = frame(page)
    assert after["version"] == before["version"]  # the human is to act: nothing moved
    assert after["hand"] == before["hand"] and after["view"]["trick"] == before["view"]["trick"]
    assert page.locator("#hand .card.legal").count() == len({e["action"].get("play") for e in after["legal"]} - {None})
    assert page.locator(".tcard").count() == len(before["view"]["trick"]["cards"])
    page.close()


def test_phone_layout(server: ServerThread, browser: Any) -> None:
    made = new_table(server, "meitora", {0})
    ctx = browser.new_context(
        viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True, has_touch=True, locale="ja-JP"
    )
    page = ctx.new_page()
    page.goto(server.url + "/")
    page.wait_for_selector("#create")
    assert page.evaluate("document.scrollingElement.scrollWidth") <= 391
    open_seat(page, server, made["links"][0])
    page.wait_for_selector("#hand .card")
    assert page.evaluate("document.scrollingElement.scrollWidth") <= 391
    boxes = page.locator("#hand .card").evaluate_all(
        "els => els.map(e => e.getBoundingClientRect()).map(r => [r.left, r.right, r.width])"
    )
    assert len(boxes) == 10
    assert all(left >= -1 and right <= 391 and width >= 40 for left, right, width in boxes)
    for s in range(4):
        box = page.locator(f'.seatbadge[data-seat="{s}"]').bounding_box()
        assert box and box["x"] >= -1 and box["x"] + box["width"] <= 391
    page.screenshot(path=str(Path(os.environ.get("KIRIFUDA_SHOTS", "/tmp")) / "kirifuda-phone.png"))
    ctx.close()


def test_after_the_match_replay_download_and_upload(server: ServerThread, browser: Any, tmp_path: Path) -> None:
    from kirifuda import record as records

    made = new_table(server, "meitora", set(), options={"target": 1})
    import time

    deadline = time.time() + 30
    while not httpx.get(f"{server.url}/api/tables/{made['id']}").json()["over"]:
        assert time.time() < deadline
        time.sleep(0.05)
    text = httpx.get(f"{server.url}/api/tables/{made['id']}/record").text
    assert records.replay(records.loads(text)).is_over
    page = browser.new_page(viewport={"width": 1000, "height": 800}, locale="en-US")
    page.goto(server.url + made["watch"])
    page.wait_for_selector("#overlay:not([hidden]) a[href^='/replay']")
    with page.expect_download() as dl:
        page.locator("#overlay a[download]").click()
    assert Path(dl.value.path()).read_text(encoding="utf-8") == text  # exactly the record
    page.locator("#overlay a[href^='/replay']").click()
    page.wait_for_selector("#steplabel")
    first = page.locator("#steplabel").inner_text()
    assert page.locator(".handrow").count() == 4  # every hand face up
    page.locator('[data-go="next"]').click()
    assert page.locator("#steplabel").inner_text() != first
    page.locator('[data-go="last"]').click()
    n = len(records.loads(text).deals)
    assert f"Deal {n}" in page.locator("#steplabel").inner_text()
    # a record file opened from the lobby goes to the viewer; a bad one is refused, saying why
    good = tmp_path / "match.json"
    good.write_text(text, encoding="utf-8")
    page.goto(server.url + "/")
    page.set_input_files("#upload", str(good))
    page.wait_for_selector("#steplabel")
    assert page.url.endswith("/replay")
    bad = tmp_path / "bad.json"
    bad.write_text(text.replace('"format": "kirifuda-record/1"', '"format": "nope"'), encoding="utf-8")
    page.goto(server.url + "/")
    page.set_input_files("#upload", str(bad))
    page.wait_for_selector("#toast:not([hidden])")
    assert "format" in page.locator("#toast").inner_text()
    page.close()
