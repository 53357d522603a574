"""Duplicate tournaments between bots (``kirifuda tournament``).

Every deal is played once per rotation of the bots around the table (with two bots at a
four-seat table: ``a b a b`` then ``b a b a``), with the same cards, the same first player and
the same seeds, so that the luck of the cards cancels.  A deal is one deal of a match (from the
shuffle to its scoring; a redeal — all passed, or broken — counts as a deal scoring nothing).

A seat's score in a deal is its scoring unit's points (its team's, or its own) minus the mean
of the other units' points; a bot's score for a deal is the mean of its seats' scores over all
rotations.  The summary gives each bot's mean score per deal with a 95% confidence interval
(mean ± 1.96 standard errors over the deals: the deals are independent) and, for each pair,
the mean of the per-deal differences with its interval (paired: the duplicate deals make the
difference far less noisy than each score).

Reproducible: the cards of deal ``i`` come from ``Random(f"{seed}:deal:{i}")`` and each bot's
generator from ``Random(f"{seed}:{i}:{rotation}:{seat}")`` (string seeds hash the same in every
process), bots are created afresh for every rotation, and results are put back in deal order:
the same seed gives the same summary on one core, on all cores, or on a Ray cluster.  Shards of
one tournament (``--start``, ``--deals``: disjoint ranges of deals, e.g. on several machines)
are merged into the summary of the whole by ``kirifuda tournament-merge``.
"""

from __future__ import annotations

import json
import math
import multiprocessing
import os
import random
import statistics
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Mapping, Sequence

from .bots import make_bot
from .errors import OptionError
from .games import GAMES

__all__ = [
    "DealResult",
    "play_deal",
    "run_tournament",
    "summarize",
    "merge_summaries",
    "rotations",
    "seatings_with",
    "seat_scores",
]


@dataclass(frozen=True)
class DealResult:
    index: int
    scores: dict[str, float]
    """Each bot's mean seat score over the rotations."""
    records: list[dict[str, Any]]
    """The record (``kirifuda-record/1`` JSON) of each rotation."""
    decision_s: dict[str, list[float]]
    """The CPU time of each decision, per bot (only when asked for)."""


def rotations(bots: Sequence[str], num_players: int, num_units: int | None = None) -> list[list[str]]:
    """The distinct rotations of the seating ``bots[seat % len(bots)]``.  In a partnership game
    (``num_units`` teams, fewer than the seats; partners opposite, seat ``s`` plays for team
    ``s mod num_units``) every team is one kind: team ``u`` gets ``bots[(u + r) % len(bots)]``
    in rotation ``r``, so that with six-player Kakeya's three pairs and two kinds both kinds
    play each side.  More kinds than teams cannot be seated so: refused."""
    units = num_units or num_players
    out: list[list[str]] = []
    if units < num_players:
        if len(bots) > units:
            raise OptionError(
                f"{len(bots)} bot kinds at a table of {units} teams: each team is one kind, so at most {units} kinds"
            )
        for r in range(units):
            seating = [bots[(s % units + r) % len(bots)] for s in range(num_players)]
            if seating not in out:
                out.append(seating)
        return out
    pattern = [bots[s % len(bots)] for s in range(num_players)]
    for r in range(num_players):
        seating = pattern[r:] + pattern[:r]
        if seating not in out:
            out.append(seating)
    return out


def seatings_with(bots: Sequence[str], seats: int, num_players: int, num_units: int | None = None) -> list[list[str]]:
    """The seatings where the first of two bots holds ``seats`` of the seats and the second the
    rest (one ``search`` among three ``heuristic``, and the reverse), each seating turned once
    round the table so that every seat has each bot as often.  The first bot fills whole units
    first (its seats are partners where the game has partnerships: with 2 of Meitora's 4 seats
    it is one team; with 1 or 3 it partners the other bot)."""
    if len(bots) != 2:
        raise OptionError(f"seats of the first bot: two bots, not {len(bots)}")
    if not 1 <= seats < num_players:
        raise OptionError(f"the first bot holds 1 to {num_players - 1} of the {num_players} seats, not {seats}")
    units = num_units or num_players
    order = sorted(range(num_players), key=lambda s: (_unit_of("", units, num_players, s), s))
    pattern = [bots[1]] * num_players
    for s in order[:seats]:
        pattern[s] = bots[0]
    out: list[list[str]] = []
    for r in range(num_players):
        seating = pattern[r:] + pattern[:r]
        if seating not in out:
            out.append(seating)
    return out


def _unit_of(game_id: str, num_units: int, num_players: int, seat: int) -> int:
    if num_units == num_players:
        return seat
    if num_players % num_units == 0:  # partners opposite: seat s plays for s mod units
        return seat % num_units
    raise OptionError(f"cannot tell the scoring unit of seat {seat} in {game_id}")


def seat_scores(game_id: str, before: Sequence[float], after: Sequence[float], num_players: int) -> list[float]:
    """Each seat's points in a deal (its unit's gain) minus the mean gain of the other units."""
    gains = [a - b for a, b in zip(after, before)]
    n = len(gains)
    out = []
    for seat in range(num_players):
        u = _unit_of(game_id, n, num_players, seat)
        others = [g for i, g in enumerate(gains) if i != u]
        out.append(gains[u] - (sum(others) / len(others) if others else 0.0))
    return out


def _names(bots: Sequence[str]) -> list[str]:
    """Bot kinds as display names, numbered where a kind plays more than once."""
    out = []
    for i, b in enumerate(bots):
        out.append(b if bots.count(b) == 1 else f"{b}#{bots[: i + 1].count(b)}")
    return out


def play_deal(
    game_id: str,
    bots: Sequence[str],
    index: int,
    seed: int,
    options: dict[str, Any] | None = None,
    time_decisions: bool = False,
    seats: int | None = None,
) -> DealResult:
    """Deal ``index`` of the tournament, played once per rotation (``seats``: the first of two
    bots holds that many seats, :func:`seatings_with`)."""
    import time

    from . import record as records

    info = GAMES[game_id]
    opts = info.options(options or {})
    names = _names(bots)
    probe = info.new_state(opts)
    n = probe.num_players
    units = len(_totals(probe))
    first = index % n
    totals: dict[str, list[float]] = {name: [] for name in names}
    recs = []
    times: dict[str, list[float]] = {name: [] for name in names}
    seatings = rotations(names, n, units) if seats is None else seatings_with(names, seats, n, units)
    for r, seating in enumerate(seatings):
        state = info.new_state(opts, first=first)
        deal_no = state.deal_number
        state.deal_random(random.Random(f"{seed}:deal:{index}"))  # (a redeal at once ends the deal)
        players = [make_bot(bots[names.index(name)], game_id) for name in seating]
        rngs = [random.Random(f"{seed}:{index}:{r}:{s}") for s in range(n)]
        start_totals = [0.0] * len(_totals(state))
        observers = [(s, p) for s, p in enumerate(players) if hasattr(p, "observe")]
        while state.deal_number == deal_no and not state.is_over:
            seat = state.to_act
            assert seat is not None
            bot = players[seat]
            t0 = time.process_time() if time_decisions else 0.0
            if getattr(bot, "needs_state", False):
                action = bot.choose_state(state.copy(), rngs[seat])  # type: ignore[attr-defined]
            else:
                action = bot.choose(state.view(seat), rngs[seat])
            if time_decisions:
                times[seating[seat]].append(time.process_time() - t0)
            state.apply(action, seat)
            for s, p in observers:
                p.observe(state.view(s))
        scores = seat_scores(game_id, start_totals, [float(t) for t in _totals(state)], n)
        for s, name in enumerate(seating):
            totals[name].append(scores[s])
        recs.append(records.from_state(state, players=list(seating)).to_json())
    means = {name: (sum(v) / len(v) if v else 0.0) for name, v in totals.items()}
    return DealResult(index, means, recs, times)


def _unit(game_id: str) -> str:
    """The game's scoring unit in English (points, chips, tricks), as the summary labels scores."""
    from .i18n import t
    from .ui.results import game_text

    return t(game_text(game_id).unit, "en")


def _totals(state: Any) -> Sequence[float]:
    summary = state.summary()
    return [float(t) for t in summary["totals"]]


def _ci(values: Sequence[float]) -> tuple[float, list[float]]:
    m = sum(values) / len(values)
    if len(values) < 2:
        return m, [m, m]
    se = statistics.stdev(values) / math.sqrt(len(values))
    return m, [m - 1.96 * se, m + 1.96 * se]


def summarize(game_id: str, bots: Sequence[str], results: Sequence[DealResult], seed: int) -> dict[str, Any]:
    names = _names(bots)
    results = sorted(results, key=lambda d: d.index)
    out: dict[str, Any] = {
        "game": game_id,
        "deals": len(results),
        "seed": seed,
        "unit": _unit(game_id),
        "bots": {},
        "diff": {},
        "bot_kinds": list(bots),
        "first_deal": results[0].index if results else 0,
        "per_deal": {name: [round(d.scores[name], 4) for d in results] for name in names},
    }
    for name in names:
        m, ci = _ci([d.scores[name] for d in results])
        out["bots"][name] = {"mean_score": round(m, 4), "ci95": [round(ci[0], 4), round(ci[1], 4)]}
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            m, ci = _ci([d.scores[a] - d.scores[b] for d in results])
            out["diff"][f"{a}-{b}"] = {"mean": round(m, 4), "ci95": [round(ci[0], 4), round(ci[1], 4)]}
    times = {name: sorted(t for d in results for t in d.decision_s.get(name, [])) for name in names}
    if any(times.values()):
        out["decision_s"] = {
            name: {
                "median": round(statistics.median(v), 4),
                "p95": round(v[int(0.95 * (len(v) - 1))], 4),
                "max": round(v[-1], 4),
            }
            for name, v in times.items()
            if v
        }
    return out


# -- backends ---------------------------------------------------------------------------------


def _work(args: tuple[Any, ...]) -> DealResult:
    game_id, bots, index, seed, options, timing, *rest = args
    return play_deal(game_id, bots, index, seed, options, timing, rest[0] if rest else None)


def _local(tasks: list[Any], jobs: int) -> Iterator[DealResult]:
    if jobs <= 1:
        for t in tasks:
            yield _work(t)
        return
    ctx = multiprocessing.get_context("spawn" if os.name == "nt" else "fork")
    with ctx.Pool(jobs) as pool:
        yield from pool.imap_unordered(_work, tasks, chunksize=1)


def _ray(tasks: list[Any], jobs: int) -> Iterator[DealResult]:
    try:
        import ray  # type: ignore[import-not-found,import-untyped,unused-ignore]
    except ImportError:
        raise OptionError("the ray backend needs Ray: pip install 'kirifuda[ray]'") from None
    started = False
    if not ray.is_initialized():
        ray.init(
            num_cpus=jobs if jobs > 0 else None, include_dashboard=False, log_to_driver=False, ignore_reinit_error=True
        )
        started = True
    try:
        remote = ray.remote(_work)
        pending = [remote.remote(t) for t in tasks]
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                yield ray.get(ref)
    finally:
        if started:
            ray.shutdown()


def run_tournament(
    game_id: str,
    bots: Sequence[str],
    deals: int,
    seed: int = 0,
    jobs: int | None = None,
    backend: str = "local",
    options: dict[str, Any] | None = None,
    time_decisions: bool = False,
    progress: Callable[[int], None] | None = None,
    start: int = 0,
    collected: list[DealResult] | None = None,
    seats: int | None = None,
) -> tuple[dict[str, Any], list[DealResult]]:
    """Play the tournament (deals ``start`` … ``start + deals − 1``: shards of one tournament
    can run on different machines); returns the summary and every deal's result, in deal order.
    ``collected``: a list that receives each deal's result as it finishes (what an interrupted
    tournament has played).  ``seats``: the first of two bots holds that many seats of the
    table, the second the rest (:func:`seatings_with`); by default the bots alternate."""
    if game_id not in GAMES:
        raise OptionError(f"unknown game {game_id!r}")
    if len(bots) < 2:
        raise OptionError("a tournament needs at least two bots, e.g. --bots search,heuristic")
    if deals < 1:
        raise OptionError("--deals must be at least 1")
    for b in bots:  # refuse unknown kinds before starting any process
        make_bot(b, game_id)
    probe = GAMES[game_id].new_state(GAMES[game_id].options(options or {}))
    if seats is None:
        seatings = rotations(_names(bots), probe.num_players, len(_totals(probe)))  # refuses a mixed team
    else:
        seatings = seatings_with(_names(bots), seats, probe.num_players, len(_totals(probe)))
    jobs = jobs or os.cpu_count() or 1
    tasks = [(game_id, tuple(bots), i, seed, options, time_decisions, seats) for i in range(start, start + deals)]
    if backend == "local":
        it: Iterable[DealResult] = _local(tasks, jobs)
    elif backend == "ray":
        it = _ray(tasks, jobs)
    else:
        raise OptionError(f"unknown backend {backend!r}: local or ray")
    results = collected if collected is not None else []
    for res in it:
        results.append(res)
        if progress is not None:
            progress(1)
    results = sorted(results, key=lambda d: d.index)
    summary = summarize(game_id, bots, results, seed)
    summary["options"] = dict(options or {})
    summary["seating"] = " / ".join(" ".join(s) for s in seatings)
    if seats is not None:
        summary["seats"] = seats
    return summary, results


def merge_summaries(summaries: Sequence[Mapping[str, Any]]) -> tuple[dict[str, Any], list[DealResult]]:
    """One tournament's summary from its shards' (``--start``: the same game, bots, seed and
    local rules, deals that do not overlap), and each deal's result (its scores; records stay
    in the shards' directories).  Decision times are not merged: a shard's summary keeps only
    their quantiles."""
    if len(summaries) < 2:
        raise OptionError("merging needs the summaries of at least two shards")
    results: list[DealResult] = []
    first: Mapping[str, Any] | None = None
    kinds: list[str] = []
    shards: list[dict[str, int]] = []
    for n, sm in enumerate(summaries, 1):
        where = f"summary {n}"
        if not isinstance(sm, Mapping):
            raise OptionError(f"{where}: not a tournament summary (a JSON object)")
        for key, kind, what in (
            ("game", str, "a string"),
            ("seed", int, "a whole number"),
            ("deals", int, "a whole number"),
            ("first_deal", int, "a whole number"),
            ("bots", dict, "an object"),
            ("per_deal", dict, "an object"),
        ):
            if not isinstance(sm.get(key), kind) or isinstance(sm.get(key), bool):
                raise OptionError(
                    f"{where}: {key!r} is missing or not {what} "
                    "(the summary.json that kirifuda tournament writes is needed)"
                )
        if sm["deals"] < 1 or sm["first_deal"] < 0:
            raise OptionError(f"{where}: {sm['deals']} deals from deal {sm['first_deal']}: not a shard")
        if "interrupted" in sm:
            # the deals an interrupted run finished need not be one range
            raise OptionError(
                f"{where}: an interrupted tournament's summary: play its deals again (--start, --deals) and merge that"
            )
        names = list(sm["bots"])
        per_deal = sm["per_deal"]
        if sorted(per_deal) != sorted(names) or any(
            not isinstance(v, list)
            or len(v) != sm["deals"]
            or not all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in v)
            for v in per_deal.values()
        ):
            raise OptionError(f"{where}: 'per_deal' does not give each bot one score per deal")
        if first is None:
            first = sm
            kinds = list(sm.get("bot_kinds") or [name.split("#")[0] for name in names])
        else:
            for key in ("game", "seed"):
                if sm[key] != first[key]:
                    raise OptionError(
                        f"{where}: {key} {sm[key]!r}, but summary 1 has {first[key]!r}: not shards of one tournament"
                    )
            if names != list(first["bots"]):
                raise OptionError(
                    f"{where}: bots {', '.join(names)}, but summary 1 has "
                    f"{', '.join(first['bots'])}: not shards of one tournament"
                )
            if "options" in sm and "options" in first and sm["options"] != first["options"]:
                raise OptionError(f"{where}: local rules {sm['options']!r}, but summary 1 has {first['options']!r}")
        start = sm["first_deal"]
        for other in shards:
            if start < other["first_deal"] + other["deals"] and other["first_deal"] < start + sm["deals"]:
                raise OptionError(
                    f"{where}: deals {start}–{start + sm['deals'] - 1} overlap deals "
                    f"{other['first_deal']}–{other['first_deal'] + other['deals'] - 1} of another shard"
                )
        shards.append({"first_deal": start, "deals": sm["deals"]})
        for i in range(sm["deals"]):
            results.append(DealResult(start + i, {name: float(per_deal[name][i]) for name in names}, [], {}))
    assert first is not None
    results.sort(key=lambda d: d.index)
    merged = summarize(first["game"], kinds, results, first["seed"])
    if list(merged["bots"]) != list(first["bots"]):
        raise OptionError(f"summary 1: bot names {', '.join(first['bots'])} do not follow from their kinds")
    if "options" in first:
        merged["options"] = first["options"]
    merged["shards"] = sorted(shards, key=lambda x: x["first_deal"])
    return merged, results


def write_outputs(
    summary: dict[str, Any], results: Sequence[DealResult], out_dir: Path, records: bool = True
) -> dict[str, str]:
    """The records (one file per deal and rotation; not for a merged summary, whose records
    are in its shards' directories), ``summary.json`` and ``summary.png``."""
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = {"summary": str(out_dir / "summary.json")}
    if records:
        rec_dir = out_dir / "records"
        rec_dir.mkdir(exist_ok=True)
        for d in results:
            for r, rec in enumerate(d.records):
                (rec_dir / f"deal{d.index:05d}-r{r}.json").write_text(
                    json.dumps(rec, ensure_ascii=False), encoding="utf-8"
                )
        paths = {"records": str(rec_dir), **paths}
    chart = _chart(summary, results, out_dir / "summary.png")
    if chart is not None:
        paths["chart"] = chart
    (out_dir / "summary.json").write_text(
        json.dumps({**summary, "files": paths}, indent=2, ensure_ascii=False), encoding="utf-8"
    )
    return paths


def _chart(summary: dict[str, Any], results: Sequence[DealResult], path: Path) -> str | None:
    try:
        import matplotlib  # type: ignore[import-not-found,import-untyped,unused-ignore]

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt  # type: ignore[import-not-found,import-untyped,unused-ignore]
    except ImportError:
        return None
    names = list(summary["bots"])
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, 4))
    means = [summary["bots"][n]["mean_score"] for n in names]
    errs = [
        [m - summary["bots"][n]["ci95"][0] for n, m in zip(names, means)],
        [summary["bots"][n]["ci95"][1] - m for n, m in zip(names, means)],
    ]
    ax1.bar(names, means, yerr=errs, capsize=6, color="#4878a8")
    ax1.axhline(0, color="black", linewidth=0.8)
    ax1.set_title(f"{summary['game']}: mean score per deal (95% CI), {summary['deals']} deals")
    ax1.set_ylabel(f"{summary.get('unit', 'points')} per deal")
    for n in names:
        run = 0.0
        ys = []
        for d in results:
            run += d.scores[n]
            ys.append(run)
        ax2.plot(range(1, len(ys) + 1), ys, label=n)
    ax2.set_title("cumulative score")
    ax2.set_xlabel("deal")
    ax2.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return str(path)
