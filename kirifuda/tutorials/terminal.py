"""``kirifuda learn GAME``: a game's tutorial in the terminal (Rich).

The notes are shown as the deal reaches them; the other seats' moves come from the tutorial's
record and are shown as the learner's view shows them; at the learner's turn the hand, the
table and the choices are shown, and the answer is read as in ``kirifuda play`` (a number, a
card such as ``10h`` or ``♠A``, a bid such as ``7H``, ``pass``).  ``q`` stops, ``?`` shows the
notes again.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Callable

from rich.console import Console
from rich.markup import escape
from rich.panel import Panel

from ..actions import Action, Claim
from ..i18n import t
from ..ui.render import action_text, cards_text, match_input, sorted_actions, sorted_hand, view_lines
from ..ui.results import deal_result, game_text
from . import load, load_file
from .lesson import Event, Lesson

__all__ = ["LessonTerminal", "learn_command"]

MANY_CHOICES = 40
"""More choices than this are not listed (Napoleon's adjutant card, its discard): typed instead."""


class _Stop(Exception):
    pass


class LessonTerminal:
    """Plays a :class:`Lesson` in the terminal."""

    def __init__(
        self, lesson: Lesson, console: Console | None = None, input_fn: Callable[[str], str] | None = None
    ) -> None:
        self.lesson = lesson
        self.lang = lesson.lang
        self.console = console or Console(highlight=False)
        self.input = input_fn or (lambda prompt: self.console.input(escape(prompt)))
        info = lesson.tutorial.info
        self.game_id = info.id
        self.game_name = info.name_ja if self.lang == "ja" else info.name_en
        self.names = [lesson.seat_name(s) for s in range(lesson.state.num_players)]

    def run(self) -> int:
        lesson = self.lesson
        self.console.rule(escape(t("tutorial.title", self.lang, game=self.game_name)))
        self.console.print(escape(lesson.title()))
        self.console.print(escape(t("tutorial.you_play", self.lang, seat=t("seat", self.lang, n=lesson.seat))))
        shown = -1
        try:
            while True:
                if lesson.index != shown:
                    shown = lesson.index
                    self._show_notes()
                if lesson.done:
                    break
                if lesson.learner_turn:
                    self._ask()
                else:
                    self._show_event(lesson.advance())
        except (_Stop, EOFError, KeyboardInterrupt):
            self.console.print(t("quit", self.lang))
            return 0
        self._show_result()
        self.console.print(escape(t("tutorial.done", self.lang, game=self.game_id)))
        return 0

    # -- showing -------------------------------------------------------------------------
    def _show_notes(self) -> None:
        for text in self.lesson.notes():
            self.console.print(Panel(escape(text), title=escape(self._step_title()), expand=False, border_style="cyan"))

    def _step_title(self) -> str:
        return t("tutorial.step", self.lang, n=min(self.lesson.index + 1, self.lesson.total), total=self.lesson.total)

    def _show_event(self, event: Event) -> None:
        self.console.print(escape(t("acts", self.lang, who=self.names[event.seat], action=event.text)))
        if event.trick is not None:
            self.console.print(escape("  " + self.lesson.trick_text(event.trick)))

    def _show_table(self) -> list[Action]:
        view = self.lesson.view()
        lines = [
            f"[bold]{escape(t('your_hand', self.lang))}[/bold]: " + escape(cards_text(sorted_hand(view), self.lang))
        ]
        table = game_text(self.game_id).extras.get("table")
        game_lines = (
            table(view, self.lang, self.names)
            if callable(table)
            else view_lines(view, self.lang, skip=("last_deal",), names=self.names)
        )
        lines += [escape(line) for line in game_lines]
        legal: list[Action] = [a for a in sorted_actions(view) if not isinstance(a, Claim)]
        if len(legal) <= MANY_CHOICES:
            lines.append(
                f"[bold]{escape(t('legal', self.lang))}[/bold]: "
                + "  ".join(f"[bold]{k}[/bold] {escape(action_text(a, self.lang))}" for k, a in enumerate(legal, 1))
            )
        else:
            size = len(getattr(legal[0], "cards", ())) or 1
            lines.append(
                escape(
                    t("many_choices", self.lang, n=len(legal), k=size, example="4h 8d")
                    if size > 1
                    else t("name_a_card", self.lang)
                )
            )
        guide = self.lesson.guide()
        lines.append(f"[yellow]{escape(guide or t('tutorial.choose', self.lang))}[/yellow]")
        self.console.print(
            Panel("\n".join(lines), title=escape(f"{self.game_name} — {t('your_turn', self.lang)}"), expand=False)
        )
        return legal

    def _ask(self) -> None:
        legal = self._show_table()
        while True:
            text = self.input(f"{t('prompt', self.lang)} > ")
            answer = " ".join(text.strip().lower().split())
            if answer in ("q", "quit", "exit", "中断"):
                raise _Stop()
            if answer in ("?", "help", "ヘルプ"):
                self._show_notes()
                legal = self._show_table()
                continue
            found = match_input(text, legal)
            if len(found) != 1:
                key = "ambiguous" if found else "bad_input"
                shown = ", ".join(action_text(a, self.lang) for a in found) if found else text
                self.console.print(escape(t(key, self.lang, text=shown)))
                continue
            verdict, event = self.lesson.answer(found[0])
            style = "green" if verdict.accepted else "red"
            if verdict.message:
                self.console.print(f"[{style}]{escape(verdict.message)}[/{style}]")
            if event is not None:
                self._show_event(event)
                return

    def _show_result(self) -> None:
        result = self.lesson.result()
        lines = deal_result(self.game_id, {k: v for k, v in result.items() if k != "tricks"}, self.lang, self.names)
        score = result.get("score")
        if isinstance(score, list):
            lines.append(f"{t('score', self.lang)}: " + "  ".join(str(x) for x in score))
        self.console.print(Panel(escape("\n".join(lines)), title=t("deal_over", self.lang), expand=False))


def learn_command(args: argparse.Namespace) -> int:
    """``kirifuda learn GAME [--lang ja|en] [--file TUTORIAL]``."""
    tutorial = load_file(Path(args.file)) if args.file else load(args.game)
    if args.file and tutorial.game != args.game:
        from .model import TutorialError

        raise TutorialError(f"{args.file} is a tutorial of {tutorial.game}, not {args.game}")
    return LessonTerminal(Lesson(tutorial, args.lang)).run()
