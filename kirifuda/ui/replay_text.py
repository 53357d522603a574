"""The readable account that ``kirifuda replay FILE`` prints (Japanese or English)."""

from __future__ import annotations

from typing import Any

from ..actions import Play
from ..cards import format_card, parse_card, parse_cards
from ..i18n import field_label, t
from ..record import Record
from .render import cards_text, seat_name

__all__ = ["account"]

_SKIP = {"outcome", "tricks", "score"}


def account(record: Record, summary: dict[str, Any], lang: str = "en") -> str:
    info = record.info
    names = record.players
    lines = [t("replay.header", lang, game=info.name_ja if lang == "ja" else info.name_en)]
    if record.players:
        lines.append(", ".join(f"{seat_name(s, lang)} {n}" for s, n in enumerate(record.players)))
    lines.append(", ".join(f"{k}={v}" for k, v in record.new_state().options_json().items()))
    for i, (deal, result) in enumerate(zip(record.deals, summary["deals"])):
        lines.append("")
        lines.append(f"== {t('deal', lang, n=i + 1)} ==")
        for s, hand in enumerate(deal.hands):
            if hand:
                lines.append(f"  {seat_name(s, lang, names=names)}: {cards_text(parse_cards(hand), lang)}")
        if deal.rest:
            rest_label = field_label("rest", lang, info.id)
            lines.append(f"  {rest_label}: {cards_text(parse_cards(deal.rest), lang)}")
        others = [a for a in deal.actions if "play" not in a]
        if others:
            lines.append("  " + "; ".join(
                f"{seat_name(a['seat'], lang, names=names)} {_action_label(a, info, lang)}" for a in others))
        plays = [a for a in deal.actions if "play" in a]
        at = 0
        for k, trick in enumerate(result["tricks"], 1):
            shown = [format_card(parse_card(c), lang) for c in trick["cards"]]
            lead = plays[at] if at < len(plays) else None
            if lead is not None and parse_card(lead["play"]) == parse_card(trick["cards"][0]):
                shown[0] = _action_label(lead, info, lang)  # a joker lead's request, a ♠3 call
            at += len(trick["cards"])
            cards = " ".join(shown)
            lines.append(f"  {k:2d}. {seat_name(trick['leader'], lang, names=names)} → {cards}"
                         f"  ⇒ {seat_name(trick['winner'], lang, names=names)}")
        extras = ", ".join(f"{field_label(k, lang, info.id)} {_plain(v)}" for k, v in result.items()
                           if k not in _SKIP and v is not None)
        lines.append(f"  {t('outcome.' + result['outcome'], lang)}; {extras}")
        lines.append(f"  {t('score', lang)}: {_plain(result['score'])}")
    lines.append("")
    lines.append(f"{t('totals', lang)}: {_plain(summary['totals'])}"
                 f" ({t('finished', lang) if summary['finished'] else t('unfinished', lang)})")
    if summary["winner"] is not None:
        state = record.new_state()
        winners = summary["winner"] if isinstance(summary["winner"], list) else [summary["winner"]]
        lines.append(t("winner", lang, who=", ".join(state.unit_name(w, lang) for w in winners)))
    return "\n".join(lines)


def _action_label(data: dict[str, Any], info: Any, lang: str) -> str:
    action = info.action_from_json(data, data["seat"])
    if isinstance(action, Play):
        return action.label(lang)
    return str(action.label(lang))


def _plain(value: Any) -> str:
    if isinstance(value, list):
        return " ".join(_plain(v) for v in value)
    return str(value)
