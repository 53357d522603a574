"""Hints (ヒント): the search bot's choice from one seat's view, with the best alternatives and
a reason built from what the search found.

The hint is the ``search`` bot's decision, made from the views the seat has been shown in the
deal so far and nothing else (a player at the table remembers what fell; so does the bot).  Given
a state, :func:`seat_views` rebuilds those views by replaying the current deal through the
engine and asking it for that seat's view after every action: the other hands are never read.
The same views and seed give the same hint, so two deals that differ only in cards the seat
has not seen give the same hint.

The reason comes from the search's :class:`~kirifuda.bots.trace.Trace`: in how many of the
sampled deals each choice was the best, what the seat's side ends with on average, how often a
bid makes, and what each alternative costs against the choice.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Sequence

from ..actions import Action, Claim
from ..bots.search import SearchBot
from ..bots.trace import Trace
from ..errors import KirifudaError
from ..game import GameState, View
from ..games import game_part
from ..i18n import t
from .terms import unit_text

__all__ = ["Hint", "Option", "HintError", "hint", "seat_views"]

MAX_ALTERNATIVES = 3
SAME = 0.05
"""Differences below this (tricks, face cards, points, chips) make two choices about as good."""


class HintError(KirifudaError):
    """A hint was asked where none can be given (not the seat's turn, an unknown seat)."""


@dataclass(frozen=True)
class Option:
    """One choice the search weighed."""

    action: Action
    score: float | None
    """Its mean score over the sampled deals (``Hint.score_unit``)."""
    count: float | None
    """What ``Hint.side`` ends the deal with on average (``Hint.count_unit``)."""
    best_share: float | None
    """The share of sampled deals in which it was (one of) the best."""
    make_share: float | None
    """For a bid: the share of sampled deals in which it makes."""
    by_rule: bool = False
    """Its score is the search's rule, not a simulation (a pass: what a bid must beat)."""

    def to_json(self, lang: str = "en") -> dict[str, Any]:
        return {
            "action": self.action.to_json(),
            "label": self.action.label(lang),
            "score": self.score,
            "count": self.count,
            "best_share": self.best_share,
            "make_share": self.make_share,
            "by_rule": self.by_rule,
        }


@dataclass(frozen=True)
class Hint:
    """The search's choice for ``seat`` and the two or three best alternatives."""

    game: str
    seat: int
    action: Action
    chosen: Option | None
    """What the search found for the choice (``None``: decided without simulation — the only
    choice, or a rule)."""
    alternatives: tuple[Option, ...]
    kind: str
    """``play``, ``bid``, ``discard``, ``adjutant``, ``redeclare``, ``leader`` or ``rule``."""
    samples: int
    score_unit: str
    count_unit: str
    side: str
    forced: bool
    """True when the seat has a single legal choice."""

    def cost(self, option: Option) -> tuple[float, str] | None:
        """What choosing ``option`` instead costs: in the side's count where the search counted
        the seat's own side and the count tells them apart, else in its score; ``None`` where it
        cannot say."""
        c = self.chosen
        if c is None:
            return None
        if (
            self.side in ("own", "self")
            and c.count is not None
            and option.count is not None
            and self.kind != "bid"
            and c.count - option.count >= SAME
        ):
            return c.count - option.count, self.count_unit
        if c.score is not None and option.score is not None:
            return c.score - option.score, self.score_unit
        return None

    def reason(self, lang: str = "en") -> str:
        """Why, in words (``ja`` or ``en``)."""
        label = self.action.label(lang)
        if self.forced:
            return t("coach.forced", lang, action=label)
        c = self.chosen
        if c is None:
            return t("coach.rule", lang, action=label)
        parts: list[str] = []
        if c.by_rule and c.score is not None:
            parts.append(
                t(
                    "coach.threshold",
                    lang,
                    action=label,
                    n=self.samples,
                    score=f"{c.score:.1f}",
                    unit=unit_text(self.score_unit, 2, lang),
                )
            )
        elif c.make_share is not None:
            parts.append(t("coach.makes", lang, action=label, pct=_pct(c.make_share), n=self.samples))
        elif c.best_share is not None:
            parts.append(t("coach.best_in", lang, action=label, pct=_pct(c.best_share), n=self.samples))
        else:
            parts.append(t("coach.best_mean", lang, action=label, n=self.samples))
        if c.count is not None and self.kind != "bid":
            key = f"coach.{self.side}_count"
            parts.append(t(key, lang, count=f"{c.count:.1f}", unit=unit_text(self.count_unit, 2, lang)))
        for alt in self.alternatives:
            cost = self.cost(alt)
            alabel = alt.action.label(lang)
            if cost is None:
                continue
            d, unit = cost
            if d < SAME:
                parts.append(t("coach.as_good", lang, action=alabel))
            else:
                parts.append(
                    t("coach.costs", lang, action=alabel, amount=f"{d:.1f}", unit=unit_text(unit, round(d, 1), lang))
                )
        return t("coach.join", lang).join(parts) + t("coach.end", lang)

    def to_json(self, lang: str = "en") -> dict[str, Any]:
        return {
            "game": self.game,
            "seat": self.seat,
            "action": self.action.to_json(),
            "label": self.action.label(lang),
            "kind": self.kind,
            "samples": self.samples,
            "score_unit": self.score_unit,
            "count_unit": self.count_unit,
            "side": self.side,
            "chosen": self.chosen.to_json(lang) if self.chosen is not None else None,
            "alternatives": [o.to_json(lang) for o in self.alternatives],
            "reason": self.reason(lang),
        }


def _pct(share: float) -> int:
    return round(100 * share)


def seat_views(state: GameState, seat: int) -> list[View]:
    """The views ``seat`` has been shown in the current deal, in order: after the deal and after
    every action since (rebuilt by replaying the match's record through the engine)."""
    from ..record import from_state

    if not (isinstance(seat, int) and 0 <= seat < state.num_players):
        raise HintError(f"no seat {seat!r} at this table of {state.num_players}")
    rec = from_state(state)
    replay = rec.new_state()
    views: list[View] = []
    last = len(rec.deals) - 1
    for i, deal in enumerate(rec.deals):
        replay.deal(deal.hands, deal.rest)
        if i == last:
            views.append(replay.view(seat))
        for data in deal.actions:
            replay.apply(rec.info.action_from_json(data, data["seat"]), data["seat"])
            if i == last:
                views.append(replay.view(seat))
    return views


def hint(source: GameState | Sequence[View], seat: int, *, seed: int = 0, level: str = "normal") -> Hint:
    """The search bot's choice for ``seat`` and why.  ``source``: the state (the seat's views are
    rebuilt from it: :func:`seat_views`) or the views the seat has been shown this deal, the
    last one its decision.  The same views and seed give the same hint."""
    if isinstance(source, GameState):
        views = seat_views(source, seat)
        game = source.game_id
    else:
        views = list(source)
        if not views:
            raise HintError("a hint needs at least the seat's current view")
        game = views[-1].game
    now = views[-1]
    if now.seat != seat:
        raise HintError(f"these are the views of seat {now.seat}, not of seat {seat}")
    if not now.legal_actions:
        raise HintError(f"seat {seat} is not to act: there is nothing to hint")
    bot = SearchBot(game, level)
    for v in views[:-1]:
        bot.observe(v)
    trace = Trace()
    action = bot.choose_traced(now, random.Random(seed), trace)
    choices = [a for a in now.legal_actions if not isinstance(a, Claim)]
    return hint_from_trace(game, seat, action, trace, forced=choices == [action])


def _option(trace: Trace, action: Action) -> Option:
    stats = trace.choices[action]
    return Option(
        action,
        stats.mean_score if stats.scores else None,
        stats.mean_count,
        trace.best_share(action),
        trace.make_share(action),
        stats.by_rule,
    )


def hint_from_trace(game: str, seat: int, action: Action, trace: Trace, forced: bool = False) -> Hint:
    """A hint from a search decision already made (its choice and its trace)."""
    game_part(game, "coach")  # the game's own words for the coach (its sides' counts), if any
    if not trace.kind or action not in trace.choices:
        return Hint(
            game,
            seat,
            action,
            None,
            (),
            trace.kind or "rule",
            trace.samples,
            trace.score_unit,
            trace.count_unit,
            trace.side,
            forced,
        )
    others = sorted((a for a in trace.choices if a != action), key=lambda a: -trace.choices[a].mean_score)
    alternatives = tuple(_option(trace, a) for a in others[:MAX_ALTERNATIVES])
    return Hint(
        game,
        seat,
        action,
        _option(trace, action),
        alternatives,
        trace.kind,
        trace.samples,
        trace.score_unit,
        trace.count_unit,
        trace.side,
        forced,
    )
