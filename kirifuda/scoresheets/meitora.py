"""明専トランプ (Meitora) on a score sheet: the facts of its scored deals (``docs/records.md``, "Scored
deals"), a seat's role in a deal for the statistics, who starts the next deal, and its scoring
units for the ratings."""

from __future__ import annotations

from typing import Any, Callable, Mapping

from ..actions import Bid
from ..scored import Facts, ScoredLog
from . import Scoresheet, count_role


def score_facts(state: Any, f: Facts) -> None:
    """Check a scored deal's facts, score them and end the deal in ``state``."""
    from ..games.meitora import BIDS, _points, chombo_score, contract_score

    first = state.first_bidder
    declarer: int | None = None
    contract: Bid | None = None
    broken: int | None = None
    if f.has("bids"):
        bids = f.data["bids"]
        if not isinstance(bids, list) or not 1 <= len(bids) <= 4:
            f.fail("bids", f"must be the round's 1-4 bids from the first bidder, got {bids!r}")
        high: Bid | None = None
        written: list[str] = []
        for k, text in enumerate(bids):
            seat = (first + k) % 4
            if text == "broken":
                if k != len(bids) - 1:
                    f.fail(f"bids[{k}]", "a broken ends the round: no bid follows it")
                broken = seat
                written.append("broken")
                continue
            made = f._parse_bid(f"bids[{k}]", text, BIDS)
            written.append(made.text if isinstance(made, Bid) else "pass")
            if isinstance(made, Bid):
                if high is not None and BIDS.index(made) <= BIDS.index(high):
                    f.fail(f"bids[{k}]", f"{made.text} is not stronger than the highest bid {high.text}")
                high, declarer = made, seat
        if broken is None and len(bids) != 4:
            f.fail("bids", "the round has four bids (one per seat) unless a broken ends it")
        if broken is not None:
            declarer = None
        contract = high if broken is None else None
        f.out["bids"] = written
    kinds = [k for k in ("chombo", "broken", "all_pass", "declarer") if f.has(k)]
    if "chombo" in kinds:
        kind = "chombo"
    elif len(kinds) == 1:
        kind = kinds[0]
    elif broken is not None:
        kind = "broken"
    elif declarer is not None:
        kind = "declarer"
    elif f.has("bids"):
        kind = "all_pass"
    else:
        f.fail(
            "",
            "a Meitora scored deal is one of: played (declarer, contract, tricks), "
            "broken (seat), chombo (seat) or all_pass",
        )
    if kind not in ("chombo", "declarer"):
        for extra in ("declarer", "contract", "tricks", "claim"):
            if f.has(extra):
                f.fail(extra, f"a deal that is {kind.replace('_', ' ')} has no {extra}")

    from_bids = declarer is not None
    seat_d = f.seat("declarer", 4, required=kind == "declarer" and not from_bids)
    bid = f.bid("contract", BIDS, required=kind == "declarer" and not from_bids)
    if f.has("bids") and kind in ("declarer", "chombo") and declarer is not None:
        if seat_d is not None and seat_d != declarer:
            f.fail("declarer", f"seat {seat_d} is not the highest bidder of the bids (seat {declarer})")
        if bid is not None and bid != contract:
            f.fail("contract", f"{bid.text} is not the highest bid {contract.text if contract else None}")
        seat_d = declarer if seat_d is None else seat_d
        bid = contract if bid is None else bid
        f.out.setdefault("declarer", seat_d)
        if bid is not None:
            f.out.setdefault("contract", bid.text)
    score = [0, 0]
    outcome = "played"
    team_tricks: list[int] | None = None
    chombo: int | None = None
    failed_claim = False
    if kind == "chombo":
        chombo = f.seat("chombo", 4)
        assert chombo is not None
        reason = f.data.get("reason")
        if reason is not None:
            if not isinstance(reason, str):
                f.fail("reason", f"must be a string, got {reason!r}")
            f.out["reason"] = reason
        failed_claim = f.flag("failed_claim")
        if failed_claim and state.options.claim_failure != "chombo":
            f.fail("failed_claim", "a failed claim is a chombo only under claim_failure=chombo")
        for extra in ("tricks", "claim", "broken", "all_pass"):
            if f.has(extra):
                f.fail(extra, "a chombo deal is scored by the chombo alone")
        score = chombo_score(chombo)
        outcome = "chombo"
    elif kind == "broken":
        given = f.seat("broken", 4, required=broken is None)
        if broken is not None and given is not None and given != broken:
            f.fail("broken", f"seat {given} is not the seat whose broken ends the bids (seat {broken})")
        broken = broken if given is None else given
        f.out["broken"] = broken
        outcome = "redeal"
    elif kind == "all_pass":
        if f.has("all_pass") and f.data["all_pass"] is not True:
            f.fail("all_pass", f"must be true, got {f.data['all_pass']!r}")
        f.out["all_pass"] = True
        outcome = "redeal"
    else:
        assert seat_d is not None and bid is not None
        tricks = f.count(f.data.get("tricks"), "tricks", 0, 10)
        f.out["tricks"] = tricks
        if f.has("claim"):
            claim = f.data["claim"]
            if not isinstance(claim, Mapping) or set(claim) != {"seat", "after"}:
                f.fail("claim", f'must be {{"seat": s, "after": tricks played}}, got {claim!r}')
            claimant = f.count(claim["seat"], "claim.seat", 0, 3)
            after = f.count(claim["after"], "claim.after", 0, 9)
            ours = tricks if claimant % 2 == seat_d % 2 else 10 - tricks
            if ours < 10 - after:
                f.fail(
                    "claim", f"seat {claimant} claimed the last {10 - after} tricks, but its team took {ours} in all"
                )
            f.out["claim"] = {"seat": claimant, "after": after}
        mine, theirs = contract_score(bid.count, tricks)
        score[seat_d % 2], score[1 - seat_d % 2] = mine, theirs
        team_tricks = [0, 0]
        team_tricks[seat_d % 2], team_tricks[1 - seat_d % 2] = tricks, 10 - tricks
    points = [_points(score[0]), _points(score[1])]
    f.check_score(points)
    has_declarer = outcome != "redeal" and seat_d is not None and bid is not None
    replay: dict[str, Any] = {
        "outcome": outcome,
        "tricks": [],
        "score": points,
        "declarer": seat_d if has_declarer else None,
        "contract": bid.text if has_declarer and bid is not None else None,
        "team_tricks": team_tricks,
        "broken": broken,
        "first_bidder": first,
        "scored": True,
    }
    if chombo is not None:
        replay["chombo"] = chombo
        replay["failed_claim"] = failed_claim
    state.end_scored_deal(ScoredLog(f.out, replay), score, broken)


def count_roles(roles: dict[str, Any], deal: Mapping[str, Any], seat: int, unit: int, n: int) -> None:
    """Count ``seat``'s role in one finished deal into ``roles`` (its player's statistics)."""
    outcome = deal["outcome"]
    if outcome == "chombo" and deal.get("chombo") == seat:
        count_role(roles, "chombo", "count")
    declarer = deal.get("declarer")
    if outcome != "played" or declarer is None:
        return
    made = deal["score"][declarer % 2] > 0
    role = "declarer" if seat == declarer else "partner" if seat % 2 == declarer % 2 else "defender"
    count_role(roles, role, "made" if made else "set")


def next_deal(state: Any) -> dict[str, Any]:
    """Who starts the next deal (what the scorer needs to know)."""
    return {} if state.is_over else {"first_bidder": state.first_bidder}


def keeper_form(state: Any) -> dict[str, Any]:
    """The score keeper's entry form of the next deal: played (the declarer, the contract, the
    declaring team's tricks, a claim), broken, all passed, or a chombo."""
    first = state.first_bidder
    return {
        "kinds": [
            {
                "kind": "played",
                "fields": [
                    {
                        "type": "select",
                        "id": "k-declarer",
                        "key": "declarer",
                        "label": "@declarer",
                        "choices": "seats",
                        "default": first,
                    },
                    {
                        "type": "select",
                        "id": "k-count",
                        "key": "count",
                        "label": "@count",
                        "choices": [[c, str(c)] for c in range(6, 11)],
                        "default": 7,
                    },
                    {
                        "type": "select",
                        "id": "k-strain",
                        "key": "strain",
                        "label": "@strain",
                        "default": "H",
                        "choices": [["S", "♠"], ["C", "♣"], ["D", "♦"], ["H", "♥"], ["N", "@no_trump"]],
                    },
                    {
                        "type": "stepper",
                        "id": "k-tricks",
                        "key": "tricks",
                        "label": "@tricks",
                        "min": 0,
                        "max": 10,
                        "default": "$count",
                    },
                    {
                        "type": "select",
                        "id": "k-claim",
                        "key": "claim",
                        "label": "@claim",
                        "choices": "seats",
                        "none": "@none",
                        "default": None,
                    },
                    {
                        "type": "stepper",
                        "id": "k-claim-after",
                        "key": "claim_after",
                        "label": "@claim_after",
                        "min": 0,
                        "max": 9,
                        "default": 5,
                        "if": "claim",
                    },
                ],
                "facts": {
                    "declarer": "$declarer",
                    "contract": {"$join": ["$count", "$strain"]},
                    "tricks": "$tricks",
                    "claim": {"$if": "claim", "seat": "$claim", "after": "$claim_after"},
                },
            },
            {
                "kind": "broken",
                "fields": [
                    {
                        "type": "select",
                        "id": "k-broken",
                        "key": "broken",
                        "label": "@broken_seat",
                        "choices": "seats",
                        "default": 0,
                    }
                ],
                "facts": {"broken": "$broken"},
            },
            {"kind": "all_pass", "fields": [], "facts": {"all_pass": True}},
            {
                "kind": "chombo",
                "fields": [
                    {
                        "type": "select",
                        "id": "k-chombo",
                        "key": "chombo",
                        "label": "@chombo_seat",
                        "choices": "seats",
                        "default": 0,
                    },
                    {"type": "text", "id": "k-reason", "key": "reason", "label": "@reason", "default": ""},
                ],
                "facts": {"chombo": "$chombo", "reason?": "$reason"},
            },
        ]
    }


def describe(deal: Mapping[str, Any], seat_name: Callable[[int], str]) -> str:
    """A played deal in a line: the declarer, the contract, the declaring team's tricks."""
    declarer = deal["declarer"]
    return f"{seat_name(declarer)} {deal['contract']} · {deal['team_tricks'][declarer % 2]}"


SCORESHEET = Scoresheet(
    facts=frozenset(
        {
            "bids",
            "declarer",
            "contract",
            "tricks",
            "claim",
            "broken",
            "chombo",
            "reason",
            "failed_claim",
            "all_pass",
            "score",
            "note",
        }
    ),
    score=score_facts,
    count_roles=count_roles,
    next_deal=next_deal,
    partnerships=True,
    keeper_setup={
        "players": [4],
        "players_option": False,
        "unit": "team",
        "total": "total",
        "options": [{"key": "target", "label": "target", "default": 17}],
    },
    keeper_form=keeper_form,
    describe=describe,
)
