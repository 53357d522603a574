"""掛合トランプ (Kakeya Trump) in words: who won the game, the chips paid and why."""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from ...cards import Suit, format_card, parse_card
from ...i18n import add_terms, t
from ..render import player_name
from ..results import GameText, register, who_text

add_terms(
    messages={
        "kakeya.pair": ("{a}・{b}", "{a} & {b}"),
        "kakeya.wins": ("{pair} の勝ち: 絵札 {w} 対 {l}", "{pair} win with {w} face cards to {l}"),
        "kakeya.tie": (
            "絵札 8 対 8: れんしょを配られなかった {pair} の勝ち",
            "8 face cards each: {pair}, not dealt the rensho, win",
        ),
        "kakeya.pays": ("{pair} がご石 {n} 個を払う{why}", "{pair} pay {n} {chips}{why}"),
        "kakeya.chip": ("個", "chip"),
        "kakeya.chips": ("個", "chips"),
        "kakeya.why.plain": (" (勝ちペアの絵札 {w} 枚)", " (the winners' {w} face cards)"),
        "kakeya.why.rensho_trump_ace": (
            " (れんしょと切りのAを配られていた)",
            " (they were dealt the rensho and the trump ace)",
        ),
        "kakeya.why.four_aces": (" (Aを4枚とも配られていた)", " (they were dealt all four aces)"),
        "kakeya.trump": ("切り {trump}、れんしょ {rensho}", "Trump {trump}, rensho {rensho}"),
        "kakeya.sits_out": ("休み: {pair}", "Sitting out: {pair}"),
        "kakeya.unit": ("ご石", "chips"),
        "kakeya.you_pair": ("あなたの相棒は {partner}", "Your partner is {partner}"),
        "kakeya.leads": ("{who}が最初に出す", "{who} leads"),
        "kakeya.you_lead": ("あなたが最初に出す", "you lead"),
        "kakeya.role.leads": ("あなたのペアが親 (先手)", "Your pair leads"),
        "kakeya.role.deals": ("あなたのペアが配り (切りを決める)", "Your pair deals (and decides the trump)"),
        "kakeya.role.sits_out": ("あなたのペアは休み", "Your pair sits out"),
        "kakeya.input": (
            "札: 8s, S8, ♠8, 10h。切り: S H D C か keep (そのまま)。最初に出す人: 選べる手の番号か「席3」。",
            "Cards: 8s, S8, ♠8, 10h. Trump: S H D C, or keep. First leader: the choice's number, or 'seat 3'.",
        ),
    }
)


def _pair(p: int, players: int, lang: str, names: Sequence[str] | None) -> str:
    half = players // 2
    return t("kakeya.pair", lang, n=p, a=who_text(p, lang, names), b=who_text(p + half, lang, names))


def _count(x: Any) -> int:
    return len(x) if isinstance(x, (list, tuple)) else int(x or 0)


def result(deal: Mapping[str, Any], lang: str, names: Sequence[str] | None = None) -> list[str]:
    faces = deal.get("face_cards") or []
    players = 2 * len(faces) if faces else 4
    lines: list[str] = []
    winner = deal.get("winning_pair")
    if deal["outcome"] == "played" and winner is not None:
        loser = next(p for p, f in enumerate(faces) if p != winner and f is not None)
        w, lo = _count(faces[winner]), _count(faces[loser])
        if w == lo:
            lines.append(t("kakeya.tie", lang, pair=_pair(winner, players, lang, names)))
        else:
            lines.append(t("kakeya.wins", lang, pair=_pair(winner, players, lang, names), w=w, l=lo))
        pay = int(deal.get("payment") or 0)
        column = deal.get("payment_column") or "plain"
        chips = t("kakeya.chip" if pay == 1 else "kakeya.chips", lang)
        lines.append(
            t(
                "kakeya.pays",
                lang,
                pair=_pair(loser, players, lang, names),
                n=pay,
                chips=chips,
                why=t(f"kakeya.why.{column}", lang, w=w),
            )
        )
    if deal.get("trump"):
        lines.append(
            t(
                "kakeya.trump",
                lang,
                trump=Suit(deal["trump"]).symbol,
                rensho=format_card(parse_card(deal["rensho"]), lang) if deal.get("rensho") else "-",
            )
        )
    if deal.get("sitting_out") is not None:
        lines.append(t("kakeya.sits_out", lang, pair=_pair(deal["sitting_out"], players, lang, names)))
    return lines


def roles(view: Any, lang: str, names: Sequence[str] | None = None) -> list[str]:
    p = view.own_pair
    if view.seat is None or p is None or not view.pairs:
        return []
    a, b = view.pairs[p]
    partner = b if view.seat == a else a
    lines = [t("kakeya.you_pair", lang, partner=who_text(partner, lang, names))]
    if p == view.leading_pair:
        lines.append(t("kakeya.role.leads", lang))
    if p == view.dealing_pair:
        lines.append(t("kakeya.role.deals", lang))
    if p == view.sitting_out:
        lines.append(t("kakeya.role.sits_out", lang))
    return lines


def action_note(view: Any, seat: int, action: Any, lang: str) -> str | None:
    """Who leads the first trick, by the player's name (the action's own label says "seat 2")."""
    leader = action.to_json().get("leader") if hasattr(action, "to_json") else None
    if not isinstance(leader, int):
        return None
    if leader == view.seat:
        return t("kakeya.you_lead", lang)
    return t("kakeya.leads", lang, who=player_name(leader) or t("seat", lang, n=leader))


TEXT = register(
    GameText(
        "kakeya",
        result,
        unit="kakeya.unit",
        input_forms="kakeya.input",
        roles=roles,
        extras={"action_note": action_note},
    )
)

add_terms(
    messages={
        "kakeya.rules": (
            "掛合トランプ (絵取り): 4人 (6人も可)、対面の2人がペア。52枚、A K Q J が絵札 (16枚)。\n"
            "切り: 配りペアが、手札を見る前に切り札を変えるか決める (最初は ♦)。れんしょは ♠A (♠が切りなら ♣A)。\n"
            "打ち: 13回。親ペアの1人が最初に出す。台札のスートを持っていれば出す。れんしょが出れば勝ち、"
            "次に一番高い切り札、なければ台札のスートの一番高い札。\n"
            "結果: 絵札を9枚以上取ったペアの勝ち。8対8はれんしょを配られなかったペアの勝ち。\n"
            "ご石: 負けたペアが払う。勝ちの絵札 8〜11 で1個、12〜15 で2個、16 で4個。負けペアがれんしょと切りのAを"
            "配られていたら2個、Aを4枚とも配られていたら4個。ご石が0以下になったら終わり、多いペアの勝ち。",
            "Kakeya Trump: 4 players (or 6), partners opposite. 52 cards; A K Q J are face cards (16).\n"
            "Trump: before anyone sees their cards, the dealing pair may change the trump (♦ at first)."
            " The rensho is ♠A (♣A when spades are trump).\n"
            "Play: 13 tricks; one of the leading pair leads first. Follow suit if you can. The rensho"
            " wins; else the highest trump; else the highest card of the led suit.\n"
            "Result: the pair with 9 or more face cards wins; at 8-8 the pair not dealt the rensho wins.\n"
            "Chips: the losers pay: 1 chip for 8-11 face cards, 2 for 12-15, 4 for 16; 2 if the losers were"
            " dealt the rensho and the trump ace, 4 if all four aces. The match ends when a pair has no"
            " chips; most chips wins.",
        ),
        "option.kakeya.players": ("人数 (4 か 6)", "table size (4 or 6)"),
        "option.kakeya.initial_trump": ("最初のゲームの切り札", "the trump when game 1 starts"),
        "option.kakeya.stop_at_zero": (
            "ご石が0以下のペアが出たら終わる",
            "the match ends when a pair has no chips left",
        ),
        "option.kakeya.games": (
            "ゲーム数の上限 (stop_at_zero=false なら必須)",
            "at most this many games (required when stop_at_zero is false)",
        ),
    }
)

TEXT.extras["length"] = "games"  # the match's length: -o length=N and --length N set it

# the browser's words for this game (the phase hints, the rules card, its roles)
add_terms(
    messages={
        "web.hint.kakeya.trump": (
            "配った組として切り札 (切り) を決めます。そのままでもよい。",
            "Your pair dealt: choose the trump (切り), or keep it.",
        ),
        "web.hint.kakeya.leader": (
            "親の組として、組のどちらが最初に出すかを決めます。",
            "Your pair leads: choose which of you leads the first trick.",
        ),
        "web.hint.kakeya.play": (
            "台札のスートがあれば出す。れんしょが最強。絵札 (A K Q J) 16枚のうち9枚以上取った組の勝ち。",
            "Follow suit if you can; the rensho beats everything. The pair taking 9 or more of the 16 face cards (A K Q J) wins.",
        ),
        "web.rules.kakeya": (
            "2人ずつの組で<b>絵取り</b>: A・K・Q・J の絵札 16枚を取り合う。9枚以上で勝ち。\n"
            "配った組が<b>切り</b> (切り札) を決め、親の組が最初に出す人を決める。\n"
            "<b>れんしょ</b> (♠A、♠が切りのときは ♣A) が最強。台札のスートがあれば出す。\n"
            "勝負はチップで払う。",
            "Two pairs take face cards (A K Q J, 16 in all); 9 or more wins the game.\n"
            "The dealing pair chooses the trump (<b>切り</b>); the leading pair chooses who leads.\n"
            "The <b>rensho (れんしょ)</b>, ♠A (♣A when spades are trump), beats everything. Follow suit if you can.\n"
            "Games are paid in chips.",
        ),
    }
)

add_terms(
    messages={  # the deal's facts in the page's details panel
        "web.field.kakeya.winning_pair": ("勝ちペア", "winning pair"),
        "web.field.kakeya.rensho_pair": ("れんしょを配られたペア", "pair dealt the rensho"),
        "web.field.kakeya.payment_column": ("ご石の数え方", "chips counted by"),
        "web.field.kakeya.payment": ("ご石", "chips paid"),
        "web.value.kakeya.payment_column.plain": ("勝ちペアの絵札の数", "the winners' face cards"),
        "web.value.kakeya.payment_column.rensho_trump_ace": ("れんしょと切りのA", "the rensho and the trump ace"),
        "web.value.kakeya.payment_column.four_aces": ("Aを4枚", "all four aces"),
        "web.phase.kakeya.trump": ("切りを決める", "choosing the trump"),
        "web.phase.kakeya.leader": ("最初に出す人を決める", "choosing the first leader"),
    }
)
