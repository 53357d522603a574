"""Kakeya Trump's inference (読み): how likely the play a seat has seen is, had the others held
the cards of a sampled deal.

The model of a player is the heuristic bot, softened: the card the heuristic would have played
from that hand at that moment (the sampled hand plus every card the player has played since;
what it saw then: its hand, the face cards already captured, which lie face up, and the trick)
has the chance ``PLAY_MATCH``; each other legal card shares the rest.  The trump is chosen
before anyone sees a card and the leader by the pair that leads: neither enters a weight.
Everything here reads the seat's memory (:class:`~.search_kakeya.KakeyaMemory`) and the
sampled deal: never the real hidden cards.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Mapping

from ..games.kakeya import SUIT_MASKS
from .inference_meitora import PLAY_MATCH
from .kakeya_heuristic import play_choice

if TYPE_CHECKING:
    from .search_kakeya import KakeyaMemory

__all__ = ["play_log_likelihood"]


def play_log_likelihood(hands: Mapping[int, int], me: int, memory: KakeyaMemory, trump: int, players: int) -> float:
    """The log-likelihood of the others' plays seen so far had they held ``hands`` (the active
    seats' hands now)."""
    later: dict[int, int] = {}
    total = 0.0
    hit = math.log(PLAY_MATCH)
    miss = math.log(1.0 - PLAY_MATCH)
    for event in reversed(memory.events):
        seat = event.seat
        later[seat] = later.get(seat, 0) | 1 << event.card
        if seat == me or seat not in hands:
            continue
        hand = hands[seat] | later[seat]
        options = hand
        if event.before:
            follow = hand & SUIT_MASKS[event.before[0][1] // 13]
            options = follow or hand
        legal = [c for c in range(52) if options >> c & 1]
        if len(legal) < 2 or event.card not in legal:
            continue
        seen = hand | event.public
        for _, c in event.before:
            seen |= 1 << c
        choice = play_choice(legal, event.before, trump, seat, players, bin(hand).count("1"), seen)
        total += hit if choice == event.card else miss - math.log(len(legal) - 1)
    return total
