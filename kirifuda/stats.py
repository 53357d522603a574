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
- against which bots: for each bot that sat at the table (a seat named by a bot's level, such
  as ``search:normal``), the matches and the wins.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable

from .ratings import units_of
from .record import Record, replay

__all__ = ["player_stats", "is_bot_name"]


def is_bot_name(name: str) -> bool:
    """A seat named by a bot's kind and level (``search:normal``, ``random``, …)."""
    from .bots import BOT_KINDS

    return name in BOT_KINDS or name == "search:normal"


def _won(winner: Any, unit: int) -> bool:
    return unit in winner if isinstance(winner, list) else winner == unit


def _new_game_stats() -> dict[str, Any]:
    return {"matches": 0, "finished": 0, "wins": 0, "deals": 0, "points": 0.0,
            "points_per_deal": None, "roles": {}, "against_bots": {}}


def _count(roles: dict[str, Any], role: str, key: str) -> None:
    entry = roles.setdefault(role, {})
    entry[key] = entry.get(key, 0) + 1


def player_stats(records: Iterable[Record], name: str,
                 is_bot: Callable[[str], bool] = is_bot_name) -> dict[str, dict[str, Any]]:
    """Statistics of the player called ``name`` over ``records``, by game id."""
    out: dict[str, dict[str, Any]] = {}
    for rec in records:
        if not rec.players or name not in rec.players:
            continue
        summary = replay(rec).summary()
        g = out.setdefault(rec.game, _new_game_stats())
        units = units_of(rec.game, len(rec.players))
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
            _roles(rec.game, g["roles"], deal, seat, unit, len(rec.players))
    for g in out.values():
        if g["deals"]:
            g["points_per_deal"] = round(g["points"] / g["deals"], 3)
    return out


def _roles(game: str, roles: dict[str, Any], deal: dict[str, Any], seat: int, unit: int, n: int) -> None:
    outcome = deal["outcome"]
    if game == "meitora":
        if outcome == "chombo" and deal.get("chombo") == seat:
            _count(roles, "chombo", "count")
        declarer = deal.get("declarer")
        if outcome != "played" or declarer is None:
            return
        made = deal["score"][declarer % 2] > 0
        role = "declarer" if seat == declarer else "partner" if seat % 2 == declarer % 2 else "defender"
        _count(roles, role, "made" if made else "set")
    elif game == "napoleon":
        if outcome != "played":
            return
        wins = bool(deal["napoleon_wins"])
        if seat == deal["napoleon"]:
            role, won = "napoleon", wins
        elif seat == deal["adjutant"]:
            role, won = "adjutant", wins
        else:
            role, won = "citizen", not wins
        _count(roles, role, "won" if won else "lost")
    elif game == "kakeya":
        faces = deal.get("face_cards") or []
        if unit < len(faces) and faces[unit] is None:
            return  # sitting this game out
        entry = roles.setdefault("pair", {"games": 0, "won": 0, "chips": 0})
        entry["games"] += 1
        entry["won"] += int(deal.get("winning_pair") == unit)
        entry["chips"] += deal["score"][unit]
    elif game == "unsun":
        entry = roles.setdefault("player", {"tricks": 0, "deals_won": 0})
        entry["tricks"] += deal["tricks_won"][seat]
        entry["deals_won"] += int(seat in (deal.get("winners") or []))
