"""A rule-of-thumb Unsun player (うんすんかるた), seeing only its seat's view.

It counts the cards it has seen (its hand, the indicator, every trick's cards) and reasons about
the rest as unknown; a face-down card in the trick is a trump it cannot see.

- As the last player (取り番) it knows every card before it: without a trump in the trick it
  takes the trick with its cheapest card of a group already played that beats that group's best
  (so the group is contested and it wins), else with its lowest trump; with a trump in the
  trick, with the lowest trump sure to beat it (face-down cards counted at their worst).
- Before the last player it plays a trump only when no unseen trump can beat it (a sure trick),
  else the top remaining card of a non-trump group while no trump has been played;
- otherwise it throws its lowest non-trump card (trumps are kept).
"""

from __future__ import annotations

import random
from typing import Sequence

from ..actions import Action, Play
from ..cards import Card
from ..game import View
from ..games.unsun import GROUP_TRUMP, GROUPS, TRUMP_MASKS, UnsunView
from .base import register_heuristic

__all__ = ["UnsunHeuristicBot", "card_choice"]


class UnsunHeuristicBot:
    name = "heuristic"

    def choose(self, view: View, rng: random.Random) -> Action:
        assert isinstance(view, UnsunView)
        legal = [a for a in view.legal_actions if isinstance(a, Play)]
        if not legal:
            raise ValueError(f"seat {view.seat} has no action to take")
        assert view.trump is not None
        card = self._card(view, [a.card for a in legal])
        return next(a for a in legal if a.card == card)

    def _card(self, view: UnsunView, hand: list[Card]) -> Card:
        trump = view.trump
        assert trump is not None
        seen = 0
        for c in hand:
            seen |= 1 << c.id
        if view.indicator is not None:
            seen |= 1 << view.indicator.id
        for trick, _ in view.tricks:
            for c in trick.cards:
                seen |= 1 << c.id
        visible = [c.id for _, c in view.trick if c is not None]
        hidden = sum(1 for _, c in view.trick if c is None)
        for i in visible:
            seen |= 1 << i
        cid = card_choice([c.id for c in hand], seen, visible, hidden, len(view.trick) == view.players - 1, trump.index)
        return next(c for c in hand if c.id == cid)


def card_choice(hand: Sequence[int], seen: int, visible: Sequence[int], hidden: int, is_last: bool, trump: int) -> int:
    """The heuristic's card (an id) from ``hand``: ``seen`` the mask of every card the player
    has seen (its hand, the indicator, the completed tricks, the trick's face-up cards),
    ``visible`` the trick's face-up cards, ``hidden`` how many lie face down in it, ``is_last``
    whether it plays last (a pure function: the inference's model of a player)."""
    group = GROUPS[trump]
    unknown = TRUMP_MASKS[trump] & ~seen
    top_unknown_trump = unknown.bit_length() - 1 - 13 * trump if unknown else -1

    def rank(c: int) -> int:
        return c % 13

    my_trumps = sorted((c for c in hand if group[c] == GROUP_TRUMP), key=rank)
    others = sorted((c for c in hand if group[c] != GROUP_TRUMP), key=rank)
    trick_trump = max((rank(c) for c in visible if group[c] == GROUP_TRUMP), default=-1)
    trump_played = trick_trump >= 0 or hidden > 0
    # the rank a trump must beat to be sure: the visible trumps, and any trump still
    # unseen (it may lie face down in the trick, or be played after this seat)
    threshold = trick_trump
    if hidden or not is_last:
        threshold = max(threshold, top_unknown_trump)
    sure_trumps = [c for c in my_trumps if rank(c) > threshold]

    def throw() -> int:
        return others[0] if others else my_trumps[0]

    if is_last:
        if trump_played:
            return sure_trumps[0] if sure_trumps else throw()
        best: dict[int, int] = {}
        for c in visible:
            g = group[c]
            best[g] = max(best.get(g, -1), rank(c))
        winners = [c for c in others if group[c] in best and rank(c) > best[group[c]]]
        if winners:
            return min(winners, key=rank)
        return my_trumps[0] if my_trumps else throw()
    if sure_trumps:
        return sure_trumps[0]
    if not trump_played and others:
        for c in sorted(others, key=rank, reverse=True):
            if rank(c) < 8:  # the top remaining card of its group, T or better
                break
            g = group[c]
            if not any(group[i] == g and not seen >> i & 1 and i % 13 > rank(c) for i in range(52)):
                return c
    return throw()


register_heuristic("unsun", UnsunHeuristicBot)
