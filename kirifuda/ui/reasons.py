"""The engines' reasons for refusing an action, in the user's language.

The engines word a refusal in English (it is also the record checker's message); the
interfaces show it from the catalogue: each known form of reason is a pattern and a key, its
parts (a suit, a card, a bid) filled in.  A reason no pattern knows is shown as the engine
words it."""

from __future__ import annotations

import re

from ..i18n import add_terms, t

__all__ = ["reason_text"]

add_terms(
    messages={
        "reason.not_held": ("{cards} は手札にありません", "you do not hold {cards}"),
        "reason.follow": (
            "台札のスート {suit} を持っているので、それを出してください{extra}",
            "you hold {suit}, the led suit: play one{extra}",
        ),
        "reason.follow_joker": (" (ジョーカーも出せます)", " (or the joker)"),
        "reason.not_stronger": (
            "{bid} は今の最高 {high} より強くありません",
            "{bid} is not stronger than the highest bid {high}",
        ),
        "reason.claim": (
            "オープンは成立しません: ほかの人がまだ場を取れます。断られたので続けます",
            "the claim does not hold: another seat can still take a trick. It is refused; play goes on",
        ),
        "reason.bid_form": (
            "吹きは 6〜10 の数とスート (♠ < ♣ < ♦ < ♥ < トラ) です",
            "a bid is a count 6–10 and a strain ♠ < ♣ < ♦ < ♥ < no-trump",
        ),
        "reason.not_now": ("今その札は出せません", "that card cannot be played now"),
        "reason.keep_joker": (
            "ジョーカーは最後まで持っていられません: この回に出してください",
            "the joker may not be kept to the end: play it in this trick",
        ),
        "reason.joker_call": (
            "♠3 でジョーカーが請求されました: ジョーカーを出してください",
            "the ♠3 lead called for the joker: play it",
        ),
    }
)

_PATTERNS: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"^seat \d+ does not hold (?P<cards>.+)$"), "reason.not_held"),
    (re.compile(r"^must follow (?P<suit>\S+) \(\w\)(?P<joker>, or play the joker)?"), "reason.follow"),
    (
        re.compile(r"^(?P<bid>\S+) is not stronger than the highest (?:bid|declaration) (?P<high>\S+)"),
        "reason.not_stronger",
    ),
    (re.compile(r"^the claim is not valid"), "reason.claim"),
    (re.compile(r"^a bid is a count 6–10"), "reason.bid_form"),
    (re.compile(r"^not a legal card now$"), "reason.not_now"),
    (re.compile(r"^the joker may not be kept to the end"), "reason.keep_joker"),
    (re.compile(r"^the ♠3 lead called for the joker"), "reason.joker_call"),
]


def _cards(codes: str, lang: str) -> str:
    from ..cards import format_card, parse_card
    from ..errors import InvalidActionError

    out = []
    for code in codes.split():
        try:
            out.append(format_card(parse_card(code), lang))
        except InvalidActionError:
            out.append(code)
    return " ".join(out)


def _bid(text: str, lang: str) -> str:
    from ..actions import Bid

    if len(text) >= 2 and text[:-1].isdigit() and text[-1] in "SHDCN":
        return Bid(int(text[:-1]), text[-1]).label(lang)
    return text


def reason_text(reason: str, lang: str = "en") -> str:
    """The engine's reason in the user's language, with cards and bids in the games' notation."""
    for pattern, key in _PATTERNS:
        m = pattern.match(reason)
        if m is None:
            continue
        parts = m.groupdict()
        if key == "reason.not_held":
            return t(key, lang, cards=_cards(parts["cards"], lang))
        if key == "reason.follow":
            extra = t("reason.follow_joker", lang) if parts.get("joker") else ""
            return t(key, lang, suit=parts["suit"], extra=extra)
        if key == "reason.not_stronger":
            return t(key, lang, bid=_bid(parts["bid"], lang), high=_bid(parts["high"], lang))
        return t(key, lang)
    return reason
