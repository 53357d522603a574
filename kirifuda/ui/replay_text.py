"""The readable account that ``kirifuda replay FILE`` prints (Japanese or English): each deal's
hands, the bidding and other decisions, the tricks (a claim or chombo in the trick where it was
made), and the result in words."""

from __future__ import annotations

from typing import Any

from ..actions import Play
from ..cards import format_card, parse_card, parse_cards
from ..i18n import field_label, t
from ..record import Record
from .render import cards_text
from .results import deal_result, number_text, signed_text, who_text

__all__ = ["account"]

_AT_TRICK = ("claim", "chombo")
"""Actions shown in the trick where they were made, not with the bidding."""


def account(record: Record, summary: dict[str, Any], lang: str = "en") -> str:
    info = record.info
    names = record.players
    state = record.new_state()
    lines = [t("replay.header", lang, game=info.name_ja if lang == "ja" else info.name_en)]
    if names:
        lines.append(", ".join(f"{t('seat', lang, n=s)} {n}" for s, n in enumerate(names)))
    lines.append(", ".join(f"{k}={v}" for k, v in state.options_json().items()))

    def who(seat: int | None) -> str:
        return who_text(seat, lang, names)

    for i, (deal, result) in enumerate(zip(record.deals, summary["deals"])):
        lines.append("")
        lines.append(f"== {t('deal', lang, n=i + 1)} ==")
        if deal.scored is not None:  # a scored deal: its facts, no card (docs/records.md)
            lines.append(f"  {field_label('scored', lang, info.id)}")
        for s, hand in enumerate(deal.hands):
            if hand:
                lines.append(f"  {who(s)}: {cards_text(parse_cards(hand), lang)}")
        if deal.rest:
            rest_label = field_label("rest", lang, info.id)
            lines.append(f"  {rest_label}: {cards_text(parse_cards(deal.rest), lang)}")
        before = [a for a in deal.actions if "play" not in a and not any(k in a for k in _AT_TRICK)]
        if before:
            lines.append("  " + "; ".join(f"{who(a['seat'])} {_action_label(a, info, lang)}" for a in before))
        plays = [a for a in deal.actions if "play" in a]
        # claims and chombos by the number of cards played before them
        later: dict[int, list[dict[str, Any]]] = {}
        played = 0
        for a in deal.actions:
            if "play" in a:
                played += 1
            elif any(k in a for k in _AT_TRICK):
                later.setdefault(played, []).append(a)
        at = 0
        tricks = result["tricks"]
        for k, trick in enumerate(tricks, 1):
            for a in _pop_until(later, at):
                lines.append(f"  {k:2d}. {who(a['seat'])} {_action_label(a, info, lang)}")
            shown = [format_card(parse_card(c), lang) for c in trick["cards"]]
            lead = plays[at] if at < len(plays) else None
            if lead is not None and parse_card(lead["play"]) == parse_card(trick["cards"][0]):
                shown[0] = _action_label(lead, info, lang)  # a joker lead's request, a ♠3 call
            at += len(trick["cards"])
            lines.append(f"  {k:2d}. {who(trick['leader'])} → {' '.join(shown)}  ⇒ {who(trick['winner'])}")
        rest = [a for n, acts in sorted(later.items()) for a in acts]
        if rest:
            k = len(tricks) + 1
            if at < len(plays):  # cards of a trick the claim or chombo cut short
                cards = " ".join(_action_label(p, info, lang) for p in plays[at:])
                lines.append(f"  {k:2d}. {who(plays[at]['seat'])} → {cards}")
            for a in rest:
                lines.append(f"  {k:2d}. {who(a['seat'])} {_action_label(a, info, lang)}")
        for sentence in deal_result(info.id, result, lang, names):
            lines.append(f"  {sentence}")
        lines.append(
            f"  {t('score', lang)}: "
            + "  ".join(f"{state.unit_name(u, lang)} {signed_text(x)}" for u, x in enumerate(result["score"]))
        )
    lines.append("")
    lines.append(
        f"{t('totals', lang)}: "
        + "  ".join(f"{state.unit_name(u, lang)} {number_text(x)}" for u, x in enumerate(summary["totals"]))
        + f" ({t('finished', lang) if summary['finished'] else t('unfinished', lang)})"
    )
    if summary["winner"] is not None:
        winners = summary["winner"] if isinstance(summary["winner"], list) else [summary["winner"]]
        lines.append(t("winner", lang, who=", ".join(state.unit_name(w, lang) for w in winners)))
    return "\n".join(lines)


def _pop_until(later: dict[int, list[dict[str, Any]]], played: int) -> list[dict[str, Any]]:
    """The claims and chombos made once ``played`` cards (or fewer) were down."""
    out = []
    for n in sorted(later):
        if n <= played:
            out += later.pop(n)
    return out


def _action_label(data: dict[str, Any], info: Any, lang: str) -> str:
    action = info.action_from_json(data, data["seat"])
    if isinstance(action, Play):
        return action.label(lang)
    return str(action.label(lang))
