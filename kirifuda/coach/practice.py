"""Practice tables (練習卓): taking back one's own last decision.

At a practice table — one human and bots — the human may undo their own last decision of the
deal, with everything the bots did after it, as long as:

- no other human sits at the table (so none can have acted since);
- no card hidden from the human before the decision has been shown to them since (the agari
  taken with the contract, Napoleon's middle, a bot's card played after it, a face-down card
  turned, the next deal's hand): undoing then would let them choose again knowing it.

:func:`may_undo` decides, from the match and the seat's own views alone, without changing
anything; :func:`undone` gives the match as it was before the decision.

Replaying a deal (もう一度): :func:`rewound` gives the match as it was at any point of any deal
played so far (the later deals dropped), and :func:`trick_start` finds where a trick of a deal
was led, so that a deal can be played again from its start or from a chosen trick.  Replaying
is the player's own choice to see a position again, knowing what they saw: unlike undo it is not
bound by :func:`may_undo` (a practice table is never rated).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Collection

from ..cards import CARDS, format_card, parse_card
from ..errors import KirifudaError
from ..game import GameState, View
from ..i18n import add_terms, t
from ..record import from_state, replay
from ..seen import shown_cards
from .hint import seat_views

__all__ = ["UndoVerdict", "may_undo", "undone", "rewound", "trick_start"]

UNDO_TERMS: dict[str, tuple[str, str]] = {
    "undo.allowed": ("{action} を取り消せます", "{action} can be taken back"),
    "undo.other_humans": ("ほかの人がいる卓では取り消せません", "no undo at a table with other humans"),
    "undo.nothing": ("この回にあなたの手はまだありません", "you have made no decision in this deal"),
    "undo.revealed": ("その後に見えた札があります: {cards}", "cards have been shown to you since: {cards}"),
    "undo.deal_over": ("この回は終わっています", "the deal is over"),
    "practice.no_deal": (
        "第 {deal} 回 (0 から数えて) はまだありません: 配られたのは {dealt} 回です",
        "there is no deal {deal} (counted from 0): {dealt} have been dealt",
    ),
    "practice.no_actions": (
        "第 {deal} 回の手は {n} 手です ({asked} 手目まではありません)",
        "deal {deal} has {n} actions, not {asked}",
    ),
    "practice.no_trick": (
        "この回の第 {trick} トリックはまだ始まっていません ({started} トリックまで)",
        "trick {trick} of this deal has not been led (tricks led: {started})",
    ),
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
        if "cards" in params:  # codes in ``params`` (for programs), the cards' faces in words
            params["cards"] = " ".join(format_card(parse_card(c), lang) for c in str(params["cards"]).split())
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
    for v in views[: last + 1]:
        seen |= _cards_in(v)
    shown: set[str] = set()
    for v in views[last + 1 :]:
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
    rec.deals[-1].actions = rec.deals[-1].actions[: verdict.keep]
    return replay(rec)


def rewound(state: GameState, deal: int, actions: int, lang: str = "en") -> GameState:
    """The match as it was in deal ``deal`` (0-based) after its first ``actions`` actions, the
    later deals dropped (a new state).  Refused with words where the match has no such point."""
    rec = from_state(state)
    if not isinstance(deal, int) or not 0 <= deal < len(rec.deals):
        raise KirifudaError(t("practice.no_deal", lang, deal=deal, dealt=len(rec.deals)))
    n = len(rec.deals[deal].actions)
    if not isinstance(actions, int) or not 0 <= actions <= n:
        raise KirifudaError(t("practice.no_actions", lang, deal=deal, n=n, asked=actions))
    rec.deals = rec.deals[: deal + 1]
    rec.deals[deal].actions = rec.deals[deal].actions[:actions]
    return replay(rec)


def trick_start(state: GameState, deal: int, trick: int, lang: str = "en") -> int:
    """How many actions of deal ``deal`` come before trick ``trick`` (1-based) is led; trick 0:
    none (the deal from its very start, bidding included).  Refused with words where that
    trick has not been led."""
    from ..actions import Play

    rec = from_state(state)
    if not isinstance(deal, int) or not 0 <= deal < len(rec.deals):
        raise KirifudaError(t("practice.no_deal", lang, deal=deal, dealt=len(rec.deals)))
    if not isinstance(trick, int) or trick < 0:
        raise KirifudaError(t("practice.no_trick", lang, deal=deal, trick=trick, started=0))
    if trick == 0:
        return 0
    rec.deals = rec.deals[: deal + 1]
    actions = rec.deals[deal].actions
    rec.deals[deal].actions = []
    st = replay(rec)
    started = 0
    for j, data in enumerate(actions):
        action = rec.info.action_from_json(data, data["seat"])
        if isinstance(action, Play) and len(getattr(st, "tricks", ())) == started and started < trick and _leads(st):
            started += 1
            if started == trick:
                return j
        st.apply(action, data["seat"])
    raise KirifudaError(t("practice.no_trick", lang, deal=deal, trick=trick, started=started))


def _leads(state: GameState) -> bool:
    """The seat to act leads a trick (no card of the trick in play yet)."""
    trick = getattr(state.view(None), "trick", None)
    return not trick
