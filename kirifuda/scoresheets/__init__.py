"""Each game on a score sheet (得点表): what a scorer writes of a deal played with real cards,
and what the statistics, the ratings and the score keeper read of a finished deal.

One module a game, named by the game's declaration (``GameInfo.parts["scoresheet"]``) and
loaded on first use, holds its :class:`Scoresheet`: the facts its scored deals may carry and
how they are checked and scored (:mod:`kirifuda.scored`), a seat's role in a deal
(:mod:`kirifuda.stats`), whether its scoring units are fixed partnerships
(:mod:`kirifuda.ratings`), and who starts the next deal (the score keeper).  A game without one
has no scored deals and no role statistics, and is rated seat by seat.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Mapping

if TYPE_CHECKING:
    from ..scored import Facts

__all__ = ["Scoresheet", "scoresheet", "count_role"]


@dataclass(frozen=True)
class Scoresheet:
    """A game's score sheet: its module names one ``SCORESHEET``."""

    facts: frozenset[str]
    """The facts its scored deals may carry (any other key is an error)."""
    score: Callable[[Any, Facts], None]
    """``score(state, facts)``: check a scored deal's facts against the rules and options of
    ``state`` (at a chance node), score them and end the deal in ``state``."""
    count_roles: Callable[[dict[str, Any], Mapping[str, Any], int, int, int], None]
    """``count_roles(roles, deal, seat, unit, players)``: count a seat's role in one finished
    deal (its replay JSON) into its player's statistics."""
    next_deal: Callable[[Any], dict[str, Any]]
    """Who starts the next deal (first bidder, dealer, leading pair): ``{}`` once the match is
    over."""
    partnerships: bool = False
    """Its scoring units are fixed partnerships of the seats ``p`` and ``p + n/2`` (rated as
    teams); else each seat is its own unit."""
    keeper_terms: Mapping[str, tuple[str, str]] = field(default_factory=dict)
    """The score keeper's words of this game's own (catalogue keys, ja and en)."""
    keeper_setup: Mapping[str, Any] = field(default_factory=dict)
    """How the score keeper's page sets a match up (sent as data; the page holds no per-game
    code): ``players`` (the table sizes, the default first), ``players_option`` (the size is
    the option ``players``), ``options`` (``[{"key", "label", "default", "per_player"}]``:
    number inputs for options, ``per_player`` making the placeholder that many times the
    table size), ``unit`` (the word of a scoring unit, ``team`` or ``pair``; none: seats),
    ``total`` (the word of the totals row).  ``docs/architecture.md`` ("The score keeper's
    form") describes it."""
    keeper_form: Callable[[Any], dict[str, Any]] | None = None
    """``keeper_form(state)``: the entry form of the next deal of ``state`` (at a chance node),
    as data: its kinds, each with its fields and the template of its facts."""
    describe: Callable[[Mapping[str, Any], Callable[[int], str]], str] | None = None
    """``describe(deal, seat_name)``: a played deal (its replay JSON) in a line of the score
    sheet (who declared what, what was taken), with the seats' names."""


def scoresheet(game_id: str) -> Scoresheet | None:
    """A registered game's score sheet (its module loaded on first use); ``None`` where the game
    declares none."""
    from ..games import game_part

    module = game_part(game_id, "scoresheet")
    part = getattr(module, "SCORESHEET", None)
    return part if isinstance(part, Scoresheet) else None


def count_role(roles: dict[str, Any], role: str, key: str) -> None:
    """Add one to ``roles[role][key]``."""
    entry = roles.setdefault(role, {})
    entry[key] = entry.get(key, 0) + 1
