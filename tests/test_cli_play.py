"""The command line as a user meets it: a whole deal of every game in both languages through
a real process, and every error as a message with its exit status (no traceback)."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from rich.console import Console

from kirifuda import record as records
from kirifuda.actions import Bid, Discard, Pass, Play
from kirifuda.games.napoleon import Adjutant, Approve
from kirifuda.games.kakeya import ChooseLeader
from kirifuda.cards import parse_card
from kirifuda.cli import main
from kirifuda.games import find_game
from kirifuda.ui.render import match_input
from kirifuda.ui.terminal import TerminalGame

LENGTH = {"meitora": "1", "napoleon": "1", "kakeya": "1", "unsun": "1"}


def _kirifuda(*args: str, stdin: str = "", timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "kirifuda.cli", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,
        env={"PATH": "/usr/bin:/bin", "COLUMNS": "80", "PYTHONIOENCODING": "utf-8"},
    )


@pytest.mark.parametrize("game_id", ["meitora", "napoleon", "kakeya", "unsun"])
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_whole_match_of_one_deal_through_the_command(game_id: str, lang: str, tmp_path: Path) -> None:
    path = tmp_path / "r.json"
    run = _kirifuda(
        "play",
        game_id,
        "--lang",
        lang,
        "--bots",
        "heuristic",
        "--seed",
        "2",
        "--length",
        LENGTH[game_id],
        "--record",
        str(path),
        "--name",
        "Aki",
        stdin="1\n" * 3000,
    )
    assert run.returncode == 0, run.stderr
    assert "Traceback" not in run.stdout + run.stderr
    assert ("Match over" if lang == "en" else "試合終了") in run.stdout
    assert ("Result of the deal" if lang == "en" else "この回の結果") in run.stdout
    # no card played face up is called face down (the deal's last card among them)
    assert "card(s) face down" not in run.stdout and "枚を伏せる" not in run.stdout.replace("ネグリを伏せる", "")
    # the deal's last trick is shown before its result
    before_result = run.stdout.split("Result of the deal" if lang == "en" else "この回の結果")[0]
    assert ("takes the trick" if lang == "en" else "が取りました") in before_result.splitlines()[-2]
    rec = records.loads(path.read_text(encoding="utf-8"))
    assert records.replay(rec).is_over
    assert rec.players is not None and rec.players[0] == "Aki"
    assert ("Bot 1" if lang == "en" else "ボット1") in rec.players[1]


def test_version_and_help_on_every_argument(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["--version"])
    assert exit_.value.code == 0 and "kirifuda" in capsys.readouterr().out
    from kirifuda.cli import build_parser

    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    for name, p in sub.choices.items():  # type: ignore[union-attr]
        for action in p._actions:
            assert action.help, f"{name} {action.dest} has no help"


@pytest.mark.parametrize(
    "argv",
    [
        ["bench", "--game", "chess"],
        ["bench-server", "--game", "chess"],
        ["bench", "--seconds", "-1"],
        ["tournament", "meitora", "--jobs", "0"],
        ["tournament", "meitora", "--deals", "0"],
        ["play", "chess"],
        ["play", "napoleon", "-o", "joker=maybe"],
        ["play", "meitora", "--players", "5"],
        ["rules", "chess"],
        ["options", "chess"],
    ],
)
def test_usage_errors_are_messages_with_status_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    try:
        code = main(argv)
    except SystemExit as exc:  # argparse's own refusal
        code = int(exc.code or 0)
    assert code == 2
    err = capsys.readouterr().err
    assert err and "Traceback" not in err


def test_bench_and_bench_server_name_the_unknown_game() -> None:
    for cmd in ("bench", "bench-server"):
        run = _kirifuda(cmd, "--game", "chess")
        assert run.returncode == 2 and "unknown game 'chess'" in run.stderr and "Traceback" not in run.stderr


def test_the_record_path_is_checked_before_the_match(tmp_path: Path) -> None:
    existing = tmp_path / "old.json"
    existing.write_text("keep me", encoding="utf-8")
    run = _kirifuda("play", "meitora", "--record", str(existing), stdin="q\n")
    assert run.returncode == 2 and "--force" in run.stderr and existing.read_text(encoding="utf-8") == "keep me"
    assert "Your hand" not in run.stdout  # refused before the match started
    run = _kirifuda("play", "meitora", "--record", str(existing), "--force", "--bots", "random", stdin="q\n")
    assert run.returncode == 0 and json.loads(existing.read_text(encoding="utf-8"))["game"] == "meitora"
    blocked = tmp_path / "file"
    blocked.write_text("", encoding="utf-8")
    run = _kirifuda("play", "meitora", "--record", str(blocked / "r.json"), stdin="q\n")
    assert run.returncode == 1 and "cannot create" in run.stderr and "Traceback" not in run.stderr


def test_a_stopped_match_resumes_from_its_record(tmp_path: Path) -> None:
    path = tmp_path / "r.json"
    run = _kirifuda(
        "play",
        "kakeya",
        "--record",
        str(path),
        "--bots",
        "random",
        "--seed",
        "1",
        "--seat",
        "2",
        "--name",
        "Bo",
        stdin="1\n1\n1\nq\n",
    )
    assert run.returncode == 0
    before = records.loads(path.read_text(encoding="utf-8"))
    done = len(before.deals[-1].actions)
    run = _kirifuda("play", "--resume", str(path), "--bots", "random", "--name", "Bo", stdin="1\n1\nq\n")
    assert run.returncode == 0, run.stderr
    after = records.loads(path.read_text(encoding="utf-8"))
    assert after.players == before.players and after.players is not None and after.players[2] == "Bo"
    assert after.deals[0].actions[:done] == before.deals[-1].actions
    assert len(after.deals[-1].actions) > done or len(after.deals) > len(before.deals)
    mine = [a for d in after.deals for a in d.actions if a["seat"] == 2]
    assert mine  # the user's seat (found by name) played on


def test_a_bad_record_to_resume_is_bad_data(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{", encoding="utf-8")
    run = _kirifuda("play", "--resume", str(bad))
    assert run.returncode == 1 and "Traceback" not in run.stderr and run.stderr


def test_booleans_are_read_in_every_usual_form(tmp_path: Path) -> None:
    for word in ("True", "yes", "1"):
        path = tmp_path / f"{word}.json"
        run = _kirifuda(
            "play", "napoleon", "-o", f"joker={word}", "--record", str(path), "--bots", "random", stdin="q\n"
        )
        assert run.returncode == 0, run.stderr
        assert json.loads(path.read_text(encoding="utf-8"))["options"]["joker"] is True


def test_options_and_rules_list_the_local_rules(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["options", "meitora", "--lang", "en"]) == 0
    out = capsys.readouterr().out
    assert "claim_failure = chombo | refuse  (default: chombo)" in out
    assert main(["rules", "napoleon", "--lang", "ja"]) == 0
    assert "副官" in capsys.readouterr().out


def test_an_invalid_claim_under_refuse_is_refused_not_a_traceback(tmp_path: Path) -> None:
    info = find_game("meitora")
    out = io.StringIO()
    asked: list[str] = []
    holder: dict[str, TerminalGame] = {}

    def answer(prompt: str) -> str:
        view = holder["game"].state.view(0)
        if view.phase != "play":
            return "1"
        if not asked:
            asked.append("claim")
            return "claim"
        if len(asked) == 1:
            asked.append("y")
            return "y"
        return "q"

    game = TerminalGame(
        info,
        info.options({"claim_failure": "refuse"}),
        seed=1,
        bots="random",
        lang="en",
        record_path=tmp_path / "r.json",
        console=Console(file=out, width=100),
        input_fn=answer,
    )
    holder["game"] = game
    game.run()
    text = out.getvalue()
    assert "If any can still be lost the claim is refused" in text
    assert "Not allowed" in text and "Record saved" in text
    assert "your hand now lies face up to everyone" in text
    rec = records.loads((tmp_path / "r.json").read_text(encoding="utf-8"))
    assert records.replay(rec)
    refused = [a for d in rec.deals for a in d.actions if a.get("refused")]
    assert refused == [{"seat": 0, "claim": True, "refused": True}]  # the record says the hand was shown
    assert game.state.view(1).shown_hands[0] == game.state.view(0).hand  # and every seat sees it


def test_a_number_never_claims() -> None:
    info = find_game("meitora")
    out = io.StringIO()
    holder: dict[str, TerminalGame] = {}
    answers: list[str] = []

    def answer(prompt: str) -> str:
        answers.append(prompt)
        if len(answers) > 400:
            return "q"
        return "1"

    game = TerminalGame(
        info,
        info.options({"target": 1}),
        seed=3,
        bots="random",
        lang="en",
        record_path=Path("/dev/null"),
        console=Console(file=out, width=100),
        input_fn=answer,
    )
    holder["game"] = game
    game.save = lambda: Path("/dev/null")  # type: ignore[method-assign]
    game.run()
    assert not any("claim" in a for d in game.state.record_deals() for a in d["actions"] if a["seat"] == 0)


def test_kakeya_english_names_the_users_pair(tmp_path: Path) -> None:
    info = find_game("kakeya")
    out = io.StringIO()
    game = TerminalGame(
        info,
        info.options({}),
        seed=1,
        bots="random",
        lang="en",
        record_path=tmp_path / "r.json",
        console=Console(file=out, width=120),
        input_fn=lambda p: "q",
    )
    game.run()
    text = out.getvalue()
    assert "yours]" in text and "[]" not in text
    assert "Your partner is Bot 2" in text


def test_the_discard_example_is_not_a_move() -> None:
    info = find_game("napoleon")
    out = io.StringIO()
    holder: dict[str, TerminalGame] = {}
    prompts: list[str] = []

    def answer(prompt: str) -> str:
        view = holder["game"].state.view(0)
        prompts.append(view.phase)
        if view.phase == "discard":
            raise EOFError
        if view.phase == "bidding":
            return "20S" if Bid(20, "S") in view.legal_actions else "pass"
        return "1"

    game = TerminalGame(
        info,
        info.options({"players": 4, "joker": True}),
        seed=2,
        bots="random",
        lang="ja",
        record_path=Path("/dev/null"),
        console=Console(file=out, width=100),
        input_fn=answer,
    )
    holder["game"] = game
    game.save = lambda: Path("/dev/null")  # type: ignore[method-assign]
    game.run()
    assert "discard" in prompts
    text = out.getvalue()
    example = text.split("書き方の例: ")[1].split(")")[0].split()
    view = game.state.view(0)
    assert len(example) == 5
    assert not match_input(" ".join(example), view.legal_actions)


@pytest.mark.parametrize("typed", ["S8", "s8", "8s", "8 s", "♠8", "8♠", "8S"])
def test_every_card_form_a_player_types(typed: str) -> None:
    legal = (Play(parse_card("8S")), Play(parse_card("9H")))
    assert match_input(typed, legal) == [legal[0]]


def test_joker_adjutant_answers_and_leaders_in_words() -> None:
    assert match_input("joker", (Play(parse_card("JK"), "S"), Play(parse_card("JK"), "H"))) != []
    assert match_input("joker s", (Play(parse_card("JK"), "S"), Play(parse_card("JK"), "H"))) == [
        Play(parse_card("JK"), "S")
    ]
    adjutants = tuple(Adjutant(parse_card(c)) for c in ("AS", "AH"))
    assert match_input("♠A", adjutants) == [adjutants[0]]
    assert match_input("yes", (Approve(True), Approve(False))) == [Approve(True)]
    assert match_input("seat 3", (ChooseLeader(1), ChooseLeader(3))) == [ChooseLeader(3)]
    assert match_input("5c 7d", (Discard((parse_card("7D"), parse_card("5C"))),)) != []


def test_the_top_bidders_pass_says_stand() -> None:
    from kirifuda.ui.results import game_text

    note = game_text("napoleon").extras["action_note"]

    class V:
        phase = "bidding"
        bids = ((0, Bid(12, "S")), (1, Pass()))

    assert note(V(), 0, Pass(), "en") == "pass (stand: stay at 12♠)"
    assert note(V(), 1, Pass(), "en") is None


def test_rule_reasons_in_japanese(tmp_path: Path) -> None:
    info = find_game("meitora")
    out = io.StringIO()
    answers = iter(["5N", "q"])
    game = TerminalGame(
        info,
        info.options({}),
        seed=6,
        lang="ja",
        record_path=tmp_path / "r.json",
        console=Console(file=out, width=100),
        input_fn=lambda p: next(answers),
    )
    game.run()
    assert "その手はできません: 吹きは 6〜10 の数とスート" in out.getvalue()


def test_a_long_bid_list_is_listed_not_typed_as_cards() -> None:
    """Napoleon for five opens with 41 bids: each is shown with its number, never as a card form."""
    info = find_game("napoleon")
    out = io.StringIO()

    def answer(prompt: str) -> str:
        raise EOFError

    game = TerminalGame(
        info,
        info.options({"players": 5}),
        seed=3,
        bots="random",
        lang="en",
        record_path=Path("/dev/null"),
        console=Console(file=out, width=80),
        input_fn=answer,
    )
    game.save = lambda: Path("/dev/null")  # type: ignore[method-assign]
    game.run()
    text = out.getvalue()
    assert "41 choices" not in text and "separated by spaces" not in text
    assert "20♠" in text and "pass" in text.lower()
