"""Kakeya Trump (掛合トランプ, 絵取り): the pair game handed down in Kakeya, Shimane.

Exactly ``docs/kakeya.md``.  Four players (pairs 0+2 and 1+3) or six (pairs 0+3,
1+4, 2+5), partners opposite; every game is played by two pairs over 52 cards, 13 tricks of
must-follow.  The dealing pair may change the trump (切り) before anyone looks at their cards;
the rensho (れんしょ, ♠A, or ♣A when spades are trump) beats every card but keeps its printed suit
for following.  Pairs capture face cards (絵札: A K Q J); 9 or more wins, and at 8–8 the pair
that was not dealt the rensho wins.  The loser pays chips (ご石) by the chip table; chips may go
below zero.  With six players the losing pair deals and sits out the next game.

Decisions where the spec leaves room (also in ``docs/kakeya.md``):

- Scoring units are the pairs, by their lower seat: pair ``p`` is seats ``p`` and ``p + n/2``.
- The trump decision offers ``keep`` and all four suits; naming the suit in force is recorded as
  written and means the same as ``keep``.
- A rensho lead is a lead of its printed suit (♠, or ♣ under ♠ trump): the others follow that
  suit, not trumps; it wins the trick all the same.
- A deal's ``score`` is the chip change: ``+x`` for the winner, ``-x`` for the loser, ``0`` for a
  pair sitting out.
- After a game, a view's ``last_deal`` shows its result (winner, face cards, payment and why)
  but no hands and no tricks: number cards set aside face down stay unseen.
- ``first`` of a record is accepted and ignored (the seed fixes who deals and leads game 1).
- With ``stop_at_zero`` the match ends after the payment that leaves a pair at 0 or below;
  ``games`` ends it after that many games in any case.

The hot path works on card ids and bitmasks (see :mod:`kirifuda.cards`).

>>> import random
>>> s = KakeyaState(KakeyaOptions())
>>> s.deal_random(random.Random(7))
>>> s.phase, s.to_act, s.view(0).hand
(<Phase.TRUMP: 'trump'>, 1, ())
>>> s.apply(ChooseTrump(None)); s.phase, s.to_act, len(s.view(0).hand)
(<Phase.LEADER: 'leader'>, 0, 13)
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from enum import Enum
from typing import Any, ClassVar, Literal, Mapping, Sequence

from ..actions import PLAY_KIND, Action, ActionFamily, ActionKind, Play
from ..cards import CARDS, Card, MaskDecoder, Suit, cards_of, deck, parse_card
from ..dealing import check_deal
from ..errors import IllegalActionError, InvalidActionError, OptionError
from ..game import ActionSpace, GameInfo, GameState, Outcome, View, options_to_json, public_options, view_maker
from ..i18n import add_terms
from ..tricks import Trick, strongest


# -- the game's own actions (the shared ones are kirifuda.actions') ---------------------------


@dataclass(frozen=True, slots=True)
class ChooseTrump:
    """Kakeya's trump (切り) decision by the dealing pair; ``suit is None`` keeps the trump."""

    suit: Suit | None = None

    def to_json(self) -> dict[str, Any]:
        return {"trump": "keep" if self.suit is None else self.suit.value}

    def label(self, lang: str = "en") -> str:
        if self.suit is None:
            return "切りはそのまま" if lang == "ja" else "keep the trump"
        return f"切り {self.suit.symbol}" if lang == "ja" else f"trump {self.suit.symbol}"


@dataclass(frozen=True, slots=True)
class ChooseLeader:
    """Kakeya: the leading pair's choice of who leads the first trick."""

    seat: int

    def to_json(self) -> dict[str, Any]:
        return {"leader": self.seat}

    def label(self, lang: str = "en") -> str:
        return f"親 {self.seat}" if lang == "ja" else f"seat {self.seat} leads"

    def input_words(self) -> set[str]:
        return {f"seat {self.seat}", f"席{self.seat}"}


def _read_trump(d: Mapping[str, Any], seat: int | None) -> Action:
    value = d["trump"]
    if value == "keep":
        return ChooseTrump(None)
    if value not in ("S", "H", "D", "C"):
        raise InvalidActionError(f"trump must be S H D C or keep, got {value!r}")
    return ChooseTrump(Suit(value))


def _read_leader(d: Mapping[str, Any], seat: int | None) -> Action:
    value = d["leader"]
    if not isinstance(value, int) or isinstance(value, bool):
        raise InvalidActionError(f"leader must be a seat number, got {value!r}")
    return ChooseLeader(value)


ACTION_KINDS: tuple[ActionKind, ...] = (
    PLAY_KIND,
    ActionKind(
        "trump",
        _read_trump,
        families=(
            ActionFamily(
                "trump",
                lambda space: (
                    [(ChooseTrump(None), "trump keep")] + [(ChooseTrump(Suit(s)), f"trump {s}") for s in "SHDC"]
                ),
            ),
        ),
    ),
    ActionKind(
        "leader",
        _read_leader,
        families=(
            ActionFamily("leader", lambda space: ((ChooseLeader(s), f"leader {s}") for s in range(space.max_seats))),
        ),
    ),
)
"""Kakeya's actions: a play, the dealing pair's trump decision, the leading pair's leader."""

__all__ = [
    "ChooseTrump",
    "ChooseLeader",
    "ACTION_KINDS",
    "KakeyaOptions",
    "KakeyaState",
    "KakeyaView",
    "Phase",
    "INFO",
    "DECK",
    "rensho_of",
    "chip_payment",
    "game_result",
    "START_CHIPS",
    "FACE_MASK",
    "ALL_ACES",
    "ACE_IDS",
]

# --------------------------------------------------------------------------------------------
# Options


@dataclass(frozen=True, kw_only=True)
class KakeyaOptions:
    """掛合トランプのローカルルール (spec §8).  Defaults follow the spec's options table."""

    players: Literal[4, 6] = 4
    """Table size: 4 (two pairs) or 6 (three pairs, one sitting out each game)."""
    initial_trump: Literal["D", "S", "H", "C"] = "D"
    """The trump in force when game 1 starts (the dealing pair may still change it)."""
    stop_at_zero: bool = True
    """The match ends after a payment that leaves some pair with no chips (0 or fewer)."""
    games: int | None = None
    """At most this many games (``None``: no cap); required when ``stop_at_zero`` is false."""

    def __post_init__(self) -> None:
        if self.players not in (4, 6) or isinstance(self.players, bool):
            raise OptionError(f"option players={self.players!r} is not 4 or 6")
        if self.initial_trump not in ("D", "S", "H", "C"):
            raise OptionError(f"option initial_trump={self.initial_trump!r} is not one of 'D', 'S', 'H', 'C'")
        if not isinstance(self.stop_at_zero, bool):
            raise OptionError(f"option stop_at_zero={self.stop_at_zero!r} must be true or false")
        if self.games is not None and (
            isinstance(self.games, bool) or not isinstance(self.games, int) or self.games < 1
        ):
            raise OptionError(f"option games={self.games!r} must be a positive whole number or null")
        if not self.stop_at_zero and self.games is None:
            raise OptionError("option games must be set when stop_at_zero is false (the match would never end)")


# --------------------------------------------------------------------------------------------
# Cards and tables

DECK: tuple[Card, ...] = deck()
DECK_IDS: tuple[int, ...] = tuple(c.id for c in DECK)
START_CHIPS = 5
TRICKS_PER_GAME = 13
_SUIT_INDEX = {"S": 0, "H": 1, "D": 2, "C": 3}
_SUIT_LETTER = "SHDC"
_BIT = tuple(1 << i for i in range(53))
SUIT_MASKS: tuple[int, ...] = tuple(sum(1 << (s * 13 + r) for r in range(13)) for s in range(4))
FACE_MASK = sum(1 << (s * 13 + r) for s in range(4) for r in range(9, 13))
"""The 16 face cards (絵札): J Q K A of every suit."""
ACE_IDS = tuple(s * 13 + 12 for s in range(4))
ALL_ACES = sum(1 << i for i in ACE_IDS)
AS_ID, AC_ID = ACE_IDS[0], ACE_IDS[3]
RENSHO_STRENGTH = 1000


def rensho_of(trump: int) -> int:
    """The id of the rensho (れんしょ) under a trump suit index: ♠A, or ♣A when spades are trump."""
    return AC_ID if trump == 0 else AS_ID


def _build_strength() -> list[list[list[int]]]:
    """``STRENGTH[trump][led][card]``: the rensho 1000, trumps 100 + rank, the led suit its rank,
    anything else 0.  The greatest strength in a trick wins it."""
    out = []
    for trump in range(4):
        rensho = rensho_of(trump)
        by_led = []
        for led in range(4):
            st = [0] * 53
            for cid in DECK_IDS:
                s, r = divmod(cid, 13)
                if cid == rensho:
                    st[cid] = RENSHO_STRENGTH
                elif s == trump:
                    st[cid] = 100 + r + 2
                elif s == led:
                    st[cid] = r + 2
            by_led.append(st)
        out.append(by_led)
    return out


STRENGTH = _build_strength()
PLAYS: tuple[Play, ...] = tuple(Play(CARDS[i]) for i in range(53))
_PLAY_DECODER: MaskDecoder[Action] = MaskDecoder([PLAYS[i] for i in range(52)])
TRUMP_CHOICES: tuple[ChooseTrump, ...] = (ChooseTrump(None),) + tuple(ChooseTrump(Suit(s)) for s in "SHDC")


def chip_payment(winner_faces: int, loser_dealt: int, trump: int) -> tuple[int, str]:
    """The chips the losing pair pays (spec §6) and the table column: ``plain``,
    ``rensho_trump_ace`` or ``four_aces``.  ``loser_dealt`` is the mask of the losing pair's 26
    cards as dealt; ``winner_faces`` the winner's face-card count (8 … 16).

    >>> chip_payment(10, 0, 2), chip_payment(12, 0, 2), chip_payment(16, 0, 2)
    ((1, 'plain'), (2, 'plain'), (4, 'plain'))
    >>> from kirifuda.cards import mask_of, parse_cards
    >>> chip_payment(9, mask_of(parse_cards(["AS", "AD"])), 2)
    (2, 'rensho_trump_ace')
    >>> chip_payment(9, mask_of(parse_cards(["AS", "AD", "AH", "AC"])), 2)
    (4, 'four_aces')
    """
    if loser_dealt & ALL_ACES == ALL_ACES:
        return 4, "four_aces"
    trump_ace = ACE_IDS[trump]
    if loser_dealt >> rensho_of(trump) & 1 and loser_dealt >> trump_ace & 1:
        return 2, "rensho_trump_ace"
    if winner_faces >= 16:
        return 4, "plain"
    if winner_faces >= 12:
        return 2, "plain"
    return 1, "plain"


def game_result(
    faces: tuple[int, int], pairs: tuple[int, int], rensho_pair: int, dealt: tuple[int, int], trump: int
) -> tuple[int, int, int, str]:
    """A game's result (spec §6): ``(winning pair, losing pair, chips paid, table column)``.
    ``faces`` are the face cards taken by the two playing ``pairs``, ``dealt`` the masks of
    their 26 cards as dealt (for :func:`chip_payment`); at 8 – 8 the pair not dealt the rensho
    wins.

    >>> game_result((10, 6), (0, 1), 1, (0, 0), 2)
    (0, 1, 1, 'plain')
    >>> game_result((8, 8), (0, 1), 0, (0, 0), 2)
    (1, 0, 1, 'plain')
    """
    a, b = pairs
    fa, fb = faces
    if fa >= 9:
        winner = a
    elif fb >= 9:
        winner = b
    else:  # 8 – 8: the pair not dealt the rensho wins
        winner = b if rensho_pair == a else a
    loser = b if winner == a else a
    pay, column = chip_payment(max(fa, fb), dealt[0] if loser == a else dealt[1], trump)
    return winner, loser, pay, column


class Phase(str, Enum):
    DEAL = "deal"
    """Waiting for the next game's cards (a chance node)."""
    TRUMP = "trump"
    """The dealing pair decides the trump (切り), before anyone looks at their cards."""
    LEADER = "leader"
    """The leading pair decides which of them leads the first trick."""
    PLAY = "play"
    DONE = "done"
    """The match is over."""


_IN_GAME = (Phase.TRUMP, Phase.LEADER, Phase.PLAY)


# --------------------------------------------------------------------------------------------
# The view


@dataclass(frozen=True, kw_only=True)
class KakeyaView(View):
    """What one seat of a Kakeya table sees (a spectator, or a seat of the pair sitting out,
    sees no hand)."""

    SEAT_FIELDS: ClassVar[frozenset[str]] = frozenset({"to_act", "leader", "last_trick_winner"})

    players: int = 4
    pairs: tuple[tuple[int, int], ...] = ()
    """Each pair's seats, lower seat first; a pair's index is its scoring unit."""
    own_pair: int | None = None
    dealing_pair: int | None = None
    leading_pair: int | None = None
    sitting_out: int | None = None
    """The pair sitting out this game (six players), else ``None``."""
    trump: Suit | None = None
    """The trump in force (carried over until the dealing pair decides)."""
    trump_decided: bool = False
    rensho: Card | None = None
    leader: int | None = None
    """The seat that leads (led) the first trick, once chosen."""
    trick: Trick | None = None
    """The trick being played (``None`` between tricks)."""
    last_trick: Trick | None = None
    """The trick just completed, visible until the next card is played."""
    last_trick_winner: int | None = None
    tricks_played: int = 0
    face_cards: tuple[tuple[Card, ...] | None, ...] = ()
    """Each pair's captured face cards, laid face up (``None`` for a pair sitting out)."""
    last_deal: Mapping[str, Any] | None = None
    """The previous game's result: winner, face cards, payment (no hands, no tricks)."""

    def sort_hand(self) -> tuple[Card, ...]:
        """The rensho first, then trumps, then the other suits ♠ ♥ ♦ ♣, each from the ace down."""
        trump = self.trump.index if self.trump is not None and self.trump_decided else -1
        rensho = self.rensho.id if self.rensho is not None and self.trump_decided else -1

        def key(c: Card) -> tuple[int, int, int]:
            if c.id == rensho:
                return (0, 0, 0)
            s = c.id // 13
            return (1 if s == trump else 2, s, -(c.id % 13))

        return tuple(sorted(self.hand, key=key))

    def _pair_text(self, p: int, lang: str) -> str:
        a, b = self.pairs[p]
        if _player(a) is not None:  # the players' names, where the interface gives them
            return (
                f"ペア{p} ({_seat(a, lang)}・{_seat(b, lang)})"
                if lang == "ja"
                else f"pair {p} ({_seat(a, lang)} & {_seat(b, lang)})"
            )
        return f"ペア{p} (席{a}・席{b})" if lang == "ja" else f"pair {p} (seats {a} & {b})"

    def table_lines(self, lang: str = "en") -> list[str]:
        """The table for the terminal: pairs and their roles, trump, rensho, the trick, the
        face cards laid out in front of each pair."""
        from ..cards import format_card

        ja = lang == "ja"
        lines = []
        if self.trump is not None:
            state = (
                ""
                if self.trump_decided
                else (" (未決定: 配りペアが決める)" if ja else " (not decided yet: the dealing pair decides)")
            )
            lines.append(("切り: " if ja else "Trump: ") + self.trump.symbol + state)
        if self.rensho is not None:
            lines.append(("れんしょ: " if ja else "Rensho: ") + format_card(self.rensho, lang))
        if self.phase in ("trump", "leader", "play") and not self.trump_decided:
            lines.append(
                "手札は切りが決まるまで見られません"
                if ja
                else "No one looks at their cards before the trump is decided."
            )
        for p in range(len(self.pairs)):
            role = []
            if p == self.leading_pair:
                role.append("親" if ja else "leads")
            if p == self.dealing_pair:
                role.append("配り" if ja else "deals")
            if p == self.sitting_out:
                role.append("休み" if ja else "sits out")
            if p == self.own_pair:
                role.append("自分" if ja else "yours")
            faces = self.face_cards[p] if p < len(self.face_cards) else None
            shown = ""
            if faces is not None:
                shown = (f"  絵札 {len(faces)}: " if ja else f"  face cards {len(faces)}: ") + " ".join(
                    format_card(c, lang) for c in faces
                )
            lines.append(
                f"{self._pair_text(p, lang)} [{', '.join(role)}]  "
                + (f"ご石 {self.totals[p]}" if ja else f"chips {self.totals[p]}")
                + shown
            )
        if self.leader is not None:
            lines.append(("最初に出した人: " if ja else "First leader: ") + _seat(self.leader, lang))
        if self.phase == "play":
            lines.append(("済んだ場: " if ja else "Tricks played: ") + f"{self.tricks_played}/13")
        if self.trick is not None:
            lines.append(
                ("場: " if ja else "Trick: ")
                + "  ".join(f"{_seat(s, lang)}: {format_card(c, lang)}" for s, c in self.trick.plays)
            )
        elif self.last_trick is not None:
            lines.append(
                ("直前の場: " if ja else "Last trick: ")
                + "  ".join(f"{_seat(s, lang)}: {format_card(c, lang)}" for s, c in self.last_trick.plays)
                + f" → {_seat(self.last_trick_winner, lang)}"
            )
        return lines

    def intro_lines(self, lang: str = "en") -> list[str]:
        """What the terminal says as a game starts: the pairs' roles, and that this seat's pair
        sits out (six players)."""

        def pair(p: int | None) -> str:
            return "-" if p is None else self._pair_text(p, lang)

        ja = lang == "ja"
        lines = [
            ("親 (先手) ペア: " if ja else "Leading pair: ") + pair(self.leading_pair),
            ("配り (切りを決める) ペア: " if ja else "Dealing pair (decides the trump): ") + pair(self.dealing_pair),
        ]
        if self.trump is not None:
            lines.append(("現在の切り: " if ja else "Trump in force: ") + self.trump.symbol)
        if self.sitting_out is not None:
            if self.own_pair == self.sitting_out:
                lines.append(
                    "あなたのペアはこの回は休みです (観戦)"
                    if ja
                    else "Your pair sits out this game: you watch it as a spectator."
                )
            else:
                lines.append(("休み: " if ja else "Sitting out: ") + pair(self.sitting_out))
        return lines


_make_view = view_maker(KakeyaView)
"""Makes a KakeyaView as ``KakeyaView(**fields)`` does, faster (:func:`~kirifuda.game.view_maker`)."""


def _player(seat: int) -> str | None:
    from ..ui.render import player_name

    return player_name(seat)


def _seat(seat: int | None, lang: str) -> str:
    """A seat by its player's name where the interface gives names, else 席n / seat n."""
    if seat is None:
        return "-"
    name = _player(seat)
    return name if name is not None else (f"席{seat}" if lang == "ja" else f"seat {seat}")


add_terms(
    game="kakeya",
    fields={
        "players": ("人数", "players"),
        "pairs": ("ペア", "pairs"),
        "own_pair": ("自分のペア", "your pair"),
        "dealing_pair": ("配りペア", "dealing pair"),
        "leading_pair": ("親ペア", "leading pair"),
        "sitting_out": ("休みのペア", "pair sitting out"),
        "trump": ("切り", "trump"),
        "trump_decided": ("切り決定済み", "trump decided"),
        "rensho": ("れんしょ", "rensho"),
        "leader": ("最初に出す人", "first leader"),
        "tricks_played": ("済んだ場", "tricks played"),
        "face_cards": ("絵札", "face cards"),
        "winning_pair": ("勝ちペア", "winning pair"),
        "rensho_pair": ("れんしょを配られたペア", "pair dealt the rensho"),
        "payment": ("ご石の支払い", "chips paid"),
        "payment_column": ("支払いの欄", "chip table column"),
        "chips": ("ご石", "chips"),
    },
)


# --------------------------------------------------------------------------------------------
# The state


class KakeyaState(GameState):
    """A Kakeya match.  ``first`` is accepted for the common interface and not used: the
    seed fixes who deals and leads game 1."""

    game_id = "kakeya"
    DEAL_PHASE = Phase.DEAL
    DONE_PHASE = Phase.DONE

    __slots__ = (
        "options",
        "first",
        "num_players",
        "_half",
        "_phase",
        "_to_act",
        "_deal_no",
        "_chips",
        "_results",
        "_dealing",
        "_leading",
        "_playing",
        "_sitting",
        "_next",
        "_active",
        "_log",
        "_dealt",
        "_hands",
        "_dealt_pair",
        "_trump",
        "_trump_decided",
        "_leader",
        "_first_leader",
        "_trick",
        "_led",
        "_tricks",
        "_faces",
        "_legal",
        "_last",
        "_strength",
        "_game_next",
    )
    COPY_LISTS = ("_chips", "_log", "_hands", "_trick", "_tricks")
    COPY_NESTED = ("_faces",)

    def __init__(self, options: KakeyaOptions | None = None, first: int = 0) -> None:
        self.options = options or KakeyaOptions()
        n = self.options.players
        if not isinstance(first, int) or isinstance(first, bool) or not 0 <= first < n:
            raise OptionError(f"first must be a seat 0-{n - 1}, got {first!r}")
        self.first = first
        self.num_players = n
        self._half = n // 2
        self._phase = Phase.DEAL
        self._to_act: int | None = None
        self._deal_no = 0
        self._chips = [START_CHIPS] * self._half
        self._results: tuple[_DealLog, ...] = ()
        self._trump = _SUIT_INDEX[self.options.initial_trump]
        if n == 4:
            self._dealing, self._leading = 1, 0
            self._sitting: int | None = None
        else:
            self._dealing, self._leading = 2, 0
            self._sitting = 2
        self._set_roles()
        self._game_next = self._next
        self._last: tuple[tuple[tuple[int, int], ...], int] | None = None
        """The last completed trick: visible until the next card is played (spec §9)."""
        self._reset_deal()

    def _set_roles(self) -> None:
        """The playing pairs, the active seats in turn order and the next active seat of each."""
        h = self._half
        if self._sitting is None:
            self._playing = (self._leading, 1 - self._leading)
        else:
            other = 3 - self._leading - self._sitting
            self._playing = (self._leading, other)
        active = sorted(s for p in self._playing for s in (p, p + h))
        self._active = tuple(active)
        nxt = [-1] * self.num_players
        for i, s in enumerate(active):
            nxt[s] = active[(i + 1) % 4]
        self._next = tuple(nxt)

    def _reset_deal(self) -> None:
        self._log: list[tuple[int, Action]] = []
        self._dealt: tuple[tuple[int, ...] | int, ...] = ()
        self._hands = [0] * self.num_players
        self._dealt_pair = [0] * self._half
        self._trump_decided = False
        self._leader = -1
        self._first_leader: int | None = None
        self._trick: list[tuple[int, int]] = []
        self._led = 0
        self._tricks: list[tuple[int, tuple[int, ...], int]] = []
        self._faces: list[list[int]] = [[] for _ in range(self._half)]
        self._legal: tuple[Action, ...] | None = None
        self._strength = STRENGTH[self._trump]

    # -- properties ----------------------------------------------------------------------
    @property
    def trump(self) -> Suit:
        """The trump in force (before this game's decision: the one carried over)."""
        return Suit(_SUIT_LETTER[self._trump])

    @property
    def rensho(self) -> Card:
        return CARDS[rensho_of(self._trump)]

    @property
    def dealing_pair(self) -> int:
        return self._dealing

    @property
    def leading_pair(self) -> int:
        return self._leading

    @property
    def sitting_out(self) -> int | None:
        """The pair sitting out this (or the next) game: six players only."""
        return self._sitting

    @property
    def active_seats(self) -> tuple[int, ...]:
        """The four seats that play this (or the next) game, in turn order from seat 0."""
        return self._active

    def pair_seats(self, pair: int) -> tuple[int, int]:
        return (pair, pair + self._half)

    def pair_of(self, seat: int) -> int:
        return seat % self._half

    def hand(self, seat: int) -> tuple[Card, ...]:
        """A seat's cards (the whole state: for the engine, tests and solvers, not for players)."""
        return cards_of(self._hands[seat])

    @property
    def tricks(self) -> tuple[tuple[Trick, int], ...]:
        """This game's completed tricks with their winners."""
        return tuple((self._trick_of(leader, cards), w) for leader, cards, w in self._tricks)

    @property
    def chips(self) -> tuple[int, ...]:
        return tuple(self._chips)

    @property
    def face_counts(self) -> tuple[int | None, ...]:
        """Face cards captured in this game (the last one, between games), per pair (``None`` for
        a pair not playing it)."""
        return tuple(None if not self._dealt_pair[p] else len(f) for p, f in enumerate(self._faces))

    # -- dealing -------------------------------------------------------------------------
    def _hand_sizes(self) -> tuple[int, ...]:
        return tuple(0 if s % self._half == self._sitting else 13 for s in range(self.num_players))

    def deal(self, hands: Sequence[Sequence[Card | str]], rest: Sequence[Card | str]) -> None:
        self._require_deal()
        masks, _ = check_deal(hands, rest, DECK, self._hand_sizes(), 0)
        self._start_deal(masks, tuple(tuple(parse_card(c).id for c in h) for h in hands))

    def deal_random(self, rng: random.Random) -> None:
        self._require_deal()
        r = rng.random
        ids = sorted(DECK_IDS, key=lambda _: r())  # a uniform shuffle, faster than rng.shuffle
        bit = _BIT.__getitem__
        masks = [0] * self.num_players
        for k, seat in enumerate(self._active):
            masks[seat] = sum(map(bit, ids[13 * k : 13 * k + 13]))
        self._start_deal(masks, None)

    def _require_deal(self) -> None:
        if self._phase is not Phase.DEAL:
            raise IllegalActionError(
                None, "deal", "the match is over" if self._phase is Phase.DONE else "a game is in progress"
            )

    def _start_deal(self, masks: list[int], order: tuple[tuple[int, ...], ...] | None) -> None:
        self._reset_deal()
        self._hands = list(masks)
        self._dealt = order if order is not None else tuple(masks)
        h = self._half
        self._dealt_pair = [masks[p] | masks[p + h] for p in range(h)]
        self._game_next = self._next  # this game's turn order (``_next`` moves on at its end)
        self._phase = Phase.TRUMP
        self._to_act = self._dealing  # the dealing pair's lower seat

    # -- legal actions -------------------------------------------------------------------
    def _compute_legal(self) -> tuple[Action, ...]:
        phase = self._phase
        if phase is Phase.PLAY:
            assert self._to_act is not None
            return _PLAY_DECODER.decode(self._legal_play_mask(self._to_act))
        if phase is Phase.TRUMP:
            return TRUMP_CHOICES
        if phase is Phase.LEADER:
            a, b = self.pair_seats(self._leading)
            return (ChooseLeader(a), ChooseLeader(b))
        return ()

    def _legal_play_mask(self, seat: int) -> int:
        hand = self._hands[seat]
        if not self._trick:
            return hand
        follow = hand & SUIT_MASKS[self._led]
        return follow if follow else hand

    def _why_illegal(self, action: Action) -> str:
        phase = self._phase
        seat = self._to_act
        assert seat is not None
        if isinstance(action, Play):
            if phase is not Phase.PLAY:
                return f"cards are played only after the trump and the leader are decided (now: {phase.value})"
            card = action.card
            if card.is_joker:
                return "Kakeya is played without the joker"
            if action.request is not None or action.call_joker:
                return "a Kakeya play carries no request or joker call"
            if not self._hands[seat] >> card.id & 1:
                return f"seat {seat} does not hold {card.code}"
            led = _SUIT_LETTER[self._led]
            extra = " (the rensho follows its printed suit)" if card.id == rensho_of(self._trump) else ""
            return f"must follow {Suit(led).symbol} ({led}): seat {seat} holds that suit{extra}"
        if isinstance(action, ChooseTrump):
            if phase is not Phase.TRUMP:
                return f"the trump is decided once, at the start of the game (now: {phase.value})"
            return "the trump is S, H, D, C or keep"
        if isinstance(action, ChooseLeader):
            if phase is not Phase.LEADER:
                return f"the leader is chosen once, after the trump decision (now: {phase.value})"
            a, b = self.pair_seats(self._leading)
            return f"the leader is a seat of the leading pair: {a} or {b}"
        return f"{type(action).__name__} is not a Kakeya action"

    def check(self, action: Action, seat: int | None = None) -> None:
        """As the base class, naming the decision due when another seat acts while the trump or
        the leader is being decided (a record that leaves out its trump action, say)."""
        to_act = self._to_act
        if to_act is not None and seat is not None and seat != to_act and self._phase in (Phase.TRUMP, Phase.LEADER):
            due = (
                f"the trump decision comes first: the trump is decided by the dealing pair's lower seat, seat {to_act}"
                if self._phase is Phase.TRUMP
                else f"the choice of the leader comes first: the leader is chosen by the leading pair's lower seat, seat {to_act}"
            )
            raise IllegalActionError(seat, action, f"it is seat {to_act}'s turn, not seat {seat}'s: {due}")
        super().check(action, seat)

    # -- applying ------------------------------------------------------------------------
    def apply(self, action: Action, seat: int | None = None) -> None:
        """Check the action, then carry it out; a refused action leaves the state unchanged."""
        to_act = self._to_act
        if (
            type(action) is Play
            and self._phase is Phase.PLAY
            and (seat is None or seat == to_act)
            and action.request is None
            and not action.call_joker
        ):
            assert to_act is not None
            cid = action.card.id
            if self._legal_play_mask(to_act) >> cid & 1:
                self._legal = None
                self._log.append((to_act, action))
                self._play(to_act, cid)
                return
        self.check(action, seat)
        self._apply(action)

    def _apply(self, action: Action) -> None:
        self._legal = None
        seat = self._to_act
        assert seat is not None
        self._log.append((seat, action))
        if type(action) is Play:
            self._play(seat, action.card.id)
        elif isinstance(action, ChooseTrump):
            if action.suit is not None:
                self._trump = action.suit.index
                self._strength = STRENGTH[self._trump]
            self._trump_decided = True
            self._phase = Phase.LEADER
            self._to_act = self._leading  # the leading pair's lower seat
        elif isinstance(action, ChooseLeader):
            self._phase = Phase.PLAY
            self._leader = self._first_leader = action.seat
            self._to_act = action.seat

    def _play(self, seat: int, cid: int) -> None:
        self._hands[seat] ^= 1 << cid
        trick = self._trick
        if not trick:
            self._last = None
            self._led = cid // 13  # the printed suit (the rensho too)
        trick.append((seat, cid))
        if len(trick) < 4:
            self._to_act = self._next[seat]
            return
        best_seat = strongest(trick, self._strength[self._led])[0]
        cards = (trick[0][1], trick[1][1], trick[2][1], trick[3][1])
        done = (self._leader, cards, best_seat)
        self._tricks.append(done)
        self._last = (tuple(trick), best_seat)  # with its seats: the turn order may change
        faces = self._faces[best_seat % self._half]
        for c in cards:
            if FACE_MASK >> c & 1:
                faces.append(c)
        self._trick = []
        if len(self._tricks) == TRICKS_PER_GAME:
            self._score()
            return
        self._leader = best_seat
        self._to_act = best_seat

    def _score(self) -> None:
        a, b = self._playing
        fa, fb = len(self._faces[a]), len(self._faces[b])
        rensho = rensho_of(self._trump)
        rensho_pair = a if self._dealt_pair[a] >> rensho & 1 else b
        winner, loser, pay, column = game_result(
            (fa, fb), (a, b), rensho_pair, (self._dealt_pair[a], self._dealt_pair[b]), self._trump
        )
        score = [0] * self._half
        score[winner] = pay
        score[loser] = -pay
        self._results = self._results + (self._snapshot("played", score, winner, rensho_pair, column),)
        self._settle(winner, loser, pay)

    def end_scored_game(self, log: Any, trump: int, winner: int, loser: int, pay: int) -> None:
        """End a game entered by its facts (a scored deal of a record): ``log`` gives its replay
        and record JSON; ``trump`` (a suit index) stays in force for the next game."""
        self._require_deal()
        self._trump = trump
        self._last = None
        self._results = self._results + (log,)
        self._settle(winner, loser, pay)

    def _settle(self, winner: int, loser: int, pay: int) -> None:
        self._chips[winner] += pay
        self._chips[loser] -= pay
        self._deal_no += 1
        self._to_act = None
        self._legal = None
        # the next game: the loser deals (and sits out, with six), the winner leads
        if self._sitting is not None:
            self._sitting = loser
        self._dealing, self._leading = loser, winner
        self._set_roles()
        games = self.options.games
        if (self.options.stop_at_zero and min(self._chips) <= 0) or (games is not None and self._deal_no >= games):
            self._phase = Phase.DONE
        else:
            self._phase = Phase.DEAL

    def _snapshot(
        self,
        outcome: str,
        score: list[int],
        winner: int | None = None,
        rensho_pair: int | None = None,
        column: str | None = None,
    ) -> "_DealLog":
        return _DealLog(
            outcome,
            score,
            self._log,
            self._dealt,
            self._tricks,
            tuple(tuple(f) for f in self._faces),
            self._trump if self._trump_decided else None,
            self._dealing,
            self._leading,
            self._sitting,
            self._first_leader,
            winner,
            rensho_pair,
            column,
        )

    # -- seeing --------------------------------------------------------------------------
    def _trick_of(self, leader: int, cards: Sequence[int]) -> Trick:
        plays = []
        seat = leader
        for c in cards:
            plays.append((seat, CARDS[c]))
            seat = self._game_next[seat]
        return Trick(leader, tuple(plays))

    def view(self, seat: int | None) -> KakeyaView:
        n = self.num_players
        if seat is not None and not (isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < n):
            raise ValueError(f"no seat {seat!r} at a Kakeya table of {n}")
        phase = self._phase
        in_game = phase in _IN_GAME
        # hands are seen once the trump is decided, by the active players only
        sees_hand = seat is not None and in_game and self._trump_decided and seat % self._half != self._sitting
        trick = self._trick_of(self._leader, [c for _, c in self._trick]) if self._trick else None
        last = self._last if not self._trick else None  # even after the game, until the next card
        faces: tuple[tuple[Card, ...] | None, ...] = ()
        if in_game:
            faces = tuple(None if p == self._sitting else tuple(CARDS[c] for c in f) for p, f in enumerate(self._faces))
        sizes = tuple(h.bit_count() for h in self._hands) if in_game else (0,) * n
        return _make_view(
            options=public_options(self.options, self.options_json),
            game="kakeya",
            seat=seat,
            phase=phase.value,
            to_act=self._to_act,
            deal_number=self._deal_no,
            hand=cards_of(self._hands[seat]) if sees_hand and seat is not None else (),
            hand_sizes=sizes,
            legal_actions=self.legal_actions() if seat is not None and seat == self._to_act else (),
            totals=self.chips,
            players=n,
            pairs=tuple(self.pair_seats(p) for p in range(self._half)),
            own_pair=None if seat is None else seat % self._half,
            dealing_pair=self._dealing if phase is not Phase.DONE else None,
            leading_pair=self._leading if phase is not Phase.DONE else None,
            sitting_out=self._sitting if phase is not Phase.DONE else None,
            trump=self.trump,
            trump_decided=self._trump_decided and in_game,
            rensho=self.rensho,
            leader=self._first_leader if in_game else None,
            trick=trick,
            last_trick=Trick(last[0][0][0], tuple((p, CARDS[c]) for p, c in last[0])) if last else None,
            last_trick_winner=last[1] if last else None,
            tricks_played=len(self._tricks) if in_game else 0,
            face_cards=faces,
            last_deal=self._results[-1].result() if self._results else None,
        )

    def unit_name(self, unit: int, lang: str = "en") -> str:
        """Pairs: pair ``p`` is seats ``p`` and ``p + n/2``."""
        a, b = self.pair_seats(unit)
        return f"ペア{unit} (席{a}・席{b})" if lang == "ja" else f"pair {unit} (seats {a} & {b})"

    def outcome(self) -> Outcome | None:
        if self._phase is not Phase.DONE:
            return None
        best = max(self._chips)
        top = tuple(p for p, c in enumerate(self._chips) if c == best)
        return Outcome(self.chips, top[0] if len(top) == 1 else top)

    def _deal_in_progress(self) -> "_DealLog | None":
        return self._snapshot("in-progress", [0] * self._half) if self._phase in _IN_GAME else None

    def summary(self) -> dict[str, Any]:
        deals = self.deal_summaries()
        out = self.outcome()
        winner: Any = None
        if out is not None:
            winner = list(out.winner) if isinstance(out.winner, tuple) else out.winner
        return {
            "game": "kakeya",
            "deals": deals,
            "totals": list(self._chips),
            "finished": out is not None,
            "winner": winner,
        }

    # -- records -------------------------------------------------------------------------
    def options_json(self) -> dict[str, Any]:
        return options_to_json(self.options)


@dataclass(frozen=True, slots=True)
class _DealLog:
    """A game as it ended (or as it stands), kept raw: its summaries are built when asked for."""

    outcome: str
    score: list[int]
    log: list[tuple[int, Action]]
    dealt: tuple[tuple[int, ...] | int, ...]
    tricks: list[tuple[int, tuple[int, ...], int]]
    faces: tuple[tuple[int, ...], ...]
    trump: int | None
    """The game's trump, once decided."""
    dealing: int
    leading: int
    sitting: int | None
    leader: int | None
    winner: int | None
    rensho_pair: int | None
    column: str | None

    def hands(self) -> list[list[str]]:
        return [[CARDS[c].code for c in (_display_order(h) if isinstance(h, int) else h)] for h in self.dealt]

    def summary(self) -> dict[str, Any]:
        """The replay JSON of this game (record spec §3)."""
        trump = self.trump
        return {
            "outcome": self.outcome,
            "tricks": [
                {"leader": lead, "cards": [CARDS[c].code for c in cards], "winner": w} for lead, cards, w in self.tricks
            ],
            "score": list(self.score),
            "trump": None if trump is None else _SUIT_LETTER[trump],
            "rensho": None if trump is None else CARDS[rensho_of(trump)].code,
            "face_cards": [None if p == self.sitting else len(f) for p, f in enumerate(self.faces)],
            "dealing_pair": self.dealing,
            "leading_pair": self.leading,
            "sitting_out": self.sitting,
            "leader": self.leader,
            "winning_pair": self.winner,
            "rensho_pair": self.rensho_pair,
            "payment": max(self.score) if self.winner is not None else None,
            "payment_column": self.column,
        }

    def result(self) -> dict[str, Any]:
        """What the table sees of a finished game: no hands, no tricks (number cards stay face
        down), the face cards, and what the payment was."""
        out = self.summary()
        del out["tricks"]
        out["face_cards"] = [
            None if p == self.sitting else [CARDS[c].code for c in f] for p, f in enumerate(self.faces)
        ]
        return out

    def record(self) -> dict[str, Any]:
        """The game as a record deal: hands (empty for a pair sitting out), rest, actions."""
        return {
            "hands": self.hands(),
            "rest": [],
            "actions": [dict(seat=s, **a.to_json()) for s, a in self.log],
        }


def _display_order(mask: int) -> tuple[int, ...]:
    """Suits ♠ ♥ ♦ ♣, each from the ace down."""
    ids = [c.id for c in cards_of(mask)]
    ids.sort(key=lambda i: (i // 13, -(i % 13)))
    return tuple(ids)


# --------------------------------------------------------------------------------------------
# Registration


def _new_state(options: KakeyaOptions | None = None, first: int = 0) -> KakeyaState:
    return KakeyaState(options, first)


# --------------------------------------------------------------------------------------------
# The browser client's descriptor (drawn by kirifuda/server/static/app.js, which holds no
# per-game code; see kirifuda/server/ui.py for the keys)

UI: dict[str, Any] = {
    "direction": "ccw",
    "strains": "",
    "units": {"field": "pairs"},
    "seat_roles": [["leader", "leader"]],
    "unit_roles": [["dealing_pair", "dealing_pair"], ["leading_pair", "leading_pair"], ["sitting_out", "sitting_out"]],
    "partner_role": None,
    "bids": None,
    "stats": [{"field": "face_cards", "per": "unit", "show": "cards"}],
    "headline": ["trump", "rensho"],
    "hints": ["trump", "leader", "play"],
    "confirm": [],
    "claim_option": None,
    "options": {
        "players": {
            "label": ("人数", "Players"),
            "doc": (
                "4人 (2組) か6人 (3組、毎回1組が休み)。",
                "4 (two pairs) or 6 (three pairs, one sitting out each game).",
            ),
            "choices": {"4": ("4人", "4"), "6": ("6人", "6")},
        },
        "initial_trump": {
            "label": ("最初の切り", "First trump"),
            "doc": (
                "第1回の初めの切り札 (配った組が変えられる)。",
                "The trump in force when game 1 starts (the dealing pair may still change it).",
            ),
            "choices": {"D": ("♦", "♦"), "S": ("♠", "♠"), "H": ("♥", "♥"), "C": ("♣", "♣")},
        },
        "stop_at_zero": {
            "label": ("チップ切れで終了", "Stop at no chips"),
            "doc": (
                "どこかの組のチップが0以下になったら試合終了。",
                "The match ends when a payment leaves some pair with no chips.",
            ),
        },
        "games": {
            "label": ("回数の上限", "Most games"),
            "doc": (
                "この回数で終わる (指定なし: 上限なし)。チップ切れで終わらないなら必須。",
                "At most this many games (not set: no cap); required when not stopping at no chips.",
            ),
        },
    },
}
"""How the browser draws Kakeya Trump: seats counter-clockwise, pairs by the view's ``pairs``."""


INFO = GameInfo(
    id="kakeya",
    name_ja="掛合トランプ",
    name_en="Kakeya Trump",
    aliases=("掛合", "掛合トランプ", "絵取り", "etori", "kakeya-trump", "kakeya"),
    min_players=4,
    max_players=6,
    options_type=KakeyaOptions,
    new_state=_new_state,
    action_kinds=ACTION_KINDS,
    action_space=ActionSpace(
        families=("play", "trump", "leader"),
        max_seats=6,
        deal_steps=56,
        deal_score=4.0,
        zero_sum=True,
        seat_fields=("sitting_out",),
    ),
    roles={
        "seat": ("席", "seat"),
        "unit": ("ペア", "pair"),
        "leader": ("最初に出す人", "first leader"),
        "sitting_out": ("休みのペア", "pair sitting out"),
    },
    bot_modules=("kirifuda.bots.kakeya_heuristic", "kirifuda.bots.search_kakeya"),
    parts={
        "words": "kirifuda.ui.games.kakeya",
        "coach": "kirifuda.coach.games.kakeya",
        "scoresheet": "kirifuda.scoresheets.kakeya",
        "vector": "kirifuda.games.kakeya_vector",  # the batched env core in C (kirifuda.env.vector)
    },
    ui=UI,
)
