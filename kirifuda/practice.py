"""Practice tables (練習): the rule of undo.

At a practice table (one human, the rest bots) the human may take back their own last decision
— and with it the bots' moves since — as long as

- no other human sits at the table (never at a table with other humans);
- no other human has acted since that decision;
- no card hidden from the human was revealed to them by that decision or by any move since
  (the agari or the kitty taken into hand, a face-down card turned up at the end of a trick,
  another seat's card played face up, the hands shown at the end of a deal): taking a move
  back must never let the player choose again knowing more.

:func:`may_undo` decides on the moves alone (a pure function); :func:`decision` describes a move
from the states before and after it, as a table records it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import AbstractSet, Sequence

from .cards import Card, parse_card
from .game import GameState
from .i18n import add_terms, t
from .ui.terminal import visible_cards

__all__ = ["Decision", "UndoCheck", "may_undo", "decision", "revealed_cards"]

add_terms(messages={
    "undo.not_practice": ("ほかの人がいる卓では待ったはできません", "No undo at a table with other humans"),
    "undo.nothing": ("取り消せるあなたの手はありません", "You have no decision to take back"),
    "undo.other_human": ("そのあとでほかの人が手を進めました", "Another human has acted since"),
    "undo.revealed": ("そのあとで見えなかった札が見えました: 待ったはできません",
                      "A card you could not see has been shown since: no undo"),
})


@dataclass(frozen=True)
class Decision:
    """One move of the table, as the undo rule needs it."""

    seat: int
    human: bool
    """Whether a human (not a bot) made it."""
    revealed: frozenset[int] = frozenset()
    """The seats to whom the move showed a card they could not see before (other than their
    own cards)."""


@dataclass(frozen=True)
class UndoCheck:
    """The answer of :func:`may_undo`."""

    allowed: bool
    back_to: int | None
    """The number of moves to keep (the history is cut back to this length), when allowed."""
    reason: str | None
    """The catalogue key of the reason for a refusal (``undo.*``)."""

    def message(self, lang: str = "en") -> str | None:
        return None if self.reason is None else t(self.reason, lang)


def may_undo(history: Sequence[Decision], seat: int, humans: AbstractSet[int]) -> UndoCheck:
    """May ``seat`` take back its last decision of ``history`` (the moves of the deal so far, in
    order) at a table whose human seats are ``humans``?"""
    if set(humans) - {seat}:
        return UndoCheck(False, None, "undo.not_practice")
    last = next((i for i in range(len(history) - 1, -1, -1) if history[i].seat == seat and history[i].human), None)
    if last is None:
        return UndoCheck(False, None, "undo.nothing")
    since = history[last:]
    if any(d.human and d.seat != seat for d in since[1:]):
        return UndoCheck(False, None, "undo.other_human")
    if any(seat in d.revealed for d in since):
        return UndoCheck(False, None, "undo.revealed")
    return UndoCheck(True, last, None)


def revealed_cards(before: GameState, after: GameState, seat: int) -> frozenset[Card]:
    """The cards ``seat`` sees after a move that it saw neither before nor holds: what the move
    showed it."""
    seen = visible_cards(before.view(seat))
    now = visible_cards(after.view(seat))
    last_deal = getattr(after.view(seat), "last_deal", None)
    if after.deal_number != before.deal_number and last_deal is not None:  # the deal ended: all shown
        from .game import to_jsonable

        now = now | frozenset(_cards(to_jsonable(last_deal)))
    return frozenset(now - seen - frozenset(before.view(seat).hand))


_CODE = re.compile(r"^([2-9TJQKA][SHDC]|JK)$")


def _cards(value: object) -> list[Card]:
    """The card codes in a deal's result (hands, tricks, the agari, the negri, a kitty)."""
    out: list[Card] = []
    if isinstance(value, str):
        if _CODE.match(value):
            out.append(parse_card(value))
    elif isinstance(value, dict):
        for v in value.values():
            out += _cards(v)
    elif isinstance(value, list):
        for v in value:
            out += _cards(v)
    return out


def decision(before: GameState, after: GameState, seat: int, humans: AbstractSet[int]) -> Decision:
    """The move by ``seat`` that turned ``before`` into ``after``, for the human seats."""
    return Decision(seat, seat in humans,
                    frozenset(s for s in humans if revealed_cards(before, after, s)))
