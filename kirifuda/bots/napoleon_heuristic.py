"""A rule-of-thumb Napoleon player, as a club player would teach it.

- Bidding: count the hand's sure tricks in each trump suit (the almighty, the main and back
  jacks, trump honours and length, side aces), add what an adjutant brings on average, turn
  tricks into face cards (about two a trick), and declare the cheapest legal declaration that
  count reaches; stand (pass) once highest.
- Adjutant: name the strongest card not in hand (almighty, main jack, back jack, trump A, K …).
- Exchange: keep the specials, trumps and aces; throw low side cards, shortest suits first,
  face cards last (a discarded face card belongs to the allies).
- No re-declaration; approve a proposal only when holding the adjutant's card.
- Play: know your side (Napoleon, the adjutant once known, everyone else an ally); give face
  cards to a partner who is winning; win a trick worth it with the cheapest winning card;
  otherwise throw the cheapest card, face cards kept.
"""

from __future__ import annotations

import random
from typing import Sequence

from ..actions import Action, Bid, Discard, Pass, Play
from ..games.napoleon import Adjutant, Approve, Redeclare
from ..cards import CARDS, JOKER_ID, Card
from ..game import View
from ..games.napoleon import FACE_MASK, SA, NapoleonView, trick_winner
from .base import register_heuristic

__all__ = ["NapoleonHeuristicBot", "estimate_tricks", "play_choice", "declaration_faces"]

_SUIT = {"S": 0, "H": 1, "D": 2, "C": 3}
_SAME_COLOUR = (3, 2, 1, 0)
ADJUTANT_TRICKS = 2.5
"""What an adjutant is worth on average, in tricks."""
FACES_PER_TRICK = 2.0


def _is_face(cid: int) -> bool:
    return cid != JOKER_ID and bool(FACE_MASK >> cid & 1)


def power(cid: int, trump: int) -> int:
    """How strong a card is in play (higher wins more often); the joker is weak."""
    if cid == JOKER_ID:
        return 0
    if cid == SA:
        return 100
    s, r = divmod(cid, 13)
    if r == 9 and s == trump:
        return 90
    if r == 9 and s == _SAME_COLOUR[trump]:
        return 85
    if s == trump:
        return 50 + r
    return 10 + r


def estimate_tricks(hand: tuple[Card, ...], trump: int) -> float:
    ids = [c.id for c in hand]
    tricks = 0.0
    trumps = [i for i in ids if i != JOKER_ID and i // 13 == trump]
    for i in ids:
        p = power(i, trump)
        if p >= 85:
            tricks += 1.0
        elif i != JOKER_ID and i // 13 == trump and i % 13 == 12:
            tricks += 0.9
        elif i != JOKER_ID and i // 13 == trump and i % 13 == 11:
            tricks += 0.6
        elif i != JOKER_ID and i // 13 != trump and i % 13 == 12:
            tricks += 0.5
    tricks += max(0, len(trumps) - 3) * 0.6
    return tricks


def declaration_faces(hand: tuple[Card, ...], trump: int) -> float:
    """The face cards the heuristic expects its army to take with this hand and trump: it
    declares the cheapest legal declaration this count reaches."""
    return (estimate_tricks(hand, trump) + ADJUTANT_TRICKS) * FACES_PER_TRICK + 2


class NapoleonHeuristicBot:
    name = "heuristic"

    def choose(self, view: View, rng: random.Random) -> Action:
        assert isinstance(view, NapoleonView)
        legal = view.legal_actions
        if not legal:
            raise ValueError(f"seat {view.seat} has no action to take")
        first = legal[0]
        if isinstance(first, (Pass, Bid)):
            return self._bid(view, legal)
        if isinstance(first, Adjutant):
            return self._adjutant(view, legal)
        if isinstance(first, Discard):
            return self._discard(view)
        if isinstance(first, Redeclare):
            return first  # no proposal
        if isinstance(first, Approve):
            holds = view.adjutant_card is not None and view.adjutant_card in view.hand
            return Approve(holds)
        return self._play(view, [a for a in legal if isinstance(a, Play)])

    # -- bidding -------------------------------------------------------------------------
    def _bid(self, view: NapoleonView, legal: tuple[Action, ...]) -> Action:
        if view.bids and any(isinstance(a, Bid) for _, a in view.bids):
            last_bidder = [s for s, a in view.bids if isinstance(a, Bid)][-1]
            if last_bidder == view.seat:
                return legal[0]  # stand
        best: Bid | None = None
        for strain in "SHDC":
            trump = _SUIT[strain]
            faces = declaration_faces(view.hand, trump)
            for a in legal:
                if isinstance(a, Bid) and a.strain == strain and a.count <= faces:
                    if best is None or a.count < best.count:
                        best = a
                    break
        return best if best is not None else legal[0]

    # -- the adjutant and the exchange ---------------------------------------------------
    def _adjutant(self, view: NapoleonView, legal: tuple[Action, ...]) -> Action:
        assert view.contract is not None
        trump = _SUIT[view.contract.strain]
        held = {c.id for c in view.hand}
        wanted = [SA, trump * 13 + 9, _SAME_COLOUR[trump] * 13 + 9, trump * 13 + 12, trump * 13 + 11, trump * 13 + 10]
        wanted += [s * 13 + 12 for s in range(4) if s != trump]
        for cid in wanted:
            if cid not in held:
                return Adjutant(CARDS[cid])
        return next(a for a in legal if isinstance(a, Adjutant) and a.card.id not in held)

    def _discard(self, view: NapoleonView) -> Action:
        assert view.contract is not None
        trump = _SUIT[view.contract.strain]
        k = len(view.middle)
        counts = [0, 0, 0, 0]
        for c in view.hand:
            if not c.is_joker:
                counts[c.id // 13] += 1

        def keep(c: Card) -> tuple[int, int, int]:
            i = c.id
            p = power(i, trump)
            if p >= 50:
                return (3, p, 0)
            if _is_face(i):
                return (2, i % 13, 0)
            if i == JOKER_ID:
                return (0, 0, 0)  # it cannot be thrown away in play: get rid of it now
            return (1, counts[i // 13], i % 13)

        chosen = sorted(view.hand, key=keep)[:k]
        return Discard(tuple(sorted(chosen, key=lambda c: c.id)))

    # -- play ----------------------------------------------------------------------------
    def _partners(self, view: NapoleonView) -> set[int]:
        seat = view.seat
        assert seat is not None
        n = view.players
        nap = view.napoleon
        i_am_adjutant = view.adjutant_card is not None and view.adjutant_card in view.hand
        if seat == nap:
            return {view.adjutant} if view.adjutant is not None and not view.solo else set()
        if i_am_adjutant or view.adjutant == seat:
            return {nap} if nap is not None else set()
        return {s for s in range(n) if s != seat and s != nap and s != view.adjutant}

    def _play(self, view: NapoleonView, plays: list[Play]) -> Action:
        assert view.contract is not None and view.seat is not None
        trick = view.trick
        before = tuple((s, c.id) for s, c in trick.plays) if trick is not None else ()
        led = 0
        if before:
            led_card = trick.plays[0][1]  # type: ignore[union-attr]
            led = (
                _SUIT[view.joker_request]
                if led_card.is_joker and view.joker_request
                else (led_card.id // 13 if not led_card.is_joker else 0)
            )
        return play_choice(
            plays,
            before,
            led,
            _SUIT[view.contract.strain],
            view.seat,
            self._partners(view),
            view.napoleon,
            view.tricks_played == 0,
            view.players,
            view.yoromeki,
            view.first_trick_plain,
        )


def play_choice(
    plays: Sequence[Play],
    before: Sequence[tuple[int, int]],
    led: int,
    trump: int,
    seat: int,
    partners: set[int],
    napoleon: int | None,
    first: bool,
    players: int,
    yoromeki: bool,
    first_trick_plain: bool,
) -> Play:
    """The heuristic's card from the legal ``plays``, the trick so far being ``before``
    (``(seat, card id)`` in order) with ``led`` the suit to follow, for ``seat`` whose side it
    believes is ``partners`` (a pure function: the inference's model of a player)."""
    if not before:
        return _lead(plays, trump, seat, partners, napoleon)
    cards = [c for _, c in before]
    seats = [s for s, _ in before]
    everyone = seats + [seat]

    def winner_of(ids: list[int]) -> int:
        return everyone[
            trick_winner(ids, led, trump, first=first, yoromeki=yoromeki, first_trick_plain=first_trick_plain)
        ]

    def winner_with(cid: int) -> int:
        return winner_of(cards + [cid])

    now = winner_of(cards)
    last = len(before) == players - 1
    faces_in = sum(1 for c in cards if _is_face(c))
    mine = [p.card.id for p in plays]
    if now in partners and (last or power(cards[seats.index(now)], trump) >= 60):
        # feed the partner a face card, else throw low
        feed = [c for c in mine if _is_face(c) and winner_with(c) in partners | {seat} and power(c, trump) < 50]
        if feed:
            return Play(CARDS[max(feed, key=lambda c: c % 13)])
        return Play(CARDS[min(mine, key=lambda c: (power(c, trump), _is_face(c)))])
    winning = [c for c in mine if winner_with(c) == seat]
    if winning and (faces_in or not last or seat == napoleon):
        return Play(CARDS[min(winning, key=lambda c: power(c, trump))])
    return Play(CARDS[min(mine, key=lambda c: (_is_face(c), power(c, trump)))])


def _lead(plays: Sequence[Play], trump: int, seat: int, partners: set[int], napoleon: int | None) -> Play:
    normal = [p for p in plays if not p.card.is_joker and not p.call_joker]
    army = seat == napoleon or (napoleon in partners)
    if not normal:
        want = "SHDC"[trump] if army else "SHDC"[(trump + 1) % 4]
        return next((p for p in plays if p.request == want), plays[0])
    ids = [p.card.id for p in normal]
    if army:
        strong = [c for c in ids if power(c, trump) >= 85]
        if strong:
            return Play(CARDS[max(strong, key=lambda c: power(c, trump))])
        trumps = [c for c in ids if c // 13 == trump]
        if len(trumps) >= 3:
            return Play(CARDS[max(trumps)])
    aces = [c for c in ids if c % 13 == 12 and c // 13 != trump and c != SA]
    if aces:
        return Play(CARDS[aces[0]])
    side = [c for c in ids if c // 13 != trump] or ids
    low = min(side, key=lambda c: (_is_face(c), c % 13))
    call = next((p for p in plays if p.call_joker), None)
    if call is not None and low == call.card.id:
        return call
    return Play(CARDS[low])


register_heuristic("napoleon", NapoleonHeuristicBot)
