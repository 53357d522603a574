"""A rule-of-thumb Meitora player, as a club player would teach it.

- Bidding: count the hand's likely tricks in each strain (the joker, the jacks and trump
  length, side aces), add what a partner brings on average, and bid the cheapest legal
  contract that count reaches; declare broken with a weak hand.
- Negri: throw the lowest card of the shortest side suit.
- It never claims (オープン): it cannot see the other hands to prove a claim.
- Play: win cheaply; do not overtake a partner who is winning; draw trumps as declarer; lead
  aces, else a low card of the longest side suit; keep the joker for a trick worth it.
"""

from __future__ import annotations

import random

from ..actions import Action, Bid, Broken, Discard, Pass, Play
from ..cards import JOKER_ID, Card
from ..games.meitora import EFF_SUIT, NO_SUIT, STRAINS, STRENGTH, MeitoraView
from ..game import View
from ..tricks import strongest
from .base import register_heuristic

__all__ = ["MeitoraHeuristicBot"]

_TRUMP_OF_STRAIN = {"S": 0, "C": 3, "D": 2, "H": 1, "N": None}
PARTNER_TRICKS = 2.5
"""What a partner is worth on average, in tricks."""


def _strain_index(strain: str) -> int:
    return STRAINS.index(strain)


def estimate_tricks(hand: tuple[Card, ...], strain: str) -> float:
    """Likely tricks of a hand played in ``strain`` (a simple point count)."""
    si = _strain_index(strain)
    eff = EFF_SUIT[si]
    trump = _TRUMP_OF_STRAIN[strain]
    tricks = 0.0
    by_suit: dict[int, list[int]] = {}
    for c in hand:
        by_suit.setdefault(eff[c.id], []).append(c.id)
    if any(c.id == JOKER_ID for c in hand):
        tricks += 1
    if trump is not None:
        trumps = [i for i in by_suit.get(trump, []) if i != JOKER_ID]
        order = sorted((STRENGTH[si][trump][i] for i in trumps), reverse=True)
        tops = [120, 119, 114, 113]
        for k, top in enumerate(tops):
            if top in order:
                tricks += 1.0 if k < 2 else 0.7
        tricks += max(0, len(trumps) - 3) * 0.8
        for s, ids in by_suit.items():
            if s in (trump, NO_SUIT):
                continue
            ranks = sorted((i % 13 + 2 for i in ids), reverse=True)
            if ranks and ranks[0] == 14:
                tricks += 0.9
                if len(ranks) > 1 and ranks[1] == 13:
                    tricks += 0.6
        short = sum(1 for s in range(4) if s != trump and not by_suit.get(s))
        tricks += 0.5 * short if len(trumps) >= 3 else 0
    else:
        for s, ids in by_suit.items():
            if s == NO_SUIT:
                continue
            ranks = sorted((i % 13 + 2 for i in ids), reverse=True)
            expect = 14
            for r in ranks:
                if r == expect:
                    tricks += 1
                    expect -= 1
                else:
                    break
            if len(ranks) >= 5 and ranks[0] >= 13:
                tricks += len(ranks) - 4
    return tricks


class MeitoraHeuristicBot:
    name = "heuristic"

    def choose(self, view: View, rng: random.Random) -> Action:
        assert isinstance(view, MeitoraView)
        legal = view.legal_actions
        if not legal:
            raise ValueError(f"seat {view.seat} has no action to take")
        first = legal[0]
        if isinstance(first, (Pass, Bid, Broken)):
            return self._bid(view, legal)
        if isinstance(first, Discard):
            return self._discard(view, legal)
        return self._play(view, legal)

    # -- bidding -------------------------------------------------------------------------
    def _bid(self, view: MeitoraView, legal: tuple[Action, ...]) -> Action:
        if any(isinstance(a, Broken) for a in legal):
            return next(a for a in legal if isinstance(a, Broken))
        bids = [a for a in legal if isinstance(a, Bid)]
        best: Bid | None = None
        for strain in STRAINS:
            expected = estimate_tricks(view.hand, strain) + PARTNER_TRICKS
            for b in bids:
                if b.strain == strain and b.count <= expected:
                    if best is None or (b.count, STRAINS.index(b.strain)) < (best.count, STRAINS.index(best.strain)):
                        best = b
                    break
        return best if best is not None else next(a for a in legal if isinstance(a, Pass))

    # -- negri ---------------------------------------------------------------------------
    def _discard(self, view: MeitoraView, legal: tuple[Action, ...]) -> Action:
        assert view.contract is not None
        si = _strain_index(view.contract.strain)
        trump = _TRUMP_OF_STRAIN[view.contract.strain]
        eff = EFF_SUIT[si]
        counts: dict[int, int] = {}
        for c in view.hand:
            counts[eff[c.id]] = counts.get(eff[c.id], 0) + 1

        def badness(a: Action) -> tuple[int, int, int]:
            assert isinstance(a, Discard)
            c = a.cards[0]
            s = eff[c.id]
            if c.id == JOKER_ID or s == trump:
                return (1, 0, -STRENGTH[si][trump if trump is not None else 0][c.id])
            rank = c.id % 13 + 2
            return (0, counts[s] if rank < 14 else 99, rank)

        return min(legal, key=badness)

    # -- play ----------------------------------------------------------------------------
    def _play(self, view: MeitoraView, legal: tuple[Action, ...]) -> Action:
        plays = [a for a in legal if isinstance(a, Play)]
        assert view.contract is not None and view.seat is not None
        si = _strain_index(view.contract.strain)
        trump = _TRUMP_OF_STRAIN[view.contract.strain]
        eff = EFF_SUIT[si]
        trick = view.trick
        if trick is None or not trick.plays:
            return self._lead(view, plays, si, trump)
        led_card = trick.plays[0][1]
        if led_card.is_joker:
            req = view.joker_request
            led = {"S": 0, "H": 1, "D": 2, "C": 3}.get(req or "", NO_SUIT)
            if req is None and trump is not None:
                led = trump
        else:
            led = eff[led_card.id]
        strength = STRENGTH[si][led]
        best_seat, best = strongest(((seat, card.id) for seat, card in trick.plays), strength)
        partner_winning = best_seat % 2 == view.seat % 2
        last_to_play = len(trick.plays) == 3
        non_joker = [p for p in plays if not p.card.is_joker]
        if not non_joker:
            return plays[0]
        if partner_winning and (last_to_play or best >= 113 or best == 1000):
            return min(non_joker, key=lambda p: (strength[p.card.id] > 0, strength[p.card.id], p.card.id % 13))
        winners = [p for p in non_joker if strength[p.card.id] > best]
        if winners:
            return min(winners, key=lambda p: strength[p.card.id])
        jokers = [p for p in plays if p.card.is_joker]
        if jokers and not partner_winning and best >= 100 and len(view.hand) <= 6:
            return jokers[0]
        return min(non_joker, key=lambda p: (strength[p.card.id] > 0, strength[p.card.id], p.card.id % 13))

    def _lead(self, view: MeitoraView, plays: list[Play], si: int, trump: int | None) -> Action:
        eff = EFF_SUIT[si]
        declarer_side = view.declarer is not None and view.declarer % 2 == view.seat % 2  # type: ignore[operator]
        jokers = [p for p in plays if p.card.is_joker]
        non_joker = [p for p in plays if not p.card.is_joker]
        if not non_joker:
            want = "any"
            if trump is not None and declarer_side:
                want = "SHDC"[trump]
            return next((p for p in jokers if p.request == want), jokers[0])
        if trump is not None and declarer_side:
            trumps = [p for p in non_joker if eff[p.card.id] == trump]
            if trumps:
                top = max(trumps, key=lambda p: STRENGTH[si][trump][p.card.id])
                if STRENGTH[si][trump][top.card.id] >= 114:
                    return top
        aces = [p for p in non_joker if p.card.id % 13 == 12 and eff[p.card.id] != trump]
        if aces:
            return aces[0]
        counts: dict[int, int] = {}
        for p in non_joker:
            counts[eff[p.card.id]] = counts.get(eff[p.card.id], 0) + 1
        side = [p for p in non_joker if eff[p.card.id] != trump] or non_joker
        return min(side, key=lambda p: (-counts[eff[p.card.id]], p.card.id % 13))


register_heuristic("meitora", MeitoraHeuristicBot)
