"""Scored deals (得点記録): a deal of a record given by its facts instead of its cards.

A table playing with real cards has a scorer (Meitora's referee, Kakeya's counters) who writes
down what decides the score — the bids and the contract, the tricks or face cards taken, the
chips paid — not every card.  A record deal of the form ``{"scored": {...}}`` carries those facts
(``docs/records.md``, "Scored deals").  :func:`score_deal` checks them against the rules and
options of the match, scores them with the game's own scoring functions
(:func:`kirifuda.games.meitora.contract_score`, :func:`kirifuda.games.napoleon.deal_score`,
:func:`kirifuda.games.kakeya.game_result`, :func:`kirifuda.games.unsun.deal_winners`) and ends
the deal in the engine, so that the match goes on — totals, the next first bidder or dealer, the
end of the match — exactly as after a deal played card by card.  A match may mix both forms.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, NoReturn

from .actions import Bid, Pass, action_from_json
from .cards import Card, parse_card
from .errors import InvalidActionError, RecordError
from .game import GameState
from .i18n import add_terms

__all__ = ["ScoredLog", "score_deal", "FACTS"]

FACTS: dict[str, frozenset[str]] = {
    "meitora": frozenset({"bids", "declarer", "contract", "tricks", "claim", "broken", "chombo",
                          "reason", "failed_claim", "all_pass", "score", "note"}),
    "napoleon": frozenset({"all_pass", "napoleon", "declared", "contract", "adjutant_card",
                           "adjutant", "face_cards", "score", "note"}),
    "kakeya": frozenset({"trump", "leader", "face_cards", "rensho_pair", "trump_ace_pair",
                         "four_aces_pair", "chips", "score", "note"}),
    "unsun": frozenset({"tricks_won", "winners", "trump", "indicator", "score", "note"}),
}
"""The facts each game's scored deal may carry (any other key is an error)."""

add_terms(fields={"scored": ("得点記録 (札なし)", "scored (no cards)"), "claim": ("オープン", "claim"),
                  "reason": ("理由", "reason")})


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


class _Facts:
    """The facts of one scored deal, read field by field; every error names the deal and the
    field."""

    def __init__(self, data: Any, game: str, deal: int) -> None:
        self.deal = deal
        if not isinstance(data, Mapping):
            self.fail("", f"a scored deal's facts must be an object, got {data!r}")
        unknown = sorted(set(data) - FACTS[game])
        if unknown:
            self.fail(unknown[0], f"unknown fact for {game}; its scored deals take "
                      f"{', '.join(sorted(FACTS[game]))}")
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

    def counts(self, name: str, size: int, low: int, high: int,
               skip: int | None = None) -> list[int | None]:
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
            self.fail(name, f"{action.text} is not a bid of this game "
                      f"({valid[0].text} … {valid[-1].text})")
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
        if (not isinstance(written, list) or len(written) != len(score)
                or not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in written)):
            self.fail("score", f"must be a list of {len(score)} numbers, got {written!r}")
        if list(written) != list(score):
            self.fail("score", f"{written} is not what the rules give: {score}")
        self.out["score"] = list(score)


def score_deal(state: GameState, data: Any, deal: int) -> None:
    """Check the facts of scored deal number ``deal`` against the rules and options of
    ``state`` (at a chance node), score them and end the deal in ``state``.  Raises
    :class:`RecordError` naming the deal and the field; ``state`` is then unchanged."""
    if not state.needs_deal:
        raise RecordError("the match is already over" if state.is_over
                          else "a deal is in progress", deal=deal)
    _SCORERS[state.game_id](state, _Facts(data, state.game_id, deal))


# -- Meitora ---------------------------------------------------------------------------------


def _meitora(state: Any, f: _Facts) -> None:
    from .games.meitora import BIDS, _points, chombo_score, contract_score

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
        f.fail("", "a Meitora scored deal is one of: played (declarer, contract, tricks), "
                      "broken (seat), chombo (seat) or all_pass")
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
                f.fail("claim", f"must be {{\"seat\": s, \"after\": tricks played}}, got {claim!r}")
            claimant = f.count(claim["seat"], "claim.seat", 0, 3)
            after = f.count(claim["after"], "claim.after", 0, 9)
            ours = tricks if claimant % 2 == seat_d % 2 else 10 - tricks
            if ours < 10 - after:
                f.fail("claim", f"seat {claimant} claimed the last {10 - after} tricks, but its team "
                       f"took {ours} in all")
            f.out["claim"] = {"seat": claimant, "after": after}
        mine, theirs = contract_score(bid.count, tricks)
        score[seat_d % 2], score[1 - seat_d % 2] = mine, theirs
        team_tricks = [0, 0]
        team_tricks[seat_d % 2], team_tricks[1 - seat_d % 2] = tricks, 10 - tricks
    points = [_points(score[0]), _points(score[1])]
    f.check_score(points)
    has_declarer = outcome != "redeal" and seat_d is not None and bid is not None
    replay: dict[str, Any] = {
        "outcome": outcome, "tricks": [], "score": points,
        "declarer": seat_d if has_declarer else None,
        "contract": bid.text if has_declarer and bid is not None else None,
        "team_tricks": team_tricks, "broken": broken, "first_bidder": first, "scored": True,
    }
    if chombo is not None:
        replay["chombo"] = chombo
        replay["failed_claim"] = failed_claim
    state.end_scored_deal(ScoredLog(f.out, replay), score, broken)


# -- Napoleon --------------------------------------------------------------------------------


def _napoleon(state: Any, f: _Facts) -> None:
    from .games.napoleon import _BIDS, _HAND_SIZE, DECKS, deal_score

    opts = state.options
    n = opts.players
    if f.has("all_pass"):
        if f.data["all_pass"] is not True:
            f.fail("all_pass", f"must be true, got {f.data['all_pass']!r}")
        for extra in sorted(FACTS["napoleon"] - {"all_pass", "note", "score"}):
            if f.has(extra):
                f.fail(extra, "a deal where every player passed has no " + extra)
        f.out["all_pass"] = True
        f.check_score([0] * n)
        replay = {"outcome": "redeal", "tricks": [], "score": [0] * n, "napoleon": None,
                  "contract": None, "adjutant_card": None, "adjutant": None,
                  "army_face_cards": None, "napoleon_wins": None, "solo": None, "declared": None,
                  "face_cards": [0] * n, "first_bidder": state.first_bidder, "scored": True}
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
        f.fail("face_cards", f"they add up to {taken}; the 20 face cards are taken in tricks but for "
               f"those Napoleon discarded ({middle} cards), so {20 - middle}-20")
    army = (faces[nap] or 0) + (faces[adjutant] or 0 if adjutant is not None else 0)
    score, wins = deal_score(n, nap, adjutant, contract.count, army, opts.strategy_b)
    f.check_score(score)
    replay = {"outcome": "played", "tricks": [], "score": score, "napoleon": nap,
              "contract": contract.text, "adjutant_card": card.code if card else None,
              "adjutant": adjutant, "army_face_cards": army, "napoleon_wins": wins,
              "solo": adjutant is None, "declared": declared.text, "face_cards": faces,
              "first_bidder": state.first_bidder, "scored": True}
    state.end_scored_deal(ScoredLog(f.out, replay), "played", score)


# -- Kakeya ----------------------------------------------------------------------------------


def _kakeya(state: Any, f: _Facts) -> None:
    from .cards import CARDS
    from .games.kakeya import ACE_IDS, ALL_ACES, game_result, rensho_of

    half = state.num_players // 2
    leading, sitting = state.leading_pair, state.sitting_out
    other = next(p for p in range(half) if p not in (leading, sitting))
    pairs = (leading, other)
    trump_letter = f.suit("trump", required=True)
    trump = "SHDC".index(str(trump_letter))
    leader = f.seat("leader", state.num_players, required=False)
    if leader is not None and leader % half != leading:
        f.fail("leader", f"seat {leader} is not of the leading pair {leading} "
               f"(seats {', '.join(map(str, state.pair_seats(leading)))})")
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
    winner, loser, pay, column = game_result((fa, fb), pairs, -1 if rensho_pair is None else rensho_pair,
                                             (dealt[0], dealt[1]), trump)
    chips = f.data.get("chips")
    if chips is not None:
        f.count(chips, "chips", 1, 4)
        if chips != pay:
            f.fail("chips", f"{chips} is not what the rules give: pair {loser} pays {pay} ({column})")
        f.out["chips"] = pay
    score = [0] * half
    score[winner], score[loser] = pay, -pay
    f.check_score(score)
    replay = {"outcome": "played", "tricks": [], "score": score, "trump": trump_letter,
              "rensho": CARDS[rensho_of(trump)].code, "face_cards": faces,
              "dealing_pair": state.dealing_pair, "leading_pair": leading, "sitting_out": sitting,
              "leader": leader, "winning_pair": winner, "rensho_pair": rensho_pair,
              "payment": pay, "payment_column": column, "scored": True}
    state.end_scored_game(ScoredLog(f.out, replay), trump, winner, loser, pay)


# -- Unsun -----------------------------------------------------------------------------------


def _unsun(state: Any, f: _Facts) -> None:
    from .games.unsun import DEAL_SIZES, deal_winners

    n = state.num_players
    size = DEAL_SIZES[n][0]
    won = f.counts("tricks_won", n, 0, size)
    tricks = [int(v or 0) for v in won]
    if sum(tricks) != size:
        f.fail("tricks_won", f"they add up to {sum(tricks)}; a deal has {size} tricks")
    winners = list(deal_winners(tricks))
    given = f.data.get("winners")
    if given is not None:
        if (not isinstance(given, list) or not all(isinstance(w, int) for w in given)
                or sorted(given) != winners):
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
            f.fail("indicator", f"{indicator.code} is an A, K, Q or J: with reflip_face_card a new "
                   "indicator is turned")
        trump = indicator.suit.value
    f.check_score(tricks)
    replay = {"outcome": "played", "tricks": [], "score": tricks, "trump": trump,
              "tricks_won": tricks, "dealer": state.dealer,
              "indicator": indicator.code if indicator else None, "winners": winners,
              "scored": True}
    state.end_scored_deal(ScoredLog(f.out, replay), tricks)


_SCORERS: dict[str, Callable[[Any, _Facts], None]] = {
    "meitora": _meitora, "napoleon": _napoleon, "kakeya": _kakeya, "unsun": _unsun,
}
