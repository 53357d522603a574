"""Practice tables (練習卓): taking back one's own last decision.

At a practice table — one human and bots — the human may undo their own last decision of the
deal, with everything the bots did after it, as long as:

- no other human sits at the table (so none can have acted since);
- no card hidden from the human before the decision has been shown to them since (the agari
  taken with the contract, Napoleon's middle, a bot's card played after it, a face-down card
  turned, the next deal's hand): undoing then would let them choose again knowing it.

:func:`may_undo` decides, from the match and the seat's own views alone, without changing
anything; :func:`undone` gives the match as it was before the decision.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Collection

from ..cards import CARDS
from ..errors import KirifudaError
from ..game import GameState, View
from ..i18n import add_terms, t
from ..record import from_state, replay
from ..seen import shown_cards
from .hint import seat_views

__all__ = ["UndoVerdict", "may_undo", "undone"]

UNDO_TERMS: dict[str, tuple[str, str]] = {
    "undo.allowed": ("{action} を取り消せます", "{action} can be taken back"),
    "undo.other_humans": ("ほかの人がいる卓では取り消せません", "no undo at a table with other humans"),
    "undo.nothing": ("この回にあなたの手はまだありません", "you have made no decision in this deal"),
    "undo.revealed": ("その後に見えた札があります: {cards}", "cards have been shown to you since: {cards}"),
    "undo.deal_over": ("この回は終わっています", "the deal is over"),
}
add_terms(UNDO_TERMS)


@dataclass(frozen=True)
class UndoVerdict:
    """Whether ``seat`` may take back its last decision, and why (or why not)."""

    allowed: bool
    key: str
    """The reason's catalogue key (``undo.*``)."""
    params: dict[str, Any]
    keep: int | None = None
    """Where allowed: the actions of the deal kept (those before the decision)."""

    def reason(self, lang: str = "en") -> str:
        params = dict(self.params)
        if "action" in params:
            params["action"] = params["action"].label(lang)
        return t(self.key, lang, **params)


def _cards_in(view: View) -> set[str]:
    """Every card code a view shows of the current deal (:func:`kirifuda.seen.shown_cards`)."""
    return {CARDS[i].code for i in shown_cards(view)}


def may_undo(state: GameState, seat: int, humans: Collection[int]) -> UndoVerdict:
    """May ``seat`` (a human) take back its last decision of the current deal?  ``humans``: the
    seats played by people (``seat`` among them).  Pure: the state is not changed."""
    if any(h != seat for h in humans):
        return UndoVerdict(False, "undo.other_humans", {})
    if state.needs_deal or state.is_over:
        return UndoVerdict(False, "undo.deal_over", {})
    actions = state.record_deals()[-1]["actions"]
    mine = [j for j, a in enumerate(actions) if a["seat"] == seat]
    if not mine:
        return UndoVerdict(False, "undo.nothing", {})
    last = mine[-1]
    views = seat_views(state, seat)  # views[j]: before action j; views[-1]: now
    seen: set[str] = set()
    for v in views[:last + 1]:
        seen |= _cards_in(v)
    shown: set[str] = set()
    for v in views[last + 1:]:
        shown |= _cards_in(v)
    new = sorted(shown - seen)
    if new:
        return UndoVerdict(False, "undo.revealed", {"cards": " ".join(new)})
    from ..games import GAMES

    action = GAMES[state.game_id].action_from_json(actions[last], seat)
    return UndoVerdict(True, "undo.allowed", {"action": action}, keep=last)


def undone(state: GameState, verdict: UndoVerdict) -> GameState:
    """The match as it was before the decision ``verdict`` allows taking back (a new state)."""
    if not verdict.allowed or verdict.keep is None:
        raise KirifudaError(f"undo refused: {verdict.reason()}")
    rec = from_state(state)
    rec.deals[-1].actions = rec.deals[-1].actions[:verdict.keep]
    return replay(rec)
