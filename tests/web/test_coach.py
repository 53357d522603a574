"""The coach in the browser: the hint at your turn (shown, never played) and the review of a
finished deal, through Debian's Chromium (Playwright), in English and Japanese."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from ..conftest import ServerThread
from .test_table import DESKTOP, PHONE, axe, context, frame, open_seat, shot

JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


SERVER_OPTIONS = {"deal_secret": "11"}
"""Over the shared ``server`` fixture's (tests/conftest.py): this module's deal secret."""


def make(url: str, humans: set[int], **body: Any) -> dict[str, Any]:
    seats = [
        {"kind": "human", "name": f"P{s}"} if s in humans else {"kind": "bot", "bot": "heuristic", "name": f"B{s}"}
        for s in range(4)
    ]
    r = httpx.post(url + "/api/tables", json={"game": "meitora", "seats": seats, **body})
    assert r.status_code == 200, r.text
    return r.json()  # type: ignore[no-any-return]


def my_turn(page: Any) -> None:
    page.wait_for_function(
        "Table.frame && Table.frame.legal.length > 0 && Table.frame.view.to_act === Table.frame.seat", timeout=30000
    )


@pytest.mark.parametrize("lang,size", [("en", DESKTOP), ("ja", PHONE)])
def test_the_hint_shows_a_legal_suggestion_and_its_reason(
    server: ServerThread, browser: Any, lang: str, size: dict[str, int]
) -> None:
    made = make(server.url, {0})
    ctx = context(browser, size, lang)
    page = ctx.new_page()
    open_seat(page, server.url, made["links"][0])
    my_turn(page)
    page.wait_for_selector('.toolbar [data-tool="hint"]')
    button = page.locator('.toolbar [data-tool="hint"]')
    assert button.inner_text() == ("ヒント" if lang == "ja" else "Hint")
    before = frame(page)
    # by the keyboard: the button takes the focus and Enter asks
    button.focus()
    page.keyboard.press("Enter")
    page.wait_for_selector("#coach .reason", timeout=30000)
    hint = page.evaluate("Table.coach.data.hint")
    after = frame(page)
    assert after["version"] == before["version"]  # nothing was played for the player
    assert hint["action"] in [e["action"] for e in after["legal"]]
    reason = page.locator("#coach .reason").inner_text()
    assert reason.strip()
    assert bool(JAPANESE.search(reason)) == (lang == "ja"), reason
    assert page.locator(".suggested").count() >= 1  # the suggested card or button stands out
    if "play" in hint["action"]:
        assert page.locator(f'#hand .card.suggested[data-code="{hint["action"]["play"]}"]').count() == 1
    panel = page.locator("#coach").inner_text()
    assert ("おすすめ" in panel) if lang == "ja" else ("Suggested" in panel)
    page.wait_for_function("document.querySelector('#live').textContent.length > 0")
    live = page.locator("#live").inner_text()
    assert reason.strip()[:20] in live, (live, reason)
    assert page.evaluate("document.activeElement.dataset.tool") == "hint"  # the focus stays
    assert page.locator("#overlay").is_hidden()
    page.locator("#coach .reason").scroll_into_view_if_needed()
    shot(page, f"coach-hint-{'phone' if size is PHONE else 'desktop'}-{lang}")
    if lang == "en":
        axe(page, "hint panel")
    # the panel closes; the player then plays whatever they like
    page.locator("#coach [data-coach-close]").click()
    assert page.locator("#coach").count() == 0
    ctx.close()


def test_no_hint_button_where_the_table_forbids_hints(server: ServerThread, browser: Any) -> None:
    # the lobby's option, unticked, goes to the server as "hints": false
    ctx = context(browser, DESKTOP, "en")
    page = ctx.new_page()
    page.goto(server.url + "/")
    page.wait_for_selector("#create")
    page.locator('input[name="game"][value="meitora"]').check()
    assert page.locator("#hints").is_checked()
    page.locator("#hints").uncheck()
    page.locator("#create").click()
    page.wait_for_selector("#created .invite")
    table = page.evaluate("Lobby.created.id")
    assert httpx.get(f"{server.url}/api/tables/{table}/coach").json()["hints"] is False
    with page.expect_response(lambda r: r.url.endswith(f"/api/tables/{table}/coach"), timeout=20000):
        page.locator('#created a[data-seat="0"]').click()  # the page reads the table's coach setting
    page.wait_for_function("Table.frame !== null", timeout=20000)
    my_turn(page)
    assert page.locator('[data-tool="hint"]').count() == 0
    # and a table allowing them shows the button at the same point
    made = make(server.url, {0}, hints=True)
    open_seat(page, server.url, made["links"][0])
    my_turn(page)
    page.wait_for_selector('.toolbar [data-tool="hint"]')
    ctx.close()


def test_the_review_of_a_finished_deal(server: ServerThread, browser: Any) -> None:
    made = make(server.url, set(), options={"target": 1})
    deadline = time.time() + 60
    while not httpx.get(f"{server.url}/api/tables/{made['id']}").json()["over"]:
        assert time.time() < deadline
        time.sleep(0.05)
    for lang, size in (("en", DESKTOP), ("ja", PHONE)):
        ctx = context(browser, size, lang)
        page = ctx.new_page()
        page.goto(server.url + made["watch"])
        page.wait_for_selector("#overlay:not([hidden]) .winner")
        page.locator("#overlay [data-review]").click()
        page.wait_for_selector("#overlay .seatreview", timeout=60000)
        assert page.locator("#overlay .seatreview").count() == 4
        text = page.locator("#overlay").inner_text()
        assert (
            ("検討" in text and "まとめ" in text)
            if lang == "ja"
            else ("Review of deal 1" in text and "Summary" in text)
        )
        assert bool(JAPANESE.search(page.locator("#overlay .seatreview").first.inner_text())) == (lang == "ja")
        rev = httpx.get(f"{server.url}/api/tables/{made['id']}/review", params={"lang": lang}).json()
        costly = [m for m in rev["review"]["deals"][0]["marks"] if m["loss"] > 0 and m["best"]]
        assert page.locator("#overlay table.costly tr td:first-child").count() == len(costly)
        shot(page, f"coach-review-{'phone' if size is PHONE else 'desktop'}-{lang}")
        if lang == "en":
            axe(page, "review")
        # the replay viewer reviews a table's finished deal too
        page.goto(f"{server.url}/replay?table={made['id']}")
        page.wait_for_selector("#steplabel")
        page.locator('[data-go="last"]').click()
        page.locator(".toolbar [data-review]").click()
        page.wait_for_selector("#overlay .seatreview", timeout=60000)
        assert page.locator("#overlay .seatreview").count() == 4
        ctx.close()


def test_the_page_holds_no_coach_words_of_its_own() -> None:
    source = (Path(__file__).resolve().parents[2] / "kirifuda" / "server" / "static" / "app.js").read_text("utf-8")
    assert "/hint`" in source and "/review?" in source
    assert not JAPANESE.search(source)


def test_a_card_hint_marks_the_card_and_goes_when_the_player_acts(server: ServerThread, browser: Any) -> None:
    from .test_table import act_once

    made = make(server.url, {0})
    ctx = context(browser, DESKTOP, "en")
    page = ctx.new_page()
    open_seat(page, server.url, made["links"][0])
    for _ in range(40):
        my_turn(page)
        if frame(page)["view"]["phase"] == "play":
            break
        before = frame(page)["version"]
        act_once(page)
        page.wait_for_function(f"Table.frame.version > {before} || !document.querySelector('#overlay').hidden")
        if page.locator("#overlay:not([hidden])").count():
            act_once(page)
    assert frame(page)["view"]["phase"] == "play"
    page.locator('.toolbar [data-tool="hint"]').click()
    page.wait_for_selector("#coach .reason", timeout=30000)
    card = page.evaluate("Table.coach.data.hint.action.play")
    assert page.locator(f'#hand .card.suggested[data-code="{card}"]').count() == 1
    assert page.locator('[data-tool="hint"]').get_attribute("aria-expanded") == "true"
    shot(page, "coach-hint-desktop-en-play")
    before = frame(page)["version"]
    page.locator(f'#hand .card.suggested[data-code="{card}"]').click()
    page.wait_for_function(f"Table.frame.version > {before}")
    assert page.locator("#coach").count() == 0 or page.evaluate("Table.coach.version") == frame(page)["version"]
    assert page.locator("#hand .card.suggested").count() == 0 or page.locator("#coach").count() == 1
    ctx.close()


def test_an_uploaded_record_is_reviewed_in_the_replay_viewer(
    server: ServerThread, browser: Any, tmp_path: Path
) -> None:
    made = make(server.url, set(), options={"target": 1})
    deadline = time.time() + 60
    while not httpx.get(f"{server.url}/api/tables/{made['id']}").json()["over"]:
        assert time.time() < deadline
        time.sleep(0.05)
    path = tmp_path / "match.json"
    path.write_text(httpx.get(f"{server.url}/api/tables/{made['id']}/record").text, encoding="utf-8")
    ctx = context(browser, DESKTOP, "ja")
    page = ctx.new_page()
    page.goto(server.url + "/")
    page.wait_for_selector("#upload")
    page.locator("#upload").set_input_files(str(path))
    page.wait_for_selector("#steplabel")
    page.locator('[data-go="last"]').click()
    page.locator(".toolbar [data-review]").click()
    page.wait_for_selector("#overlay .seatreview", timeout=60000)
    assert page.locator("#overlay .seatreview").count() == 4
    assert "第1回の検討" in page.locator("#overlay h3").inner_text()
    ctx.close()
