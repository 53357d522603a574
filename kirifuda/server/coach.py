"""The coach (コーチ) over HTTP: a hint for a seat at a live table, and the review of a deal.

Endpoints (an :class:`~fastapi.APIRouter` that :func:`kirifuda.server.app.create_app` includes):

- ``GET /api/tables/{id}/coach`` — ``{"hints": bool, "finished_deals": [int, …]}``: whether the
  table allows hints, and the deals (0-based) over, which can be reviewed.
- ``POST /api/tables/{id}/hint`` with ``{"token": str, "lang": "en"|"ja", "version": int?,
  "seat": int?}`` — the hint for the seat whose secret token this is (checked exactly as the
  WebSocket's ``hello`` checks it), at its decision now: the ``search`` bot's choice from that
  seat's views alone (:func:`kirifuda.coach.hint`), computed in a worker thread.  ``version``
  (the state the client sees) and ``seat`` (the seat it believes it holds) are checked when given.
- ``GET /api/tables/{id}/review?deal=N&lang=en`` — the review of deal ``N`` (0-based; default the
  last deal over) of the table, only once that deal is over (the review shows every hand).
- ``POST /api/review?deal=N&lang=en`` — the review of an uploaded record (the body, at most
  :data:`MAX_RECORD` bytes; at most :data:`MAX_DEALS` deals unless ``deal`` names one).

Refusals are ``{"detail": {"code": str, "message": str}}`` with the message in the request's
language; codes: ``malformed``, ``unknown_table``, ``unauthenticated``, ``wrong_seat``,
``hints_off``, ``rated`` (a rated table), ``not_your_turn``, ``stale``, ``over``, ``no_deal``, ``deal_not_over``,
``bad_record``, ``too_big``, ``too_many_deals``, ``busy``, ``failed``.

The table setting ``hints`` (``true`` by default) is given with the other settings when the
table is created (``POST /api/tables``) and kept with them (``kf_tables.settings``, schema 4),
so that a restarted server keeps it.
"""

from __future__ import annotations

import asyncio
import logging
import os
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Literal

from fastapi import APIRouter, HTTPException, Query, Request
from pydantic import BaseModel, ConfigDict, StrictInt, StrictStr, ValidationError

from .. import record as records
from ..coach import Hint, HintError, Review, hint, review, review_text, seat_views
from ..errors import KirifudaError, OptionError, RecordError
from ..i18n import add_terms, t
from .tables import LiveTable, TableManager

__all__ = ["router", "hints_setting", "hints_allowed", "MAX_RECORD", "MAX_DEALS"]

MAX_RECORD = 1_000_000
"""The largest record accepted for review, in bytes."""
MAX_DEALS = 4
"""The most deals one uploaded record's review covers (name one with ``deal`` beyond)."""
MAX_QUEUED_REVIEWS = 4
"""Reviews waiting or running at once; beyond, a review is refused as busy."""
MAX_KEPT_REVIEWS = 64
"""Reviews of tables' deals kept for the next reader (the oldest is dropped beyond)."""

log = logging.getLogger("kirifuda.server")

_HINTS = ThreadPoolExecutor(max_workers=os.cpu_count() or 1, thread_name_prefix="kirifuda-hints")
"""Hints are searched here (up to a second each), never on the event loop."""
_REVIEWS = ThreadPoolExecutor(max_workers=1, thread_name_prefix="kirifuda-reviews")
"""Reviews (seconds each) one at a time, so that they never crowd out hints and bots."""

add_terms(
    {
        "coach.api.malformed": ("リクエストの形が正しくありません: {what}", "malformed request: {what}"),
        "coach.api.unknown_table": ("卓 {table} はありません", "no table {table!r}"),
        "coach.api.unauthenticated": (
            "この招待リンクはこの卓では有効ではありません",
            "this invitation link is not valid for this table",
        ),
        "coach.api.wrong_seat": (
            "あなたの席は {mine} 番で、{asked} 番ではありません",
            "your token holds seat {mine}, not seat {asked}",
        ),
        "coach.api.hints_off": ("この卓ではヒントが使えません (卓の設定)", "this table does not allow hints"),
        "coach.api.rated": ("レート戦の卓ではヒントは使えません", "hints are off at a rated table"),
        "coach.api.not_your_turn": (
            "あなたの番ではありません: {who} の番です",
            "it is not your decision: {who} is to act",
        ),
        "coach.api.no_one": ("誰の番でもありません", "no one"),
        "coach.api.stale": (
            "状態 {asked} のヒントは出せません: 卓は状態 {now} です。見直してください",
            "the table is at state {now}, not {asked}: look again and retry",
        ),
        "coach.api.over": ("対局は終わっています", "the match is over"),
        "coach.api.no_deal": (
            "この卓に第 {deal} 回 (0 から数えて) はありません",
            "this table has no deal {deal} (counted from 0)",
        ),
        "coach.api.deal_not_over": (
            "検討は回が終わってからです (全員の手を見せるため)",
            "a deal is reviewed once it is over: the review shows every hand",
        ),
        "coach.api.bad_record": ("棋譜を読めません: {what}", "the record cannot be read: {what}"),
        "coach.api.too_big": ("棋譜は {n} バイトまでです", "a record may be at most {n} bytes"),
        "coach.api.too_many_deals": (
            "この棋譜には {n} 回あります: deal で 1 回を選んでください (0 から数えて)",
            "this record has {n} deals: name one with deal= (counted from 0)",
        ),
        "coach.api.busy": ("検討が混み合っています。少し待ってからもう一度", "too many reviews at once: retry shortly"),
        "coach.api.failed": ("ヒントを出せませんでした", "the hint could not be found"),
        "coach.api.hints_setting": (
            "hints は true か false です ({got} ではなく)",
            "hints must be true or false, got {got!r}",
        ),
    }
)


def _refuse(status: int, code: str, lang: str, **kwargs: Any) -> HTTPException:
    return HTTPException(status, {"code": code, "message": t(f"coach.api.{code}", lang, **kwargs)})


def _lang(value: str) -> Literal["en", "ja"]:
    return "ja" if value == "ja" else "en"


# -- the table setting ----------------------------------------------------------------------


def hints_setting(body: dict[str, Any]) -> bool:
    """The ``hints`` setting of a new table's body (``True`` when absent).  Raises OptionError."""
    value = body.get("hints", True)
    if not isinstance(value, bool):
        raise OptionError(t("coach.api.hints_setting", "en", got=value))
    return value


def hints_allowed(table: LiveTable) -> bool:
    """Whether the table allows hints: its stored setting (a table created before the setting
    existed: yes).  Since schema 4 the setting is one of the table's ``settings``; a database
    that kept it in the coach's own table (``kf_coach``) has it moved there by the migration."""
    return bool(table.settings.get("hints", True))


# -- requests -------------------------------------------------------------------------------


class HintRequest(BaseModel):
    """The body of ``POST /api/tables/{id}/hint``."""

    model_config = ConfigDict(extra="forbid")
    token: StrictStr
    lang: Literal["en", "ja"] = "en"
    version: StrictInt | None = None
    seat: StrictInt | None = None


def _worded(exc: ValidationError) -> str:
    err = exc.errors()[0]
    where = ".".join(str(p) for p in err.get("loc", ())) or "body"
    return f"{where}: {err.get('msg', 'invalid')}"


def _manager(request: Request) -> TableManager:
    m: TableManager = request.app.state.manager
    return m


def _table(request: Request, table_id: str, lang: str) -> LiveTable:
    table = _manager(request).tables.get(table_id)
    if table is None:
        raise _refuse(404, "unknown_table", lang, table=table_id)
    return table


_hint_jobs: dict[tuple[str, int], tuple[int, "asyncio.Future[Hint]"]] = {}
"""Per table and seat, the hint of the latest state asked for (asked again: the same answer)."""
_review_jobs: dict[tuple[str, int, int], "asyncio.Future[Review]"] = {}
"""Per table, finished deal and line, its review (a finished deal never changes, but a practice
table may play it again: its rewinds so far name the line)."""
_queued = 0


def _compute_hint(state: Any, seat: int, seed: int) -> Hint:
    # the seat's views alone: rebuilt by replaying the deal and asking for that seat's view
    return hint(seat_views(state, seat), seat, seed=seed)


async def _run_review(rec: records.Record, deals: list[int] | None, lang: str) -> Review:
    global _queued
    if _queued >= MAX_QUEUED_REVIEWS:
        raise _refuse(503, "busy", lang)
    _queued += 1
    try:
        return await asyncio.get_running_loop().run_in_executor(_REVIEWS, lambda: review(rec, deals=deals))
    finally:
        _queued -= 1


def _deal_param(value: str | None, lang: str) -> int | None:
    """The ``deal`` query parameter: a deal's 0-based number, or absent."""
    if value is None:
        return None
    try:
        return int(value)
    except ValueError:
        raise _refuse(400, "malformed", lang, what=f"deal must be a whole number, got {value!r}") from None


def _finished_deals(table: LiveTable) -> list[int]:
    dealt = len(table.state.record_deals())
    over = dealt if table.state.is_over else min(dealt, table.state.deal_number)
    return list(range(over))


router = APIRouter()


@router.get("/api/tables/{table_id}/coach")
async def api_coach(request: Request, table_id: str) -> dict[str, Any]:
    table = _table(request, table_id, "en")
    return {"hints": hints_allowed(table), "finished_deals": _finished_deals(table)}


@router.post("/api/tables/{table_id}/hint")
async def api_hint(request: Request, table_id: str) -> dict[str, Any]:
    lang = _lang(request.query_params.get("lang", "en"))
    try:
        raw = await request.body()
        if len(raw) > 4096:
            raise ValueError("at most 4096 bytes")
        body = HintRequest.model_validate_json(raw)
    except ValidationError as exc:
        raise _refuse(400, "malformed", lang, what=_worded(exc)) from None
    except ValueError as exc:
        raise _refuse(400, "malformed", lang, what=str(exc)) from None
    lang = body.lang
    table = _table(request, table_id, lang)
    seat = table.seat_of_token(body.token)
    if seat is None:
        raise _refuse(403, "unauthenticated", lang)
    if body.seat is not None and body.seat != seat:
        raise _refuse(403, "wrong_seat", lang, mine=seat, asked=body.seat)
    if table.tags.get("rated"):  # a rated table (kirifuda.server.clubtables): never hints
        raise _refuse(403, "rated", lang)
    if not hints_allowed(table):
        raise _refuse(403, "hints_off", lang)
    state, version = table.state, table.version  # replaced, never changed, by the table
    if body.version is not None and body.version != version:
        raise _refuse(409, "stale", lang, asked=body.version, now=version)
    if state.is_over:
        raise _refuse(409, "over", lang)
    if state.to_act != seat:
        who = t("coach.api.no_one", lang) if state.to_act is None else table.players()[state.to_act]
        raise _refuse(409, "not_your_turn", lang, who=who)
    key = (table.id, seat)
    job = _hint_jobs.get(key)
    if job is None or job[0] != version:
        future = asyncio.get_running_loop().run_in_executor(_HINTS, _compute_hint, state, seat, version)
        job = (version, asyncio.ensure_future(future))
        _hint_jobs[key] = job
    try:
        found = await asyncio.shield(job[1])
    except HintError:
        raise _refuse(409, "not_your_turn", lang, who=t("coach.api.no_one", lang)) from None
    except Exception:
        _hint_jobs.pop(key, None)  # asked again, it is searched again
        log.exception("table %s: the hint for seat %d failed", table.id, seat)
        raise _refuse(500, "failed", lang) from None
    return {
        "table": table.id,
        "version": version,
        "seat": seat,
        "hint": found.to_json(lang),
        "reasons": {"en": found.reason("en"), "ja": found.reason("ja")},
    }


@router.get("/api/tables/{table_id}/review")
async def api_table_review(
    request: Request, table_id: str, deal_param: str | None = Query(None, alias="deal"), lang: str = Query("en")
) -> dict[str, Any]:
    lang = _lang(lang)
    deal = _deal_param(deal_param, lang)
    table = _table(request, table_id, lang)
    over = _finished_deals(table)
    dealt = len(table.state.record_deals())
    if deal is None:
        if not over:
            raise _refuse(403, "deal_not_over", lang)
        deal = over[-1]
    if not 0 <= deal < dealt:
        raise _refuse(404, "no_deal", lang, deal=deal)
    if deal not in over:
        raise _refuse(403, "deal_not_over", lang)
    key = (table.id, deal, table.practice.rewinds if table.practice is not None else 0)
    job = _review_jobs.get(key)
    if job is None or (job.done() and (job.cancelled() or job.exception() is not None)):
        rec = table.record()
        job = asyncio.ensure_future(_run_review(rec, [deal], lang))
        _review_jobs[key] = job
        while len(_review_jobs) > MAX_KEPT_REVIEWS:
            del _review_jobs[next(iter(_review_jobs))]
    try:
        rev = await asyncio.shield(job)
    except RecordError as exc:  # a table's own record always replays; said in words all the same
        raise _refuse(500, "bad_record", lang, what=str(exc)) from None
    return {"table": table.id, "deal": deal, "review": rev.to_json(lang), "text": review_text(rev, lang)}


@router.post("/api/review")
async def api_review(
    request: Request, deal_param: str | None = Query(None, alias="deal"), lang: str = Query("en")
) -> dict[str, Any]:
    lang = _lang(lang)
    deal = _deal_param(deal_param, lang)
    length = request.headers.get("content-length")
    if length is not None and length.isdigit() and int(length) > MAX_RECORD:
        raise _refuse(413, "too_big", lang, n=MAX_RECORD)
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_RECORD:
            raise _refuse(413, "too_big", lang, n=MAX_RECORD)
    try:
        rec = records.loads(bytes(body))
        records.replay(rec)  # every deal checked through the engine before any review
    except RecordError as exc:
        raise HTTPException(
            400,
            {
                "code": "bad_record",
                "message": t("coach.api.bad_record", lang, what=str(exc)),
                "deal": exc.deal,
                "action": exc.action,
                "seat": exc.seat,
            },
        ) from None
    except KirifudaError as exc:
        raise _refuse(400, "bad_record", lang, what=str(exc)) from None
    if deal is not None:
        if not 0 <= deal < len(rec.deals):
            raise _refuse(404, "no_deal", lang, deal=deal)
        deals: list[int] | None = [deal]
    elif len(rec.deals) > MAX_DEALS:
        raise _refuse(400, "too_many_deals", lang, n=len(rec.deals))
    else:
        deals = None
    try:
        rev = await _run_review(rec, deals, lang)
    except KirifudaError as exc:
        raise _refuse(400, "bad_record", lang, what=str(exc)) from None
    return {"review": rev.to_json(lang), "text": review_text(rev, lang)}
