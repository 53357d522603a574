"""掛合トランプ (Kakeya Trump) on a score sheet: the facts of its scored deals (``docs/records.md``, "Scored
deals"), a seat's role in a deal for the statistics, who starts the next deal, and its scoring
units for the ratings."""

from __future__ import annotations

from typing import Any, Callable, Mapping

from ..scored import Facts, ScoredLog
from . import Scoresheet

KEEPER_TERMS = {"keeper.kakeya_faces": ("取った絵札 (ペアごと)", "Face cards taken, per pair")}
"""The score keeper's words of this game's own."""


def score_facts(state: Any, f: Facts) -> None:
    """Check a scored deal's facts, score them and end the deal in ``state``."""
    from ..cards import CARDS
    from ..games.kakeya import ACE_IDS, ALL_ACES, game_result, rensho_of

    half = state.num_players // 2
    leading, sitting = state.leading_pair, state.sitting_out
    other = next(p for p in range(half) if p not in (leading, sitting))
    pairs = (leading, other)
    trump_letter = f.suit("trump", required=True)
    trump = "SHDC".index(str(trump_letter))
    leader = f.seat("leader", state.num_players, required=False)
    if leader is not None and leader % half != leading:
        f.fail(
            "leader",
            f"seat {leader} is not of the leading pair {leading} "
            f"(seats {', '.join(map(str, state.pair_seats(leading)))})",
        )
    faces = f.counts("face_cards", half, 0, 16, skip=sitting)
    fa, fb = faces[leading] or 0, faces[other] or 0
    if fa + fb != 16:
        f.fail("face_cards", f"the playing pairs took {fa} + {fb}; the 16 face cards add up to 16")

    def pair_fact(name: str) -> int | None:
        p = f.seat(name, half, required=False)
        if p is not None and p not in pairs:
            f.fail(name, f"pair {p} sits this game out")
        return p

    rensho_pair = pair_fact("rensho_pair")
    ace_pair = pair_fact("trump_ace_pair")
    four_pair = pair_fact("four_aces_pair")
    if four_pair is not None:
        for name, p in (("rensho_pair", rensho_pair), ("trump_ace_pair", ace_pair)):
            if p is not None and p != four_pair:
                f.fail(name, f"pair {four_pair} was dealt all four aces, the rensho and the trump ace among them")
        rensho_pair = four_pair
    if rensho_pair is None and fa == fb == 8:
        f.fail("rensho_pair", "is required at 8 – 8: the pair not dealt the rensho wins")
    dealt = [0, 0]
    for k, p in enumerate(pairs):
        if p == rensho_pair:
            dealt[k] |= 1 << rensho_of(trump)
        if p == ace_pair:
            dealt[k] |= 1 << ACE_IDS[trump]
        if p == four_pair:
            dealt[k] |= ALL_ACES
    winner, loser, pay, column = game_result(
        (fa, fb), pairs, -1 if rensho_pair is None else rensho_pair, (dealt[0], dealt[1]), trump
    )
    chips = f.data.get("chips")
    if chips is not None:
        f.count(chips, "chips", 1, 4)
        if chips != pay:
            f.fail("chips", f"{chips} is not what the rules give: pair {loser} pays {pay} ({column})")
        f.out["chips"] = pay
    score = [0] * half
    score[winner], score[loser] = pay, -pay
    f.check_score(score)
    replay = {
        "outcome": "played",
        "tricks": [],
        "score": score,
        "trump": trump_letter,
        "rensho": CARDS[rensho_of(trump)].code,
        "face_cards": faces,
        "dealing_pair": state.dealing_pair,
        "leading_pair": leading,
        "sitting_out": sitting,
        "leader": leader,
        "winning_pair": winner,
        "rensho_pair": rensho_pair,
        "payment": pay,
        "payment_column": column,
        "scored": True,
    }
    state.end_scored_game(ScoredLog(f.out, replay), trump, winner, loser, pay)


def count_roles(roles: dict[str, Any], deal: Mapping[str, Any], seat: int, unit: int, n: int) -> None:
    """Count ``seat``'s role in one finished deal into ``roles`` (its player's statistics)."""
    faces = deal.get("face_cards") or []
    if unit < len(faces) and faces[unit] is None:
        return  # sitting this game out
    entry = roles.setdefault("pair", {"games": 0, "won": 0, "chips": 0})
    entry["games"] += 1
    entry["won"] += int(deal.get("winning_pair") == unit)
    entry["chips"] += deal["score"][unit]


def next_deal(state: Any) -> dict[str, Any]:
    """Who starts the next deal (what the scorer needs to know)."""
    if state.is_over:
        return {}
    return {"leading_pair": state.leading_pair, "dealing_pair": state.dealing_pair, "sitting_out": state.sitting_out}


_SUITS = [["S", "♠"], ["H", "♥"], ["D", "♦"], ["C", "♣"]]


def keeper_form(state: Any) -> dict[str, Any]:
    """The score keeper's entry form of the next game: the trump, the two playing pairs' face
    cards (sixteen between them), and which pair was dealt the rensho, the trump ace, all four
    aces (where the scorer knows)."""
    half = state.num_players // 2
    lead, sitting = state.leading_pair, state.sitting_out
    other = next(p for p in range(half) if p not in (lead, sitting))
    deals = state.summary()["deals"]
    trump = deals[-1]["trump"] if deals else state.options.initial_trump
    faces: list[Any] = [None] * half
    faces[lead], faces[other] = "$lead_faces", "$other_faces"
    pairs = [[None, "@unknown"], [lead, {"unit": lead}], [other, {"unit": other}]]
    return {
        "kinds": [
            {
                "kind": "played",
                "fields": [
                    {
                        "type": "select",
                        "id": "k-trump",
                        "key": "trump",
                        "label": "@trump",
                        "choices": _SUITS,
                        "default": trump,
                    },
                    {"type": "heading", "label": "@kakeya_faces"},
                    {
                        "type": "stepper",
                        "id": "k-faces-lead",
                        "key": "lead_faces",
                        "label": {"unit": lead},
                        "min": 0,
                        "max": 16,
                        "default": 8,
                    },
                    {
                        "type": "rest",
                        "id": "k-faces-other",
                        "key": "other_faces",
                        "label": {"unit": other},
                        "of": "lead_faces",
                        "total": 16,
                    },
                    {
                        "type": "select",
                        "id": "k-rensho",
                        "key": "rensho_pair",
                        "label": "@rensho_pair",
                        "choices": pairs,
                        "default": None,
                    },
                    {
                        "type": "select",
                        "id": "k-trump-ace",
                        "key": "trump_ace_pair",
                        "label": "@trump_ace_pair",
                        "choices": pairs,
                        "default": None,
                    },
                    {
                        "type": "select",
                        "id": "k-four-aces",
                        "key": "four_aces_pair",
                        "label": "@four_aces_pair",
                        "choices": pairs,
                        "default": None,
                    },
                ],
                "facts": {
                    "trump": "$trump",
                    "face_cards": faces,
                    "rensho_pair?": "$rensho_pair",
                    "trump_ace_pair?": "$trump_ace_pair",
                    "four_aces_pair?": "$four_aces_pair",
                },
            },
        ]
    }


def describe(deal: Mapping[str, Any], seat_name: Callable[[int], str]) -> str:
    """A game in a line: the trump and the face cards each playing pair took."""
    symbol = dict(_SUITS)[deal["trump"]]
    return f"{symbol} {'–'.join(str(f) for f in deal['face_cards'] if f is not None)}"


SCORESHEET = Scoresheet(
    facts=frozenset(
        {"trump", "leader", "face_cards", "rensho_pair", "trump_ace_pair", "four_aces_pair", "chips", "score", "note"}
    ),
    score=score_facts,
    count_roles=count_roles,
    next_deal=next_deal,
    partnerships=True,
    keeper_terms=KEEPER_TERMS,
    keeper_setup={"players": [4, 6], "players_option": True, "unit": "pair", "total": "chips", "options": []},
    keeper_form=keeper_form,
    describe=describe,
)
