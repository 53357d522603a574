"""Unsun's inference (読み, うんすんかるた): how likely the play a seat has seen is, had the others
held the cards of a sampled deal.

Unsun has no must-follow, so no play shows a void: what a player's cards say lies in which card
it chose.  The model of a player is the heuristic bot, softened: the card the heuristic would
have played from that hand at that moment (the sampled hand plus every card the player has
played since; what it saw then: its hand, the indicator, the completed tricks, the trick's
face-up cards and how many lie face down) has the chance ``PLAY_MATCH``; each other card of the
hand shares the rest.  The choice of the last player (取り番), which decides the contested group
or takes the trick with a trump, is read the same way; so is a face-down card (差し) of the trick
in progress, which each sampled deal fills in.

Everything here reads the seat's view (Unsun's completed tricks lie face up: the view is the
memory) and the sampled deal: never the real hidden cards.
"""

from __future__ import annotations

import math
from typing import NamedTuple, Sequence

from ..games.unsun import FACE_DOWN_MASKS, UnsunView
from .inference_meitora import PLAY_MATCH
from .unsun_heuristic import card_choice

__all__ = ["UnsunEvent", "events_of", "play_log_likelihood"]


class UnsunEvent(NamedTuple):
    """One card played: by whom, the card (``-1``: a face-down card of the trick in progress,
    ``slot`` its place in the trick), what the player saw then."""

    seat: int
    card: int
    slot: int
    visible: tuple[int, ...]
    """The trick's face-up cards before it."""
    hidden: int
    """How many cards lay face down in the trick before it."""
    last: bool
    public: int
    """The cards every player had seen then: the indicator and the completed tricks."""


def events_of(view: UnsunView, all_face_down: bool) -> list[UnsunEvent]:
    """The plays the seat has seen (its own included), in order: every completed trick's and
    the trick in progress'."""
    assert view.trump is not None
    fd = FACE_DOWN_MASKS[view.trump.index][int(all_face_down)]
    public = 1 << view.indicator.id if view.indicator is not None else 0
    n = view.players
    out: list[UnsunEvent] = []
    for trick, _ in view.tricks:
        visible: list[int] = []
        hidden = 0
        for i, (seat, card) in enumerate(trick.plays):
            out.append(UnsunEvent(seat, card.id, i, tuple(visible), hidden, i == n - 1, public))
            if fd >> card.id & 1:
                hidden += 1
            else:
                visible.append(card.id)
        for card in trick.cards:
            public |= 1 << card.id
    visible = []
    hidden = 0
    for i, (seat, shown) in enumerate(view.trick):
        out.append(UnsunEvent(seat, -1 if shown is None else shown.id, i, tuple(visible), hidden, i == n - 1, public))
        if shown is None or fd >> shown.id & 1:
            hidden += 1
        else:
            visible.append(shown.id)
    return out


def play_log_likelihood(
    hands: Sequence[int], trick: Sequence[int], me: int, events: Sequence[UnsunEvent], trump: int
) -> float:
    """The log-likelihood of the others' plays (``events``) had they held ``hands`` now, with
    ``trick`` the trick in progress as the sampled deal fills it."""
    later = [0] * len(hands)
    total = 0.0
    hit = math.log(PLAY_MATCH)
    miss = math.log(1.0 - PLAY_MATCH)
    for event in reversed(events):
        seat = event.seat
        card = event.card if event.card >= 0 else trick[event.slot]
        later[seat] |= 1 << card
        if seat == me:
            continue
        hand = hands[seat] | later[seat]
        count = hand.bit_count()
        if count < 2:
            continue
        ids = []
        m = hand
        while m:
            low = m & -m
            ids.append(low.bit_length() - 1)
            m ^= low
        seen = hand | event.public
        for c in event.visible:
            seen |= 1 << c
        choice = card_choice(ids, seen, event.visible, event.hidden, event.last, trump)
        total += hit if choice == card else miss - math.log(count - 1)
    return total
