"""The deal review (検討): every decision of every seat marked with what it cost.

From a record (:mod:`kirifuda.record`), the deals are replayed through the engine and:

- each **card play** is marked with the value of the position before it (best play by everyone,
  all hands open) and after it, for the player's own side as the game counts (Meitora: tricks;
  Kakeya, Napoleon: face cards; Unsun: the player's tricks against all the others), the best
  card when the played one is worse, and the loss (:mod:`.positions`).  A position the solver
  cannot finish within the node budget is marked ``bounds``: the bounds it proved, and a loss
  only where they prove one.  A game may solve exactly only near the deal's end (Unsun, from
  ``UNSUN_EXACT_TRICKS`` tricks left); before, its cards are compared by rollouts on the real
  deal (``rollouts``: estimates);
- each **other decision** (bids, the negri and discards, the adjutant card, a re-declaration,
  who leads) is marked with its average score over deals sampled from that seat's view, by the
  ``search`` bot's own simulation (``sampled``), against the best the search found.  A decision
  made without simulation (a single choice, Kakeya's trump, chosen before anyone sees a card)
  is not assessed (``none``).

A per-seat summary adds the losses up ("Seat 1 lost 2 tricks: trick 4, trick 7").
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Sequence

from ..actions import Action, Claim, Play
from ..bots.search import SearchBot, search_games
from ..bots.trace import Trace
from ..errors import KirifudaError, RecordError
from ..game import GameState
from ..i18n import t
from ..record import Record
from . import terms  # noqa: F401  (registers the coach's words)
from .positions import Bounds, OpenValues, coach_part, open_values
from .terms import unit_text

__all__ = ["Mark", "SeatSummary", "DealReview", "Review", "review", "ROLLOUT_NOISE"]

ROLLOUT_NOISE = 0.25
"""Estimated values (rollouts): a difference below this many tricks is within the rollouts'
noise and marks no loss."""


@dataclass(frozen=True)
class Mark:
    """One decision of one seat, marked."""

    deal: int
    index: int
    """The action's index in the deal's record."""
    seat: int
    action: Action
    kind: str
    """``play``, ``claim``, or the search's decision kind (``bid``, ``discard``, ``adjutant``,
    ``redeclare``, ``leader``), or ``other``."""
    trick: int | None
    """The trick (1-based) a card was played to."""
    method: str
    """``exact``, ``bounds``, ``rollouts``, ``sampled`` or ``none``."""
    unit: str
    before: Bounds | None = None
    after: Bounds | None = None
    best: Action | None = None
    """The best choice, where the one made was worse."""
    loss: float = 0.0
    """What the choice cost (proven for ``exact`` and ``bounds``; estimated otherwise)."""
    by_rule: bool = False
    """A sampled mark whose choice the search values by rule (a pass: what a bid must beat)."""

    def to_json(self, lang: str = "en") -> dict[str, Any]:
        return {
            "deal": self.deal,
            "index": self.index,
            "seat": self.seat,
            "action": self.action.to_json(),
            "label": self.action.label(lang),
            "kind": self.kind,
            "trick": self.trick,
            "method": self.method,
            "unit": self.unit,
            "before": list(self.before) if self.before is not None else None,
            "after": list(self.after) if self.after is not None else None,
            "best": self.best.to_json() if self.best is not None else None,
            "best_label": self.best.label(lang) if self.best is not None else None,
            "loss": self.loss,
            "by_rule": self.by_rule,
        }


@dataclass(frozen=True)
class SeatSummary:
    seat: int
    lost: float
    """Card-play losses proven (exact or bounds), in the deal's count unit."""
    where: tuple[int, ...]
    """The tricks of those losses."""
    estimated: float
    """Card-play losses estimated (Unsun's rollouts)."""
    estimated_where: tuple[int, ...]
    decisions: float
    """Other decisions' estimated cost, in the game's score unit."""

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "lost": self.lost,
            "tricks": list(self.where),
            "estimated": self.estimated,
            "estimated_tricks": list(self.estimated_where),
            "decisions": self.decisions,
        }


@dataclass(frozen=True)
class DealReview:
    deal: int
    marks: tuple[Mark, ...]
    seats: tuple[SeatSummary, ...]
    unit: str
    score_unit: str
    positions: int
    """Card plays with a choice, marked by the solver or rollouts."""
    exact: int
    """Of those, solved exactly."""

    def to_json(self, lang: str = "en") -> dict[str, Any]:
        return {
            "deal": self.deal,
            "unit": self.unit,
            "score_unit": self.score_unit,
            "positions": self.positions,
            "exact": self.exact,
            "marks": [m.to_json(lang) for m in self.marks],
            "seats": [s.to_json() for s in self.seats],
        }


@dataclass(frozen=True)
class Review:
    game: str
    players: list[str] | None
    deals: tuple[DealReview, ...]

    def to_json(self, lang: str = "en") -> dict[str, Any]:
        out: dict[str, Any] = {
            "game": self.game,
            "players": self.players,
            "deals": [d.to_json(lang) for d in self.deals],
        }
        out.update(coach_part(self.game).review_json)
        return out


def _num(x: float) -> str:
    return f"{x:.0f}" if x == int(x) else f"{x:.1f}"


def _bounds(b: Bounds) -> str:
    return _num(b[0]) if b[0] == b[1] else f"{_num(b[0])}–{_num(b[1])}"


def _trick_list(tricks: Sequence[int], lang: str) -> str:
    return ", ".join(t("coach.trick_no", lang, n=k) for k in tricks)


def review(record: Record, *, seed: int = 0, deals: Sequence[int] | None = None, nodes: int | None = None) -> Review:
    """Review ``record`` (every deal, or those numbered in ``deals``, 0-based).  ``nodes``: the
    solver's budget per card choice (default: the game's, ``CoachPart.nodes``).  Raises RecordError where the
    record does not replay."""
    game = record.game
    if game not in search_games():
        raise KirifudaError(f"no review for game {game!r}")
    budget = coach_part(game).nodes if nodes is None else nodes
    state = _new_state(record)
    out: list[DealReview] = []
    wanted = set(range(len(record.deals))) if deals is None else set(deals)
    bots = [SearchBot(game) for _ in range(state.num_players)]
    for i, deal in enumerate(record.deals):
        try:
            state.deal(deal.hands, deal.rest)
        except KirifudaError as exc:
            raise RecordError(str(exc), deal=i) from None
        marks: list[Mark] = []
        rng = random.Random(seed * 1_000_003 + i)
        looking = i in wanted
        if looking:
            for s, bot in enumerate(bots):
                bot.observe(state.view(s))
        for j, data in enumerate(deal.actions):
            seat = data["seat"]
            try:
                action = record.info.action_from_json(data, seat)
            except KirifudaError as exc:
                raise RecordError(str(exc), deal=i, action=j, seat=seat) from None
            if looking:
                mark = _mark(state, bots[seat], i, j, seat, action, budget, rng, seed)
                if mark is not None:
                    marks.append(mark)
            try:
                state.apply(action, seat)
            except KirifudaError as exc:
                raise RecordError(str(exc), deal=i, action=j, seat=seat) from None
            if looking:
                for s, bot in enumerate(bots):
                    bot.observe(state.view(s))
        if looking:
            out.append(_deal_review(game, i, state.num_players, marks))
    return Review(game, record.players, tuple(out))


def _new_state(record: Record) -> GameState:
    try:
        return record.new_state()
    except KirifudaError as exc:
        raise RecordError(f"options: {exc}") from None


def _tricks_done(state: GameState) -> int:
    return len(getattr(state, "tricks", ()))


def _mark(
    state: GameState,
    bot: SearchBot,
    deal: int,
    index: int,
    seat: int,
    action: Action,
    budget: int,
    rng: random.Random,
    seed: int,
) -> Mark | None:
    if state.to_act != seat or action not in state.legal_actions():
        return Mark(deal, index, seat, action, "other", None, "none", "")
    trick = _tricks_done(state) + 1
    if isinstance(action, Play):
        plays = [a for a in state.legal_actions() if isinstance(a, Play)]
        if len(plays) == 1:
            return None  # nothing to choose
        ov = open_values(state, budget, rng)
        assert ov is not None
        return _play_mark(ov, deal, index, seat, action, trick)
    if isinstance(action, Claim):
        return _claim_mark(state, deal, index, seat, action, trick, budget, rng)
    trace = Trace()
    view = state.view(seat)
    if len(view.legal_actions) == 1:
        return None
    choice = bot.choose_traced(view, random.Random(seed * 7_919 + deal * 1_000 + index), trace)
    return _sampled_mark(state.game_id, trace, choice, deal, index, seat, action)


def _play_mark(ov: OpenValues, deal: int, index: int, seat: int, action: Action, trick: int) -> Mark:
    best, best_b = ov.best()
    before = (max(b[0] for b in ov.values.values()), max(b[1] for b in ov.values.values()))
    after = ov.values[action]
    if ov.method == "rollouts":
        loss = best_b[0] - after[0]
        loss = loss if loss >= ROLLOUT_NOISE else 0.0
    else:
        loss = max(0.0, before[0] - after[1])  # proven: the best's lower bound over this one's upper
    return Mark(
        deal, index, seat, action, "play", trick, ov.method, ov.unit, before, after, best if loss > 0 else None, loss
    )


def _claim_mark(
    state: GameState, deal: int, index: int, seat: int, action: Action, trick: int, budget: int, rng: random.Random
) -> Mark:
    """A claim (オープン): worth what the game says it is worth after it (every trick left when
    it holds: the engine checks it against every defence), judged against the best card."""
    claim_after = coach_part(state.game_id).claim_after
    assert claim_after is not None
    ov = open_values(state, budget, rng)
    assert ov is not None
    before = (max(b[0] for b in ov.values.values()), max(b[1] for b in ov.values.values()))
    after: Bounds = claim_after(state, seat)
    loss = max(0.0, before[0] - after[1])
    best = ov.best()[0] if loss > 0 else None
    return Mark(deal, index, seat, action, "claim", trick, ov.method, ov.unit, before, after, best, loss)


def _sampled_mark(game: str, trace: Trace, choice: Action, deal: int, index: int, seat: int, action: Action) -> Mark:
    unit = trace.score_unit if trace.kind else coach_part(game).score_unit
    if not trace.kind or action not in trace.choices:
        return Mark(deal, index, seat, action, trace.kind or "other", None, "none", unit)
    mean = trace.choices[action].mean_score
    best = max(trace.choices, key=lambda a: trace.choices[a].mean_score)
    top = trace.choices[best].mean_score
    loss = max(0.0, top - mean)
    return Mark(
        deal,
        index,
        seat,
        action,
        trace.kind,
        None,
        "sampled",
        unit,
        (top, top),
        (mean, mean),
        best if loss > 1e-9 else None,
        loss if loss > 1e-9 else 0.0,
        trace.choices[action].by_rule,
    )


def _deal_review(game: str, deal: int, players: int, marks: list[Mark]) -> DealReview:
    seats = []
    for s in range(players):
        mine = [m for m in marks if m.seat == s]
        proven = [m for m in mine if m.method in ("exact", "bounds") and m.loss > 0]
        est = [m for m in mine if m.method == "rollouts" and m.loss > 0]
        seats.append(
            SeatSummary(
                s,
                sum(m.loss for m in proven),
                tuple(m.trick for m in proven if m.trick is not None),
                sum(m.loss for m in est),
                tuple(m.trick for m in est if m.trick is not None),
                sum(m.loss for m in mine if m.method == "sampled"),
            )
        )
    cards = [m for m in marks if m.kind in ("play", "claim")]
    part = coach_part(game)
    unit = cards[0].unit if cards else part.count_unit
    return DealReview(
        deal,
        tuple(marks),
        tuple(seats),
        unit,
        part.score_unit,
        len(cards),
        sum(1 for m in cards if m.method == "exact"),
    )


# -- the text -----------------------------------------------------------------------------------


def review_text(rev: Review, lang: str = "en") -> str:
    """The review as ``kirifuda analyze`` prints it."""
    from ..games import GAMES
    from ..ui.render import seat_name

    info = GAMES[rev.game]
    name = info.name_ja if lang == "ja" else info.name_en
    names = rev.players
    lines: list[str] = []
    if not rev.deals:
        return t("coach.no_deal", lang)
    for d in rev.deals:
        if lines:
            lines.append("")
        lines.append(f"== {t('coach.review', lang, game=name, deal=d.deal + 1)} ==")
        tags: set[str] = set()
        for m in d.marks:
            who = seat_name(m.seat, lang, names=names)
            label = m.action.label(lang)
            if m.method in ("exact", "bounds", "rollouts"):
                where = t("coach.trick_no", lang, n=m.trick)
                assert m.before is not None and m.after is not None
                text = f"{where:>12} {who}: {label:10} " + t(
                    "coach.before_after", lang, before=_bounds(m.before), after=_bounds(m.after)
                )
                if m.loss > 0:
                    amount = round(m.loss, 1)
                    text += "  " + t("coach.loss", lang, amount=_num(amount), unit=unit_text(d.unit, amount, lang))
                    if m.best is not None:
                        text += f" ({t('coach.best_was', lang, action=m.best.label(lang))})"
            elif m.method == "sampled":
                assert m.after is not None
                key = "coach.sampled_rule" if m.by_rule else "coach.sampled"
                text = f"{'':>12} {who}: " + t(
                    key, lang, action=label, score=f"{m.after[0]:.2f}", unit=unit_text(m.unit, m.after[0], lang)
                )
                if m.loss > 0 and m.best is not None:
                    text += "  " + t("coach.loss", lang, amount=f"{m.loss:.2f}", unit=unit_text(m.unit, 2, lang))
                    text += f" ({t('coach.best_was', lang, action=m.best.label(lang))})"
            elif m.kind != "other":
                lines.append(f"{'':>12} {who}: " + t("coach.not_weighed", lang, action=label))
                continue
            else:
                continue
            if m.method != "exact":
                tags.add(m.method)
                text += f"  [{t('coach.tag.' + m.method, lang)}]"
            lines.append(text)
        lines.append(f"-- {t('coach.summary', lang)} --")
        for s in d.seats:
            who = seat_name(s.seat, lang, names=names)
            if s.lost > 0:
                amount = round(s.lost, 1)
                lines.append(
                    t(
                        "coach.seat_lost",
                        lang,
                        who=who,
                        amount=_num(amount),
                        unit=unit_text(d.unit, amount, lang),
                        where=_trick_list(s.where, lang),
                    )
                )
            if s.estimated > 0:
                amount = round(s.estimated, 1)
                lines.append(
                    t(
                        "coach.seat_lost",
                        lang,
                        who=who,
                        amount=_num(amount),
                        unit=unit_text(d.unit, amount, lang),
                        where=_trick_list(s.estimated_where, lang),
                    )
                    + f" [{t('coach.tag.rollouts', lang)}]"
                )
            if s.decisions > 0:
                lines.append(
                    t(
                        "coach.seat_decisions",
                        lang,
                        who=who,
                        amount=f"{s.decisions:.2f}",
                        unit=unit_text(d.score_unit, 2, lang),
                    )
                )
            if s.lost == 0 and s.estimated == 0 and s.decisions == 0:
                lines.append(t("coach.seat_clean", lang, who=who))
        lines.append(t("coach.exact_share", lang, solved=d.exact, total=d.positions))
        part = coach_part(rev.game)
        if part.exact_note is not None:
            lines.append(t(part.exact_note, lang, n=part.exact_from))
        for tag in ("bounds", "rollouts", "sampled"):
            if tag in tags:
                lines.append(
                    t("coach.legend", lang, tag=t("coach.tag." + tag, lang), meaning=t("coach.method." + tag, lang))
                )
    return "\n".join(lines)
