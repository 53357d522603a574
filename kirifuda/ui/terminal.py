"""Play in the terminal against bots (Rich for the display).

The user's seat sees only its view; the bots see only theirs.  Bad input is refused with the
reason and asked again; the record is saved when the match ends or the user stops.
"""

from __future__ import annotations

import datetime as _dt
import os
import random
from pathlib import Path
from typing import Any, Callable, Sequence

from rich.console import Console
from rich.panel import Panel
from rich.table import Table

from .. import record as records
from ..actions import Action
from ..bots import Bot, make_bot
from ..errors import IllegalActionError, KirifudaError
from ..game import GameInfo, GameState
from ..i18n import field_label, t
from .render import (action_text, cards_text, match_input, seat_name, sorted_actions, sorted_hand,
                     trick_text, view_lines)

__all__ = ["TerminalGame", "default_record_path"]


def data_dir() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / "kirifuda"


def default_record_path(game_id: str) -> Path:
    stamp = _dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    return data_dir() / "records" / f"{game_id}-{stamp}.json"


LONG_CHOICES = 40
"""More choices than this are listed on wrapped lines instead of one a line."""
MANY_CHOICES = 120
"""More choices than this are not listed: the user types the cards."""


class _Quit(Exception):
    pass


class TerminalGame:
    """One match: the user at ``seat``, bots elsewhere."""

    def __init__(self, info: GameInfo, options: Any, *, seat: int = 0, bots: str = "heuristic",
                 seed: int | None = None, lang: str = "en", record_path: Path | None = None,
                 console: Console | None = None, input_fn: Callable[[str], str] | None = None,
                 first: int = 0) -> None:
        self.info = info
        self.state: GameState = info.new_state(options, first=first)
        n = self.state.num_players
        if not 0 <= seat < n:
            raise KirifudaError(f"seat {seat} is not at a table of {n}")
        self.seat = seat
        self.lang = lang
        self.rng = random.Random(seed)
        self.bots: dict[int, Bot] = {s: make_bot(bots, info.id) for s in range(n) if s != seat}
        if any(getattr(b, "needs_state", False) for b in self.bots.values()):
            raise KirifudaError(f"the {bots} bot sees every card: it plays only in tournaments")
        self.record_path = record_path or default_record_path(info.id)
        self.console = console or Console(highlight=False)
        self.input = input_fn or (lambda prompt: self.console.input(prompt))
        self.names = [t("you", lang) if s == seat else f"{t('seat', lang, n=s)} ({bots})" for s in range(n)]
        self._last_trick_shown: Any = None

    # -- the loop ------------------------------------------------------------------------
    def run(self) -> Path:
        """Play until the match ends or the user stops; save and return the record's path."""
        try:
            while not self.state.is_over:
                if self.state.needs_deal:
                    self.state.deal_random(self.rng)
                    self._show_deal_start()
                    continue
                to_act = self.state.to_act
                assert to_act is not None
                if to_act == self.seat:
                    action = self._ask()
                else:
                    action = self.bots[to_act].choose(self.state.view(to_act), self.rng)
                deal_no = getattr(self.state, "deal_number", None)
                self.state.apply(action, to_act)
                for s, bot in self.bots.items():  # bots that remember what they see
                    observe = getattr(bot, "observe", None)
                    if observe is not None:
                        observe(self.state.view(s))
                self._show_action(to_act, action)
                self._show_trick_end()
                if getattr(self.state, "deal_number", None) != deal_no or self.state.is_over:
                    self._show_deal_result()
            self._show_match_result()
        except (_Quit, EOFError, KeyboardInterrupt):
            self.console.print(t("quit", self.lang))
        return self.save()

    def save(self) -> Path:
        rec = records.from_state(self.state, players=self.names)
        self.record_path.parent.mkdir(parents=True, exist_ok=True)
        self.record_path.write_text(records.dumps(rec), encoding="utf-8")
        self.console.print(t("saved", self.lang, path=str(self.record_path)))
        return self.record_path

    # -- the user's turn -----------------------------------------------------------------
    def _ask(self) -> Action:
        view = self.state.view(self.seat)
        self._show_table()
        legal = sorted_actions(view)
        if len(legal) > MANY_CHOICES:  # e.g. Napoleon's discard: C(17, 5) = 6188 choices
            self.console.print(Panel(t("many_choices", self.lang, n=len(legal),
                                       example=action_text(legal[0], self.lang)),
                                     title=t("legal", self.lang), expand=False))
        elif len(legal) > LONG_CHOICES:
            self.console.print(Panel("  ".join(f"[bold]{k}[/bold] {action_text(a, self.lang)}"
                                               for k, a in enumerate(legal, 1)),
                                     title=t("legal", self.lang), expand=False))
        else:
            table = Table(show_header=False, box=None, padding=(0, 1))
            for k, a in enumerate(legal, 1):
                table.add_row(f"[bold]{k}[/bold]", action_text(a, self.lang))
            self.console.print(Panel(table, title=t("legal", self.lang), expand=False))
        while True:
            text = self.input(f"{t('prompt', self.lang)} > ")
            answer = text.strip().lower()
            if answer in ("q", "quit", "exit"):
                raise _Quit()
            if answer in ("?", "h", "help"):
                self.console.print(t("help", self.lang))
                continue
            if answer in ("s", "score"):
                self._show_scores()
                continue
            found = match_input(text, legal)
            if len(found) == 1:
                return found[0]
            if len(found) > 1:
                self.console.print(t("ambiguous", self.lang, text=", ".join(action_text(a, self.lang) for a in found)))
                continue
            self.console.print(self._why(text))

    def _why(self, text: str) -> str:
        """Explain a refused answer: the rule it breaks if it reads as an action."""
        from ..actions import Play, action_from_json
        from ..cards import parse_card

        candidates: list[Action] = []
        word = text.strip()
        try:
            candidates.append(Play(parse_card(word.split()[0])))
        except (KirifudaError, IndexError):
            pass
        try:
            candidates.append(action_from_json({"bid": word if word.lower() != "pass" else "pass"}))
        except KirifudaError:
            pass
        for action in candidates:
            try:
                self.state.check(action, self.seat)
            except IllegalActionError as exc:
                return t("illegal", self.lang, reason=exc.rule)
        return t("bad_input", self.lang, text=text)

    # -- showing -------------------------------------------------------------------------
    def _name(self, seat: int | None) -> str:
        return seat_name(seat, self.lang, you=None, names=self.names)

    def _show_deal_start(self) -> None:
        n = getattr(self.state, "deal_number", 0) + 1
        self.console.rule(t("deal", self.lang, n=n))
        intro = getattr(self.state.view(self.seat), "intro_lines", None)
        if callable(intro):  # a game's own words at the start of a deal (who deals, who sits out)
            for line in intro(self.lang):
                self.console.print(line)

    def _show_table(self) -> None:
        view = self.state.view(self.seat)
        lines = [f"[bold]{t('your_hand', self.lang)}[/bold]: {cards_text(sorted_hand(view), self.lang)}"]
        lines.append(f"{t('hand_sizes', self.lang)}: " + "  ".join(
            f"{self._name(s)} {k}" for s, k in enumerate(view.hand_sizes)))
        lines += view_lines(view, self.lang, skip=("last_deal",))
        lines.append(f"{t('totals', self.lang)}: {self._totals_text(view.totals)}")
        self.console.print(Panel("\n".join(lines), title=f"{self.info.name_ja if self.lang == 'ja' else self.info.name_en}"
                                 f" — {t('your_turn', self.lang)}", expand=False))

    def _totals_text(self, totals: Sequence[Any]) -> str:
        return "  ".join(str(x) for x in totals)

    def _show_action(self, seat: int, action: Action) -> None:
        if seat == self.seat:
            return
        # a game whose plays can be hidden (Unsun's face-down cards) says how the user sees it
        describe = getattr(self.state.view(self.seat), "describe_play", None)
        text = describe(seat, action, self.lang) if callable(describe) else action_text(action, self.lang)
        self.console.print(t("acts", self.lang, who=self._name(seat), action=text))

    def _show_trick_end(self) -> None:
        view = self.state.view(None)
        last = getattr(view, "last_trick", None)
        if last is not None and last != self._last_trick_shown:
            self._last_trick_shown = last
            winner = getattr(view, "last_trick_winner", None)
            self.console.print(f"  {trick_text(last, self.lang, names=self.names)}  →  "
                               + t("trick_won", self.lang, who=self._name(winner)))

    def _show_deal_result(self) -> None:
        summary = self.state.summary()
        finished = [d for d in summary["deals"] if d.get("outcome") != "in-progress"]
        if not finished:
            return
        deal = finished[-1]
        lines = [f"{field_label('outcome', self.lang)}: {t('outcome.' + deal['outcome'], self.lang)}"]
        for key, value in deal.items():
            if key in ("outcome", "tricks") or value is None:
                continue
            lines.append(f"{field_label(key, self.lang, self.info.id)}: {value}")
        view = self.state.view(self.seat)
        last = getattr(view, "last_deal", None)
        if isinstance(last, dict) and "hands" in last:
            for s, hand in enumerate(last["hands"]):
                from ..cards import parse_cards

                lines.append(f"{self._name(s)}: {cards_text(parse_cards(hand), self.lang)}")
        lines.append(f"{t('totals', self.lang)}: {self._totals_text(summary['totals'])}")
        self.console.print(Panel("\n".join(lines), title=t("deal_over", self.lang), expand=False))

    def _show_scores(self) -> None:
        summary = self.state.summary()
        table = Table(title=t("score", self.lang))
        table.add_column("#")
        table.add_column(field_label("outcome", self.lang))
        table.add_column(t("score", self.lang))
        for k, d in enumerate(summary["deals"], 1):
            table.add_row(str(k), t("outcome." + d["outcome"], self.lang), " ".join(str(x) for x in d["score"]))
        table.add_row("", t("totals", self.lang), self._totals_text(summary["totals"]))
        self.console.print(table)

    def _show_match_result(self) -> None:
        outcome = self.state.outcome()
        if outcome is None:
            return
        winners = outcome.winner if isinstance(outcome.winner, tuple) else (outcome.winner,)
        who = ", ".join(self.state.unit_name(w, self.lang) for w in winners)
        text = f"{t('winner', self.lang, who=who)}\n{t('totals', self.lang)}: {self._totals_text(outcome.totals)}"
        deals_won = self.state.summary().get("deals_won")  # shown beside the totals where a game counts it
        if deals_won is not None:
            text += f"\n{field_label('deals_won', self.lang, self.info.id)}: {self._totals_text(deals_won)}"
        self.console.print(Panel(text, title=t("match_over", self.lang), expand=False))
