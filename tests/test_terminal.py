"""Terminal play: a whole match through the text interface, bad input refused with a reason."""

from __future__ import annotations

import io
import json
import re

import pytest

from rich.console import Console

from kirifuda import record as records
from kirifuda.games import find_game
from kirifuda.ui.terminal import TerminalGame


def scripted(answers):
    it = iter(answers)

    def ask(prompt: str) -> str:
        return next(it)

    return ask


def always_first(prompt: str) -> str:
    return "1"


def test_a_whole_match_in_the_terminal_saves_a_record_that_replays(tmp_path):
    out = io.StringIO()
    info = find_game("meitora")
    path = tmp_path / "m.json"
    game = TerminalGame(
        info,
        info.options({"target": 3}),
        seed=4,
        bots="heuristic",
        lang="en",
        record_path=path,
        console=Console(file=out, width=100),
        input_fn=always_first,
    )
    game.run()
    text = out.getvalue()
    assert game.state.is_over
    assert "Match over" in text and "Record saved" in text
    rec = records.loads(path.read_text())
    assert records.replay(rec).summary() == game.state.summary()


def test_bad_input_is_refused_with_the_reason_then_asked_again(tmp_path):
    out = io.StringIO()
    info = find_game("meitora")
    # seat 0 bids first: "2S" is no card of Meitora, "5N" no legal bid, "zzz" nothing at all
    game = TerminalGame(
        info,
        info.options({}),
        seed=6,
        lang="en",
        record_path=tmp_path / "r.json",
        console=Console(file=out, width=100),
        input_fn=scripted(["zzz", "5N", "7H", "q"]),
    )
    game.run()
    text = out.getvalue()
    assert "Not understood: zzz" in text
    assert "Not allowed" in text and "6–10" in text
    assert "Stopped" in text
    saved = json.loads((tmp_path / "r.json").read_text())
    assert saved["deals"][0]["actions"][0] == {"seat": 0, "bid": "7H"}


def test_japanese_interface(tmp_path):
    out = io.StringIO()
    info = find_game("明専トランプ")
    game = TerminalGame(
        info,
        info.options({}),
        seed=6,
        lang="ja",
        record_path=tmp_path / "r.json",
        console=Console(file=out, width=100),
        input_fn=scripted(["pass", "q"]),
    )
    game.run()
    text = out.getvalue()
    assert "あなたの手札" in text and "中断しました" in text and "棋譜を保存しました" in text
    assert "♠" in text or "♥" in text or "♦" in text or "♣" in text


def test_eof_on_input_saves_the_record(tmp_path):
    def eof(prompt: str) -> str:
        raise EOFError

    info = find_game("meitora")
    game = TerminalGame(
        info,
        info.options({}),
        seed=6,
        lang="en",
        record_path=tmp_path / "r.json",
        console=Console(file=io.StringIO()),
        input_fn=eof,
    )
    game.run()
    assert (tmp_path / "r.json").exists()


def test_cli_play_refuses_an_unknown_option(capsys):
    from kirifuda.cli import main

    assert main(["play", "meitora", "-o", "jokers=2"]) == 2
    assert "unknown option" in capsys.readouterr().err


def play_a_deal_of(game_id: str, lang: str, tmp_path, name: str | None = None) -> str:
    """The terminal's text while seat 0 plays its first choice until the first deal ends."""
    out = io.StringIO()
    info = find_game(game_id)
    answers = iter(["1"] * 60 + ["q"] * 5)
    game = TerminalGame(
        info,
        info.options({}),
        seed=3,
        bots="heuristic",
        lang=lang,
        name=name,
        record_path=tmp_path / f"{game_id}-{lang}.json",
        console=Console(file=out, width=120),
        input_fn=lambda prompt: next(answers),
    )
    game.run()
    return out.getvalue()


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("game_id", ["napoleon", "kakeya", "unsun"])
def test_the_table_names_players_not_seat_numbers(game_id: str, lang: str, tmp_path) -> None:
    # the games whose table lines are their views' own: the players by name ("Aki", "Bot 2"),
    # never "Seat 2" (席2), and the player's own trick in the second person
    text = play_a_deal_of(game_id, lang, tmp_path, name="Aki")
    assert "Aki" in text
    seat_word = r"席\s?\d" if lang == "ja" else r"(?i)seats? \d"
    assert not re.search(seat_word, text), [ln for ln in text.splitlines() if re.search(seat_word, ln)][:3]
    assert "Aki takes the trick" not in text and "Aki が取りました" not in text
