"""Play in the terminal against bots (Rich for the display).

Every line printed is built from the user's seat's view: another seat's action is shown as the
user sees it (a face-down discard or play as "face down", never its cards), a completed trick
from the user's view, a deal's result from the result the view carries.  The bots see only
their own views.  Bad input is refused with the reason and asked again; the record is saved when
the match ends or the user stops, and a stopped match can be resumed from it.
"""

from __future__ import annotations

import datetime as _dt
import os
import random
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from rich.columns import Columns
from rich.console import Console
from rich.markup import escape
from rich.panel import Panel
from rich.table import Table

from .. import record as records
from ..actions import REFUSED_CLAIM, Action, Claim
from ..bots import Bot, make_bot
from ..cards import Card, deck, format_card
from ..errors import IllegalActionError, KirifudaError
from ..game import GameInfo, GameState, View
from ..i18n import t
from ..seen import shown_card_set
from ..tricks import Trick
from .render import (
    action_text,
    cards_text,
    match_input,
    read_card,
    sorted_actions,
    sorted_hand,
    named,
    view_lines,
)
from .results import deal_result, game_text, signed_text, who_text

__all__ = ["TerminalGame", "default_record_path", "bot_name", "visible_cards"]


def data_dir() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / "kirifuda"


def default_record_path(game_id: str) -> Path:
    stamp = _dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    return data_dir() / "records" / f"{game_id}-{stamp}.json"


def bot_name(kind: str, seat: int, lang: str = "en") -> str:
    """A bot's display name by its kind and level: "Bot 1 (search, strong)" (ボット1)."""
    base, _, level = kind.partition(":")
    if base == "search":
        word = t(f"level.{level or 'normal'}", lang)
    else:
        word = t(f"bot_kind.{base}", lang)
    return t("bot_name", lang, n=seat, kind=word)


MANY_CHOICES = 40
"""More choices than this are not listed one by one (the hand stays on an 80×24 screen): cards
to name are shown by suit, sets of cards to discard are typed."""
COLUMNS_FROM = 5
"""From this many choices on they are laid out in columns (the hand stays on an 80×24 screen)."""


class _Quit(Exception):
    pass


def visible_cards(view: View) -> frozenset[Card]:
    """The cards a view shows face up in the deal being played (its own hand, the table, what
    the rules reveal) — not the choices it is offered nor the previous deal's result."""
    return shown_card_set(view)


def _action_cards(action: Action) -> tuple[Card, ...]:
    cards = getattr(action, "cards", None)
    if isinstance(cards, tuple):
        return cards
    card = getattr(action, "card", None)
    return (card,) if isinstance(card, Card) else ()


class TerminalGame:
    """One match: the user at ``seat``, bots elsewhere.  ``state``: a match to go on with
    (resumed from its record) instead of a new one; ``bots``: a kind for every other seat, or
    the bots by seat."""

    def __init__(
        self,
        info: GameInfo,
        options: Any,
        *,
        seat: int = 0,
        bots: str | Mapping[int, Bot] = "heuristic",
        seed: int | None = None,
        lang: str = "en",
        record_path: Path | None = None,
        console: Console | None = None,
        input_fn: Callable[[str], str] | None = None,
        first: int = 0,
        state: GameState | None = None,
        name: str | None = None,
        names: Sequence[str] | None = None,
    ) -> None:
        self.info = info
        self.state: GameState = state if state is not None else info.new_state(options, first=first)
        n = self.state.num_players
        if not isinstance(seat, int) or not 0 <= seat < n:
            raise KirifudaError(f"--seat {seat} is not a seat at a table of {n} (0-{n - 1})")
        self.seat = seat
        self.lang = lang
        self.rng = random.Random(seed)
        if isinstance(bots, str):
            self.bots: dict[int, Bot] = {s: make_bot(bots, info.id) for s in range(n) if s != seat}
            kinds = {s: bots for s in self.bots}
        else:
            self.bots = dict(bots)
            kinds = {s: getattr(b, "name", "bot") for s, b in self.bots.items()}
        if any(getattr(b, "needs_state", False) for b in self.bots.values()):
            raise KirifudaError(f"the {bots} bot sees every card: it plays only in tournaments")
        self.record_path = record_path or default_record_path(info.id)
        self.console = console or Console(highlight=False)
        self.input = input_fn or (lambda prompt: self.console.input(escape(prompt)))
        self.text = game_text(info.id)
        if names is not None and len(names) == n:
            self.names = list(names)
            if name:
                self.names[seat] = name
        else:
            self.names = [name or t("you", lang) if s == seat else bot_name(kinds[s], s, lang) for s in range(n)]
        self.display = [
            self.names[s] if s == seat or not isinstance(bots, str) else t("bot_short", lang, n=s) for s in range(n)
        ]
        """Short names on screen (the record keeps the full ones: the bots' kind and level)."""
        self._tricks_shown = 0
        self._last_trick: Trick | None = None
        self._introduced = False
        self._final_winner: int | None = None

    # -- the loop ------------------------------------------------------------------------
    def run(self) -> Path:
        """Play until the match ends or the user stops; save and return the record's path."""
        with named(self.display):  # the games' own lines name the players, not "Seat 2"
            return self._run()

    def _run(self) -> Path:
        try:
            if not self.state.needs_deal and not self.state.is_over:
                self._show_deal_start()  # a resumed match, inside a deal
            while not self.state.is_over:
                if self.state.needs_deal:
                    self._deal()
                    self._show_deal_start()
                    continue
                to_act = self.state.to_act
                assert to_act is not None
                before = self.state.view(self.seat)
                deal_no = self.state.deal_number
                if to_act == self.seat:
                    action = self._ask()
                    try:
                        self.state.apply(action, to_act)
                    except IllegalActionError as exc:  # an attempt that fails (a refused claim)
                        self.console.print(escape(t("illegal", self.lang, reason=self._reason(exc))))
                        if not (isinstance(action, Claim) and self._refuse_claim(to_act)):
                            continue
                        action = REFUSED_CLAIM
                else:
                    action = self._bot_action(to_act)
                for s, bot in self.bots.items():  # bots that remember what they see
                    observe = getattr(bot, "observe", None)
                    if observe is not None:
                        observe(self.state.view(s))
                self._show_action(to_act, action, before, ended=self.state.deal_number != deal_no)
                if self.state.deal_number != deal_no or self.state.is_over:
                    self._show_deal_end()
                else:
                    self._show_trick_end()
            self._show_match_result()
        except (_Quit, EOFError, KeyboardInterrupt):
            self.console.print(t("quit", self.lang))
        return self.save()

    def _deal(self) -> None:
        """Deal the next deal (a practice game deals of a chosen kind: kirifuda.coach.practice_terminal)."""
        self.state.deal_random(self.rng)

    def _refuse_claim(self, seat: int) -> bool:
        """A claim that failed where the rules refuse it: the claimant has shown their hand, which
        stays face up for the rest of the deal (``REFUSED_CLAIM``); False where the game or the
        table's rule has no refused claim (the claim is then simply not taken)."""
        try:
            self.state.apply(REFUSED_CLAIM, seat)
        except IllegalActionError:
            return False
        self.console.print(escape(t("hand_shown", self.lang)))
        return True

    def _bot_action(self, seat: int) -> Action:
        action = self.bots[seat].choose(self.state.view(seat), self.rng)
        try:
            self.state.apply(action, seat)
        except IllegalActionError:  # an attempt that failed: the bot plays a legal action instead
            action = self.state.legal_actions()[0]
            self.state.apply(action, seat)
        return action

    def save(self) -> Path:
        rec = records.from_state(self.state, players=self.names)
        self.record_path.parent.mkdir(parents=True, exist_ok=True)
        self.record_path.write_text(records.dumps(rec), encoding="utf-8")
        self.console.print(escape(t("saved", self.lang, path=str(self.record_path))))
        return self.record_path

    # -- the user's turn -----------------------------------------------------------------
    def _ask(self) -> Action:
        view = self.state.view(self.seat)
        self._show_table(view)
        legal = sorted_actions(view)
        numbered = tuple(a for a in legal if not isinstance(a, Claim))
        self._show_choices(view, numbered, claim=len(numbered) < len(legal))
        while True:
            text = self.input(f"{t('prompt', self.lang)} > ")
            answer = " ".join(text.strip().lower().split())
            if answer in ("q", "quit", "exit", "中断"):
                raise _Quit()
            if answer in ("?", "help", "ヘルプ"):
                self._show_help()
                continue
            if answer in ("s", "score", "得点"):
                self._show_scores()
                continue
            if answer in ("rules", "ルール"):
                self.console.print(
                    Panel(escape(t(f"{self.info.id}.rules", self.lang)), title=t("rules", self.lang), expand=False)
                )
                continue
            if answer in ("last", "直前"):
                self._show_last()
                continue
            if answer in ("h", "hint", "ヒント"):
                from ..coach.terminal import hint_lines

                self.console.print(
                    Panel(
                        escape("\n".join(hint_lines(self.state, self.seat, self.lang))),
                        title=t("coach.hint", self.lang),
                        expand=False,
                    )
                )
                continue
            if answer in ("list", "l", "一覧"):
                self._show_table(view)
                self._show_choices(view, numbered, claim=len(numbered) < len(legal))
                continue
            if answer in ("claim", "open", "オープン"):
                claim = next((a for a in legal if isinstance(a, Claim)), None)
                if claim is None:
                    self.console.print(t("no_claim", self.lang))
                    continue
                if self._confirm_claim(view):
                    return claim
                continue
            found = [a for a in match_input(text, numbered) if not isinstance(a, Claim)]
            if len(found) == 1:
                return found[0]
            if len(found) > 1:
                self.console.print(
                    escape(t("ambiguous", self.lang, text=", ".join(action_text(a, self.lang) for a in found)))
                )
                continue
            self.console.print(escape(self._why(text)))

    def _confirm_claim(self, view: View) -> bool:
        cost = self.text.extras.get("claim_cost")
        if callable(cost):
            self.console.print(escape(str(cost(view, self.lang))))
        answer = self.input(f"{t('confirm_claim', self.lang)} > ").strip().lower()
        return answer in ("y", "yes", "はい", "claim", "open", "オープン")

    def _reason(self, exc: IllegalActionError) -> str:
        """The rule an action breaks, in the user's language where the game words it."""
        from .reasons import reason_text

        return reason_text(exc.rule, self.lang)

    def _why(self, text: str) -> str:
        """Explain a refused answer: the rule it breaks if it reads as an action."""
        from ..actions import Play, action_from_json

        candidates: list[Action] = []
        word = text.strip()
        try:
            candidates.append(Play(read_card(word)))
        except KirifudaError:
            pass
        try:
            candidates.append(action_from_json({"bid": word if word.lower() != "pass" else "pass"}))
        except KirifudaError:
            pass
        for action in candidates:
            try:
                self.state.check(action, self.seat)
            except IllegalActionError as exc:
                return t("illegal", self.lang, reason=self._reason(exc))
        return t("bad_input", self.lang, text=text)

    # -- showing -------------------------------------------------------------------------
    def _name(self, seat: int | None) -> str:
        return who_text(seat, self.lang, self.display)

    def _game_name(self) -> str:
        return self.info.name_ja if self.lang == "ja" else self.info.name_en

    def _show_deal_start(self) -> None:
        self._tricks_shown = 0
        self._last_trick = None
        self.console.rule(t("deal", self.lang, n=self.state.deal_number + 1))
        if not self._introduced:
            self._introduced = True
            self.console.print(escape(t("players", self.lang, names="; ".join(self.names))))
        view = self.state.view(self.seat)
        intro = getattr(view, "intro_lines", None)
        if callable(intro):  # a game's own words at the start of a deal (who deals, who sits out)
            with named(self.display):
                lines = list(intro(self.lang))
            for line in lines:
                self.console.print(escape(line))
        for line in self._roles(view):
            self.console.print(escape(line))

    def _roles(self, view: View) -> list[str]:
        roles = self.text.roles
        return roles(view, self.lang, self.display) if roles is not None else []

    def _show_table(self, view: View) -> None:
        lines = [
            f"[bold]{escape(t('your_hand', self.lang))}[/bold]: " + escape(cards_text(sorted_hand(view), self.lang))
        ]
        lines += [escape(line) for line in self._roles(view)]
        table = self.text.extras.get("table")
        game_lines = (
            table(view, self.lang, self.display)
            if callable(table)
            else view_lines(view, self.lang, skip=("last_deal",), names=self.display)
        )
        lines += [escape(line) for line in game_lines]
        lines.append(escape(t("hand_sizes_line", self.lang, sizes=" ".join(str(k) for k in view.hand_sizes))))
        lines.append(escape(f"{t('totals', self.lang)}: {self._totals_text(view.totals)}"))
        self.console.print(
            Panel("\n".join(lines), title=escape(f"{self._game_name()} — {t('your_turn', self.lang)}"), expand=False)
        )

    def _show_choices(self, view: View, legal: Sequence[Action], claim: bool) -> None:
        note = self.text.extras.get("action_note")
        title = t("legal", self.lang)
        single = [getattr(a, "card", None) for a in legal]
        if (
            len(legal) > MANY_CHOICES
            and all(isinstance(c, Card) for c in single)
            and len({type(a) for a in legal}) == 1
        ):  # e.g. Napoleon's adjutant: any card of the deck
            rows: dict[str, list[str]] = {}
            for c in single:
                assert isinstance(c, Card)
                rows.setdefault(c.suit.symbol if c.suit else "", []).append(format_card(c, self.lang))
            suits = "\n".join(" ".join(cards) for cards in rows.values())
            self.console.print(
                Panel(
                    escape(f"{action_text(legal[0], self.lang).split()[0]}: {t('name_a_card', self.lang)}\n{suits}"),
                    title=title,
                    expand=False,
                )
            )
        elif len(legal) > MANY_CHOICES and all(getattr(a, "cards", None) for a in legal):
            # e.g. Napoleon's discard: C(12, 2) = 66, C(17, 5) = 6188 choices; bids stay listed
            size = len(getattr(legal[0], "cards", ()))
            self.console.print(
                Panel(
                    escape(t("many_choices", self.lang, n=len(legal), k=size, example=self._example(view, size))),
                    title=title,
                    expand=False,
                )
            )
        else:
            labels = []
            for k, a in enumerate(legal, 1):
                text = note(view, self.seat, a, self.lang) if callable(note) else None
                labels.append(f"[bold]{k}[/bold] {escape(text or action_text(a, self.lang))}")
            body: Any
            if len(labels) >= COLUMNS_FROM:
                body = Columns(labels, padding=(0, 2), column_first=False)
            else:
                table = Table(show_header=False, box=None, padding=(0, 1))
                for label in labels:
                    table.add_row(label)
                body = table
            self.console.print(Panel(body, title=title, expand=len(labels) >= COLUMNS_FROM))
        if claim:
            self.console.print(escape(t("claim_offer", self.lang)))

    def _example(self, view: View, size: int) -> str:
        """An example of the typed form that is not a move: cards the user does not hold."""
        held = set(view.hand)
        others = [c for c in deck() if c not in held and not c.is_joker]
        return " ".join(
            c.code.lower().replace("t", "10", 1) if c.code.startswith("T") else c.code.lower() for c in others[:size]
        )

    def _show_help(self) -> None:
        lines = [t("help", self.lang)]
        if self.text.input_forms:
            lines.append(t(self.text.input_forms, self.lang))
        lines.append(t("commands", self.lang))
        self.console.print(Panel(escape("\n".join(lines)), title=t("help_title", self.lang), expand=False))

    def _totals_text(self, totals: Sequence[Any]) -> str:
        return "  ".join(f"{self._unit(u)} {self._number(x)}" for u, x in enumerate(totals))

    def _unit(self, unit: int) -> str:
        """A scoring unit: the player's name where each seat scores for itself, else the
        game's name of the team (Meitora's team, Kakeya's pair)."""
        view = self.state.view(self.seat)
        if len(view.totals) == self.state.num_players:
            return self._name(unit)
        members = self._members(view)
        if members and unit < len(members):  # its players by name: "you & Bot 2" (あなた・ボット2)
            return t("and_sep", self.lang).join(self._name(s) for s in members[unit])
        return self.state.unit_name(unit, self.lang)

    def _members(self, view: View) -> list[list[int]]:
        """Each scoring unit's seats, as the game's UI descriptor declares them (fixed teams,
        or the view's field that lists them)."""
        units = (self.info.ui or {}).get("units")
        if isinstance(units, Mapping) and "teams" in units:
            return [list(u) for u in units["teams"]]
        if isinstance(units, Mapping) and "field" in units:
            value = getattr(view, str(units["field"]), None)
            if isinstance(value, (list, tuple)) and all(isinstance(u, (list, tuple)) for u in value):
                return [list(u) for u in value]
        return []

    @staticmethod
    def _number(x: Any) -> str:
        from .results import number_text

        return number_text(x) if isinstance(x, (int, float)) and not isinstance(x, bool) else str(x)

    def _show_action(self, seat: int, action: Action, before: View | None = None, ended: bool = False) -> None:
        """Print another seat's action as the user's view shows it (``before``: the user's view
        before the action, for what the action means there: the top bidder's pass stands)."""
        if seat == self.seat:
            return
        view = self.state.view(self.seat)
        shown = visible_cards(view)
        if ended:  # the deal's last card: it lies face up in the last trick, which everyone sees
            final = self._final_trick(view)
            if final is not None:
                shown = shown | {c for _, c in final.plays}
        text = None
        hidden = self.text.hidden_action
        if hidden is not None:
            text = hidden(view, seat, action, self.lang)
        if text is None:
            unseen = [c for c in _action_cards(action) if c not in shown]
            if unseen:  # the game did not say: whatever the user's view does not show stays hidden
                text = t("acts_face_down", self.lang, n=len(_action_cards(action)))
        if text is None:
            note = self.text.extras.get("action_note")
            text = note(before, seat, action, self.lang) if callable(note) and before is not None else None
        if text is None:
            text = action_text(action, self.lang)
        self.console.print(escape(t("acts", self.lang, who=self._name(seat), action=text)))

    def _trick_line(self, trick: Trick, winner: int | None) -> str:
        cards = "  ".join(f"{self._name(s)} {format_card(c, self.lang)}" for s, c in trick.plays)
        won = (
            t("trick_won_you", self.lang) if winner == self.seat else t("trick_won", self.lang, who=self._name(winner))
        )
        return f"  {cards}  ⇒ {won}"

    def _show_trick_end(self) -> None:
        view = self.state.view(self.seat)
        last = getattr(view, "last_trick", None)
        if isinstance(last, Trick) and last != self._last_trick:
            self._last_trick = last
            self._tricks_shown += 1
            self.console.print(escape(self._trick_line(last, getattr(view, "last_trick_winner", None))))

    def _show_deal_end(self) -> None:
        """The deal's last trick (every card of it was played face up before the deal ended)
        and the result the user's view carries."""
        view = self.state.view(self.seat)
        last = getattr(view, "last_deal", None)
        if not isinstance(last, Mapping):
            return
        final = self._final_trick(view)
        if final is not None and final != self._last_trick:
            self.console.print(escape(self._trick_line(final, self._final_winner)))
        lines = [escape(line) for line in deal_result(self.info.id, last, self.lang, self.display)]
        hands = last.get("hands")
        if isinstance(hands, list):
            from ..cards import parse_cards

            for s, hand in enumerate(hands):
                if hand:
                    lines.append(escape(f"{self._name(s)}: {cards_text(parse_cards(hand), self.lang)}"))
        score = last.get("score")
        if isinstance(score, list):
            lines.append(
                escape(
                    f"{t('score', self.lang)}: "
                    + "  ".join(f"{self._unit(u)} {signed_text(x)}" for u, x in enumerate(score))
                )
            )
        lines.append(escape(f"{t('totals', self.lang)}: {self._totals_text(self.state.view(self.seat).totals)}"))
        self.console.print(Panel("\n".join(lines), title=t("deal_over", self.lang), expand=False))

    def _final_trick(self, view: View) -> Trick | None:
        """The last trick of the deal just ended, if it was played out (not cut short by a
        claim) and not shown yet: every card of it was played face up."""
        from ..cards import parse_card

        last = getattr(view, "last_deal", None)
        if not isinstance(last, Mapping):
            return None
        tricks = last.get("tricks")
        if tricks is None:  # a game whose result leaves the tricks out: the last one from the summary
            deals = self.state.summary()["deals"]
            tricks = deals[-1]["tricks"] if deals else []
        if not isinstance(tricks, list) or not tricks or len(tricks) <= self._tricks_shown:
            return None
        final = tricks[-1]
        n = len(view.hand_sizes)
        self._final_winner = final.get("winner")
        return Trick(
            final["leader"], tuple(((final["leader"] + i) % n, parse_card(c)) for i, c in enumerate(final["cards"]))
        )

    def _show_last(self) -> None:
        view = self.state.view(self.seat)
        last = getattr(view, "last_trick", None) or self._last_trick
        if isinstance(last, Trick):
            self.console.print(escape(self._trick_line(last, getattr(view, "last_trick_winner", None))))
        else:
            self.console.print(t("no_last", self.lang))

    def _show_scores(self) -> None:
        """The score sheet: each finished deal's result in words, its score and the totals."""
        summary = self.state.summary()
        table = Table(title=t("score_sheet", self.lang))
        table.add_column("#")
        table.add_column(t("result", self.lang))
        units = len(summary["totals"])
        for u in range(units):
            table.add_column(escape(self._unit(u)), justify="right")
        running = [0.0] * units
        for k, d in enumerate(summary["deals"], 1):
            if d["outcome"] == "in-progress":
                continue
            short = self.text.extras.get("short")
            words = (
                [short(d, self.lang, self.display)]
                if callable(short)
                else deal_result(
                    self.info.id, {kk: v for kk, v in d.items() if kk != "tricks"}, self.lang, self.display
                )
            )
            running = [r + float(x) for r, x in zip(running, d["score"], strict=True)]
            table.add_row(
                str(k),
                escape(words[0] if words else ""),
                *(f"{signed_text(x)} ({self._number(r)})" for x, r in zip(d["score"], running, strict=True)),
            )
        table.add_row("", t("totals", self.lang), *(self._number(x) for x in summary["totals"]))
        self.console.print(table)

    def _show_match_result(self) -> None:
        outcome = self.state.outcome()
        if outcome is None:
            return
        winners = outcome.winner if isinstance(outcome.winner, tuple) else (outcome.winner,)
        who = ", ".join(self._unit(w) for w in winners)
        text = f"{t('winner', self.lang, who=who)}\n{t('totals', self.lang)}: {self._totals_text(outcome.totals)}"
        deals_won = self.state.summary().get("deals_won")  # shown beside the totals where a game counts it
        if deals_won is not None:
            text += f"\n{t('deals_won', self.lang)}: {self._totals_text(deals_won)}"
        self.console.print(Panel(escape(text), title=t("match_over", self.lang), expand=False))
