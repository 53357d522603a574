"""The clubs' part of the lobby (static/clubs.js) in Debian's Chromium, driven by Playwright:
a passkey registered and used to sign in through Chromium's virtual authenticator (CDP
``WebAuthn.addVirtualAuthenticator``); the member's clubs' presets offered first; a rated club
table created, listed with its tag in the lobby and in the club's tab, taken by the signed-in
member with no Hint button; a review opened from a match of the profile; both languages, at
desktop and phone sizes, axe-core finding no serious violation."""

from __future__ import annotations

import json
import os
import random
from pathlib import Path
from typing import Any, Iterator

import httpx
import pytest

from kirifuda import record as records
from kirifuda.bots import make_bot
from kirifuda.games import GAMES
from kirifuda.server import messages

from .. import browsing
from ..browsing import CHROMIUM, FLAGS, axe
from ..server.conftest import ServerThread
from .helpers import PASSWORD, Player

SHOTS = Path(os.environ.get("KIRIFUDA_SHOTS", "/tmp/kirifuda-clubs-shots"))

sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")
if not os.path.exists(CHROMIUM):
    pytest.skip(
        f"browser tests skipped: no Chromium at {CHROMIUM} (apt-get install -y chromium)", allow_module_level=True
    )


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    db = tmp_path_factory.mktemp("clubs") / "kirifuda.db"
    with ServerThread(f"sqlite+aiosqlite:///{db}", bot_delay=0.0, grace=60, deal_secret="5") as srv:
        yield srv


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        yield b
        b.close()


def base(srv: ServerThread) -> str:
    return f"http://localhost:{srv.port}"  # a passkey's relying party is a domain, not an address


def open_page(browser: Any, srv: ServerThread, *, phone: bool = False, lang: str = "en") -> tuple[Any, Any, list[str]]:
    size = {"width": 390, "height": 844} if phone else {"width": 1280, "height": 900}
    context = browser.new_context(
        viewport=size, is_mobile=phone, has_touch=phone, locale="ja-JP" if lang == "ja" else "en-US"
    )
    context.add_init_script(f"localStorage.setItem('kf:lang', '{lang}')")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(base(srv) + "/")
    page.wait_for_selector("#clubs")
    return context, page, errors


def sign_up_in_page(page: Any, name: str) -> None:
    page.fill("#kf-name", name)
    page.fill("#kf-password", PASSWORD)
    page.click("#kf-sign-up")
    page.wait_for_selector("#kf-sign-out")


def shot(page: Any, name: str) -> None:
    browsing.shot(page, SHOTS, name, full_page=True)


@pytest.mark.parametrize(
    "lang, name, words", [("ja", "ボット 1", "ボットの名前"), ("en", "Ｈｅｕｒｉｓｔｉｃ", "a bot's")]
)
def test_a_name_that_would_pass_for_a_bot_s_is_refused_in_words(
    browser: Any, server: ServerThread, lang: str, name: str, words: str
) -> None:
    context, page, errors = open_page(browser, server, lang=lang)
    page.fill("#kf-name", name)
    page.fill("#kf-password", PASSWORD)
    page.click("#kf-sign-up")
    page.wait_for_function(f"document.querySelector('#toast').textContent.includes({words!r})", timeout=20000)
    assert page.locator("#kf-sign-out").count() == 0 and not errors, errors
    context.close()


def test_a_passkey_is_registered_and_signs_in(browser: Any, server: ServerThread) -> None:
    context, page, errors = open_page(browser, server)
    cdp = context.new_cdp_session(page)
    cdp.send("WebAuthn.enable")
    auth = cdp.send(
        "WebAuthn.addVirtualAuthenticator",
        {
            "options": {
                "protocol": "ctap2",
                "transport": "internal",
                "hasResidentKey": True,
                "hasUserVerification": True,
                "isUserVerified": True,
                "automaticPresenceSimulation": True,
            }
        },
    )["authenticatorId"]
    assert page.is_visible("#kf-pk-login")  # the browser offers passkeys: the page does
    sign_up_in_page(page, "Kei")
    page.click("#kf-pk-add")
    added = messages.catalogue("en")["web.clubs.passkey_added"]
    page.wait_for_function(f"document.querySelector('#toast').textContent === '{added}'")
    creds = cdp.send("WebAuthn.getCredentials", {"authenticatorId": auth})["credentials"]
    assert len(creds) == 1 and creds[0]["isResidentCredential"]
    page.click("#kf-sign-out")
    page.wait_for_selector("#kf-pk-login")
    assert page.evaluate("fetch('/api/me').then(r => r.status)") == 401
    page.click("#kf-pk-login")  # no name, no password: the passkey says who
    page.wait_for_selector("#kf-sign-out")
    assert page.evaluate("fetch('/api/me').then(r => r.json())")["name"] == "Kei"
    assert cdp.send("WebAuthn.getCredentials", {"authenticatorId": auth})["credentials"][0]["signCount"] >= 1
    # a replayed answer (same challenge) is refused in words, and nothing signs in
    page.click("#kf-sign-out")
    page.wait_for_selector("#kf-pk-login")
    r = page.evaluate("""async () => {
        const o = await (await fetch('/api/passkeys/login/options', {method: 'POST'})).json();
        const body = JSON.stringify({flow: o.flow, credential: {id: 'nope', rawId: 'nope', type: 'public-key', response: {}}});
        const first = await fetch('/api/passkeys/login', {method: 'POST', headers: {'Content-Type': 'application/json'}, body});
        const again = await fetch('/api/passkeys/login', {method: 'POST', headers: {'Content-Type': 'application/json'}, body});
        return [first.status, (await first.json()).detail, again.status, (await again.json()).detail];
    }""")
    assert r[0] == 401 and "not registered" in r[1] and r[2] == 400 and "expired" in r[3]
    assert errors == []
    context.close()


def _profile_match(players: list[str]) -> dict[str, Any]:
    """A one-deal match played card by card by bots, under the given players' names."""
    info = GAMES["unsun"]
    state = info.new_state(info.options({"deals": 1}))
    bots = [make_bot("heuristic", "unsun") for _ in range(state.num_players)]
    rng = random.Random(3)
    state.deal_random(rng)
    while not state.is_over:
        seat = state.to_act
        assert seat is not None
        state.apply(bots[seat].choose(state.view(seat), rng), seat)
    return json.loads(records.dumps(records.from_state(state, players=players)))


@pytest.mark.parametrize("lang,phone", [("en", False), ("ja", True)])
def test_presets_first_a_rated_table_and_review_links(
    browser: Any, server: ServerThread, lang: str, phone: bool
) -> None:
    member = f"Mio{lang}"
    admin = Player(server.url, f"Admin{lang}")
    club = admin.call("POST", "/api/clubs", json={"name": f"KIT {lang}"})["id"]
    admin.call("PUT", f"/api/clubs/{club}/presets/KIT 2002 rules", json={"game": "meitora", "options": {"target": 11}})
    context, page, errors = open_page(browser, server, phone=phone, lang=lang)
    sign_up_in_page(page, member)
    admin.call("POST", f"/api/clubs/{club}/members", json={"name": member})
    admin.call(
        "POST",
        f"/api/clubs/{club}/matches",
        json={"record": _profile_match([member, f"Admin{lang}", "heuristic", "heuristic"]), "rated": True},
    )
    page.reload()
    page.wait_for_selector("#kf-sign-out")
    # the club's preset is offered first, and choosing it sets the game and its rules
    groups = page.eval_on_selector_all("#kf-preset optgroup", "gs => gs.map(g => g.label)")
    assert groups[0] == f"KIT {lang}" and len(groups) == 2
    first = page.eval_on_selector("#kf-preset optgroup", "g => g.querySelector('option').textContent")
    assert first == "KIT 2002 rules"
    page.select_option("#kf-preset", label="KIT 2002 rules")
    assert page.input_value('[name="opt-target"]') == "11"
    assert page.input_value("#kf-club") == club
    shot(page, f"lobby-{lang}-{'phone' if phone else 'desktop'}")
    axe(page, "lobby with clubs")
    # a rated table: no hints; created for the club; tagged in the lobby and the club's tab
    page.check("#kf-rated")
    assert page.is_disabled("#hints") and not page.is_checked("#hints")
    for i in range(1, 4):
        page.select_option(f'#seats select[data-seat="{i}"]', index=1)
    page.click("#create")
    page.wait_for_selector("#created .invite")
    tid = page.eval_on_selector("#created a[data-seat]", "a => a.getAttribute('href')").split("/t/")[1].split("#")[0]
    assert httpx.get(f"{server.url}/api/tables/{tid}").json()["rated"] is True
    page.wait_for_selector(f'#tables a[data-id="{tid}"]')
    assert page.is_visible(f'#tables li:has(a[data-id="{tid}"]) .tag.rated')
    page.reload()
    page.wait_for_selector(f'#kf-club-panel a[href="/t/{tid}"]')
    # a member who is not the administrator sees the members and the leaderboard, not the forms
    assert page.is_visible("#kf-club-panel .club-members") and page.is_visible("#kf-club-panel table.leaderboard")
    assert not page.query_selector("#kf-member-form, #kf-preset-form, [data-member-remove], [data-preset-delete]")
    # the member's own seat: taken while signed in, with no Hint button, the title saying rated
    page.goto(
        base(server) + page.eval_on_selector("#created a[data-seat]", "a => a.getAttribute('href')")
        if page.query_selector("#created a[data-seat]")
        else base(server) + f"/t/{tid}"
    )
    rated_word = messages.catalogue(lang)["web.clubs.rated"]
    page.wait_for_function(f"document.querySelector('#title').textContent.includes('{rated_word}')")
    assert not page.query_selector('[data-tool="hint"]')
    shot(page, f"rated-table-{lang}-{'phone' if phone else 'desktop'}")
    # a match of the profile: its review opens in a dialog
    page.goto(base(server) + "/")
    page.wait_for_selector("[data-review-url]")
    page.click("[data-review-url]")
    page.wait_for_selector("#dialog-body .seatreview", timeout=60_000)
    assert not page.query_selector("#dialog-body .warn")
    assert page.eval_on_selector_all("#dialog-body .seatreview", "s => s.length") == 4
    assert page.text_content("#dialog-body .seatreview h4") == member  # seats by their players' names
    shot(page, f"review-{lang}-{'phone' if phone else 'desktop'}")
    assert errors == []
    context.close()


@pytest.mark.parametrize("lang,phone", [("en", False), ("ja", True)])
def test_a_club_created_managed_and_ranked_in_the_page(
    browser: Any, server: ServerThread, lang: str, phone: bool
) -> None:
    """Sign up, create a club, add a member (an account made through the API), save the lobby's
    game and rules as a preset, see the leaderboard after a rated match, remove the member and
    delete the preset; refusals of the API shown in the reader's words."""
    words = messages.catalogue(lang)
    size = "phone" if phone else "desktop"
    admin, member, club_name = f"Chair{lang}", f"Ren{lang}", f"Shimane {lang}"
    r = httpx.post(server.url + "/api/accounts", json={"name": member, "password": PASSWORD})
    assert r.status_code == 200, r.text
    context, page, errors = open_page(browser, server, phone=phone, lang=lang)
    sign_up_in_page(page, admin)
    assert page.text_content("#kf-club-form h3") == words["web.clubs.new_club"]
    # create a club: its tab is selected, its leaderboard is empty, in words
    page.fill("#kf-club-name", club_name)
    page.click("#kf-club-create")
    page.wait_for_selector(f'[role=tab][aria-selected=true]:has-text("{club_name}")')
    assert page.text_content("#kf-note-create") == words["web.clubs.club_created"].format(name=club_name)
    assert page.text_content("#kf-club-panel .empty-board") == words["web.clubs.no_ratings"]
    club = page.evaluate("fetch('/api/clubs').then(r => r.json())")[0]
    assert club["name"] == club_name and club["admin"] is True
    # the same name again is refused, in words
    page.fill("#kf-club-name", club_name)
    page.click("#kf-club-create")
    page.wait_for_function("document.querySelector('#kf-note-create').classList.contains('warn')")
    assert page.text_content("#kf-note-create") == words["web.clubs.club_taken"].format(name=club_name)
    # members: an unknown account refused in words; the second account added
    page.fill("#kf-member-name", "Nobody")
    page.click("#kf-member-add")
    page.wait_for_function("document.querySelector('#kf-note-members').classList.contains('warn')")
    assert page.text_content("#kf-note-members") == words["web.clubs.no_account"].format(name="Nobody")
    page.locator("#kf-member-form").screenshot(path=str(SHOTS / f"club-refused-{lang}-{size}.png"))
    page.fill("#kf-member-name", member)
    page.click("#kf-member-add")
    page.wait_for_selector(f'[data-member-remove="{member}"]')
    assert page.text_content("#kf-note-members") == words["web.clubs.member_added"].format(name=member)
    info = page.evaluate(f"fetch('/api/clubs/{club['id']}').then(r => r.json())")
    assert sorted(info["members"]) == sorted([admin, member]) and info["admin"] == admin
    # the lobby's game and rules saved as a preset, offered first in the rules list
    page.check('input[name="game"][value="meitora"]')
    page.fill('[name="opt-target"]', "11")
    page.dispatch_event('[name="opt-target"]', "change")
    page.fill("#kf-preset-name", "KIT 2002 rules")
    page.click("#kf-preset-save")
    page.wait_for_selector('[data-preset-delete="KIT 2002 rules"]')
    assert page.input_value('[name="opt-target"]') == "11"  # the lobby's rules are kept
    preset = page.evaluate(f"fetch('/api/clubs/{club['id']}').then(r => r.json())")["presets"]
    assert preset == [{"name": "KIT 2002 rules", "game": "meitora", "options": {"target": 11}}]
    assert page.eval_on_selector("#kf-preset optgroup", "g => g.label") == club_name
    # a rated match saved through the API: the leaderboard ranks both players and the bots' level
    saved = page.evaluate(
        """([club, record]) => fetch(`/api/clubs/${club}/matches`, {method: 'POST',
        headers: {'Content-Type': 'application/json'}, body: JSON.stringify({record, rated: true})}).then(r => r.status)""",
        [club["id"], _profile_match([admin, member, "heuristic", "heuristic"])],
    )
    assert saved == 200
    page.click(f"#kf-tab-{club['id']}")
    page.wait_for_selector("#kf-club-panel table.leaderboard")
    heads = page.eval_on_selector_all("#kf-club-panel table.leaderboard thead th", "hs => hs.map(h => h.textContent)")
    assert heads == [words[f"web.clubs.{k}"] for k in ("rank", "player", "rating", "played")]
    rows = page.eval_on_selector_all(
        "#kf-club-panel table.leaderboard tbody tr", "rs => rs.map(r => [...r.children].map(c => c.textContent))"
    )
    api_rows = page.evaluate(f"fetch('/api/clubs/{club['id']}/leaderboard?game=unsun').then(r => r.json())")
    bot = f"{words['web.bot']}: {words['web.bots.heuristic']}"
    assert [r[1] for r in rows] == [bot if a["name"] == "heuristic" else a["name"] for a in api_rows]
    assert {admin, member, bot} <= {r[1] for r in rows}
    assert [r[0] for r in rows] == [str(i) for i in range(1, len(rows) + 1)]
    assert [r[2] for r in rows] == [f"{a['ordinal']:.2f}" for a in api_rows] and all(r[3] == "1" for r in rows)
    assert page.get_attribute("#kf-club-panel a[href$='standings.csv?game=unsun']", "download") is not None
    assert page.is_visible("#kf-club-panel a[href$='export.zip']")
    assert page.is_visible("#kf-club-panel .club-matches [data-replay]")
    assert page.is_visible("#kf-club-panel .club-matches [data-review-url]")
    shot(page, f"club-admin-{lang}-{size}")
    axe(page, "a club's tab, for its administrator")
    # the member removed; the administrator cannot be
    assert not page.query_selector(f'[data-member-remove="{admin}"]')
    page.click(f'[data-member-remove="{member}"]')
    page.wait_for_function(f"!document.querySelector('[data-member-remove=\"{member}\"]')")
    assert page.text_content("#kf-note-members") == words["web.clubs.member_removed"].format(name=member)
    assert page.evaluate(f"fetch('/api/clubs/{club['id']}').then(r => r.json())")["members"] == [admin]
    shot(page, f"club-removed-{lang}-{size}")
    # the preset deleted: gone from the club and from the lobby's rules list
    page.click('[data-preset-delete="KIT 2002 rules"]')
    page.wait_for_function("!document.querySelector('[data-preset-delete]')")
    assert page.text_content("#kf-note-presets") == words["web.clubs.preset_deleted"].format(name="KIT 2002 rules")
    assert page.evaluate(f"fetch('/api/clubs/{club['id']}').then(r => r.json())")["presets"] == []
    assert page.eval_on_selector_all("#kf-preset optgroup", "gs => gs.map(g => g.label)") == [
        words["web.clubs.standard_rules"]
    ]
    assert errors == []
    context.close()
