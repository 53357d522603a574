"""Practice in the terminal (``kirifuda play --practice [--kind KIND]``): the user with bots,
taking back their last decision (``u``), playing the deal again from its start or a trick
(``again [N]``), hints (``h``), and deals of a chosen kind.

The same rules as a practice table on the server (:mod:`kirifuda.server.practice`): undo as
:func:`kirifuda.coach.may_undo` allows it; a replay at any time; the record saved is the match's
final line (what was taken back is not in it).  After a rewind the bots are made anew and
shown the views of the line as it stands, so none remembers a card taken back.
"""

from __future__ import annotations

from typing import Any

from rich.markup import escape

from ..bots import make_bot
from ..errors import KirifudaError
from ..game import GameInfo
from ..i18n import add_terms, t
from ..ui.terminal import TerminalGame
from .kinds import DealKind, deal_of_kind, find_kind
from .practice import may_undo, rewound, trick_start

__all__ = ["PracticeGame", "UNDO_WORDS", "AGAIN_WORDS"]

add_terms(
    {
        "practice.terminal.banner": (
            "練習: u (取消) で自分の最後の手を取り消し、again N (もう一度 N) でこの回を第 N トリックからやり直し"
            " (数字なしで最初から)、h でヒント",
            "Practice: u takes back your last decision, again N plays this deal again from trick N "
            "(again alone: from its start), h gives a hint",
        ),
        "practice.terminal.kind": ("配り方: {kind}", "Deals: {kind}"),
        "practice.terminal.undone": ("取り消しました: {action}", "Taken back: {action}"),
        "practice.terminal.again": (
            "この回を第 {trick} トリックからやり直します",
            "This deal again from trick {trick}",
        ),
        "practice.terminal.again_start": ("この回を最初からやり直します", "This deal again from its start"),
        "practice.terminal.bad_trick": (
            "again の後はトリックの番号です ({text} ではなく)",
            "again takes a trick number, not {text!r}",
        ),
    }
)

UNDO_WORDS = frozenset({"u", "undo", "取消", "取り消し"})
AGAIN_WORDS = frozenset({"again", "もう一度"})


class _Rewound(Exception):
    """The match was rewound while the user was asked: ask again from the new position."""


class PracticeGame(TerminalGame):
    """A :class:`~kirifuda.ui.terminal.TerminalGame` with undo, replay and deals of a kind."""

    def __init__(self, info: GameInfo, options: Any, *, kind: str | None = None, **kwargs: Any) -> None:
        super().__init__(info, options, **kwargs)
        self.kind: DealKind | None = find_kind(info.id, kind, self.lang) if kind else None
        bots = kwargs.get("bots", "heuristic")
        self._bot_kind = bots if isinstance(bots, str) else None
        ask = self.input

        def read(prompt: str) -> str:
            while True:
                text = ask(prompt)
                if not self._command(text):
                    return text

        self.input = read
        self.console.print(escape(t("practice.terminal.banner", self.lang)))
        if self.kind is not None:
            self.console.print(escape(t("practice.terminal.kind", self.lang, kind=self.kind.label(self.lang))))

    # -- dealing -------------------------------------------------------------------------
    def _deal(self) -> None:
        if self.kind is None:
            super()._deal()
            return
        seed = f"{self.rng.getrandbits(64):x}"
        found = deal_of_kind(self.state, self.kind, self.seat, seed)
        self.state.deal(found.hands, found.rest)
        if not found.found:
            self.console.print(
                escape(t("practice.kind.not_found", self.lang, tries=self.kind.tries, kind=self.kind.label(self.lang)))
            )

    # -- the user's commands ---------------------------------------------------------------
    def _show_help(self) -> None:
        super()._show_help()
        self.console.print(escape(t("practice.terminal.banner", self.lang)))

    def _ask(self) -> Any:
        while True:
            try:
                return super()._ask()
            except _Rewound:
                continue

    def _command(self, text: str) -> bool:
        """A practice command (True: handled; raises _Rewound when the match went back)."""
        words = " ".join(text.strip().lower().split()).split(" ")
        if words[0] in UNDO_WORDS and len(words) == 1:
            verdict = may_undo(self.state, self.seat, [self.seat])
            if not verdict.allowed or verdict.keep is None:
                self.console.print(escape(verdict.reason(self.lang)))
                return True
            deal = len(self.state.record_deals()) - 1
            self._rewind(deal, verdict.keep)
            self.console.print(
                escape(t("practice.terminal.undone", self.lang, action=verdict.params["action"].label(self.lang)))
            )
            raise _Rewound()
        if words[0] in AGAIN_WORDS and len(words) <= 2:
            try:
                trick = int(words[1]) if len(words) == 2 else 0
            except ValueError:
                self.console.print(escape(t("practice.terminal.bad_trick", self.lang, text=words[1])))
                return True
            deal = len(self.state.record_deals()) - 1
            try:
                keep = trick_start(self.state, deal, trick, self.lang)
            except KirifudaError as exc:
                self.console.print(escape(str(exc)))
                return True
            self._rewind(deal, keep)
            self.console.print(
                escape(
                    t("practice.terminal.again", self.lang, trick=trick)
                    if trick
                    else t("practice.terminal.again_start", self.lang)
                )
            )
            self._show_deal_start()
            self._bots_until_mine()
            raise _Rewound()
        return False

    def _rewind(self, deal: int, actions: int) -> None:
        self.state = rewound(self.state, deal, actions)
        self._tricks_shown = 0
        self._last_trick = None
        if self._bot_kind is not None:  # bots made anew, shown the line as it stands
            self.bots = {s: make_bot(self._bot_kind, self.info.id) for s in self.bots}
        watchers = {
            s: getattr(b, "observe")  # noqa: B009
            for s, b in self.bots.items()
            if getattr(b, "observe", None) is not None
        }
        if watchers:
            from ..record import from_state

            rec = from_state(self.state)
            st = rec.new_state()
            for d in rec.deals:
                st.deal(d.hands, d.rest)
                for s, observe in watchers.items():
                    observe(st.view(s))
                for data in d.actions:
                    st.apply(self.info.action_from_json(data, data["seat"]), data["seat"])
                    for s, observe in watchers.items():
                        observe(st.view(s))

    def _bots_until_mine(self) -> None:
        """After a replay from a trick another seat leads: the bots play up to the user's turn."""
        while self.state.to_act is not None and self.state.to_act != self.seat and not self.state.needs_deal:
            seat = self.state.to_act
            before = self.state.view(self.seat)
            action = self._bot_action(seat)
            for s, bot in self.bots.items():
                observe = getattr(bot, "observe", None)
                if observe is not None:
                    observe(self.state.view(s))
            self._show_action(seat, action, before)
            self._show_trick_end()
