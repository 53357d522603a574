"""A deal's result in words (結果の文), in Japanese or English, for the terminal, the replay
account and the browser.

``deal_result(game_id, deal, lang, names=...)`` is a pure function of one deal's public summary
(record spec §3: ``summary()["deals"][i]``, optionally with the cards the rules turn face up at
the deal's end, as a view's ``last_deal`` carries them).  Each game's sentences live in its own
module of :mod:`kirifuda.ui.games`, found through the game registry; this module names no game.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Callable, Mapping, Sequence

from ..errors import OptionError
from ..i18n import add_terms, t

__all__ = ["GameText", "deal_result", "game_text", "number_text", "signed_text", "register", "who_text"]

ResultFn = Callable[[Mapping[str, Any], str, Sequence[str] | None], list[str]]


@dataclass(frozen=True)
class GameText:
    """A game's words for the interfaces (everything here is a function of public data)."""

    game: str
    result: ResultFn
    """The result sentences of one deal: ``result(deal, lang, names)``."""
    unit: str
    """The catalogue key of the game's scoring unit in a tournament (points, chips, tricks)."""
    input_forms: str = ""
    """The catalogue key of the game's input forms (shown by ``?``)."""
    roles: Callable[[Any, str, Sequence[str] | None], list[str]] | None = None
    """The seat's team, partner and role, from its view: ``roles(view, lang, names)``."""
    hidden_action: Callable[[Any, int, Any, str], str | None] | None = None
    """How another seat's action looks to the view's seat when the action is face down:
    ``hidden_action(view, seat, action, lang)`` returns the text, or ``None`` when the action
    is public (then its label is shown)."""
    extras: dict[str, Any] = field(default_factory=dict)


_TEXTS: dict[str, GameText] = {}

add_terms(
    messages={
        # the names of a view's and a deal's facts in the page's "details" panels (web.field.*,
        # a game's own as web.field.<game>.<name>), and of the phases (web.phase.*)
        "web.field.deal_number": ("回", "deal"),
        "web.field.options": ("ローカルルール", "local rules"),
        "web.field.shown_hands": ("公開された手札", "hands shown"),
        "web.field.last_trick_winner": ("直前の場を取った人", "last trick taken by"),
        "web.field.deals": ("回数", "deals"),
        "web.field.tricks": ("場", "tricks"),
        "web.field.winner": ("勝者", "winner"),
        "web.field.winners": ("勝者", "winners"),
        "web.field.players": ("人数", "players"),
        "web.field.payment": ("支払い", "payment"),
        "web.phase.bidding": ("宣言", "bidding"),
        "web.phase.play": ("打ち", "play"),
        "web.phase.discard": ("捨て札", "discard"),
        "web.phase.deal": ("配り", "deal"),
        "web.phase.done": ("終わり", "over"),
    }
)


def register(text: GameText) -> GameText:
    _TEXTS[text.game] = text
    return text


def game_text(game_id: str) -> GameText:
    """The words of a registered game: the module its declaration names as its ``words`` part
    (``GameInfo.parts``; kirifuda's own games' are in :mod:`kirifuda.ui.games`), loaded on
    first use.  A game that declares no words is refused with :class:`OptionError`."""
    if game_id not in _TEXTS:
        from ..games import find_game, game_part

        info = find_game(game_id)
        game_part(info.id, "words")
        game_id = info.id
        if game_id not in _TEXTS:
            raise OptionError(f"game {game_id!r} declares no words (GameInfo.parts['words'])")
    return _TEXTS[game_id]


def deal_result(
    game_id: str, deal: Mapping[str, Any], lang: str = "en", names: Sequence[str] | None = None
) -> list[str]:
    """One deal's result in words, one sentence a line.  ``names``: the players' display names
    by seat (default "Seat n")."""
    if deal.get("outcome") == "in-progress":
        return [t("outcome.in-progress", lang)]
    return game_text(game_id).result(deal, lang, names)


# -- helpers for the games' sentences -------------------------------------------------------


def who_text(seat: int | None, lang: str, names: Sequence[str] | None = None) -> str:
    """A seat by its player's name, else "Seat n" (席n)."""
    if seat is None:
        return "-"
    if names and 0 <= seat < len(names) and names[seat]:
        return str(names[seat])
    return t("seat", lang, n=seat)


def number_text(value: float | int | Fraction) -> str:
    """A score as players write it: ``4.5`` → ``4½``, ``-2`` → ``−2``."""
    frac = Fraction(value).limit_denominator(4)
    whole, rest = divmod(abs(frac), 1)
    sign = "−" if frac < 0 else ""
    tail = {Fraction(1, 2): "½", Fraction(1, 4): "¼", Fraction(3, 4): "¾"}.get(rest, "")
    if rest and not tail:
        return f"{sign}{float(abs(frac)):g}"
    return f"{sign}{int(whole) if whole or not tail else ''}{tail}"


def signed_text(value: float | int | Fraction) -> str:
    """``+4½``, ``−2``, ``0``."""
    text = number_text(value)
    return f"+{text}" if value > 0 else text
