"""Unsun on playing cards (うんすんかるた, Edo Unsun An'ei rules ported to the 52-card deck).

Exactly ``docs/unsun.md``.  Three, four or five players, each for themselves, play
clockwise (seat ``s+1`` after seat ``s``).  Before the deal the top card of the pack is turned
face up: the indicator (起き絵), whose suit is trump (利物) for the deal; it is one of the
left-over cards, the others stay face down and out of play (寝た札).  Cards belong to three suit
groups — the trump suit, the red non-trump suits, the black non-trump suits — and compare by rank
alone inside a group, the earlier card winning a tie.  Each trick has a last player (取り番): the
♣J holder (テンカ) for the first trick, else the dealer; then the seat before each trick's
winner.  The seat after the last player starts; there is no must-follow.  The trick goes to the
highest trump; without a trump the last player's card picks the contested group, or loses when
it switches away from the single group the others played.  The trump A, K, Q and J (every trump
with ``all_trumps_face_down``) are played face down (差し).

Decisions (the spec's, and this module's where the spec is silent):

- The dealer of deal 1 is the record's ``first``; each later deal the next seat deals.
- A face-down card is seen by its own player at once; the other seats (and spectators) see only
  that a face-down card was played, until the trick's last card is played: then the whole trick
  is shown (and stays public: won tricks lie face up).
- The left-over cards other than the indicator are never shown in any view, not even after the
  deal (they are in the record, which is not a view).
- A deal's winners are the seats with the most tricks (ties shared).  The match is ``deals``
  deals (default: one per player, so each seat deals once); the most tricks in total wins it
  (ties shared); the deals won are counted beside the totals.
- Option ``deals``: ``None`` (or left out of the JSON) means one deal per player; the options
  object resolves it to that number when built, so ``UnsunOptions(players=3).deals == 3`` and
  records written by the engine name the number.
- ``reflip_face_card``: :meth:`UnsunState.deal_random` reshuffles the whole pack until the
  indicator is not an A, K, Q or J; a given deal (:meth:`UnsunState.deal`, a record) whose
  indicator is one is refused.

The hot path works on card ids (``suit*13 + rank-2``) and int bitmasks.

>>> import random
>>> s = UnsunState(UnsunOptions(players=5))
>>> s.deal_random(random.Random(1))
>>> len(s.view(0).hand), s.view(None).last_player == (s.to_act - 1) % 5
(10, True)
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from enum import Enum
from typing import Any, ClassVar, Literal, Mapping, Sequence

from ..actions import PLAY_KIND, Action, Play
from ..cards import CARDS, Card, MaskDecoder, Suit, cards_of, deck, format_card, parse_card
from ..dealing import check_deal
from ..errors import DealError, IllegalActionError, OptionError
from ..game import ActionSpace, GameInfo, GameState, Outcome, View, options_to_json, public_options, view_maker
from ..i18n import add_terms, t
from ..tricks import Trick

__all__ = [
    "UnsunOptions",
    "UnsunState",
    "UnsunView",
    "Phase",
    "INFO",
    "DECK",
    "DEAL_SIZES",
    "GROUP_TRUMP",
    "GROUP_RED",
    "GROUP_BLACK",
    "group_of",
    "trick_winner",
    "is_face_down",
    "TENKA",
    "deal_winners",
]

# --------------------------------------------------------------------------------------------
# Options


@dataclass(frozen=True, kw_only=True)
class UnsunOptions:
    """うんすんかるたのローカルルール (spec §7).  Defaults follow the spec's options table."""

    players: Literal[4, 3, 5] = 4
    """Table size."""
    reflip_face_card: bool = False
    """Turn a new indicator (reshuffle) when the indicator is an A, K, Q or J."""
    all_trumps_face_down: bool = False
    """Play every trump face down, not only the trump A, K, Q and J."""
    deals: int | None = None
    """Length of the match in deals; ``None`` (left out) means one deal per player."""

    def __post_init__(self) -> None:
        if isinstance(self.players, bool) or self.players not in (3, 4, 5):
            raise OptionError(f"option players={self.players!r} is not 3, 4 or 5")
        for name in ("reflip_face_card", "all_trumps_face_down"):
            if not isinstance(getattr(self, name), bool):
                raise OptionError(f"option {name}={getattr(self, name)!r} must be true or false")
        if self.deals is None:
            object.__setattr__(self, "deals", self.players)
        elif isinstance(self.deals, bool) or not isinstance(self.deals, int) or self.deals < 1:
            raise OptionError(f"option deals={self.deals!r} must be a positive whole number")

    @property
    def match_deals(self) -> int:
        """The number of deals in the match (``deals``, resolved)."""
        return self.deals if self.deals is not None else self.players


# --------------------------------------------------------------------------------------------
# Cards and tables

DECK: tuple[Card, ...] = deck()
DECK_IDS: tuple[int, ...] = tuple(c.id for c in DECK)
DEAL_SIZES: dict[int, tuple[int, int]] = {3: (16, 4), 4: (12, 4), 5: (10, 2)}
"""Players → (cards each, left-over cards, the indicator among them)."""
TENKA = parse_card("JC").id
"""♣J, standing in for the テンカ (the dragon card): its holder is the first last player."""
_FACE_RANK_INDEX = 9
"""Rank indices 9..12 are J, Q, K, A (2 is 0)."""

GROUP_TRUMP, GROUP_RED, GROUP_BLACK = 0, 1, 2
_RED = (False, True, True, False)  # suit index 0 ♠, 1 ♥, 2 ♦, 3 ♣


def _build_groups() -> tuple[tuple[int, ...], ...]:
    out = []
    for trump in range(4):
        row = []
        for cid in range(52):
            s = cid // 13
            row.append(GROUP_TRUMP if s == trump else GROUP_RED if _RED[s] else GROUP_BLACK)
        out.append(tuple(row))
    return tuple(out)


GROUPS: tuple[tuple[int, ...], ...] = _build_groups()
"""``GROUPS[trump][card id]``: the card's group (trump 0, red 1, black 2) under a trump suit."""
TRUMP_MASKS: tuple[int, ...] = tuple(((1 << 13) - 1) << (13 * s) for s in range(4))
FACE_DOWN_MASKS: tuple[tuple[int, int], ...] = tuple(
    (sum(1 << (13 * s + r) for r in range(_FACE_RANK_INDEX, 13)), TRUMP_MASKS[s]) for s in range(4)
)
"""``FACE_DOWN_MASKS[trump][all_trumps_face_down]``: the cards played face down (差し)."""
PLAYS: tuple[Play, ...] = tuple(Play(CARDS[i]) for i in range(52))
_PLAY_DECODER: MaskDecoder[Action] = MaskDecoder(PLAYS)
_BIT = tuple(1 << i for i in range(53))


def group_of(card: Card, trump: Suit) -> int:
    """The group of a card under a trump suit: 0 trump, 1 red, 2 black."""
    return GROUPS[trump.index][card.id]


def is_face_down(card: Card, trump: Suit, all_trumps: bool = False) -> bool:
    """Is this card played face down (差し)?  The trump A K Q J, or every trump."""
    return bool(FACE_DOWN_MASKS[trump.index][int(all_trumps)] >> card.id & 1)


def _winner_index(cards: Sequence[int], trump: int) -> int:
    """The index (in play order) of the winning card; the last card is the last player's."""
    tm = TRUMP_MASKS[trump]
    best_i, best_r = -1, -1
    for i, c in enumerate(cards):
        if tm >> c & 1 and c % 13 > best_r:  # §5.1: the highest trump (ranks are unique)
            best_i, best_r = i, c % 13
    if best_i >= 0:
        return best_i
    group = GROUPS[trump]
    last = group[cards[-1]]
    earlier = cards[:-1]
    contested = last
    for c in earlier:
        if group[c] == last:
            break  # §5.2: the last player's group is among the earlier cards
    else:
        contested = group[earlier[0]]  # §5.3: one group before; the last player switched away
    for i, c in enumerate(cards):
        if group[c] == contested and c % 13 > best_r:  # strict: the earlier card wins a tie
            best_i, best_r = i, c % 13
    return best_i


def trick_winner(cards: Sequence[Card], trump: Suit) -> int:
    """The index (in play order) of the card that wins a complete trick under ``trump``.

    >>> from kirifuda.cards import parse_cards
    >>> trick_winner(parse_cards(["2H", "AS", "KC"]), Suit.DIAMONDS)   # ♥♦ groups apart
    1
    >>> trick_winner(parse_cards(["9S", "9C", "5H"]), Suit.HEARTS)     # ♥ trump wins
    2
    """
    if len(cards) < 2:
        raise ValueError("a trick has at least two cards")
    return _winner_index([c.id for c in cards], trump.index)


class Phase(str, Enum):
    DEAL = "deal"
    """Waiting for the next deal's cards (a chance node)."""
    PLAY = "play"
    DONE = "done"
    """The match is over."""


# --------------------------------------------------------------------------------------------
# The view

CardOrHidden = Card | None


@dataclass(frozen=True, kw_only=True)
class UnsunView(View):
    """What one seat of an Unsun table sees."""

    players: int = 4
    dealer: int | None = None
    """The seat that dealt this deal (親)."""
    indicator: Card | None = None
    """The face-up indicator (起き絵): its suit is trump."""
    trump: Suit | None = None
    starting_player: int | None = None
    """The seat that starts the current trick (打ち出し)."""
    last_player: int | None = None
    """The current trick's last player (取り番): the seat before the starting player."""
    trick: tuple[tuple[int, CardOrHidden], ...] = ()
    """The current trick's plays ``(seat, card)``; ``None`` is a face-down card of another seat."""
    face_down: tuple[int, ...] = ()
    """Seats whose card in the current trick lies face down (差し) for the others."""
    last_trick: Trick | None = None
    """The trick just completed, every card face up, until the next card is played."""
    last_trick_winner: int | None = None
    last_trick_last_player: int | None = None
    tricks: tuple[tuple[Trick, int], ...] = ()
    """This deal's completed tricks with their winners (won tricks lie face up: public)."""
    tricks_won: tuple[int, ...] = ()
    """Tricks taken this deal, per seat."""
    deals_won: tuple[int, ...] = ()
    deals: int = 4
    """The match's length in deals."""
    last_deal: Mapping[str, Any] | None = None
    """The previous deal's result, with the hands as dealt (every one was played face up)."""

    SEAT_FIELDS: ClassVar[frozenset[str]] = frozenset(
        {"to_act", "dealer", "starting_player", "last_player", "last_trick_winner", "last_trick_last_player"}
    )

    def sort_hand(self) -> tuple[Card, ...]:
        """Trumps first, then the red group, then the black group; suit by suit, aces first."""
        if self.trump is None:
            return tuple(sorted(self.hand, key=lambda c: (c.id // 13, -(c.id % 13))))
        group = GROUPS[self.trump.index]
        return tuple(sorted(self.hand, key=lambda c: (group[c.id], c.id // 13, -(c.id % 13))))

    def describe_play(self, seat: int, action: Action, lang: str = "en") -> str:
        """How a play by ``seat`` looks to this view's seat: a face-down card (差し) stays
        hidden while its trick is being played."""
        if isinstance(action, Play) and seat != self.seat:
            for s, card in self.trick:
                if s == seat and card is None:
                    return t("unsun.face_down_play", lang)
        return action.label(lang)

    def table_lines(self, lang: str = "en") -> list[str]:
        """The table for the terminal: trump, the trick with its last player, the counts."""

        def seat(s: int | None) -> str:
            from ..ui.render import seat_name  # the players' names, where the interface gives them

            return seat_name(s, lang, you=self.seat)

        lines = []
        if self.indicator is not None and self.trump is not None:
            lines.append(
                f"{t('unsun.indicator', lang)}: {format_card(self.indicator, lang)}"
                f"   {t('unsun.trump', lang)}: {self.trump.symbol}"
                f"   {t('unsun.dealer', lang)}: {seat(self.dealer)}"
            )
        if self.last_player is not None:
            lines.append(
                f"{t('unsun.last_player', lang)}: {seat(self.last_player)}"
                f"   {t('unsun.starting_player', lang)}: {seat(self.starting_player)}"
            )
            plays = []
            for s, card in self.trick:
                text = t("unsun.face_down", lang) if card is None else format_card(card, lang)
                if card is not None and s in self.face_down:
                    text += f" ({t('unsun.face_down', lang)})"
                plays.append(f"{seat(s)}: {text}")
            lines.append(f"{t('trick', lang)}: " + ("  ".join(plays) if plays else "-"))
        if self.tricks:
            trick, winner = self.tricks[-1]
            last = (trick.leader - 1) % self.players
            cards = "  ".join(f"{seat(s)}: {format_card(c, lang)}" for s, c in trick.plays)
            lines.append(
                f"{t('last_trick', lang)} ({t('unsun.last_player', lang)} {seat(last)}): {cards}  ⇒ {seat(winner)}"
            )
        if self.tricks_won:
            lines.append(
                f"{t('unsun.tricks_won', lang)}: " + "  ".join(f"{seat(s)} {k}" for s, k in enumerate(self.tricks_won))
            )
        if self.deals_won:
            lines.append(
                f"{t('unsun.deals_won', lang)}: "
                + "  ".join(f"{seat(s)} {k}" for s, k in enumerate(self.deals_won))
                + f"   ({t('deal', lang, n=self.deal_number + 1)} / {self.deals})"
            )
        return lines


_make_view = view_maker(UnsunView)
"""Makes a UnsunView as ``UnsunView(**fields)`` does, faster (:func:`~kirifuda.game.view_maker`)."""


add_terms(
    messages={
        "unsun.indicator": ("起き絵", "Indicator"),
        "unsun.trump": ("切り札 (利物)", "Trump"),
        "unsun.dealer": ("親 (配り手)", "Dealer"),
        "unsun.last_player": ("取り番", "Last player"),
        "unsun.starting_player": ("打ち出し", "Starts"),
        "unsun.face_down": ("伏せ札", "face down"),
        "unsun.face_down_play": ("札を伏せて出す (差し)", "plays a card face down"),
        "unsun.tricks_won": ("取った個", "Tricks won"),
        "unsun.deals_won": ("勝った回", "Deals won"),
    },
    fields={
        "dealer": ("親 (配り手)", "dealer"),
        "indicator": ("起き絵", "indicator"),
        "trump": ("切り札", "trump"),
        "starting_player": ("打ち出し", "starting player"),
        "last_player": ("取り番", "last player"),
        "face_down": ("伏せ札 (差し)", "face-down cards"),
        "last_trick_last_player": ("直前の場の取り番", "last player of the last trick"),
        "tricks_won": ("取った個", "tricks won"),
        "deals_won": ("勝った回", "deals won"),
        "winners": ("勝者", "winners"),
        "players": ("人数", "players"),
        "rest": ("残り札 (先頭が起き絵)", "left over (the indicator first)"),
    },
    game="unsun",
)


# --------------------------------------------------------------------------------------------
# The state


def deal_winners(tricks_won: Sequence[int]) -> tuple[int, ...]:
    """The seats that won a deal (spec §6): the most tricks, ties shared.

    >>> deal_winners([4, 2, 4, 2])
    (0, 2)
    """
    top = max(tricks_won)
    return tuple(s for s, w in enumerate(tricks_won) if w == top)


class UnsunState(GameState):
    """An Unsun match.  ``first`` is the dealer of deal 1."""

    game_id = "unsun"
    DEAL_PHASE = Phase.DEAL
    DONE_PHASE = Phase.DONE

    __slots__ = (
        "options",
        "first",
        "num_players",
        "_n",
        "_hand_size",
        "_fd_all",
        "_phase",
        "_to_act",
        "_deal_no",
        "_dealer",
        "_totals",
        "_deals_won",
        "_results",
        "_log",
        "_dealt",
        "_rest",
        "_trump",
        "_hands",
        "_start",
        "_trick",
        "_tricks",
        "_won",
        "_legal",
        "_last",
        "_fd_mask",
        "_view_tricks",
    )
    COPY_LISTS = ("_totals", "_deals_won", "_log", "_hands", "_trick", "_tricks", "_won")

    def __init__(self, options: UnsunOptions | None = None, first: int = 0) -> None:
        self.options = options or UnsunOptions()
        n = self.options.players
        if not isinstance(first, int) or isinstance(first, bool) or not 0 <= first < n:
            raise OptionError(f"first must be a seat 0-{n - 1}, got {first!r}")
        self.first = first
        self.num_players = n
        self._n = n
        self._view_tricks: tuple[list[tuple[int, tuple[int, ...], int]] | None, tuple[tuple[Trick, int], ...]] = (
            None,
            (),
        )
        """The completed tricks as views show them, kept with the tricks list they were made
        from (it only grows during a deal; a copy has its own, and makes them again)."""
        self._hand_size = DEAL_SIZES[n][0]
        self._fd_all = int(self.options.all_trumps_face_down)
        self._phase = Phase.DEAL
        self._to_act: int | None = None
        self._deal_no = 0
        self._dealer = first
        self._totals = [0] * n
        self._deals_won = [0] * n
        self._results: tuple[_DealLog, ...] = ()
        self._reset_deal()

    def _reset_deal(self) -> None:
        self._log: list[tuple[int, Action]] = []
        self._dealt: tuple[tuple[int, ...] | int, ...] = ()
        """The hands as dealt: card ids in the order given, or a mask (written in display order)."""
        self._rest: tuple[int, ...] = ()
        """The left-over cards, the indicator first."""
        self._trump = 0
        self._hands = [0] * self._n
        self._start = 0
        self._trick: list[int] = []
        """The current trick's cards in play order (seats follow from ``_start``)."""
        self._tricks: list[tuple[int, tuple[int, ...], int]] = []
        """Completed tricks: (starting player, cards, winner)."""
        self._won = [0] * self._n
        self._legal: tuple[Action, ...] | None = None
        self._last: tuple[int, tuple[int, ...], int] | None = None
        self._fd_mask = 0

    # -- properties ----------------------------------------------------------------------
    @property
    def dealer(self) -> int:
        """The dealer of the current deal (of the next one, at a chance node)."""
        return self._dealer

    @property
    def trump(self) -> Suit | None:
        return Suit("SHDC"[self._trump]) if self._phase is Phase.PLAY else None

    @property
    def indicator(self) -> Card | None:
        return CARDS[self._rest[0]] if self._phase is Phase.PLAY else None

    @property
    def rest(self) -> tuple[Card, ...]:
        """The left-over cards, the indicator first (the whole state: not for players)."""
        return tuple(CARDS[c] for c in self._rest)

    @property
    def starting_player(self) -> int | None:
        return self._start if self._phase is Phase.PLAY else None

    @property
    def last_player(self) -> int | None:
        """取り番 of the current trick: the seat before the starting player."""
        return (self._start - 1) % self._n if self._phase is Phase.PLAY else None

    def hand(self, seat: int) -> tuple[Card, ...]:
        """A seat's cards (the whole state: for the engine, tests and solvers, not for players)."""
        return cards_of(self._hands[seat])

    @property
    def current_trick(self) -> Trick:
        """The trick being played, every card face up (the whole state: not for players)."""
        return _trick_of(self._start, self._trick, self._n)

    @property
    def tricks(self) -> tuple[tuple[Trick, int], ...]:
        """This deal's completed tricks with their winners."""
        return tuple((_trick_of(lead, cards, self._n), w) for lead, cards, w in self._tricks)

    @property
    def tricks_won(self) -> tuple[int, ...]:
        return tuple(self._won)

    @property
    def totals(self) -> tuple[int, ...]:
        return tuple(self._totals)

    @property
    def deals_won(self) -> tuple[int, ...]:
        return tuple(self._deals_won)

    # -- dealing -------------------------------------------------------------------------
    def deal(self, hands: Sequence[Sequence[Card | str]], rest: Sequence[Card | str]) -> None:
        """Deal the given hands (seat order) and left-over cards, the indicator first."""
        self._require_deal()
        size, left = DEAL_SIZES[self._n]
        masks, rest_ids = check_deal(hands, rest, DECK, (size,) * self._n, left)
        if self.options.reflip_face_card and rest_ids[0] % 13 >= _FACE_RANK_INDEX:
            raise DealError(
                f"the indicator {CARDS[rest_ids[0]].code} is an A, K, Q or J: with "
                "reflip_face_card the pack is reshuffled and a new indicator turned"
            )
        self._start_deal(masks, tuple(rest_ids), tuple(tuple(_ids_in_order(h)) for h in hands))

    def deal_random(self, rng: random.Random) -> None:
        """Shuffle, turn the top card as the indicator (again, after a reshuffle, while it is a
        face card under ``reflip_face_card``), deal the next cards, leave the rest over."""
        self._require_deal()
        r = rng.random
        reflip = self.options.reflip_face_card
        while True:
            ids = sorted(DECK_IDS, key=lambda _: r())  # a uniform shuffle, faster than rng.shuffle
            if not reflip or ids[0] % 13 < _FACE_RANK_INDEX:
                break
        n, size = self._n, self._hand_size
        bit = _BIT.__getitem__
        masks = [sum(map(bit, ids[1 + s * size : 1 + (s + 1) * size])) for s in range(n)]
        self._start_deal(masks, (ids[0],) + tuple(ids[1 + n * size :]), None)

    def _require_deal(self) -> None:
        if self._phase is not Phase.DEAL:
            raise IllegalActionError(
                None, "deal", "the match is over" if self._phase is Phase.DONE else "a deal is in progress"
            )

    def _start_deal(self, masks: list[int], rest: tuple[int, ...], order: tuple[tuple[int, ...], ...] | None) -> None:
        self._reset_deal()
        self._hands = list(masks)
        self._rest = rest
        self._dealt = order if order is not None else tuple(masks)
        self._trump = rest[0] // 13
        self._fd_mask = FACE_DOWN_MASKS[self._trump][self._fd_all]
        last = self._dealer  # ♣J among the left-over cards: the dealer is the last player
        for seat, m in enumerate(masks):
            if m >> TENKA & 1:
                last = seat  # テンカ: the ♣J holder
        self._start = (last + 1) % self._n
        self._to_act = self._start
        self._phase = Phase.PLAY

    # -- legal actions -------------------------------------------------------------------
    def _compute_legal(self) -> tuple[Action, ...]:
        if self._phase is Phase.PLAY:
            seat = self._to_act
            assert seat is not None
            return _PLAY_DECODER.decode(self._hands[seat])  # no must-follow: any card
        return ()

    def _why_illegal(self, action: Action) -> str:
        seat = self._to_act
        assert seat is not None
        if isinstance(action, Play):
            card = action.card
            if card.is_joker:
                return "Unsun is played without the joker"
            if action.request is not None:
                return "Unsun has no joker requests: a play names its card only"
            if action.call_joker:
                return "Unsun has no joker call"
            if not self._hands[seat] >> card.id & 1:
                return f"seat {seat} does not hold {card.code}"
            return "not a legal card now"
        return f"{type(action).__name__} is not an Unsun action: Unsun has no bidding or other decisions, only plays"

    # -- applying ------------------------------------------------------------------------
    def apply(self, action: Action, seat: int | None = None) -> None:
        """Check the action, then carry it out; a refused action leaves the state unchanged.
        (The common case, a play of a card in hand by the seat to act, is checked inline.)"""
        to_act = self._to_act
        if (
            type(action) is Play
            and (seat is None or seat == to_act)
            and to_act is not None
            and action.request is None
            and not action.call_joker
            and self._hands[to_act] >> action.card.id & 1
            and action.card.id < 52
        ):
            self._legal = None
            self._log.append((to_act, action))
            self._play(to_act, action.card.id)
            return
        self.check(action, seat)
        self._apply(action)

    def _apply(self, action: Action) -> None:
        seat = self._to_act
        assert seat is not None and type(action) is Play
        self._legal = None
        self._log.append((seat, action))
        self._play(seat, action.card.id)

    def _play(self, seat: int, cid: int) -> None:
        self._hands[seat] ^= 1 << cid
        trick = self._trick
        if not trick:
            self._last = None
        trick.append(cid)
        n = self._n
        if len(trick) < n:
            self._to_act = (seat + 1) % n
            return
        cards = tuple(trick)
        winner = (self._start + _winner_index(cards, self._trump)) % n
        done = (self._start, cards, winner)
        self._tricks.append(done)
        self._last = done
        self._won[winner] += 1
        self._trick = []
        if len(self._tricks) == self._hand_size:
            self._end_deal()
            return
        self._start = winner  # the winner starts; the seat before them is the last player
        self._to_act = winner

    def _end_deal(self) -> None:
        won = self._won
        winners = deal_winners(won)
        self._results = self._results + (self._snapshot("played", winners),)
        self._close_deal(won, winners)

    def end_scored_deal(self, log: Any, tricks_won: list[int]) -> None:
        """End a deal entered by its facts (a scored deal of a record): ``log`` gives its replay
        and record JSON."""
        self._require_deal()
        self._last = None
        self._results = self._results + (log,)
        self._close_deal(tricks_won, deal_winners(tricks_won))

    def _close_deal(self, won: list[int], winners: tuple[int, ...]) -> None:
        for s in winners:
            self._deals_won[s] += 1
        self._totals = [a + b for a, b in zip(self._totals, won)]
        self._deal_no += 1
        self._dealer = (self._dealer + 1) % self._n
        self._to_act = None
        self._legal = None
        self._phase = Phase.DONE if self._deal_no >= self.options.match_deals else Phase.DEAL

    def _snapshot(self, outcome: str, winners: tuple[int, ...] | None) -> "_DealLog":
        return _DealLog(
            outcome, self._n, winners, self._log, self._dealt, self._rest, self._tricks, self._won[:], self._dealer
        )

    # -- seeing --------------------------------------------------------------------------
    def _made_tricks(self) -> tuple[tuple[Trick, int], ...]:
        """:attr:`tricks`, made once per trick (:attr:`_view_tricks`)."""
        tricks = self._tricks
        kept, made = self._view_tricks
        if kept is not tricks or len(made) > len(tricks):
            made = ()
        if len(made) < len(tricks):
            n = self._n
            made += tuple((_trick_of(lead, cards, n), w) for lead, cards, w in tricks[len(made) :])
            self._view_tricks = (tricks, made)
        return made

    def view(self, seat: int | None) -> UnsunView:
        n = self._n
        if seat is not None and not (isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < n):
            raise ValueError(f"no seat {seat!r} at a table of {n}")
        in_deal = self._phase is Phase.PLAY
        trick: tuple[tuple[int, Card | None], ...] = ()
        face_down: tuple[int, ...] = ()
        if in_deal and self._trick:
            fd = self._fd_mask
            start = self._start
            plays = []
            down = []
            for i, c in enumerate(self._trick):
                s = (start + i) % n
                hidden = fd >> c & 1
                if hidden:
                    down.append(s)
                plays.append((s, None if hidden and s != seat else CARDS[c]))
            trick, face_down = tuple(plays), tuple(down)
        last = self._last if not self._trick else None
        made = self._made_tricks() if in_deal else ()
        return _make_view(
            options=public_options(self.options, self.options_json),
            game="unsun",
            seat=seat,
            phase=self._phase.value,
            to_act=self._to_act,
            deal_number=self._deal_no,
            hand=cards_of(self._hands[seat]) if seat is not None and in_deal else (),
            hand_sizes=tuple(h.bit_count() for h in self._hands) if in_deal else (0,) * n,
            legal_actions=self.legal_actions() if seat is not None and seat == self._to_act else (),
            totals=self.totals,
            players=n,
            dealer=self._dealer if in_deal else None,
            indicator=CARDS[self._rest[0]] if in_deal else None,
            trump=self.trump,
            starting_player=self._start if in_deal else None,
            last_player=(self._start - 1) % n if in_deal else None,
            trick=trick,
            face_down=face_down,
            last_trick=(made[-1][0] if made and last is self._tricks[-1] else _trick_of(last[0], last[1], n))
            if last
            else None,
            last_trick_winner=last[2] if last else None,
            last_trick_last_player=(last[0] - 1) % n if last else None,
            tricks=made if in_deal else (),
            tricks_won=self.tricks_won if in_deal else (),
            deals_won=self.deals_won,
            deals=self.options.match_deals,
            last_deal=self._results[-1].result() if self._results else None,
        )

    def outcome(self) -> Outcome | None:
        if self._phase is not Phase.DONE:
            return None
        top = max(self._totals)
        winners = tuple(s for s in range(self._n) if self._totals[s] == top)
        return Outcome(self.totals, winners[0] if len(winners) == 1 else winners)

    def _deal_in_progress(self) -> "_DealLog | None":
        return self._snapshot("in-progress", None) if self._phase is Phase.PLAY else None

    def summary(self) -> dict[str, Any]:
        deals = self.deal_summaries()
        out = self.outcome()
        winner: int | list[int] | None = None
        if out is not None:
            winner = list(out.winner) if isinstance(out.winner, tuple) else out.winner
        return {
            "game": "unsun",
            "deals": deals,
            "totals": list(self._totals),
            "finished": out is not None,
            "winner": winner,
            "deals_won": list(self._deals_won),
        }

    # -- records -------------------------------------------------------------------------
    def options_json(self) -> dict[str, Any]:
        return options_to_json(self.options)


@dataclass(frozen=True, slots=True)
class _DealLog:
    """A deal as it ended (or as it stands), kept raw: its summaries are built when asked for."""

    outcome: str
    n: int
    winners: tuple[int, ...] | None
    log: list[tuple[int, Action]]
    dealt: tuple[tuple[int, ...] | int, ...]
    rest: tuple[int, ...]
    tricks: list[tuple[int, tuple[int, ...], int]]
    won: list[int]
    dealer: int

    def hands(self) -> list[list[str]]:
        return [[CARDS[c].code for c in (_display_order(h) if isinstance(h, int) else h)] for h in self.dealt]

    def summary(self) -> dict[str, Any]:
        """The replay JSON of this deal (record spec §3)."""
        n = self.n
        played = self.outcome == "played"
        return {
            "outcome": self.outcome,
            "tricks": [
                {"leader": lead, "cards": [CARDS[c].code for c in cards], "winner": w, "last_player": (lead - 1) % n}
                for lead, cards, w in self.tricks
            ],
            "score": list(self.won) if played else [0] * n,
            "trump": "SHDC"[self.rest[0] // 13],
            "tricks_won": list(self.won),
            "dealer": self.dealer,
            "indicator": CARDS[self.rest[0]].code,
            "winners": list(self.winners) if self.winners is not None else None,
        }

    def result(self) -> dict[str, Any]:
        """The summary with the hands as dealt (every card of them was played face up).  The
        left-over cards other than the indicator stay unseen."""
        out = self.summary()
        out["hands"] = self.hands()
        return out

    def record(self) -> dict[str, Any]:
        """The deal as a record deal: hands, rest (the indicator first), actions."""
        return {
            "hands": self.hands(),
            "rest": [CARDS[c].code for c in self.rest],
            "actions": [dict(seat=s, **a.to_json()) for s, a in self.log],
        }


def _trick_of(leader: int, cards: Sequence[int], n: int) -> Trick:
    return Trick(leader, tuple(((leader + i) % n, CARDS[c]) for i, c in enumerate(cards)))


def _ids_in_order(hand: Sequence[Card | str]) -> list[int]:
    return [parse_card(c).id for c in hand]


def _display_order(mask: int) -> tuple[int, ...]:
    """Suits ♠ ♥ ♦ ♣, each from the ace down."""
    ids = [c.id for c in cards_of(mask)]
    ids.sort(key=lambda i: (i // 13, -(i % 13)))
    return tuple(ids)


# --------------------------------------------------------------------------------------------
# Registration


def _new_state(options: UnsunOptions | None = None, first: int = 0) -> UnsunState:
    return UnsunState(options, first)


def _reflip_filter(options: Any, rest_index: int, card: int) -> bool:
    """``reflip_face_card``: the indicator (the first card of the rest) is never a face card."""
    if rest_index == 0 and getattr(options, "reflip_face_card", False):
        return card == 52 or card % 13 < 9  # 2 … T
    return True


# --------------------------------------------------------------------------------------------
# The browser client's descriptor (drawn by kirifuda/server/static/app.js, which holds no
# per-game code; see kirifuda/server/ui.py for the keys)

UI: dict[str, Any] = {
    "direction": "cw",
    "strains": "",
    "units": "seats",
    "seat_roles": [["dealer", "dealer"], ["starting_player", "starter", "leads"], ["last_player", "toriban"]],
    "unit_roles": [],
    "partner_role": None,
    "bids": None,
    "stats": [{"field": "tricks_won", "per": "seat", "show": "tricks"}],
    "headline": ["indicator", "trump"],
    "hints": ["play"],
    "confirm": [],
    "claim_option": None,
    "options": {
        "players": {
            "label": ("人数", "Players"),
            "doc": ("卓の人数。", "Table size."),
            "choices": {"4": ("4人", "4"), "3": ("3人", "3"), "5": ("5人", "5")},
        },
        "reflip_face_card": {
            "label": ("絵札の起き絵はめくり直し", "Re-turn a face-card indicator"),
            "doc": (
                "起き絵が A K Q J なら切り直して新しい起き絵をめくる。",
                "Turn a new indicator (reshuffle) when the indicator is an A, K, Q or J.",
            ),
        },
        "all_trumps_face_down": {
            "label": ("切り札は全部伏せて", "Every trump face down"),
            "doc": (
                "A K Q J だけでなく、切り札はすべて伏せて出す。",
                "Play every trump face down, not only the trump A, K, Q and J.",
            ),
        },
        "deals": {
            "label": ("回数", "Deals"),
            "doc": (
                "試合の回数。指定なしは人数と同じ。",
                "Length of the match in deals; not set: one deal per player.",
            ),
        },
    },
}
"""How the browser draws Unsun: seats clockwise, tricks per seat, the dealer and the 取り番."""


INFO = GameInfo(
    id="unsun",
    name_ja="うんすんかるた (トランプ版)",
    name_en="Unsun (on playing cards)",
    aliases=("うんすんかるた", "うんすん", "unsun-karuta", "unsun", "edo-unsun"),
    min_players=3,
    max_players=5,
    options_type=UnsunOptions,
    new_state=_new_state,
    action_kinds=(PLAY_KIND,),
    action_space=ActionSpace(
        families=("play",),
        max_seats=5,
        deal_steps=56,
        deal_score=16.0,
        seat_fields=("dealer",),
        chance_filter=_reflip_filter,
    ),
    roles={
        "seat": ("席", "seat"),
        "unit": ("席", "seat"),
        "dealer": ("親 (配り手)", "dealer"),
        "starting_player": ("打ち出し", "starting player"),
    },
    bot_modules=("kirifuda.bots.unsun_heuristic", "kirifuda.bots.search_unsun"),
    parts={
        "words": "kirifuda.ui.games.unsun",
        "coach": "kirifuda.coach.games.unsun",
        "scoresheet": "kirifuda.scoresheets.unsun",
        "vector": "kirifuda.games.unsun_vector",  # the batched env core in C (kirifuda.env.vector)
    },
    ui=UI,
)
