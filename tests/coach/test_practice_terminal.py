"""``kirifuda play --practice`` with scripted input: undo where the rule allows it (and why
not where it does not), the deal again from its start or a trick, deals of a chosen kind, and
the record saved as the match's final line."""

from __future__ import annotations

import io
import random
from pathlib import Path

import pytest
from rich.console import Console

from kirifuda import record as records
from kirifuda.cli import main
from kirifuda.coach.kinds import find_kind
from kirifuda.coach.practice_terminal import PracticeGame
from kirifuda.games import find_game


def _play(
    tmp_path: Path,
    answers: list[str],
    *,
    game: str = "meitora",
    seed: int = 1,
    kind: str | None = None,
    lang: str = "en",
) -> tuple[str, records.Record]:
    it = iter(answers)
    out = io.StringIO()
    info = find_game(game)
    path = tmp_path / f"{game}-{seed}-{kind}-{lang}.json"
    pg = PracticeGame(
        info,
        info.options({}),
        kind=kind,
        seed=seed,
        bots="heuristic",
        lang=lang,
        record_path=path,
        console=Console(file=out, width=120),
        input_fn=lambda prompt: next(it),
    )
    pg.run()
    return out.getvalue(), records.loads(path.read_text(encoding="utf-8"))


def test_undo_is_refused_in_words_then_allowed_and_the_record_is_the_final_line(tmp_path: Path) -> None:
    # Meitora, seed 1: the user passes; the declarer's side leads three cards; the user's joker
    # takes the trick (the last card of it: nothing new shown), so it may be taken back
    text, rec = _play(tmp_path, ["u", "1", "u", "1", "u", "1", "u", "q"])
    assert "you have made no decision in this deal" in text
    assert "cards have been shown to you since: 7♣ 8♣ J♠" in text
    assert text.count("Taken back: Joker") == 2
    last = rec.deals[-1].actions
    assert last[-1] == {"seat": 3, "play": "7C"}  # the joker taken back is not in the record
    assert records.replay(rec).to_act == 0


def test_undo_and_replay_in_japanese(tmp_path: Path) -> None:
    text, _ = _play(tmp_path, ["取消", "?", "1", "1", "取消", "もう一度 7", "q"], lang="ja")
    assert text.count("u (取消)") == 2  # at the start, and in the help
    assert "この回にあなたの手はまだありません" in text
    assert "取り消しました" in text and "この回の第 7 トリックはまだ始まっていません" in text
    assert "練習:" in text


def test_the_deal_again_from_its_start_and_from_a_trick(tmp_path: Path) -> None:
    text, rec = _play(tmp_path, ["1", "1", "1", "again 2", "again", "again x", "again 9", "q"], seed=3)
    assert "This deal again from trick 2" in text and "This deal again from its start" in text
    assert "again takes a trick number, not 'x'" in text
    assert "trick 9 of this deal has not been led" in text
    first = records.replay(rec)
    assert len(rec.deals) == 1 and first.deal_number == 0
    assert rec.deals[0].actions == []  # from its very start, nothing played since


@pytest.mark.parametrize("game,kind", [("meitora", "declarer"), ("unsun", "last_player"), ("kakeya", "faces")])
def test_deals_of_a_kind(tmp_path: Path, game: str, kind: str) -> None:
    text, rec = _play(tmp_path, ["q"], game=game, seed=4, kind=kind)
    k = find_kind(game, kind)
    assert k.label("en") in text
    state = rec.new_state()
    d = rec.deals[0]
    state.deal(d.hands, d.rest)
    assert "no deal of the kind" in text or any(k.holds(state.copy(), 0, random.Random(i)) for i in range(8))


def test_kind_needs_practice_and_a_known_kind(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "meitora", "--kind", "declarer"]) != 0
    assert "--practice" in capsys.readouterr().err
    assert main(["play", "meitora", "--practice", "--kind", "nosuch"]) != 0
    assert "declarer" in capsys.readouterr().err
