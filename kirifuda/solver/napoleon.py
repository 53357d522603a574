"""Napoleon (ナポレオン) for the solver: trick rules per trump suit and options, and positions.

The value of a Napoleon position is the number of face cards (絵札: A K Q J T) the maximising
side (the Napoleon army: Napoleon and the adjutant; Napoleon alone when solo) takes from it on:
a trick is worth its face cards (``trick_base`` 0, each face card 1).

The card order of spec §6 as tables, with the generic core's *special tricks*
(:mod:`.rules`) for what tables cannot say:

- the almighty ♠A is the strongest card whatever is led (yoromeki ♥Q, an option, beats it in
  the same trick: a special rule);
- the main and the back jack keep their printed suit for following and are above every trump;
- trumps, then the led suit, by rank; anything else has strength 0, and so has the joker: a
  tie goes to the first played, so a led joker wins when nobody follows its named suit nor
  trumps (rule 8), and a joker played last never wins;
- the deal's first trick has its own table (``first``): the ace of the led suit (♠K when
  spades are led) just below the almighty; or, with ``first_trick_plain``, the almighty and
  the led suit by plain rank only;
- same-2 is special: it beats every card but the almighty (and the first-trick ace), never in
  a trick with the joker, never in the first trick under ``first_trick_plain``;
- the joker (where in use) is a multi-lead card (one lead per named suit) *restricted* to the
  lead or the last card in hand;
- ♠3 (where the joker is in use) is the *call card*: its lead may call the joker (the led value
  ``CALLED``, spades' tables), and whoever holds the joker must then play it to the trick.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from ..cards import JOKER_ID
from ..games.napoleon import FACE_MASK, HQ, S3, SA, SK, NapoleonState, Phase
from . import Work, solve_bounds, solve_moves
from .rules import CALLED, NCARD, TrickRules

__all__ = ["napoleon_rules", "horizon_power", "NapoleonPosition", "position_of", "army_seats"]

SAME_COLOUR = (3, 2, 1, 0)
ALMIGHTY = 1000
FIRST_ACE = 900
MAIN_JACK = 500
BACK_JACK = 490
TRUMP = 100
LED = 10


def _table(trump: int, led: int, c: int) -> int:
    if c == JOKER_ID:
        return 0
    if c == SA:
        return ALMIGHTY
    su, rank = divmod(c, 13)
    if c == trump * 13 + 9:
        return MAIN_JACK
    if c == SAME_COLOUR[trump] * 13 + 9:
        return BACK_JACK
    if su == trump:
        return TRUMP + rank
    if su == led:
        return LED + rank
    return 0


def _first_table(trump: int, led: int, c: int, plain: bool) -> int:
    if c == JOKER_ID:
        return 0
    if c == SA:
        return ALMIGHTY
    if plain:
        return LED + c % 13 if c // 13 == led else 0
    ace = SK if led == 0 else led * 13 + 12
    return FIRST_ACE if c == ace else _table(trump, led, c)


def horizon_power(trump: int, c: int) -> int:
    """A card's weight in the horizon's estimate of who takes the face cards left: the
    almighty, the jacks, the high trumps, side aces and kings."""
    if c == SA:
        return 8
    if c == JOKER_ID:
        return 0
    if c == trump * 13 + 9:
        return 6
    if c == SAME_COLOUR[trump] * 13 + 9:
        return 5
    su, rank = divmod(c, 13)
    if su == trump:
        return 2 + max(0, rank - 9)
    return 2 if rank == 12 else 1 if rank == 11 else 0


@lru_cache(maxsize=None)
def napoleon_rules(
    trump: int,
    players: int = 5,
    joker: bool = False,
    yoromeki: bool = False,
    first_trick_plain: bool = False,
    first: bool = False,
    horizon: int = 0,
) -> TrickRules:
    """The trick rules with ``trump`` (0 ♠ 1 ♥ 2 ♦ 3 ♣); ``first``: the root position's trick
    is the deal's first; ``horizon``: where positive, trick starts with that many cards per
    hand or fewer (but more than one) are estimated (:func:`horizon_power`), not searched."""
    eff = [-1] * NCARD
    strength = [[0] * NCARD for _ in range(5)]
    first_strength = [[0] * NCARD for _ in range(5)]
    points = [0] * NCARD
    cards = list(range(52)) + ([JOKER_ID] if joker else [])
    for c in cards:
        eff[c] = c // 13 if c < 52 else 4
        points[c] = FACE_MASK >> c & 1 if c < 52 else 0
        for led in range(4):
            strength[led][c] = _table(trump, led, c)
            first_strength[led][c] = _first_table(trump, led, c, first_trick_plain)
        strength[4][c] = strength[trump][c]
        first_strength[4][c] = first_strength[trump][c]
    jk = 1 << JOKER_ID if joker else 0
    jacks = 1 << (trump * 13 + 9) | 1 << (SAME_COLOUR[trump] * 13 + 9)
    return TrickRules(
        num_players=players,
        eff=tuple(eff),
        strength=tuple(tuple(r) for r in strength),
        multi_lead_mask=jk,
        lead_choices=(0, 1, 2, 3) if joker else (),
        trick_base=0,
        points=tuple(points),
        nomerge_mask=jacks,
        first_strength=tuple(tuple(r) for r in first_strength),
        first_trick=first,
        restricted_mask=jk,
        almighty=SA,
        yoromeki=HQ if yoromeki else -1,
        same2_mask=sum(1 << (s * 13) for s in range(4)),
        same2_max=FIRST_ACE - 1,
        first_same2_max=-1 if first_trick_plain else FIRST_ACE - 1,
        horizon=horizon,
        horizon_power=tuple(horizon_power(trump, c) if c in cards else 0 for c in range(NCARD)),
        call_card=S3 if joker else -1,
    )


@dataclass(frozen=True)
class NapoleonPosition:
    """A play position with every hand open: players in turn order (seats), ``maxside`` a mask
    of them (the Napoleon army), ``first`` whether the trick in progress (or about to be led)
    is the deal's first; ``led`` the led suit of the trick in progress (a joker lead's named
    suit; ``CALLED`` where ♠3 was led calling the joker)."""

    trump: int
    hands: tuple[int, ...]
    leader: int
    trick: tuple[int, ...]
    led: int
    maxside: int
    first: bool = False
    joker: bool = False
    yoromeki: bool = False
    first_trick_plain: bool = False
    horizon: int = 0
    """Where positive, trick starts with this many cards per hand or fewer are estimated."""

    @property
    def rules(self) -> TrickRules:
        return napoleon_rules(
            self.trump, len(self.hands), self.joker, self.yoromeki, self.first_trick_plain, self.first, self.horizon
        )

    def estimate(self, max_nodes: int = 0, guess: int = -1) -> float:
        lo, hi = solve_bounds(
            self.rules,
            self.hands,
            self.leader,
            self.trick,
            self.led if self.trick else 4,
            self.maxside,
            None,
            guess,
            max_nodes,
        )
        return lo if lo == hi else (lo + hi) / 2

    def move_values(
        self, max_nodes: int = 0, guess: int = -1, work: Work | None = None
    ) -> dict[tuple[int, int], float]:
        """``{(card, led): value}``: the led suit a joker lead names (``CALLED``: ♠3 led calling
        the joker); else the trick's.  ``work``: the nodes searched are added to it."""
        return solve_moves(
            self.rules,
            self.hands,
            self.leader,
            self.trick,
            self.led if self.trick else 4,
            self.maxside,
            None,
            guess,
            max_nodes,
            work,
        )


_SUIT_INDEX = {"S": 0, "H": 1, "D": 2, "C": 3}


def army_seats(napoleon: int, adjutant: int | None) -> int:
    """The Napoleon army as a mask of seats."""
    return 1 << napoleon | (1 << adjutant if adjutant is not None else 0)


def position_of(state: NapoleonState) -> NapoleonPosition:
    """The position of a Napoleon deal in play, every hand open (players are the seats)."""
    nap = state.napoleon
    assert state.phase is Phase.PLAY and nap is not None
    s = state
    opts = s.options
    trick = tuple(c for _, c in s._trick)
    leader = s._trick[0][0] if s._trick else s.to_act
    assert leader is not None
    return NapoleonPosition(
        trump=s._trump,
        hands=tuple(s._hands),
        leader=leader,
        trick=trick,
        led=(CALLED if s._called else s._led) if trick else 4,
        maxside=army_seats(nap, s._adjutant),
        first=not s._tricks,
        joker=opts.joker,
        yoromeki=opts.yoromeki,
        first_trick_plain=opts.first_trick_plain,
    )
