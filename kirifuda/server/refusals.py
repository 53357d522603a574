"""Why a table could not be made, as a stable code the page words in its reader's language.

``POST /api/tables`` refuses in English (``detail``, for programs and logs, as before) and adds
``code`` and ``params``: the page shows ``web.refusal.<code>`` from the catalogue with the params
filled in (an option's name as the lobby labels it, a seat as the lobby numbers it).  The checks
that refuse live where the facts are (the request's shape, the game's options, the server's
limits); each known form of their English message is a pattern here, its parts taken as params,
as :mod:`kirifuda.ui.reasons` does for the engines' refusals.  A message no pattern knows gets the
code ``refused`` and keeps its English words in ``params["text"]``.
"""

from __future__ import annotations

import functools
import re
from typing import Any, Awaitable, Callable, TypeVar, cast

from fastapi import HTTPException
from fastapi.responses import JSONResponse

from .. import i18n

__all__ = ["REFUSAL_MESSAGES", "refusal", "refusal_response", "refusing"]

REFUSAL_MESSAGES: dict[str, tuple[str, str]] = {
    "web.refusal.bad_json": ("送られた内容が JSON として読めません", "The request is not JSON text"),
    "web.refusal.bad_field": ("卓の設定の「{field}」が正しくありません", 'The table\'s setting "{field}" is not valid'),
    "web.refusal.bad_table": ("卓の設定が正しくありません", "The table's settings are not valid"),
    "web.refusal.bad_name": (
        "{seat} の名前が使えません (1〜40文字、表示できる文字だけ)",
        "{seat}'s name cannot be used (1–40 printable characters)",
    ),
    "web.refusal.bot_name": (
        "{seat} の名前はボットの名前に見えるので使えません。ほかの名前にしてください",
        "{seat}'s name would pass for a bot's: choose another",
    ),
    "web.refusal.too_many_open": (
        "同じ場所から同時に開ける卓は {n} 卓までです。どれかを終えてから作ってください",
        "At most {n} tables in play may be opened from one address: finish one first",
    ),
    "web.refusal.too_fast": (
        "卓を作れるのは1分に {n} 卓までです。少し待ってください",
        "At most {n} tables a minute may be opened from one address: wait a moment",
    ),
    "web.refusal.store_down": (
        "卓を保存できませんでした (データベースが混んでいるか止まっています)。少ししてからもう一度どうぞ",
        "The table could not be saved (the database is busy or down): try again in a moment",
    ),
    "web.refusal.unknown_game": ("そのゲームはありません", "There is no such game"),
    "web.refusal.bad_option": (
        "ローカルルール「{option}」に {value} は使えません",
        'The local rule "{option}" cannot be {value}',
    ),
    "web.refusal.too_long": (
        "「{option}」が長すぎます: このサーバーの試合は {max} 回まで",
        '"{option}" is too long: a match on this server lasts at most {max} deals',
    ),
    "web.refusal.option_needed": (
        "このルールの組み合わせでは「{option}」を指定してください",
        'With these rules, "{option}" must be set',
    ),
    "web.refusal.unknown_option": (
        "このゲームにないローカルルールです: {options}",
        "This game has no such local rule: {options}",
    ),
    "web.refusal.bad_options": ("ローカルルールの形が正しくありません", "The local rules are not in the right form"),
    "web.refusal.seat_count": (
        "このルールでは席は {n} つです ({got} つ指定されました)",
        "With these rules the table has {n} seats ({got} given)",
    ),
    "web.refusal.bad_timer": ("持ち時間は {choices} 秒のどれかです", "The turn timer is one of {choices} seconds"),
    "web.refusal.bad_seat": ("{seat} は人間かボットのどちらかです", "{seat} is either a human or a bot"),
    "web.refusal.bad_bot": ("{seat} のボットの種類が正しくありません", "{seat}'s bot kind is not valid"),
    "web.refusal.unknown_bot": ("そのボット ({bot}) はこのゲームにありません", "There is no {bot} bot for this game"),
    "web.refusal.bad_level": (
        "探索ボットに「{level}」という強さはありません。強さは {levels} です",
        "The search bot has no level {level}: the levels are {levels}",
    ),
    "web.refusal.oracle_bot": (
        "{seat}: {bot} ボットは全員の札を見るので、大会でしか打てません",
        "{seat}: the {bot} bot sees every card; it plays only in tournaments",
    ),
    "web.refusal.bad_first": ("最初の親は 席0〜席{max} のどれかです", "The first seat is one of seats 0–{max}"),
    "web.refusal.host_denied": (
        "このホスト用リンクはこの卓のものではありません",
        "This host link is not valid for this table",
    ),
    "web.refusal.unknown_table": ("その卓はありません", "There is no such table"),
    "web.refusal.bad_seat_number": ("席は 席0〜席{max} のどれかです", "A seat is one of seats 0–{max}"),
    "web.refusal.seat_is_bot": (
        "{seat} はボットが打っています: 招待リンクはありません",
        "{seat} is played by a bot: it has no invitation link",
    ),
    "web.refusal.no_finished_deal": ("この卓にはまだ終わった回がありません", "No deal of this table is over yet"),
    "web.refusal.bad_record": ("kirifuda の棋譜として読めません", "This is not a record kirifuda can read"),
    "web.refusal.refused": ("卓を作れませんでした", "The table could not be made"),
}
"""Each refusal's words: ``web.refusal.<code>`` → (Japanese, English)."""

i18n.add_terms(messages=REFUSAL_MESSAGES)

Endpoint = TypeVar("Endpoint", bound=Callable[..., Awaitable[Any]])

_SEAT = r"seat (?P<seat>\d+)"
_PATTERNS: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"^the body must be (?:JSON|a JSON object)"), "bad_json"),
    (re.compile(r"^this host link is not valid|^host: the host token"), "host_denied"),
    (re.compile(r"^no (?:such )?table\b"), "unknown_table"),
    (re.compile(r"^seat must be a seat number from 0 to (?P<max>\d+)"), "bad_seat_number"),
    (re.compile(rf"^{_SEAT} is played by a bot"), "seat_is_bot"),
    (re.compile(r"^no deal of this table is over yet"), "no_finished_deal"),
    (re.compile(r"^the table: seats\.(?P<seat>\d+): .*would pass for a bot"), "bot_name"),
    (re.compile(r"^the table: seats\.(?P<seat>\d+)\.name: "), "bad_name"),
    (re.compile(r"^the table: (?P<field>[\w.]+): "), "bad_field"),
    (re.compile(r"^the table: "), "bad_table"),
    (re.compile(r"^at most (?P<n>\d+) tables in play may be opened"), "too_many_open"),
    (re.compile(r"^at most (?P<n>\d+) tables a minute"), "too_fast"),
    (re.compile(r"^the table could not be saved"), "store_down"),
    (re.compile(r"^unknown game (?P<game>.+?); the games are"), "unknown_game"),
    (
        re.compile(
            r"^option (?P<option>\w+)=(?P<value>.+?) is more than this server allows "
            r"\(a match lasts at most (?P<max>\d+) deals\)"
        ),
        "too_long",
    ),
    (re.compile(r"^option (?P<option>\w+) must be set when"), "option_needed"),
    (re.compile(r"^option (?P<option>\w+)=(?P<value>.+?) (?:is not|must|has) "), "bad_option"),
    (re.compile(r"^unknown option\(s\) (?P<options>.+?); "), "unknown_option"),
    (re.compile(r"^options must be an object"), "bad_options"),
    (re.compile(r"^a \S+ table with these options has (?P<n>\d+) seats; got (?P<got>.+)$"), "seat_count"),
    (re.compile(r"^timer must be one of (?P<choices>.+?) seconds"), "bad_timer"),
    (re.compile(rf"^{_SEAT} must be \{{"), "bad_seat"),
    (re.compile(rf"^{_SEAT}: a name"), "bad_name"),
    (re.compile(rf"^{_SEAT}: the bot's kind"), "bad_bot"),
    (re.compile(rf"^{_SEAT}: the (?P<bot>\S+) bot sees every card"), "oracle_bot"),
    (re.compile(r"^unknown bot (?P<bot>.+?); the bots are"), "unknown_bot"),
    (re.compile(r"^unknown search level (?P<level>.+?); the levels are (?P<levels>.+)$"), "bad_level"),
    (re.compile(r"^no (?P<bot>heuristic|search) bot for game"), "unknown_bot"),
    (re.compile(r"^first must be a seat 0-(?P<max>\d+)"), "bad_first"),
]


def _param(name: str, value: str) -> Any:
    value = value.strip()
    if name in ("seat", "n", "max") and value.isdigit():
        return int(value)
    if len(value) > 1 and value[0] == value[-1] and value[0] in "'\"":
        return value[1:-1]
    return value[:80]


def refusal(message: str) -> dict[str, Any]:
    """``{"code", "params"}`` for a refusal's English ``message`` (``refused`` where no pattern
    knows it, with the words in ``params["text"]``)."""
    for pattern, code in _PATTERNS:
        m = pattern.search(message)
        if m:
            params = {k: _param(k, v) for k, v in m.groupdict().items() if v is not None}
            return {"code": code, "params": params}
    return {"code": "refused", "params": {"text": message[:300]}}


def refusing(endpoint: Endpoint) -> Endpoint:
    """An endpoint whose refusals (HTTPException with words) also carry their code and params."""

    @functools.wraps(endpoint)
    async def wrapped(*args: Any, **kwargs: Any) -> Any:
        try:
            return await endpoint(*args, **kwargs)
        except HTTPException as exc:
            return refusal_response(exc)

    return cast(Endpoint, wrapped)


def refusal_response(exc: HTTPException) -> JSONResponse:
    """The HTTP answer to a refused table: the English ``detail`` as before, with its code and
    params for the page."""
    if isinstance(exc.detail, dict) and isinstance(exc.detail.get("message"), str):
        # already worded in the reader's language, with its own code (kirifuda.server.clubtables)
        return JSONResponse(
            {"detail": exc.detail, "code": str(exc.detail.get("code", "refused")), "params": {}},
            status_code=exc.status_code,
            headers=exc.headers,
        )
    detail = exc.detail if isinstance(exc.detail, str) else str(exc.detail)
    return JSONResponse({"detail": detail, **refusal(detail)}, status_code=exc.status_code, headers=exc.headers)
