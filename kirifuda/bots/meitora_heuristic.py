"""A rule-of-thumb Meitora player, as a club player would teach it.

- Bidding: count the hand's likely tricks in each strain (the joker, the jacks and trump
  length, side aces), add what a partner brings on average, and bid the cheapest legal
  contract that count reaches; declare broken with a weak hand.
- Negri: throw the lowest card of the shortest side suit.
- It never claims (オープン): it cannot see the other hands to prove a claim.
- Play: win cheaply; do not overtake a partner who is winning; draw trumps as declarer; lead
  aces, then return partner's suit (the suit partner last led, among the tricks the seat sees),
  else a low card of the longest side suit; keep the joker for a trick worth it.

The conventions a club player expects of a partner (:func:`convention_cards`: draw trumps when
declaring long in trumps, return partner's suit, do not overtake or ruff partner's sure winner)
are also the search bot's tie-break between cards of about the same value.
"""

from __future__ import annotations

import random
from typing import Sequence

from ..actions import Action, Bid, Discard, Pass, Play
from ..games.meitora import Broken
from ..cards import JOKER_ID, Card
from ..games.meitora import EFF_SUIT, NO_SUIT, STRAINS, STRENGTH, MeitoraView
from ..game import View
from ..tricks import strongest
from .base import register_heuristic

__all__ = [
    "MeitoraHeuristicBot",
    "play_choice",
    "led_suit_of",
    "estimate_tricks",
    "convention_cards",
    "partner_suits_seen",
]

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
        trick = tuple((seat, card.id) for seat, card in view.trick.plays) if view.trick is not None else ()
        ids: list[int] = []
        for p in plays:
            if p.card.id not in ids:
                ids.append(p.card.id)
        chosen = play_choice(
            ids, trick, view.joker_request, si, view.seat, view.declarer, len(view.hand), partner_suits_seen(view)
        )
        if chosen == JOKER_ID and not trick:
            jokers = [p for p in plays if p.card.is_joker]
            declarer_side = view.declarer is not None and view.declarer % 2 == view.seat % 2
            want = "SHDC"[trump] if trump is not None and declarer_side else "any"
            return next((p for p in jokers if p.request == want), jokers[0])
        return next(p for p in plays if p.card.id == chosen)


def led_suit_of(trick: Sequence[tuple[int, int]], request: str | None, si: int) -> int:
    """The suit a follower must follow in a trick led as ``trick`` (a joker lead: its request,
    trump where it asks for none; no suit where it asks for any)."""
    if trick[0][1] == JOKER_ID:
        trump = _TRUMP_OF_STRAIN[STRAINS[si]]
        led = {"S": 0, "H": 1, "D": 2, "C": 3}.get(request or "", NO_SUIT)
        if request is None and trump is not None:
            led = trump
        return led
    return EFF_SUIT[si][trick[0][1]]


def play_choice(
    legal: Sequence[int],
    trick: Sequence[tuple[int, int]],
    request: str | None,
    si: int,
    seat: int,
    declarer: int | None,
    hand_size: int,
    partner_suits: Sequence[int] = (),
) -> int:
    """The card the heuristic plays (by id) among the ``legal`` card ids, ``trick`` being the
    cards already in the trick as ``(seat, card id)`` in order (a joker lead's ``request``).  A
    pure function of what a seat sees: the search bot's inference uses it as its model of how
    the others play (a card not played when this would have played it says something; it
    passes no ``partner_suits``, the suits partner led, most recent first, which the bot's own
    play returns after its aces)."""
    trump = _TRUMP_OF_STRAIN[STRAINS[si]]
    if not trick:
        return _lead_choice(legal, si, trump, declarer is not None and declarer % 2 == seat % 2, partner_suits)
    led = led_suit_of(trick, request, si)
    strength = STRENGTH[si][led]
    best_seat, best = strongest(iter(trick), strength)
    partner_winning = best_seat % 2 == seat % 2
    last_to_play = len(trick) == 3
    non_joker = [c for c in legal if c != JOKER_ID]
    if not non_joker:
        return legal[0]

    def low(c: int) -> tuple[bool, int, int]:
        return (strength[c] > 0, strength[c], c % 13)

    if partner_winning and (last_to_play or best >= 113 or best == 1000):
        return min(non_joker, key=low)
    winners = [c for c in non_joker if strength[c] > best]
    if winners:
        return min(winners, key=lambda c: strength[c])
    if JOKER_ID in legal and not partner_winning and best >= 100 and hand_size <= 6:
        return JOKER_ID
    return min(non_joker, key=low)


def _lead_choice(
    legal: Sequence[int], si: int, trump: int | None, declarer_side: bool, partner_suits: Sequence[int] = ()
) -> int:
    eff = EFF_SUIT[si]
    non_joker = [c for c in legal if c != JOKER_ID]
    if not non_joker:
        return JOKER_ID
    if trump is not None and declarer_side:
        trumps = [c for c in non_joker if eff[c] == trump]
        if trumps:
            top = max(trumps, key=lambda c: STRENGTH[si][trump][c])
            if STRENGTH[si][trump][top] >= 114:
                return top
    aces = [c for c in non_joker if c % 13 == 12 and eff[c] != trump]
    if aces:
        return aces[0]
    for s in partner_suits:
        returns = [c for c in non_joker if eff[c] == s]
        if returns:
            return min(returns, key=lambda c: STRENGTH[si][s][c])
    counts: dict[int, int] = {}
    for c in non_joker:
        counts[eff[c]] = counts.get(eff[c], 0) + 1
    side = [c for c in non_joker if eff[c] != trump] or non_joker
    return min(side, key=lambda c: (-counts[eff[c]], c % 13))


def partner_suits_seen(view: MeitoraView) -> tuple[int, ...]:
    """The suits the seat's partner led in the tricks this view shows (its own team's tricks,
    the trick just completed, the trick in progress), the most recent first; a joker lead
    leads no suit."""
    if view.seat is None or view.contract is None:
        return ()
    partner = (view.seat + 2) % 4
    eff = EFF_SUIT[_strain_index(view.contract.strain)]
    tricks = list(view.own_team_tricks)
    if view.last_trick is not None and view.last_trick not in tricks:
        tricks.append(view.last_trick)
    if view.trick is not None:
        tricks.append(view.trick)
    out: list[int] = []
    for t in reversed(tricks):
        if t.plays and t.leader == partner and t.plays[0][1].id != JOKER_ID:
            s = eff[t.plays[0][1].id]
            if s not in out:
                out.append(s)
    return tuple(out)


def convention_cards(
    legal: Sequence[int],
    trick: Sequence[tuple[int, int]],
    request: str | None,
    si: int,
    seat: int,
    declarer: int | None,
    partner_suits: Sequence[int],
    unseen: int,
    trumps_out: bool = True,
) -> list[int]:
    """The cards among ``legal`` (ids) that a club player's conventions prefer, or ``[]``
    where none applies (約束事).  ``unseen``: the mask of the cards the seat has not seen
    (held by the others, or out of play); ``trumps_out``: the opponents may still hold trumps
    (not both shown void).

    - On lead, the declarer long in trumps (at least as many trumps as are unseen) draws
      trumps (切り札を抜く) while the opponents may hold some: its trumps, the joker apart;
    - else on lead, return partner's suit (the most recent of ``partner_suits`` the seat
      holds): its cards of that suit;
    - following, partner winning with a sure winner (the seat plays last, or no unseen card
      beats it): do not overtake it or ruff it — the cards that do not beat it.
    """
    eff = EFF_SUIT[si]
    trump = _TRUMP_OF_STRAIN[STRAINS[si]]
    cards = [c for c in legal if c != JOKER_ID]
    if not trick:
        if trump is not None and declarer == seat and trumps_out:
            mine = [c for c in cards if eff[c] == trump]
            out = sum(1 for c in range(53) if unseen >> c & 1 and eff[c] == trump)
            if mine and out and len(mine) >= out:
                return mine
        for s in partner_suits:
            returns = [c for c in cards if eff[c] == s]
            if returns:
                return returns
        return []
    led = led_suit_of(trick, request, si)
    strength = STRENGTH[si][led]
    best_seat, best = strongest(iter(trick), strength)
    if best_seat != (seat + 2) % 4:
        return []
    sure = len(trick) == 3 or all(strength[c] < best for c in range(53) if unseen >> c & 1)
    if not sure:
        return []
    return [c for c in cards if strength[c] < best]


register_heuristic("meitora", MeitoraHeuristicBot)
