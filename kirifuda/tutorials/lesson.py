"""A tutorial being played: the learner's choices checked, the other seats' moves from the record.

:class:`Lesson` walks a :class:`~kirifuda.tutorials.model.Tutorial` step by step.  At another
seat's step it plays the record's action (:meth:`Lesson.advance`); at the learner's step it
checks the learner's choice (:meth:`Lesson.answer`):

- a step with expected actions accepts any of them (the deal then goes on with the record's
  action, said so when it differs); another legal choice is refused with the note's reason
  why it is worse, and the learner chooses again;
- any other step of the learner's is guided: :meth:`Lesson.guide` names the record's action,
  the only one accepted there;
- an illegal choice is refused with the rule it breaks, as in play.

Everything shown is built from the learner's seat's view: another seat's face-down card (a
discard, a negri, Unsun's face-down trump) is told as "face down", never named, until the rules
show it.  Refused choices change nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..actions import Action
from ..cards import parse_card
from ..errors import IllegalActionError
from ..game import GameState, View
from ..i18n import add_terms, t
from ..ui.reasons import reason_text
from ..ui.render import action_text, card_text
from ..ui.terminal import visible_cards
from .model import Step, Tutorial

__all__ = ["Lesson", "Verdict", "Event", "TrickDone"]

add_terms(
    messages={
        "tutorial.title": ("チュートリアル: {game}", "Tutorial: {game}"),
        "tutorial.you_play": ("あなたは{seat}です", "You play {seat}"),
        "tutorial.follow": (
            "このチュートリアルの回では、ここで {action} を選びます",
            "In this tutorial's deal, choose {action} here",
        ),
        "tutorial.choose": ("考えて選んでください", "Your choice: think it over"),
        "tutorial.right": ("正解です", "Well chosen"),
        "tutorial.goes_on": ("この回は記録どおり {action} で続けます", "The deal goes on as recorded, with {action}"),
        "tutorial.worse": ("もっと良い手があります: {why}", "There is a better choice: {why}"),
        "tutorial.done": (
            "チュートリアル終了。kirifuda play {game} で対局できます",
            "Tutorial over. Play a real match with: kirifuda play {game}",
        ),
        "tutorial.next": ("Enter で次へ", "Enter to go on"),
        "tutorial.unknown": (
            "{game} のチュートリアルはありません。あるのは: {games}",
            "There is no tutorial for {game}; the tutorials are: {games}",
        ),
        "tutorial.step": ("手順 {n}/{total}", "Step {n} of {total}"),
        "tutorial.face_down": ("札を1枚伏せて出す", "plays a card face down"),
        "tutorial.trick": ("{who} が取りました", "{who} takes the trick"),
    }
)


@dataclass(frozen=True)
class Verdict:
    """What the lesson made of the learner's choice."""

    accepted: bool
    """True when the lesson moved on (the record's action was played)."""
    correct: bool
    """True when the choice was one of the expected (or the guided) action."""
    message: str
    """In the lesson's language: the praise, the reason a choice is worse, or the rule broken
    (empty when the learner followed a guided step)."""


@dataclass(frozen=True)
class TrickDone:
    """A trick completed by the step: public once its last card is down."""

    leader: int
    cards: tuple[str, ...]
    winner: int


@dataclass(frozen=True)
class Event:
    """One step played: who acted and what the learner saw of it."""

    index: int
    seat: int
    text: str
    """The action as the learner's view shows it (another's face-down card is not named)."""
    trick: TrickDone | None


class Lesson:
    """One run through a tutorial for one learner, in ``lang`` (``ja`` or ``en``)."""

    def __init__(self, tutorial: Tutorial, lang: str = "en", start: int = 0) -> None:
        self.tutorial = tutorial
        self.lang = lang
        self.index = start
        self.state: GameState = tutorial.state_at(start)

    # -- where the lesson is ----------------------------------------------------------
    @property
    def seat(self) -> int:
        return self.tutorial.seat

    @property
    def total(self) -> int:
        return len(self.tutorial.steps)

    @property
    def done(self) -> bool:
        return self.index >= self.total

    @property
    def step(self) -> Step | None:
        return None if self.done else self.tutorial.steps[self.index]

    @property
    def learner_turn(self) -> bool:
        step = self.step
        return step is not None and step.seat == self.seat

    def view(self) -> View:
        return self.state.view(self.seat)

    def notes(self) -> list[str]:
        """The notes to read before the current step, in the lesson's language."""
        return [n.text.get(self.lang) for n in self.tutorial.notes_at(self.index)]

    def guide(self) -> str | None:
        """At a guided step of the learner's, the action to choose; else ``None``."""
        step = self.step
        if step is None or step.seat != self.seat or step.expect is not None:
            return None
        return t("tutorial.follow", self.lang, action=action_text(step.action, self.lang))

    def title(self) -> str:
        return self.tutorial.data.title.get(self.lang)

    # -- moving on ----------------------------------------------------------------------
    def advance(self) -> Event:
        """Play another seat's step from the record."""
        step = self.step
        if step is None or step.seat == self.seat:
            raise ValueError("advance() plays another seat's step; the learner answers with answer()")
        return self._play(step)

    def answer(self, action: Action) -> tuple[Verdict, Event | None]:
        """Check the learner's choice; on acceptance play the record's action."""
        step = self.step
        if step is None or step.seat != self.seat:
            raise ValueError("it is not the learner's step")
        try:
            self.state.check(action, self.seat)
        except IllegalActionError as exc:
            return Verdict(False, False, t("illegal", self.lang, reason=reason_text(exc.rule, self.lang))), None
        if step.expect is None:
            if action != step.action:
                return Verdict(
                    False, False, t("tutorial.follow", self.lang, action=action_text(step.action, self.lang))
                ), None
            return Verdict(True, True, ""), self._play(step)  # followed the guide: nothing to praise
        if action not in step.expect:
            why = step.why.get(self.lang) if step.why is not None else ""
            return Verdict(False, False, t("tutorial.worse", self.lang, why=why)), None
        message = t("tutorial.right", self.lang)
        if action != step.action:
            message += " " + t("tutorial.goes_on", self.lang, action=action_text(step.action, self.lang))
        return Verdict(True, True, message), self._play(step)

    def play_recorded(self) -> Event:
        """Play the current step from the record, whoever's it is (to show a step already
        answered, as a viewer does)."""
        step = self.step
        if step is None:
            raise ValueError("the tutorial is over")
        return self._play(step)

    def table(self) -> list[tuple[int, str | None]]:
        """The trick in progress as the learner sees it: each seat's card in the order played,
        ``None`` for a card lying face down."""
        from ..actions import Play

        plays = [s for s in self.tutorial.steps[: self.index] if isinstance(s.action, Play)]
        done = sum(len(tr["cards"]) for tr in self._tricks())
        shown = visible_cards(self.view())
        return [
            (s.seat, s.action.card.code if s.seat == self.seat or s.action.card in shown else None)
            for s in plays[done:]
            if isinstance(s.action, Play)
        ]

    def _play(self, step: Step) -> Event:
        tricks_before = len(self._tricks())
        self.state.apply(step.action, step.seat)
        self.index += 1
        tricks = self._tricks()
        trick = None
        if len(tricks) > tricks_before:
            last = tricks[-1]
            trick = TrickDone(int(last["leader"]), tuple(last["cards"]), int(last["winner"]))
        return Event(step.index, step.seat, self._shown(step, trick), trick)

    def _tricks(self) -> list[dict[str, Any]]:
        deals = self.state.summary()["deals"]
        return list(deals[0]["tricks"]) if deals else []

    def _shown(self, step: Step, trick: TrickDone | None) -> str:
        """The action as the learner sees it: another seat's card not face up is not named."""
        if step.seat == self.seat:
            return action_text(step.action, self.lang)
        cards = getattr(step.action, "cards", None)
        card = getattr(step.action, "card", None)
        held = tuple(cards) if isinstance(cards, tuple) else ((card,) if card is not None else ())
        shown = set(visible_cards(self.view()))
        if trick is not None:
            shown |= {parse_card(c) for c in trick.cards}
        hidden = [c for c in held if c not in shown]
        if hidden:
            return t("acts_face_down", self.lang, n=len(held)) if len(held) > 1 else t("tutorial.face_down", self.lang)
        return action_text(step.action, self.lang)

    def trick_text(self, trick: TrickDone) -> str:
        """A completed trick in words: each seat's card, then who takes it."""
        n = self.state.num_players
        cards = "  ".join(
            f"{self.seat_name((trick.leader + k) % n)} {card_text(parse_card(c), self.lang)}"
            for k, c in enumerate(trick.cards)
        )
        return f"{cards}  ⇒ {t('tutorial.trick', self.lang, who=self.seat_name(trick.winner))}"

    def seat_name(self, seat: int) -> str:
        name = t("seat", self.lang, n=seat)
        return f"{name} ({t('you', self.lang)})" if seat == self.seat else name

    def result(self) -> dict[str, Any]:
        """The deal's result as the replay JSON gives it (everything is public once it ends)."""
        deals = self.state.summary()["deals"]
        return dict(deals[0]) if deals else {}
