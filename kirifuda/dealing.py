"""Dealing: checking a given deal against a game's deck (each game shuffles with the caller's
seeded generator; nothing calls the global ``random``)."""

from __future__ import annotations

from typing import Sequence

from .cards import CARDS, Card, parse_card
from .errors import DealError

__all__ = ["check_deal"]

_DECK_IDS: dict[int, tuple[Sequence[Card], frozenset[int]]] = {}


def _deck_ids(deck: Sequence[Card]) -> frozenset[int]:
    """The card ids of a game's deck (kept per deck object: decks are module constants)."""
    hit = _DECK_IDS.get(id(deck))
    if hit is not None and hit[0] is deck:
        return hit[1]
    ids = frozenset(c.id for c in deck)
    if len(_DECK_IDS) < 64:
        _DECK_IDS[id(deck)] = (deck, ids)
    return ids


def check_deal(
    hands: Sequence[Sequence[Card | str]],
    rest: Sequence[Card | str],
    deck: Sequence[Card],
    hand_sizes: Sequence[int],
    rest_size: int,
) -> tuple[list[int], list[int]]:
    """Check that ``hands`` (seat order) and ``rest`` are exactly ``deck`` in the given sizes.

    Returns the hands as bitmasks and the rest as card ids (order kept).  Raises DealError
    naming the seat, the card or the count that is wrong.
    """
    if not isinstance(hands, (list, tuple)) or len(hands) != len(hand_sizes):
        raise DealError(
            f"a deal has {len(hand_sizes)} hands, got {len(hands) if isinstance(hands, (list, tuple)) else repr(hands)}"
        )
    deck_ids = _deck_ids(deck)
    seen: dict[int, int] = {}
    """Where each card was dealt: a seat, or -1 for the rest."""
    masks: list[int] = []

    def where(place: int) -> str:
        return "the rest" if place < 0 else f"seat {place}"

    def take(card: Card | str, place: int) -> int:
        c = card if type(card) is Card else parse_card(card)  # InvalidActionError (a DealError's sibling)
        i = c.id
        if i not in deck_ids:
            raise DealError(f"{c.code} is not a card of this game's deck ({where(place)})")
        if i in seen:
            raise DealError(f"{c.code} is dealt twice ({where(seen[i])} and {where(place)})")
        seen[i] = place
        return i

    for seat, (hand, size) in enumerate(zip(hands, hand_sizes)):
        if not isinstance(hand, (list, tuple)):
            raise DealError(f"the hand of seat {seat} must be a list of cards")
        if len(hand) != size:
            raise DealError(f"seat {seat} must be dealt {size} cards, got {len(hand)}")
        m = 0
        for card in hand:
            m |= 1 << take(card, seat)
        masks.append(m)
    if not isinstance(rest, (list, tuple)):
        raise DealError("the rest must be a list of cards")
    if len(rest) != rest_size:
        raise DealError(f"the rest must hold {rest_size} card(s), got {len(rest)}")
    rest_ids = [take(card, -1) for card in rest]
    if len(seen) != len(deck_ids):
        missing = sorted(deck_ids - set(seen))
        raise DealError("cards missing from the deal: " + " ".join(CARDS[i].code for i in missing))
    return masks, rest_ids
