"""Why a bot cannot be made, in the reader's language (ボットを作れない理由).

:func:`kirifuda.bots.make_bot` refuses a kind it does not know, a search level that does not
exist, a game without that bot, with an :class:`~kirifuda.errors.OptionError` whose English
message names the fault (for programs and logs).  Where a person reads it — the terminal's
``kirifuda play --bots`` and ``tournament --bots``, the web lobby's refusal of a table —
:func:`bot_refusal` finds which refusal it is and words it from the catalogue
(``bot_error.<code>`` in :mod:`kirifuda.i18n`), as :mod:`kirifuda.server.refusals` does for the
other refusals of a table: each known form of the English message is a pattern here, its parts
taken as the params.  The bots' modules keep raising plain English, so that no module of theirs
needs the catalogue.
"""

from __future__ import annotations

import re

from . import i18n

__all__ = ["BOT_ERROR_MESSAGES", "bot_refusal", "in_words"]

BOT_ERROR_MESSAGES: dict[str, tuple[str, str]] = {
    "bot_error.unknown": (
        "「{kind}」というボットはありません。ボットは {kinds} です",
        "There is no bot {kind}: the bots are {kinds}",
    ),
    "bot_error.level": (
        "探索ボットに「{level}」という強さはありません。強さは {levels} です",
        "The search bot has no level {level}: the levels are {levels}",
    ),
    "bot_error.no_bot": (
        "{game} には {kind} ボットがまだありません",
        "{game} has no {kind} bot yet",
    ),
    "bot_error.needs_game": ("{kind} ボットにはゲームの指定が要ります", "The {kind} bot needs the game"),
    "bot_error.numpy": (
        "方策ボット (policy) には numpy が要ります: pip install 'kirifuda[pettingzoo]'",
        "A policy bot needs numpy: pip install 'kirifuda[pettingzoo]'",
    ),
}
"""Each refusal's words: ``bot_error.<code>`` → (Japanese, English)."""

i18n.add_terms(messages=BOT_ERROR_MESSAGES)

_PATTERNS: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"^unknown bot (?P<kind>.+?); the bots are (?P<kinds>.+)$"), "unknown"),
    (re.compile(r"^unknown search level (?P<level>.+?); the levels are (?P<levels>.+)$"), "level"),
    (re.compile(r"^no (?P<kind>heuristic|search|oracle) (?:bot )?for game (?P<game>'[^']*'|\S+)"), "no_bot"),
    (re.compile(r"^the (?P<kind>\S+) bot needs the game$"), "needs_game"),
    (re.compile(r"^a policy bot needs numpy"), "numpy"),
]


def _param(value: str) -> str:
    value = value.strip()
    if len(value) > 1 and value[0] == value[-1] and value[0] in "'\"":
        return value[1:-1]
    return value


def bot_refusal(message: str) -> tuple[str, dict[str, str]] | None:
    """``(code, params)`` of a bot's refusal from its English ``message``; None if it is not one."""
    for pattern, code in _PATTERNS:
        m = pattern.search(message)
        if m:
            return code, {k: _param(v) for k, v in m.groupdict().items() if v is not None}
    return None


def in_words(message: str, lang: str = "en") -> str:
    """A refusal's message in ``lang``: a bot's refusal from the catalogue, any other as it is."""
    found = bot_refusal(message)
    if found is None:
        return message
    code, params = found
    if "game" in params:  # by its name in the reader's language
        from .games import GAMES

        info = GAMES.get(params["game"])
        if info is not None:
            params["game"] = info.name_ja if lang == "ja" else info.name_en
    return i18n.t(f"bot_error.{code}", lang, **params)
