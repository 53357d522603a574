"""Evaluation per role and per decision (役割別・判断別の評価), from a duplicate tournament's records.

A tournament's summary says which bot scores more per deal; these two tables say where:

- **per role**: every seat of every rotation has a role in its deal, as the game's score sheet
  counts it for a player's statistics (:mod:`kirifuda.scoresheets`: Meitora's declarer, partner
  and defender; Napoleon's Napoleon, adjutant and citizen; a game whose sheet knows one role only,
  or a deal without a role — all passed —, gives one row or none).  A bot's value in a role is the
  mean of its seat scores in that role (the tournament's seat score: the seat's unit's points
  minus the mean of the others'); its 95% interval is clustered by deal (the rotations of a deal
  share its cards), and *A − B* is paired over the deals where both bots held the role.  A bot
  that bids more often is Napoleon in more deals: per role, compare where each one stands, not
  only the difference.
- **per decision**: each decision of each bot (where it had a choice) is put to the oracle, which
  sees every card, on the same state; the table gives how often the bot chose as the oracle did,
  per kind of decision (the class of most of the legal actions: ``bid``, ``play``, ``discard``,
  ``adjutant``, …), with a 95% interval clustered by deal.  Agreement is a floor of quality, not
  a score: two cards of equal worth count as a disagreement.

Both read only the records (``kirifuda tournament --out DIR`` writes them): no game is named
here; the roles come from each game's score sheet.
"""

from __future__ import annotations

import json
import math
import random
from collections import Counter
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

__all__ = ["role_table", "decision_table", "records_in", "Estimate", "clustered_mean", "clustered_ratio"]


class Estimate(dict[str, float]):
    """``mean``, ``lo``, ``hi`` (the 95% interval) and ``n`` (clusters)."""


def clustered_mean(values: Sequence[float]) -> Estimate:
    """The mean of per-deal values with its 95% interval (± 1.96 standard errors)."""
    n = len(values)
    m = sum(values) / n if n else 0.0
    if n < 2:
        return Estimate(mean=m, lo=m, hi=m, n=n)
    var = sum((v - m) ** 2 for v in values) / (n - 1)
    se = math.sqrt(var / n)
    return Estimate(mean=m, lo=m - 1.96 * se, hi=m + 1.96 * se, n=n)


def clustered_ratio(pairs: Sequence[tuple[float, float]]) -> Estimate:
    """The ratio Σ hits / Σ trials over clusters ``(hits, trials)`` with its 95% interval
    (the ratio estimator's clustered standard error)."""
    clusters = [(h, t) for h, t in pairs if t > 0]
    n = len(clusters)
    total = sum(t for _, t in clusters)
    r = sum(h for h, _ in clusters) / total if total else 0.0
    if n < 2:
        return Estimate(mean=r, lo=r, hi=r, n=n)
    mean_t = total / n
    var = sum((h - r * t) ** 2 for h, t in clusters) / (n - 1)
    se = math.sqrt(var / n) / mean_t
    return Estimate(mean=r, lo=r - 1.96 * se, hi=r + 1.96 * se, n=n)


def records_in(directory: Path) -> dict[int, list[dict[str, Any]]]:
    """The records a ``kirifuda tournament --out`` directory holds, by deal index (rotations in
    order)."""
    out: dict[int, list[dict[str, Any]]] = {}
    for path in sorted((directory / "records").glob("deal*-r*.json")):
        deal = int(path.stem[4:].split("-")[0])
        out.setdefault(deal, []).append(json.loads(path.read_text(encoding="utf-8")))
    return out


def _seat_roles(game: str, deal: Mapping[str, Any], n: int) -> list[str | None]:
    from ..ratings import units_of
    from ..scoresheets import scoresheet

    sheet = scoresheet(game)
    if sheet is None:
        return [None] * n
    units = units_of(game, n)
    out: list[str | None] = []
    for seat in range(n):
        unit = next(u for u, members in enumerate(units) if seat in members)
        roles: dict[str, Any] = {}
        sheet.count_roles(roles, deal, seat, unit, n)
        out.append(next((r for r in roles if r != "chombo"), None))
    return out


def role_table(game: str, deals: Mapping[int, Sequence[Mapping[str, Any]]], a: str, b: str) -> list[dict[str, Any]]:
    """Per role: each bot's mean seat score in it and the paired difference, over the deals
    (``deals``: each deal's records, one per rotation)."""
    from ..record import from_json, replay
    from ..tournament import seat_scores

    per: dict[str, dict[str, dict[int, list[float]]]] = {}
    """role → bot → deal → its seat scores in that role."""
    for index, recs in deals.items():
        for data in recs:
            rec = from_json(data)
            state = replay(rec)
            summary = state.summary()
            played = [d for d in summary["deals"] if d.get("outcome") != "in-progress"]
            if not played or not rec.players:
                continue
            n = len(rec.players)
            scores = seat_scores(game, [0.0] * len(summary["totals"]), [float(t) for t in summary["totals"]], n)
            for seat, role in enumerate(_seat_roles(game, played[-1], n)):
                bot = rec.players[seat]
                if role is None or bot not in (a, b):
                    continue
                per.setdefault(role, {}).setdefault(bot, {}).setdefault(index, []).append(scores[seat])
    rows = []
    for role in sorted(per):
        means = {bot: {d: sum(v) / len(v) for d, v in by_deal.items()} for bot, by_deal in per[role].items()}
        ea = clustered_mean(list(means.get(a, {}).values()))
        eb = clustered_mean(list(means.get(b, {}).values()))
        both = sorted(set(means.get(a, {})) & set(means.get(b, {})))
        diff = clustered_mean([means[a][d] - means[b][d] for d in both])
        rows.append({"role": role, "a": ea, "b": eb, "diff": diff})
    return rows


def decision_kind(legal: Sequence[Any]) -> str:
    """A decision's kind: the class of most of its legal actions, in lower case."""
    return Counter(type(x).__name__ for x in legal).most_common(1)[0][0].lower()


def decision_table(
    game: str, deals: Mapping[int, Sequence[Mapping[str, Any]]], bots: Iterable[str], seed: int = 0
) -> list[dict[str, Any]]:
    """Per bot and kind of decision: how often the bot chose what the oracle chooses on the same
    state (every decision where it had a choice, in every record of ``deals``)."""
    from ..record import from_json
    from .base import make_bot

    oracle = make_bot("oracle", game)
    wanted = set(bots)
    counts: dict[tuple[str, str], dict[int, list[int]]] = {}
    """(bot, kind) → deal → [agreements, decisions]."""
    for index, recs in deals.items():
        for r, data in enumerate(recs):
            rec = from_json(data)
            if not rec.players:
                continue
            state = rec.new_state()
            for deal in rec.deals:
                if deal.scored is not None:
                    break
                state.deal(deal.hands, deal.rest)
                for j, act in enumerate(deal.actions):
                    seat = act["seat"]
                    action = rec.info.action_from_json(act, seat)
                    bot = rec.players[seat]
                    legal = state.legal_actions()
                    if bot in wanted and len(legal) > 1:
                        rng = random.Random(f"{seed}:{index}:{r}:{j}")
                        best = oracle.choose_state(state.copy(), rng)  # type: ignore[attr-defined]
                        cell = counts.setdefault((bot, decision_kind(legal)), {}).setdefault(index, [0, 0])
                        cell[0] += int(best == action)
                        cell[1] += 1
                    state.apply(action, seat)
    rows = []
    for (bot, kind), by_deal in sorted(counts.items()):
        est = clustered_ratio([(h, t) for h, t in by_deal.values()])
        rows.append({"bot": bot, "kind": kind, "decisions": sum(t for _, t in by_deal.values()), "agree": est})
    return rows
