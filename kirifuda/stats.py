"""A player's statistics by game and role (成績), computed from match records.

Nothing is stored apart from the records: each statistic is counted from the replay of the
records where the player sat (found by name among the record's ``players``), so it always
agrees with them.  Per game:

- every game: matches played and won, deals, the player's scoring unit's points per deal;
- Meitora: contracts made and set as declarer (吹き上げた人), as the declarer's partner and as
  defender; chombos;
- Napoleon: deals won and lost as Napoleon, as adjutant (副官) and as citizen (連合軍);
- Kakeya: games played and won, chips won;
- Unsun: tricks taken, deals won;
- (the roles are each game's, counted by its score sheet: :mod:`kirifuda.scoresheets`);
- against which bots: for each bot that sat at the table (a seat named by a bot's level, such
  as ``search:normal``), the matches and the wins.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable

from .ratings import units_of
from .record import Record, replay
from .scoresheets import scoresheet

__all__ = ["player_stats", "is_bot_name"]


def is_bot_name(name: str) -> bool:
    """A seat named by a bot's kind and level (``search:normal``, ``random``, …)."""
    from .bots import BOT_KINDS

    return name in BOT_KINDS or name == "search:normal"


def _won(winner: Any, unit: int) -> bool:
    return unit in winner if isinstance(winner, list) else winner == unit


def _new_game_stats() -> dict[str, Any]:
    return {
        "matches": 0,
        "finished": 0,
        "wins": 0,
        "deals": 0,
        "points": 0.0,
        "points_per_deal": None,
        "roles": {},
        "against_bots": {},
    }


def player_stats(
    records: Iterable[Record], name: str, is_bot: Callable[[str], bool] = is_bot_name
) -> dict[str, dict[str, Any]]:
    """Statistics of the player called ``name`` over ``records``, by game id."""
    out: dict[str, dict[str, Any]] = {}
    for rec in records:
        if not rec.players or name not in rec.players:
            continue
        summary = replay(rec).summary()
        g = out.setdefault(rec.game, _new_game_stats())
        units = units_of(rec.game, len(rec.players))
        sheet = scoresheet(rec.game)
        seats = [s for s, p in enumerate(rec.players) if p == name]
        seat = seats[0]
        unit = next(u for u, members in enumerate(units) if seat in members)
        g["matches"] += 1
        won = summary["finished"] and _won(summary["winner"], unit)
        if summary["finished"]:
            g["finished"] += 1
            g["wins"] += int(won)
        for other, bot in enumerate(rec.players):
            if other not in seats and is_bot(bot):
                entry = g["against_bots"].setdefault(bot, {"matches": 0, "wins": 0})
                entry["matches"] += 1
                entry["wins"] += int(won)
        for deal in summary["deals"]:
            if deal["outcome"] == "in-progress":
                continue
            g["deals"] += 1
            g["points"] += deal["score"][unit]
            if sheet is not None:
                sheet.count_roles(g["roles"], deal, seat, unit, len(rec.players))
    for g in out.values():
        if g["deals"]:
            g["points_per_deal"] = round(g["points"] / g["deals"], 3)
    return out
