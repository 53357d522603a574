"""The tutorials in the browser: the page ``/tutorial`` and its JSON API.

The API keeps no state: a lesson is addressed by its game and step number, and each request
replays the tutorial's record up to that step.  What it sends is built from the learner's
seat's view (the hand, the table, the choices) and the notes; another seat's hand, the kitty
or a card lying face down is never sent.

- ``GET /api/tutorials?lang=ja`` — the games that have a tutorial;
- ``GET /api/tutorials/{game}/{step}?lang=ja`` — the lesson before that step (``step`` from 0 to
  the number of steps): notes, the learner's hand and choices, the step just played;
- ``POST /api/tutorials/{game}/{step}`` with ``{"action": {...}, "lang": "ja"}`` — the learner's
  choice at their step: ``accepted``, ``correct``, ``message`` and ``next`` (the next step).
"""

from __future__ import annotations

from importlib import resources
from typing import Any

from fastapi import APIRouter, HTTPException, Query
from fastapi.responses import HTMLResponse
from pydantic import BaseModel

from ..actions import Claim
from ..errors import KirifudaError
from ..i18n import LANGS, add_terms, t
from ..tutorials import Lesson, Tutorial, TutorialError, available, load
from ..tutorials.lesson import Event
from ..ui.render import action_text, sorted_actions, sorted_hand, view_lines
from ..ui.results import deal_result, game_text

__all__ = ["router"]

router = APIRouter()

add_terms(
    messages={
        "tutorial.page": ("チュートリアル", "Tutorials"),
        "tutorial.pick": ("学ぶゲームを選んでください", "Choose a game to learn"),
        "tutorial.restart": ("最初から", "Start again"),
        "tutorial.lobby": ("ロビーへ", "Lobby"),
        "tutorial.others": ("ほかのゲーム", "Other games"),
        "tutorial.on_table": ("場の札", "On the table"),
        "tutorial.discard_pick": (
            "捨てる札を {k} 枚選んで「捨てる」を押してください",
            "Pick {k} cards, then press Discard",
        ),
        "tutorial.discard_button": ("捨てる", "Discard"),
        "tutorial.result": ("結果", "Result"),
        "tutorial.next_button": ("次へ", "Next"),
    }
)

_WORDS = (
    "tutorial.page",
    "tutorial.pick",
    "tutorial.restart",
    "tutorial.lobby",
    "tutorial.others",
    "tutorial.on_table",
    "tutorial.discard_button",
    "tutorial.next_button",
    "tutorial.choose",
    "tutorial.result",
    "your_hand",
    "your_turn",
    "legal",
    "score",
    "web.face_down",
    "web.joker",
)


def _lang(lang: str) -> str:
    if lang not in LANGS:
        raise HTTPException(400, f"lang must be one of {', '.join(LANGS)}, got {lang!r}")
    return lang


def _tutorial(game: str, lang: str) -> Tutorial:
    if game not in available():
        raise HTTPException(404, t("tutorial.unknown", lang, game=game, games=", ".join(available())))
    try:
        return load(game)
    except TutorialError as exc:  # a faulty file shipped with the package: the server's fault
        raise HTTPException(500, str(exc)) from None


def _lesson(game: str, step: int, lang: str) -> Lesson:
    tutorial = _tutorial(game, lang)
    if not 0 <= step <= len(tutorial.steps):
        raise HTTPException(404, f"the {game} tutorial has steps 0 to {len(tutorial.steps)}, not {step}")
    return Lesson(tutorial, lang, start=step)


def _event_json(lesson: Lesson, event: Event) -> dict[str, Any]:
    out: dict[str, Any] = {"seat": event.seat, "who": lesson.seat_name(event.seat), "text": event.text, "trick": None}
    if event.trick is not None:
        out["trick"] = {
            "leader": event.trick.leader,
            "cards": list(event.trick.cards),
            "winner": event.trick.winner,
            "text": lesson.trick_text(event.trick),
        }
    return out


def _frame(game: str, step: int, lang: str) -> dict[str, Any]:
    event = None
    if step > 0:
        before = _lesson(game, step - 1, lang)
        event = _event_json(before, before.play_recorded())
    lesson = _lesson(game, step, lang)
    info = lesson.tutorial.info
    view = lesson.view()
    names = [lesson.seat_name(s) for s in range(lesson.state.num_players)]
    table = game_text(info.id).extras.get("table")
    lines = table(view, lang, names) if callable(table) else view_lines(view, lang, skip=("last_deal",), names=names)
    choices: list[dict[str, Any]] = []
    if lesson.learner_turn:
        choices = [
            {"action": a.to_json(), "label": action_text(a, lang)}
            for a in sorted_actions(view)
            if not isinstance(a, Claim)
        ]
    discard = len(choices[0]["action"].get("discard", ())) if choices else 0
    result = None
    if lesson.done:
        deal = lesson.result()
        result = {
            "lines": deal_result(info.id, {k: v for k, v in deal.items() if k != "tricks"}, lang, names),
            "score": deal.get("score"),
        }
    return {
        "game": info.id,
        "name": info.name_ja if lang == "ja" else info.name_en,
        "title": lesson.title(),
        "lang": lang,
        "step": step,
        "total": lesson.total,
        "seat": lesson.seat,
        "seat_names": names,
        "notes": lesson.notes(),
        "event": event,
        "hand": [c.code for c in sorted_hand(view)],
        "table": [{"seat": s, "who": names[s], "card": c} for s, c in lesson.table()],
        "lines": [str(x) for x in lines],
        "to_act": None if lesson.step is None else lesson.step.seat,
        "learner_turn": lesson.learner_turn,
        "choices": choices,
        "guide": lesson.guide(),
        "pick": t("tutorial.discard_pick", lang, k=discard) if discard > 1 else None,
        "done": lesson.done,
        "result": result,
        "words": {k: t(k, lang) for k in _WORDS},
    }


@router.get("/tutorial", response_class=HTMLResponse)
async def tutorial_page() -> HTMLResponse:
    page = resources.files("kirifuda.server") / "static" / "tutorial.html"
    return HTMLResponse(page.read_text(encoding="utf-8"), headers={"Cache-Control": "no-cache"})


@router.get("/api/tutorials")
async def list_tutorials(lang: str = Query("en")) -> dict[str, Any]:
    lang = _lang(lang)
    games = []
    for game in available():
        tutorial = _tutorial(game, lang)
        info = tutorial.info
        games.append(
            {
                "game": game,
                "name": info.name_ja if lang == "ja" else info.name_en,
                "title": tutorial.data.title.get(lang),
                "steps": len(tutorial.steps),
            }
        )
    return {"games": games, "words": {k: t(k, lang) for k in _WORDS}}


@router.get("/api/tutorials/{game}/{step}")
async def tutorial_step(game: str, step: int, lang: str = Query("en")) -> dict[str, Any]:
    return _frame(game, step, _lang(lang))


class Answer(BaseModel):
    """The learner's choice: an action as the record writes it, without ``seat``."""

    action: dict[str, Any]
    lang: str = "en"


@router.post("/api/tutorials/{game}/{step}")
async def tutorial_answer(game: str, step: int, answer: Answer) -> dict[str, Any]:
    lang = _lang(answer.lang)
    lesson = _lesson(game, step, lang)
    if not lesson.learner_turn:
        raise HTTPException(
            409, f"step {step} of the {game} tutorial is not the learner's: it is played from the record"
        )
    try:
        action = lesson.tutorial.info.action_from_json(answer.action, lesson.seat)
    except KirifudaError as exc:
        raise HTTPException(400, str(exc)) from None
    verdict, _ = lesson.answer(action)
    return {
        "accepted": verdict.accepted,
        "correct": verdict.correct,
        "message": verdict.message,
        "next": step + 1 if verdict.accepted else step,
    }
