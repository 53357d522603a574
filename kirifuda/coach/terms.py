"""The coach's words in Japanese and English (registered in :mod:`kirifuda.i18n`); a game's own
words for the coach are in its part (:mod:`kirifuda.coach.games`)."""

from __future__ import annotations

from ..i18n import add_terms

TERMS: dict[str, tuple[str, str]] = {
    # hints
    "coach.hint": ("ヒント", "Hint"),
    "coach.forced": ("{action} しか選べません", "{action} is your only choice"),
    "coach.rule": ("{action}: 読みではなく決まった手順で選んでいます", "{action}: chosen by rule, not by simulation"),
    "coach.best_in": (
        "{action} は、あなたに見えている情報と矛盾しない {n} 通りの配り方のうち {pct}% で最善です",
        "{action} is the best choice in {pct}% of the {n} deals consistent with what you have seen",
    ),
    "coach.best_mean": (
        "{action} は、あなたに見えている情報と矛盾しない {n} 通りの配り方の平均で最善です",
        "{action} does best on average over the {n} deals consistent with what you have seen",
    ),
    "coach.threshold": (
        "{n} 回の試行で、どの宣言も {action} の基準 ({score}{unit}) を上回りません",
        "over {n} simulations no bid is expected to score more than {action}'s threshold ({score} {unit})",
    ),
    "coach.sampled_rule": ("{action}: 読みの基準 {score}{unit}", "{action}: the search's threshold, {score} {unit}"),
    "coach.makes": (
        "{action} は {n} 回の試行のうち {pct}% で成立します",
        "{action} makes in {pct}% of {n} simulations",
    ),
    "coach.own_count": ("あなたの側は平均 {count}{unit}を取ります", "your side ends with {count} {unit} on average"),
    "coach.self_count": ("あなたは平均 {count}{unit}を取ります", "you end with {count} {unit} on average"),
    "coach.costs": ("{action} だと約 {amount}{unit}損します", "{action} costs about {amount} {unit}"),
    "coach.as_good": ("{action} もほぼ同じです", "{action} is about as good"),
    "coach.join": ("。", "; "),
    "coach.end": ("。", "."),
    "coach.alternatives": ("ほかの候補", "Alternatives"),
    "coach.unit.tricks": ("トリック", "tricks"),
    "coach.unit.face_cards": ("枚の絵札", "face cards"),
    "coach.unit.points": ("点", "points"),
    "coach.unit.chips": ("チップ", "chips"),
    "coach.unit.tricks.one": ("トリック", "trick"),
    "coach.unit.face_cards.one": ("枚の絵札", "face card"),
    "coach.unit.points.one": ("点", "point"),
    "coach.unit.chips.one": ("チップ", "chip"),
    "coach.tag.bounds": ("範囲", "bounds"),
    "coach.tag.rollouts": ("推定", "estimate"),
    "coach.tag.sampled": ("平均", "sampled"),
    "coach.legend": ("[{tag}]: {meaning}", "[{tag}]: {meaning}"),
    # the deal review
    "coach.review": ("{game} 第{deal}回の検討", "Review of {game}, deal {deal}"),
    "coach.trick_no": ("第{n}トリック", "trick {n}"),
    "coach.before_after": ("{before} → {after}", "{before} → {after}"),
    "coach.best_was": ("最善は {action}", "best: {action}"),
    "coach.loss": ("{amount}{unit}の損", "loses {amount} {unit}"),
    "coach.no_loss": ("最善", "best"),
    "coach.unproven": ("損は証明できず", "no loss proven"),
    "coach.method.exact": ("全員の手を開いて正確に解いた値", "exact, all hands open"),
    "coach.method.bounds": (
        "大きすぎて予算内に解けず、証明した範囲",
        "too big to solve within the budget: proven bounds",
    ),
    "coach.method.rollouts": (
        "正確な解の前: 全員の手を開いたプレイアウトの推定",
        "before the exact part: estimated by rollouts, all hands open",
    ),
    "coach.method.sampled": (
        "その席に見えていた情報からの配り方の平均",
        "average over deals sampled from the seat's view",
    ),
    "coach.method.none": ("評価なし", "not assessed"),
    "coach.sampled": ("{action}: 平均 {score}{unit}", "{action}: {score} {unit} on average"),
    "coach.not_weighed": ("{action}: 読みの候補外", "{action}: not among the choices the search weighed"),
    "coach.summary": ("まとめ", "Summary"),
    "coach.seat_lost": ("{who} は {amount}{unit}損しました: {where}", "{who} lost {amount} {unit}: {where}"),
    "coach.seat_clean": ("{who} は損をしていません", "{who} lost nothing"),
    "coach.seat_decisions": (
        "{who} の宣言などの損 (推定): {amount}{unit}",
        "{who}'s bids and other choices cost about {amount} {unit} (estimated)",
    ),
    "coach.exact_share": ("正確に解いた局面: {solved}/{total}", "positions solved exactly: {solved}/{total}"),
    "coach.no_deal": ("この棋譜には検討する回がありません", "this record has no deal to review"),
    "coach.unfinished": ("(途中まで)", "(unfinished)"),
}

add_terms(TERMS)


def unit_text(unit: str, amount: float, lang: str = "en") -> str:
    """A unit's name for an amount (``1 trick``, ``2 tricks``)."""
    from ..i18n import t

    return t(f"coach.unit.{unit}.one" if amount == 1 else f"coach.unit.{unit}", lang)
