"""うんすんかるた (Unsun) in words: who won the deal, the tricks, the trump."""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from ...cards import Suit, format_card, parse_card
from ...i18n import add_terms, t
from ..results import GameText, register, who_text

add_terms(messages={
    "unsun.wins": ("{who} の勝ち: {k} 個", "{who} wins the deal with {k} tricks"),
    "unsun.share": ("{who} が {k} 個ずつで勝ちを分ける", "{who} share the deal with {k} tricks each"),
    "unsun.counts": ("取った個: {counts}", "Tricks: {counts}"),
    "unsun.trump_line": ("起き絵 {indicator}: 切り札 {trump}、親 {dealer}",
                         "Indicator {indicator}: trump {trump}; dealer {dealer}"),
    "unsun.unit": ("個", "tricks"),
    "unsun.roles": ("各自が自分のために打ちます", "Every player plays for themselves"),
    "unsun.input": (
        "札: 8s, S8, ♠8, 10h。出せる札は番号でも選べます。",
        "Cards: 8s, S8, ♠8, 10h, or the number of a choice."),
})


def result(deal: Mapping[str, Any], lang: str, names: Sequence[str] | None = None) -> list[str]:
    won = list(deal.get("tricks_won") or deal.get("score") or [])
    lines: list[str] = []
    winners = deal.get("winners")
    if deal["outcome"] == "played" and winners:
        k = won[winners[0]] if won else 0
        sep = "・" if lang == "ja" else " & "
        who = sep.join(who_text(s, lang, names) for s in winners)
        lines.append(t("unsun.wins" if len(winners) == 1 else "unsun.share", lang, who=who, k=k))
    if won:
        lines.append(t("unsun.counts", lang, counts="  ".join(f"{who_text(s, lang, names)} {k}"
                                                             for s, k in enumerate(won))))
    if deal.get("indicator"):
        lines.append(t("unsun.trump_line", lang, indicator=format_card(parse_card(deal["indicator"]), lang),
                       trump=Suit(deal["trump"]).symbol, dealer=who_text(deal.get("dealer"), lang, names)))
    return lines


def roles(view: Any, lang: str, names: Sequence[str] | None = None) -> list[str]:
    return [t("unsun.roles", lang)] if view.seat is not None else []


def hidden_action(view: Any, seat: int, action: Any, lang: str) -> str | None:
    describe = getattr(view, "describe_play", None)
    if callable(describe):
        text = describe(seat, action, lang)
        if text != action.label(lang):
            return str(text)
    return None


TEXT = register(GameText("unsun", result, unit="unsun.unit", input_forms="unsun.input", roles=roles,
                         hidden_action=hidden_action))
