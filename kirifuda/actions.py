"""Actions: the decisions a player can make, as frozen values with one JSON form each.

The set of actions is open: this module holds the vocabulary several games share (a card
played, a bid or a pass, a discard, a claim, a referee's chombo) and the protocol every action
follows (:class:`Action`: ``to_json()`` and ``label(lang)``); a game declares its own actions
in its own module.  A game lists the kinds of action it has (:class:`ActionKind`: the record
key that names one, how to read it, the env's families numbering it) in its declaration
(``GameInfo.action_kinds``), and the registry reads a game's record actions with them
(:class:`ActionReader`, ``GameInfo.action_from_json``): an action the game does not have is
refused by name.

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
from typing import Any, Callable, Iterable, Mapping, Protocol, Sequence

from .cards import CARDS, Card, JOKER, Suit, format_card, parse_card
from .errors import InvalidActionError

__all__ = [
    "Action",
    "ActionKind",
    "ActionFamily",
    "ActionReader",
    "Bounds",
    "Bid",
    "Pass",
    "Discard",
    "Play",
    "Claim",
    "RefusedClaim",
    "Chombo",
    "action_from_json",
    "parse_bid_text",
    "strain_label",
    "PASS",
    "CLAIM",
    "REFUSED_CLAIM",
    "STRAIN_SYMBOLS",
    "JOKER_REQUESTS",
    "PLAY_KIND",
    "BID_KIND",
    "DISCARD_KIND",
    "CLAIM_KIND",
    "REFUSED_CLAIM_KIND",
    "CHOMBO_KIND",
    "SHARED_KINDS",
]


class Action(Protocol):
    """What every action is: a frozen, hashable value with its record JSON (without ``seat``)
    and its words.  An action may also offer ``input_words()``, further words a player may type
    for it in the terminal (:func:`kirifuda.ui.render.match_input`)."""

    def __hash__(self) -> int: ...

    def to_json(self) -> dict[str, Any]: ...

    def label(self, lang: str = "en") -> str: ...


STRAIN_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣", "N": "NT"}
_STRAIN_JA = {"N": "トラ"}
JOKER_REQUESTS = ("S", "H", "D", "C", "any")
"""What a joker lead can ask for."""


def parse_bid_text(text: object, what: str) -> tuple[int, str]:
    """A count and a strain from their record text (``"7H"``); InvalidActionError naming
    ``what`` otherwise."""
    if not isinstance(text, str) or len(text) < 2:
        raise InvalidActionError(f"{what} must be a count then a strain, e.g. '7H': got {text!r}")
    count_text, strain = text[:-1], text[-1].upper()
    if not (text.isascii() and count_text.isdigit()) or strain not in "SHDCN":  # '²'.isdigit(), yet int('²') fails
        raise InvalidActionError(f"{what} must be a count then a strain (S H D C N), e.g. '7H': got {text!r}")
    return int(count_text), strain


def strain_label(strain: str, lang: str) -> str:
    """A strain's symbol (``♥``, ``NT``; in Japanese ``トラ`` for no-trump)."""
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
        return f"{self.count}{strain_label(self.strain, lang)}"


@dataclass(frozen=True, slots=True)
class Pass:
    """パス."""

    def to_json(self) -> dict[str, Any]:
        return {"bid": "pass"}

    def label(self, lang: str = "en") -> str:
        return "パス" if lang == "ja" else "pass"


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


PASS = Pass()
CLAIM = Claim()
REFUSED_CLAIM = RefusedClaim()


# -- kinds: how a game's actions are read from records and numbered by the env --------------


class Bounds(Protocol):
    """What an env family needs of a game's action space (``game.ActionSpace``)."""

    @property
    def bid_counts(self) -> tuple[int, ...]: ...

    @property
    def strains(self) -> str: ...

    @property
    def max_seats(self) -> int: ...


@dataclass(frozen=True)
class ActionFamily:
    """A family of the env's fixed integer action space (:mod:`kirifuda.env`): its ``name`` (what
    ``ActionSpace.families`` lists) and its actions in a fixed order, each with a short name.
    ``by_card``: one action per card of :data:`kirifuda.cards.CARDS`, in that order (an index
    minus the family's first index is the card's id)."""

    name: str
    items: Callable[[Bounds], Iterable[tuple[Action, str]]]
    by_card: bool = False


@dataclass(frozen=True)
class ActionKind:
    """One kind of action, as a game declares it (``GameInfo.action_kinds``): the record key
    naming it, the further keys its JSON may carry, how to read it (``read(data, seat)``, with
    ``data`` holding ``key`` and no ``seat``; InvalidActionError naming the problem) and the
    env families that number it."""

    key: str
    read: Callable[[Mapping[str, Any], int | None], Action]
    keys: frozenset[str] = frozenset()
    families: tuple[ActionFamily, ...] = ()


def only_keys(data: Mapping[str, Any], keys: set[str] | frozenset[str], main: str) -> None:
    """Refuse keys of ``data`` outside ``keys`` (InvalidActionError naming them)."""
    extra = set(data) - keys
    if extra:
        raise InvalidActionError(f"unknown key(s) {sorted(extra)} in a {main!r} action")


class ActionReader:
    """Reads record actions for a set of kinds (a game's): ``reader(data, seat)``.

    The kind is found by its key; where two kinds share keys (a claim, a refused claim) the one
    whose keys cover the action's is taken.  An action of a kind not in the set is refused by
    name, with the kinds there are."""

    def __init__(self, kinds: Sequence[ActionKind], owner: str = "") -> None:
        self.kinds: dict[str, ActionKind] = {}
        for kind in kinds:
            if kind.key in self.kinds and self.kinds[kind.key] is not kind:
                raise ValueError(f"two kinds of action read the key {kind.key!r}")
            self.kinds[kind.key] = kind
        self.owner = owner

    def __call__(self, data: Mapping[str, Any], seat: int | None = None) -> Action:
        if not isinstance(data, Mapping):
            raise InvalidActionError(f"an action must be an object, got {data!r}")
        d = {k: v for k, v in data.items() if k != "seat"}
        found = [kind for key, kind in self.kinds.items() if key in d]
        for kind in found:
            if all(k == kind.key or k in kind.keys for k in d):
                return kind.read(d, seat)
        for kind in found:
            if kind.keys:
                only_keys(d, kind.keys | {kind.key}, kind.key)
        if len(d) != 1:
            raise InvalidActionError(f"an action names exactly one decision, got keys {sorted(d)}")
        (key,) = d
        if not self.owner:
            raise InvalidActionError(f"unknown action {key!r}")
        article = "an" if self.owner[:1].lower() in "aeiou" else "a"
        raise InvalidActionError(f"{key!r} is not {article} {self.owner} action (its actions: {', '.join(self.kinds)})")


def _read_play(d: Mapping[str, Any], seat: int | None) -> Action:
    card = parse_card(d["play"])
    request = d.get("request")
    if request is not None and request not in JOKER_REQUESTS:
        raise InvalidActionError(f"request must be one of S H D C any, got {request!r}")
    call = d.get("call_joker", False)
    if not isinstance(call, bool):
        raise InvalidActionError(f"call_joker must be true or false, got {call!r}")
    return Play(card, request, call)


def _read_refused(d: Mapping[str, Any], seat: int | None) -> Action:
    if d.get("claim") is not True or d["refused"] is not True:
        raise InvalidActionError(f'a refused claim is {{"claim": true, "refused": true}}, got {dict(d)!r}')
    return REFUSED_CLAIM


def _read_bid(d: Mapping[str, Any], seat: int | None) -> Action:
    value = d["bid"]
    if value == "pass":
        return PASS
    count, strain = parse_bid_text(value, "a bid")
    return Bid(count, strain)


def _read_discard(d: Mapping[str, Any], seat: int | None) -> Action:
    value = d["discard"]
    if not isinstance(value, list) or not value:
        raise InvalidActionError(f"discard must be a non-empty list of cards, got {value!r}")
    return Discard(tuple(parse_card(c) for c in value))


def _read_claim(d: Mapping[str, Any], seat: int | None) -> Action:
    if d["claim"] is not True:
        raise InvalidActionError(f"claim must be true, got {d['claim']!r}")
    return CLAIM


def _read_chombo(d: Mapping[str, Any], seat: int | None) -> Action:
    value = d["chombo"]
    if not isinstance(value, str):
        raise InvalidActionError(f"chombo must be a reason string, got {value!r}")
    if seat is None:
        raise InvalidActionError("a chombo names the offending seat")
    return Chombo(seat, value)


def _bids(space: Bounds) -> Iterable[tuple[Action, str]]:
    return ((Bid(c, s), f"bid {c}{s}") for c in space.bid_counts for s in space.strains)


PLAY_KIND = ActionKind(
    "play",
    _read_play,
    frozenset({"request", "call_joker"}),
    (
        ActionFamily("play", lambda space: ((Play(c), f"play {c.code}") for c in CARDS), by_card=True),
        ActionFamily("joker_lead", lambda space: ((Play(JOKER, r), f"play JK request {r}") for r in JOKER_REQUESTS)),
        ActionFamily("call_joker", lambda space: [(Play(parse_card("3S"), None, True), "play 3S calling the joker")]),
    ),
)
"""A card played (``play``, a joker lead's request ``joker_lead``, Napoleon's ♠3 ``call_joker``)."""
BID_KIND = ActionKind(
    "bid", _read_bid, families=(ActionFamily("bid", _bids), ActionFamily("pass", lambda space: [(PASS, "pass")]))
)
"""A bid or a pass (``bid``: the space's counts times its strains; ``pass``)."""
DISCARD_KIND = ActionKind(
    "discard",
    _read_discard,
    families=(
        ActionFamily("discard", lambda space: ((Discard((c,)), f"discard {c.code}") for c in CARDS), by_card=True),
    ),
)
"""Cards put face down (the env takes a discard card by card)."""
CLAIM_KIND = ActionKind("claim", _read_claim, families=(ActionFamily("claim", lambda space: [(CLAIM, "claim")]),))
"""A claim of the remaining tricks."""
REFUSED_CLAIM_KIND = ActionKind("refused", _read_refused, frozenset({"claim"}))
"""A claim refused under the table's rules (``{"claim": true, "refused": true}``)."""
CHOMBO_KIND = ActionKind("chombo", _read_chombo)
"""A referee's chombo: every game reads it (``GameInfo`` adds it), the core checks it."""

SHARED_KINDS: tuple[ActionKind, ...] = (PLAY_KIND, REFUSED_CLAIM_KIND, BID_KIND, DISCARD_KIND, CLAIM_KIND, CHOMBO_KIND)
"""The kinds of this module, the vocabulary games share."""

_SHARED_READER = ActionReader(SHARED_KINDS)


def action_from_json(data: Mapping[str, Any], seat: int | None = None) -> Action:
    """Read one record action of the shared vocabulary (the ``seat`` key, if present, is ignored
    here; a Chombo takes ``seat`` as the offending seat).  A game's own actions are read by its
    declaration (``GameInfo.action_from_json``).  Raises InvalidActionError naming the problem."""
    return _SHARED_READER(data, seat)


def joker_play(request: str | None) -> Play:
    return Play(JOKER, request)
