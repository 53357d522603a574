"""Napoleon (ナポレオン): the Tokyo high-school chemistry club's game of 1978 (競技ルール).

Exactly ``docs/napoleon.md``.  Five players (or four), each for themselves until the
teams are found: the Napoleon army (ナポレオン軍: Napoleon and the adjutant 副官) against the
allied army (連合軍).  Open bidding (立候補) of a count of face cards (絵札: A K Q J T) and a
trump suit, the adjutant named by a card, the exchange with the middle, the re-declaration with
every other player's approval, then ten (or twelve) tricks under the club's card order:
almighty ♠A (オールマイティ), yoromeki ♥Q (よろめき, an option), the first-trick ace (初回のA),
same-2 (セイム2), main jack (正ジャック), back jack (裏ジャック), trumps, the led suit, and the
joker (where in use) as the weakest card.

Decisions where the spec leaves room (also in ``docs/napoleon.md``):

- ``deals`` is ``None`` by default, meaning 2 × players; the JSON option may be left out or
  written ``null``.  Records written by the engine carry the resolved number.
- The re-declaration phase, with ``redeclare`` on, always asks Napoleon for a ``redeclare``
  action, even when the contract is already 20 (then only ``"none"`` is legal).
- Napoleon sees his own discard (he chose it); nobody else sees it until the deal ends.
  The middle cards are shown to Napoleon from the exchange on.
- Solo (独り立ち) is public only when the named card is played by Napoleon, or at the deal's
  end; Napoleon knows it from the exchange (he has seen his hand and the middle).
- A discard may list its cards in any order (the record keeps the order written);
  ``legal_actions()`` offers each set of cards once, in a canonical order.

The hot path works on card ids and bitmasks (see :mod:`kirifuda.cards`).

>>> import random
>>> s = NapoleonState(NapoleonOptions())
>>> s.deal_random(random.Random(7))
>>> s.phase, s.to_act, len(s.view(0).hand), s.match_length
(<Phase.BIDDING: 'bidding'>, 0, 10, 10)
"""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass
from enum import Enum
from typing import Any, Literal, Mapping, Sequence

from ..actions import (
    BID_KIND,
    DISCARD_KIND,
    PASS,
    PLAY_KIND,
    Action,
    ActionFamily,
    ActionKind,
    Bid,
    Bounds,
    Discard,
    Pass,
    Play,
    parse_bid_text,
    strain_label,
)
from ..cards import CARDS, JOKER, JOKER_ID, Card, MaskDecoder, Suit, cards_of, deck, format_card, parse_card
from ..dealing import check_deal
from ..errors import IllegalActionError, InvalidActionError, OptionError
from ..game import ActionSpace, GameInfo, GameState, Outcome, View, options_to_json, public_options, view_maker
from ..i18n import add_terms, field_label
from ..tricks import Trick


# -- the game's own actions (the shared ones are kirifuda.actions') ---------------------------


@dataclass(frozen=True, slots=True)
class Adjutant:
    """副官の指名: Napoleon names the adjutant's card."""

    card: Card

    def to_json(self) -> dict[str, Any]:
        return {"adjutant": self.card.code}

    def label(self, lang: str = "en") -> str:
        c = format_card(self.card, lang)
        return f"副官 {c}" if lang == "ja" else f"adjutant {c}"

    def input_words(self) -> set[str]:
        """The adjutant named by its card: ``as``."""
        return {self.card.code.lower()}


@dataclass(frozen=True, slots=True)
class Redeclare:
    """Napoleon's re-declaration after the exchange; ``count is None`` means no proposal."""

    count: int | None = None
    strain: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"redeclare": "none" if self.count is None else f"{self.count}{self.strain}"}

    def label(self, lang: str = "en") -> str:
        if self.count is None:
            return "再宣言なし" if lang == "ja" else "no re-declaration"
        assert self.strain is not None
        s = f"{self.count}{strain_label(self.strain, lang)}"
        return f"再宣言 {s}" if lang == "ja" else f"re-declare {s}"


@dataclass(frozen=True, slots=True)
class Approve:
    """An answer to Napoleon's re-declaration."""

    ok: bool

    def to_json(self) -> dict[str, Any]:
        return {"approve": self.ok}

    def label(self, lang: str = "en") -> str:
        if lang == "ja":
            return "承認" if self.ok else "拒否"
        return "approve" if self.ok else "reject"

    def input_words(self) -> set[str]:
        return {"yes", "y", "はい"} if self.ok else {"no", "n", "いいえ"}


def _read_adjutant(d: Mapping[str, Any], seat: int | None) -> Action:
    return Adjutant(parse_card(d["adjutant"]))


def _read_redeclare(d: Mapping[str, Any], seat: int | None) -> Action:
    if d["redeclare"] == "none":
        return Redeclare()
    count, strain = parse_bid_text(d["redeclare"], "a re-declaration")
    return Redeclare(count, strain)


def _read_approve(d: Mapping[str, Any], seat: int | None) -> Action:
    if not isinstance(d["approve"], bool):
        raise InvalidActionError(f"approve must be true or false, got {d['approve']!r}")
    return Approve(d["approve"])


def _redeclarations(space: Bounds) -> list[tuple[Action, str]]:
    out: list[tuple[Action, str]] = [(Redeclare(), "redeclare none")]
    return out + [(Redeclare(c, s), f"redeclare {c}{s}") for c in space.bid_counts for s in space.strains]


ACTION_KINDS: tuple[ActionKind, ...] = (
    PLAY_KIND,
    BID_KIND,
    DISCARD_KIND,
    ActionKind(
        "adjutant",
        _read_adjutant,
        families=(
            ActionFamily("adjutant", lambda space: ((Adjutant(c), f"adjutant {c.code}") for c in CARDS), by_card=True),
        ),
    ),
    ActionKind("redeclare", _read_redeclare, families=(ActionFamily("redeclare", _redeclarations),)),
    ActionKind(
        "approve",
        _read_approve,
        families=(ActionFamily("approve", lambda space: [(Approve(True), "approve"), (Approve(False), "reject")]),),
    ),
)
"""Napoleon's actions: a play (with the joker's request and the ♠3's call), a bid or a pass, the
exchange's discard, the adjutant's card, the re-declaration and its answer."""

__all__ = [
    "Adjutant",
    "Redeclare",
    "Approve",
    "ACTION_KINDS",
    "NapoleonOptions",
    "NapoleonState",
    "NapoleonView",
    "Phase",
    "INFO",
    "trick_winner",
    "deal_points",
    "deal_score",
    "napoleon_army_wins",
    "FACE_MASK",
    "BID_SUITS",
]

# --------------------------------------------------------------------------------------------
# Options


@dataclass(frozen=True, kw_only=True)
class NapoleonOptions:
    """ナポレオンのローカルルール (spec §10).  Defaults follow the spec's options table."""

    players: Literal[5, 4] = 5
    """Table size."""
    joker: bool = False
    """Add the joker (and the ♠3 call)."""
    yoromeki: bool = False
    """よろめき: ♥Q beats ♠A when both are in the trick."""
    first_trick_plain: bool = False
    """The chemistry club's first-trick rule: only the almighty (and yoromeki) keep their power."""
    strategy_b: bool = True
    """作戦B: all 20 face cards taken below a 20 declaration is the allies' win."""
    redeclare: bool = True
    """Napoleon may propose a higher declaration after the exchange."""
    deals: int | None = None
    """Length of the match in (non-void) deals; ``None`` (or left out) is 2 × players."""

    def __post_init__(self) -> None:
        if self.players not in (4, 5) or isinstance(self.players, bool):
            raise OptionError(f"option players={self.players!r} is not 5 or 4")
        for name in ("joker", "yoromeki", "first_trick_plain", "strategy_b", "redeclare"):
            if not isinstance(getattr(self, name), bool):
                raise OptionError(f"option {name}={getattr(self, name)!r} must be true or false")
        d = self.deals
        if d is not None and (isinstance(d, bool) or not isinstance(d, int) or d < 1):
            raise OptionError(f"option deals={d!r} must be a positive whole number (or null: 2 × players)")

    @property
    def match_length(self) -> int:
        """The number of deals in a match: ``deals``, or 2 × players when left out."""
        return self.deals if self.deals is not None else 2 * self.players


# --------------------------------------------------------------------------------------------
# Cards and tables

SA, HQ, SK, S3 = 12, 13 + 10, 11, 1
"""Ids of ♠A (almighty), ♥Q (yoromeki), ♠K, ♠3."""
JK_BIT = 1 << JOKER_ID
_BIT = tuple(1 << i for i in range(53))
SUIT_MASK = tuple(((1 << 13) - 1) << (13 * s) for s in range(4))
FACE_MASK = sum(1 << (s * 13 + r) for s in range(4) for r in range(8, 13))
"""The 20 face cards (絵札): T J Q K A of every suit."""
_SAME_COLOUR = (3, 2, 1, 0)
"""♠↔♣, ♥↔♦: the suit of the back jack (裏ジャック)."""
BID_SUITS = "CDHS"
"""Declaration suits, weakest first: ♣ < ♦ < ♥ < ♠."""
_SUIT_INDEX = {"S": 0, "H": 1, "D": 2, "C": 3}
DECKS = {False: deck(), True: deck(joker=True)}
_HAND_SIZE = {5: 10, 4: 12}


def _bids(low: int) -> tuple[Bid, ...]:
    return tuple(Bid(c, s) for c in range(low, 21) for s in BID_SUITS)


_BIDS = {5: _bids(11), 4: _bids(13)}
"""Every declaration per table size, weakest first: strength is the index."""
_BID_INDEX = {n: {b: i for i, b in enumerate(bids)} for n, bids in _BIDS.items()}
_BIDDING_ACTIONS = {n: tuple((PASS,) + bids[h:] for h in range(len(bids) + 1)) for n, bids in _BIDS.items()}
_REDECLARE_NONE = Redeclare()
_REDECLARE_ACTIONS = {
    c: (_REDECLARE_NONE,) + tuple(Redeclare(k, s) for k in range(c + 1, 21) for s in "SHDC") for c in range(11, 21)
}
_APPROVE = (Approve(True), Approve(False))
PLAYS: tuple[Play, ...] = tuple(Play(c) for c in CARDS)
_PLAY_DECODER: MaskDecoder[Action] = MaskDecoder(list(PLAYS))
JOKER_LEADS: tuple[Play, ...] = tuple(Play(JOKER, r) for r in "SHDC")
CALL_JOKER = Play(CARDS[S3], call_joker=True)
_ADJUTANTS = {j: tuple(Adjutant(c) for c in DECKS[j]) for j in (False, True)}


_new_object = object.__new__
_set_discard_cards = Discard.__dict__["cards"].__set__


def _discard_of(cards: tuple[Card, ...]) -> Discard:
    """``Discard(cards)`` without the frozen dataclass's ``__init__``: the same value, built
    about twice as fast (a 4-player joker deal offers C(17, 5) = 6188 discards)."""
    d: Discard = _new_object(Discard)
    _set_discard_cards(d, cards)
    return d


class Phase(str, Enum):
    DEAL = "deal"
    """Waiting for the next deal's cards (a chance node)."""
    BIDDING = "bidding"
    ADJUTANT = "adjutant"
    DISCARD = "discard"
    REDECLARE = "redeclare"
    APPROVE = "approve"
    PLAY = "play"
    DONE = "done"
    """The match is over."""


_IN_DEAL = frozenset({Phase.BIDDING, Phase.ADJUTANT, Phase.DISCARD, Phase.REDECLARE, Phase.APPROVE, Phase.PLAY})


def trick_winner(
    cards: Sequence[int],
    led: int,
    trump: int,
    *,
    first: bool = False,
    yoromeki: bool = False,
    first_trick_plain: bool = False,
) -> int:
    """The index (in play order) of the card that wins a trick (spec §6).

    ``cards`` are card ids in the order played, ``led`` the led suit (0 ♠ 1 ♥ 2 ♦ 3 ♣; the
    requested suit of a joker lead), ``trump`` the trump suit, ``first`` whether this is the
    deal's first trick.

    >>> from kirifuda.cards import parse_card as c
    >>> ids = lambda *codes: [c(x).id for x in codes]
    >>> trick_winner(ids("2H", "AH", "JH", "3H", "KH"), led=1, trump=0)  # same-2
    0
    >>> trick_winner(ids("2H", "AH", "JH", "3H", "AS"), led=1, trump=0)  # the almighty
    4
    """
    # 1. the almighty, unless yoromeki
    if SA in cards:
        if yoromeki and HQ in cards:
            return cards.index(HQ)
        return cards.index(SA)
    if first:
        if first_trick_plain:
            best, best_i = -1, -1
            for i, c in enumerate(cards):
                if c != JOKER_ID and c // 13 == led and c % 13 > best:
                    best, best_i = c % 13, i
            return best_i if best_i >= 0 else cards.index(JOKER_ID)
        # 2. the first-trick ace (♠K when spades are led: ♠A is the almighty)
        ace = SK if led == 0 else led * 13 + 12
        if ace in cards:
            return cards.index(ace)
    # 3. same-2
    if JOKER_ID not in cards:
        suit = cards[0] // 13
        if all(c // 13 == suit for c in cards):
            two = suit * 13
            if two in cards:
                return cards.index(two)
    # 4. main jack, 5. back jack
    main = trump * 13 + 9
    if main in cards:
        return cards.index(main)
    back = _SAME_COLOUR[trump] * 13 + 9
    if back in cards:
        return cards.index(back)
    # 6. trumps, 7. the led suit
    for suit in (trump, led):
        best, best_i = -1, -1
        for i, c in enumerate(cards):
            if c != JOKER_ID and c // 13 == suit and c % 13 > best:
                best, best_i = c % 13, i
        if best_i >= 0:
            return best_i
    # 8. nothing else qualifies: the joker's player takes the trick
    return cards.index(JOKER_ID)


def deal_points(players: int, declared: int, solo: bool, napoleon_wins: bool) -> tuple[int, int, int]:
    """Points of a deal (spec §8): ``(napoleon, adjutant, each ally)``, signed; the adjutant's
    entry is 0 when solo.

    >>> deal_points(5, 13, solo=False, napoleon_wins=True)
    (6, 3, -3)
    >>> deal_points(4, 15, solo=True, napoleon_wins=False)
    (-15, 0, 5)
    """
    k = declared - 10
    if players == 5:
        nap = 4 * k if solo else 2 * k
    else:
        nap = 3 * k if solo else k
    adj = 0 if solo else k
    sign = 1 if napoleon_wins else -1
    return (sign * nap, sign * adj, -sign * k)


def napoleon_army_wins(declared: int, army_face_cards: int, strategy_b: bool) -> bool:
    """Spec §7: the army wins with at least its declared count, except that under strategy B
    (作戦B) taking all 20 below a 20 declaration is the allies' win."""
    if strategy_b and army_face_cards == 20 and declared < 20:
        return False
    return army_face_cards >= declared


def deal_score(
    players: int, napoleon: int, adjutant: int | None, declared: int, army_face_cards: int, strategy_b: bool
) -> tuple[list[int], bool]:
    """A played deal's points per seat and whether Napoleon's army won (spec §7, §8):
    ``adjutant`` is ``None`` when solo; ``declared`` is the count of the declaration in force.

    >>> deal_score(5, 0, 2, 13, 14, True)
    ([6, -3, 3, -3, -3], True)
    """
    wins = napoleon_army_wins(declared, army_face_cards, strategy_b)
    p_nap, p_adj, p_ally = deal_points(players, declared, adjutant is None, wins)
    score = [p_ally] * players
    score[napoleon] = p_nap
    if adjutant is not None:
        score[adjutant] = p_adj
    return score, wins


# --------------------------------------------------------------------------------------------
# The view


@dataclass(frozen=True, kw_only=True)
class NapoleonView(View):
    """What one seat of a Napoleon table sees."""

    players: int = 5
    first_bidder: int | None = None
    bids: tuple[tuple[int, Action], ...] = ()
    """This deal's bidding so far: ``(seat, declaration / pass)``."""
    napoleon: int | None = None
    contract: Bid | None = None
    """The declaration in force (after an approved re-declaration)."""
    adjutant_card: Card | None = None
    """The named card (public once named)."""
    adjutant: int | None = None
    """The adjutant's seat, where this seat knows it: the adjutant itself from the naming,
    everyone once the named card is played."""
    solo: bool | None = None
    """True where this seat knows that Napoleon plays alone (独り立ち); ``None`` if unknown."""
    middle: tuple[Card, ...] = ()
    """The middle cards: Napoleon's only, from the exchange on."""
    discard: tuple[Card, ...] = ()
    """The discard: Napoleon's only (he chose it), until the deal ends."""
    proposal: Bid | None = None
    """Napoleon's re-declaration being asked about."""
    approvals: tuple[tuple[int, bool], ...] = ()
    trick: Trick | None = None
    joker_request: str | None = None
    """The suit named by a joker lead in the current trick."""
    joker_called: bool = False
    """The current trick was led by ♠3 calling for the joker."""
    last_trick: Trick | None = None
    last_trick_winner: int | None = None
    tricks_played: int = 0
    face_cards_taken: tuple[tuple[Card, ...], ...] = ()
    """The face cards each seat has taken (public)."""
    deals_played: int = 0
    match_length: int = 10
    yoromeki: bool = False
    first_trick_plain: bool = False
    last_deal: Mapping[str, Any] | None = None
    """The result of the previous deal, with every hand, the middle and the discard face up."""

    def sort_hand(self) -> tuple[Card, ...]:
        """Specials and trumps first (♠A, main jack, back jack, trumps A…), then ♠ ♥ ♦ ♣."""
        trump = _SUIT_INDEX[self.contract.strain] if self.contract is not None else None

        def key(c: Card) -> tuple[int, int]:
            if c.is_joker:
                return (9, 0)
            s, r = divmod(c.id, 13)
            if c.id == SA:
                return (-4, 0)
            if trump is not None:
                if s == trump and r == 9:
                    return (-3, 0)
                if s == _SAME_COLOUR[trump] and r == 9:
                    return (-2, 0)
                if s == trump:
                    return (-1, -r)
            return (s, -r)

        return tuple(sorted(self.hand, key=key))

    def table_lines(self, lang: str = "en") -> list[str]:
        from ..ui.render import seat_name, trick_text, value_text

        lines: list[str] = []

        def add(name: str, text: str) -> None:
            lines.append(f"{field_label(name, lang, 'napoleon')}: {text}")

        add("match_length", f"{self.deals_played}/{self.match_length}")
        if self.first_bidder is not None:
            add("first_bidder", seat_name(self.first_bidder, lang))
        if self.bids and self.phase == "bidding":
            add("bids", ", ".join(f"{seat_name(s, lang)} {a.label(lang)}" for s, a in self.bids))
        if self.napoleon is not None:
            add("napoleon", seat_name(self.napoleon, lang))
        if self.contract is not None:
            add("contract", self.contract.label(lang))
        if self.adjutant_card is not None:
            add("adjutant_card", value_text(self.adjutant_card, lang))
        if self.solo:
            add("solo", value_text(True, lang))
        elif self.adjutant is not None:
            add("adjutant", seat_name(self.adjutant, lang))
        if self.middle:
            add("middle", value_text(self.middle, lang))
        if self.discard:
            add("discard", value_text(self.discard, lang))
        if self.proposal is not None:
            add("proposal", self.proposal.label(lang))
        if self.approvals:
            add("approvals", ", ".join(f"{seat_name(s, lang)} {Approve(ok).label(lang)}" for s, ok in self.approvals))
        if self.face_cards_taken and any(self.face_cards_taken):
            add(
                "face_cards_taken",
                "  ".join(
                    f"{seat_name(s, lang)} {len(cs)}" + (f" ({value_text(cs, lang)})" if cs else "")
                    for s, cs in enumerate(self.face_cards_taken)
                ),
            )
        if self.last_trick is not None:
            add("last_trick", trick_text(self.last_trick, lang) + f" → {seat_name(self.last_trick_winner, lang)}")
        if self.trick is not None:
            text = trick_text(self.trick, lang)
            if self.joker_request is not None:
                text += f"  ({field_label('joker_request', lang, 'napoleon')} {Suit(self.joker_request).symbol})"
            if self.joker_called:
                text += f"  ({field_label('joker_called', lang, 'napoleon')})"
            add("trick", text)
        return lines


_make_view = view_maker(NapoleonView)
"""Makes a NapoleonView as ``NapoleonView(**fields)`` does, faster (:func:`~kirifuda.game.view_maker`)."""


add_terms(
    fields={
        "first_bidder": ("最初の立候補者", "first bidder"),
        "bids": ("立候補", "bidding"),
        "napoleon": ("ナポレオン", "Napoleon"),
        "contract": ("宣言", "declaration"),
        "adjutant_card": ("副官の札", "adjutant's card"),
        "adjutant": ("副官", "adjutant"),
        "solo": ("独り立ち", "solo"),
        "middle": ("中札", "middle cards"),
        "discard": ("捨て札", "discard"),
        "proposal": ("再宣言の提案", "re-declaration proposed"),
        "approvals": ("承認", "approvals"),
        "joker_request": ("ジョーカーの指定", "joker asks"),
        "joker_called": ("♠3のジョーカー請求", "♠3 calls the joker"),
        "tricks_played": ("済んだ回", "tricks played"),
        "face_cards_taken": ("取った絵札", "face cards taken"),
        "deals_played": ("済んだゲーム", "deals played"),
        "match_length": ("ゲーム数", "deals"),
        "army_face_cards": ("ナポレオン軍の絵札", "Napoleon army's face cards"),
        "napoleon_wins": ("ナポレオン軍の勝ち", "Napoleon army wins"),
        "declared": ("最初の宣言", "first declaration"),
        "face_cards": ("絵札の数", "face cards"),
        "rest": ("中札", "middle"),
    },
    game="napoleon",
)


# --------------------------------------------------------------------------------------------
# The state


class NapoleonState(GameState):
    """A Napoleon match.  ``first`` is the first bidder of deal 1."""

    game_id = "napoleon"
    DEAL_PHASE = Phase.DEAL
    DONE_PHASE = Phase.DONE

    __slots__ = (
        "options",
        "first",
        "num_players",
        "_n",
        "_hand_size",
        "_deck_ids",
        "_bids",
        "_bid_index",
        "_phase",
        "_to_act",
        "_deal_no",
        "_played",
        "_first_bidder",
        "_totals",
        "_results",
        "_log",
        "_dealt",
        "_middle",
        "_hands",
        "_high",
        "_napoleon",
        "_passes",
        "_declared",
        "_adj_card",
        "_adjutant",
        "_solo",
        "_discard",
        "_proposal",
        "_approvals",
        "_trump",
        "_leader",
        "_trick",
        "_led",
        "_request",
        "_called",
        "_tricks",
        "_taken",
        "_adj_shown",
        "_legal",
        "_last",
        "_view_bids",
        "_view_taken",
    )
    COPY_LISTS = ("_totals", "_log", "_hands", "_approvals", "_trick", "_tricks", "_taken")

    def __init__(self, options: NapoleonOptions | None = None, first: int = 0) -> None:
        self.options = opts = options or NapoleonOptions()
        n = opts.players
        if not isinstance(first, int) or isinstance(first, bool) or not 0 <= first < n:
            raise OptionError(f"first must be a seat 0-{n - 1}, got {first!r}")
        self.first = first
        self.num_players = n
        self._n = n
        self._view_bids: tuple[list[tuple[int, Action]] | None, int, tuple[tuple[int, Action], ...]] = (None, 0, ())
        """The bidding as views show it, kept with the log it was read from and how far."""
        self._view_taken: tuple[tuple[int, ...], tuple[tuple[Card, ...], ...]] = ((), ())
        """The face cards taken as views show them, kept with the masks they were made from."""
        self._hand_size = _HAND_SIZE[n]
        self._deck_ids = frozenset(c.id for c in DECKS[opts.joker])
        self._bids = _BIDS[n]
        self._bid_index = _BID_INDEX[n]
        self._phase = Phase.DEAL
        self._to_act: int | None = None
        self._deal_no = 0
        self._played = 0
        self._first_bidder = first
        self._totals = [0] * n
        self._results: tuple[_DealLog, ...] = ()
        self._reset_deal()

    def _reset_deal(self) -> None:
        n = self._n
        self._log: list[tuple[int, Action]] = []
        self._dealt: tuple[tuple[int, ...] | int, ...] = ()
        self._middle: tuple[int, ...] = ()
        self._hands = [0] * n
        self._high = -1
        self._napoleon: int | None = None
        self._passes = 0
        self._declared = -1
        self._adj_card = -1
        self._adjutant: int | None = None
        self._solo = False
        self._discard: tuple[int, ...] = ()
        self._proposal = -1
        self._approvals: list[tuple[int, bool]] = []
        self._trump = 0
        self._leader = 0
        self._trick: list[tuple[int, int]] = []
        self._led = 0
        self._request: str | None = None
        self._called = False
        self._tricks: list[tuple[int, tuple[int, ...], int]] = []
        self._taken = [0] * n
        self._adj_shown = False
        self._legal: tuple[Action, ...] | None = None
        self._last: tuple[int, tuple[int, ...], int] | None = None

    # -- properties ----------------------------------------------------------------------
    @property
    def deals_played(self) -> int:
        """Deals scored so far (void deals do not count)."""
        return self._played

    @property
    def match_length(self) -> int:
        return self.options.match_length

    @property
    def first_bidder(self) -> int:
        return self._first_bidder

    @property
    def napoleon(self) -> int | None:
        return self._napoleon if self._phase in _IN_DEAL and self._phase is not Phase.BIDDING else None

    @property
    def contract(self) -> Bid | None:
        """The declaration in force (``None`` during the bidding)."""
        if self._phase in _IN_DEAL and self._phase is not Phase.BIDDING:
            return self._bids[self._high]
        return None

    @property
    def adjutant_card(self) -> Card | None:
        return CARDS[self._adj_card] if self._adj_card >= 0 and self._phase in _IN_DEAL else None

    @property
    def adjutant(self) -> int | None:
        """The adjutant's seat (the whole state: not for players), ``None`` when solo."""
        return self._adjutant

    @property
    def solo(self) -> bool:
        return self._solo

    @property
    def trump(self) -> Suit | None:
        c = self.contract
        return None if c is None else Suit(c.strain)

    def hand(self, seat: int) -> tuple[Card, ...]:
        """A seat's cards (the whole state: for the engine, tests and solvers, not for players)."""
        return cards_of(self._hands[seat])

    @property
    def middle(self) -> tuple[Card, ...]:
        return tuple(CARDS[c] for c in self._middle)

    @property
    def discarded(self) -> tuple[Card, ...]:
        return tuple(CARDS[c] for c in self._discard)

    @property
    def tricks(self) -> tuple[tuple[Trick, int], ...]:
        """This deal's completed tricks with their winners."""
        return tuple((_trick_of(leader, cards, self._n), w) for leader, cards, w in self._tricks)

    def face_cards_taken(self, seat: int) -> tuple[Card, ...]:
        return cards_of(self._taken[seat])

    def army_face_cards(self) -> int:
        """Face cards taken so far by Napoleon and the adjutant (Napoleon alone when solo)."""
        if self._napoleon is None:
            return 0
        m = self._taken[self._napoleon]
        if self._adjutant is not None:
            m |= self._taken[self._adjutant]
        return m.bit_count()

    @property
    def totals(self) -> tuple[int, ...]:
        return tuple(self._totals)

    # -- dealing -------------------------------------------------------------------------
    def deal(self, hands: Sequence[Sequence[Card | str]], rest: Sequence[Card | str]) -> None:
        self._require_deal()
        n, size = self._n, self._hand_size
        d = DECKS[self.options.joker]
        masks, rest_ids = check_deal(hands, rest, d, (size,) * n, len(d) - n * size)
        self._start_deal(masks, tuple(rest_ids), tuple(tuple(parse_card(c).id for c in h) for h in hands))

    def deal_random(self, rng: random.Random) -> None:
        self._require_deal()
        r = rng.random
        ids = sorted(self._deck_ids, key=lambda _: r())
        bit = _BIT.__getitem__
        size = self._hand_size
        masks = [sum(map(bit, ids[k * size : (k + 1) * size])) for k in range(self._n)]
        self._start_deal(masks, tuple(ids[self._n * size :]), None)

    def _require_deal(self) -> None:
        if self._phase is not Phase.DEAL:
            raise IllegalActionError(
                None, "deal", "the match is over" if self._phase is Phase.DONE else "a deal is in progress"
            )

    def _start_deal(self, masks: list[int], middle: tuple[int, ...], order: tuple[tuple[int, ...], ...] | None) -> None:
        self._reset_deal()
        self._hands = list(masks)
        self._middle = middle
        self._dealt = order if order is not None else tuple(masks)
        self._phase = Phase.BIDDING
        self._to_act = self._first_bidder

    # -- legal actions -------------------------------------------------------------------
    def _compute_legal(self) -> tuple[Action, ...]:
        phase = self._phase
        if phase is Phase.PLAY:
            return self._play_actions()
        if phase is Phase.BIDDING:
            return _BIDDING_ACTIONS[self._n][self._high + 1]
        if phase is Phase.ADJUTANT:
            return _ADJUTANTS[self.options.joker]
        if phase is Phase.DISCARD:
            assert self._to_act is not None
            hand = cards_of(self._hands[self._to_act])
            return tuple(map(_discard_of, itertools.combinations(hand, len(self._middle))))
        if phase is Phase.REDECLARE:
            return _REDECLARE_ACTIONS[self._bids[self._high].count]
        if phase is Phase.APPROVE:
            return _APPROVE
        return ()

    def _legal_play_mask(self, seat: int) -> int:
        hand = self._hands[seat]
        if not self._trick:
            return hand
        if hand & JK_BIT:
            if self._called or hand == JK_BIT:
                return JK_BIT  # called by ♠3, or the last card
            follow = hand & SUIT_MASK[self._led]
            return follow if follow else hand ^ JK_BIT
        follow = hand & SUIT_MASK[self._led]
        return follow if follow else hand

    def _play_actions(self) -> tuple[Action, ...]:
        seat = self._to_act
        assert seat is not None
        m = self._legal_play_mask(seat)
        if self._trick:
            return _PLAY_DECODER.decode(m)
        plays = _PLAY_DECODER.decode(m & ~JK_BIT)
        if self.options.joker:
            if m >> S3 & 1:
                plays += (CALL_JOKER,)
            if m & JK_BIT:
                plays += JOKER_LEADS
        return plays

    def _play_ok(self, seat: int, action: Play) -> bool:
        cid = action.card.id
        if not self._legal_play_mask(seat) >> cid & 1:
            return False
        leading = not self._trick
        if cid == JOKER_ID and leading:
            return action.request in _SUIT_INDEX and not action.call_joker
        if action.request is not None:
            return False
        if action.call_joker:
            return leading and cid == S3 and self.options.joker
        return True

    def check(self, action: Action, seat: int | None = None) -> None:
        """As the base class, but a discard is checked as a set of cards (any order)."""
        if type(action) is Discard and self._phase is Phase.DISCARD:
            to_act = self._to_act
            if seat is not None and seat != to_act:
                raise IllegalActionError(seat, action, f"it is seat {to_act}'s turn, not seat {seat}'s")
            assert to_act is not None
            if not self._discard_ok(to_act, action):
                raise IllegalActionError(to_act, action, self._why_illegal(action))
            return
        if type(action) is Play and self._phase is Phase.PLAY and (seat is None or seat == self._to_act):
            assert self._to_act is not None
            if self._play_ok(self._to_act, action):
                return
            raise IllegalActionError(self._to_act, action, self._why_illegal(action))
        super().check(action, seat)

    def _discard_ok(self, seat: int, action: Discard) -> bool:
        ids = [c.id for c in action.cards]
        m = 0
        for i in ids:
            m |= 1 << i
        return len(ids) == len(self._middle) and m.bit_count() == len(ids) and self._hands[seat] & m == m

    def _why_illegal(self, action: Action) -> str:
        phase = self._phase
        seat = self._to_act
        assert seat is not None
        n = self._n
        if isinstance(action, Play):
            if phase is not Phase.PLAY:
                return f"cards are played only in the play phase (now: {phase.value})"
            card = action.card
            if card.id not in self._deck_ids:
                return f"{card.code} is not in this game's deck (the joker is used only with joker=true)"
            hand = self._hands[seat]
            if not hand >> card.id & 1:
                return f"seat {seat} does not hold {card.code}"
            leading = not self._trick
            if action.call_joker:
                if not self.options.joker:
                    return "the ♠3 joker call needs the joker (joker=true)"
                return "only a ♠3 lead may call for the joker"
            if card.is_joker and leading:
                return "a joker lead names the suit to follow: S, H, D or C"
            if action.request is not None:
                return "only a joker lead names a suit"
            if self._called and hand & JK_BIT:
                return "the ♠3 lead called for the joker: its holder must play it"
            if card.is_joker:
                return (
                    "the joker may be played only as the lead, on a ♠3 call, or as the last card"
                    " (it cannot be thrown away)"
                )
            led = "SHDC"[self._led]
            return f"must follow {Suit(led).symbol} ({led}): seat {seat} holds a card of the led suit"
        if isinstance(action, (Bid, Pass)):
            if phase is not Phase.BIDDING:
                return f"the bidding is over (now: {phase.value})"
            assert isinstance(action, Bid)
            low = self._bids[0].count
            if action.strain not in BID_SUITS or not low <= action.count <= 20:
                return (
                    f"a declaration is a count {low}–20 and a suit S H D C"
                    f" (no no-trump; at least {low} with {n} players)"
                )
            return (
                f"{action.text} is not stronger than the highest declaration {self._bids[self._high].text}"
                " (a higher count, or at the same count ♠ > ♥ > ♦ > ♣)"
            )
        if isinstance(action, Adjutant):
            if phase is Phase.BIDDING:
                return (
                    "the bidding is not over: it ends when all players have passed in succession,"
                    " the highest bidder too; then Napoleon names the adjutant's card"
                )
            if phase is not Phase.ADJUTANT:
                return "Napoleon names the adjutant's card right after the bidding"
            return f"{action.card.code} is not in this game's deck (the joker is used only with joker=true)"
        if isinstance(action, Discard):
            if phase is not Phase.DISCARD:
                return "only Napoleon discards, after naming the adjutant and taking the middle"
            k = len(self._middle)
            codes = [c.code for c in action.cards]
            if len(codes) != k:
                return f"the discard is exactly {k} cards (as many as the middle), got {len(codes)}"
            if len(set(codes)) != k:
                return "the discard names a card twice"
            missing = [c for c in action.cards if not self._hands[seat] >> c.id & 1]
            return f"seat {seat} does not hold {' '.join(c.code for c in missing)}"
        if isinstance(action, Redeclare):
            if phase is not Phase.REDECLARE:
                if not self.options.redeclare:
                    return "re-declaration is off (redeclare=false)"
                return "Napoleon re-declares only after the exchange"
            count = self._bids[self._high].count
            if action.strain is not None and action.strain not in "SHDC":
                return "a re-declaration is a count and a suit S H D C"
            return f"a re-declaration must raise the count above {count}, to at most 20"
        if isinstance(action, Approve):
            return "approvals answer Napoleon's re-declaration, in turn order from the seat after Napoleon"
        return f"{type(action).__name__} is not a Napoleon action"

    # -- applying ------------------------------------------------------------------------
    def apply(self, action: Action, seat: int | None = None) -> None:
        """Check the action, then carry it out; a refused action leaves the state unchanged."""
        to_act = self._to_act
        if type(action) is Play and self._phase is Phase.PLAY and (seat is None or seat == to_act):
            assert to_act is not None
            if self._play_ok(to_act, action):
                self._legal = None
                self._log.append((to_act, action))
                self._play(to_act, action)
                return
        self.check(action, seat)
        self._apply(action)

    def _apply(self, action: Action) -> None:
        self._legal = None
        seat = self._to_act
        assert seat is not None
        self._log.append((seat, action))
        n = self._n
        if type(action) is Play:
            self._play(seat, action)
        elif isinstance(action, Bid):
            self._high = self._bid_index[action]
            self._napoleon = seat
            self._passes = 0
            self._to_act = (seat + 1) % n
        elif isinstance(action, Pass):
            self._passes += 1
            if self._passes < n:
                self._to_act = (seat + 1) % n
            elif self._napoleon is None:  # all pass: the deal is void and redealt
                self._end_deal("redeal", [0] * n)
            else:
                self._declared = self._high
                self._trump = _SUIT_INDEX[self._bids[self._high].strain]
                self._phase = Phase.ADJUTANT
                self._to_act = self._napoleon
        elif isinstance(action, Adjutant):
            cid = action.card.id
            self._adj_card = cid
            holder = next((s for s in range(n) if self._hands[s] >> cid & 1), None)
            if holder is None or holder == seat:  # in the middle, or in Napoleon's own hand
                self._solo = True
                self._adjutant = None
            else:
                self._adjutant = holder
            for c in self._middle:
                self._hands[seat] |= 1 << c
            self._phase = Phase.DISCARD
        elif isinstance(action, Discard):
            self._discard = tuple(c.id for c in action.cards)
            for c in self._discard:
                self._hands[seat] &= ~(1 << c)
            if self.options.redeclare:
                self._phase = Phase.REDECLARE
            else:
                self._start_play()
        elif isinstance(action, Redeclare):
            if action.count is None:
                self._start_play()
            else:
                assert action.strain is not None
                self._proposal = self._bid_index[Bid(action.count, action.strain)]
                self._phase = Phase.APPROVE
                self._to_act = (seat + 1) % n
        elif isinstance(action, Approve):
            self._approvals.append((seat, action.ok))
            nap = self._napoleon
            assert nap is not None
            if not action.ok:
                self._start_play()
            elif (seat + 1) % n == nap:  # everyone approved
                self._high = self._proposal
                self._trump = _SUIT_INDEX[self._bids[self._high].strain]
                self._start_play()
            else:
                self._to_act = (seat + 1) % n

    def _start_play(self) -> None:
        nap = self._napoleon
        assert nap is not None
        self._phase = Phase.PLAY
        self._leader = nap
        self._to_act = nap

    def _play(self, seat: int, action: Play) -> None:
        cid = action.card.id
        self._hands[seat] ^= 1 << cid
        trick = self._trick
        if cid == self._adj_card:
            self._adj_shown = True
        if not trick:
            self._last = None
            if cid == JOKER_ID:
                self._request = action.request
                self._led = _SUIT_INDEX[action.request]  # type: ignore[index]
            else:
                self._request = None
                self._led = cid // 13
            self._called = action.call_joker
        trick.append((seat, cid))
        n = self._n
        if len(trick) < n:
            self._to_act = (seat + 1) % n
            return
        cards = tuple(c for _, c in trick)
        opts = self.options
        i = trick_winner(
            cards,
            self._led,
            self._trump,
            first=not self._tricks,
            yoromeki=opts.yoromeki,
            first_trick_plain=opts.first_trick_plain,
        )
        winner = trick[i][0]
        done = (self._leader, cards, winner)
        self._tricks.append(done)
        self._last = done
        m = 0
        for c in cards:
            m |= 1 << c
        self._taken[winner] |= m & FACE_MASK
        self._trick = []
        self._called = False
        self._request = None
        if len(self._tricks) == self._hand_size:
            self._score_deal()
            return
        self._leader = winner
        self._to_act = winner

    def _score_deal(self) -> None:
        nap = self._napoleon
        assert nap is not None
        score, wins = deal_score(
            self._n,
            nap,
            None if self._solo else self._adjutant,
            self._bids[self._high].count,
            self.army_face_cards(),
            self.options.strategy_b,
        )
        self._end_deal("played", score, wins)

    def _end_deal(self, outcome: str, score: list[int], wins: bool | None = None) -> None:
        self._results = self._results + (self._snapshot(outcome, score, wins),)
        self._close_deal(outcome, score)

    def end_scored_deal(self, log: Any, outcome: str, score: list[int]) -> None:
        """End a deal entered by its facts (a scored deal of a record): ``log`` gives its replay
        and record JSON; ``outcome`` is ``"played"`` or ``"redeal"``."""
        self._require_deal()
        self._results = self._results + (log,)
        self._close_deal(outcome, score)

    def _close_deal(self, outcome: str, score: list[int]) -> None:
        self._totals = [a + b for a, b in zip(self._totals, score)]
        self._deal_no += 1
        if outcome == "played":
            self._played += 1
        self._first_bidder = (self._first_bidder + 1) % self._n
        self._to_act = None
        self._legal = None
        self._trick = []
        self._phase = Phase.DONE if self._played >= self.options.match_length else Phase.DEAL

    def _snapshot(self, outcome: str, score: list[int], wins: bool | None) -> "_DealLog":
        bidding_over = self._phase is not Phase.BIDDING
        nap = self._napoleon if bidding_over and outcome != "redeal" else None
        named = self._adj_card >= 0
        return _DealLog(
            outcome=outcome,
            score=score,
            napoleon_wins=wins,
            log=self._log,
            dealt=self._dealt,
            middle=self._middle,
            discard=self._discard,
            tricks=self._tricks,
            n=self._n,
            napoleon=nap,
            contract=self._bids[self._high].text if nap is not None else None,
            declared=self._bids[self._declared].text if nap is not None else None,
            adjutant_card=self._adj_card if named else -1,
            adjutant=self._adjutant,
            solo=self._solo if named else None,
            # a count like the other per-game counts: 0 until the adjutant's card is named
            army_face_cards=self.army_face_cards() if named else 0,
            taken=tuple(self._taken),
            first_bidder=self._first_bidder,
        )

    # -- seeing --------------------------------------------------------------------------
    def _known_adjutant(self, seat: int | None) -> tuple[int | None, bool | None]:
        """(adjutant seat, solo) as far as ``seat`` knows them."""
        if self._adj_card < 0:
            return None, None
        nap = self._napoleon
        if self._adj_shown:  # the named card has been played: its player is known
            return (None, True) if self._solo else (self._adjutant, False)
        if seat is None:
            return None, None
        if self._solo:
            return (None, True) if seat == nap else (None, None)
        if seat == self._adjutant:
            return seat, False
        return None, None

    def _bids_so_far(self) -> tuple[tuple[int, Action], ...]:
        """This deal's bids and passes, as views show them (read from the log once: the log
        only grows during a deal, and a copy has a log of its own)."""
        log = self._log
        kept_log, done, bids = self._view_bids
        if kept_log is not log or done > len(log):
            done, bids = 0, ()
        if done < len(log):
            bids += tuple((s, a) for s, a in log[done:] if isinstance(a, (Bid, Pass)))
            self._view_bids = (log, len(log), bids)
        return bids

    def _taken_cards(self) -> tuple[tuple[Card, ...], ...]:
        """The face cards each seat has taken, as views show them (made again when they change)."""
        masks = tuple(self._taken)
        kept = self._view_taken
        if kept[0] != masks:
            kept = self._view_taken = (masks, tuple(cards_of(m) for m in masks))
        return kept[1]

    def view(self, seat: int | None) -> NapoleonView:
        n = self._n
        if seat is not None and not (isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < n):
            raise ValueError(f"no seat {seat!r} at a {n}-player Napoleon table")
        phase = self._phase
        in_deal = phase in _IN_DEAL
        nap = self.napoleon
        is_nap = seat is not None and seat == nap
        adjutant, solo = self._known_adjutant(seat) if in_deal else (None, None)
        trick = _trick_of(self._leader, tuple(c for _, c in self._trick), n) if self._trick else None
        last = self._last if in_deal and not self._trick else None
        past_naming = phase in (Phase.DISCARD, Phase.REDECLARE, Phase.APPROVE, Phase.PLAY)
        return _make_view(
            options=public_options(self.options, self.options_json),
            game="napoleon",
            seat=seat,
            phase=phase.value,
            to_act=self._to_act,
            deal_number=self._deal_no,
            hand=cards_of(self._hands[seat]) if seat is not None and in_deal else (),
            hand_sizes=tuple(h.bit_count() for h in self._hands) if in_deal else (0,) * n,
            legal_actions=self.legal_actions() if seat is not None and seat == self._to_act else (),
            totals=self.totals,
            players=n,
            first_bidder=self._first_bidder if in_deal else None,
            bids=self._bids_so_far() if in_deal else (),
            napoleon=nap,
            contract=self.contract,
            adjutant_card=self.adjutant_card,
            adjutant=adjutant,
            solo=solo,
            middle=self.middle if is_nap and past_naming else (),
            discard=self.discarded if is_nap else (),
            proposal=self._bids[self._proposal] if phase is Phase.APPROVE else None,
            approvals=tuple(self._approvals) if in_deal else (),
            trick=trick,
            joker_request=self._request if self._trick else None,
            joker_called=self._called if self._trick else False,
            last_trick=_trick_of(last[0], last[1], n) if last else None,
            last_trick_winner=last[2] if last else None,
            tricks_played=len(self._tricks) if in_deal else 0,
            face_cards_taken=self._taken_cards() if in_deal else ((),) * n,
            deals_played=self._played,
            match_length=self.options.match_length,
            yoromeki=self.options.yoromeki,
            first_trick_plain=self.options.first_trick_plain,
            last_deal=self._results[-1].result() if self._results else None,
        )

    def outcome(self) -> Outcome | None:
        if self._phase is not Phase.DONE:
            return None
        best = max(self._totals)
        winners = tuple(s for s, v in enumerate(self._totals) if v == best)
        return Outcome(self.totals, winners[0] if len(winners) == 1 else winners)

    def _deal_in_progress(self) -> "_DealLog | None":
        return self._snapshot("in-progress", [0] * self._n, None) if self._phase in _IN_DEAL else None

    def summary(self) -> dict[str, Any]:
        deals = self.deal_summaries()
        out = self.outcome()
        winner: Any = None
        if out is not None:
            winner = list(out.winner) if isinstance(out.winner, tuple) else out.winner
        return {
            "game": "napoleon",
            "deals": deals,
            "totals": list(self._totals),
            "finished": out is not None,
            "winner": winner,
        }

    # -- records -------------------------------------------------------------------------
    def options_json(self) -> dict[str, Any]:
        out = options_to_json(self.options)
        out["deals"] = self.options.match_length
        return out


@dataclass(frozen=True, slots=True, kw_only=True)
class _DealLog:
    """A deal as it ended (or as it stands), kept raw: its summaries are built when asked for."""

    outcome: str
    score: list[int]
    napoleon_wins: bool | None
    log: list[tuple[int, Action]]
    dealt: tuple[tuple[int, ...] | int, ...]
    middle: tuple[int, ...]
    discard: tuple[int, ...]
    tricks: list[tuple[int, tuple[int, ...], int]]
    n: int
    napoleon: int | None
    contract: str | None
    declared: str | None
    adjutant_card: int
    adjutant: int | None
    solo: bool | None
    army_face_cards: int
    taken: tuple[int, ...]
    first_bidder: int

    def hands(self) -> list[list[str]]:
        return [[CARDS[c].code for c in (_display_order(h) if isinstance(h, int) else h)] for h in self.dealt]

    def summary(self) -> dict[str, Any]:
        """The replay JSON of this deal (record spec §3)."""
        return {
            "outcome": self.outcome,
            "tricks": [
                {"leader": lead, "cards": [CARDS[c].code for c in cards], "winner": w} for lead, cards, w in self.tricks
            ],
            "score": list(self.score),
            "napoleon": self.napoleon,
            "contract": self.contract,
            "adjutant_card": CARDS[self.adjutant_card].code if self.adjutant_card >= 0 else None,
            "adjutant": self.adjutant,
            "army_face_cards": self.army_face_cards,
            "napoleon_wins": self.napoleon_wins,
            "solo": self.solo,
            "declared": self.declared,
            "face_cards": [m.bit_count() for m in self.taken],
            "first_bidder": self.first_bidder,
        }

    def result(self) -> dict[str, Any]:
        """The summary with the cards shown face up at the deal's end."""
        out = self.summary()
        out["hands"] = self.hands()
        out["middle"] = [CARDS[c].code for c in self.middle]
        out["discard"] = [CARDS[c].code for c in self.discard]
        return out

    def record(self) -> dict[str, Any]:
        return {
            "hands": self.hands(),
            "rest": [CARDS[c].code for c in self.middle],
            "actions": [dict(seat=s, **a.to_json()) for s, a in self.log],
        }


def _trick_of(leader: int, cards: Sequence[int], n: int) -> Trick:
    return Trick(leader, tuple(((leader + i) % n, CARDS[c]) for i, c in enumerate(cards)))


def _display_order(mask: int) -> tuple[int, ...]:
    """Suits ♠ ♥ ♦ ♣, each from the ace down, then the joker."""
    ids = [c.id for c in cards_of(mask)]
    ids.sort(key=lambda i: (i == JOKER_ID, i // 13, -(i % 13)))
    return tuple(ids)


# --------------------------------------------------------------------------------------------
# Registration


def _new_state(options: NapoleonOptions | None = None, first: int = 0) -> NapoleonState:
    return NapoleonState(options, first)


# --------------------------------------------------------------------------------------------
# The browser client's descriptor (drawn by kirifuda/server/static/app.js, which holds no
# per-game code; see kirifuda/server/ui.py for the keys)

UI: dict[str, Any] = {
    "direction": "cw",
    "strains": "CDHS",
    "units": "seats",
    "seat_roles": [["napoleon", "napoleon"], ["adjutant", "adjutant"]],
    "unit_roles": [],
    "partner_role": None,
    "bids": "bids",
    "stats": [{"field": "face_cards_taken", "per": "seat", "show": "cards"}],
    "headline": ["contract", "adjutant_card", "proposal", "joker_request", "discard"],
    "hints": ["bidding", "adjutant", "discard", "redeclare", "approve", "play"],
    "confirm": ["adjutant", "discard", "redeclare", "approve"],
    "claim_option": None,
    "options": {
        "players": {
            "label": ("人数", "Players"),
            "doc": ("卓の人数。", "Table size."),
            "choices": {"5": ("5人", "5"), "4": ("4人", "4")},
        },
        "joker": {
            "label": ("ジョーカー", "Joker"),
            "doc": ("ジョーカーを入れる (♠3 で呼び出せる)。", "Add the joker (and the ♠3 call)."),
        },
        "yoromeki": {
            "label": ("よろめき", "Yoromeki"),
            "doc": ("♥Q と ♠A が同じ場に出たら ♥Q の勝ち。", "♥Q beats ♠A when both are in the trick."),
        },
        "first_trick_plain": {
            "label": ("最初の場は素で", "Plain first trick"),
            "doc": (
                "最初の場ではオールマイティ (とよろめき) だけが特別 (化学部の流儀)。",
                "In the first trick only the almighty (and yoromeki) keep their power (the chemistry club's rule).",
            ),
        },
        "strategy_b": {
            "label": ("作戦B", "Strategy B"),
            "doc": (
                "20未満の宣言で絵札20枚を全部取ったら連合軍の勝ち。",
                "Taking all 20 face cards below a 20 declaration is the allies' win.",
            ),
        },
        "redeclare": {
            "label": ("再宣言", "Re-declaration"),
            "doc": (
                "交換のあと、ナポレオンがより高い宣言を提案できる。",
                "Napoleon may propose a higher declaration after the exchange.",
            ),
        },
        "deals": {
            "label": ("回数", "Deals"),
            "doc": (
                "試合の回数 (流れた回は数えない)。指定なしは人数の2倍。",
                "Length of the match in deals (void deals not counted); not set: twice the players.",
            ),
        },
    },
}
"""How the browser draws Napoleon: seats clockwise, one score per seat, Napoleon and the adjutant."""


INFO = GameInfo(
    id="napoleon",
    name_ja="ナポレオン",
    name_en="Napoleon",
    aliases=("ナポレオン", "napoleon", "napo", "ナポ"),
    min_players=4,
    max_players=5,
    options_type=NapoleonOptions,
    new_state=_new_state,
    action_kinds=ACTION_KINDS,
    action_space=ActionSpace(
        families=("play", "joker_lead", "call_joker", "bid", "pass", "adjutant", "discard", "redeclare", "approve"),
        bid_counts=tuple(range(11, 21)),
        strains="SHDC",
        max_seats=5,
        deal_steps=320,
        deal_score=40.0,
        zero_sum=True,
        seat_fields=("napoleon", "adjutant"),
    ),
    roles={
        "seat": ("席", "seat"),
        "unit": ("席", "seat"),
        "napoleon": ("ナポレオン", "Napoleon"),
        "adjutant": ("副官", "adjutant"),
        "allied": ("連合軍", "allied army"),
        "army": ("ナポレオン軍", "Napoleon army"),
    },
    bot_modules=("kirifuda.bots.napoleon_heuristic", "kirifuda.bots.search_napoleon"),
    parts={
        "words": "kirifuda.ui.games.napoleon",
        "coach": "kirifuda.coach.games.napoleon",
        "scoresheet": "kirifuda.scoresheets.napoleon",
        "vector": "kirifuda.games.napoleon_vector",  # the batched env core in C (kirifuda.env.vector)
    },
    ui=UI,
)
