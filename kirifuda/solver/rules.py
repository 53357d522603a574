"""A game's trick rules as tables: what the solver needs to know, and nothing else.

Every game of kirifuda plays tricks the same way once its special cards are put into tables:
each card has an *effective suit* (0–3, or 4 for none: the joker in no-trump) and a *strength*
for each led suit (the highest strength in a trick wins; the first played wins ties); a player
must follow the led suit if able, except that *free* cards (Meitora's joker) may be played to
any trick; a *multi-lead* card (a joker that names a request when led) offers one lead per
``lead_choices`` entry; a *last-forced* card may not be kept to the last trick; a trick is worth
``trick_base`` plus the ``points`` of its cards (1 and 0 in Meitora: tricks are counted).

*Special tricks* (Napoleon's, off elsewhere: ``first_strength`` given turns them on): a table
for the deal's first trick (``first_trick``: the root position's trick is the first), cards
*restricted* to the lead or the last card in hand (Napoleon's joker), the *almighty* beaten by
the *yoromeki* card when both are in a trick, and *same-2*: in a trick whose cards all have one
printed suit, the 2 of that suit (``same2_mask``) wins unless the table's winner is stronger
than ``same2_max`` (``first_same2_max`` in the first trick; -1: never).  A *call card*
(Napoleon's ♠3) may be led calling the restricted cards: the led value :data:`CALLED`, its
suit's tables, and a player holding a restricted card must play it.  The parts of the
solvers that assume a plain monotone strength (squeezed and winning-ranks table keys, sure and
quick tricks, merging in the first trick) are off where these rules are on.

Cards are ids 0..63 (:mod:`kirifuda.cards`: suit*13 + rank-2, the joker 52).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = ["TrickRules", "NO_SUIT", "CALLED", "plain_trick_rules"]

NO_SUIT = 4
CALLED = 5
"""The led value of a call card's lead that calls the restricted cards (its suit's tables)."""
NCARD = 64


@dataclass(frozen=True)
class TrickRules:
    num_players: int
    eff: tuple[int, ...]
    """Each card's effective suit, 0–4 (-1: not in this game's deck)."""
    strength: tuple[tuple[int, ...], ...]
    """``strength[led][card]``: a card's strength in a trick whose led suit is ``led`` (0–4)."""
    free_mask: int = 0
    multi_lead_mask: int = 0
    lead_choices: tuple[int, ...] = ()
    last_forced_mask: int = 0
    trick_base: int = 1
    points: tuple[int, ...] = (0,) * NCARD
    nomerge_mask: int = 0
    """Cards never merged with their neighbours (cards with rules of their own)."""
    first_strength: tuple[tuple[int, ...], ...] | None = None
    """Special tricks: the first trick's ``strength`` table (``None``: no special tricks)."""
    first_trick: bool = False
    restricted_mask: int = 0
    almighty: int = -1
    yoromeki: int = -1
    same2_mask: int = 0
    same2_max: int = 0
    first_same2_max: int = -1
    horizon: int = 0
    """Special rules only (0: none): a trick start with at most this many cards per hand (more
    than one) is not searched; its value is the points in the hands times the maximising side's
    share of ``horizon_power`` (``pts * (2 * side + 1) // (2 * all + 2)``)."""
    horizon_power: tuple[int, ...] = ()
    call_card: int = -1
    """Special rules only (-1: none): a card whose lead may call the restricted cards (led
    :data:`CALLED`): each player holding one must play it to that trick."""
    order: tuple[tuple[int, ...], ...] = field(init=False)
    """Per effective suit, its cards strongest first (derived)."""
    suit_masks: tuple[int, ...] = field(init=False)
    by_led: tuple[tuple[int, ...], ...] = field(init=False)
    """``strength`` with a row for :data:`CALLED` (the call card's suit's), where there is one."""
    first_by_led: tuple[tuple[int, ...], ...] | None = field(init=False)

    def __post_init__(self) -> None:
        if len(self.eff) != NCARD or len(self.points) != NCARD or len(self.strength) != 5:
            raise ValueError("eff and points need 64 entries, strength 5 rows of 64")
        # cards with rules of their own are never merged nor renumbered
        object.__setattr__(
            self,
            "nomerge_mask",
            self.nomerge_mask
            | self.free_mask
            | self.multi_lead_mask
            | self.last_forced_mask
            | self.restricted_mask
            | self.same2_mask
            | (1 << self.almighty if self.almighty >= 0 else 0)
            | (1 << self.yoromeki if self.yoromeki >= 0 else 0)
            | (1 << self.call_card if self.call_card >= 0 else 0),
        )
        if self.call_card >= 0 and (not self.restricted_mask or self.eff[self.call_card] not in range(4)):
            raise ValueError("a call card needs restricted cards to call and a suit of its own")
        called = (self.eff[self.call_card],) if self.call_card >= 0 else ()
        object.__setattr__(self, "by_led", self.strength + tuple(self.strength[su] for su in called))
        first = self.first_strength
        object.__setattr__(self, "first_by_led", None if first is None else first + tuple(first[su] for su in called))
        order = []
        masks = []
        for su in range(5):
            cards = [c for c in range(NCARD) if self.eff[c] == su]
            cards.sort(key=lambda c: -self.strength[su][c])
            order.append(tuple(cards))
            masks.append(sum(1 << c for c in cards))
        object.__setattr__(self, "order", tuple(order))
        object.__setattr__(self, "suit_masks", tuple(masks))

    def compiled(self) -> Any:
        """The rules for the C core (built once per rules object)."""
        from . import _core

        cache = self.__dict__.get("_compiled")
        if cache is None:
            assert _core.csolver is not None
            args: tuple[Any, ...] = (
                self.num_players,
                [e & 0xFF for e in self.eff],
                self.strength,
                self.free_mask,
                self.multi_lead_mask,
                self.lead_choices,
                self.last_forced_mask,
                self.trick_base,
                self.points,
                self.nomerge_mask,
                self.order,
            )
            if self.special:
                args += (
                    self.first_strength,
                    self.restricted_mask,
                    self.almighty,
                    self.yoromeki,
                    self.same2_mask,
                    self.same2_max,
                    self.first_same2_max,
                    int(self.first_trick),
                    self.horizon,
                    list(self.horizon_power) if self.horizon_power else None,
                    self.call_card,
                )
            cache = _core.csolver.make_rules(*args)
            object.__setattr__(self, "_compiled", cache)
        return cache

    @property
    def special(self) -> bool:
        return self.first_strength is not None

    def after_first(self) -> "TrickRules":
        """The same rules once the first trick is over."""
        if not self.first_trick:
            return self
        cache: TrickRules | None = self.__dict__.get("_after_first")
        if cache is None:
            from dataclasses import replace

            cache = replace(self, first_trick=False)
            object.__setattr__(self, "_after_first", cache)
        return cache

    def horizon_value(self, hands: list[int] | tuple[int, ...], maxside: list[int]) -> int:
        pts = side = total = 0
        for p, h in enumerate(hands):
            pw = 0
            while h:
                low = h & -h
                c = low.bit_length() - 1
                h ^= low
                pts += self.points[c]
                pw += self.horizon_power[c] if self.horizon_power else 0
            total += pw
            if maxside[p]:
                side += pw
        return pts * (2 * side + 1) // (2 * total + 2)

    def winner(self, trick: tuple[int, ...] | list[int], led: int, first: bool = False) -> int:
        """The index of the card that wins a complete trick (``first``: the deal's first)."""
        st = self.first_by_led[led] if first and self.first_by_led is not None else self.by_led[led]
        best, bv = 0, st[trick[0]]
        for i in range(1, len(trick)):
            if st[trick[i]] > bv:
                best, bv = i, st[trick[i]]
        if self.first_strength is None:
            return best
        if self.yoromeki >= 0 and trick[best] == self.almighty and self.yoromeki in trick:
            return list(trick).index(self.yoromeki)
        if bv > (self.first_same2_max if first else self.same2_max):
            return best
        su = trick[0] // 13 if trick[0] < 52 else 4
        if su == 4 or any(c >= 52 or c // 13 != su for c in trick):
            return best
        for i, c in enumerate(trick):
            if self.same2_mask >> c & 1:
                return i
        return best

    # -- shared by both cores and the bots ----------------------------------------------------
    def legal_mask(self, hand: int, trick_len: int, led: int) -> int:
        if hand & self.last_forced_mask and hand.bit_count() == 2:
            return hand & self.last_forced_mask
        if trick_len == 0:
            return hand
        if led == CALLED:
            if hand & self.restricted_mask:
                return hand & self.restricted_mask
            led = self.eff[self.call_card]
        if hand & self.restricted_mask and hand & ~self.restricted_mask:
            hand &= ~self.restricted_mask
        if led == NO_SUIT:
            return hand
        follow = hand & self.suit_masks[led]
        return follow | (hand & self.free_mask) if follow else hand

    def merged(
        self,
        hands: tuple[int, ...] | list[int],
        seat: int,
        legal: int,
        trick: tuple[int, ...] | list[int],
        first: bool = False,
    ) -> dict[int, int]:
        """Each legal card → the card that represents it: cards of one effective suit held
        together with nothing but played cards between them are equivalent (a twin takes the
        value of the strongest card of its run).  ``first``: the special rules' first trick
        (nothing merged)."""
        if first and self.special:
            return {c: c for c in range(NCARD) if legal >> c & 1}
        live = 0
        for h in hands:
            live |= h
        for c in trick:
            live |= 1 << c
        own = hands[seat]
        nomerge = self.nomerge_mask
        points = self.points
        rep: dict[int, int] = {}
        for su in range(5):
            if not legal & self.suit_masks[su]:
                continue
            prev = -1
            head = -1
            for c in self.order[su]:
                b = 1 << c
                if not live & b:
                    continue
                if not own & b or not legal & b:
                    prev = -1
                    continue
                if prev >= 0 and not nomerge >> c & 1 and not nomerge >> prev & 1 and points[c] == points[prev]:
                    rep[c] = head
                else:
                    head = c
                    rep[c] = c
                prev = c
        rest = legal
        while rest:
            low = rest & -rest
            c = low.bit_length() - 1
            rest ^= low
            rep.setdefault(c, c)
        return rep


def plain_trick_rules(trump: int) -> TrickRules:
    """Bridge's trick rules, four players, 52 cards: follow suit, the highest trump or else the
    highest card of the led suit wins; ``trump`` 0–3 (S, H, D, C) or 4 for none.  Not a game of
    kirifuda: the common ground on which the solver is compared with DDS, and tested."""
    eff = [-1] * NCARD
    strength = [[0] * NCARD for _ in range(5)]
    for c in range(52):
        suit, rank = divmod(c, 13)
        eff[c] = suit
        for led in range(5):
            strength[led][c] = 100 + rank if suit == trump else (rank + 1 if suit == led else 0)
    return TrickRules(num_players=4, eff=tuple(eff), strength=tuple(tuple(r) for r in strength))
