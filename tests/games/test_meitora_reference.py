"""Meitora against a plain reference written from the spec alone (``meitora.md``, ``record.md``).

The reference below shares no code with the engine: cards are code strings, hands are sets, the
claim is a plain game tree.  Random matches are played on the engine; at every decision the
engine's legal actions must be the reference's, and at the end every deal's replay JSON (the keys
record.md §3 requires) must be the reference's.  A disagreement is a rule read two ways.
"""

from __future__ import annotations

import json
import random

from hypothesis import given, settings, strategies as st

from kirifuda import record
from kirifuda.actions import Chombo, Claim
from kirifuda.games.meitora import MeitoraOptions, MeitoraState

RANKS = "56789TJQKA"
SUITS = "SHDC"
STRAINS = "SCDHN"
SAME = {"S": "C", "C": "S", "H": "D", "D": "H"}
DECK = [r + s for s in SUITS for r in RANKS] + ["JK"]
JACKS = {"JS", "JH", "JD", "JC"}


class Illegal(Exception):
    pass


def trump_of(strain):
    return None if strain == "N" else strain


def eff(card, trump):
    if card == "JK":
        return trump  # None in no-trump
    if trump is not None and card == "J" + SAME[trump]:
        return trump
    return card[1]


def power(card, trump, led):
    """Higher wins; 0 never wins."""
    if card == "JK":
        return 1000
    e = eff(card, trump)
    if trump is not None and e == trump:
        if card == "J" + trump:
            return 500
        if card[0] == "J":
            return 499
        return 100 + "56789TQKA".index(card[0])
    if e == led:
        return 1 + RANKS.index(card[0])
    return 0


def weak(hand):
    honours = [c for c in hand if c != "JK" and c[0] in "AKQJ"]
    return not honours or (len(honours) == 1 and honours[0][0] == "Q")


def bid_rank(text):
    return (int(text[:-1]) - 6) * 5 + STRAINS.index(text[-1])


class Ref:
    def __init__(self, options, first):
        self.target = options.get("target", 17)
        self.claim_failure = options.get("claim_failure", "chombo")
        self.joker_lead = options.get("joker_lead", "request")
        self.fb = first
        self.totals = [0, 0]  # halves
        self.deals = []
        self.cur = None
        self.over = False

    # -- dealing
    def deal(self, hands, rest):
        assert self.cur is None and not self.over
        hands = [set(h) for h in hands]
        d = dict(
            hands=hands,
            agari=rest[0],
            phase="bidding",
            to_act=self.fb,
            bids=0,
            high=None,
            declarer=None,
            tricks=[],
            trick=[],
            led=None,
            team=[0, 0],
            fb=self.fb,
        )
        self.cur = d
        for s in range(4):
            if JACKS <= hands[s]:
                self.end("redeal", [0, 0], broken=s)
                return

    def end(self, outcome, score, broken=None):
        d = self.cur
        # four jacks after the agari (a redeal with a broken seat once the bidding is over)
        # keeps the declarer and contract
        decided = (
            d["declarer"] is not None
            and d["phase"] in ("discard", "play")
            and (outcome != "redeal" or broken is not None)
        )
        self.deals.append(
            dict(
                outcome=outcome,
                tricks=d["tricks"],
                score=score,
                declarer=d["declarer"] if decided else None,
                contract=d["high"] if decided else None,
                team_tricks=list(d["team"]) if decided else None,
                broken=broken,
            )
        )
        self.totals = [self.totals[0] + score[0], self.totals[1] + score[1]]
        if broken is None:
            self.fb = (self.fb + 1) % 4
        self.cur = None
        if max(self.totals) >= 2 * self.target:
            self.over = True

    # -- legality
    def legal_cards(self):
        d = self.cur
        seat = d["to_act"]
        hand = d["hands"][seat]
        if "JK" in hand and len(hand) == 2:
            return {"JK"}
        if not d["trick"] or d["led"] is None:
            return set(hand)
        trump = trump_of(d["high"][-1])
        follow = {c for c in hand if c != "JK" and eff(c, trump) == d["led"]}
        if trump is not None and d["led"] == trump and "JK" in hand:
            follow.add("JK")
        if follow:
            return follow | ({"JK"} & hand)
        return set(hand)

    def legal(self):
        """Every legal action as record JSON (without seat); the claim under chombo included."""
        d = self.cur
        if d is None:
            return []
        seat = d["to_act"]
        if d["phase"] == "bidding":
            out = [{"bid": "pass"}]
            lo = -1 if d["high"] is None else bid_rank(d["high"])
            out += [{"bid": f"{n}{s}"} for n in range(6, 11) for s in STRAINS if bid_rank(f"{n}{s}") > lo]
            if weak(d["hands"][seat]):
                out.append({"broken": True})
            return out
        if d["phase"] == "discard":
            return [{"discard": [c]} for c in d["hands"][seat]]
        out = []
        for c in self.legal_cards():
            if c == "JK" and not d["trick"] and self.joker_lead == "request":
                out += [{"play": "JK", "request": r} for r in ("S", "H", "D", "C", "any")]
            else:
                out.append({"play": c})
        if self.claim_failure == "chombo" or self.claim_ok(seat):
            out.append({"claim": True})
        return out

    # -- acting
    def act(self, a):
        d = self.cur
        if d is None:
            raise Illegal("no deal")
        if "chombo" in a:
            s = a["seat"]
            score = [0, 0]
            score[1 - s % 2] = 10
            self.end("chombo", score)
            return
        seat = a["seat"]
        if seat != d["to_act"]:
            raise Illegal("turn")
        body = {k: v for k, v in a.items() if k != "seat"}
        if body not in self.legal():
            raise Illegal(f"not legal: {body}")
        if d["phase"] == "bidding":
            if "broken" in body:
                self.end("redeal", [0, 0], broken=seat)
                return
            if body["bid"] != "pass":
                d["high"] = body["bid"]
                d["declarer"] = seat
            d["bids"] += 1
            if d["bids"] < 4:
                d["to_act"] = (seat + 1) % 4
                return
            if d["declarer"] is None:
                self.end("redeal", [0, 0])
                return
            dec = d["declarer"]
            d["hands"][dec].add(d["agari"])
            if JACKS <= d["hands"][dec]:
                d["phase"] = "discard"  # (the contract stands in the record, team tricks 0-0)
                self.end("redeal", [0, 0], broken=dec)
                return
            d["phase"] = "discard"
            d["to_act"] = dec
            return
        if d["phase"] == "discard":
            d["hands"][seat].discard(body["discard"][0])
            d["phase"] = "play"
            return
        if "claim" in body:
            if self.claim_ok(seat):
                d["team"][seat % 2] += 10 - len(d["tricks"])
                self.score()
            else:
                score = [0, 0]
                score[1 - seat % 2] = 10
                self.end("chombo", score)
            return
        card = body["play"]
        trump = trump_of(d["high"][-1])
        d["hands"][seat].discard(card)
        if not d["trick"]:
            if card == "JK":
                if self.joker_lead == "request":
                    r = body["request"]
                    d["led"] = None if r == "any" else r
                else:
                    d["led"] = trump
            else:
                d["led"] = eff(card, trump)
        d["trick"].append((seat, card))
        if len(d["trick"]) < 4:
            d["to_act"] = (seat + 1) % 4
            return
        win = max(d["trick"], key=lambda sc: power(sc[1], trump, d["led"]))[0]
        d["tricks"].append(dict(leader=d["trick"][0][0], cards=[c for _, c in d["trick"]], winner=win))
        d["team"][win % 2] += 1
        d["trick"] = []
        if len(d["tricks"]) == 10:
            self.score()
            return
        d["to_act"] = win

    def score(self):
        d = self.cur
        x = int(d["high"][:-1])
        y = d["team"][d["declarer"] % 2]
        score = [0, 0]
        if y >= x:
            score[d["declarer"] % 2] = 2 * (x - 5) + (y - x)
        else:
            score[1 - d["declarer"] % 2] = 2 * (x - y)
        self.end("played", score)

    # -- claims: the plain game tree
    def claim_ok(self, claimant):
        d = self.cur
        trump = trump_of(d["high"][-1])
        memo = {}

        def legal_for(hands, seat, trick, led):
            hand = hands[seat]
            if "JK" in hand and len(hand) == 2:
                return ["JK"]
            if not trick or led is None:
                return sorted(hand)
            follow = {c for c in hand if eff(c, trump) == led}
            return sorted(follow | ({"JK"} & hand)) if follow else sorted(hand)

        def node(hands, trick, led):
            if len(trick) == 4:
                win = max(trick, key=lambda sc: power(sc[1], trump, led))[0]
                if win != claimant:
                    return False
                if not any(hands):
                    return True
                return node(hands, (), None)
            key = (tuple(frozenset(h) for h in hands), trick, led)
            if key in memo:
                return memo[key]
            seat = claimant if not trick else (trick[-1][0] + 1) % 4
            res = seat != claimant
            for c in legal_for(hands, seat, trick, led):
                nh = [set(h) for h in hands]
                nh[seat].discard(c)
                if trick:
                    leds = [led]
                elif c == "JK":
                    leds = [None, "S", "H", "D", "C"] if self.joker_lead == "request" else [trump]
                else:
                    leds = [eff(c, trump)]
                for nl in leds:
                    ok = node(nh, trick + ((seat, c),), nl)
                    if seat == claimant and ok:
                        memo[key] = True
                        return True
                    if seat != claimant and not ok:
                        memo[key] = False
                        return False
            memo[key] = res
            return res

        return node([set(h) for h in d["hands"]], tuple(d["trick"]), d["led"])

    def summary(self):
        deals = [dict(x) for x in self.deals]
        if self.cur is not None:
            d = self.cur
            decided = d["phase"] in ("discard", "play")
            deals.append(
                dict(
                    outcome="in-progress",
                    tricks=d["tricks"],
                    score=[0, 0],
                    declarer=d["declarer"] if decided else None,
                    contract=d["high"] if decided else None,
                    team_tricks=list(d["team"]) if decided else None,
                    broken=None,
                )
            )
        pts = lambda h: h // 2 if h % 2 == 0 else h / 2
        for x in deals:
            x["score"] = [pts(v) for v in x["score"]]
        winner = None
        if self.over:
            winner = 0 if self.totals[0] >= 2 * self.target else 1
        return dict(
            game="meitora", deals=deals, totals=[pts(v) for v in self.totals], finished=self.over, winner=winner
        )


KEYS = ("outcome", "tricks", "score", "declarer", "contract", "team_tricks", "broken")
LATE = 4
"""Claims are compared (and made) only once the seat to act holds this many cards or fewer:
the reference's plain game tree is slow early in a deal."""


def _canon(action: dict) -> str:
    return json.dumps(action, sort_keys=True)


def _reference_legal(ref: Ref, late: bool) -> set[str]:
    if late or ref.cur["phase"] != "play":
        actions = ref.legal()
    else:  # the claim aside (not compared this early)
        ref.claim_ok = lambda seat: False
        actions = ref.legal()
        del ref.claim_ok
    return {_canon(a) for a in actions if "claim" not in a}


def play_against_the_reference(seed: int, max_deals: int = 6) -> MeitoraState:
    rng = random.Random(seed)
    options = dict(
        target=rng.choice([3, 6, 17]),
        claim_failure=rng.choice(["chombo", "refuse"]),
        joker_lead=rng.choice(["request", "trump"]),
    )
    first = rng.randrange(4)
    state = MeitoraState(MeitoraOptions(**options), first=first)
    ref = Ref(options, first)
    while not state.is_over and state.deal_number < max_deals:
        if state.needs_deal:
            state.deal_random(rng)
            dealt = record.from_state(state).deals[-1]
            ref.deal(dealt.hands, dealt.rest)
            assert (ref.cur is None) == state.needs_deal  # the four-jacks redeal
            continue
        seat = state.to_act
        assert seat == ref.cur["to_act"]
        legal = state.legal_actions()
        cards = [a for a in legal if not isinstance(a, Claim)]
        late = ref.cur["phase"] == "play" and len(ref.cur["hands"][seat]) <= LATE
        assert {_canon(a.to_json()) for a in cards} == _reference_legal(ref, late)
        if late:
            valid = ref.claim_ok(seat)
            assert state._claim_is_valid(seat) == valid
        x = rng.random()
        if x < 0.01:
            action: object = Chombo(rng.randrange(4), "referee")
        elif late and x < 0.15 and (valid or options["claim_failure"] == "chombo"):
            action = Claim()
        elif ref.cur["phase"] == "bidding" and len(cards) > 1 and x < 0.6:
            action = cards[1]  # the lowest bid: low contracts are made, with overtricks too
        else:
            action = rng.choice(cards)
        acting = action.seat if isinstance(action, Chombo) else seat
        state.apply(action, acting)
        ref.act(dict(seat=acting, **action.to_json()))
    ours, theirs = state.summary(), ref.summary()
    assert len(ours["deals"]) == len(theirs["deals"])
    for i, (a, b) in enumerate(zip(ours["deals"], theirs["deals"])):
        for k in KEYS:
            assert a[k] == b[k], (i, k, a[k], b[k])
    for k in ("totals", "finished", "winner"):
        assert ours[k] == theirs[k], (k, ours[k], theirs[k])
    return state


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_the_engine_agrees_with_a_plain_reference(seed):
    state = play_against_the_reference(seed)
    again = record.replay(record.loads(record.dumps(record.from_state(state))))
    assert again.summary() == state.summary()
