"""ナポレオン (Napoleon) in words: a deal's result and payments by role, the seat's role."""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from ...actions import Bid, Discard, Pass
from ...cards import format_card, parse_card
from ...i18n import add_terms, t
from ..results import GameText, register, signed_text, who_text

add_terms(
    messages={
        "napoleon.all_passed": ("全員パス: 配り直し (得点なし)", "Everyone passed: redeal, no score"),
        "napoleon.declared": ("ナポレオン {who}: {contract} を宣言", "Napoleon {who} declared {contract}"),
        "napoleon.redeclared": (
            "ナポレオン {who}: {first} から {contract} に再宣言",
            "Napoleon {who} declared {first}, re-declared {contract}",
        ),
        "napoleon.adjutant": ("副官 ({card}): {who}", "Adjutant ({card}): {who}"),
        "napoleon.solo": ("副官 ({card}) なし: ナポレオンの独り立ち", "Adjutant ({card}): none, Napoleon plays alone"),
        "napoleon.army_wins": (
            "ナポレオン軍が絵札 {n} 枚 (必要 {d} 枚): ナポレオン軍の勝ち",
            "The Napoleon army took {n} face cards ({d} needed): the Napoleon army wins",
        ),
        "napoleon.allies_win": (
            "ナポレオン軍が絵札 {n} 枚 (必要 {d} 枚): 連合軍の勝ち",
            "The Napoleon army took {n} face cards ({d} needed): the allied army wins",
        ),
        "napoleon.strategy_b": (
            "ナポレオン軍が絵札を20枚すべて取った: 作戦Bで連合軍の勝ち",
            "The Napoleon army took all 20 face cards: by strategy B the allied army wins",
        ),
        "napoleon.pay_napoleon": ("ナポレオン {who} {points}", "Napoleon {who} {points}"),
        "napoleon.pay_adjutant": ("副官 {who} {points}", "adjutant {who} {points}"),
        "napoleon.pay_allies": ("連合軍 ({who}) 各 {points}", "allies ({who}) {points} each"),
        "napoleon.face_up": ("中札 {middle}、捨て札 {discard}", "Middle {middle}, discard {discard}"),
        "napoleon.unit": ("点", "points"),
        "napoleon.short": ("ナポレオン {who} {contract}: {result}", "Napoleon {who} {contract}: {result}"),
        "napoleon.short_army": ("ナポレオン軍の勝ち", "the Napoleon army wins"),
        "napoleon.short_allies": ("連合軍の勝ち", "the allied army wins"),
        "napoleon.you_napoleon": ("あなたがナポレオンです ({contract})", "You are Napoleon ({contract})"),
        "napoleon.you_adjutant": (
            "あなたは副官です: ナポレオン {who} の味方 (札が出るまで秘密)",
            "You are the adjutant: on Napoleon {who}'s side (secret until the card is played)",
        ),
        "napoleon.you_ally": (
            "あなたは連合軍です: ナポレオン {who} ({contract}) と戦います",
            "You are in the allied army against Napoleon {who} ({contract})",
        ),
        "napoleon.adjutant_known": ("副官: {who}", "The adjutant is {who}"),
        "napoleon.adjutant_unknown": ("副官はまだわかりません", "The adjutant is not known yet"),
        "napoleon.discard_hidden": ("{n} 枚を伏せて捨てる", "discards {n} cards face down"),
        "napoleon.stand": ("パス (このまま: {contract})", "pass (stand: stay at {contract})"),
        "napoleon.input": (
            "札: 8s, S8, ♠8, 10h, jk。立候補: 13S, pass (一番高い立候補者のパスは「このまま」)。"
            " 副官: その札 (♠A, AS)。捨て札: 札を空白で区切る (例: 5c 7d 2h)。再宣言: 15S か none。"
            " 承認: yes / no。ジョーカーの打ち出し: 'jk s'。♠3でジョーカー請求: '3s call'。",
            "Cards: 8s, S8, ♠8, 10h, joker (jk). Bids: 13S, pass (the top bidder's pass means 'stand')."
            " Adjutant: its card (♠A, AS). Discard: the cards separated by spaces (e.g. 5c 7d 2h)."
            " Re-declaration: 15S or none. Answer: yes / no. Joker lead: 'jk s'; ♠3 calling the joker: '3s call'.",
        ),
    }
)


def _contract(text: str | None, lang: str) -> str:
    if not text:
        return "-"
    return Bid(int(text[:-1]), text[-1]).label(lang)


def result(deal: Mapping[str, Any], lang: str, names: Sequence[str] | None = None) -> list[str]:
    if deal["outcome"] == "redeal":
        return [t("napoleon.all_passed", lang)]
    lines: list[str] = []
    nap = deal.get("napoleon")
    score = list(deal["score"])
    contract = deal.get("contract")
    declared = deal.get("declared")
    who = who_text(nap, lang, names)
    if declared and declared != contract:
        lines.append(
            t("napoleon.redeclared", lang, who=who, first=_contract(declared, lang), contract=_contract(contract, lang))
        )
    else:
        lines.append(t("napoleon.declared", lang, who=who, contract=_contract(contract, lang)))
    card = deal.get("adjutant_card")
    adjutant = deal.get("adjutant")
    if card:
        card_text = format_card(parse_card(card), lang)
        if adjutant is None or adjutant == nap:
            lines.append(t("napoleon.solo", lang, card=card_text))
        else:
            lines.append(t("napoleon.adjutant", lang, card=card_text, who=who_text(adjutant, lang, names)))
    army = deal.get("army_face_cards")
    need = int(contract[:-1]) if contract else 0
    if army is not None and deal.get("napoleon_wins") is not None:
        if deal["napoleon_wins"]:
            lines.append(t("napoleon.army_wins", lang, n=army, d=need))
        elif army >= 20 > need:
            lines.append(t("napoleon.strategy_b", lang))
        else:
            lines.append(t("napoleon.allies_win", lang, n=army, d=need))
    if nap is not None and any(score):
        parts = [t("napoleon.pay_napoleon", lang, who=who, points=signed_text(score[nap]))]
        if adjutant is not None and adjutant != nap:
            parts.append(
                t(
                    "napoleon.pay_adjutant",
                    lang,
                    who=who_text(adjutant, lang, names),
                    points=signed_text(score[adjutant]),
                )
            )
        allies = [s for s in range(len(score)) if s not in (nap, adjutant)]
        if allies:
            sep = "・" if lang == "ja" else ", "
            parts.append(
                t(
                    "napoleon.pay_allies",
                    lang,
                    who=sep.join(who_text(s, lang, names) for s in allies),
                    points=signed_text(score[allies[0]]),
                )
            )
        lines.append(("、" if lang == "ja" else ", ").join(parts))
    if deal.get("middle") is not None and deal.get("discard") is not None:
        lines.append(
            t(
                "napoleon.face_up",
                lang,
                middle=" ".join(format_card(parse_card(c), lang) for c in deal["middle"]) or "-",
                discard=" ".join(format_card(parse_card(c), lang) for c in deal["discard"]) or "-",
            )
        )
    return lines


def short(deal: Mapping[str, Any], lang: str, names: Sequence[str] | None = None) -> str:
    """One line for the score sheet: who declared what, and which army won."""
    if deal["outcome"] != "played":
        return t("napoleon.all_passed", lang)
    won = t("napoleon.short_army" if deal.get("napoleon_wins") else "napoleon.short_allies", lang)
    return t(
        "napoleon.short",
        lang,
        who=who_text(deal.get("napoleon"), lang, names),
        contract=_contract(deal.get("contract"), lang),
        result=won,
    )


def roles(view: Any, lang: str, names: Sequence[str] | None = None) -> list[str]:
    seat = view.seat
    nap = view.napoleon
    if seat is None or nap is None or view.contract is None:
        return []
    contract = view.contract.label(lang)
    if seat == nap:
        lines = [t("napoleon.you_napoleon", lang, contract=contract)]
        if view.adjutant is not None and view.adjutant != nap:
            lines.append(t("napoleon.adjutant_known", lang, who=who_text(view.adjutant, lang, names)))
        return lines
    if view.adjutant == seat:
        return [t("napoleon.you_adjutant", lang, who=who_text(nap, lang, names))]
    if view.adjutant_card is None:
        return [t("napoleon.declared", lang, who=who_text(nap, lang, names), contract=contract)]
    lines = [t("napoleon.you_ally", lang, who=who_text(nap, lang, names), contract=contract)]
    if view.adjutant is not None and view.adjutant != nap:
        lines.append(t("napoleon.adjutant_known", lang, who=who_text(view.adjutant, lang, names)))
    elif not view.solo:
        lines.append(t("napoleon.adjutant_unknown", lang))
    return lines


def hidden_action(view: Any, seat: int, action: Any, lang: str) -> str | None:
    if isinstance(action, Discard) and seat != view.seat:
        return t("napoleon.discard_hidden", lang, n=len(action.cards))
    return None


def action_note(view: Any, seat: int, action: Any, lang: str) -> str | None:
    """A pass by the highest bidder means "I stand" (spec §4): said so.  ``view`` is from
    before the action."""
    if isinstance(action, Pass) and view.phase == "bidding":
        high = [(s, a) for s, a in view.bids if isinstance(a, Bid)]
        if high and high[-1][0] == seat:
            return t("napoleon.stand", lang, contract=high[-1][1].label(lang))
    return None


TEXT = register(
    GameText(
        "napoleon",
        result,
        unit="napoleon.unit",
        input_forms="napoleon.input",
        roles=roles,
        hidden_action=hidden_action,
        extras={"action_note": action_note, "short": short},
    )
)

add_terms(
    messages={
        "napoleon.rules": (
            "ナポレオン: 5人 (4人も可)。52枚 (ジョーカー入りも可)。絵札は A K Q J 10 の20枚。\n"
            "立候補: 絵札の枚数 (5人 11〜20、4人 13〜20) と切り札のスート (♠ > ♥ > ♦ > ♣)。全員が続けてパスすると終わり"
            " (一番高い立候補者のパスは「このまま」)。最高の立候補者がナポレオン。\n"
            "副官: ナポレオンが札を1枚指名し、持っている人が副官 (札が出るまで秘密)。中札にあれば独り立ち。\n"
            "交換: ナポレオンが中札を取り、同じ枚数を伏せて捨てる (捨て札の絵札は連合軍のもの)。再宣言もできる (全員の承認が必要)。\n"
            "打ち: ナポレオンが最初に出す。台札のスートを持っていれば出す。強さ: ♠A (オールマイティ)、初回のA、セイム2、"
            "正J、裏J、切り札、台札のスート。\n"
            "結果: ナポレオン軍 (ナポレオンと副官) の絵札が宣言以上なら勝ち。得点は宣言の数 − 10 を元に役割ごと。",
            "Napoleon: 5 players (or 4). 52 cards (a joker optional). Face cards: A K Q J 10, 20 in all.\n"
            "Bidding: a count of face cards (5 players 11-20, 4 players 13-20) and a trump suit"
            " (♠ > ♥ > ♦ > ♣); it ends when all pass in succession (the top bidder's pass means 'stand')."
            " The top bidder is Napoleon.\n"
            "Adjutant: Napoleon names a card; its holder is the adjutant, secretly until it is played."
            " A card in the middle: Napoleon plays alone.\n"
            "Exchange: Napoleon takes the middle and discards as many face down (face cards there count"
            " for the allies). A higher re-declaration needs everyone's approval.\n"
            "Play: Napoleon leads first; follow suit if you can. Order: ♠A (almighty), the first trick's"
            " ace, same-2, main jack, back jack, trumps, the led suit.\n"
            "Result: the Napoleon army (Napoleon and the adjutant) wins with at least the declared face"
            " cards. Points by role from the declared count − 10.",
        ),
        "option.napoleon.players": ("人数", "table size"),
        "option.napoleon.joker": ("ジョーカーを入れる (♠3 のジョーカー請求も)", "add the joker (and the ♠3 call)"),
        "option.napoleon.yoromeki": (
            "よろめき: ♠A と ♥Q が同じ回に出たら ♥Q の勝ち",
            "yoromeki: ♥Q beats ♠A in the same trick",
        ),
        "option.napoleon.first_trick_plain": (
            "初回はオールマイティ (とよろめき) 以外、台札のスートの高い札が勝つ",
            "the first trick: only the almighty (and yoromeki) keep their power",
        ),
        "option.napoleon.strategy_b": (
            "作戦B: 宣言20未満で絵札20枚を取ると連合軍の勝ち",
            "strategy B: all 20 face cards below a 20 declaration is the allies' win",
        ),
        "option.napoleon.redeclare": (
            "交換のあとの再宣言を認める",
            "Napoleon may re-declare higher after the exchange",
        ),
        "option.napoleon.deals": (
            "試合のゲーム数 (省略: 人数の2倍)",
            "deals in the match (default: twice the players)",
        ),
    }
)

TEXT.extras["length"] = "deals"  # the match's length: -o length=N and --length N set it

# the browser's words for this game (the phase hints, the rules card, its roles)
add_terms(
    messages={
        "web.role.napoleon": ("ナポレオン", "Napoleon"),
        "web.hint.napoleon.bidding": (
            "立候補: 取る絵札 (A K Q J 10) の枚数とスートを宣言するかパス。最も高い人がナポレオン。",
            "Bid (立候補) how many face cards (A K Q J 10) your side will take, and the trump; or pass. The highest bidder is Napoleon.",
        ),
        "web.hint.napoleon.adjutant": (
            "副官の札を指名します。その札を持つ人が副官 (出るまで秘密)。自分の札なら独り立ち。",
            "Name the adjutant's card: its holder is your adjutant (secret until it is played). Naming your own card plays alone.",
        ),
        "web.hint.napoleon.discard": (
            "中札を手に取りました。捨てる札を選んでください。",
            "You took the middle cards: choose the cards to discard.",
        ),
        "web.hint.napoleon.redeclare": (
            "もっと高い宣言を提案できます (全員の承認が要る)。しないなら「再宣言なし」。",
            "You may propose a higher declaration (everyone must approve), or keep yours.",
        ),
        "web.hint.napoleon.approve": (
            "ナポレオンの再宣言を承認するか拒否します。",
            "Approve or reject Napoleon's re-declaration.",
        ),
        "web.hint.napoleon.play": (
            "台札のスートがあれば出す。オールマイティ (♠A) が最強、次に正J・裏J。",
            "Follow the led suit if you can. The almighty (♠A) wins, then the main and back jacks.",
        ),
        "web.rules.napoleon": (
            "<b>立候補</b>: 絵札 (A K Q J 10) を何枚取るかとスートを宣言。最も高い人が<b>ナポレオン</b>。\n"
            "ナポレオンは<b>副官</b>の札を指名し、中札と交換する。副官はその札が出るまで誰にも分からない。\n"
            "<b>オールマイティ</b> (♠A) が最強、次に正ジャック・裏ジャック、切り札、台札。\n"
            "ナポレオン軍が宣言枚数の絵札を取れば勝ち、取れなければ<b>連合軍</b>の勝ち。",
            "<b>Bidding (立候補)</b>: how many face cards (A K Q J 10) you will take, and trump. The highest bidder is <b>Napoleon</b>.\n"
            "Napoleon names the <b>adjutant (副官)</b>'s card and exchanges with the middle; the adjutant is secret until that card is played.\n"
            "The <b>almighty (オールマイティ)</b> ♠A wins, then the main and back jacks, trumps, the led suit.\n"
            "Napoleon's army wins by taking the face cards it bid; otherwise the <b>allied army (連合軍)</b> wins.",
        ),
    }
)

add_terms(
    messages={  # the deal's facts in the page's details panel
        "web.field.napoleon.army_face_cards": ("ナポレオン軍の絵札", "the Napoleon army's face cards"),
        "web.field.napoleon.declared": ("最初の宣言", "declared"),
        "web.field.napoleon.face_cards": ("取った絵札", "face cards taken"),
        "web.field.napoleon.napoleon_wins": ("ナポレオン軍の勝ち", "the Napoleon army wins"),
        "web.phase.napoleon.bidding": ("立候補", "bidding"),
        "web.phase.napoleon.adjutant": ("副官の指名", "naming the adjutant"),
        "web.phase.napoleon.discard": ("捨て札", "discard"),
        "web.phase.napoleon.redeclare": ("再宣言", "redeclaration"),
        "web.phase.napoleon.approve": ("再宣言の承認", "approving the redeclaration"),
    }
)
