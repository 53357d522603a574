"""The tutorial page in Debian's Chromium (Playwright): every tutorial played through in both
languages, a worse choice first at each marked step, on the desktop and the phone layout.
Skipped, saying why, only where ``/usr/bin/chromium`` or the ``playwright`` package is missing."""

from __future__ import annotations

import os
from typing import Any

import pytest

from kirifuda.actions import Discard, Play
from kirifuda.tutorials import Lesson, available, load

from ..browsing import CHROMIUM
from ..server.conftest import ServerThread
from .helpers import action_key, wrong_choice


sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")
if not os.path.exists(CHROMIUM):
    pytest.skip(
        f"browser tests skipped: no Chromium at {CHROMIUM} (apt-get install -y chromium)", allow_module_level=True
    )


def _wait_step(page: Any, n: int) -> None:
    page.wait_for_function(f"Tutorial.frame && Tutorial.frame.step === {n} && !Tutorial.busy")


def _choose(page: Any, action: Any) -> None:
    if isinstance(action, Discard) and len(action.cards) > 1:  # picked in the hand, then confirmed
        for c in action.cards:
            page.click(f"#hand .card[data-card='{c.code}']")
        page.click("#discard")
    else:
        page.click(f"#choices button[data-action='{action_key(action)}']")


@pytest.mark.parametrize("lang", ["ja", "en"])
@pytest.mark.parametrize("game", sorted(available()))
def test_tutorial_played_through(server: ServerThread, browser: Any, game: str, lang: str) -> None:
    tutorial = load(game)
    lesson = Lesson(tutorial, lang)
    viewport = {"width": 390, "height": 844} if lang == "ja" else {"width": 1280, "height": 900}
    page = browser.new_page(viewport=viewport)
    page.goto(f"{server.url}/tutorial?game={game}&lang={lang}")
    _wait_step(page, 0)
    assert page.locator("#notes p").first.inner_text() == tutorial.notes_at(0)[0].text.get(lang)
    refused = 0
    while not lesson.done:
        step = lesson.step
        assert step is not None
        _wait_step(page, lesson.index)
        if not lesson.learner_turn:
            assert page.locator("#choices button").count() == 0
            page.click("#next")
            lesson.advance()
            continue
        if step.expect is not None and step.why is not None:
            wrong = wrong_choice(lesson)
            if wrong is not None:
                _choose(page, wrong)
                page.wait_for_function("document.getElementById('message').className === 'bad'")
                assert step.why.get(lang) in page.inner_text("#message")
                assert page.evaluate("Tutorial.frame.step") == lesson.index
                refused += 1
                for c in wrong.cards if isinstance(wrong, Discard) and len(wrong.cards) > 1 else ():
                    page.click(f"#hand .card[data-card='{c.code}']")  # unpick
        if (
            isinstance(step.action, Play)
            and page.locator(f"#hand .card.playable[data-card='{step.action.card.code}']").count()
            and step.action.request is None
        ):
            page.click(f"#hand .card.playable[data-card='{step.action.card.code}']")  # a click on the card plays it
        else:
            _choose(page, step.action)
        lesson.answer(step.action)
    _wait_step(page, lesson.index)
    page.wait_for_selector("#result:not(.hidden)")
    assert refused >= 2
    assert page.locator("#next").is_hidden()
    page.close()


def test_index_lists_the_games(server: ServerThread, browser: Any) -> None:
    page = browser.new_page()
    page.goto(f"{server.url}/tutorial?lang=en")
    page.wait_for_selector("#game-list a")
    assert [a.get_attribute("data-game") for a in page.locator("#game-list a").all()] == list(available())
    page.click("#game-list a[data-game='kakeya']")
    _wait_step(page, 0)
    assert page.evaluate("Tutorial.frame.game") == "kakeya"
    page.close()
