"""Tournaments: duplicate rotations, scores, and the same results for the same seed whichever
backend (one process, several, Ray) plays them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kirifuda.cli import main
from kirifuda.errors import OptionError
from kirifuda.tournament import rotations, run_tournament, seat_scores


def test_rotations_seat_every_bot_everywhere() -> None:
    assert rotations(["a", "b"], 4) == [["a", "b", "a", "b"], ["b", "a", "b", "a"]]
    assert len(rotations(["a", "b"], 5)) == 5
    assert rotations(["a", "b", "c", "d"], 4)[1] == ["b", "c", "d", "a"]


def test_seat_scores_are_team_points_minus_the_other_team() -> None:
    assert seat_scores("meitora", [0, 0], [2.5, 0], 4) == [2.5, -2.5, 2.5, -2.5]
    assert seat_scores("x", [0, 0, 0], [3, 0, 0], 3) == [3, -1.5, -1.5]


def test_same_seed_same_results_on_one_or_two_processes() -> None:
    one, res1 = run_tournament("meitora", ["heuristic", "random"], 6, seed=5, jobs=1)
    two, res2 = run_tournament("meitora", ["heuristic", "random"], 6, seed=5, jobs=2)
    assert one == two
    assert [r.records for r in res1] == [r.records for r in res2]
    other, _ = run_tournament("meitora", ["heuristic", "random"], 6, seed=6, jobs=1)
    assert other != one
    h = one["bots"]["heuristic"]
    assert h["ci95"][0] <= h["mean_score"] <= h["ci95"][1]
    assert one["bots"]["random"]["mean_score"] == pytest.approx(-h["mean_score"], abs=1e-3)
    assert one["diff"]["heuristic-random"]["mean"] == pytest.approx(2 * h["mean_score"], abs=1e-3)


def test_ray_backend_gives_the_same_results() -> None:
    pytest.importorskip("ray", reason="Ray is not installed (pip install 'kirifuda[ray]'): backend not tested")
    local, _ = run_tournament("meitora", ["heuristic", "random"], 3, seed=2, jobs=1)
    ray_, _ = run_tournament("meitora", ["heuristic", "random"], 3, seed=2, jobs=2, backend="ray")
    assert local == ray_


def test_unknown_bot_and_backend_refused() -> None:
    with pytest.raises(OptionError):
        run_tournament("meitora", ["heuristic", "grandmaster"], 1)
    with pytest.raises(OptionError):
        run_tournament("meitora", ["heuristic", "random"], 1, backend="slurm")


def test_cli_writes_records_summary_and_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "t"
    assert (
        main(
            [
                "tournament",
                "meitora",
                "--bots",
                "heuristic,random",
                "--deals",
                "2",
                "--jobs",
                "1",
                "--out",
                str(out),
                "--json",
            ]
        )
        == 0
    )
    summary = json.loads(capsys.readouterr().out)
    assert summary["game"] == "meitora" and summary["deals"] == 2
    assert set(summary["bots"]) == {"heuristic", "random"} and "heuristic-random" in summary["diff"]
    assert len(list((out / "records").glob("*.json"))) == 4  # 2 deals x 2 rotations
    assert json.loads((out / "summary.json").read_text())["deals"] == 2
    rec = next((out / "records").glob("*.json"))
    assert main(["replay", str(rec), "--json"]) == 0


def test_an_interrupted_tournament_writes_the_deals_that_finished(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ctrl-C during the third deal: the two finished deals are summarised and written (exit
    130), and are the same as in a run asked for two deals."""
    from kirifuda import tournament

    real = tournament.play_deal

    def stop_at_third(*args, **kwargs):  # type: ignore[no-untyped-def]
        if args[2] == 2:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(tournament, "play_deal", stop_at_third)
    out = tmp_path / "t"
    assert (
        main(
            [
                "tournament",
                "meitora",
                "--bots",
                "heuristic,random",
                "--deals",
                "5",
                "--jobs",
                "1",
                "--out",
                str(out),
                "--json",
            ]
        )
        == 130
    )
    captured = capsys.readouterr()
    summary = json.loads(captured.out)
    assert "2 of 5 deals finished" in captured.err
    assert summary["deals"] == 2 and summary["interrupted"] == {"deals_finished": 2, "deals_asked": 5}
    assert len(list((out / "records").glob("*.json"))) == 4
    monkeypatch.setattr(tournament, "play_deal", real)
    full, _ = tournament.run_tournament("meitora", ["heuristic", "random"], 2, jobs=1)
    assert summary["diff"] == full["diff"]


def test_interrupted_before_any_deal(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from kirifuda import tournament

    def stop(*args, **kwargs):  # type: ignore[no-untyped-def]
        raise KeyboardInterrupt

    monkeypatch.setattr(tournament, "play_deal", stop)
    assert (
        main(
            [
                "tournament",
                "meitora",
                "--bots",
                "heuristic,random",
                "--deals",
                "3",
                "--jobs",
                "1",
                "--out",
                str(tmp_path / "t"),
            ]
        )
        == 130
    )
    assert "before any deal finished" in capsys.readouterr().err


def test_shards_merge_into_the_whole_tournament() -> None:
    from kirifuda.tournament import merge_summaries

    whole, _ = run_tournament("meitora", ["heuristic", "random"], 5, seed=3, jobs=1)
    a, _ = run_tournament("meitora", ["heuristic", "random"], 2, seed=3, jobs=1, start=3)
    b, _ = run_tournament("meitora", ["heuristic", "random"], 3, seed=3, jobs=1)
    merged, results = merge_summaries([a, b])
    assert [d.index for d in results] == [0, 1, 2, 3, 4]
    for key in ("game", "deals", "seed", "bots", "diff", "per_deal", "first_deal", "options"):
        assert merged[key] == whole[key], key
    assert merged["shards"] == [{"first_deal": 0, "deals": 3}, {"first_deal": 3, "deals": 2}]


def test_merging_refuses_what_is_not_one_tournament() -> None:
    from kirifuda.tournament import merge_summaries

    a, _ = run_tournament("meitora", ["heuristic", "random"], 2, seed=3, jobs=1)
    b, _ = run_tournament("meitora", ["heuristic", "random"], 2, seed=3, jobs=1, start=1)
    with pytest.raises(OptionError, match="overlap"):
        merge_summaries([a, b])
    c, _ = run_tournament("meitora", ["heuristic", "random"], 1, seed=4, jobs=1, start=2)
    with pytest.raises(OptionError, match="seed 4, but summary 1 has 3"):
        merge_summaries([a, c])
    d, _ = run_tournament("meitora", ["random", "heuristic"], 1, seed=3, jobs=1, start=2)
    with pytest.raises(OptionError, match="bots random, heuristic"):
        merge_summaries([a, d])
    e, _ = run_tournament(
        "meitora", ["heuristic", "random"], 1, seed=3, jobs=1, start=2, options={"joker_lead": "trump"}
    )
    with pytest.raises(OptionError, match="local rules"):
        merge_summaries([a, e])
    with pytest.raises(OptionError, match="per_deal"):
        merge_summaries([a, {**c, "seed": 3, "per_deal": {"heuristic": [1.0], "random": []}}])
    with pytest.raises(OptionError, match="'seed' is missing or not a whole number"):
        merge_summaries([a, {"game": "meitora"}])
    with pytest.raises(OptionError, match="at least two"):
        merge_summaries([a])
    with pytest.raises(OptionError, match="interrupted"):
        merge_summaries([a, {**c, "seed": 3, "interrupted": {"deals_finished": 1, "deals_asked": 2}}])
    with pytest.raises(OptionError, match="not a shard"):
        merge_summaries([a, {**c, "seed": 3, "first_deal": -1}])


def test_cli_merges_shard_summaries(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for start, deals in ((0, 2), (2, 1)):
        assert (
            main(
                [
                    "tournament",
                    "meitora",
                    "--bots",
                    "heuristic,random",
                    "--deals",
                    str(deals),
                    "--start",
                    str(start),
                    "--seed",
                    "9",
                    "--jobs",
                    "1",
                    "--quiet",
                    "--out",
                    str(tmp_path / f"s{start}"),
                ]
            )
            == 0
        )
    capsys.readouterr()
    shards = [str(tmp_path / "s0" / "summary.json"), str(tmp_path / "s2" / "summary.json")]
    assert main(["tournament-merge", *shards, "--out", str(tmp_path / "all"), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["deals"] == 3 and out["first_deal"] == 0 and "per_deal" not in out
    written = json.loads((tmp_path / "all" / "summary.json").read_text(encoding="utf-8"))
    assert len(written["per_deal"]["heuristic"]) == 3
    assert not (tmp_path / "all" / "records").exists()
    # the same shard twice: refused, naming the files
    assert main(["tournament-merge", shards[0], shards[0]]) == 2
    err = capsys.readouterr().err
    assert "overlap" in err and shards[0] in err
    (tmp_path / "bad.json").write_text("{not json", encoding="utf-8")
    assert main(["tournament-merge", shards[0], str(tmp_path / "bad.json")]) == 1  # bad data
    assert "bad.json: not JSON" in capsys.readouterr().err
    assert main(["tournament-merge", shards[0], str(tmp_path / "missing.json")]) == 1
    assert "missing.json: cannot be read" in capsys.readouterr().err


def test_partnership_seatings_keep_each_team_one_kind() -> None:
    # six-player Kakeya: pairs {0,3} {1,4} {2,5}; the old alternation put one of each kind in every pair
    seatings = rotations(["a", "b"], 6, 3)
    assert seatings == [["a", "b", "a", "a", "b", "a"], ["b", "a", "b", "b", "a", "b"]]
    for seating in seatings:
        assert all(seating[s] == seating[s + 3] for s in range(3))
    assert rotations(["a", "b"], 4, 2) == rotations(["a", "b"], 4)  # four seats: as before
    with pytest.raises(OptionError, match="each team is one kind"):
        rotations(["a", "b", "c"], 4, 2)


def test_kakeya_six_players_is_not_identically_zero_when_the_bots_differ() -> None:
    summary, results = run_tournament("kakeya", ["heuristic", "random"], 6, seed=3, jobs=1, options={"players": 6})
    assert any(abs(d.scores["heuristic"]) > 0 for d in results)
    assert summary["bots"]["heuristic"]["mean_score"] != 0
    assert summary["unit"] == "chips"


def test_three_kinds_at_a_two_team_table_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tournament", "meitora", "--bots", "random,heuristic,search:easy", "--deals", "1", "--quiet"]) == 2
    assert "each team is one kind" in capsys.readouterr().err


def test_scores_are_labelled_in_the_game_unit(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(
            [
                "tournament",
                "kakeya",
                "--players",
                "6",
                "--bots",
                "heuristic,random",
                "--deals",
                "2",
                "--jobs",
                "1",
                "--quiet",
                "--out",
                str(tmp_path / "t"),
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "chips/deal" in out and "points/deal" not in out
