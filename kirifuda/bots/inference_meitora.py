"""Meitora's inference (読み): how likely the bidding and the play a seat has seen are, had the
others held the cards of a sampled deal.

The model of a player is the heuristic bot, softened:

- **a bid** of ``count`` in a strain: the heuristic bids a count its hand reaches (its quick
  trick count in the strain plus what a partner brings); the chance of the bid is a logistic
  curve of how far the hand's count clears the bid (``BID_TEMPERATURE`` tricks wide);
- **a pass**: the chance that the hand's best strain falls short of the cheapest bid left;
- **a card**: the card the heuristic would have played from that hand, at that moment (the
  hand then is the sampled hand and every card the seat has played since), has the chance
  ``PLAY_MATCH``; each other legal card shares the rest.  A card not played when the
  heuristic would have played it makes the deals where the seat held it less likely.

A broken declaration redeals: it says nothing of the deal played.  The negri and the agari
stay unknown to the others and enter no weight.  Everything here reads the seat's memory
(:class:`~.search_meitora.MeitoraMemory`) and the sampled deal: never the real hidden cards.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Sequence

from ..actions import Bid, Pass
from ..cards import CARDS, JOKER_ID, Card
from ..games.meitora import EFF_SUIT, NO_SUIT, STRAINS
from .inference import sigmoid
from .meitora_heuristic import PARTNER_TRICKS, estimate_tricks, play_choice

if TYPE_CHECKING:
    from .search_meitora import MeitoraMemory

__all__ = ["log_likelihood", "bidding_log_likelihood", "play_log_likelihood", "PLAY_MATCH", "BID_TEMPERATURE"]

PLAY_MATCH = 0.5
"""The chance a player plays the card the heuristic would have."""
BID_TEMPERATURE = 1.0
"""The width, in tricks, of the bidding model's soft threshold."""
LOWEST_BID = 6


def _cards(mask: int) -> tuple[Card, ...]:
    out = []
    while mask:
        low = mask & -mask
        out.append(CARDS[low.bit_length() - 1])
        mask ^= low
    return tuple(out)


def _played_by(memory: MeitoraMemory, seat: int) -> int:
    m = 0
    for c, s in memory.played.items():
        if s == seat:
            m |= 1 << c
    return m


def bidding_log_likelihood(hands: Sequence[int], me: int, memory: MeitoraMemory) -> float:
    """The log-likelihood of the others' bids and passes (this deal's, in order) had they
    held ``hands`` (each with the cards it has played since)."""
    total = 0.0
    high: Bid | None = None
    estimates: dict[tuple[int, str], float] = {}

    def reach(seat: int, strain: str) -> float:
        key = (seat, strain)
        if key not in estimates:
            hand = _cards(hands[seat] | _played_by(memory, seat))
            estimates[key] = estimate_tricks(hand, strain) + PARTNER_TRICKS
        return estimates[key]

    for seat, action in memory.bids:
        if seat != me and isinstance(action, Bid):
            total += math.log(sigmoid((reach(seat, action.strain) - action.count) / BID_TEMPERATURE))
        elif seat != me and isinstance(action, Pass):
            margins = []
            for i, strain in enumerate(STRAINS):
                need = LOWEST_BID if high is None else high.count + (0 if i > STRAINS.index(high.strain) else 1)
                if need <= 10:
                    margins.append(reach(seat, strain) - need)
            if margins:
                total += math.log(sigmoid(-max(margins) / BID_TEMPERATURE))
        if isinstance(action, Bid):
            high = action
    return total


def play_log_likelihood(
    hands: Sequence[int], me: int, memory: MeitoraMemory, strain: int, declarer: int | None
) -> float:
    """The log-likelihood of the others' plays seen so far had they held ``hands``."""
    eff = EFF_SUIT[strain]
    later = [0, 0, 0, 0]
    """Per seat, the cards it played from the event being read on (read backwards)."""
    total = 0.0
    miss = math.log(1.0 - PLAY_MATCH)
    hit = math.log(PLAY_MATCH)
    for event in reversed(memory.events):
        seat = event.seat
        later[seat] |= 1 << event.card
        if seat == me:
            continue
        hand = hands[seat] | later[seat]
        ids = [c for c in range(53) if hand >> c & 1]
        legal = ids
        if event.before and event.led != NO_SUIT:
            follow = [c for c in ids if c != JOKER_ID and eff[c] == event.led]
            if follow:
                legal = follow + ([JOKER_ID] if hand >> JOKER_ID & 1 else [])
        if len(legal) < 2 or event.card not in legal:
            continue
        request = None  # the heuristic reads a joker lead's request only to find the led suit
        if event.before and event.before[0][1] == JOKER_ID:
            request = "SHDC"[event.led] if event.led < 4 else "any"
        choice = play_choice(legal, event.before, request, strain, seat, declarer, len(ids))
        total += hit if choice == event.card else miss - math.log(len(legal) - 1)
    return total


def log_likelihood(
    hands: Sequence[int], me: int, memory: MeitoraMemory, strain: int | None, declarer: int | None
) -> float:
    """How likely what seat ``me`` has seen is under the model, had the deal been ``hands``
    (a log; the bidding, and the play once there is a contract)."""
    total = bidding_log_likelihood(hands, me, memory)
    if strain is not None:
        total += play_log_likelihood(hands, me, memory, strain, declarer)
    return total
