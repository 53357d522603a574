"""Reviewing deals for a partner's mistakes (パートナーの失着): the trick taken from partner.

    python -m kirifuda.bots.partner_review RECORD_OR_DIR … [--bot search]

reads records (files, or directories of them: a tournament's ``records/``) of the games with
fixed partnerships (their score sheet says so: Meitora's teams, Kakeya's pairs) and lists every
card a bot played **last to a trick its partner was winning, taking the trick from partner,
where it had a card that would have let partner's card win** (overtaking or ruffing partner's
winner).  Each is a candidate for a partner record (``tests/partner/``): replay it with
``kirifuda analyze RECORD`` and keep the ones a club player would call a mistake.  The trick's
winner is the engine's (the card applied to a copy of the state), so no game is named here.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any, Iterator, Sequence

__all__ = ["taken_from_partner", "main"]


def _winner_after(state: Any, action: Any, seat: int) -> int | None:
    """Who wins the trick ``action`` completes (the next to act), or None where the deal ends."""
    trial = state.copy()
    deal_no = trial.deal_number
    trial.apply(action, seat)
    if trial.deal_number != deal_no or trial.is_over:
        return None
    return trial.to_act  # type: ignore[no-any-return]


def taken_from_partner(data: dict[str, Any], bots: Sequence[str] | None = None) -> Iterator[dict[str, Any]]:
    """The plays of one record (JSON) that took a trick from partner when another card would have
    left it to partner: deal number, seat, player, the card played and the cards that kept it."""
    from ..ratings import units_of
    from ..record import from_json
    from ..scoresheets import scoresheet

    rec = from_json(data)
    sheet = scoresheet(rec.game)
    if sheet is None or not sheet.partnerships or not rec.players:
        return
    n = len(rec.players)
    team = {s: next(u for u in units_of(rec.game, n) if s in u) for s in range(n)}
    state = rec.new_state()
    for number, deal in enumerate(rec.deals):
        if deal.scored is not None:
            break
        state.deal(deal.hands, deal.rest)
        for act in deal.actions:
            seat = act["seat"]
            action = rec.info.action_from_json(act, seat)
            player = rec.players[seat]
            card = getattr(action, "card", None)
            if card is not None and (bots is None or player in bots):
                legal = [a for a in state.legal_actions() if getattr(a, "card", None) is not None]
                winner = _winner_after(state, action, seat)
                if winner == seat and len(legal) > 1:
                    partners = [s for s in team[seat] if s != seat]
                    outcomes = {a.card.code: _winner_after(state, a, seat) for a in legal}  # type: ignore[attr-defined]
                    if not any(w is None for w in outcomes.values()):
                        kept = sorted(c for c, w in outcomes.items() if w in partners)
                        if kept:
                            yield {"deal": number, "seat": seat, "player": player, "played": card.code, "kept": kept}
            state.apply(action, seat)


def _records(paths: Sequence[Path]) -> Iterator[tuple[Path, dict[str, Any]]]:
    for p in paths:
        files = sorted(p.rglob("*.json")) if p.is_dir() else [p]
        for f in files:
            try:
                data = json.loads(f.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                continue
            if isinstance(data, dict) and str(data.get("format", "")).startswith("kirifuda-record/"):
                yield f, data


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m kirifuda.bots.partner_review", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("paths", nargs="+", type=Path, help="records, or directories of them")
    parser.add_argument("--bot", action="append", default=None, help="only this player's plays (repeatable)")
    args = parser.parse_args(argv)
    found = seen = 0
    for path, data in _records(args.paths):
        seen += 1
        for hit in taken_from_partner(data, args.bot):
            found += 1
            print(
                f"{path}: deal {hit['deal']}, seat {hit['seat']} ({hit['player']}) played {hit['played']}, "
                f"partner's trick kept by {' '.join(hit['kept'])}"
            )
    print(f"{found} tricks taken from partner in {seen} records")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
