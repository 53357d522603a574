"""Meitora (明専トランプ, Meisen Trump): the Kyushu Institute of Technology's descendant of 500.

Exactly ``docs/meitora.md``.  Four players in two teams (seats 0+2 against 1+3), 41
cards (A–5 of each suit and the joker タンツェン), one round of bidding (吹く), the agari (アガリ)
and the negri (ネグリ), left jack and joker in the trump suit, must-follow with the joker free,
joker lead with a request (請求), claims (オープン), chombo (チョンボ), half-point scoring and the
match to 17.

The hot path works on card ids and bitmasks (see :mod:`kirifuda.cards`); the public API speaks
:class:`~kirifuda.cards.Card` and :mod:`~kirifuda.actions` values.

>>> import random
>>> s = MeitoraState(MeitoraOptions())
>>> s.deal_random(random.Random(7))
>>> s.phase, s.to_act, len(s.view(0).hand)
(<Phase.BIDDING: 'bidding'>, 0, 10)
"""

from __future__ import annotations

import os
import random
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Any, ClassVar, Literal, Mapping, Sequence

from ..actions import (
    BID_KIND,
    CLAIM,
    CLAIM_KIND,
    DISCARD_KIND,
    PASS,
    PLAY_KIND,
    REFUSED_CLAIM_KIND,
    Action,
    ActionFamily,
    ActionKind,
    Bid,
    Chombo,
    Claim,
    Discard,
    Pass,
    Play,
    RefusedClaim,
)
from ..cards import CARDS, JOKER, JOKER_ID, Card, MaskDecoder, Suit, cards_of, deck, ids_of
from ..dealing import check_deal
from ..errors import IllegalActionError, InvalidActionError, OptionError
from ..game import ActionSpace, GameInfo, GameState, Outcome, View, options_to_json, public_options, view_maker
from ..i18n import add_terms
from ..tricks import Trick, strongest


# -- the game's own actions (the shared ones are kirifuda.actions') ---------------------------


@dataclass(frozen=True, slots=True)
class Broken:
    """ブロークン: Meitora's weak-hand redeal, declared at the seat's bidding turn."""

    def to_json(self) -> dict[str, Any]:
        return {"broken": True}

    def label(self, lang: str = "en") -> str:
        return "ブロークン" if lang == "ja" else "broken (weak hand)"


BROKEN = Broken()


def _read_broken(d: Mapping[str, Any], seat: int | None) -> Action:
    if d["broken"] is not True:
        raise InvalidActionError(f"broken must be true, got {d['broken']!r}")
    return BROKEN


ACTION_KINDS: tuple[ActionKind, ...] = (
    PLAY_KIND,
    BID_KIND,
    DISCARD_KIND,
    CLAIM_KIND,
    REFUSED_CLAIM_KIND,
    ActionKind("broken", _read_broken, families=(ActionFamily("broken", lambda space: [(BROKEN, "broken")]),)),
)
"""Meitora's actions: a play (with the joker's request), a bid or a pass, ブロークン, the
declarer's discard, a claim (オープン) and, under ``claim_failure: "refuse"``, a refused claim."""

__all__ = [
    "Broken",
    "BROKEN",
    "ACTION_KINDS",
    "MeitoraOptions",
    "MeitoraState",
    "MeitoraView",
    "Phase",
    "INFO",
    "DECK",
    "STRAINS",
    "trick_winner",
    "led_suit",
    "is_weak_hand",
    "contract_score",
    "chombo_score",
]

# --------------------------------------------------------------------------------------------
# Options


@dataclass(frozen=True, kw_only=True)
class MeitoraOptions:
    """明専トランプのローカルルール (spec §10).  Defaults follow the spec's options table."""

    target: int = 17
    """Points to win the match (17点先取)."""
    claim_failure: Literal["chombo", "refuse"] = "chombo"
    """What an invalid claim (オープン) costs: a chombo, or it is refused and play goes on."""
    joker_lead: Literal["request", "trump"] = "request"
    """``request``: a joker lead names a suit or ``any``; ``trump`` (the later summary's rule): it asks for trump."""

    def __post_init__(self) -> None:
        if isinstance(self.target, bool) or not isinstance(self.target, int) or self.target < 1:
            raise OptionError(f"option target={self.target!r} must be a positive whole number")
        if self.claim_failure not in ("chombo", "refuse"):
            raise OptionError(f"option claim_failure={self.claim_failure!r} is not 'chombo' or 'refuse'")
        if self.joker_lead not in ("request", "trump"):
            raise OptionError(f"option joker_lead={self.joker_lead!r} is not 'request' or 'trump'")


# --------------------------------------------------------------------------------------------
# Cards and tables

DECK: tuple[Card, ...] = deck("56789TJQKA", joker=True)
DECK_IDS: tuple[int, ...] = tuple(c.id for c in DECK)
JK_BIT = 1 << JOKER_ID
STRAINS = "SCDHN"
"""Bid strains, weakest first: ♠ < ♣ < ♦ < ♥ < トラ (no-trump)."""
_TRUMP_OF_STRAIN = {"S": 0, "C": 3, "D": 2, "H": 1, "N": None}
_SAME_COLOUR = {0: 3, 3: 0, 1: 2, 2: 1}
NO_SUIT = 4


def _id(suit: int, rank: int) -> int:
    return suit * 13 + rank - 2


JACK_IDS = tuple(_id(s, 11) for s in range(4))
ALL_JACKS = sum(1 << i for i in JACK_IDS)
_HONOURS = {11, 12, 13, 14}
QUEEN_MASK = sum(1 << _id(s, 12) for s in range(4))
HONOUR_MASK = sum(1 << _id(s, r) for s in range(4) for r in _HONOURS)


def _build_tables() -> tuple[list[list[int]], list[list[int]], list[list[list[int]]]]:
    """Per strain: each card's effective suit, the mask of each effective suit, and the
    strength of each card by led suit (the joker 1000, trumps 100+, led suit its rank, else 0)."""
    eff_suit: list[list[int]] = []
    suit_masks: list[list[int]] = []
    strength: list[list[list[int]]] = []
    for strain in STRAINS:
        trump = _TRUMP_OF_STRAIN[strain]
        eff = [NO_SUIT] * 53
        for cid in DECK_IDS:
            if cid == JOKER_ID:
                eff[cid] = trump if trump is not None else NO_SUIT
            else:
                s, r = divmod(cid, 13)
                rank = r + 2
                if trump is not None and rank == 11 and s == _SAME_COLOUR[trump]:
                    eff[cid] = trump  # the left jack (副J) belongs to the trump suit
                else:
                    eff[cid] = s
        masks = [0] * 5
        for cid in DECK_IDS:
            masks[eff[cid]] |= 1 << cid
        by_led: list[list[int]] = []
        for led in range(5):
            st = [0] * 53
            for cid in DECK_IDS:
                if cid == JOKER_ID:
                    st[cid] = 1000
                    continue
                s, r = divmod(cid, 13)
                rank = r + 2
                if trump is not None and eff[cid] == trump:
                    if rank == 11:
                        st[cid] = 120 if s == trump else 119
                    else:
                        st[cid] = 100 + rank
                elif eff[cid] == led:
                    st[cid] = rank
            by_led.append(st)
        eff_suit.append(eff)
        suit_masks.append(masks)
        strength.append(by_led)
    return eff_suit, suit_masks, strength


EFF_SUIT, SUIT_MASKS, STRENGTH = _build_tables()
PLAYS: tuple[Play, ...] = tuple(Play(CARDS[i]) for i in range(53))
_PLAY_ITEMS = [PLAYS[i] if i in DECK_IDS else None for i in range(53)]
_PLAY_DECODER: MaskDecoder[Action] = MaskDecoder(_PLAY_ITEMS)
_PLAY_CLAIM_DECODER: MaskDecoder[Action] = MaskDecoder(_PLAY_ITEMS, suffix=(CLAIM,))
_DECODE_PLAYS_AND_CLAIM = _PLAY_CLAIM_DECODER.decode
_NO_JK_MASK = ~JK_BIT
JOKER_REQUESTS = ("S", "H", "D", "C", "any")
JOKER_LEADS: tuple[Play, ...] = tuple(Play(JOKER, r) for r in JOKER_REQUESTS)
_REQUEST_SUIT = {"S": 0, "H": 1, "D": 2, "C": 3, "any": NO_SUIT}
BIDS: tuple[Bid, ...] = tuple(Bid(c, s) for c in range(6, 11) for s in STRAINS)
"""Every bid, weakest first: strength is its index."""
_BID_INDEX = {b: i for i, b in enumerate(BIDS)}
# the legal bidding actions after the highest bid so far (index + 1; 0: no bid yet)
_BIDDING_ACTIONS: tuple[tuple[Action, ...], ...] = tuple((PASS,) + BIDS[h:] for h in range(len(BIDS) + 1))
_BIDDING_ACTIONS_BROKEN = tuple(a + (BROKEN,) for a in _BIDDING_ACTIONS)
_BIT = tuple(1 << i for i in range(53))
# the shared action instances, and where each stands (by object identity: the fast legality test)
DISCARDS: tuple[Discard | None, ...] = tuple(Discard((CARDS[i],)) if i in DECK_IDS else None for i in range(53))
_DISCARD_DECODER: MaskDecoder[Action] = MaskDecoder(DISCARDS)
_DISCARD_CARD = {id(d): i for i, d in enumerate(DISCARDS) if d is not None}
_BID_POSITION = {id(b): i for i, b in enumerate(BIDS)}


class Phase(str, Enum):
    """The phases of a Meitora match."""

    DEAL = "deal"
    """Waiting for the next deal's cards (a chance node)."""
    BIDDING = "bidding"
    DISCARD = "discard"
    PLAY = "play"
    DONE = "done"
    """The match is over."""


_PLAY = Phase.PLAY


def led_suit(lead: Card, strain: str, request: str | None = None) -> int:
    """The effective suit index (0 ♠ 1 ♥ 2 ♦ 3 ♣, 4 none) a lead asks the others to follow.

    A joker lead asks for its request (``any``: nothing); under ``joker_lead=trump`` pass the
    trump suit's letter as the request (or ``any`` in no-trump)."""
    if lead.id == JOKER_ID:
        return _REQUEST_SUIT[request or "any"]
    return EFF_SUIT[STRAINS.index(strain)][lead.id]


def trick_winner(trick: Trick, strain: str, request: str | None = None) -> int:
    """The seat that wins a trick in a contract of ``strain`` (``S C D H N``): the joker if
    played, else the highest trump, else the highest card of the led suit (spec §5)."""
    led = led_suit(trick.plays[0][1], strain, request)
    strength = STRENGTH[STRAINS.index(strain)][led]
    return trick.winner(lambda seat, card: strength[card.id])


def contract_score(count: int, tricks: int) -> tuple[int, int]:
    """A played deal's score in half points: ``(declaring team, other team)`` for a contract of
    ``count`` when the declaring team took ``tricks`` (claimed tricks included).  入る: X − 5 +
    (Y − X)/2 to the declaring team; 落ちる: X − Y to the other team.

    >>> contract_score(7, 8), contract_score(8, 6)
    ((5, 0), (0, 4))
    """
    points = deal_points(count, tricks)
    return (round(2 * points), 0) if points > 0 else (0, round(-2 * points))


def chombo_score(seat: int) -> list[int]:
    """A chombo by ``seat``, in half points per team: 5 points to the other team."""
    score = [0, 0]
    score[1 - seat % 2] = 10
    return score


def _points(half: int) -> int | float:
    """Half-points to a JSON number: 5 → 2.5, 4 → 2."""
    return half // 2 if half % 2 == 0 else half / 2


def is_weak_hand(hand: Sequence[Card]) -> bool:
    """ブロークン: no A, K, Q, J at all, or a single Q as the only one (the joker does not count)."""
    honours = [c for c in hand if not c.is_joker and c.rank >= 11]
    return not honours or (len(honours) == 1 and honours[0].rank == 12)


def _weak_mask(m: int) -> bool:
    h = m & HONOUR_MASK
    return h == 0 or (h & (h - 1) == 0 and h & QUEEN_MASK != 0)


# --------------------------------------------------------------------------------------------
# The view


@dataclass(frozen=True, kw_only=True)
class MeitoraView(View):
    """What one seat of a Meitora table sees."""

    first_bidder: int | None
    bids: tuple[tuple[int, Action], ...]
    """This deal's bidding so far: ``(seat, bid / pass / broken)``."""
    declarer: int | None
    contract: Bid | None
    agari: Card | None = None
    """The agari card: the declarer's only, once taken."""
    negri: Card | None = None
    """The negri: the declarer's only, until the deal ends."""
    trick: Trick | None = None
    """The trick being played (``None`` between tricks)."""
    joker_request: str | None = None
    """The request of a joker lead in the current trick."""
    last_trick: Trick | None = None
    """The trick just completed, visible until the next card is played."""
    last_trick_winner: int | None = None
    tricks_played: int = 0
    team_tricks: tuple[int, int] = (0, 0)
    own_team_tricks: tuple[Trick, ...] = ()
    """The tricks the seat's own team has taken (the other team's are face down: counts only)."""
    last_deal: Mapping[str, Any] | None = None
    """The result of the previous deal, with every hand, the agari and the negri face up."""
    target: int = 17
    last_trick_request: str | None = None
    """The request of ``last_trick`` where the joker led it (``joker_lead=request``)."""
    own_team_requests: tuple[str | None, ...] = ()
    """The request of each of ``own_team_tricks`` that the joker led, else None."""
    shown_hands: tuple[tuple[Card, ...], ...] = ()
    """Hands face up for everyone, per seat: the cards now held by each seat whose claim was
    refused this deal (``claim_failure=refuse``: a claimant shows their hand), ``()`` for the
    others; ``()`` as a whole while no hand is shown."""

    SEAT_FIELDS: ClassVar[frozenset[str]] = frozenset({"to_act", "first_bidder", "declarer", "last_trick_winner"})

    def sort_hand(self) -> tuple[Card, ...]:
        """Trumps first in trump order (joker, right jack, left jack, A …), then ♠ ♥ ♦ ♣."""
        strain = STRAINS.index(self.contract.strain) if self.contract is not None else 4
        trump = _TRUMP_OF_STRAIN[STRAINS[strain]]
        eff = EFF_SUIT[strain]

        def key(c: Card) -> tuple[int, int]:
            s = eff[c.id]
            if trump is not None and s == trump:
                return (-1, -STRENGTH[strain][trump][c.id])
            if c.id == JOKER_ID:
                return (-2, 0)
            return (s, -(c.id % 13))

        return tuple(sorted(self.hand, key=key))


_make_view = view_maker(MeitoraView)
"""Makes a MeitoraView as ``MeitoraView(**fields)`` does, faster (:func:`~kirifuda.game.view_maker`)."""


add_terms(
    fields={
        "first_bidder": ("吹き始め", "first bidder"),
        "bids": ("吹き", "bidding"),
        "declarer": ("吹き上げた人 (宣言者)", "declarer"),
        "contract": ("コントラクト", "contract"),
        "agari": ("アガリ", "agari (kitty)"),
        "negri": ("ネグリ", "negri (discard)"),
        "joker_request": ("ジョーカーの請求", "joker request"),
        "tricks_played": ("済んだ場", "tricks played"),
        "last_trick_winner": ("直前の場を取った人", "last trick taken by"),
        "team_tricks": ("チームの取り数", "tricks per team"),
        "own_team_tricks": ("味方の取り札", "your team's tricks"),
        "last_trick_request": ("直前の場のジョーカーの請求", "joker request of the last trick"),
        "own_team_requests": ("味方の取り札のジョーカーの請求", "joker requests of your team's tricks"),
        "target": ("目標点", "target"),
        "broken": ("ブロークン", "broken"),
        "chombo": ("チョンボ", "chombo"),
        "failed_claim": ("オープン失敗", "failed claim"),
        "rest": ("アガリ", "agari"),
    },
    game="meitora",
)


# --------------------------------------------------------------------------------------------
# The state


_CORE_API = 2
"""The interface version of ``_meitora_core.c`` this module expects (its ``CORE_API``)."""


def _py_deal_masks(randomness: bytes) -> tuple[int, int, int, int, int]:
    """Shuffle the 41 cards (Fisher-Yates, each swap drawn from a 64-bit little-endian word of
    ``randomness``) and deal them: four hands of ten as masks, then the agari.  The C core's
    ``deal_masks`` does the same, so a seed deals the same cards either way."""
    ids = list(DECK_IDS)
    for i in range(40, 0, -1):
        x = int.from_bytes(randomness[(40 - i) * 8 : (41 - i) * 8], "little")
        j = (x * (i + 1)) >> 64
        ids[i], ids[j] = ids[j], ids[i]
    bit = _BIT.__getitem__
    return (
        sum(map(bit, ids[0:10])),
        sum(map(bit, ids[10:20])),
        sum(map(bit, ids[20:30])),
        sum(map(bit, ids[30:40])),
        ids[40],
    )


class _PlayCore:
    """The hot path of a Meitora state: the legal card plays of the seat to act and the checked
    play of a card.  This is the pure-Python reference; ``_meitora_core.PlayCore`` (C, built at
    install time) does the same and is used where it was built.  Everything else is in
    :class:`_MeitoraRules`, which reaches these fields as attributes in either case."""

    __slots__ = (
        "_phase",
        "_to_act",
        "_legal",
        "_log",
        "_tricks",
        "_team_tricks",
        "_last",
        "_request",
        "_led",
        "_leader",
        "_strain",
        "_play_mask",
        "_claim_always",
        "_joker_request",
        "_hands",
        "_trick",
        "_declarer",
        "_high",
        "_bid_turns",
        "_negri",
    )

    _phase: Enum
    _to_act: int | None
    _legal: tuple[Action, ...] | None
    _log: list[tuple[int, Action]]
    _tricks: list[tuple[int, tuple[int, ...], int]]
    _team_tricks: list[int]
    _last: tuple[int, tuple[int, ...], int] | None
    _request: str | None
    _led: int
    _leader: int
    _strain: int
    _play_mask: int
    """The legal-card mask of the seat to act, while ``_legal`` is cached (else -1)."""
    _claim_always: bool
    """Under ``claim_failure=chombo`` a claim is always a legal action."""
    _joker_request: bool
    """``joker_lead=request``: a joker lead names its request."""
    _hands: Sequence[int]
    """The four hands as card masks (replace it whole, or use ``_set_hand``)."""
    _trick: list[tuple[int, int]]
    """The trick being played: ``(seat, card id)``."""
    _declarer: int | None
    _high: int
    """The index in ``BIDS`` of the highest bid so far (-1: none)."""
    _bid_turns: int
    _negri: int

    @property
    def to_act(self) -> int | None:
        return self._to_act

    def _set_hand(self, seat: int, mask: int) -> None:
        hands = list(self._hands)
        hands[seat] = mask
        self._hands = hands

    if TYPE_CHECKING:  # provided by _MeitoraRules

        def _compute_legal(self) -> tuple[Action, ...]: ...

        def _apply_slow(self, action: Action, seat: int | None) -> None: ...

        def _score_played(self) -> None: ...

    def legal_actions(self) -> tuple[Action, ...]:
        legal = self._legal
        if legal is not None:
            return legal
        if self._phase is _PLAY and self._claim_always:
            # the hot path, inlined: a hand without the joker (no joker lead, no trick-9 rule)
            assert self._to_act is not None
            hand = self._hands[self._to_act]
            if not hand & JK_BIT:
                m = hand
                if self._trick and self._led != NO_SUIT:  # legal_play_mask, without the joker
                    follow = hand & SUIT_MASKS[self._strain][self._led]
                    if follow:
                        m = follow
                self._play_mask = m
                legal = self._legal = _DECODE_PLAYS_AND_CLAIM(m)
                return legal
        legal = self._legal = self._compute_legal()
        return legal

    def _legal_play_mask(self, seat: int) -> int:
        return legal_play_mask(self._hands[seat], self._led if self._trick else NO_SUIT, SUIT_MASKS[self._strain])

    def apply(self, action: Action, seat: int | None = None) -> None:
        """Check the action, then carry it out; a refused action leaves the state unchanged.

        The common case, a card play, is checked against the legal-card mask and carried out
        inline (the engine's hot path); everything else goes through ``check``."""
        if type(action) is Play and self._phase is _PLAY:
            to_act = self._to_act
            if (seat is None or seat == to_act) and not action.call_joker:
                assert to_act is not None
                mask = self._play_mask
                if mask < 0:
                    mask = self._legal_play_mask(to_act)
                cid = action.card.id
                if mask >> cid & 1:
                    trick = self._trick
                    req = action.request
                    if cid == JOKER_ID and not trick and self._joker_request:
                        ok = req in _REQUEST_SUIT
                    else:
                        ok = req is None
                    if ok:
                        self._legal = None
                        self._play_mask = -1
                        self._log.append((to_act, action))
                        self._play(to_act, cid, req)
                        return
        self._apply_slow(action, seat)

    def _play(self, seat: int, cid: int, req: str | None) -> None:
        """Carry out a checked card play: the card leaves the hand; a full trick is resolved."""
        self._set_hand(seat, self._hands[seat] ^ 1 << cid)
        trick = self._trick
        if not trick:
            self._last = None
            if cid == JOKER_ID:
                if req is None:  # joker_lead == "trump": asks for trump (nothing in no-trump)
                    t = _TRUMP_OF_STRAIN[STRAINS[self._strain]]
                    self._led = NO_SUIT if t is None else t
                else:
                    self._led = _REQUEST_SUIT[req]
                self._request = req
            else:
                self._led = EFF_SUIT[self._strain][cid]
                self._request = None
        trick.append((seat, cid))
        if len(trick) < 4:
            self._to_act = (seat + 1) % 4
            return
        best_seat = strongest(trick, STRENGTH[self._strain][self._led])[0]
        cards = (trick[0][1], trick[1][1], trick[2][1], trick[3][1])
        done = (self._leader, cards, best_seat)
        self._tricks.append(done)
        self._last = done
        self._team_tricks[best_seat & 1] += 1
        self._trick = []
        if len(self._tricks) == 10:
            self._score_played()
            return
        self._leader = best_seat
        self._to_act = best_seat


if TYPE_CHECKING:

    class _RulesBase(_PlayCore, GameState):
        """For the type checker: the rules see the play core's fields and methods."""
else:
    _RulesBase = GameState


def legal_play_mask(hand: int, led: int, suit_masks: Sequence[int]) -> int:
    """§5, must-follow: the cards of ``hand`` (a mask) that may be played to a trick whose led
    effective suit is ``led`` (``NO_SUIT`` for a lead, or after a joker lead asking nothing),
    ``suit_masks`` the effective suits' cards under the strain.  A hand holding a card of the led
    suit plays one of them or the joker; the joker may not be kept to the end (with two cards
    left it must be played).  The engine and the claim check use it; the C play core and the
    engine's inlined hot path (a hand without the joker) are checked against it by the tests."""
    if hand & JK_BIT and hand.bit_count() == 2:
        return JK_BIT
    if led == NO_SUIT:
        return hand
    follow = hand & suit_masks[led]
    return follow | (hand & JK_BIT) if follow else hand


def deal_points(count: float, tricks: float) -> float:
    """§7, the deal's points for the declarer's team minus the defenders' (X the contract's
    count, Y the team's tricks): made (入る, Y ≥ X) ``X − 5 + (Y − X)/2`` to the declarer's team;
    set (落ちる) ``X − Y`` to the other team, i.e. ``−(X − Y)``.  The engine scores deals with it
    (in half points); the search bot weighs sampled outcomes with it (``tricks`` an average)."""
    if tricks >= count:
        return count - 5 + (tricks - count) / 2
    return -(count - tricks)


class _MeitoraRules(_RulesBase):
    """The rules of a Meitora match; the hot path is in the play core (see ``MeitoraState``)."""

    game_id = "meitora"
    DEAL_PHASE = Phase.DEAL
    DONE_PHASE = Phase.DONE
    num_players = 4
    COPY_FIELDS = (
        "options",
        "first",
        "_claim_always",
        "_joker_request",
        "_phase",
        "_to_act",
        "_deal_no",
        "_first_bidder",
        "_totals",
        "_results",
        "_last_deal_cache",
        "_log",
        "_dealt",
        "_agari",
        "_hands",
        "_bid_turns",
        "_high",
        "_declarer",
        "_negri",
        "_leader",
        "_trick",
        "_led",
        "_request",
        "_tricks",
        "_team_tricks",
        "_legal",
        "_play_mask",
        "_last",
        "_shown",
        "_strain",
        "_eff",
        "_masks",
        "_strength",
    )
    """The play core's fields (C or Python) and the rules' own (``__dict__``): copied by the
    ``copy()`` the core generates, the lists below each its own."""
    COPY_LISTS = ("_totals", "_log", "_trick", "_tricks", "_team_tricks")

    def __init__(self, options: MeitoraOptions | None = None, first: int = 0) -> None:
        self.options = options or MeitoraOptions()
        if not isinstance(first, int) or isinstance(first, bool) or not 0 <= first < 4:
            raise OptionError(f"first must be a seat 0-3, got {first!r}")
        self.first = first
        self._claim_always = self.options.claim_failure == "chombo"
        self._joker_request = self.options.joker_lead == "request"
        self._phase = Phase.DEAL
        self._to_act: int | None = None
        self._deal_no = 0
        self._first_bidder = first
        self._totals = [0, 0]  # half points
        self._results: tuple[_DealLog, ...] = ()
        self._last_deal_cache: tuple[_DealLog, dict[str, Any]] | None = None
        self._reset_deal()

    def _reset_deal(self) -> None:
        self._log: list[tuple[int, Action]] = []
        self._shown: tuple[int, ...] = ()
        """Seats whose claim was refused this deal: their hands lie face up."""
        self._dealt: tuple[tuple[int, ...] | int, ...] = ()
        """The hands as dealt: card ids in the order given, or a mask (written in display order)."""
        self._agari = -1
        self._hands = [0, 0, 0, 0]
        self._bid_turns = 0
        self._high = -1
        self._declarer: int | None = None
        self._strain = 4
        self._negri = -1
        self._leader = 0
        self._trick: list[tuple[int, int]] = []
        self._led = NO_SUIT
        self._request: str | None = None
        self._tricks: list[tuple[int, tuple[int, ...], int]] = []
        self._team_tricks = [0, 0]
        self._legal: tuple[Action, ...] | None = None
        self._play_mask = -1
        self._last: tuple[int, tuple[int, ...], int] | None = None
        self._set_strain(4)

    def _set_strain(self, strain: int) -> None:
        self._strain = strain
        self._eff = EFF_SUIT[strain]
        self._masks = SUIT_MASKS[strain]
        self._strength = STRENGTH[strain]

    # -- properties ----------------------------------------------------------------------
    @property
    def first_bidder(self) -> int:
        return self._first_bidder

    @property
    def declarer(self) -> int | None:
        return self._declarer

    @property
    def contract(self) -> Bid | None:
        return BIDS[self._high] if self._phase in (Phase.DISCARD, Phase.PLAY) else None

    @property
    def trump(self) -> Suit | None:
        """The trump suit of the contract (``None`` in no-trump or before the contract)."""
        t = _TRUMP_OF_STRAIN[STRAINS[self._strain]]
        return None if t is None or self.contract is None else Suit("SHDC"[t])

    def hand(self, seat: int) -> tuple[Card, ...]:
        """A seat's cards (the whole state: for the engine, tests and solvers, not for players)."""
        return cards_of(self._hands[seat])

    @property
    def tricks(self) -> tuple[tuple[Trick, int], ...]:
        """This deal's completed tricks with their winners."""
        return tuple((_trick_of(leader, cards), w) for leader, cards, w in self._tricks)

    @property
    def team_tricks(self) -> tuple[int, int]:
        return (self._team_tricks[0], self._team_tricks[1])

    @property
    def totals(self) -> tuple[int | float, int | float]:
        return (_points(self._totals[0]), _points(self._totals[1]))

    # -- dealing -------------------------------------------------------------------------
    def deal(self, hands: Sequence[Sequence[Card | str]], rest: Sequence[Card | str]) -> None:
        self._require_deal()
        masks, rest_ids = check_deal(hands, rest, DECK, (10, 10, 10, 10), 1)
        self._start_deal(masks, rest_ids[0], tuple(tuple(_ids_in_order(h)) for h in hands))

    def deal_random(self, rng: random.Random) -> None:
        self._require_deal()
        h0, h1, h2, h3, agari = _deal_masks(rng.randbytes(320))
        self._start_deal([h0, h1, h2, h3], agari, None)

    def _require_deal(self) -> None:
        if self._phase is not Phase.DEAL:
            raise IllegalActionError(
                None, "deal", "the match is over" if self._phase is Phase.DONE else "a deal is in progress"
            )

    def _start_deal(self, masks: list[int], agari: int, order: tuple[tuple[int, ...], ...] | None) -> None:
        self._reset_deal()
        self._hands = list(masks)
        self._agari = agari
        self._dealt = order if order is not None else tuple(masks)  # masks: ordered when written
        self._phase = Phase.BIDDING
        self._to_act = self._first_bidder
        for seat in range(4):
            if masks[seat] & ALL_JACKS == ALL_JACKS:  # four jacks broken: automatic
                self._end_deal("redeal", [0, 0], broken=seat)
                return

    # -- legal actions -------------------------------------------------------------------
    def _compute_legal(self) -> tuple[Action, ...]:
        phase = self._phase
        if phase is Phase.PLAY:
            return self._play_actions()
        if phase is Phase.BIDDING:
            seat = self._to_act
            assert seat is not None
            if _weak_mask(self._hands[seat]):
                return _BIDDING_ACTIONS_BROKEN[self._high + 1]
            return _BIDDING_ACTIONS[self._high + 1]
        if phase is Phase.DISCARD:
            assert self._to_act is not None
            return _DISCARD_DECODER.decode(self._hands[self._to_act])
        return ()

    def _play_actions(self) -> tuple[Action, ...]:
        seat = self._to_act
        assert seat is not None
        m = self._play_mask = self._legal_play_mask(seat)
        claim = self.options.claim_failure == "chombo" or self._claim_is_valid(seat)
        if m & JK_BIT and not self._trick and self.options.joker_lead == "request":
            plays = _PLAY_DECODER.decode(m & _NO_JK_MASK) + JOKER_LEADS
            return plays + (CLAIM,) if claim else plays
        return (_PLAY_CLAIM_DECODER if claim else _PLAY_DECODER).decode(m)

    def attempt_actions(self) -> tuple[Action, ...]:
        """Under ``claim_failure=refuse``, the claim in the play: whether it holds depends on
        the other hands, so a view offers it at every turn and ``apply`` refuses it when it
        fails (under ``chombo`` a claim is simply legal)."""
        if self._claim_always or self._phase is not Phase.PLAY:
            return ()
        return (CLAIM,)

    def _offered_actions(self) -> tuple[Action, ...]:
        """The seat to act's legal actions as it can know them: the claim offered always."""
        legal = self.legal_actions()
        if self._claim_always or self._phase is not Phase.PLAY or CLAIM in legal:
            return legal
        return legal + (CLAIM,)

    def _why_illegal(self, action: Action) -> str:
        phase = self._phase
        seat = self._to_act
        assert seat is not None
        if isinstance(action, Play):
            if phase is not Phase.PLAY:
                return f"cards are played only in the play phase (now: {phase.value})"
            card = action.card
            if card.id not in DECK_IDS:
                return f"{card.code} is not a Meitora card"
            if not self._hands[seat] >> card.id & 1:
                return f"seat {seat} does not hold {card.code}"
            if action.call_joker:
                return "Meitora has no joker call"
            if card.is_joker and not self._trick:
                if self.options.joker_lead == "request":
                    if action.request is None:
                        return "a joker lead names a request: S, H, D, C or any"
                elif action.request is not None:
                    return "with joker_lead=trump a joker lead carries no request (it asks for trump)"
            elif action.request is not None:
                return "only a joker lead carries a request"
            hand = self._hands[seat]
            if hand & JK_BIT and hand.bit_count() == 2 and not card.is_joker:
                return "the joker may not be kept to the end: it must be played in trick 9"
            if self._trick and self._led != NO_SUIT:
                suit = "SHDC"[self._led]
                return f"must follow {Suit(suit).symbol} ({suit}), or play the joker" + (
                    " (the joker lead requested it)" if CARDS[self._trick[0][1]].is_joker else ""
                )
            return "not a legal card now"
        if isinstance(action, (Bid, Pass, Broken)):
            if phase is not Phase.BIDDING:
                return f"the bidding is over (now: {phase.value})"
            if isinstance(action, Broken):
                return (
                    "broken needs a hand with no A, K, Q or J, or a single Q as the only one (the joker does not count)"
                )
            if isinstance(action, Bid):
                if action.strain not in STRAINS or not 6 <= action.count <= 10:
                    return "a bid is a count 6–10 and a strain S < C < D < H < N"
                high = BIDS[self._high].text
                return f"{action.text} is not stronger than the highest bid {high}"
        if isinstance(action, Discard):
            if phase is not Phase.DISCARD:
                return "only the declarer discards the negri, after taking the agari"
            return f"the negri is exactly one card of the declarer's {self._hands[seat].bit_count()}"
        if isinstance(action, Claim):
            if phase is not Phase.PLAY:
                return "a claim (open) is made on one's turn in the play"
            return (
                "the claim is not valid: the others can still take a trick "
                "(claim_failure=refuse: refused, play goes on)"
            )
        return f"{type(action).__name__} is not a Meitora action"

    def check(self, action: Action, seat: int | None = None) -> None:
        if type(action) is RefusedClaim:
            self._check_refused_claim(action, seat)
            return
        super().check(action, seat)

    def _check_refused_claim(self, action: RefusedClaim, seat: int | None) -> None:
        """A refused claim: a claim that fails, under ``claim_failure=refuse``, once a deal
        per seat (a second one would show nothing new)."""
        to_act = self._to_act
        if to_act is None:
            raise IllegalActionError(seat, action, self._no_turn_reason())
        if seat is not None and seat != to_act:
            raise IllegalActionError(seat, action, f"it is seat {to_act}'s turn, not seat {seat}'s")
        if self._phase is not Phase.PLAY:
            raise IllegalActionError(to_act, action, "a claim (open) is made on one's turn in the play")
        if self.options.claim_failure != "refuse":
            raise IllegalActionError(
                to_act,
                action,
                "a claim is refused only under claim_failure=refuse (under chombo a failed claim is a chombo)",
            )
        if to_act in self._shown:
            raise IllegalActionError(
                to_act,
                action,
                "the claim is not valid, and this hand already lies face up: a claim that fails again changes nothing",
            )
        if self._claim_is_valid(to_act):
            raise IllegalActionError(to_act, action, "the claim holds: it is a claim, not a refused one")

    def _check_chombo(self, action: Chombo) -> None:
        if self._phase not in (Phase.BIDDING, Phase.DISCARD, Phase.PLAY):
            raise IllegalActionError(action.seat, action, "a chombo is recorded during a deal")
        if not isinstance(action.seat, int) or not 0 <= action.seat < 4:
            raise IllegalActionError(action.seat, action, "a chombo names a seat 0-3")

    # -- applying ------------------------------------------------------------------------
    def _apply_slow(self, action: Action, seat: int | None) -> None:
        """``apply`` for everything but a legal card play (which the play core does itself).
        The shared instances that ``legal_actions`` hands out are recognised by identity."""
        to_act = self._to_act
        if seat is None or seat == to_act:
            phase = self._phase
            if phase is Phase.BIDDING:
                position = _BID_POSITION.get(id(action))
                if action is PASS or (position is not None and position > self._high):
                    self._apply(action)
                    return
            elif phase is Phase.DISCARD and to_act is not None:
                cid = _DISCARD_CARD.get(id(action))
                if cid is not None and self._hands[to_act] >> cid & 1:
                    self._apply(action)
                    return
        if type(action) is not Chombo and (seat is None or seat == to_act) and action in self.legal_actions():
            self._apply(action)
            return
        self.check(action, seat)
        self._apply(action)

    def _apply(self, action: Action) -> None:
        self._legal = None
        self._play_mask = -1
        seat = self._to_act
        if type(action) is Play:
            assert seat is not None
            self._log.append((seat, action))
            self._play(seat, action.card.id, action.request)
            return
        if isinstance(action, Chombo):
            self._log.append((action.seat, action))
            self._end_deal("chombo", chombo_score(action.seat), chombo=action.seat)
            return
        assert seat is not None
        self._log.append((seat, action))
        if isinstance(action, Bid):
            self._high = _BID_INDEX[action]
            self._declarer = seat
            self._next_bidder()
        elif isinstance(action, Pass):
            self._next_bidder()
        elif isinstance(action, Broken):
            self._end_deal("redeal", [0, 0], broken=seat)
        elif isinstance(action, Discard):
            cid = action.cards[0].id
            self._set_hand(seat, self._hands[seat] & ~(1 << cid))
            self._negri = cid
            self._phase = Phase.PLAY
            self._leader = seat
        elif isinstance(action, RefusedClaim):
            # the claimant shows their hand; play goes on with the same seat to act
            self._shown = self._shown + (seat,)
        elif isinstance(action, Claim):
            if self._claim_is_valid(seat):
                remaining = 10 - len(self._tricks)
                self._team_tricks[seat % 2] += remaining
                self._score_played()
            else:
                self._end_deal("chombo", chombo_score(seat), chombo=seat, failed_claim=True)

    def _next_bidder(self) -> None:
        self._bid_turns += 1
        assert self._to_act is not None
        if self._bid_turns < 4:
            self._to_act = (self._to_act + 1) % 4
            return
        self._end_bidding()

    def _end_bidding(self) -> None:
        """The round is complete: all pass, or the declarer takes the agari (四枚 J: redeal)."""
        declarer = self._declarer
        if declarer is None:  # all pass: 流れ
            self._end_deal("redeal", [0, 0])
            return
        self._set_strain(STRAINS.index(BIDS[self._high].strain))
        self._set_hand(declarer, self._hands[declarer] | 1 << self._agari)
        if self._hands[declarer] & ALL_JACKS == ALL_JACKS:  # four jacks after the agari
            self._end_deal("redeal", [0, 0], broken=declarer)
            return
        self._phase = Phase.DISCARD
        self._to_act = declarer

    def _score_played(self) -> None:
        declarer = self._declarer
        assert declarer is not None
        ours, theirs = contract_score(BIDS[self._high].count, self._team_tricks[declarer % 2])
        score = [0, 0]
        score[declarer % 2] = ours
        score[1 - declarer % 2] = theirs
        self._end_deal("played", score)

    def _end_deal(
        self,
        outcome: str,
        score: list[int],
        broken: int | None = None,
        chombo: int | None = None,
        failed_claim: bool = False,
    ) -> None:
        self._results = self._results + (self._snapshot(outcome, score, broken, chombo, failed_claim),)
        self._close_deal(score, broken)

    def end_scored_deal(self, log: Any, score: list[int], broken: int | None) -> None:
        """End a deal entered by its facts (a scored deal of a record): ``log`` gives its replay
        and record JSON, ``score`` is in half points; ``broken`` keeps the first bidder."""
        self._require_deal()
        self._results = self._results + (log,)
        self._close_deal(score, broken)

    def _close_deal(self, score: list[int], broken: int | None) -> None:
        self._totals = [self._totals[0] + score[0], self._totals[1] + score[1]]
        self._deal_no += 1
        if broken is None:
            self._first_bidder = (self._first_bidder + 1) % 4
        self._to_act = None
        self._legal = None
        self._trick = []
        if max(self._totals) >= 2 * self.options.target:
            self._phase = Phase.DONE
        else:
            self._phase = Phase.DEAL

    def _snapshot(
        self,
        outcome: str,
        score: list[int],
        broken: int | None = None,
        chombo: int | None = None,
        failed_claim: bool = False,
    ) -> "_DealLog":
        # the declarer is decided once the round of bidding is complete with a bid: a redeal
        # whose bidding never ended has no declarer, but four jacks found after the agari
        # (the only redeal with a broken seat once the round is complete) keeps the declarer and
        # contract, with the team tricks at [0, 0] and ``broken`` the declarer's seat
        decided = self._bid_turns >= 4 and (outcome != "redeal" or broken is not None)
        return _DealLog(
            outcome,
            score,
            broken,
            chombo,
            failed_claim,
            self._log,
            self._dealt,
            self._agari,
            self._negri,
            self._tricks,
            self._team_tricks[:],
            self._declarer if decided else None,
            self._high,
            self._first_bidder,
        )

    # -- claims (オープン) ----------------------------------------------------------------
    def _claim_is_valid(self, claimant: int) -> bool:
        """Can ``claimant`` win every remaining trick, the current one included, whatever the
        other three play?  A complete search of the remaining play, where a defender's cards of
        one effective suit are merged into the lowest one (a higher card of the same suit beats
        whatever a lower one beats, and obeys the same following rules).

        Three cases fail at once, as the search finds (``tests/games/test_meitora_claim_check.py``):
        another hand holds the joker (that seat plays it to this trick or a later one, and the
        joker takes any trick); or, the claimant without the joker, another hand holds a trump
        stronger than every trump of the claimant's (whenever that card is played, to a trump
        lead or as a ruff, no card of the claimant's beats it); or, no joker left and the
        claimant to lead, another hand holds a card of a suit the claimant holds, stronger than
        all of the claimant's in that suit (the claimant leads each of its cards; that seat
        follows the first lead of the suit with it)."""
        if _claim_fails_at_once(self._hands, claimant, self._strain, not self._trick):
            return False
        return _ClaimSearch(self, claimant).run()

    # -- seeing --------------------------------------------------------------------------
    def view(self, seat: int | None) -> MeitoraView:
        if seat is not None and not (isinstance(seat, int) and 0 <= seat < 4):
            raise ValueError(f"no seat {seat!r} at a Meitora table")
        phase = self._phase
        in_deal = phase in (Phase.BIDDING, Phase.DISCARD, Phase.PLAY)
        declarer = self._declarer if phase in (Phase.DISCARD, Phase.PLAY) else None
        is_declarer = seat is not None and seat == declarer
        trick = None
        if self._trick:
            trick = _trick_of(self._leader, tuple(c for _, c in self._trick))
        last = self._last if in_deal and not self._trick else None
        own: tuple[Trick, ...] = ()
        own_requests: tuple[str | None, ...] = ()
        made = self._made_tricks() if in_deal and self._tricks else None
        if seat is not None and made is not None:
            own, own_requests = made[3] if seat & 1 else made[2]
        return _make_view(
            options=public_options(self.options, self.options_json),
            game="meitora",
            seat=seat,
            phase=phase.value,
            to_act=self._to_act,
            deal_number=self._deal_no,
            hand=cards_of(self._hands[seat]) if seat is not None and in_deal else (),
            hand_sizes=tuple(h.bit_count() for h in self._hands) if in_deal else (0, 0, 0, 0),
            legal_actions=self._offered_actions() if seat is not None and seat == self._to_act else (),
            attempts=self.attempt_actions() if seat is not None and seat == self._to_act else (),
            totals=self.totals,
            first_bidder=self._first_bidder if in_deal else None,
            # the bidding is the log's first entries (a broken hand or a chombo ends the deal)
            bids=tuple(self._log[: self._bid_turns]) if in_deal else (),
            declarer=declarer,
            contract=self.contract if in_deal else None,
            agari=CARDS[self._agari] if is_declarer else None,
            negri=CARDS[self._negri] if is_declarer and self._negri >= 0 else None,
            trick=trick,
            joker_request=self._request if self._trick and self._trick[0][1] == JOKER_ID else None,
            last_trick=(made[1][-1] if made is not None and last is self._tricks[-1] else _trick_of(last[0], last[1]))
            if last
            else None,
            last_trick_winner=last[2] if last else None,
            tricks_played=len(self._tricks) if in_deal else 0,
            team_tricks=self.team_tricks if in_deal else (0, 0),
            own_team_tricks=own,
            last_deal=self._last_deal(),
            target=self.options.target,
            last_trick_request=self._request if last and last[1][0] == JOKER_ID else None,
            own_team_requests=own_requests,
            shown_hands=tuple(cards_of(self._hands[s]) if s in self._shown else () for s in range(4))
            if in_deal and self._shown
            else (),
        )

    _trick_views: "_TrickViews | None" = None
    """This deal's completed tricks as the views show them, made once each: the tricks list
    they were made from, every trick, then per team its tricks and their joker requests (not
    copied: a copy has its own tricks list and makes them again)."""

    def _made_tricks(
        self,
    ) -> "_TrickViews":
        """The completed tricks as views show them (:attr:`_trick_views`), brought up to date."""
        tricks = self._tricks
        made = self._trick_views
        if made is not None and made[0] is tricks and len(made[1]) == len(tricks):
            return made
        if made is None or made[0] is not tricks or len(made[1]) > len(tricks):
            made = (tricks, [], ((), ()), ((), ()))
        done = made[1]
        teams = [made[2], made[3]]
        for lead, cards, w in tricks[len(done) :]:
            t = _trick_of(lead, cards)
            done.append(t)
            own, requests = teams[w & 1]
            request = self._joker_lead_request() if cards[0] == JOKER_ID else None
            teams[w & 1] = (own + (t,), requests + (request,))
        made = self._trick_views = (tricks, done, teams[0], teams[1])
        return made

    def _last_deal(self) -> dict[str, Any] | None:
        """The previous deal's result, built once per deal: every view shares the mapping."""
        if not self._results:
            return None
        log = self._results[-1]
        cached = self._last_deal_cache
        if cached is None or cached[0] is not log:
            cached = self._last_deal_cache = (log, log.result())
        return cached[1]

    def _joker_lead_request(self) -> str | None:
        """The request of this deal's joker lead (the joker is played once a deal)."""
        for _, action in reversed(self._log):
            if isinstance(action, Play) and action.card.id == JOKER_ID:
                return action.request
        return None

    def unit_name(self, unit: int, lang: str = "en") -> str:
        """Teams: 0 is seats 0 and 2, 1 is seats 1 and 3."""
        return f"チーム{unit} (席{unit}・席{unit + 2})" if lang == "ja" else f"team {unit} (seats {unit} & {unit + 2})"

    def outcome(self) -> Outcome | None:
        if self._phase is not Phase.DONE:
            return None
        winner = 0 if self._totals[0] >= 2 * self.options.target else 1
        return Outcome(self.totals, winner)

    def _deal_in_progress(self) -> "_DealLog | None":
        if self._phase in (Phase.BIDDING, Phase.DISCARD, Phase.PLAY):
            return self._snapshot("in-progress", [0, 0])
        return None

    def summary(self) -> dict[str, Any]:
        deals = self.deal_summaries()
        out = self.outcome()
        return {
            "game": "meitora",
            "deals": deals,
            "totals": list(self.totals),
            "finished": out is not None,
            "winner": out.winner if out is not None else None,
        }

    # -- records -------------------------------------------------------------------------
    def options_json(self) -> dict[str, Any]:
        return options_to_json(self.options)

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickling (OpenSpiel serialises states): the play core's fields and the rest."""
        fields = {name: getattr(self, name) for name in _PlayCore.__slots__}
        fields.update(self.__dict__)
        return (_restore_state, (type(self), fields))


def _restore_state(cls: type[_MeitoraRules], fields: dict[str, Any]) -> _MeitoraRules:
    state = cls.__new__(cls)
    for name, value in fields.items():
        setattr(state, name, value)
    return state


_PURE_DOC = """A Meitora match on the pure-Python play core (the reference implementation)."""


C_CORE_MISSING: str | None
"""Why the C play core is not in use (``None`` where it is): :mod:`kirifuda.doctor` reports it."""
if TYPE_CHECKING:
    _CorePlayCore = _PlayCore
    _deal_masks = _py_deal_masks
    C_CORE_MISSING = None

    def _configure_core(*tables: object) -> None: ...
else:
    _CorePlayCore = _PlayCore
    _deal_masks = _py_deal_masks
    C_CORE_MISSING = "KIRIFUDA_PURE_PYTHON is set" if os.environ.get("KIRIFUDA_PURE_PYTHON") else None
    if not os.environ.get("KIRIFUDA_PURE_PYTHON"):
        try:
            from . import _meitora_core
        except ImportError as exc:  # built without a C compiler: the pure-Python core
            _meitora_core = None
            C_CORE_MISSING = f"kirifuda.games._meitora_core could not be imported: {exc}"
        if _meitora_core is not None and getattr(_meitora_core, "CORE_API", None) != _CORE_API:
            import warnings

            warnings.warn(
                "kirifuda: the Meitora C core was built from another version of the "
                "source; using the pure-Python core (reinstall: pip install -e .)",
                stacklevel=2,
            )
            _meitora_core = None
            C_CORE_MISSING = "kirifuda.games._meitora_core was built from another version of the source"
        if _meitora_core is not None:
            _CorePlayCore = _meitora_core.PlayCore
            _configure_core = _meitora_core.configure
            _deal_masks = _meitora_core.deal_masks


_DOC = """A Meitora match.  ``first`` is the first bidder (吹き始め) of deal 1.

    The play core is C where it was built at install time (``HAS_C_CORE``), else pure Python;
    set ``KIRIFUDA_PURE_PYTHON=1`` to force the pure-Python core."""

if TYPE_CHECKING:  # the type checker sees the play core through _MeitoraRules' base

    class PureMeitoraState(_MeitoraRules):
        __doc__ = _PURE_DOC

    class MeitoraState(_MeitoraRules):
        __doc__ = _DOC
else:

    class PureMeitoraState(_PlayCore, _MeitoraRules):
        __doc__ = _PURE_DOC

    class MeitoraState(_CorePlayCore, _MeitoraRules):
        __doc__ = _DOC


HAS_C_CORE = _CorePlayCore is not _PlayCore


_TeamTricks = tuple[tuple[Trick, ...], tuple[str | None, ...]]
_TrickViews = tuple[list[tuple[int, tuple[int, ...], int]], list[Trick], _TeamTricks, _TeamTricks]
"""A deal's completed tricks as views show them (:meth:`_MeitoraRules._made_tricks`)."""


@dataclass(frozen=True, slots=True)
class _DealLog:
    """A deal as it ended (or as it stands), kept raw: its summaries are built when asked for."""

    outcome: str
    score: list[int]
    broken: int | None
    chombo: int | None
    failed_claim: bool
    log: list[tuple[int, Action]]
    dealt: tuple[tuple[int, ...] | int, ...]
    agari: int
    negri: int
    tricks: list[tuple[int, tuple[int, ...], int]]
    team_tricks: list[int]
    declarer: int | None
    """The declarer, once the round of bidding is complete."""
    high: int
    first_bidder: int

    def hands(self) -> list[list[str]]:
        return [[CARDS[c].code for c in (_display_order(h) if isinstance(h, int) else h)] for h in self.dealt]

    def summary(self) -> dict[str, Any]:
        """The replay JSON of this deal (record spec §3)."""
        has_declarer = self.declarer is not None
        out: dict[str, Any] = {
            "outcome": self.outcome,
            "tricks": [
                {"leader": lead, "cards": [CARDS[c].code for c in cards], "winner": w} for lead, cards, w in self.tricks
            ],
            "score": [_points(self.score[0]), _points(self.score[1])],
            "declarer": self.declarer,
            "contract": BIDS[self.high].text if has_declarer else None,
            "team_tricks": list(self.team_tricks) if has_declarer else None,
            "broken": self.broken,
            "first_bidder": self.first_bidder,
        }
        if self.chombo is not None:
            out["chombo"] = self.chombo
            out["failed_claim"] = self.failed_claim
        return out

    def result(self) -> dict[str, Any]:
        """The summary with the cards shown face up at the deal's end."""
        out = self.summary()
        out["hands"] = self.hands()
        out["agari"] = CARDS[self.agari].code
        out["negri"] = CARDS[self.negri].code if self.negri >= 0 else None
        return out

    def record(self) -> dict[str, Any]:
        """The deal as a record deal: hands, rest, actions."""
        return {
            "hands": self.hands(),
            "rest": [CARDS[self.agari].code],
            "actions": [dict(seat=s, **a.to_json()) for s, a in self.log],
        }


def _trick_of(leader: int, cards: Sequence[int]) -> Trick:
    return Trick(leader, tuple(((leader + i) % 4, CARDS[c]) for i, c in enumerate(cards)))


def _ids_in_order(hand: Sequence[Card | str]) -> list[int]:
    from ..cards import parse_card

    return [parse_card(c).id for c in hand]


def _display_order(mask: int) -> tuple[int, ...]:
    """Suits ♠ ♥ ♦ ♣, each from the ace down, then the joker."""
    ids = [c.id for c in cards_of(mask)]
    ids.sort(key=lambda i: (i == JOKER_ID, i // 13, -(i % 13)))
    return tuple(ids)


# --------------------------------------------------------------------------------------------
# Claim search


def _claim_fails_at_once(hands: Sequence[int], claimant: int, strain: int, leads: bool) -> bool:
    """The quick failures of a claim (:meth:`_MeitoraRules._claim_is_valid`); ``leads``: the
    claimant is to lead (no card of the trick played yet)."""
    mine = hands[claimant]
    if mine & JK_BIT:
        return False
    others = 0
    for seat, hand in enumerate(hands):
        if seat != claimant:
            others |= hand
    if others & JK_BIT:
        return True
    trump = _TRUMP_OF_STRAIN[STRAINS[strain]]
    for suit in range(4) if leads else () if trump is None else (trump,):
        mask = SUIT_MASKS[strain][suit]
        theirs = others & mask
        if not theirs:
            continue
        ours = mine & mask
        if not ours:
            if suit == trump:
                return True
            continue
        order = STRENGTH[strain][suit]
        if max(order[c] for c in ids_of(theirs)) > max(order[c] for c in ids_of(ours)):
            return True
    return False


class _ClaimSearch:
    __slots__ = ("claimant", "eff", "masks", "strength", "memo", "hands", "trump_lead", "joker_mode", "_state")

    def __init__(self, state: _MeitoraRules, claimant: int) -> None:
        self.claimant = claimant
        self.eff = state._eff
        self.masks = state._masks
        self.strength = state._strength
        self.memo: dict[tuple[Any, ...], bool] = {}
        self.hands = list(state._hands)
        self.joker_mode = state.options.joker_lead
        t = _TRUMP_OF_STRAIN[STRAINS[state._strain]]
        self.trump_lead = NO_SUIT if t is None else t
        self._state: tuple[tuple[tuple[int, int], ...], int] = (tuple(state._trick), state._led)

    def run(self) -> bool:
        trick, led = self._state
        return self._node(tuple(self.hands), trick, led)

    def _legal(self, hand: int, trick: tuple[tuple[int, int], ...], led: int) -> int:
        return legal_play_mask(hand, led if trick else NO_SUIT, self.masks)

    def _winner(self, trick: tuple[tuple[int, int], ...], led: int) -> int:
        return strongest(trick, self.strength[led])[0]

    def _node(self, hands: tuple[int, ...], trick: tuple[tuple[int, int], ...], led: int) -> bool:
        claimant = self.claimant
        if len(trick) == 4:
            if self._winner(trick, led) != claimant:
                return False
            if not any(hands):
                return True
            return self._node(hands, (), NO_SUIT)
        key = (hands, trick, led)
        hit = self.memo.get(key)
        if hit is not None:
            return hit
        seat = claimant if not trick else (trick[-1][0] + 1) % 4
        hand = hands[seat]
        legal = self._legal(hand, trick, led)
        result: bool
        if seat == claimant:
            result = False
            for cid in ids_of(legal):
                new_hands = hands[:seat] + (hand ^ (1 << cid),) + hands[seat + 1 :]
                if trick:
                    leds = [led]
                elif cid == JOKER_ID:
                    leds = (
                        [_REQUEST_SUIT[r] for r in JOKER_REQUESTS]
                        if self.joker_mode == "request"
                        else [self.trump_lead]
                    )
                else:
                    leds = [self.eff[cid]]
                for new_led in leds:
                    if self._node(new_hands, trick + ((seat, cid),), new_led):
                        result = True
                        break
                if result:
                    break
        else:
            # the claimant has already played to this trick: it must be winning it now,
            # and no defender card may beat it
            if self._winner(trick, led) != claimant:
                result = False
            elif legal & JK_BIT:
                result = False  # the joker takes any trick
            else:
                strength = self.strength[led]
                best = max(strength[c] for _, c in trick)
                result = True
                lowest: dict[int, int] = {}
                for cid in ids_of(legal):
                    if strength[cid] > best:
                        result = False
                        break
                    g = self.eff[cid]
                    cur = lowest.get(g)
                    if cur is None or _order(self.strength, g, cid) < _order(self.strength, g, cur):
                        lowest[g] = cid
                if result:
                    for cid in lowest.values():
                        new_hands = hands[:seat] + (hand ^ (1 << cid),) + hands[seat + 1 :]
                        if not self._node(new_hands, trick + ((seat, cid),), led):
                            result = False
                            break
        self.memo[key] = result
        return result


def _order(strength: list[list[int]], suit: int, cid: int) -> int:
    """A card's order inside its effective suit (trump order for trumps)."""
    return strength[suit][cid]


if HAS_C_CORE:
    _configure_core(
        Play,
        _PLAY,
        CLAIM,
        [PLAYS[i] if i in DECK_IDS else None for i in range(53)],
        JOKER_LEADS,
        STRENGTH,
        SUIT_MASKS,
        EFF_SUIT,
        [NO_SUIT if t is None else t for t in (_TRUMP_OF_STRAIN[x] for x in STRAINS)],
        DECK_IDS,
        Phase.BIDDING,
        Phase.DISCARD,
        PASS,
        BIDS,
        (_BIDDING_ACTIONS, _BIDDING_ACTIONS_BROKEN),
        DISCARDS,
        HONOUR_MASK,
        QUEEN_MASK,
    )


# --------------------------------------------------------------------------------------------
# Registration


def _new_state(options: MeitoraOptions | None = None, first: int = 0) -> MeitoraState:
    return MeitoraState(options, first)


# --------------------------------------------------------------------------------------------
# The browser client's descriptor (drawn by kirifuda/server/static/app.js, which holds no
# per-game code; see kirifuda/server/ui.py for the keys)

UI: dict[str, Any] = {
    "direction": "ccw",
    "strains": "SCDHN",
    "units": {"teams": [[0, 2], [1, 3]]},
    "seat_roles": [["declarer", "declarer"]],
    "unit_roles": [],
    "partner_role": "partner",
    "bids": "bids",
    "stats": [{"field": "team_tricks", "per": "unit", "show": "tricks"}],
    "headline": ["contract", "joker_request", "agari", "negri"],
    "hints": ["bidding", "discard", "play"],
    "confirm": ["discard", "broken"],
    "claim_option": "claim_failure",
    "options": {
        "target": {
            "label": ("目標点", "Target"),
            "doc": ("この点数に先に届いたチームの勝ち (17点先取)。", "Points to win the match (first to 17)."),
        },
        "claim_failure": {
            "label": ("オープン失敗", "Failed claim"),
            "doc": (
                "オープン (残り全部取る宣言) が外れたとき: チョンボ (相手に5点) か、断られて続行か (手札はその回の終わりまで公開)。",
                "What a wrong claim (オープン) costs: a chombo (5 to the other team), or it is refused and play goes on"
                " with the claimant's hand face up until the deal ends.",
            ),
            "choices": {"chombo": ("チョンボ", "chombo"), "refuse": ("断られて続行", "refused, play goes on")},
        },
        "joker_lead": {
            "label": ("ジョーカーの出し始め", "Joker lead"),
            "doc": (
                "ジョーカーで始めるとき: 請求 (スートか何でも) を言うか、切り札を求めるか (後年のまとめの規則)。",
                "Leading the joker: name a request (a suit or anything), or it asks for trump (the rule of the game's later summary).",
            ),
            "choices": {"request": ("請求を言う", "names a request"), "trump": ("切り札を求める", "asks for trump")},
        },
    },
}
"""How the browser draws Meitora: seats turn counter-clockwise, two fixed teams, the declarer."""


INFO = GameInfo(
    id="meitora",
    name_ja="明専トランプ",
    name_en="Meitora (Meisen Trump)",
    aliases=("明トラ", "明専トランプ", "meisen", "meisen-trump", "meitora"),
    min_players=4,
    max_players=4,
    options_type=MeitoraOptions,
    new_state=_new_state,
    action_kinds=ACTION_KINDS,
    action_space=ActionSpace(
        families=("play", "joker_lead", "bid", "pass", "broken", "discard", "claim"),
        bid_counts=tuple(range(6, 11)),
        strains="SCDHN",
        max_seats=4,
        deal_steps=64,
        deal_score=10.0,
        seat_fields=("declarer",),
    ),
    roles={
        "seat": ("席", "seat"),
        "unit": ("チーム", "team"),
        "declarer": ("吹き上げた人 (宣言者)", "declarer"),
        "partner": ("味方", "partner"),
        "first_bidder": ("吹き始め", "first bidder"),
    },
    bot_modules=("kirifuda.bots.meitora_heuristic", "kirifuda.bots.search_meitora"),
    parts={
        "words": "kirifuda.ui.games.meitora",
        "coach": "kirifuda.coach.games.meitora",
        "scoresheet": "kirifuda.scoresheets.meitora",
        "vector": "kirifuda.games.meitora_vector",  # the batched env core in C (kirifuda.env.vector)
    },
    ui=UI,
)
