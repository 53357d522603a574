"""Scored deals (得点記録): a deal of a record given by its facts instead of its cards.

A table playing with real cards has a scorer (Meitora's referee, Kakeya's counters) who writes
down what decides the score — the bids and the contract, the tricks or face cards taken, the
chips paid — not every card.  A record deal of the form ``{"scored": {...}}`` carries those facts
(``docs/records.md``, "Scored deals").  :func:`score_deal` checks them against the rules and
options of the match, scores them with the game's own scoring functions (each game's score
sheet, :mod:`kirifuda.scoresheets`, found through the registry) and ends the deal in the engine, so that the match goes on — totals, the next first bidder or dealer, the
end of the match — exactly as after a deal played card by card.  A match may mix both forms.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping, NoReturn

from .actions import Bid, Pass, action_from_json
from .cards import Card, parse_card
from .errors import InvalidActionError, RecordError
from .game import GameState
from .i18n import add_terms
from .scoresheets import scoresheet

__all__ = ["Facts", "ScoredLog", "score_deal", "facts_of"]


def facts_of(game: str) -> frozenset[str]:
    """The facts a game's scored deal may carry (any other key is an error); none where the
    game has no score sheet."""
    sheet = scoresheet(game)
    return frozenset() if sheet is None else sheet.facts


add_terms(
    fields={
        "scored": ("得点記録 (札なし)", "scored (no cards)"),
        "claim": ("オープン", "claim"),
        "reason": ("理由", "reason"),
    }
)


@dataclass(frozen=True)
class ScoredLog:
    """A scored deal as the engine keeps it among its finished deals: its replay JSON and its
    facts in canonical form (what ``record_deals`` writes back)."""

    facts: dict[str, Any]
    replay: dict[str, Any] = field(default_factory=dict)

    def summary(self) -> dict[str, Any]:
        return dict(self.replay)

    def result(self) -> dict[str, Any]:
        """What a table shows of the deal once over: the same facts (no card is known)."""
        return dict(self.replay)

    def record(self) -> dict[str, Any]:
        return {"scored": dict(self.facts)}


class Facts:
    """The facts of one scored deal, read field by field; every error names the deal and the
    field."""

    def __init__(self, data: Any, game: str, deal: int) -> None:
        self.deal = deal
        if not isinstance(data, Mapping):
            self.fail("", f"a scored deal's facts must be an object, got {data!r}")
        facts = facts_of(game)
        unknown = sorted(set(data) - facts)
        if unknown:
            self.fail(unknown[0], f"unknown fact for {game}; its scored deals take {', '.join(sorted(facts))}")
        self.data: Mapping[str, Any] = data
        self.out: dict[str, Any] = {}
        note = data.get("note")
        if note is not None:
            if not isinstance(note, str):
                self.fail("note", f"must be a string, got {note!r}")
            self.out["note"] = note

    def fail(self, name: str, message: str) -> NoReturn:
        where = f"scored.{name}: " if name else "scored: "
        raise RecordError(where + message, deal=self.deal)

    def has(self, name: str) -> bool:
        return self.data.get(name) is not None

    def seat(self, name: str, n: int, *, required: bool = True) -> int | None:
        value = self.data.get(name)
        if value is None:
            if required:
                self.fail(name, "is required")
            return None
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < n:
            self.fail(name, f"must be a seat 0-{n - 1}, got {value!r}")
        self.out[name] = value
        return int(value)

    def count(self, value: Any, name: str, low: int, high: int) -> int:
        if not isinstance(value, int) or isinstance(value, bool):
            self.fail(name, f"must be a whole number, got {value!r}")
        if not low <= value <= high:
            self.fail(name, f"{value} is out of range {low}-{high}")
        return int(value)

    def counts(self, name: str, size: int, low: int, high: int, skip: int | None = None) -> list[int | None]:
        """A list of ``size`` counts (``null`` exactly at index ``skip``)."""
        value = self.data.get(name)
        if value is None:
            self.fail(name, "is required")
        if not isinstance(value, list) or len(value) != size:
            self.fail(name, f"must be a list of {size} counts, got {value!r}")
        out: list[int | None] = []
        for i, v in enumerate(value):
            if i == skip:
                if v is not None:
                    self.fail(f"{name}[{i}]", "must be null: that pair sits this game out")
                out.append(None)
            else:
                out.append(self.count(v, f"{name}[{i}]", low, high))
        self.out[name] = out
        return out

    def bid(self, name: str, valid: tuple[Bid, ...], *, required: bool = True) -> Bid | None:
        value = self.data.get(name)
        if value is None:
            if required:
                self.fail(name, "is required")
            return None
        bid = self._parse_bid(name, value, valid)
        if not isinstance(bid, Bid):
            self.fail(name, "must be a bid, not a pass")
        self.out[name] = bid.text
        return bid

    def _parse_bid(self, name: str, value: Any, valid: tuple[Bid, ...]) -> Bid | Pass:
        try:
            action = action_from_json({"bid": value})
        except InvalidActionError as exc:
            return self.fail(name, str(exc))
        if isinstance(action, Bid) and action not in valid:
            self.fail(name, f"{action.text} is not a bid of this game ({valid[0].text} … {valid[-1].text})")
        assert isinstance(action, (Bid, Pass))
        return action

    def card(self, name: str) -> Card | None:
        value = self.data.get(name)
        if value is None:
            return None
        try:
            card = parse_card(value)
        except InvalidActionError as exc:
            return self.fail(name, str(exc))
        self.out[name] = card.code
        return card

    def suit(self, name: str, *, required: bool) -> str | None:
        value = self.data.get(name)
        if value is None:
            if required:
                self.fail(name, "is required")
            return None
        if value not in ("S", "H", "D", "C"):
            self.fail(name, f"must be a suit S, H, D or C, got {value!r}")
        self.out[name] = value
        return str(value)

    def flag(self, name: str) -> bool:
        value = self.data.get(name, False)
        if not isinstance(value, bool):
            self.fail(name, f"must be true or false, got {value!r}")
        if value:
            self.out[name] = True
        return bool(value)

    def check_score(self, score: list[Any]) -> None:
        """The score the scorer wrote, if any, must be the one the rules give."""
        written = self.data.get("score")
        if written is None:
            return
        if (
            not isinstance(written, list)
            or len(written) != len(score)
            or not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in written)
        ):
            self.fail("score", f"must be a list of {len(score)} numbers, got {written!r}")
        if list(written) != list(score):
            self.fail("score", f"{written} is not what the rules give: {score}")
        self.out["score"] = list(score)


def score_deal(state: GameState, data: Any, deal: int) -> None:
    """Check the facts of scored deal number ``deal`` against the rules and options of
    ``state`` (at a chance node), score them and end the deal in ``state``.  Raises
    :class:`RecordError` naming the deal and the field; ``state`` is then unchanged."""
    if not state.needs_deal:
        raise RecordError("the match is already over" if state.is_over else "a deal is in progress", deal=deal)
    sheet = scoresheet(state.game_id)
    if sheet is None:
        raise RecordError(f"{state.game_id} has no scored deals: give the deal's cards", deal=deal)
    sheet.score(state, Facts(data, state.game_id, deal))
