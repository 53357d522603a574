"""明専トランプ (Meitora) in words: a deal's result, the seat's team and role."""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from ...actions import Bid, Discard
from ...cards import Suit, format_card, parse_card
from ...i18n import add_terms, t
from ..results import GameText, register, signed_text, who_text

add_terms(
    messages={
        "meitora.team": ("チーム{n} ({a}・{b})", "Team {n} ({a} & {b})"),
        "meitora.made": (
            "{team} {contract} {tricks}トリックで成立 {points}",
            "{team} made {contract} with {tricks} tricks: {points}",
        ),
        "meitora.set": (
            "{team} {contract} {tricks}トリックで落ち: {other} {points}",
            "{team} went down in {contract} with {tricks} tricks: {other} {points}",
        ),
        "meitora.declarer": ("宣言者: {who}", "Declarer: {who}"),
        "meitora.all_passed": ("全員パス: 配り直し (得点なし)", "Everyone passed: redeal, no score"),
        "meitora.broken": ("{who} のブロークン: 配り直し (得点なし)", "Broken by {who}: redeal, no score"),
        "meitora.chombo": ("{who} のチョンボ{why}: {other} {points}", "Chombo by {who}{why}: {other} {points}"),
        "meitora.chombo_claim": (" (オープン失敗)", " (a failed claim)"),
        "meitora.face_up": ("アガリ {agari}、ネグリ {negri}", "Agari {agari}, negri {negri}"),
        "meitora.unit": ("点", "points"),
        "meitora.bidding_line": ("吹き (吹き始め {first}): {bids}", "Bidding (first: {first}): {bids}"),
        "meitora.contract_line": (
            "{contract}: 取り数 味方 {ours}・相手 {theirs} (済んだ場 {played}/10)",
            "{contract}: tricks yours {ours}, theirs {theirs} ({played} of 10 played)",
        ),
        "meitora.your_agari": ("アガリ (あなただけが見る): {card}", "Agari (only you see it): {card}"),
        "meitora.your_negri": ("ネグリ (あなただけが見る): {card}", "Negri (only you see it): {card}"),
        "meitora.request": ("(請求 {req})", "(asks {req})"),
        "meitora.target_line": ("目標 {target} 点", "Target {target} points"),
        "meitora.roles": ("あなたはチーム{n}: 相棒は {partner}", "You are team {n}: your partner is {partner}"),
        "meitora.you_declare": ("あなたが宣言者です ({contract})", "You are the declarer ({contract})"),
        "meitora.partner_declares": (
            "相棒 {who} が宣言者 ({contract}): 味方です",
            "Your partner {who} is the declarer ({contract})",
        ),
        "meitora.you_defend": (
            "{who} が宣言者 ({contract}): あなたは守り",
            "{who} is the declarer ({contract}): you defend",
        ),
        "meitora.negri_hidden": ("ネグリを伏せる", "puts the negri face down"),
        "meitora.input": (
            "札: 8s, S8, ♠8, 10h, jk (ジョーカー)。吹き: 7H, 8N (トラ), pass, broken。"
            " ジョーカーの打ち出し: 'jk h' (♥を請求), 'jk any'。オープン: claim (確認あり)。",
            "Cards: 8s, S8, ♠8, 10h, joker (jk). Bids: 7H, 8N (no-trump), pass, broken."
            " Joker lead: 'jk h' asks for ♥, 'jk any'. Claim (open): claim (asks to confirm).",
        ),
        "meitora.claim_cost.chombo": (
            "オープン: 残りの場をすべて取ると宣言します。取れない場が一つでもあればチョンボで、相手チームに5点。",
            "Claim: you say you take every remaining trick. If any can still be lost it is a chombo:"
            " the other team scores 5 points.",
        ),
        "meitora.claim_cost.refuse": (
            "オープン: 残りの場をすべて取ると宣言します。取れない場があれば断られ、手札をこの回の終わりまで"
            "全員に見せたまま続けて打ちます。",
            "Claim: you say you take every remaining trick. If any can still be lost the claim is"
            " refused: your hand stays face up to everyone until the deal ends, and play goes on.",
        ),
    }
)


def _team(team: int, lang: str, names: Sequence[str] | None) -> str:
    return t("meitora.team", lang, n=team, a=who_text(team, lang, names), b=who_text(team + 2, lang, names))


def result(deal: Mapping[str, Any], lang: str, names: Sequence[str] | None = None) -> list[str]:
    outcome = deal["outcome"]
    score = deal["score"]
    lines: list[str] = []
    if outcome == "redeal":
        broken = deal.get("broken")
        lines.append(
            t("meitora.all_passed", lang)
            if broken is None
            else t("meitora.broken", lang, who=who_text(broken, lang, names))
        )
    elif outcome == "chombo":
        seat = deal.get("chombo")
        other = 1 - seat % 2 if isinstance(seat, int) else (0 if score[0] else 1)
        why = t("meitora.chombo_claim", lang) if deal.get("failed_claim") else ""
        lines.append(
            t(
                "meitora.chombo",
                lang,
                who=who_text(seat, lang, names),
                why=why,
                other=_team(other, lang, names),
                points=signed_text(score[other]),
            )
        )
    elif outcome == "played":
        declarer = deal["declarer"]
        team = declarer % 2
        contract = Bid(int(deal["contract"][:-1]), deal["contract"][-1]).label(lang)
        tricks = deal["team_tricks"][team]
        if score[team] > 0 or (tricks >= int(deal["contract"][:-1])):
            lines.append(
                t(
                    "meitora.made",
                    lang,
                    team=_team(team, lang, names),
                    contract=contract,
                    tricks=tricks,
                    points=signed_text(score[team]),
                )
            )
        else:
            lines.append(
                t(
                    "meitora.set",
                    lang,
                    team=_team(team, lang, names),
                    contract=contract,
                    tricks=tricks,
                    other=_team(1 - team, lang, names),
                    points=signed_text(score[1 - team]),
                )
            )
        lines.append(t("meitora.declarer", lang, who=who_text(declarer, lang, names)))
    if deal.get("agari"):
        negri = deal.get("negri")
        lines.append(
            t(
                "meitora.face_up",
                lang,
                agari=format_card(parse_card(deal["agari"]), lang),
                negri=format_card(parse_card(negri), lang) if negri else "-",
            )
        )
    return lines


def roles(view: Any, lang: str, names: Sequence[str] | None = None) -> list[str]:
    seat = view.seat
    if seat is None:
        return []
    lines = [t("meitora.roles", lang, n=seat % 2, partner=who_text((seat + 2) % 4, lang, names))]
    declarer = view.declarer
    if declarer is not None and view.contract is not None:
        contract = view.contract.label(lang)
        if declarer == seat:
            lines.append(t("meitora.you_declare", lang, contract=contract))
        elif declarer % 2 == seat % 2:
            lines.append(t("meitora.partner_declares", lang, who=who_text(declarer, lang, names), contract=contract))
        else:
            lines.append(t("meitora.you_defend", lang, who=who_text(declarer, lang, names), contract=contract))
    return lines


def hidden_action(view: Any, seat: int, action: Any, lang: str) -> str | None:
    if isinstance(action, Discard) and seat != view.seat:
        return t("meitora.negri_hidden", lang)
    return None


def table(view: Any, lang: str, names: Sequence[str] | None = None) -> list[str]:
    """The table in a few lines (an 80×24 screen keeps the hand and the choices): the bidding,
    the contract and the tricks so far, the trick on the table."""

    def who(s: int | None) -> str:
        return who_text(s, lang, names)

    lines = []
    if view.phase == "bidding":
        bids = ", ".join(f"{who(s)} {a.label(lang)}" for s, a in view.bids) or "-"
        lines.append(t("meitora.bidding_line", lang, first=who(view.first_bidder), bids=bids))
    if view.contract is not None and view.declarer is not None:
        seat = view.seat if view.seat is not None else 0
        lines.append(
            t(
                "meitora.contract_line",
                lang,
                contract=view.contract.label(lang),
                who=who(view.declarer),
                ours=view.team_tricks[seat % 2],
                theirs=view.team_tricks[1 - seat % 2],
                played=view.tricks_played,
            )
        )
    if view.agari is not None:
        lines.append(t("meitora.your_agari", lang, card=format_card(view.agari, lang)))
    if view.negri is not None:
        lines.append(t("meitora.your_negri", lang, card=format_card(view.negri, lang)))
    shown = view.trick if view.trick is not None else view.last_trick
    if shown is not None:
        cards = "  ".join(f"{who(s)} {format_card(c, lang)}" for s, c in shown.plays)
        request = view.joker_request if view.trick is not None else view.last_trick_request
        if request:
            cards += "  " + t(
                "meitora.request",
                lang,
                req="何でも"
                if request == "any" and lang == "ja"
                else "any"
                if request == "any"
                else Suit(request).symbol,
            )
        if view.trick is not None:
            lines.append(f"{t('trick', lang)}: {cards}")
        else:
            lines.append(f"{t('last_trick', lang)}: {cards} ⇒ {who(view.last_trick_winner)}")
    lines.append(t("meitora.target_line", lang, target=view.target))
    return lines


def claim_cost(view: Any, lang: str) -> str:
    """What a claim costs if it fails, under the table's ``claim_failure``."""
    rule = view.options.get("claim_failure", "chombo") if view.options else "chombo"
    return t(f"meitora.claim_cost.{rule}", lang)


TEXT = register(
    GameText(
        "meitora",
        result,
        unit="meitora.unit",
        input_forms="meitora.input",
        roles=roles,
        hidden_action=hidden_action,
        extras={"claim_cost": claim_cost, "table": table},
    )
)

add_terms(
    messages={
        "meitora.rules": (
            "明専トランプ: 4人、対面の2人がチーム (席0・席2 と 席1・席3)。札は各スートの A K Q J 10 9 8 7 6 5 とジョーカーの41枚。\n"
            "配り: 10枚ずつ、1枚は伏せたアガリ。\n"
            "吹き: 吹き始めから1周だけ、6〜10の数と ♠<♣<♦<♥<トラ。最高の吹きが宣言者 (コントラクト)。全員パスは配り直し。"
            " A K Q J がない手 (Q1枚だけも可) はブロークンで配り直し。J 4枚も配り直し。\n"
            "アガリとネグリ: 宣言者がアガリを取り、1枚を伏せて捨てる (ネグリ、終わるまで誰も見ない)。\n"
            "札の強さ: 切り札はジョーカー、正J、副J (同色のJ)、A K Q 10 … 5。トラは切り札なし。\n"
            "打ち: 10回。宣言者が最初に出す。台札のスートを持っていれば出す (ジョーカーはいつでも出せる)。"
            " ジョーカーで打ち出すときはスートか「何でも」を請求する。ジョーカーは最後まで持っていられない。\n"
            "オープン: 自分の番に残りすべてを取ると宣言できる。失敗はチョンボ (相手に5点)。\n"
            "得点: 宣言 X、チームの取り Y。Y ≥ X なら X − 5 + (Y − X)/2 点、足りなければ相手が X − Y 点。目標点 (17) 先取。",
            "Meitora: 4 players, partners opposite (seats 0 & 2 against 1 & 3). 41 cards: A K Q J 10 9 8 7 6 5"
            " of each suit and a joker.\n"
            "Deal: 10 cards each; one card face down, the agari.\n"
            "Bidding: one round from the first bidder: a count 6-10 and a strain ♠ < ♣ < ♦ < ♥ < no-trump."
            " The highest bid is the contract, its bidder the declarer. All pass: redeal. A hand with no"
            " A, K, Q or J (or a single Q) may declare broken: redeal. Four jacks in one hand: redeal.\n"
            "Agari and negri: the declarer takes the agari and discards one card face down (the negri,"
            " unseen until the deal ends).\n"
            "Card order: trumps are the joker, the right jack, the left jack (same colour), A K Q 10 … 5."
            " No-trump has no trumps.\n"
            "Play: 10 tricks, the declarer leads first. Follow suit if you can (the joker may always be"
            " played). A joker lead asks for a suit or 'any'. The joker may not be kept to the end.\n"
            "Claim (open): on your turn, claim every remaining trick; a claim that can fail is a chombo"
            " (5 points to the other team).\n"
            "Score: contract X, team tricks Y. Made (Y ≥ X): X − 5 + (Y − X)/2; set: the other team"
            " scores X − Y. First to the target (17) wins.",
        ),
        "option.meitora.target": ("勝ちになる点 (17点先取)", "points to win the match"),
        "option.meitora.claim_failure": (
            "オープン失敗の扱い: chombo (チョンボ、相手に5点) か refuse (断られて続ける)",
            "an invalid claim: chombo (5 points to the other team) or refuse (refused, play goes on)",
        ),
        "option.meitora.joker_lead": (
            "ジョーカーの打ち出し: request (スートか何でもを請求) か trump (切り札を請求)",
            "a joker lead: request (names a suit or any) or trump (asks for trump)",
        ),
    }
)

TEXT.extras["length"] = "target"  # the match's length: -o length=N and --length N set it

# the browser's words for this game (the phase hints, the rules card, its roles)
add_terms(
    messages={
        "web.hint.meitora.bidding": (
            "吹く: 6〜10 と切り札 (♠<♣<♦<♥<トラ) を言うかパス。一巡だけ。A・K・Q・J がない手はブロークンで配り直しにできる。",
            "Bid (吹く) 6–10 tricks in a strain (♠<♣<♦<♥<NT) or pass; one round only. A hand without A, K, Q, J may call broken for a redeal.",
        ),
        "web.hint.meitora.discard": (
            "アガリを取りました。1枚を選んでネグリとして伏せて捨てます (ジョーカーも可)。",
            "You took the agari (アガリ): choose one card to discard face down as the negri (ネグリ); the joker too may go.",
        ),
        "web.hint.meitora.play": (
            "台札のスートがあれば出す (ジョーカーはいつでも可)。ジョーカーで始めるときは請求を選ぶ。",
            "Follow the led suit if you can (the joker may always be played). Leading the joker, choose its request.",
        ),
        "web.rules.meitora": (
            "4人2チーム (向かい合う2人が味方)。41枚 (5〜A とジョーカー=タンツェン)。\n"
            "<b>吹く</b>: 一巡だけ、枚数 6〜10 と切り札 (♠<♣<♦<♥<トラ) を宣言するかパス。\n"
            "<b>ブロークン</b>: A・K・Q・J が1枚もない (Q1枚だけも可) 手は配り直しを宣言できる。J 4枚は自動で配り直し。\n"
            "<b>アガリ</b>: 宣言者は伏せ札1枚を取り、<b>ネグリ</b>として1枚を伏せて捨てる。\n"
            "切り札の J が最強、同じ色の J (副J) が次。ジョーカーはどの場でも出せて必ず勝つ。台札のスートがあれば出す。\n"
            "ジョーカーで始めるときは<b>請求</b> (♠♥♦♣ か何でも) を言う。ジョーカーは最後まで残せない。\n"
            "<b>オープン</b>: 残りを全部取れるなら宣言できる。失敗は<b>チョンボ</b>。\n"
            "入る: X − 5 + (Y − X)/2 点。落ちる: 相手に X − Y 点。17点先取。",
            "Four players in two teams (partners sit opposite); 41 cards (5 to A and the joker).\n"
            "<b>Bidding (吹く)</b>: one round; bid 6–10 tricks in a strain (♠<♣<♦<♥<no-trump) or pass.\n"
            "<b>Broken (ブロークン)</b>: a hand without A, K, Q or J (or a lone Q) may call a redeal; four jacks redeal by themselves.\n"
            "<b>Agari (アガリ)</b>: the declarer takes the face-down card and discards one face down: the <b>negri (ネグリ)</b>.\n"
            "The trump jack is highest, then the other jack of its colour; the joker may be played to any trick and wins it. Follow the led suit if you can.\n"
            "Leading the joker names a <b>request (請求)</b>: a suit or anything. The joker may not be kept to the end.\n"
            "<b>Open (オープン)</b>: claim every remaining trick; a wrong claim is a <b>chombo (チョンボ)</b>.\n"
            "Made: X − 5 + (Y − X)/2 points; set: the other team scores X − Y. First to 17.",
        ),
    }
)

add_terms(
    messages={  # the deal's facts in the page's details panel
        "web.field.meitora.broken": ("ブロークン", "broken"),
        "web.field.meitora.team_tricks": ("チームのトリック", "tricks by team"),
        "web.phase.meitora.bidding": ("吹き", "bidding"),
        "web.phase.meitora.discard": ("ネグリ", "negri"),
    }
)
