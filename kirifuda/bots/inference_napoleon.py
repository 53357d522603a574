"""Napoleon's inference (読み): how likely the declarations, the adjutant's card, the exchange and
the play a seat has seen are, had the others held the cards of a sampled deal.

The model of a player is the heuristic bot, softened:

- **a declaration** of ``count`` in a suit: the heuristic declares the cheapest declaration its
  count of face cards reaches (:func:`~.napoleon_heuristic.declaration_faces`); the chance of a
  declaration is a logistic curve of how far the hand's count clears it (``BID_TEMPERATURE`` face
  cards wide); **a pass** (not standing on one's own declaration): the chance that no suit's count
  reaches the cheapest declaration left;
- **the adjutant's card**: the heuristic names the strongest card it does not hold (the almighty,
  the main jack, the back jack, the trump A K Q, …), so each stronger card of that list Napoleon
  does not hold in a sampled deal, and the named card in his own hand (playing alone), has the
  chance ``CALL_MISS``;
- **the exchange** (seen by the others only as what it leaves out): a sampled discard holding a
  trump or a special card has the chance ``DISCARD_TRUMP``, one holding a face card
  ``DISCARD_FACE`` (the heuristic throws low side cards, face cards last);
- **a re-declaration** (a proposal after the exchange) as a declaration, on Napoleon's hand
  after the exchange;
- **a card**: the card the heuristic would have played from that hand, at that moment (the
  sampled hand and every card the player has played since; its side as that player knew it then:
  the adjutant is known to all once the named card is played) has the chance ``PLAY_MATCH``; each
  other legal card shares the rest.

Napoleon's hand at the bidding is seen through his hand after the exchange (his discard is his
alone): the declaration is weighed on that hand.  Everything here reads the seat's memory
(:class:`~.search_napoleon.NapoleonMemory`) and the sampled deal: never the real hidden cards.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, NamedTuple, Sequence

from ..actions import Bid, Pass, Play
from ..cards import CARDS, JOKER_ID
from ..games.napoleon import _BIDS, BID_SUITS, FACE_MASK, JK_BIT, S3, SA, SUIT_MASK
from .inference import sigmoid
from .inference_meitora import PLAY_MATCH
from .napoleon_heuristic import declaration_faces, play_choice, power

if TYPE_CHECKING:
    from .search_napoleon import NapoleonMemory

__all__ = [
    "NapoleonEvent",
    "log_likelihood",
    "bidding_log_likelihood",
    "proposal_log_likelihood",
    "play_log_likelihood",
    "call_log_likelihood",
    "discard_log_likelihood",
    "BID_TEMPERATURE",
]

BID_TEMPERATURE = 2.0
"""The width, in face cards, of the declaration model's soft threshold."""
CALL_MISS = 0.25
"""The chance of each stronger card Napoleon would have named, and does not hold."""
DISCARD_TRUMP = 0.05
"""The chance that Napoleon threw away a trump or a special card."""
DISCARD_FACE = 0.3
"""The chance that Napoleon threw away a side face card."""
SAME_COLOUR = (3, 2, 1, 0)
SUITS = "SHDC"


class NapoleonEvent(NamedTuple):
    """One card seen played: by whom, the trick before it (``(seat, card)``), the suit to follow
    (the suit a joker lead named; ``-1`` where it was not seen), whether it was the first trick,
    and whether the trick was led by ♠3 calling the joker."""

    seat: int
    card: int
    before: tuple[tuple[int, int], ...]
    led: int
    first: bool
    called: bool


def _cards(mask: int) -> tuple[int, ...]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return tuple(out)


def _played_by(memory: NapoleonMemory, seat: int) -> int:
    m = 0
    for c, s in memory.played.items():
        if s == seat:
            m |= 1 << c
    return m


def proposal_log_likelihood(napoleon_hand: int, proposal: Bid) -> float:
    """The log-likelihood of Napoleon's re-declaration ``proposal`` had he held
    ``napoleon_hand`` (after the exchange): a proposal is weighed as a declaration, by how far
    the hand's count of face cards in the proposed suit clears it."""
    hand = tuple(CARDS[c] for c in _cards(napoleon_hand))
    reach = declaration_faces(hand, SUITS.index(proposal.strain))
    return math.log(sigmoid((reach - proposal.count) / BID_TEMPERATURE))


def bidding_log_likelihood(hands: Sequence[int], me: int, memory: NapoleonMemory, players: int) -> float:
    """The log-likelihood of the others' declarations and passes had they held ``hands`` (each
    with the cards it has played since)."""
    order = _BIDS[players]
    index = {b: i for i, b in enumerate(order)}
    total = 0.0
    high = -1
    high_seat: int | None = None
    faces: dict[tuple[int, int], float] = {}

    def reach(seat: int, trump: int) -> float:
        key = (seat, trump)
        if key not in faces:
            hand = tuple(CARDS[c] for c in _cards(hands[seat] | _played_by(memory, seat)))
            faces[key] = declaration_faces(hand, trump)
        return faces[key]

    for seat, action in memory.bids:
        if seat != me and isinstance(action, Bid):
            total += math.log(sigmoid((reach(seat, SUITS.index(action.strain)) - action.count) / BID_TEMPERATURE))
        elif seat != me and isinstance(action, Pass) and seat != high_seat:
            margins = []
            for strain in BID_SUITS:
                cheapest = next((b for b in order[high + 1 :] if b.strain == strain), None)
                if cheapest is not None:
                    margins.append(reach(seat, SUITS.index(strain)) - cheapest.count)
            if margins:
                total += math.log(sigmoid(-max(margins) / BID_TEMPERATURE))
        if isinstance(action, Bid):
            high, high_seat = index[action], seat
    return total


def adjutant_wishes(trump: int) -> list[int]:
    """The cards the heuristic names as the adjutant's, the first it does not hold first."""
    return [SA, trump * 13 + 9, SAME_COLOUR[trump] * 13 + 9, trump * 13 + 12, trump * 13 + 11, trump * 13 + 10] + [
        s * 13 + 12 for s in range(4) if s != trump
    ]


def call_log_likelihood(napoleon_hand: int, trump: int, named: int) -> float:
    """The log-likelihood of naming ``named`` with this hand (his hand now, and every card he has
    played): each stronger wish not held, and the named card held, costs ``log CALL_MISS``."""
    wishes = adjutant_wishes(trump)
    if named not in wishes:
        return 0.0
    total = 0.0
    miss = math.log(CALL_MISS)
    for c in wishes[: wishes.index(named)]:
        if not napoleon_hand >> c & 1:
            total += miss
    if napoleon_hand >> named & 1:
        total += miss
    return total


def discard_log_likelihood(discard: int, trump: int) -> float:
    """The log-likelihood of Napoleon's discard being ``discard`` (a mask)."""
    total = 0.0
    for c in _cards(discard):
        if c != JOKER_ID and power(c, trump) >= 50:
            total += math.log(DISCARD_TRUMP)
        elif c != JOKER_ID and FACE_MASK >> c & 1:
            total += math.log(DISCARD_FACE)
    return total


def _legal(hand: int, event: NapoleonEvent) -> int:
    """The cards the player could play then (spec §6: follow the led suit; the joker is led, or
    played to a ♠3 call, or as the last card)."""
    if not event.before:
        return hand
    if hand & JK_BIT:
        if event.called or hand == JK_BIT:
            return JK_BIT
        follow = hand & SUIT_MASK[event.led]
        return follow if follow else hand ^ JK_BIT
    follow = hand & SUIT_MASK[event.led]
    return follow if follow else hand


def _plays(legal: int, lead: bool, joker: bool) -> list[Play]:
    out: list[Play] = []
    for c in _cards(legal):
        if c == JOKER_ID and lead:
            out.extend(Play(CARDS[c], request=s) for s in SUITS)
        else:
            out.append(Play(CARDS[c]))
        if c == S3 and lead and joker:
            out.append(Play(CARDS[c], call_joker=True))
    return out


def play_log_likelihood(
    hands: Sequence[int],
    me: int,
    memory: NapoleonMemory,
    trump: int,
    napoleon: int,
    named: int | None,
    yoromeki: bool = False,
    first_trick_plain: bool = False,
) -> float:
    """The log-likelihood of the others' plays seen so far had they held ``hands``."""
    n = len(hands)
    events = memory.events
    reveal = next((i for i, e in enumerate(events) if e.card == named), len(events))
    adjutant = events[reveal].seat if reveal < len(events) else None
    later = [0] * n
    total = 0.0
    hit = math.log(PLAY_MATCH)
    miss = math.log(1.0 - PLAY_MATCH)
    for i in range(len(events) - 1, -1, -1):
        event = events[i]
        seat = event.seat
        later[seat] |= 1 << event.card
        if seat == me or (event.before and event.led < 0):
            continue
        hand = hands[seat] | later[seat]
        legal = _legal(hand, event)
        count = legal.bit_count()
        if count < 2 or not legal >> event.card & 1:
            continue
        known = adjutant if i > reveal else None
        if seat == napoleon:
            partners = {known} if known is not None and known != napoleon else set()
        elif named is not None and hand >> named & 1 or known == seat:
            partners = {napoleon}
        else:
            partners = {s for s in range(n) if s not in (seat, napoleon, known)}
        choice = play_choice(
            _plays(legal, not event.before, memory.joker),
            event.before,
            max(event.led, 0),
            trump,
            seat,
            partners,
            napoleon,
            event.first,
            n,
            yoromeki,
            first_trick_plain,
        )
        total += hit if choice.card.id == event.card else miss - math.log(count - 1)
    return total


def log_likelihood(
    hands: Sequence[int],
    gone: int,
    me: int,
    memory: NapoleonMemory,
    trump: int,
    napoleon: int,
    named: int | None,
    yoromeki: bool = False,
    first_trick_plain: bool = False,
) -> float:
    """How likely what seat ``me`` has seen is under the model, had the deal been ``hands`` with
    ``gone`` the cards out of play (Napoleon's discard, unseen by the others): the declarations,
    the adjutant's card, the exchange and the play."""
    n = len(hands)
    total = bidding_log_likelihood(hands, me, memory, n)
    if me != napoleon:
        if named is not None:
            total += call_log_likelihood(hands[napoleon] | _played_by(memory, napoleon), trump, named)
        total += discard_log_likelihood(gone, trump)
    return total + play_log_likelihood(hands, me, memory, trump, napoleon, named, yoromeki, first_trick_plain)
