# PYTHON_ARGCOMPLETE_OK
"""The ``kirifuda`` command: play, replay, rules, options, bench, tournament, serve.

Every error is a message naming the problem, never a traceback: exit status 2 for a usage
error (an unknown game, option or value out of range), 1 for bad data (a record that cannot
be read or replayed, a file that cannot be written).  Shell completion: ``kirifuda completion
bash`` prints the script to source (argcomplete).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import sys
from pathlib import Path
from typing import Any, Callable, Sequence

from . import __version__
from .errors import KirifudaError, OptionError, RecordError
from .i18n import LANGS, default_lang

__all__ = ["main", "build_parser"]


# -- argument types: refused by argparse with a message (exit status 2) ----------------------


def _game_arg(name: str) -> str:
    """A game by id, name or alias → its id."""
    from .games import find_game

    try:
        return find_game(name).id
    except OptionError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _int_at_least(low: int, high: int | None = None) -> Callable[[str], int]:
    def read(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if value < low or (high is not None and value > high):
            raise argparse.ArgumentTypeError(
                f"{value} is out of range: {low}" + (f"–{high}" if high is not None else " or more")
            )
        return value

    read.__name__ = "whole number"
    return read


def _float_at_least(low: float, high: float | None = None, *, strict: bool = False) -> Callable[[str], float]:
    def read(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
        if math.isnan(value) or (value <= low if strict else value < low) or (high is not None and value > high):
            bound = f"more than {low:g}" if strict else f"at least {low:g}"
            raise argparse.ArgumentTypeError(
                f"{text} is out of range: {bound}" + (f" and at most {high:g}" if high is not None else "")
            )
        return value

    read.__name__ = "number"
    return read


def _game_options(info: Any, args: argparse.Namespace) -> dict[str, Any]:
    """The local rules of ``-o``, ``--players`` and ``--length`` as the game's options JSON."""
    from .ui.options import length_option, parse_assignments

    opts = parse_assignments(info, args.option or [])
    players = getattr(args, "players", None)
    if players is not None:
        if info.min_players == info.max_players:
            if players != info.min_players:
                raise OptionError(f"--players {players}: {info.id} is played by {info.min_players}")
        elif not info.min_players <= players <= info.max_players:
            raise OptionError(f"--players {players}: {info.id} is played by {info.min_players}–{info.max_players}")
        else:
            opts["players"] = players
    length = getattr(args, "length", None)
    if length is not None:
        opts[length_option(info)] = length
    info.options(opts)  # refuse a bad combination now
    return opts


def _cmd_replay(args: argparse.Namespace) -> int:
    from . import record as records
    from .ui.replay_text import account

    try:
        try:
            text = Path(args.file).read_text(encoding="utf-8")
        except OSError as exc:
            raise RecordError(f"cannot read {args.file}: {exc.strerror}") from None
        except UnicodeDecodeError as exc:
            raise RecordError(f"not valid JSON: not UTF-8 text ({exc})") from None
        rec = records.loads(text)
        state = records.replay(rec)
        summary = state.summary()
    except RecordError as exc:
        print(f"kirifuda replay: {args.file}: {exc}", file=sys.stderr)
        if args.json:
            print(
                json.dumps(
                    {"error": {"deal": exc.deal, "action": exc.action, "seat": exc.seat, "message": str(exc)}},
                    ensure_ascii=False,
                )
            )
        return 1
    if args.json:
        print(json.dumps(summary, ensure_ascii=False))
    else:
        print(account(rec, summary, args.lang))
    return 0


def _check_record_path(path: Path, force: bool) -> None:
    """Refuse, before the match starts, a record path that cannot be written or that would
    overwrite a file without ``--force``."""
    if path.is_dir():
        raise OptionError(f"--record {path}: is a directory")
    if path.exists() and not force:
        raise OptionError(f"--record {path}: the file exists (--force overwrites it)")
    parent = path.parent
    try:
        parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise RecordError(f"--record {path}: cannot create {parent}: {exc.strerror or exc}") from None
    if not os.access(parent, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise RecordError(f"--record {path}: cannot be written (no permission)")


def _read_record(name: str) -> Any:
    from . import record as records

    try:
        text = Path(name).read_text(encoding="utf-8")
    except OSError as exc:
        raise RecordError(f"cannot read {name}: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise RecordError(f"{name}: not valid JSON: not UTF-8 text ({exc})") from None
    return records.loads(text)


def _cmd_play(args: argparse.Namespace) -> int:
    from . import record as records
    from .bots import make_bot
    from .bots.base import default_bot
    from .games import find_game
    from .i18n import t
    from .ui.terminal import TerminalGame

    state = None
    names = None
    seat = args.seat
    if args.resume:
        rec = _read_record(args.resume)
        state = records.replay(rec)
        info = rec.info
        if args.game is not None and args.game != info.id:
            raise OptionError(f"--resume {args.resume} is a record of {info.id}, not {args.game}")
        if args.option or args.players is not None or args.length is not None:
            raise OptionError("--resume goes on with the record's own rules: no -o, --players or --length")
        if state.is_over:
            raise RecordError(f"{args.resume}: the match is over: there is nothing to resume")
        names = rec.players
        if seat is None and names:  # the user's seat: the one with the user's name
            mine = {args.name} if args.name else {t("you", lang) for lang in LANGS}
            found = [s for s, n in enumerate(names) if n in mine]
            seat = found[0] if len(found) == 1 else None
        options = info.options(rec.options)
        path: Path | None = Path(args.record) if args.record else Path(args.resume)
        if args.record:
            _check_record_path(Path(args.record), args.force)
    else:
        if args.game is None:
            from .games import GAMES

            raise OptionError(f"name the game to play ({', '.join(GAMES)}) or --resume RECORD")
        info = find_game(args.game)
        options = info.options(_game_options(info, args))
        path = Path(args.record) if args.record else None
        if path is not None:
            _check_record_path(path, args.force)
    bots = args.bots or default_bot(info.id)
    make_bot(bots, info.id)
    if args.kind and not args.practice:
        raise OptionError("--kind is for practice: add --practice")
    if args.practice:  # undo, replay and deals of a kind (kirifuda.coach.practice_terminal)
        from .coach.practice_terminal import PracticeGame

        game: TerminalGame = PracticeGame(
            info,
            options,
            kind=args.kind,
            seat=seat or 0,
            bots=bots,
            seed=args.seed,
            lang=args.lang,
            record_path=path,
            first=args.first,
            state=state,
            name=args.name,
            names=names,
        )
    else:
        game = TerminalGame(
            info,
            options,
            seat=seat or 0,
            bots=bots,
            seed=args.seed,
            lang=args.lang,
            record_path=path,
            first=args.first,
            state=state,
            name=args.name,
            names=names,
        )
    if path is None:
        _check_record_path(game.record_path, False)
    try:
        game.run()
    except OSError as exc:
        raise RecordError(f"the record could not be saved: {exc.strerror or exc}") from None
    return 0


def _cmd_bench(args: argparse.Namespace) -> int:
    from . import bench
    from .games import find_game

    games = [find_game(g).id for g in args.game] if args.game else None  # ids already (_game_arg)
    if args.vector:  # the batched envs beside PettingZoo's benchmark (kirifuda.env.vector_bench)
        from .env.vector_bench import lines, run

        figures = run(games, seconds=args.seconds, cpu=True)
        print(json.dumps(figures) if args.json else "\n".join(lines(figures)))
        return 0
    result = bench.run(
        games,
        seconds=args.seconds,
        openspiel=not args.no_openspiel,
        solver_deals=0 if args.no_solver else args.solver_deals,
        decision_deals=0 if args.no_solver else args.decision_deals,
        coach_deals=(
            min(2, 0 if args.no_solver else args.decision_deals) if args.coach_deals is None else args.coach_deals
        ),
    )
    if args.json:
        print(json.dumps(result))
        return 0
    for game_id, fig in result["games"].items():
        print(
            f"{game_id:10s} {fig['playouts_per_s']:10.0f} playouts/s  ({fig['actions_per_playout']:.1f} actions each)"
            f"  apply {fig['apply_us']:.2f} µs  legal_actions {fig['legal_actions_us']:.2f} µs"
            f"  copy {fig['copy_us']:.2f} µs"
        )
        if "env_steps_per_s" in fig:
            print(
                f"{'':10s} {fig['env_steps_per_s']:10.0f} env steps/s (observation + mask + step)"
                + (
                    f"; through OpenSpiel {fig['openspiel_env_steps_per_s']:.0f}/s"
                    if "openspiel_env_steps_per_s" in fig
                    else ""
                )
                + (f"; IS-MCTS {fig['ismcts_sims_per_s']:.0f} simulations/s" if "ismcts_sims_per_s" in fig else "")
            )
    for name, fig in result.get("openspiel", {}).items():
        print(
            f"{'openspiel ' + name:10s} {fig['playouts_per_s']:10.0f} playouts/s  (pyspiel from Python, same loop)"
            + (f"; {fig['env_steps_per_s']:.0f} env steps/s (tensor + step)" if "env_steps_per_s" in fig else "")
        )
    for game_id, fig in result.get("solver", {}).items():
        budget = (
            f" within {fig['full_deal_node_budget']:,} nodes (exact in {fig['full_deal_exact']} of {fig['deals']})"
            if "full_deal_node_budget" in fig
            else ""
        )
        print(
            f"{game_id:10s} solver, full deal{budget}: median {fig['full_deal_ms_median']:.2f} ms,"
            f" p90 {fig['full_deal_ms_p90']:.2f} ms, max {fig['full_deal_ms_max']:.2f} ms over {fig['deals']} deals"
            f" ({fig['core']} core)"
        )
        if "every_card_ms_median" in fig:
            print(f"{'':10s} every first lead's value: median {fig['every_card_ms_median']:.2f} ms")
        for left, f in fig.get("by_tricks_left", {}).items():
            print(
                f"{'':10s} {left} tricks left ({f['exact']} of {f['positions']} exact): median {f['ms_median']:.2f} ms,"
                f" p90 {f['ms_p90']:.2f} ms, max {f['ms_max']:.2f} ms"
            )
        look = fig.get("first_lead_horizon_2_tricks")
        if look:
            print(
                f"{'':10s} the search bot's look-ahead from the first lead (2 tricks, then estimated):"
                f" median {look['ms_median']:.2f} ms, max {look['ms_max']:.2f} ms"
            )
        dds = fig.get("dds_bridge")
        if dds:
            print(
                f"{'':10s} DDS, bridge, {dds['tricks_left']} tricks left: median {dds['full_deal_ms_median']:.2f} ms,"
                f" p90 {dds['full_deal_ms_p90']:.2f} ms, max {dds['full_deal_ms_max']:.2f} ms"
                f" (every card's value, endplay's default: median {dds['all_cards_ms_median']:.2f} ms)"
            )
            ratio = fig.get("dds_ratio")
            if ratio:
                print(
                    f"{'':10s} {game_id}'s median over DDS's: {ratio['default_call']:.2f}× its default call (every card),"
                    f" {ratio['best_card']:.2f}× the best card alone"
                    + (
                        f"; every first lead over every card: {ratio['every_card']:.2f}×"
                        if "every_card" in ratio
                        else ""
                    )
                )
            if "kirifuda_ms_median" in dds:
                print(
                    f"{'':10s} kirifuda's solver on the same positions: median {dds['kirifuda_ms_median']:.2f} ms"
                    f" ({dds['kirifuda_differs']} values differ from DDS's)"
                )
    for game_id, fig in result.get("decision", {}).items():
        print(
            f"{game_id:10s} search bot decisions: p95 {fig['p95_s']:.3f} s, median {fig['median_s']:.3f} s,"
            f" max {fig['max_s']:.3f} s ({fig['decisions']} decisions); p95 by phase: "
            + ", ".join(f"{ph} {v:.3f} s" for ph, v in fig["p95_s_by_phase"].items())
        )
    if "coach" in result:
        from .coach.bench import coach_lines

        print("\n".join(coach_lines(result["coach"])))
    return 0


def _cmd_tournament(args: argparse.Namespace) -> int:
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )

    from .games import find_game
    from .tournament import run_tournament, write_outputs

    try:
        info = find_game(args.game)
        bots = [b.strip() for b in args.bots.split(",") if b.strip()]
        options = _game_options(info, args)
        # one directory name: ':' and a policy file's path separators become '_'
        out_dir = (
            Path(args.out)
            if args.out
            else Path("tournaments") / re.sub(r"[^\w.-]", "_", f"{info.id}-{'-'.join(bots)}-{args.seed}")
        )
        progress = Progress(
            TextColumn(f"{info.id}: {' vs '.join(bots)}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeRemainingColumn(),
            transient=args.json,
            disable=args.json or args.quiet,
            console=None,
        )
        done: list[Any] = []
        interrupted = False
        try:
            with progress:
                task = progress.add_task("deals", total=args.deals)
                summary, results = run_tournament(
                    info.id,
                    bots,
                    args.deals,
                    seed=args.seed,
                    jobs=args.jobs,
                    backend=args.backend,
                    options=options,
                    time_decisions=args.time,
                    start=args.start,
                    progress=lambda k: progress.advance(task, k),
                    collected=done,
                )
        except KeyboardInterrupt:
            # stopped (Ctrl-C): the deals that finished are summarised and written, not lost
            if not done:
                print("kirifuda tournament: interrupted before any deal finished", file=sys.stderr)
                return 130
            from .tournament import summarize

            interrupted = True
            results = sorted(done, key=lambda d: d.index)
            summary = summarize(info.id, bots, results, args.seed)
            summary["options"] = options
            summary["interrupted"] = {"deals_finished": len(results), "deals_asked": args.deals}
            print(
                f"kirifuda tournament: interrupted; {len(results)} of {args.deals} deals finished are summarised",
                file=sys.stderr,
            )
        files = write_outputs(summary, results, out_dir)
    except KirifudaError as exc:
        from .botwords import in_words  # --bots naming a bot that cannot be made

        print(f"kirifuda tournament: {in_words(str(exc), default_lang())}", file=sys.stderr)
        return 2
    summary["files"] = files
    _print_summary(summary, args.json)
    return 130 if interrupted else 0


def _print_summary(summary: dict[str, Any], as_json: bool) -> None:
    """A tournament's summary on stdout: JSON (without the per-deal scores: they are in
    summary.json), or a table."""
    files = summary["files"]
    if as_json:
        summary = {k: v for k, v in summary.items() if k != "per_deal"}
        print(json.dumps(summary, ensure_ascii=False))
        return
    from .i18n import t
    from .ui.results import game_text

    unit = t(game_text(summary["game"]).unit, "en")
    print(f"{summary['game']}: {summary['deals']} duplicate deals, seed {summary['seed']}")
    if summary.get("seating"):
        print(f"  seating: {summary['seating']}")
    for name, fig in summary["bots"].items():
        lo, hi = fig["ci95"]
        print(f"  {name:16s} {fig['mean_score']:+8.3f} {unit}/deal   95% CI [{lo:+.3f}, {hi:+.3f}]")
    for pair, fig in summary["diff"].items():
        lo, hi = fig["ci95"]
        print(f"  {pair:16s} {fig['mean']:+8.3f} {unit}/deal   95% CI [{lo:+.3f}, {hi:+.3f}]")
    for name, fig in summary.get("decision_s", {}).items():
        print(
            f"  {name:16s} decision time median {fig['median']:.3f} s, p95 {fig['p95']:.3f} s, max {fig['max']:.3f} s"
        )
    print(
        (f"records: {files['records']}   " if "records" in files else "")
        + f"summary: {files['summary']}"
        + (f"   chart: {files['chart']}" if "chart" in files else "   (no chart: pip install 'kirifuda[tournament]')")
    )


def _cmd_tournament_merge(args: argparse.Namespace) -> int:
    from .tournament import merge_summaries, write_outputs

    try:
        summaries = []
        for name in args.summaries:
            try:
                summaries.append(json.loads(Path(name).read_text(encoding="utf-8")))
            except OSError as exc:  # bad data: exit status 1
                raise RecordError(f"{name}: cannot be read ({exc.strerror or exc})") from None
            except (json.JSONDecodeError, UnicodeDecodeError) as exc:
                raise RecordError(f"{name}: not JSON ({exc})") from None
        try:
            summary, results = merge_summaries(summaries)
        except OptionError as exc:
            # "summary 2: …" names the file
            msg = str(exc)
            for n in range(len(args.summaries), 0, -1):
                msg = msg.replace(f"summary {n}", args.summaries[n - 1])
            raise OptionError(msg) from None
        out_dir = (
            Path(args.out)
            if args.out
            else Path("tournaments")
            / (f"{summary['game']}-{'-'.join(summary['bot_kinds'])}-{summary['seed']}-merged".replace(":", "_"))
        )
        files = write_outputs(summary, results, out_dir, records=False)
    except RecordError as exc:
        print(f"kirifuda tournament-merge: {exc}", file=sys.stderr)
        return 1
    except KirifudaError as exc:
        print(f"kirifuda tournament-merge: {exc}", file=sys.stderr)
        return 2
    summary["files"] = files
    _print_summary(summary, args.json)
    return 0


def _cmd_serve(args: argparse.Namespace) -> int:
    from .server.serve import serve

    return serve(
        host=args.host,
        port=args.port,
        db=args.db,
        grace=args.grace,
        bot_delay=args.bot_delay,
        open_browser=args.open,
        redis=args.redis,
        process=args.process,
        advertise=args.advertise,
        remote_bots=args.remote_bots,
    )


def _cmd_bot_worker(args: argparse.Namespace) -> int:
    from .server.botworker import main as worker_main

    return worker_main(args.redis, args.threads)


def _cmd_bench_server(args: argparse.Namespace) -> int:
    from .server.bench import main as bench_main

    return bench_main(args)


def _cmd_rules(args: argparse.Namespace) -> int:
    from .games import GAMES
    from .i18n import t
    from .ui.results import game_text

    game_text(args.game)
    info = GAMES[args.game]
    print(f"{info.name_ja if args.lang == 'ja' else info.name_en}\n")
    print(t(f"{args.game}.rules", args.lang))
    print(f"\n{t('see_options', args.lang, game=args.game)}")
    return 0


def _cmd_options(args: argparse.Namespace) -> int:
    from .games import GAMES
    from .i18n import t
    from .ui.options import length_option, option_specs

    info = GAMES[args.game]
    specs = option_specs(info)
    if args.json:
        print(
            json.dumps(
                [
                    {
                        "name": sp.name,
                        "values": sp.values_text(),
                        "default": sp.default,
                        "help": sp.explain(info.id, args.lang),
                    }
                    for sp in specs
                ],
                ensure_ascii=False,
            )
        )
        return 0
    print(t("options_header", args.lang, game=info.name_ja if args.lang == "ja" else info.name_en))
    for sp in specs:
        default = (
            "none"
            if sp.default is None
            else str(sp.default).lower()
            if isinstance(sp.default, bool)
            else str(sp.default)
        )
        print(f"  {sp.name} = {sp.values_text()}  ({t('default', args.lang)}: {default})")
        explain = sp.explain(info.id, args.lang)
        if explain:
            print(f"      {explain}")
    print(t("options_footer", args.lang, game=info.id, length=length_option(info)))
    return 0


def _cmd_completion(args: argparse.Namespace) -> int:
    try:
        from argcomplete.shell_integration import shellcode
    except ImportError:  # pragma: no cover - a dependency
        raise OptionError("shell completion needs argcomplete: pip install argcomplete") from None
    print(shellcode(["kirifuda"], shell=args.shell))
    return 0


def _add_game(p: argparse.ArgumentParser, nargs: str | None = None) -> None:
    from .games import GAMES

    action = p.add_argument("game", type=_game_arg, nargs=nargs, help=f"{', '.join(GAMES)} (or a Japanese name)")
    action.completer = lambda **_: sorted(GAMES)  # type: ignore[attr-defined]


def _add_rules(p: argparse.ArgumentParser) -> None:
    """The local rules: -o, --players, --length (the same on play and tournament)."""
    p.add_argument(
        "--option",
        "-o",
        action="append",
        metavar="NAME=VALUE",
        help="a local rule (repeatable; booleans true/false/1/0/yes/no; see: kirifuda options GAME)",
    )
    p.add_argument(
        "--players",
        type=_int_at_least(2, 8),
        metavar="N",
        help="table size, where the game has a choice (kirifuda options GAME lists the sizes)",
    )
    p.add_argument(
        "--length",
        type=_int_at_least(1),
        metavar="N",
        help="the match's length in the game's own terms: target points, deals or games"
        " (also -o length=N; kirifuda options GAME names it)",
    )


def _cmd_learn(args: argparse.Namespace) -> int:
    from .tutorials.terminal import learn_command

    return learn_command(args)


def build_parser() -> argparse.ArgumentParser:
    lang = default_lang()
    parser = argparse.ArgumentParser(prog="kirifuda", description="Japan's regional trick-taking card games.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = sub.add_parser("play", help="play a match in the terminal against bots")
    _add_game(p, nargs="?")
    _add_rules(p)
    p.add_argument("--seat", type=_int_at_least(0), default=None, help="your seat (default 0)")
    p.add_argument("--first", type=_int_at_least(0), default=0, help="the seat that starts deal 1 (default 0)")
    p.add_argument(
        "--bots",
        default=None,
        help="the bots' kind: search (default where the game has it; search:easy, search:strong),"
        " heuristic, random or policy:FILE (a trained policy)",
    )
    p.add_argument("--name", help="your name in the record (default: you)")
    p.add_argument("--seed", type=int, help="seed the shuffles and the bots")
    p.add_argument("--lang", choices=LANGS, default=lang, help=f"language (default from the locale: {lang})")
    p.add_argument("--record", metavar="FILE", help="where to save the record (default: the user's data directory)")
    p.add_argument("--force", action="store_true", help="overwrite the --record file if it exists")
    p.add_argument(
        "--resume",
        metavar="RECORD",
        help="go on with a stopped match from its record (saved back to it unless --record)",
    )
    p.add_argument(
        "--practice",
        action="store_true",
        help="practice: u takes back your last decision, again N replays the deal from trick N",
    )
    p.add_argument(
        "--kind",
        metavar="KIND",
        help="with --practice: deals of a kind (e.g. declarer, should_bid, close; see docs/coach.md)",
    )
    p.set_defaults(func=_cmd_play)

    p = sub.add_parser("replay", help="check a game record and print what happened")
    p.add_argument("file", metavar="RECORD", help="the record (kirifuda-record/1 JSON)")
    p.add_argument("--json", action="store_true", help="print the result as JSON (record spec §3)")
    p.add_argument("--lang", choices=LANGS, default=lang, help=f"language (default from the locale: {lang})")
    p.set_defaults(func=_cmd_replay)

    p = sub.add_parser("learn", help="learn a game: a guided first deal (tutorial)")
    _add_game(p)
    p.add_argument("--lang", choices=LANGS, default=lang, help=f"language (default from the locale: {lang})")
    p.add_argument("--file", metavar="TUTORIAL", help="a tutorial of your own (kirifuda-tutorial/1 JSON)")
    p.set_defaults(func=_cmd_learn)

    p = sub.add_parser("rules", help="the rules of a game, in short")
    _add_game(p)
    p.add_argument("--lang", choices=LANGS, default=lang, help=f"language (default from the locale: {lang})")
    p.set_defaults(func=_cmd_rules)

    p = sub.add_parser("options", help="a game's local rules (-o NAME=VALUE) with their defaults")
    _add_game(p)
    p.add_argument("--lang", choices=LANGS, default=lang, help=f"language (default from the locale: {lang})")
    p.add_argument("--json", action="store_true", help="print them as JSON")
    p.set_defaults(func=_cmd_options)

    p = sub.add_parser("bench", help="measure the engines' speed")
    p.add_argument("--game", action="append", type=_game_arg, help="only this game (repeatable)")
    p.add_argument(
        "--seconds", type=_float_at_least(0, 3600, strict=True), default=2.0, help="time per measurement (default 2)"
    )
    p.add_argument("--json", action="store_true", help="print the figures as JSON")
    p.add_argument("--no-openspiel", action="store_true", help="skip the OpenSpiel comparison")
    p.add_argument(
        "--solver-deals", type=_int_at_least(0), default=200, help="full deals solved per game (default 200)"
    )
    p.add_argument("--decision-deals", type=_int_at_least(0), default=4, help="deals of search bots timed (default 4)")
    p.add_argument("--no-solver", action="store_true", help="skip the solver and bot benchmarks")
    p.add_argument(
        "--vector", action="store_true", help="the batched envs' steps/s beside PettingZoo's benchmark (CPU time)"
    )
    p.add_argument(
        "--coach-deals",
        type=_int_at_least(0),
        default=None,
        help="deals of the coach's hints and reviews timed (default: as many as --decision-deals,"
        " at most 2; 0 skips them)",
    )
    p.set_defaults(func=_cmd_bench)

    p = sub.add_parser("serve", help="start the web app (play in the browser)")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument(
        "--port",
        type=_int_at_least(0, 65535),
        default=8000,
        help="port (default 8000; an error if it is in use; 0: any free port)",
    )
    p.add_argument(
        "--db",
        help="database URL (default: SQLite in the user's data directory; "
        "postgresql+asyncpg://user@host/db for PostgreSQL)",
    )
    p.add_argument(
        "--grace", type=_float_at_least(0), default=60.0, help="seconds a dropped player keeps the seat (default 60)"
    )
    p.add_argument(
        "--bot-delay", type=_float_at_least(0), default=0.8, help="seconds a bot waits before acting (default 0.8)"
    )
    p.add_argument("--open", action="store_true", help="open the browser")
    p.add_argument(
        "--redis",
        help="redis://host:port: one of several processes sharing the tables "
        "(needs a PostgreSQL --db; see docs/deploy.md)",
    )
    p.add_argument("--process", help="this process's name in the cluster (default: a random one)")
    p.add_argument(
        "--advertise", help="http://host:port where the other processes reach this one (default: --host and --port)"
    )
    p.add_argument(
        "--remote-bots", action="store_true", help="the bots decide in `kirifuda bot-worker` processes (with --redis)"
    )
    p.set_defaults(func=_cmd_serve)

    p = sub.add_parser("bot-worker", help="make the bots' decisions for a cluster of servers")
    p.add_argument("--redis", required=True, help="the cluster's Redis (redis://host:port)")
    p.add_argument(
        "--threads", type=_int_at_least(1), default=None, help="decisions made at once (default: one per core)"
    )
    p.set_defaults(func=_cmd_bot_worker)

    p = sub.add_parser("bench-server", help="load-test the web app with bot tables over WebSockets")
    p.add_argument("--db", action="append", help="database URL (repeatable; default a fresh SQLite file)")
    p.add_argument(
        "--tables", type=_int_at_least(1, 200), default=20, help="concurrent tables (default 20, at most 200)"
    )
    p.add_argument(
        "--seconds",
        type=_float_at_least(0, 120, strict=True),
        default=10.0,
        help="how long to drive them (default 10, at most 120)",
    )
    p.add_argument("--game", type=_game_arg, default="meitora", help="the game the tables play (default meitora)")
    p.add_argument(
        "--bot-seats",
        type=_int_at_least(0),
        default=0,
        help="seats of each table played by the server's search bot (default 0: all human)",
    )
    p.add_argument("--json", action="store_true", help="print the figures as JSON")
    p.add_argument(
        "--instances",
        type=_int_at_least(1, 8),
        default=1,
        help="servers in a cluster (more than 1: give --redis and a PostgreSQL --db)",
    )
    p.add_argument("--redis", help="the cluster's Redis (redis://host:port; flushed by the benchmark)")
    p.add_argument("--remote-bots", action="store_true", help="the bots decide in bot workers")
    p.add_argument(
        "--bot-workers",
        type=_int_at_least(0, 8),
        default=0,
        help="kirifuda bot-worker processes to start (one thread each; with --redis)",
    )
    p.add_argument(
        "--kill", action="store_true", help="after the run, kill -9 one instance and time the take-over of its tables"
    )
    p.set_defaults(func=_cmd_bench_server)

    p = sub.add_parser("tournament", help="duplicate matches between bots, with confidence intervals")
    _add_game(p)
    p.add_argument(
        "--bots",
        default="search,heuristic",
        help="comma-separated bot kinds (random, heuristic, search[:easy|strong], oracle, policy:FILE)",
    )
    p.add_argument(
        "--deals", type=_int_at_least(1), default=100, help="deals, each played once per rotation (default 100)"
    )
    p.add_argument("--seed", type=int, default=0, help="seed of the cards and the bots (default 0)")
    p.add_argument(
        "--start", type=_int_at_least(0), default=0, help="index of the first deal (shards of one tournament)"
    )
    p.add_argument("--jobs", type=_int_at_least(1), help="processes (default: all cores)")
    p.add_argument(
        "--backend",
        choices=("local", "ray"),
        default="local",
        help="local processes (default) or a Ray cluster (pip install 'kirifuda[ray]')",
    )
    _add_rules(p)
    p.add_argument("--out", help="directory for the records, summary.json and summary.png")
    p.add_argument("--time", action="store_true", help="also measure each bot's decision time (CPU)")
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=_cmd_tournament)

    p = sub.add_parser(
        "tournament-merge", help="one tournament's summary from the summary.json files of its shards (--start)"
    )
    p.add_argument("summaries", nargs="+", metavar="SUMMARY", help="the shards' summary.json files")
    p.add_argument("--out", help="directory for the merged summary.json and summary.png")
    p.add_argument("--json", action="store_true", help="print the merged summary as JSON")
    p.set_defaults(func=_cmd_tournament_merge)

    p = sub.add_parser(
        "completion", help='print the shell completion script (source it: eval "$(kirifuda completion bash)")'
    )
    p.add_argument(
        "shell", nargs="?", default="bash", choices=("bash", "zsh", "fish", "tcsh"), help="the shell (default bash)"
    )
    p.set_defaults(func=_cmd_completion)

    from .coach.cli import add_parser as add_analyze_parser

    add_analyze_parser(sub, lang)

    from .doctor import add_parser as add_doctor_parser

    add_doctor_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    try:
        import argcomplete

        argcomplete.autocomplete(parser)
    except ImportError:  # pragma: no cover - a dependency
        pass
    args = parser.parse_args(argv)
    where = f"kirifuda {args.command}"
    if args.func in (_cmd_play, _cmd_serve, _cmd_tournament):  # a missing C core is said once
        from .doctor import announce_fallback

        announce_fallback(getattr(args, "lang", None))
    try:
        return int(args.func(args))
    except BrokenPipeError:  # e.g. `kirifuda replay x.json | head`
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except RecordError as exc:  # bad data: a record, a file
        print(f"{where}: {exc}", file=sys.stderr)
        return 1
    except KirifudaError as exc:  # a usage error: an option, a value, a combination
        from .botwords import in_words  # a bot that cannot be made: in the reader's words

        print(f"{where}: {in_words(str(exc), getattr(args, 'lang', None) or default_lang())}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"{where}: {exc.strerror or exc}" + (f": {exc.filename}" if exc.filename else ""), file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(f"{where}: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
