"""うんすんかるた (Unsun) in words: who won the deal, the tricks, the trump."""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from ...cards import Suit, format_card, parse_card
from ...i18n import add_terms, t
from ..results import GameText, register, who_text

add_terms(
    messages={
        "unsun.wins": ("{who} の勝ち: {k} 個", "{who} wins the deal with {k} tricks"),
        "unsun.share": ("{who} が {k} 個ずつで勝ちを分ける", "{who} share the deal with {k} tricks each"),
        "unsun.counts": ("取った個: {counts}", "Tricks: {counts}"),
        "unsun.trump_line": (
            "起き絵 {indicator}: 切り札 {trump}、親 {dealer}",
            "Indicator {indicator}: trump {trump}; dealer {dealer}",
        ),
        "unsun.unit": ("個", "tricks"),
        "unsun.roles": ("各自が自分のために打ちます", "Every player plays for themselves"),
        "unsun.input": (
            "札: 8s, S8, ♠8, 10h。出せる札は番号でも選べます。",
            "Cards: 8s, S8, ♠8, 10h, or the number of a choice.",
        ),
    }
)


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
        lines.append(
            t("unsun.counts", lang, counts="  ".join(f"{who_text(s, lang, names)} {k}" for s, k in enumerate(won)))
        )
    if deal.get("indicator"):
        lines.append(
            t(
                "unsun.trump_line",
                lang,
                indicator=format_card(parse_card(deal["indicator"]), lang),
                trump=Suit(deal["trump"]).symbol,
                dealer=who_text(deal.get("dealer"), lang, names),
            )
        )
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


TEXT = register(
    GameText("unsun", result, unit="unsun.unit", input_forms="unsun.input", roles=roles, hidden_action=hidden_action)
)

add_terms(
    messages={
        "unsun.rules": (
            "うんすんかるた (トランプ版): 3〜5人、各自が自分のために打つ。52枚、どのスートも A > K > … > 2。\n"
            "起き絵: 配る前に1枚を表にし、そのスートが切り札。残りの札は使わない。\n"
            "組: 切り札、残りの赤いスート、残りの黒いスートの3組。組の中は数だけで比べる (同じ数は先に出た方が強い)。\n"
            "取り番: 各回の最後に出す人。最初の回は ♣J を持つ人。台札に従う必要はない。\n"
            "差し: 切り札の A K Q J は伏せて出す (回が終わると表に)。\n"
            "勝ち: 切り札が出ていれば一番高い切り札。なければ、取り番の札の組が前に出た組にあればその組の一番強い札、"
            "なければ取り番の負けで前の組の一番強い札。\n"
            "結果: 一番多く取った人が勝ち。試合は人数分のゲーム、合計の個数で決める。",
            "Unsun: 3-5 players, each for themselves. 52 cards, A > K > … > 2 in every suit.\n"
            "Indicator: before the deal a card is turned face up; its suit is trump. The left-over cards"
            " stay out of play.\n"
            "Groups: trump, the other red suits, the other black suits; within a group only the rank"
            " counts (of equal ranks the earlier card is stronger).\n"
            "Last player: plays last in each trick; in the first trick the holder of ♣J. No need to"
            " follow suit.\n"
            "Face down: the trump A, K, Q and J are played face down (shown when the trick is complete).\n"
            "Winner: the highest trump if any; else, if the last player's card is of a group played"
            " before it, the strongest card of that group; else the last player loses to the strongest"
            " card of the other group.\n"
            "Result: most tricks wins the deal; the match is one deal per player, won on total tricks.",
        ),
        "option.unsun.players": ("人数", "table size"),
        "option.unsun.reflip_face_card": (
            "起き絵が A K Q J なら配り直す",
            "turn a new indicator when it is an A, K, Q or J",
        ),
        "option.unsun.all_trumps_face_down": ("切り札はすべて伏せて出す", "play every trump face down"),
        "option.unsun.deals": ("試合のゲーム数 (省略: 人数と同じ)", "deals in the match (default: one per player)"),
    }
)

TEXT.extras["length"] = "deals"  # the match's length: -o length=N and --length N set it

# the browser's words for this game (the phase hints, the rules card, its roles)
add_terms(
    messages={
        "web.hint.unsun.play": (
            "台札に従う必要はない。切り札の A K Q J は伏せて出す (差し)。取った場の数を競う。",
            "No need to follow suit. The trump A K Q J are played face down (差し). Take the most tricks.",
        ),
        "web.rules.unsun": (
            "起き絵で切り札が決まる。カードは切り札・赤・黒の3つの組に分かれる。\n"
            "台札に従う必要はない。切り札の A K Q J は伏せて出す (<b>差し</b>)。\n"
            "各場の最後に出す人が<b>取り番</b>。最初の場は ♣J を持つ人が取り番。\n"
            "取った場の数を競う。",
            "The indicator sets trump; cards fall into three groups: trump, red, black.\n"
            "There is no need to follow; the trump A K Q J are played face down (<b>差し</b>).\n"
            "The last player of each trick is the <b>取り番</b>; in the first trick, the holder of ♣J.\n"
            "Players count the tricks they take.",
        ),
    }
)

add_terms(
    messages={  # the deal's facts in the page's details panel
        "web.field.unsun.tricks_won": ("取った個", "tricks taken"),
        "web.field.unsun.deals_won": ("勝った回", "deals won"),
    }
)
