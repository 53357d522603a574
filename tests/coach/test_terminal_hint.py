"""``h`` at the user's turn in the terminal: the coach's hint, in English and Japanese; asking
for it changes nothing in the match."""

from __future__ import annotations

import io
from pathlib import Path

from rich.console import Console

from kirifuda import record as records
from kirifuda.games import find_game
from kirifuda.ui.terminal import TerminalGame


def _play(tmp_path: Path, answers: list[str], lang: str, name: str) -> tuple[str, records.Record]:
    it = iter(answers)
    out = io.StringIO()
    info = find_game("meitora")
    game = TerminalGame(
        info,
        info.options({}),
        seed=6,
        bots="heuristic",
        lang=lang,
        record_path=tmp_path / name,
        console=Console(file=out, width=120),
        input_fn=lambda prompt: next(it),
    )
    game.run()
    return out.getvalue(), records.loads((tmp_path / name).read_text(encoding="utf-8"))


def test_h_shows_the_hint_and_its_reason(tmp_path: Path) -> None:
    text, rec = _play(tmp_path, ["h", "pass", "q"], "en", "a.json")
    assert "Hint:" in text and ("simulations" in text or "deals consistent" in text)
    _, plain = _play(tmp_path, ["pass", "q"], "en", "b.json")
    assert rec.deals[0].actions == plain.deals[0].actions  # the hint draws nothing from the match


def test_hint_in_japanese(tmp_path: Path) -> None:
    text, _ = _play(tmp_path, ["ヒント", "q"], "ja", "c.json")
    assert "ヒント:" in text and ("試行" in text or "配り方" in text)
