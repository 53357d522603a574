"""Names that would pass for a bot's (ボットに見える名前), refused to people.

A seat played by a bot is shown by its kind (``search:strong``, ``heuristic``) and its label in
the reader's language ("strong (search)", 「強い (探索)」, "Bot 2", 「ボット2」).  A person named so
would pass for a bot at a table — and in a club's ratings, where bots are rated under their
level names.  :func:`mimics_bot` tells such a name; the sign-up (``POST /api/accounts``) and a
guest's seat name (``POST /api/tables`` seats, the ``hello``'s ``name``) refuse it, in words of
both languages (:data:`NAME_MESSAGES`).

A name is compared once normalised: NFKC (full-width letters and digits become plain ones),
casefolded, with spaces, punctuation and symbols left out — so ``Ｓｅａｒｃｈ：ｓｔｒｏｎｇ``,
``SEARCH strong`` and ``bot #2`` are caught as well.  Refused:

- a name holding the robot face 🤖 anywhere;
- a bot's kind, with or without a level (``search``, ``search:hard``, ``heuristic``, ``random``,
  ``oracle``, ``policy:…``);
- a bot kind's label in either language (the lobby's and the table's words for each bot);
- the word "bot" (ボット) alone, with a number, or with a kind, a label or a level: "Bot 2
  (strong)", 「ボット1 (強)」.

A name that merely contains such a word ("Botan", "Strongman", "ランダム太郎") is a person's.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from .. import i18n
from ..bots import BOT_KINDS

__all__ = ["mimics_bot", "normalise", "NAME_MESSAGES", "BOT_NAME_CODE"]

BOT_NAME_CODE = "bot_name"
"""The refusal's code (``web.err.bot_name`` here; a new table's ``web.refusal.bot_name`` is in
kirifuda.server.refusals with the table's other refusals)."""

NAME_MESSAGES: dict[str, tuple[str, str]] = {
    "web.err.bot_name": (
        "その名前はボットの名前に見えるので使えません。ほかの名前にしてください",
        "That name would pass for a bot's: choose another",
    ),
}
i18n.add_terms(messages=NAME_MESSAGES)

ROBOT = "\U0001f916"
_BOT_WORDS = ("bot", "ボット")  # after NFKC: ﾎﾞｯﾄ is ボット
_OTHER_KINDS = ("search:normal", "search:v1", "policy")
_LABEL_KEYS = (
    "web.bots.",  # the lobby's and the table's words for each bot (kirifuda.server.messages)
    "bot_kind.",  # the terminal's
)
_LEVEL_KEYS = ("level.easy", "level.normal", "level.strong")


def normalise(name: str) -> str:
    """NFKC, casefolded, without spaces, punctuation or symbols (the form names are compared in)."""
    text = unicodedata.normalize("NFKC", name).casefold()
    return "".join(ch for ch in text if unicodedata.category(ch)[0] not in "PZSC")


@lru_cache(maxsize=1)
def _words() -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
    """(what a bot is called alone, what may follow the word "bot", the kinds' bases)."""
    from . import messages  # noqa: F401 (the web's words are in the catalogue once imported)

    kinds = {normalise(k) for k in (*BOT_KINDS, *_OTHER_KINDS)}
    bases = frozenset(k.split(":", 1)[0].casefold() for k in (*BOT_KINDS, *_OTHER_KINDS))
    labels: set[str] = set()
    for key, pair in i18n._MESSAGES.items():
        if key.startswith(_LABEL_KEYS):
            labels.update(normalise(text) for text in pair)
    levels = {normalise(text) for key in _LEVEL_KEYS for text in i18n._MESSAGES.get(key, ())}
    alone = frozenset(w for w in kinds | labels if w)
    after_bot = frozenset(w for w in kinds | labels | levels | bases if w)
    return alone, after_bot, bases


def mimics_bot(name: str) -> bool:
    """Whether a person's ``name`` would pass for a bot's (see the module's docstring)."""
    if ROBOT in name:
        return True
    alone, after_bot, bases = _words()
    # a kind with any level or file: "search:hard", "policy:x.npz" (before punctuation goes)
    head, colon, _ = unicodedata.normalize("NFKC", name).casefold().strip().partition(":")
    if colon and normalise(head) in bases:
        return True
    flat = normalise(name)
    if flat in alone:
        return True
    for word in _BOT_WORDS:
        if flat.startswith(word):
            rest = re.sub(r"^\d*", "", flat[len(word) :])
            if not rest or rest in after_bot:
                return True
    return False
