"""Napoleon against a second, deliberately plain reading of ``docs/napoleon.md``.

The reference below is written from the spec alone, on card codes and lists (no bitmasks, no
card ids), the way an independent implementation would be: who holds the named card (§4),
which cards may be played (§5), who wins each trick (§6), the result (§7) and the points (§8).
Random matches under random options are played through the engine, and at every step the
engine's legal plays, trick winners, contract, adjutant, result and score must equal the
reference's.  Any disagreement is a bug on one side, found before an independent
implementation's records find it.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from kirifuda.actions import Bid, Play
from kirifuda.games.napoleon import Adjutant, Approve, Redeclare
from kirifuda.games.napoleon import NapoleonOptions, NapoleonState, Phase

RANKS = "23456789TJQKA"
BACK_JACK_SUIT = {"S": "C", "C": "S", "H": "D", "D": "H"}
TRUMP_RANKS = "23456789TQKA"  # §6 rule 6: the trump jack is the main jack, not a plain trump


def reference_winner(cards: list[str], led: str, trump: str, first: bool, yoromeki: bool, plain_first: bool) -> int:
    """§6: the index in ``cards`` of the winning card."""
    if "AS" in cards:  # 1. the almighty, unless yoromeki
        return cards.index("QH") if yoromeki and "QH" in cards else cards.index("AS")

    def highest(suit: str, order: str) -> int | None:
        found = [(order.index(c[0]), i) for i, c in enumerate(cards) if c != "JK" and c[1] == suit and c[0] in order]
        return max(found)[1] if found else None

    if first and plain_first:  # the chemistry club's first trick
        best = highest(led, RANKS)
        return best if best is not None else cards.index("JK")
    if first:  # 2. the first-trick ace (♠K when spades were led)
        ace = "KS" if led == "S" else "A" + led
        if ace in cards:
            return cards.index(ace)
    suits = {c[1] for c in cards if c != "JK"}
    if "JK" not in cards and len(suits) == 1:  # 3. same-2
        two = "2" + suits.pop()
        if two in cards:
            return cards.index(two)
    for jack in ("J" + trump, "J" + BACK_JACK_SUIT[trump]):  # 4. main jack, 5. back jack
        if jack in cards:
            return cards.index(jack)
    for suit, order in ((trump, TRUMP_RANKS), (led, RANKS)):  # 6. trumps, 7. the led suit
        best = highest(suit, order)
        if best is not None:
            return best
    return cards.index("JK")  # 8. nothing else qualifies


def reference_plays(
    hand: list[str], trick: list[str], led: str | None, called: bool, joker_in_use: bool
) -> set[tuple[str, str | None, bool]]:
    """§5: every play as (card, joker request, ♠3 call)."""
    if not trick:
        out: set[tuple[str, str | None, bool]] = set()
        for card in hand:
            if card == "JK":
                out |= {("JK", suit, False) for suit in "SHDC"}
            else:
                out.add((card, None, False))
                if card == "3S" and joker_in_use:
                    out.add(("3S", None, True))
        return out
    if "JK" in hand and (called or hand == ["JK"]):
        return {("JK", None, False)}
    follow = [c for c in hand if c != "JK" and c[1] == led]
    return {(c, None, False) for c in (follow or [c for c in hand if c != "JK"])}


def reference_points(players: int, declared: int, solo: bool, wins: bool) -> tuple[int, int, int]:
    """§8: (Napoleon, adjutant, each ally), signed."""
    k = declared - 10
    table = {(5, False): 2 * k, (5, True): 4 * k, (4, False): k, (4, True): 3 * k}
    sign = 1 if wins else -1
    return sign * table[(players, solo)], 0 if solo else sign * k, -sign * k


def play_and_compare(seed: int, options: NapoleonOptions) -> dict[str, int]:
    rng = random.Random(seed)
    n = options.players
    tricks_per_deal = 10 if n == 5 else 12
    state = NapoleonState(options, first=rng.randrange(n))
    seen = {"tricks": 0, "deals": 0}
    first_bidder = state.first
    ctx: dict[str, Any] = {}
    while not state.is_over:
        if state.needs_deal:
            assert state.first_bidder == first_bidder
            state.deal_random(rng)
            ctx = {
                "hands": [{c.code for c in state.hand(s)} for s in range(n)],
                "trick": [],
                "taken": [set() for _ in range(n)],
                "tricks": 0,
                "contract": None,
            }
            first_bidder = (first_bidder + 1) % n
            continue
        seat = state.to_act
        assert seat is not None
        legal = state.legal_actions()
        phase = state.phase
        if phase is Phase.BIDDING:
            bids = [a for a in legal if isinstance(a, Bid)]
            action = rng.choice(bids) if bids and rng.random() < 0.3 else legal[0]
            if isinstance(action, Bid):
                ctx["contract"], ctx["napoleon"] = action.text, seat
            state.apply(action, seat)
            continue
        if phase is Phase.ADJUTANT:
            action = rng.choice(legal)
            assert isinstance(action, Adjutant)
            holder = next((s for s in range(n) if action.card.code in ctx["hands"][s]), None)
            ctx["adjutant"] = None if holder in (None, ctx["napoleon"]) else holder
            state.apply(action, seat)
            assert state.adjutant == ctx["adjutant"] and state.solo == (ctx["adjutant"] is None)
            continue
        if phase is not Phase.PLAY:
            action = rng.choice(legal)
            if isinstance(action, Redeclare) and action.count is not None:
                ctx["proposal"], ctx["answers"] = f"{action.count}{action.strain}", []
            if isinstance(action, Approve):
                ctx["answers"].append(action.ok)
                if len(ctx["answers"]) == n - 1 and all(ctx["answers"]):
                    ctx["contract"] = ctx["proposal"]
            state.apply(action, seat)
            if state.phase is Phase.PLAY:
                assert state.contract is not None and state.contract.text == ctx["contract"]
                assert state.to_act == ctx["napoleon"]
            continue
        trick: list[str] = ctx["trick"]
        hand = [c.code for c in state.hand(seat)]
        engine = {(a.card.code, a.request, a.call_joker) for a in legal if isinstance(a, Play)}
        assert engine == reference_plays(hand, trick, ctx.get("led"), ctx.get("called", False), options.joker), (
            seed,
            hand,
            trick,
        )
        action = rng.choice(legal)
        assert isinstance(action, Play)
        if not trick:
            ctx["led"] = action.request if action.card.is_joker else action.card.code[1]
            ctx["called"], ctx["leader"] = action.call_joker, seat
        trick.append(action.card.code)
        state.apply(action, seat)
        if len(trick) < n:
            continue
        trump = ctx["contract"][-1]
        winner = (
            ctx["leader"]
            + reference_winner(
                trick, ctx["led"], trump, ctx["tricks"] == 0, options.yoromeki, options.first_trick_plain
            )
        ) % n
        ctx["taken"][winner] |= {c for c in trick if c != "JK" and c[0] in "TJQKA"}
        ctx["tricks"] += 1
        seen["tricks"] += 1
        deal = state.summary()["deals"][-1]
        assert deal["tricks"][-1]["winner"] == winner, (seed, trick, ctx["led"], trump)
        ctx["trick"] = []
        if ctx["tricks"] < tricks_per_deal:
            assert state.to_act == winner
            continue
        nap, adj = ctx["napoleon"], ctx["adjutant"]
        army = ctx["taken"][nap] | (ctx["taken"][adj] if adj is not None else set())
        declared = int(ctx["contract"][:-1])
        wins = len(army) >= declared and not (options.strategy_b and len(army) == 20 and declared < 20)
        p_nap, p_adj, p_ally = reference_points(n, declared, adj is None, wins)
        score = [p_ally] * n
        score[nap] = p_nap
        if adj is not None:
            score[adj] = p_adj
        assert deal["outcome"] == "played" and deal["contract"] == ctx["contract"]
        assert deal["army_face_cards"] == len(army) and deal["napoleon_wins"] == wins
        assert deal["score"] == score, (seed, deal, score)
        seen["deals"] += 1
    return seen


def _options(seed: int) -> NapoleonOptions:
    r = random.Random(seed)
    return NapoleonOptions(
        players=r.choice([4, 5]),
        joker=r.random() < 0.6,  # type: ignore[arg-type]
        yoromeki=r.random() < 0.5,
        first_trick_plain=r.random() < 0.5,
        strategy_b=r.random() < 0.7,
        redeclare=r.random() < 0.7,
        deals=2,
    )


@pytest.mark.parametrize("block", range(4))
def test_the_engine_agrees_with_a_plain_reading_of_the_spec(block):
    seen = {"tricks": 0, "deals": 0}
    for seed in range(block * 40, block * 40 + 40):
        for k, v in play_and_compare(seed, _options(seed)).items():
            seen[k] += v
    assert seen["deals"] >= 80 and seen["tricks"] >= 80 * 10


def test_the_reference_itself_knows_the_card_order():
    # a few hand-checked tricks, so that the reference cannot silently agree with a broken engine
    assert reference_winner(["3H", "KH", "JS", "2H", "5H"], "H", "S", True, False, True) == 1
    assert reference_winner(["3H", "KH", "JS", "2H", "5H"], "H", "S", True, False, False) == 2
    assert reference_winner(["5C", "KC", "2C", "QC", "AC"], "C", "C", False, False, False) == 2
    assert reference_winner(["AH", "KH", "JD", "AD", "3C"], "H", "H", False, False, False) == 2
    assert reference_winner(["JK", "3C", "4C", "5D", "6D"], "H", "S", False, False, False) == 0
    assert reference_winner(["QH", "AS", "2C"], "H", "C", False, True, False) == 0
    assert reference_winner(["AH", "JD", "QD", "3C"], "H", "D", False, False, False) == 1
    assert reference_winner(["AH", "TD", "QD", "3C"], "H", "D", False, False, False) == 2
    assert reference_points(5, 11, True, True) == (4, 0, -1)
    assert reference_plays(["JK", "5H"], ["2S"], "S", False, True) == {("5H", None, False)}
    assert reference_plays(["JK", "5H"], ["3S"], "S", True, True) == {("JK", None, False)}
