"""うんすんかるた (Unsun) on a score sheet: the facts of its scored deals (``docs/records.md``, "Scored
deals"), a seat's role in a deal for the statistics, who starts the next deal, and its scoring
units for the ratings."""

from __future__ import annotations

from typing import Any, Callable, Mapping

from ..scored import Facts, ScoredLog
from . import Scoresheet


def score_facts(state: Any, f: Facts) -> None:
    """Check a scored deal's facts, score them and end the deal in ``state``."""
    from ..games.unsun import DEAL_SIZES, deal_winners

    n = state.num_players
    size = DEAL_SIZES[n][0]
    won = f.counts("tricks_won", n, 0, size)
    tricks = [int(v or 0) for v in won]
    if sum(tricks) != size:
        f.fail("tricks_won", f"they add up to {sum(tricks)}; a deal has {size} tricks")
    winners = list(deal_winners(tricks))
    given = f.data.get("winners")
    if given is not None:
        if not isinstance(given, list) or not all(isinstance(w, int) for w in given) or sorted(given) != winners:
            f.fail("winners", f"{given!r} are not the seats with the most tricks: {winners}")
        f.out["winners"] = winners
    indicator = f.card("indicator")
    trump = f.suit("trump", required=False)
    if indicator is not None:
        if indicator.suit is None:
            f.fail("indicator", "the joker is not in Unsun's deck")
        if trump is not None and trump != indicator.suit.value:
            f.fail("trump", f"the indicator {indicator.code} makes {indicator.suit.value} trump, not {trump}")
        if state.options.reflip_face_card and indicator.code[0] in "AKQJ":
            f.fail("indicator", f"{indicator.code} is an A, K, Q or J: with reflip_face_card a new indicator is turned")
        trump = indicator.suit.value
    f.check_score(tricks)
    replay = {
        "outcome": "played",
        "tricks": [],
        "score": tricks,
        "trump": trump,
        "tricks_won": tricks,
        "dealer": state.dealer,
        "indicator": indicator.code if indicator else None,
        "winners": winners,
        "scored": True,
    }
    state.end_scored_deal(ScoredLog(f.out, replay), tricks)


def count_roles(roles: dict[str, Any], deal: Mapping[str, Any], seat: int, unit: int, n: int) -> None:
    """Count ``seat``'s role in one finished deal into ``roles`` (its player's statistics)."""
    entry = roles.setdefault("player", {"tricks": 0, "deals_won": 0})
    entry["tricks"] += deal["tricks_won"][seat]
    entry["deals_won"] += int(seat in (deal.get("winners") or []))


def next_deal(state: Any) -> dict[str, Any]:
    """Who starts the next deal (what the scorer needs to know)."""
    return {} if state.is_over else {"dealer": state.dealer}


def keeper_form(state: Any) -> dict[str, Any]:
    """The score keeper's entry form of the next deal: the tricks each seat took."""
    return {
        "kinds": [
            {
                "kind": "played",
                "fields": [
                    {"type": "heading", "label": "@tricks_won"},
                    {"type": "per_seat", "id": "k-tricks", "key": "tricks_won", "min": 0, "max": 16, "default": 0},
                ],
                "facts": {"tricks_won": "$tricks_won"},
            },
        ]
    }


def describe(deal: Mapping[str, Any], seat_name: Callable[[int], str]) -> str:
    """A deal in a line: the tricks each seat took."""
    return "·".join(str(t) for t in deal["tricks_won"])


SCORESHEET = Scoresheet(
    facts=frozenset({"tricks_won", "winners", "trump", "indicator", "score", "note"}),
    score=score_facts,
    count_roles=count_roles,
    next_deal=next_deal,
    partnerships=False,
    keeper_setup={
        "players": [4, 3, 5],
        "players_option": True,
        "total": "total",
        "options": [{"key": "deals", "label": "deals", "per_player": 1}],
    },
    keeper_form=keeper_form,
    describe=describe,
)
