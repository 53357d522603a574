"""ナポレオン (Napoleon) on a score sheet: the facts of its scored deals (``docs/records.md``, "Scored
deals"), a seat's role in a deal for the statistics, who starts the next deal, and its scoring
units for the ratings."""

from __future__ import annotations

from typing import Any, Callable, Mapping

from ..scored import Facts, ScoredLog
from . import Scoresheet, count_role

KEEPER_TERMS = {"keeper.napoleon": ("ナポレオン", "Napoleon")}
"""The score keeper's words of this game's own."""

FACTS = frozenset(
    {"all_pass", "napoleon", "declared", "contract", "adjutant_card", "adjutant", "face_cards", "score", "note"}
)
"""The facts a scored deal of Napoleon may carry."""


def score_facts(state: Any, f: Facts) -> None:
    """Check a scored deal's facts, score them and end the deal in ``state``."""
    from ..games.napoleon import _BIDS, _HAND_SIZE, DECKS, deal_score

    opts = state.options
    n = opts.players
    if f.has("all_pass"):
        if f.data["all_pass"] is not True:
            f.fail("all_pass", f"must be true, got {f.data['all_pass']!r}")
        for extra in sorted(FACTS - {"all_pass", "note", "score"}):
            if f.has(extra):
                f.fail(extra, "a deal where every player passed has no " + extra)
        f.out["all_pass"] = True
        f.check_score([0] * n)
        replay = {
            "outcome": "redeal",
            "tricks": [],
            "score": [0] * n,
            "napoleon": None,
            "contract": None,
            "adjutant_card": None,
            "adjutant": None,
            "army_face_cards": None,
            "napoleon_wins": None,
            "solo": None,
            "declared": None,
            "face_cards": [0] * n,
            "first_bidder": state.first_bidder,
            "scored": True,
        }
        state.end_scored_deal(ScoredLog(f.out, replay), "redeal", [0] * n)
        return
    bids = _BIDS[n]
    nap = f.seat("napoleon", n)
    declared = f.bid("declared", bids)
    contract = f.bid("contract", bids, required=False)
    assert nap is not None and declared is not None
    if contract is None:
        contract = declared
        f.out["contract"] = contract.text
    elif contract != declared:
        if not opts.redeclare:
            f.fail("contract", "differs from the declaration, but this table plays without redeclare")
        if bids.index(contract) < bids.index(declared):
            f.fail("contract", f"{contract.text} is weaker than the declaration {declared.text}")
    card = f.card("adjutant_card")
    if card is not None and card not in DECKS[opts.joker]:
        f.fail("adjutant_card", f"{card.code} is not in this table's deck")
    adjutant = f.seat("adjutant", n, required=False)
    if "adjutant" not in f.data:
        f.fail("adjutant", "is required: the adjutant's seat, or null when Napoleon is alone (solo)")
    f.out["adjutant"] = adjutant
    if adjutant == nap:
        f.fail("adjutant", "Napoleon cannot be their own adjutant: write null (solo)")
    faces = f.counts("face_cards", n, 0, 20)
    middle = len(DECKS[opts.joker]) - n * _HAND_SIZE[n]
    taken = sum(v for v in faces if v is not None)
    if not 20 - middle <= taken <= 20:
        f.fail(
            "face_cards",
            f"they add up to {taken}; the 20 face cards are taken in tricks but for "
            f"those Napoleon discarded ({middle} cards), so {20 - middle}-20",
        )
    army = (faces[nap] or 0) + (faces[adjutant] or 0 if adjutant is not None else 0)
    score, wins = deal_score(n, nap, adjutant, contract.count, army, opts.strategy_b)
    f.check_score(score)
    replay = {
        "outcome": "played",
        "tricks": [],
        "score": score,
        "napoleon": nap,
        "contract": contract.text,
        "adjutant_card": card.code if card else None,
        "adjutant": adjutant,
        "army_face_cards": army,
        "napoleon_wins": wins,
        "solo": adjutant is None,
        "declared": declared.text,
        "face_cards": faces,
        "first_bidder": state.first_bidder,
        "scored": True,
    }
    state.end_scored_deal(ScoredLog(f.out, replay), "played", score)


def count_roles(roles: dict[str, Any], deal: Mapping[str, Any], seat: int, unit: int, n: int) -> None:
    """Count ``seat``'s role in one finished deal into ``roles`` (its player's statistics)."""
    outcome = deal["outcome"]
    if outcome != "played":
        return
    wins = bool(deal["napoleon_wins"])
    if seat == deal["napoleon"]:
        role, won = "napoleon", wins
    elif seat == deal["adjutant"]:
        role, won = "adjutant", wins
    else:
        role, won = "citizen", not wins
    count_role(roles, role, "won" if won else "lost")


def next_deal(state: Any) -> dict[str, Any]:
    """Who starts the next deal (what the scorer needs to know)."""
    return {} if state.is_over else {"first_bidder": state.first_bidder}


def keeper_form(state: Any) -> dict[str, Any]:
    """The score keeper's entry form of the next deal: played (Napoleon, the declaration, the
    adjutant, each seat's face cards) or all passed."""
    n = state.num_players
    low = 11 if n == 5 else 13
    return {
        "kinds": [
            {
                "kind": "played",
                "fields": [
                    {
                        "type": "select",
                        "id": "k-napoleon",
                        "key": "napoleon",
                        "label": "@napoleon",
                        "choices": "seats",
                        "default": state.first_bidder,
                    },
                    {
                        "type": "row",
                        "label": "@declared",
                        "fields": [
                            {
                                "type": "select",
                                "id": "k-count",
                                "key": "count",
                                "choices": [[c, str(c)] for c in range(low, 21)],
                                "default": low + 2,
                            },
                            {
                                "type": "select",
                                "id": "k-suit",
                                "key": "suit",
                                "default": "S",
                                "choices": [["S", "♠"], ["H", "♥"], ["D", "♦"], ["C", "♣"]],
                            },
                        ],
                    },
                    {
                        "type": "select",
                        "id": "k-adjutant",
                        "key": "adjutant",
                        "label": "@adjutant",
                        "choices": "seats",
                        "none": "@solo",
                        "except": "napoleon",
                        "default": None,
                    },
                    {"type": "heading", "label": "@face_cards"},
                    {"type": "per_seat", "id": "k-faces", "key": "faces", "min": 0, "max": 20, "default": 0},
                ],
                "facts": {
                    "napoleon": "$napoleon",
                    "declared": {"$join": ["$count", "$suit"]},
                    "adjutant": "$adjutant",
                    "face_cards": "$faces",
                },
            },
            {"kind": "all_pass", "fields": [], "facts": {"all_pass": True}},
        ]
    }


def describe(deal: Mapping[str, Any], seat_name: Callable[[int], str]) -> str:
    """A played deal in a line: Napoleon, the contract, the army's face cards."""
    return f"{seat_name(deal['napoleon'])} {deal['contract']} · {deal['army_face_cards']}"


SCORESHEET = Scoresheet(
    facts=FACTS,
    score=score_facts,
    count_roles=count_roles,
    next_deal=next_deal,
    partnerships=False,
    keeper_terms=KEEPER_TERMS,
    keeper_setup={
        "players": [5, 4],
        "players_option": True,
        "total": "total",
        "options": [{"key": "deals", "label": "deals", "per_player": 2}],
    },
    keeper_form=keeper_form,
    describe=describe,
)
