"""The ``kirifuda`` command: play, replay, bench, tournament."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, Sequence

from .errors import KirifudaError, OptionError, RecordError
from .i18n import LANGS, default_lang

__all__ = ["main"]


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
            print(json.dumps({"error": {"deal": exc.deal, "action": exc.action, "seat": exc.seat,
                                        "message": str(exc)}}, ensure_ascii=False))
        return 1
    if args.json:
        print(json.dumps(summary, ensure_ascii=False))
    else:
        print(account(rec, summary, args.lang))
    return 0


def _cmd_play(args: argparse.Namespace) -> int:
    from .game import parse_option_assignments
    from .games import find_game
    from .ui.terminal import TerminalGame

    try:
        info = find_game(args.game)
        opts_json = parse_option_assignments(args.option or [])
        if args.players is not None:
            opts_json["players"] = args.players
        options = info.options(opts_json)
        from .bots.base import default_bot

        bots = args.bots or default_bot(info.id)
        game = TerminalGame(info, options, seat=args.seat, bots=bots, seed=args.seed,
                            lang=args.lang, record_path=Path(args.record) if args.record else None,
                            first=args.first)
    except KirifudaError as exc:
        print(f"kirifuda play: {exc}", file=sys.stderr)
        return 2
    game.run()
    return 0


def _cmd_bench(args: argparse.Namespace) -> int:
    from . import bench
    from .games import find_game

    games = [find_game(g).id for g in args.game] if args.game else None
    result = bench.run(games, seconds=args.seconds, openspiel=not args.no_openspiel,
                       solver_deals=0 if args.no_solver else args.solver_deals,
                       decision_deals=0 if args.no_solver else args.decision_deals)
    if args.json:
        print(json.dumps(result))
        return 0
    for game_id, fig in result["games"].items():
        print(f"{game_id:10s} {fig['playouts_per_s']:10.0f} playouts/s  ({fig['actions_per_playout']:.1f} actions each)"
              f"  apply {fig['apply_us']:.2f} µs  legal_actions {fig['legal_actions_us']:.2f} µs"
              f"  copy {fig['copy_us']:.2f} µs")
        if "env_steps_per_s" in fig:
            print(f"{'':10s} {fig['env_steps_per_s']:10.0f} env steps/s (observation + mask + step)"
                  + (f"; through OpenSpiel {fig['openspiel_env_steps_per_s']:.0f}/s"
                     if "openspiel_env_steps_per_s" in fig else "")
                  + (f"; IS-MCTS {fig['ismcts_sims_per_s']:.0f} simulations/s"
                     if "ismcts_sims_per_s" in fig else ""))
    for name, fig in result.get("openspiel", {}).items():
        print(f"{'openspiel ' + name:10s} {fig['playouts_per_s']:10.0f} playouts/s  (pyspiel from Python, same loop)"
              + (f"; {fig['env_steps_per_s']:.0f} env steps/s (tensor + step)"
                 if "env_steps_per_s" in fig else ""))
    for game_id, fig in result.get("solver", {}).items():
        budget = (f" within {fig['full_deal_node_budget']:,} nodes (exact in {fig['full_deal_exact']} of {fig['deals']})"
                  if "full_deal_node_budget" in fig else "")
        print(f"{game_id:10s} solver, full deal{budget}: median {fig['full_deal_ms_median']:.2f} ms,"
              f" p90 {fig['full_deal_ms_p90']:.2f} ms, max {fig['full_deal_ms_max']:.2f} ms over {fig['deals']} deals"
              f" ({fig['core']} core)")
        if "every_card_ms_median" in fig:
            print(f"{'':10s} every first lead's value: median {fig['every_card_ms_median']:.2f} ms")
        for left, f in fig.get("by_tricks_left", {}).items():
            print(f"{'':10s} {left} tricks left ({f['exact']} of {f['positions']} exact): median {f['ms_median']:.2f} ms,"
                  f" p90 {f['ms_p90']:.2f} ms, max {f['ms_max']:.2f} ms")
        look = fig.get("first_lead_horizon_2_tricks")
        if look:
            print(f"{'':10s} the search bot's look-ahead from the first lead (2 tricks, then estimated):"
                  f" median {look['ms_median']:.2f} ms, max {look['ms_max']:.2f} ms")
        dds = fig.get("dds_bridge")
        if dds:
            print(f"{'':10s} DDS, bridge, {dds['tricks_left']} tricks left: median {dds['full_deal_ms_median']:.2f} ms,"
                  f" p90 {dds['full_deal_ms_p90']:.2f} ms, max {dds['full_deal_ms_max']:.2f} ms"
                  f" (every card's value, endplay's default: median {dds['all_cards_ms_median']:.2f} ms)")
            ratio = fig.get("dds_ratio")
            if ratio:
                print(f"{'':10s} {game_id}'s median over DDS's: {ratio['default_call']:.2f}× its default call (every card),"
                      f" {ratio['best_card']:.2f}× the best card alone"
                      + (f"; every first lead over every card: {ratio['every_card']:.2f}×" if "every_card" in ratio else ""))
            if "kirifuda_ms_median" in dds:
                print(f"{'':10s} kirifuda's solver on the same positions: median {dds['kirifuda_ms_median']:.2f} ms"
                      f" ({dds['kirifuda_differs']} values differ from DDS's)")
    for game_id, fig in result.get("decision", {}).items():
        print(f"{game_id:10s} search bot decisions: p95 {fig['p95_s']:.3f} s, median {fig['median_s']:.3f} s,"
              f" max {fig['max_s']:.3f} s ({fig['decisions']} decisions); p95 by phase: "
              + ", ".join(f"{ph} {v:.3f} s" for ph, v in fig["p95_s_by_phase"].items()))
    return 0


def _cmd_tournament(args: argparse.Namespace) -> int:
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    from .game import parse_option_assignments
    from .games import find_game
    from .tournament import run_tournament, write_outputs

    try:
        info = find_game(args.game)
        bots = [b.strip() for b in args.bots.split(",") if b.strip()]
        options = parse_option_assignments(args.option or [])
        info.options(options)
        out_dir = Path(args.out) if args.out else Path("tournaments") / f"{info.id}-{'-'.join(bots)}-{args.seed}".replace(":", "_")
        progress = Progress(TextColumn(f"{info.id}: {' vs '.join(bots)}"), BarColumn(), MofNCompleteColumn(),
                            TimeRemainingColumn(), transient=args.json, disable=args.json or args.quiet,
                            console=None)
        done: list[Any] = []
        interrupted = False
        try:
            with progress:
                task = progress.add_task("deals", total=args.deals)
                summary, results = run_tournament(info.id, bots, args.deals, seed=args.seed, jobs=args.jobs,
                                                  backend=args.backend, options=options,
                                                  time_decisions=args.time, start=args.start,
                                                  progress=lambda k: progress.advance(task, k), collected=done)
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
            print(f"kirifuda tournament: interrupted; {len(results)} of {args.deals} deals finished are "
                  "summarised", file=sys.stderr)
        files = write_outputs(summary, results, out_dir)
    except KirifudaError as exc:
        print(f"kirifuda tournament: {exc}", file=sys.stderr)
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
    print(f"{summary['game']}: {summary['deals']} duplicate deals, seed {summary['seed']}")
    for name, fig in summary["bots"].items():
        lo, hi = fig["ci95"]
        print(f"  {name:16s} {fig['mean_score']:+8.3f} points/deal   95% CI [{lo:+.3f}, {hi:+.3f}]")
    for pair, fig in summary["diff"].items():
        lo, hi = fig["ci95"]
        print(f"  {pair:16s} {fig['mean']:+8.3f}               95% CI [{lo:+.3f}, {hi:+.3f}]")
    for name, fig in summary.get("decision_s", {}).items():
        print(f"  {name:16s} decision time median {fig['median']:.3f} s, p95 {fig['p95']:.3f} s, max {fig['max']:.3f} s")
    print((f"records: {files['records']}   " if "records" in files else "") + f"summary: {files['summary']}" +
          (f"   chart: {files['chart']}" if "chart" in files else "   (no chart: pip install 'kirifuda[tournament]')"))


def _cmd_tournament_merge(args: argparse.Namespace) -> int:
    from .tournament import merge_summaries, write_outputs

    try:
        summaries = []
        for name in args.summaries:
            try:
                summaries.append(json.loads(Path(name).read_text(encoding="utf-8")))
            except OSError as exc:
                raise OptionError(f"{name}: cannot be read ({exc.strerror or exc})") from None
            except (json.JSONDecodeError, UnicodeDecodeError) as exc:
                raise OptionError(f"{name}: not JSON ({exc})") from None
        try:
            summary, results = merge_summaries(summaries)
        except OptionError as exc:
            # "summary 2: …" names the file
            msg = str(exc)
            for n in range(len(args.summaries), 0, -1):
                msg = msg.replace(f"summary {n}", args.summaries[n - 1])
            raise OptionError(msg) from None
        out_dir = Path(args.out) if args.out else Path("tournaments") / (
            f"{summary['game']}-{'-'.join(summary['bot_kinds'])}-{summary['seed']}-merged".replace(":", "_"))
        files = write_outputs(summary, results, out_dir, records=False)
    except KirifudaError as exc:
        print(f"kirifuda tournament-merge: {exc}", file=sys.stderr)
        return 2
    summary["files"] = files
    _print_summary(summary, args.json)
    return 0


def _cmd_serve(args: argparse.Namespace) -> int:
    from .server.serve import serve

    return serve(host=args.host, port=args.port, db=args.db, grace=args.grace,
                 bot_delay=args.bot_delay, open_browser=args.open)


def _cmd_bench_server(args: argparse.Namespace) -> int:
    from .server.bench import main as bench_main

    return bench_main(args)


def build_parser() -> argparse.ArgumentParser:
    lang = default_lang()
    parser = argparse.ArgumentParser(prog="kirifuda", description="Japan's regional trick-taking card games.")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("play", help="play a match in the terminal against bots")
    p.add_argument("game", help="meitora, napoleon, kakeya, unsun (or a Japanese name)")
    p.add_argument("--option", "-o", action="append", metavar="NAME=VALUE", help="a local rule (repeatable)")
    p.add_argument("--players", type=int, help="table size, where the game has a choice")
    p.add_argument("--seat", type=int, default=0, help="your seat (default 0)")
    p.add_argument("--first", type=int, default=0, help="the seat that starts deal 1 (default 0)")
    p.add_argument("--bots", default=None,
                   help="the bots' kind: search (default where the game has it; search:easy, search:strong),"
                        " heuristic or random")
    p.add_argument("--seed", type=int, help="seed the shuffles and the bots")
    p.add_argument("--lang", choices=LANGS, default=lang, help=f"language (default from the locale: {lang})")
    p.add_argument("--record", help="where to save the record (default: the user's data directory)")
    p.set_defaults(func=_cmd_play)

    p = sub.add_parser("replay", help="check a game record and print what happened")
    p.add_argument("file")
    p.add_argument("--json", action="store_true", help="print the result as JSON (record spec §3)")
    p.add_argument("--lang", choices=LANGS, default=lang)
    p.set_defaults(func=_cmd_replay)

    p = sub.add_parser("bench", help="measure the engines' speed")
    p.add_argument("--game", action="append", help="only this game (repeatable)")
    p.add_argument("--seconds", type=float, default=2.0, help="time per measurement (default 2)")
    p.add_argument("--json", action="store_true")
    p.add_argument("--no-openspiel", action="store_true", help="skip the OpenSpiel comparison")
    p.add_argument("--solver-deals", type=int, default=200, help="full deals solved per game (default 200)")
    p.add_argument("--decision-deals", type=int, default=4, help="deals of search bots timed (default 4)")
    p.add_argument("--no-solver", action="store_true", help="skip the solver and bot benchmarks")
    p.set_defaults(func=_cmd_bench)

    p = sub.add_parser("serve", help="start the web app (play in the browser)")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8000, help="port (default 8000; the next free one if taken)")
    p.add_argument("--db", help="database URL (default: SQLite in the user's data directory; "
                               "postgresql+asyncpg://user@host/db for PostgreSQL)")
    p.add_argument("--grace", type=float, default=60.0, help="seconds a dropped player keeps the seat (default 60)")
    p.add_argument("--bot-delay", type=float, default=0.8, help="seconds a bot waits before acting (default 0.8)")
    p.add_argument("--open", action="store_true", help="open the browser")
    p.set_defaults(func=_cmd_serve)

    p = sub.add_parser("bench-server", help="load-test the web app with bot tables over WebSockets")
    p.add_argument("--db", action="append", help="database URL (repeatable; default a fresh SQLite file)")
    p.add_argument("--tables", type=int, default=20, help="concurrent tables (default 20, at most 200)")
    p.add_argument("--seconds", type=float, default=10.0, help="how long to drive them (default 10, at most 120)")
    p.add_argument("--game", default="meitora")
    p.add_argument("--bot-seats", type=int, default=0,
                   help="seats of each table played by the server's search bot (default 0: all human)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=_cmd_bench_server)

    p = sub.add_parser("tournament", help="duplicate matches between bots, with confidence intervals")
    p.add_argument("game")
    p.add_argument("--bots", default="search,heuristic",
                   help="comma-separated bot kinds (random, heuristic, search[:easy|strong], oracle)")
    p.add_argument("--deals", type=int, default=100, help="deals, each played once per rotation (default 100)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--start", type=int, default=0, help="index of the first deal (shards of one tournament)")
    p.add_argument("--jobs", type=int, help="processes (default: all cores)")
    p.add_argument("--backend", choices=("local", "ray"), default="local",
                   help="local processes (default) or a Ray cluster (pip install 'kirifuda[ray]')")
    p.add_argument("--option", "-o", action="append", metavar="NAME=VALUE", help="a local rule (repeatable)")
    p.add_argument("--out", help="directory for the records, summary.json and summary.png")
    p.add_argument("--time", action="store_true", help="also measure each bot's decision time (CPU)")
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=_cmd_tournament)

    p = sub.add_parser("tournament-merge",
                       help="one tournament's summary from the summary.json files of its shards (--start)")
    p.add_argument("summaries", nargs="+", metavar="SUMMARY", help="the shards' summary.json files")
    p.add_argument("--out", help="directory for the merged summary.json and summary.png")
    p.add_argument("--json", action="store_true", help="print the merged summary as JSON")
    p.set_defaults(func=_cmd_tournament_merge)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args))
    except BrokenPipeError:  # e.g. `kirifuda replay x.json | head`
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
