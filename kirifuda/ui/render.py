"""Text rendering shared by the terminal game and the replay account: cards with suit symbols,
actions, tricks and views, in Japanese or English.  Knows no single game: a game's view may
define ``sort_hand()`` and ``table_lines(lang)`` to override the generic forms here."""

from __future__ import annotations

import dataclasses
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, Iterator, Sequence

from ..actions import Action, Discard, Play
from ..cards import Card, format_card, parse_card
from ..errors import InvalidActionError
from ..game import View
from ..i18n import field_label, t
from ..tricks import Trick

__all__ = [
    "card_text",
    "cards_text",
    "action_text",
    "trick_text",
    "value_text",
    "sorted_hand",
    "view_lines",
    "match_input",
    "seat_name",
    "sorted_actions",
    "read_card",
    "player_name",
    "named",
]

BASE_FIELDS = {f.name for f in dataclasses.fields(View)}

_NAMES: ContextVar[Sequence[str] | None] = ContextVar("seat_names", default=None)
"""The players' names while :func:`view_lines` draws a view: a game's own ``table_lines(lang)``
names seats through :func:`seat_name`, which takes them from here (its players' names, not
"Seat 2")."""


_SUIT_SIGNS = {"♠": "s", "♤": "s", "♥": "h", "♡": "h", "♦": "d", "♢": "d", "♣": "c", "♧": "c"}
_JOKER_WORDS = {"jk", "joker", "jo", "j0", "ジョーカー", "ジョーカ", "じょーかー"}
_RANK_WORDS = {"a", "k", "q", "j", "t", "10", *(str(n) for n in range(2, 10))}


def read_card(text: str) -> Card:
    """A card as a player types it: ``8s``, ``S8``, ``8 s``, ``♠8``, ``8♠``, ``10h``, ``h10``,
    ``joker`` (``jk``, ジョーカー).  Raises InvalidActionError naming what was typed."""
    word = "".join(text.split()).lower()
    for sign, letter in _SUIT_SIGNS.items():
        word = word.replace(sign, letter)
    if word in _JOKER_WORDS:
        return parse_card("JK")
    if len(word) >= 2:
        if word[0] in "shdc" and word[1:] in _RANK_WORDS:
            return parse_card(word[1:] + word[0])
        if word[-1] in "shdc" and word[:-1] in _RANK_WORDS:
            return parse_card(word)
    raise InvalidActionError(f"not a card: {text!r} (e.g. 8s, S8, ♠8, 10h, joker)")


def _is_suit_word(word: str) -> bool:
    return word in ("s", "h", "d", "c") or word in _SUIT_SIGNS


def card_text(card: Card, lang: str = "en") -> str:
    return format_card(card, lang)


def cards_text(cards: Sequence[Card], lang: str = "en") -> str:
    return " ".join(format_card(c, lang) for c in cards)


def action_text(action: Action, lang: str = "en") -> str:
    return action.label(lang)


def player_name(seat: int) -> str | None:
    """The player's name at ``seat`` while :func:`named` (or :func:`view_lines` with names)
    is in force, else ``None``: a game's own table lines use it to name seats."""
    names = _NAMES.get()
    return str(names[seat]) if names and 0 <= seat < len(names) and names[seat] else None


@contextmanager
def named(names: Sequence[str] | None) -> Iterator[None]:
    """Seats are named by ``names`` (by seat) in the lines a view draws within this block."""
    token = _NAMES.set(names)
    try:
        yield
    finally:
        _NAMES.reset(token)


def seat_name(seat: int | None, lang: str = "en", you: int | None = None, names: Sequence[str] | None = None) -> str:
    if seat is None:
        return "-"
    names = names or _NAMES.get()
    base = names[seat] if names and 0 <= seat < len(names) and names[seat] else t("seat", lang, n=seat)
    mark = t("you", lang)
    if you is not None and seat == you and base != mark and not base.endswith(f"({mark})"):
        return f"{base} ({mark})"
    return base


def trick_text(trick: Trick, lang: str = "en", names: Sequence[str] | None = None) -> str:
    return "  ".join(f"{seat_name(s, lang, names=names)}: {format_card(c, lang)}" for s, c in trick.plays)


def value_text(value: Any, lang: str = "en") -> str:
    if value is None:
        return "-"
    if isinstance(value, Card):
        return format_card(value, lang)
    if isinstance(value, Trick):
        return trick_text(value, lang)
    if isinstance(value, (list, tuple)) and value and all(isinstance(v, Trick) for v in value):
        return " | ".join(trick_text(v, lang) for v in value)
    label = getattr(value, "label", None)
    if callable(label):
        return str(label(lang))
    if isinstance(value, bool):
        return ("はい" if value else "いいえ") if lang == "ja" else ("yes" if value else "no")
    if isinstance(value, (list, tuple)):
        if value and all(isinstance(v, Card) for v in value):
            return cards_text(value, lang)
        if value and all(isinstance(v, tuple) and len(v) == 2 and isinstance(v[0], int) for v in value):
            return ", ".join(f"{seat_name(s, lang)} {value_text(a, lang)}" for s, a in value)
        return ", ".join(value_text(v, lang) for v in value)
    if isinstance(value, dict):
        return ", ".join(f"{field_label(k, lang)} {value_text(v, lang)}" for k, v in value.items())
    return str(value)


def sorted_actions(view: View) -> tuple[Action, ...]:
    """The legal actions with card plays in the order of the sorted hand."""
    order = {c: k for k, c in enumerate(sorted_hand(view))}
    plays = sorted(
        (a for a in view.legal_actions if isinstance(a, Play)), key=lambda a: (order.get(a.card, 99), a.request or "")
    )
    others = [a for a in view.legal_actions if not isinstance(a, Play)]
    return tuple(plays) + tuple(others)


def sorted_hand(view: View) -> tuple[Card, ...]:
    """The view's own sort if it has one, else by suit ♠ ♥ ♦ ♣ and rank, aces first."""
    sort = getattr(view, "sort_hand", None)
    if callable(sort):
        return tuple(sort())
    return tuple(sorted(view.hand, key=lambda c: (c.is_joker, c.id // 13, -(c.id % 13))))


def view_lines(view: View, lang: str = "en", skip: Sequence[str] = (), names: Sequence[str] | None = None) -> list[str]:
    """The game-specific table of a view, one line a field (empty values left out); ``names``:
    the players' names by seat (else "Seat n")."""
    with named(names):
        return _view_lines(view, lang, skip)


def _view_lines(view: View, lang: str, skip: Sequence[str]) -> list[str]:
    own = getattr(view, "table_lines", None)
    if callable(own):
        return list(own(lang))
    seat_fields: frozenset[str] = getattr(view, "SEAT_FIELDS", frozenset())
    lines = []
    for f in dataclasses.fields(view):
        if f.name in BASE_FIELDS or f.name in skip:
            continue
        value = getattr(view, f.name)
        if value is None or value == () or value == [] or (isinstance(value, dict) and not value):
            continue
        if f.name in seat_fields and isinstance(value, int):
            text = seat_name(value, lang, you=view.seat)
        else:
            text = value_text(value, lang)
        lines.append(f"{field_label(f.name, lang, view.game)}: {text}")
    return lines


def _aliases(action: Action) -> set[str]:
    out = {action.label("en").lower(), action.label("ja").lower()}
    data = action.to_json()
    for key, value in data.items():
        if isinstance(value, str):
            out.add(value.lower())
        if isinstance(value, bool) and value:
            out.add(key.lower())
    if isinstance(action, Play):
        code = action.card.code.lower()
        out.add(code)
        if action.request is not None:
            out.add(f"{code} {action.request.lower()}")
            out.discard(code)
            out.discard(action.request.lower())
        if action.call_joker:  # Napoleon's ♠3 call: "3s call"; plain "3s" is the lead without it
            out.discard(code)
            out.discard("call_joker")
            out |= {f"{code} call", f"{code} call_joker", f"{code} jk"}
    input_words = getattr(action, "input_words", None)  # a game's own words for its action
    if input_words is not None:
        out |= input_words()
    if "claim" in data:
        out |= {"open", "オープン"}
    if "discard" in data:
        cards = data["discard"]
        out.add(" ".join(c.lower() for c in cards))
    return out


def match_input(text: str, legal: Sequence[Action]) -> list[Action]:
    """The legal actions a typed answer can mean: a 1-based number, a card code (``10h``), a
    bid (``7H``, ``pass``), a label.  Empty when nothing matches."""
    text = text.strip()
    if not text:
        return []
    if text.isdigit():
        k = int(text)
        return [legal[k - 1]] if 1 <= k <= len(legal) else []
    words = text.lower().split()
    parts: list[str] = []
    for w in words:  # "8 s" is one card: a rank, then its suit
        if parts and _is_suit_word(w) and parts[-1] in _RANK_WORDS:
            parts[-1] += w
        else:
            parts.append(w)
    for i, p in enumerate(parts):  # normalise the cards: "10h", "h10", "♥10" -> "th"
        if i > 0 and _is_suit_word(p):
            continue  # a joker lead's request ("jk s"), not a card
        try:
            parts[i] = read_card(p).code.lower()
        except InvalidActionError:
            pass
    low = " ".join(parts)
    if len(parts) > 1:  # several cards: a discard, in any order
        try:
            wanted = frozenset(read_card(p).code for p in parts if p not in ("discard", "捨てる"))
        except InvalidActionError:
            wanted = frozenset()
        if wanted:
            found: list[Action] = [
                a for a in legal if isinstance(a, Discard) and frozenset(c.code for c in a.cards) == wanted
            ]
            if found:
                return found
    exact = [a for a in legal if low in _aliases(a)]
    if exact:
        return exact
    # a card alone that only has joker-lead variants: offer them all
    return [a for a in legal if isinstance(a, Play) and a.card.code.lower() == parts[0]]
