"""What a view shows: the cards inside a value, and the cards of the current deal a view shows.

One walk serves every front end that asks which cards a seat has seen: the terminal (a new card
on the table), the practice table's undo (an undo may not take back a card already shown), the
research environments (observations, the hidden-information checks).

>>> from kirifuda.cards import parse_card
>>> from kirifuda.tricks import Trick
>>> trick = Trick(leader=0, plays=((0, parse_card("AS")),))
>>> [CARDS[i].code for i in cards_in({"hand": (parse_card("KH"),), "trick": trick, "note": "QS"})]
['KH', 'AS']
"""

from __future__ import annotations

import dataclasses
from enum import Enum
from typing import Any, Callable, Mapping

from .cards import CARDS, Card
from .tricks import Trick

__all__ = ["NOT_SHOWN", "cards_in", "collect_cards", "shown_cards", "shown_card_set"]

NOT_SHOWN = frozenset({"legal_actions", "attempts", "last_deal", "options"})
"""View fields that show no card of the current deal: the seat's legal actions (they may name any
card, as Napoleon's adjutant choice names every card), the attempts among them, the previous
deal's result and the table's rules."""


def cards_in(value: Any) -> list[int]:
    """The ids of every Card object inside a value (recursively through tuples, lists, sets,
    mappings, tricks and dataclasses, a ``last_deal`` field left out; strings are not cards;
    a face-down play, ``None``, is no card)."""
    out: list[int] = []
    collect_cards(value, out)
    return out


def shown_cards(view: Any) -> list[int]:
    """The ids of the cards of the current deal a view shows: its own hand, the table, the
    tricks, what the rules reveal — its fields but :data:`NOT_SHOWN`."""
    out: list[int] = []
    for f in dataclasses.fields(view):
        if f.name not in NOT_SHOWN:
            collect_cards(getattr(view, f.name), out)
    return out


def shown_card_set(view: Any) -> frozenset[Card]:
    """:func:`shown_cards` as cards."""
    return frozenset(CARDS[i] for i in shown_cards(view))


def collect_cards(value: Any, out: list[int]) -> None:
    """Append the ids of the cards inside ``value`` to ``out`` (:func:`cards_in`; the walk of
    each type is found once and kept)."""
    t = type(value)
    if t is Card:
        out.append(value.id)
    elif t is tuple or t is list:
        for v in value:
            collect_cards(v, out)
    else:
        handler = _HANDLERS.get(t)
        if handler is None:
            handler = _HANDLERS[t] = _handler_for(t)
        handler(value, out)


def _nothing(value: Any, out: list[int]) -> None:
    return


def _handler_for(t: type) -> Callable[[Any, list[int]], None]:
    """How :func:`collect_cards` walks a value of type ``t``."""
    if t in (str, int, float, bool, type(None)) or issubclass(t, Enum):
        return _nothing
    if issubclass(t, Card):
        return lambda v, out: out.append(v.id)
    if issubclass(t, Trick):
        return lambda v, out: out.extend(c.id for _, c in v.plays if c is not None)
    if issubclass(t, Mapping):
        return lambda v, out: collect_cards(tuple(v.values()), out)
    if dataclasses.is_dataclass(t):
        names = tuple(f.name for f in dataclasses.fields(t) if f.name != "last_deal")

        def walk(v: Any, out: list[int]) -> None:
            for name in names:
                collect_cards(getattr(v, name), out)

        return walk
    if issubclass(t, (tuple, list, frozenset, set)):
        return lambda v, out: collect_cards(tuple(v), out)
    return _nothing


_HANDLERS: dict[type, Callable[[Any, list[int]], None]] = {}
