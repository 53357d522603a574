"""Actions: every decision a player can make, as frozen values with one JSON form each.

The JSON form is the record's (``docs/records.md`` ("Actions")) without the ``seat`` key:

>>> action_from_json({"bid": "7H"})
Bid(count=7, strain='H')
>>> action_from_json({"play": "10h"}).to_json()
{'play': 'TH'}
>>> Play(JOKER, request="any").to_json()
{'play': 'JK', 'request': 'any'}

Which actions are possible when is the business of each game's ``legal_actions``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Union

from .cards import Card, JOKER, Suit, format_card, parse_card
from .errors import InvalidActionError

__all__ = [
    "Action", "Bid", "Pass", "Broken", "Discard", "Adjutant", "Redeclare", "Approve",
    "ChooseTrump", "ChooseLeader", "Play", "Claim", "RefusedClaim", "Chombo", "action_from_json",
    "PASS", "BROKEN", "CLAIM", "REFUSED_CLAIM", "STRAIN_SYMBOLS",
]

STRAIN_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣", "N": "NT"}
_STRAIN_JA = {"N": "トラ"}
_REQUESTS = ("S", "H", "D", "C", "any")


def _parse_bid_text(text: object, what: str) -> tuple[int, str]:
    if not isinstance(text, str) or len(text) < 2:
        raise InvalidActionError(f"{what} must be a count then a strain, e.g. '7H': got {text!r}")
    count_text, strain = text[:-1], text[-1].upper()
    if not (text.isascii() and count_text.isdigit()) or strain not in "SHDCN":  # '²'.isdigit(), yet int('²') fails
        raise InvalidActionError(f"{what} must be a count then a strain (S H D C N), e.g. '7H': got {text!r}")
    return int(count_text), strain


def _strain_label(strain: str, lang: str) -> str:
    if lang == "ja" and strain in _STRAIN_JA:
        return _STRAIN_JA[strain]
    return STRAIN_SYMBOLS[strain]


@dataclass(frozen=True, slots=True)
class Bid:
    """吹く / 立候補: a count and a strain (``S H D C``, Meitora also ``N`` no-trump)."""

    count: int
    strain: str

    def to_json(self) -> dict[str, Any]:
        return {"bid": f"{self.count}{self.strain}"}

    @property
    def text(self) -> str:
        return f"{self.count}{self.strain}"

    def label(self, lang: str = "en") -> str:
        return f"{self.count}{_strain_label(self.strain, lang)}"


@dataclass(frozen=True, slots=True)
class Pass:
    """パス."""

    def to_json(self) -> dict[str, Any]:
        return {"bid": "pass"}

    def label(self, lang: str = "en") -> str:
        return "パス" if lang == "ja" else "pass"


@dataclass(frozen=True, slots=True)
class Broken:
    """ブロークン: Meitora's weak-hand redeal, declared at the seat's bidding turn."""

    def to_json(self) -> dict[str, Any]:
        return {"broken": True}

    def label(self, lang: str = "en") -> str:
        return "ブロークン" if lang == "ja" else "broken (weak hand)"


@dataclass(frozen=True, slots=True)
class Discard:
    """ネグリ / 捨て札: cards put face down after taking the agari or the middle."""

    cards: tuple[Card, ...]

    def to_json(self) -> dict[str, Any]:
        return {"discard": [c.code for c in self.cards]}

    def label(self, lang: str = "en") -> str:
        cards = " ".join(format_card(c, lang) for c in self.cards)
        return f"捨てる {cards}" if lang == "ja" else f"discard {cards}"


@dataclass(frozen=True, slots=True)
class Adjutant:
    """副官の指名: Napoleon names the adjutant's card."""

    card: Card

    def to_json(self) -> dict[str, Any]:
        return {"adjutant": self.card.code}

    def label(self, lang: str = "en") -> str:
        c = format_card(self.card, lang)
        return f"副官 {c}" if lang == "ja" else f"adjutant {c}"


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
        s = f"{self.count}{_strain_label(self.strain, lang)}"
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


@dataclass(frozen=True, slots=True)
class Play:
    """Play a card.  A joker lead carries its ``request`` (Meitora ``S H D C any``, Napoleon a
    suit); a ♠3 lead in Napoleon may carry ``call_joker``."""

    card: Card
    request: str | None = None
    call_joker: bool = False

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"play": self.card.code}
        if self.request is not None:
            out["request"] = self.request
        if self.call_joker:
            out["call_joker"] = True
        return out

    def label(self, lang: str = "en") -> str:
        text = format_card(self.card, lang)
        if self.request is not None:
            if self.request == "any":
                req = "何でも" if lang == "ja" else "anything"
            else:
                req = Suit(self.request).symbol
            text += f" (請求 {req})" if lang == "ja" else f" (asks {req})"
        if self.call_joker:
            text += " (ジョーカー請求)" if lang == "ja" else " (calls the joker)"
        return text


@dataclass(frozen=True, slots=True)
class Claim:
    """オープン: claim every remaining trick."""

    def to_json(self) -> dict[str, Any]:
        return {"claim": True}

    def label(self, lang: str = "en") -> str:
        return "オープン" if lang == "ja" else "claim the rest (open)"


@dataclass(frozen=True, slots=True)
class RefusedClaim:
    """A claim (オープン) that failed under Meitora's ``claim_failure: "refuse"``: play goes on,
    and the claimant's hand lies face up for the rest of the deal.  Record form
    ``{"claim": true, "refused": true}`` (an extension of the record format); a plain
    ``{"claim": true}`` that fails stays an invalid record."""

    def to_json(self) -> dict[str, Any]:
        return {"claim": True, "refused": True}

    def label(self, lang: str = "en") -> str:
        return "オープン不成立 (手札公開)" if lang == "ja" else "claim refused (hand shown)"


@dataclass(frozen=True, slots=True)
class Chombo:
    """チョンボ recorded by a referee against ``seat`` (physical games kept as records)."""

    seat: int
    reason: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"chombo": self.reason}

    def label(self, lang: str = "en") -> str:
        return f"チョンボ ({self.reason})" if lang == "ja" else f"chombo ({self.reason})"


Action = Union[Bid, Pass, Broken, Discard, Adjutant, Redeclare, Approve, ChooseTrump,
               ChooseLeader, Play, Claim, RefusedClaim, Chombo]

PASS = Pass()
BROKEN = Broken()
CLAIM = Claim()
REFUSED_CLAIM = RefusedClaim()


def _only(data: Mapping[str, Any], keys: set[str], main: str) -> None:
    extra = set(data) - keys
    if extra:
        raise InvalidActionError(f"unknown key(s) {sorted(extra)} in a {main!r} action")


def action_from_json(data: Mapping[str, Any], seat: int | None = None) -> Action:
    """Read one record action (the ``seat`` key, if present, is ignored here; a Chombo takes
    ``seat`` as the offending seat).  Raises InvalidActionError naming the problem."""
    if not isinstance(data, Mapping):
        raise InvalidActionError(f"an action must be an object, got {data!r}")
    d = {k: v for k, v in data.items() if k != "seat"}
    if "play" in d:
        _only(d, {"play", "request", "call_joker"}, "play")
        card = parse_card(d["play"])
        request = d.get("request")
        if request is not None and request not in _REQUESTS:
            raise InvalidActionError(f"request must be one of S H D C any, got {request!r}")
        call = d.get("call_joker", False)
        if not isinstance(call, bool):
            raise InvalidActionError(f"call_joker must be true or false, got {call!r}")
        return Play(card, request, call)
    if "refused" in d:
        _only(d, {"claim", "refused"}, "claim")
        if d.get("claim") is not True or d["refused"] is not True:
            raise InvalidActionError(f"a refused claim is {{\"claim\": true, \"refused\": true}}, got {dict(d)!r}")
        return REFUSED_CLAIM
    if len(d) != 1:
        raise InvalidActionError(f"an action names exactly one decision, got keys {sorted(d)}")
    (key, value), = d.items()
    if key == "bid":
        if value == "pass":
            return PASS
        count, strain = _parse_bid_text(value, "a bid")
        return Bid(count, strain)
    if key == "broken":
        if value is not True:
            raise InvalidActionError(f"broken must be true, got {value!r}")
        return BROKEN
    if key == "discard":
        if not isinstance(value, list) or not value:
            raise InvalidActionError(f"discard must be a non-empty list of cards, got {value!r}")
        return Discard(tuple(parse_card(c) for c in value))
    if key == "adjutant":
        return Adjutant(parse_card(value))
    if key == "redeclare":
        if value == "none":
            return Redeclare()
        count, strain = _parse_bid_text(value, "a re-declaration")
        return Redeclare(count, strain)
    if key == "approve":
        if not isinstance(value, bool):
            raise InvalidActionError(f"approve must be true or false, got {value!r}")
        return Approve(value)
    if key == "trump":
        if value == "keep":
            return ChooseTrump(None)
        if value not in ("S", "H", "D", "C"):
            raise InvalidActionError(f"trump must be S H D C or keep, got {value!r}")
        return ChooseTrump(Suit(value))
    if key == "leader":
        if not isinstance(value, int) or isinstance(value, bool):
            raise InvalidActionError(f"leader must be a seat number, got {value!r}")
        return ChooseLeader(value)
    if key == "claim":
        if value is not True:
            raise InvalidActionError(f"claim must be true, got {value!r}")
        return CLAIM
    if key == "chombo":
        if not isinstance(value, str):
            raise InvalidActionError(f"chombo must be a reason string, got {value!r}")
        if seat is None:
            raise InvalidActionError("a chombo names the offending seat")
        return Chombo(seat, value)
    raise InvalidActionError(f"unknown action {key!r}")


def joker_play(request: str | None) -> Play:
    return Play(JOKER, request)
