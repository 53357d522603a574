"""What a search decision found (探索の内訳): each choice's outcome in each sampled deal.

A search bot scores every choice in every deal it samples and plays the best average.  A
:class:`Trace`, handed to the bot for one decision (``SearchBot.choose_traced``), keeps those
numbers instead of throwing them away, so that a coach can say *why* a choice is best ("♠A is
best in 83% of the deals consistent with what you have seen") without searching again.  The
bots fill it only when one is given: their decisions are the same with or without it.

Per choice: its score in each sample (what the bot maximises: the deal's points, chips or
tricks), the count its side ends with in that sample (tricks, face cards), and for a bid the
count the contract needs.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Hashable

from ..actions import Action

__all__ = ["Trace", "ChoiceStats"]


@dataclass
class ChoiceStats:
    """One choice's outcomes over the sampled deals (one entry per sample, in sample order)."""

    scores: list[float] = field(default_factory=list)
    """What the bot maximises, per sample (``score_unit``)."""
    counts: list[float] = field(default_factory=list)
    """The count of ``Trace.side`` at the end of the deal, per sample (``count_unit``)."""
    target: float | None = None
    """The count a bid must reach to make (bids only)."""
    by_rule: bool = False
    """Valued by the bot's rule, not simulated (a pass: the score a bid must beat)."""

    @property
    def mean_score(self) -> float:
        return sum(self.scores) / len(self.scores) if self.scores else float("-inf")

    @property
    def mean_count(self) -> float | None:
        return sum(self.counts) / len(self.counts) if self.counts else None


@dataclass
class Trace:
    """Filled by a search bot during one decision (see the module docstring)."""

    kind: str = ""
    """The decision: ``play``, ``bid``, ``discard``, ``adjutant``, ``redeclare``, ``leader``."""
    score_unit: str = "points"
    """``points``, ``chips`` or ``tricks``."""
    count_unit: str = "tricks"
    """``tricks`` or ``face_cards``."""
    side: str = "own"
    """Whose count ``counts`` are: ``own`` (the seat's side), ``self`` (the seat alone: Unsun)
    or ``army`` (Napoleon's army, which the seat may or may not belong to)."""
    choices: dict[Action, ChoiceStats] = field(default_factory=dict)
    _raw: dict[Hashable, ChoiceStats] = field(default_factory=dict)

    def start(self, kind: str, score_unit: str, count_unit: str, side: str = "own") -> None:
        """Begin a decision (clears what an earlier one left)."""
        self.kind, self.score_unit, self.count_unit, self.side = kind, score_unit, count_unit, side
        self.choices = {}
        self._raw = {}

    def add(
        self,
        key: Hashable,
        score: float,
        count: float | None = None,
        target: float | None = None,
        by_rule: bool = False,
    ) -> None:
        """One sample's outcome of the choice the bot knows as ``key`` (``by_rule``: its value
        by the bot's rule, once)."""
        stats = self._raw.setdefault(key, ChoiceStats(by_rule=by_rule))
        stats.scores.append(score)
        if count is not None:
            stats.counts.append(count)
        if target is not None:
            stats.target = target

    def resolve(self, actions: dict[Hashable, Action]) -> None:
        """Name the bot's keys as actions (keys without an action are dropped)."""
        self.choices = {a: self._raw[k] for k, a in actions.items() if k in self._raw}

    @property
    def samples(self) -> int:
        return max((len(s.scores) for s in self.choices.values()), default=0)

    def best_share(self, action: Action) -> float | None:
        """The share of samples in which ``action`` scores as well as the best choice (None
        where the choices were not scored sample by sample)."""
        stats = self.choices.get(action)
        n = len(stats.scores) if stats is not None else 0
        if stats is None or n < 2 or any(len(s.scores) != n for s in self.choices.values()):
            return None
        wins = 0
        for i in range(n):
            top = max(s.scores[i] for s in self.choices.values())
            if stats.scores[i] >= top - 1e-9:
                wins += 1
        return wins / n

    def make_share(self, action: Action) -> float | None:
        """For a bid: the share of samples in which its side reaches the count it needs."""
        stats = self.choices.get(action)
        if stats is None or stats.target is None or not stats.counts:
            return None
        return sum(1 for c in stats.counts if c >= stats.target) / len(stats.counts)
