"""The bot levels' measured strength (レベル別の実力): an OpenSkill rating per game and level.

    python -m kirifuda.bots.levels --deals 20 --seed 2026

plays a duplicate round-robin (:func:`kirifuda.tournament.run_tournament`) between the levels
``random``, ``heuristic``, ``search:easy``, ``search`` and ``search:strong`` of every game (every
pair of them, ``--deals`` deals each, every rotation of the two around the table), and rates each
rotation of each deal as one match through the project's ratings (:class:`kirifuda.ratings.Ratings`:
OpenSkill's Bradley–Terry model, partnerships rated as teams, ties shared), in the order of the
pairings and deals.  The levels are rated under the names a rated table gives them
(``search`` as ``search:normal``), so a player's rating and a level's are on one scale.

It writes :data:`LEVELS_FILE` (``kirifuda/bots/levels.json``), which the app reads with
:func:`level_ratings`::

    {"format": "kirifuda-levels/1", "date": "2026-11-27", "commit": "abc1234", "seed": 2026,
     "games": {"meitora": {"deals_per_pairing": 20,
                           "levels": {"search:normal": {"mu": 27.1, "sigma": 1.2,
                                                        "ordinal": 23.5, "matches": 160}, …}}}}

``mu`` is the skill, ``sigma`` its uncertainty, ``ordinal`` (``mu − 3σ``) what a leaderboard
sorts by, ``matches`` the matches (rotations) rated; each game's entry also says its ``date``,
``commit`` and ``seed``.  A game not rated by a run keeps its entry in the file.  The same seed
and deal counts give the same ratings.
"""

from __future__ import annotations

import argparse
import datetime
import json
import sys
from pathlib import Path
from typing import Any, Sequence

__all__ = ["LEVELS", "LEVELS_FILE", "FORMAT", "rate_levels", "level_ratings", "rated_name", "main"]

LEVELS: tuple[str, ...] = ("random", "heuristic", "search:easy", "search", "search:strong")
"""The levels rated, weakest first (the bot kinds players are offered, the oracle apart)."""

LEVELS_FILE = Path(__file__).with_name("levels.json")
FORMAT = "kirifuda-levels/1"


def rated_name(kind: str) -> str:
    """A level's name as a rated player (``search`` is ``search:normal``)."""
    return "search:normal" if kind == "search" else kind


def rate_levels(
    game: str, deals: int, seed: int, levels: Sequence[str] = LEVELS, jobs: int | None = 1, verbose: bool = False
) -> dict[str, Any]:
    """The round-robin of ``levels`` in ``game``: each level's rating (``mu``, ``sigma``,
    ``ordinal``, ``matches``) and the pairings played (each one's A − B per deal)."""
    from ..ratings import Ratings, result_of
    from ..record import from_json
    from ..tournament import run_tournament

    book = Ratings()
    pairings = []
    played = []
    for i, a in enumerate(levels):
        for b in levels[i + 1 :]:
            summary, results = run_tournament(game, [a, b], deals, seed=seed, jobs=jobs)
            diff = next(iter(summary["diff"].values()))
            pairings.append({"a": a, "b": b, "deals": deals, "diff": diff["mean"], "ci95": diff["ci95"]})
            if verbose:
                print(f"{game}: {a} − {b} {diff['mean']:+.3f} {diff['ci95']}", file=sys.stderr)
            played.append(results)
    # rated deal by deal across the pairings (deal 0 of every pairing, then deal 1, …), so that
    # no pairing is rated wholly before another
    for index in range(deals):
        for results in played:
            for data in results[index].records:
                rec = from_json(data)
                rec.players = [rated_name(p) for p in rec.players or []]
                book.rate(result_of(rec))
    names = [rated_name(x) for x in levels]
    return {
        "deals_per_pairing": deals,
        "levels": {name: r.to_json() for name, r in book.leaderboard(game, names)},
        "pairings": pairings,
    }


def level_ratings(game: str, path: Path | None = None) -> dict[str, dict[str, Any]]:
    """The levels' ratings in ``game`` from the file (``{}`` where the game was not rated or
    there is no file): level name → ``mu``, ``sigma``, ``ordinal``, ``matches``."""
    try:
        data = json.loads((path or LEVELS_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        return {}
    entry = data.get("games", {}).get(game, {})
    levels = entry.get("levels", {}) if isinstance(entry, dict) else {}
    return dict(levels) if isinstance(levels, dict) else {}


def main(argv: Sequence[str] | None = None) -> int:
    from .search import search_games
    from .strength import _commit

    parser = argparse.ArgumentParser(prog="python -m kirifuda.bots.levels", description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=20, help="deals per pairing (default 20)")
    parser.add_argument(
        "--game-deals",
        default="",
        help="deals per pairing for some games, GAME:DEALS,… (the others: --deals)",
    )
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--levels", default=",".join(LEVELS), help=f"the levels rated (default {','.join(LEVELS)})")
    parser.add_argument("--games", default=None, help="comma-separated games (default: every game with a search bot)")
    parser.add_argument("--jobs", type=int, default=1, help="processes (default 1)")
    parser.add_argument("--out", type=Path, default=LEVELS_FILE, help=f"the file (default {LEVELS_FILE})")
    args = parser.parse_args(argv)
    games = args.games.split(",") if args.games else list(search_games())
    unknown = [g for g in games if g not in search_games()]
    if unknown:
        parser.error(f"no search bot for {', '.join(unknown)} (games: {', '.join(search_games())})")
    per_game: dict[str, int] = {}
    for item in filter(None, args.game_deals.split(",")):
        name, _, count = item.partition(":")
        if name not in games or not count.isdigit() or int(count) < 1:
            parser.error(f"--game-deals: {item!r} is not GAME:DEALS for one of {', '.join(games)}")
        per_game[name] = int(count)
    if args.deals < 1:
        parser.error("--deals must be at least 1")
    levels = [x.strip() for x in args.levels.split(",") if x.strip()]
    bad = [x for x in levels if x not in LEVELS]
    if len(levels) < 2 or bad:
        parser.error(f"--levels: two or more of {', '.join(LEVELS)}" + (f" (not {', '.join(bad)})" if bad else ""))
    stamp = {"date": datetime.date.today().isoformat(), "commit": _commit(), "seed": args.seed}
    out: dict[str, Any] = {"format": FORMAT, **stamp, "games": {}}
    try:  # the games not rated this time keep their entries
        old = json.loads(args.out.read_text(encoding="utf-8"))
        if isinstance(old, dict) and old.get("format") == FORMAT and isinstance(old.get("games"), dict):
            out["games"] = old["games"]
    except (OSError, ValueError):
        pass
    for game in games:
        out["games"][game] = {
            **rate_levels(game, per_game.get(game, args.deals), args.seed, levels, jobs=args.jobs, verbose=True),
            **stamp,
        }
        args.out.write_text(json.dumps(out, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")  # game by game
    print(f"{args.out}: {len(games)} games")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
