"""Cards (札), suits and decks shared by every game.

A card has one canonical text form, rank then suit (``"TH"`` is the ten of hearts, ``"JK"`` the
joker), and one small integer id used by the engines' hot paths:
``id = suit_index * 13 + rank_index`` for the 52 suited cards (``rank_index`` 0 is the two,
12 the ace) and ``52`` for the joker.  A set of cards is a bitmask with bit ``id`` set.

>>> parse_card("10h")
Card('TH')
>>> str(parse_card("jk")), parse_card("AS").id
('JK', 12)
>>> format_card(parse_card("TH"), lang="ja"), format_card(parse_card("TH"), lang="en")
('♥10', '10♥')
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Generic, Iterable, Iterator, Sequence, TypeVar

from .errors import InvalidActionError

__all__ = [
    "Suit",
    "SUITS",
    "RANKS",
    "Card",
    "JOKER",
    "JOKER_ID",
    "CARDS",
    "parse_card",
    "parse_cards",
    "format_card",
    "card_id",
    "card_of",
    "mask_of",
    "cards_of",
    "popcount",
    "deck",
    "MaskDecoder",
    "rank_name",
]


class Suit(str, Enum):
    """A suit, by its record letter.  Japanese names are those of the card tables (ズッペ…)."""

    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"

    @property
    def index(self) -> int:  # type: ignore[override]
        """0 ♠, 1 ♥, 2 ♦, 3 ♣: the suit's block of ids is ``index*13 .. index*13+12``."""
        return _SUIT_INDEX[self.value]

    @property
    def symbol(self) -> str:
        return _SUIT_SYMBOL[self.value]

    @property
    def is_red(self) -> bool:
        return self.value in "HD"

    @property
    def same_colour(self) -> "Suit":
        """The other suit of the same colour (♠↔♣, ♥↔♦): the suit of a left / back jack."""
        return Suit(_SAME_COLOUR[self.value])

    def __str__(self) -> str:
        return self.value


SUITS: tuple[Suit, ...] = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)
RANKS = "23456789TJQKA"
_SUIT_INDEX = {"S": 0, "H": 1, "D": 2, "C": 3}
_SUIT_SYMBOL = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
_SAME_COLOUR = {"S": "C", "C": "S", "H": "D", "D": "H"}
_CODES = [r + s for s in "SHDC" for r in RANKS] + ["JK"]
_ID_OF_CODE = {code: i for i, code in enumerate(_CODES)}
JOKER_ID = 52


@dataclass(frozen=True, slots=True)
class Card:
    """One card, by its canonical code (rank then suit, or ``JK``).

    Build one with :func:`parse_card`, which also accepts ``10`` for ``T`` and lower case and
    returns the shared instance of each card.
    """

    code: str
    id: int = field(init=False, compare=False, repr=False)
    """The card's small integer id (see the module docstring)."""

    def __post_init__(self) -> None:
        i = _ID_OF_CODE.get(self.code) if isinstance(self.code, str) else None
        if i is None:
            raise InvalidActionError(f"not a card code: {self.code!r} (expected e.g. 'AS', 'TH', 'JK')")
        object.__setattr__(self, "id", i)

    @property
    def is_joker(self) -> bool:
        return self.code == "JK"

    @property
    def suit(self) -> Suit | None:
        """The printed suit (``None`` for the joker)."""
        return None if self.code == "JK" else Suit(self.code[1])

    @property
    def rank(self) -> int:
        """2 … 14 (ace); 0 for the joker."""
        return 0 if self.code == "JK" else RANKS.index(self.code[0]) + 2

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card({self.code!r})"


CARDS: tuple[Card, ...] = tuple(Card(code) for code in _CODES)
"""The shared card instances, indexed by id."""
JOKER = CARDS[JOKER_ID]


def card_of(card_id: int) -> Card:
    return CARDS[card_id]


def card_id(suit_index: int, rank: int) -> int:
    """The id of the card of a suit (0 ♠ … 3 ♣) and a rank (2 … 14)."""
    return suit_index * 13 + rank - 2


def parse_card(text: str | Card) -> Card:
    """Read a card code: ``"AS"``, ``"10h"``, ``"th"``, ``"jk"``.  Raises InvalidActionError."""
    if isinstance(text, Card):
        return text
    if not isinstance(text, str):
        raise InvalidActionError(f"not a card code: {text!r}")
    t = text.strip().upper()
    if t.startswith("10"):
        t = "T" + t[2:]
    i = _ID_OF_CODE.get(t)
    if i is None:
        raise InvalidActionError(f"not a card code: {text!r} (expected e.g. 'AS', 'TH', '10H', 'JK')")
    return CARDS[i]


def parse_cards(items: Iterable[str | Card]) -> tuple[Card, ...]:
    return tuple(parse_card(x) for x in items)


def rank_name(rank: int) -> str:
    return "10" if rank == 10 else RANKS[rank - 2]


def format_card(card: Card, lang: str = "en") -> str:
    """Display form with a suit symbol: Japanese writes the suit first (♠A), English after (A♠)."""
    if card.is_joker:
        return "Joker" if lang == "en" else "ジョーカー"
    suit = card.suit
    assert suit is not None
    r = rank_name(card.rank)
    return f"{suit.symbol}{r}" if lang == "ja" else f"{r}{suit.symbol}"


def mask_of(cards: Iterable[Card | int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << (c if isinstance(c, int) else c.id)
    return m


def ids_of(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def cards_of(mask: int) -> tuple[Card, ...]:
    """The cards of a mask, in id order (♠2 … ♠A, ♥2 …, ♦…, ♣…, JK)."""
    return CARD_DECODER.decode(mask)


def popcount(mask: int) -> int:
    return mask.bit_count()


def deck(ranks: str = RANKS, joker: bool = False) -> tuple[Card, ...]:
    """The cards of every suit whose rank letter is in ``ranks``, plus the joker if asked."""
    cards = [CARDS[_ID_OF_CODE[r + s]] for s in "SHDC" for r in ranks]
    if joker:
        cards.append(JOKER)
    return tuple(cards)


T = TypeVar("T")

_CHUNK = 14
_CHUNK_MASK = (1 << _CHUNK) - 1


class MaskDecoder(Generic[T]):
    """Turns a card mask into the tuple of per-card items (cards, or a game's play actions).

    The engines' hot path: the mask is cut into four 14-bit chunks, each decoded by a table
    filled on first use, so a hand of ten cards decodes with four lookups instead of a loop.
    """

    __slots__ = ("_items", "_tables", "_suffix")

    def __init__(self, items: Sequence[T | None], suffix: Sequence[T] = ()) -> None:
        """``suffix``: items appended to every decoded tuple (a game's always-legal claim)."""
        self._items = list(items) + [None] * (56 - len(items))
        self._suffix = tuple(suffix)
        self._tables: list[list[tuple[T, ...] | None]] = [[None] * (1 << _CHUNK) for _ in range(4)]

    def _fill(self, chunk: int, bits: int) -> tuple[T, ...]:
        base = chunk * _CHUNK
        out = []
        for i in range(_CHUNK):
            if bits >> i & 1:
                item = self._items[base + i]
                if item is not None:
                    out.append(item)
        t = tuple(out)
        if chunk == 3:
            t += self._suffix
        self._tables[chunk][bits] = t
        return t

    def decode(self, mask: int) -> tuple[T, ...]:
        t0, t1, t2, t3 = self._tables
        a = t0[mask & _CHUNK_MASK]
        if a is None:
            a = self._fill(0, mask & _CHUNK_MASK)
        b = t1[(mask >> 14) & _CHUNK_MASK]
        if b is None:
            b = self._fill(1, (mask >> 14) & _CHUNK_MASK)
        c = t2[(mask >> 28) & _CHUNK_MASK]
        if c is None:
            c = self._fill(2, (mask >> 28) & _CHUNK_MASK)
        d = t3[mask >> 42]
        if d is None:
            d = self._fill(3, mask >> 42)
        return a + b + c + d


CARD_DECODER: MaskDecoder[Card] = MaskDecoder(CARDS)
