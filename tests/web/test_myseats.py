"""A signed-in player's seat is theirs from any device (issue #29): the seat taken with an
invitation link in one browser appears as "your seat" in the lobby of another browser signed in
to the same account, and opening it there takes the seat; a guest's seat is kept nowhere."""

from __future__ import annotations

from typing import Any

import httpx

from ..conftest import ServerThread
from .test_table import DESKTOP, context, frame

PASSWORD = "a long enough password"
SERVER_OPTIONS = {"deal_secret": "5"}


def _base(server: ServerThread) -> str:
    return f"http://localhost:{server.port}"  # the account's cookie is Secure: localhost is a secure context


def _signed_in(browser: Any, server: ServerThread, name: str, *, new: bool) -> tuple[Any, Any]:
    ctx = context(browser, DESKTOP, "en")
    page = ctx.new_page()
    page.goto(_base(server) + "/")
    page.wait_for_selector("#kf-name")
    page.fill("#kf-name", name)
    page.fill("#kf-password", PASSWORD)
    page.click("#kf-sign-up" if new else "#kf-sign-in")
    page.wait_for_selector("#kf-sign-out")
    return ctx, page


def _table(server: ServerThread) -> tuple[str, str]:
    seats = [{"kind": "human", "name": "Aoi"}] + [{"kind": "bot", "bot": "random"}] * 3
    r = httpx.post(server.url + "/api/tables", json={"game": "meitora", "seats": seats})
    assert r.status_code == 200, r.text
    made = r.json()
    return made["id"], made["links"][0]


def test_a_seat_taken_in_one_browser_is_yours_in_another(server: ServerThread, browser: Any) -> None:
    table, link = _table(server)
    first, page = _signed_in(browser, server, "Aoi", new=True)
    page.goto(_base(server) + link)
    page.wait_for_function("Table.frame !== null", timeout=20000)
    assert frame(page)["seat"] == 0
    page.wait_for_function(f"localStorage.getItem('kf:kept:{table}:0') !== null", timeout=30000)
    first.close()

    second, page = _signed_in(browser, server, "Aoi", new=False)  # another device: no local token
    page.wait_for_selector(f'.tablelink[data-id="{table}"] ~ .tag.mine', timeout=30000)
    page.locator(f'.tablelink[data-id="{table}"]').click()
    page.wait_for_function("Table.frame !== null", timeout=20000)
    assert frame(page)["seat"] == 0
    assert page.locator('.seatbadge[data-seat="0"].me').count() == 1
    second.close()


def test_a_guest_s_seat_is_kept_nowhere(server: ServerThread, browser: Any) -> None:
    table, link = _table(server)
    ctx = context(browser, DESKTOP, "en")
    page = ctx.new_page()
    page.goto(_base(server) + link)
    page.wait_for_function("Table.frame !== null", timeout=20000)
    assert frame(page)["seat"] == 0
    page.wait_for_timeout(500)
    assert page.evaluate(f"localStorage.getItem('kf:kept:{table}:0')") is None
    ctx.close()
