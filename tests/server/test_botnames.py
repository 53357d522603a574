"""Names that would pass for a bot's are refused to people (kirifuda.server.botnames): every bot
kind and level, every bot label of the lobby, the table and the terminal in both languages, the
word "bot" numbered or with a level, the robot face — however written (full-width, upper case,
spaced); a person's name that merely holds such a word is taken.  The sign-up, a human seat of a
new table and a hello's name refuse them in both languages; a bot seat keeps its "Bot 2".  And a
bot that cannot be made is refused in the reader's words (kirifuda.botwords), in the terminal
and in the lobby."""

from __future__ import annotations

import json
import unicodedata
from pathlib import Path

import httpx
import pytest
from hypothesis import given
from hypothesis import strategies as st
from websockets.sync.client import connect

from kirifuda import i18n
from kirifuda.botwords import bot_refusal, in_words
from kirifuda.bots import BOT_KINDS
from kirifuda.server import messages  # noqa: F401 (the web's words in the catalogue)
from kirifuda.server.botnames import mimics_bot, normalise
from kirifuda.ui.terminal import bot_name

from .conftest import ServerThread
from .test_protocol import recv_until

KINDS = [*BOT_KINDS, "search:normal", "search:v1", "search:hard", "policy:my.npz"]
LABELS = sorted(
    {text for key, pair in i18n._MESSAGES.items() if key.startswith(("web.bots.", "bot_kind.")) for text in pair}
)
DISPLAYED = sorted(
    {bot_name(kind, seat, lang) for kind in BOT_KINDS for seat in (0, 1, 3) for lang in i18n.LANGS}
    | {i18n.t("web.bot_default", lang, n=n) for n in (1, 4) for lang in i18n.LANGS}
    | {f"{i18n.t('web.bot', lang)}: {label}" for label in LABELS for lang in i18n.LANGS}
    | {"Bot", "ボット", "bot #2", "Bot · strong (search)", "🤖", "🤖 Taro", "Taro🤖"}
)
PEOPLE = ["Aki", "花子", "Botan", "Strongman", "ランダム太郎", "Player 1", "Searcher", "Heuristica", "中", "Robo"]


def _fullwidth(text: str) -> str:
    return "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else "\u3000" if c == " " else c for c in text)


@pytest.mark.parametrize("name", KINDS + LABELS + DISPLAYED)
def test_every_bot_kind_and_label_is_refused_however_written(name: str) -> None:
    for written in (name, name.upper(), name.title(), _fullwidth(name), f"  {name} ", name.replace(":", " : ")):
        assert mimics_bot(written), written


@pytest.mark.parametrize("name", PEOPLE)
def test_a_person_s_name_holding_a_bot_word_is_taken(name: str) -> None:
    assert not mimics_bot(name)


@given(st.sampled_from(KINDS + LABELS + DISPLAYED), st.sampled_from(["", " ", "・", "-", "_", "　"]))
def test_the_check_sees_the_normalised_name(name: str, sep: str) -> None:
    """Spaces and punctuation between the letters, full-width forms and case change nothing."""
    spaced = sep.join(name) if sep else name
    assert normalise(spaced) == normalise(name) or "🤖" in name
    assert mimics_bot(spaced) and mimics_bot(unicodedata.normalize("NFKD", _fullwidth(name)))


def _sqlite(tmp_path: Path) -> str:
    return f"sqlite+aiosqlite:///{tmp_path / 'k.db'}"


@pytest.mark.slow
def test_sign_up_seats_and_hello_refuse_a_bot_s_name_in_both_languages(tmp_path: Path) -> None:
    with ServerThread(_sqlite(tmp_path), bot_delay=0) as srv:
        for name, query in (("heuristic", ""), ("Ｓｅａｒｃｈ：ｓｔｒｏｎｇ", "?lang=ja"), ("ボット2", ""), ("🤖", "")):
            r = httpx.post(f"{srv.url}/api/accounts{query}", json={"name": name, "password": "a long password"})
            assert r.status_code == 422, (name, r.text)
            detail = r.json()["detail"]
            assert detail["code"] == "bot_name"
            assert ("ボット" in detail["message"]) if query else ("bot" in detail["message"]), detail
        ja = httpx.post(
            srv.url + "/api/accounts",
            json={"name": "random", "password": "a long password"},
            headers={"Accept-Language": "ja,en;q=0.5"},
        )
        assert ja.status_code == 422 and "ボット" in ja.json()["detail"]["message"]
        assert httpx.post(srv.url + "/api/accounts", json={"name": "Botan", "password": "a long password"}).is_success
        # a human seat named as a bot: refused, with the seat and a code the page words
        seats = [{"kind": "human", "name": "Aki"}, {"kind": "human", "name": "Bot 3 (strong)"}]
        seats += [{"kind": "bot", "bot": "heuristic", "name": "Bot 3"}] * 2  # a bot's own name stands
        r = httpx.post(srv.url + "/api/tables", json={"game": "meitora", "seats": seats})
        assert r.status_code == 400 and r.json()["code"] == "bot_name" and r.json()["params"] == {"seat": 1}, r.text
        for lang in i18n.LANGS:
            assert i18n.t("web.refusal.bot_name", lang, seat="x") != "web.refusal.bot_name"
        seats[1] = {"kind": "human", "name": "Ben"}
        made = httpx.post(srv.url + "/api/tables", json={"game": "meitora", "seats": seats}).json()
        with connect(f"ws://127.0.0.1:{srv.port}/ws/{made['id']}") as ws:
            ws.send(json.dumps({"type": "hello", "token": made["tokens"][0], "name": "ＨＥＵＲＩＳＴＩＣ"}))
            err = recv_until(ws, "error")
            assert err["code"] == "bot_name" and "bot" in err["message"]
            assert i18n.t("web.err.bot_name", "ja") != i18n.t("web.err.bot_name", "en")
            ws.send(json.dumps({"type": "hello", "token": made["tokens"][0], "name": "Searcher"}))
            assert recv_until(ws, "welcome")["seat"] == 0
        info = httpx.get(f"{srv.url}/api/tables/{made['id']}").json()
        assert [s["name"] for s in info["seats"]] == ["Searcher", "Ben", "Bot 3", "Bot 3"]


@pytest.mark.parametrize(
    "kind, code, ja",
    [
        ("genius", "unknown", "「genius」というボットはありません"),
        ("search:hard", "level", "「hard」という強さはありません"),
        ("pimc:fast", "unknown", "「pimc:fast」というボットはありません"),
    ],
)
def test_a_bot_that_cannot_be_made_is_refused_in_the_reader_s_words(kind: str, code: str, ja: str) -> None:
    from kirifuda.bots import make_bot
    from kirifuda.errors import OptionError

    with pytest.raises(OptionError) as err:
        make_bot(kind, "meitora")
    found = bot_refusal(str(err.value))
    assert found is not None and found[0] == code
    assert ja in in_words(str(err.value), "ja")
    english = in_words(str(err.value), "en")
    assert english != str(err.value) and kind.split(":")[-1] in english
    assert in_words("something else entirely", "ja") == "something else entirely"


def test_the_terminal_says_why_a_bot_cannot_be_made_in_its_language(capsys: pytest.CaptureFixture[str]) -> None:
    from kirifuda.cli import main

    assert main(["play", "meitora", "--bots", "search:hard", "--lang", "ja"]) == 2
    err = capsys.readouterr().err
    assert "「hard」という強さはありません" in err and "easy" in err
    assert main(["play", "meitora", "--bots", "genius", "--lang", "en"]) == 2
    assert "There is no bot genius: the bots are" in capsys.readouterr().err


@pytest.mark.slow
def test_the_lobby_words_a_bad_level_from_its_code(tmp_path: Path) -> None:
    with ServerThread(_sqlite(tmp_path), bot_delay=0) as srv:
        seats = [{"kind": "human"}] * 3 + [{"kind": "bot", "bot": "search:hard"}]
        r = httpx.post(srv.url + "/api/tables", json={"game": "meitora", "seats": seats})
        assert r.status_code == 400 and r.json()["code"] == "bad_level", r.text
        params = r.json()["params"]
        assert params["level"] == "hard" and "strong" in params["levels"]
        words = i18n.t("web.refusal.bad_level", "ja", **params)
        assert "hard" in words and "探索" in words
