"""Practice tables in the browser (Chromium through Playwright), in English and Japanese: made
from the lobby with a deal kind; at the table, undo (the very view of before back) and the deal
played again; the panel's words from the catalogue; axe-core finds nothing serious."""

from __future__ import annotations

import re
from typing import Any

import pytest

from ..conftest import ServerThread
from .test_table import DESKTOP, PHONE, axe, context, frame, shot

JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


SERVER_OPTIONS = {"bot_delay": 2.0, "deal_secret": "7"}
"""The bots wait 2 s before answering: time to take a bid back before they do (the shared
``server`` fixture, tests/conftest.py)."""


@pytest.mark.parametrize("lang,size", [("en", DESKTOP), ("ja", PHONE)])
def test_practice_from_the_lobby_undo_and_again(
    server: ServerThread, browser: Any, lang: str, size: dict[str, int]
) -> None:
    ctx = context(browser, size, lang)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.url + "/")
    page.wait_for_selector("#practice")
    page.check("#practice")
    assert page.locator("#hints").is_disabled() and page.locator("#hints").is_checked()
    page.wait_for_function("document.querySelectorAll('#practice-kind option').length > 1")
    page.select_option("#practice-kind", "should_bid")
    # two human seats: said in the page's language before anything is asked of the server
    page.select_option('#seats select[data-seat="1"]', "human")
    page.click("#create")
    page.wait_for_selector("#toast:not([hidden])")
    toast = page.locator("#toast").inner_text()
    assert ("ちょうど 1 つ" in toast) if lang == "ja" else ("exactly one human seat" in toast), toast
    page.select_option('#seats select[data-seat="1"]', "bot:heuristic")
    shot(page, f"practice-lobby-{lang}")
    page.click("#create")
    page.wait_for_selector('#created a[data-seat="0"]')
    page.click('#created a[data-seat="0"]')
    page.wait_for_function(
        "Table.frame !== null && Table.frame.table.practice && Table.frame.version >= 1", timeout=20000
    )
    assert page.evaluate("Table.frame.table.practice") == {"seat": 0, "kind": "should_bid"}
    page.wait_for_function(
        "Table.frame.legal.length > 0 && Table.frame.view.to_act === Table.frame.seat", timeout=30000
    )
    page.wait_for_selector("#practice-panel #practice-why:not(:empty)")
    panel = page.locator("#practice-panel").inner_text()
    assert bool(JAPANESE.search(panel)) == (lang == "ja"), panel
    assert ("取り消し" in panel) if lang == "ja" else ("Undo" in panel)
    shot(page, f"practice-table-{lang}")
    axe(page, f"practice table ({lang})")
    before = frame(page)
    # the first bid; then, before the bots answer, take it back: the very view of before
    page.locator("#controls [data-act]").last.click()
    page.wait_for_function(f"Table.frame.version > {before['version']}")
    page.wait_for_function(
        "Practice.status && Practice.status.version === Table.frame.version && Practice.status.undo.allowed"
    )
    page.click('[data-practice="undo"]')
    page.wait_for_function(f"Table.frame.version > {before['version'] + 1} && Table.frame.view.to_act === 0")
    after = frame(page)
    assert after["view"] == before["view"] and after["legal"] == before["legal"] and after["hand"] == before["hand"]
    # the deal again from its start: the same hand
    page.wait_for_function("Practice.status && Practice.status.version === Table.frame.version")
    page.click('[data-practice="again"]')
    page.wait_for_function(f"Table.frame.version > {after['version']}")
    assert frame(page)["hand"] == before["hand"]
    assert not errors, errors
    ctx.close()
