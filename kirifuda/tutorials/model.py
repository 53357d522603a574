"""The tutorial file format (``kirifuda-tutorial/1``), read and checked.

A tutorial is one prepared deal of a game: a game record (``docs/records.md``) holding the deal
as dealt and every action in order, the seat the learner plays, and notes tied to the record's
steps.  Reading checks the form with pydantic and then the meaning against the game's engine:
the record replays, every note's step exists, every expected action is legal for the learner
there.  Any fault is a :class:`TutorialError` naming the file, the note and the field.

The format is described in ``kirifuda/tutorials/README.md``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from .. import record as records
from ..actions import Action
from ..errors import KirifudaError
from ..game import GameInfo, GameState

__all__ = ["FORMAT", "TutorialError", "Text", "Note", "TutorialFile", "Tutorial", "Step", "parse_tutorial", "load_file"]

FORMAT = "kirifuda-tutorial/1"


class TutorialError(KirifudaError):
    """A tutorial file that cannot be used: the message names the file, the note and the field."""


class Text(BaseModel):
    """A text in both languages (日本語 and English); neither may be empty."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    ja: str = Field(min_length=1)
    en: str = Field(min_length=1)

    def get(self, lang: str) -> str:
        return self.ja if lang == "ja" else self.en


class Note(BaseModel):
    """An explanation shown before the record's action number ``step`` (counted from 0 in the
    deal; the number of actions for a note after the last one).  At a step of the learner,
    ``expect`` lists the acceptable actions (record JSON without ``seat``; the record's own
    action among them) and ``why`` says why another choice is worse."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    step: int = Field(ge=0)
    text: Text
    expect: list[dict[str, Any]] | None = None
    why: Text | None = None

    @field_validator("expect")
    @classmethod
    def _not_empty(cls, value: list[dict[str, Any]] | None) -> list[dict[str, Any]] | None:
        if value is not None and not value:
            raise ValueError("must list at least one action (or be left out)")
        return value


class TutorialFile(BaseModel):
    """The whole file, as written."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    format: Literal["kirifuda-tutorial/1"]
    game: str
    seat: int = Field(ge=0)
    title: Text
    record: dict[str, Any]
    notes: list[Note]


@dataclass(frozen=True)
class Step:
    """One action of the tutorial's deal: who takes it, what the record does, and what the
    learner may choose there (``expect``: ``None`` where only the record's action is played)."""

    index: int
    seat: int
    action: Action
    expect: tuple[Action, ...] | None
    why: Text | None


@dataclass(frozen=True)
class Tutorial:
    """A checked tutorial: the file, its record, and its steps."""

    source: str
    data: TutorialFile
    record: records.Record
    steps: tuple[Step, ...]

    @property
    def game(self) -> str:
        return self.data.game

    @property
    def seat(self) -> int:
        return self.data.seat

    @property
    def info(self) -> GameInfo:
        return self.record.info

    def notes_at(self, index: int) -> list[Note]:
        """The notes shown before step ``index`` (after the last step: ``len(steps)``)."""
        return [n for n in self.data.notes if n.step == index]

    def state_at(self, index: int) -> GameState:
        """The state before step ``index``: the deal dealt, the first ``index`` actions played."""
        state = self.record.new_state()
        deal = self.record.deals[0]
        state.deal(deal.hands, deal.rest)
        for step in self.steps[:index]:
            state.apply(step.action, step.seat)
        return state


def _where(loc: tuple[int | str, ...]) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def _action(info: GameInfo, data: Any, seat: int, where: str) -> Action:
    if not isinstance(data, dict):
        raise TutorialError(f'{where}: an action is an object like {{"play": "AS"}}, got {data!r}')
    try:
        return info.action_from_json(data, seat)
    except KirifudaError as exc:
        raise TutorialError(f"{where}: {exc}") from None


def parse_tutorial(data: Any, source: str = "<tutorial>") -> Tutorial:
    """Check a tutorial's JSON (already parsed) and return it; :class:`TutorialError` names
    the first fault: the file (``source``), the note and the field."""
    try:
        form = TutorialFile.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        raise TutorialError(f"{source}: {_where(first['loc'])}: {first['msg']}") from None
    try:
        rec = records.from_json(form.record)
    except KirifudaError as exc:
        raise TutorialError(f"{source}: record: {exc}") from None
    if rec.game != form.game:
        raise TutorialError(
            f"{source}: game: the tutorial is for {form.game!r} but its record is a {rec.game!r} record"
        )
    if len(rec.deals) != 1:
        raise TutorialError(f"{source}: record.deals: a tutorial holds exactly one deal, not {len(rec.deals)}")
    state = rec.new_state()
    if form.seat >= state.num_players:
        raise TutorialError(f"{source}: seat: {form.seat} is not a seat of a {state.num_players}-player table")
    played: list[tuple[int, Action, GameState]] = []
    try:
        for step in records.steps(rec):
            played.append((step.seat, step.action, step.state.copy()))
    except KirifudaError as exc:
        raise TutorialError(f"{source}: record: {exc}") from None
    if not (state := played[-1][2] if played else state).needs_deal and not state.is_over:
        raise TutorialError(f"{source}: record.deals[0].actions: the deal must be played to its end")
    by_step: dict[int, Note] = {}
    for k, note in enumerate(form.notes):
        where = f"{source}: notes[{k}] (step {note.step})"
        if note.step > len(played):
            raise TutorialError(f"{where}.step: the deal has only {len(played)} actions (steps 0 to {len(played)})")
        if note.expect is None:
            if note.why is not None:
                raise TutorialError(f"{where}.why: a note without expect has no why")
            continue
        if note.why is None:
            raise TutorialError(f"{where}.why: a note with expect must say why another choice is worse")
        if note.step == len(played) or played[note.step][0] != form.seat:
            raise TutorialError(f"{where}.expect: step {note.step} is not the learner's (seat {form.seat}) decision")
        if note.step in by_step:
            raise TutorialError(f"{where}.expect: step {note.step} already has expected actions")
        by_step[note.step] = note
    steps: list[Step] = []
    before = rec.new_state()
    deal = rec.deals[0]
    before.deal(deal.hands, deal.rest)
    for i, (seat, action, after) in enumerate(played):
        marked = by_step.get(i)
        expect: tuple[Action, ...] | None = None
        if marked is not None and marked.expect is not None:
            expect = tuple(
                _action(rec.info, a, seat, f"{source}: notes (step {i}).expect[{j}]")
                for j, a in enumerate(marked.expect)
            )
            for j, a in enumerate(expect):
                if not before.is_legal(a, seat):
                    raise TutorialError(
                        f"{source}: notes (step {i}).expect[{j}]: {json.dumps(a.to_json())} is not legal there"
                    )
            if action not in expect:
                raise TutorialError(
                    f"{source}: notes (step {i}).expect: the record's action "
                    f"{json.dumps(action.to_json())} must be among the expected ones"
                )
        steps.append(Step(i, seat, action, expect, marked.why if marked is not None else None))
        before = after
    return Tutorial(source, form, rec, tuple(steps))


def load_file(path: Path) -> Tutorial:
    """Read and check a tutorial file."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise TutorialError(f"{path.name}: cannot read it: {exc}") from None
    except json.JSONDecodeError as exc:
        raise TutorialError(f"{path.name}: not valid JSON: {exc}") from None
    return parse_tutorial(data, path.name)
