"""Ratings (レーティング) per game, with OpenSkill (Weng–Lin, the full-pairing Bradley–Terry model).

A rated match updates the rating of everyone who sat at it, bots included (a bot is rated under
its level name, ``search:normal`` for instance, so players see where they stand against it).
Partnership games are rated as teams — Meitora's two teams, Kakeya's pairs — so a team's win
raises both partners; Napoleon and Unsun, scored per seat, are rated free-for-all.  The order of
the match is its final totals (ties share a rank).  A match abandoned by a player counts as that
player's loss: their unit is ranked below every other.  An unrated match changes nothing.

The model is Bradley–Terry over all pairs of units rather than OpenSkill's default
Plackett–Luce: these games end in ties often (Napoleon's allies share every deal's score), and
Plackett–Luce can rate a unit tied for first below the one that finished second.

>>> book = Ratings()
>>> book.rate(MatchResult("meitora", ["Aki", "Bo", "Chie", "Dai"], [17, 9]))
>>> book.get("meitora", "Aki").mu > 25 > book.get("meitora", "Bo").mu
True
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Sequence

from openskill.models import BradleyTerryFull

from .errors import KirifudaError, RecordError
from .record import Record, replay
from .scoresheets import scoresheet

__all__ = ["Rating", "MatchResult", "Ratings", "units_of", "result_of"]


def units_of(game: str, seats: int) -> list[list[int]]:
    """The seats of each scoring unit, in the order of the replay's totals: in a game of fixed
    partnerships (its score sheet says so: Meitora's teams, seats 0 & 2, 1 & 3; Kakeya's pairs)
    ``p`` and ``p + n/2``, else one seat each."""
    sheet = scoresheet(game)
    if sheet is not None and sheet.partnerships:
        half = seats // 2
        return [[p, p + half] for p in range(half)]
    return [[s] for s in range(seats)]


@dataclass(frozen=True)
class Rating:
    """A player's rating in one game: skill ``mu``, uncertainty ``sigma``, matches rated."""

    mu: float
    sigma: float
    matches: int = 0

    @property
    def ordinal(self) -> float:
        """The conservative estimate a leaderboard sorts by: ``mu − 3σ``."""
        return self.mu - 3 * self.sigma

    def to_json(self) -> dict[str, Any]:
        return {
            "mu": round(self.mu, 4),
            "sigma": round(self.sigma, 4),
            "ordinal": round(self.ordinal, 4),
            "matches": self.matches,
        }


@dataclass(frozen=True)
class MatchResult:
    """What a rating needs of a finished match: the game, who sat at each seat (a player's
    name, or a bot's level name), the totals per scoring unit, whether the table was rated, and
    the seat that abandoned the match, if one did."""

    game: str
    players: Sequence[str]
    totals: Sequence[float]
    rated: bool = True
    abandoned_by: int | None = None

    def ranks(self) -> list[int]:
        """Each unit's rank, 0 best: by totals, ties shared; an abandoning seat's unit last."""
        units = units_of(self.game, len(self.players))
        if len(units) != len(self.totals):
            raise KirifudaError(f"{self.game}: {len(self.totals)} totals for {len(units)} scoring units")
        quit_unit = None
        if self.abandoned_by is not None:
            quit_unit = next(u for u, seats in enumerate(units) if self.abandoned_by in seats)
        keys = [(u == quit_unit, -float(t)) for u, t in enumerate(self.totals)]
        order = sorted(set(keys))
        return [order.index(k) for k in keys]


@dataclass
class Ratings:
    """The ratings of every player and bot, per game, built up match by match."""

    model: Any = field(default_factory=BradleyTerryFull)
    _book: dict[tuple[str, str], Rating] = field(default_factory=dict)

    def get(self, game: str, player: str) -> Rating:
        found = self._book.get((game, player))
        if found is not None:
            return found
        fresh = self.model.rating()
        return Rating(fresh.mu, fresh.sigma, 0)

    def rate(self, match: MatchResult) -> None:
        """Update after a match; an unrated match changes nothing."""
        if not match.rated:
            return
        units = units_of(match.game, len(match.players))
        teams = [
            [self.model.create_rating([r.mu, r.sigma]) for r in (self.get(match.game, match.players[s]) for s in seats)]
            for seats in units
        ]
        new = self.model.rate(teams, ranks=match.ranks())
        updates: dict[str, list[tuple[float, float]]] = {}
        for seats, team in zip(units, new):
            for s, r in zip(seats, team):
                updates.setdefault(match.players[s], []).append((r.mu, r.sigma))
        for name, values in updates.items():  # a name at several seats (the same bot): the mean
            old = self.get(match.game, name)
            self._book[(match.game, name)] = Rating(
                sum(v[0] for v in values) / len(values), sum(v[1] for v in values) / len(values), old.matches + 1
            )

    def leaderboard(self, game: str, players: Sequence[str] | None = None) -> list[tuple[str, Rating]]:
        """The rated players of a game (only ``players``, if given), best ordinal first."""
        rows = [(name, r) for (g, name), r in self._book.items() if g == game and (players is None or name in players)]
        rows.sort(key=lambda row: (-row[1].ordinal, row[0]))
        return rows


def result_of(record: Record, *, rated: bool = True, abandoned_by: int | None = None) -> MatchResult:
    """The result of a match from its record (full or scored deals): the totals its replay
    gives.  The record must name its players."""
    if record.players is None:
        raise RecordError("a rated match's record names its players")
    totals = replay(record).summary()["totals"]
    return MatchResult(record.game, list(record.players), totals, rated, abandoned_by)
