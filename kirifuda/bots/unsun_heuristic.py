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

from ..actions import Action, Play
from ..cards import Card
from ..game import View
from ..games.unsun import GROUP_TRUMP, GROUPS, UnsunView
from .base import register_heuristic

__all__ = ["UnsunHeuristicBot"]


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
        group = GROUPS[trump.index]
        seen = {c.id for c in hand}
        if view.indicator is not None:
            seen.add(view.indicator.id)
        for trick, _ in view.tricks:
            seen.update(c.id for c in trick.cards)
        visible = [c for _, c in view.trick if c is not None]
        hidden = sum(1 for _, c in view.trick if c is None)
        seen.update(c.id for c in visible)
        unknown_trumps = [i for i in range(52) if group[i] == GROUP_TRUMP and i not in seen]
        top_unknown_trump = max((i % 13 for i in unknown_trumps), default=-1)

        def rank(c: Card) -> int:
            return c.id % 13

        my_trumps = sorted((c for c in hand if group[c.id] == GROUP_TRUMP), key=rank)
        others = sorted((c for c in hand if group[c.id] != GROUP_TRUMP), key=rank)
        trick_trump = max((rank(c) for c in visible if group[c.id] == GROUP_TRUMP), default=-1)
        trump_played = trick_trump >= 0 or hidden > 0
        # the rank a trump must beat to be sure: the visible trumps, and any trump still
        # unseen (it may lie face down in the trick, or be played after this seat)
        is_last = len(view.trick) == view.players - 1
        threshold = trick_trump
        if hidden or not is_last:
            threshold = max(threshold, top_unknown_trump)
        sure_trumps = [c for c in my_trumps if rank(c) > threshold]

        def throw() -> Card:
            return others[0] if others else my_trumps[0]

        if is_last:
            if trump_played:
                return sure_trumps[0] if sure_trumps else throw()
            best: dict[int, int] = {}
            for c in visible:
                g = group[c.id]
                best[g] = max(best.get(g, -1), rank(c))
            winners = [c for c in others if group[c.id] in best and rank(c) > best[group[c.id]]]
            if winners:
                return min(winners, key=rank)
            return my_trumps[0] if my_trumps else throw()
        if sure_trumps:
            return sure_trumps[0]
        if not trump_played and others:
            for c in sorted(others, key=rank, reverse=True):
                g = group[c.id]
                higher = [i for i in range(52) if group[i] == g and i not in seen and i % 13 > rank(c)]
                if not higher and rank(c) >= 8:  # the top remaining card of its group, T or better
                    return c
        return throw()


register_heuristic("unsun", UnsunHeuristicBot)
