"""Japanese and English words for the user interfaces.

``t(key, lang)`` looks a message up; ``field_label(name, lang)`` names a view field.  Games add
their own terms with :func:`add_terms` (so the core knows no game's vocabulary).
"""

from __future__ import annotations

import locale
import os

__all__ = ["t", "field_label", "add_terms", "default_lang", "LANGS"]

LANGS = ("ja", "en")

_MESSAGES: dict[str, tuple[str, str]] = {
    # key: (ja, en)
    "deal": ("第{n}回", "Deal {n}"),
    "your_hand": ("あなたの手札", "Your hand"),
    "your_turn": ("あなたの番です", "Your turn"),
    "legal": ("選べる手", "Your choices"),
    "prompt": ("番号か札・宣言を入力 (q 中断, ? ヘルプ)", "Number, card or bid (q quit, ? help)"),
    "bad_input": ("わかりません: {text}", "Not understood: {text}"),
    "illegal": ("その手はできません: {reason}", "Not allowed: {reason}"),
    "ambiguous": ("いくつか当てはまります: {text}", "More than one choice matches: {text}"),
    "acts": ("{who}: {action}", "{who}: {action}"),
    "trick_won": ("{who} が取りました", "{who} takes the trick"),
    "and_sep": ("・", " & "),
    "trick_won_you": ("あなたが取りました", "you take the trick"),
    "deal_over": ("この回の結果", "Result of the deal"),
    "match_over": ("試合終了", "Match over"),
    "winner": ("勝ち: {who}", "Winner: {who}"),
    "totals": ("合計", "Totals"),
    "score": ("得点", "Score"),
    "saved": ("棋譜を保存しました: {path}", "Record saved: {path}"),
    "quit": ("中断しました", "Stopped"),
    "seat": ("席{n}", "Seat {n}"),
    "you": ("あなた", "you"),
    "team": ("チーム{n}", "Team {n}"),
    "help": (
        "番号で選ぶか、手を入力してください。",
        "Choose by number, or type your choice.",
    ),
    "help_title": ("ヘルプ", "Help"),
    "commands": (
        "コマンド: ? ヘルプ、h ヒント、rules ルール、last 直前の場、score 得点表、list 手札と選べる手、"
        "q 中断 (棋譜を保存)",
        "Commands: ? help, h (a hint), rules, last (the last trick), score (the score sheet), list (your hand"
        " and choices), q (stop; the record is saved)",
    ),
    "rules": ("ルール", "Rules"),
    "no_hint": ("ヒントはまだありません", "Hints are not available"),
    "no_last": ("まだ済んだ場はありません", "No trick has been completed yet"),
    "no_claim": ("今はオープンできません", "You cannot claim now"),
    "hand_shown": (
        "オープンは断られました。あなたの手札はこの回の終わりまで全員に見えています。",
        "The claim was refused: your hand now lies face up to everyone until the deal ends.",
    ),
    "claim_offer": (
        "オープン (残りの場をすべて取る) は claim と入力 (確認があります)",
        "To claim the rest (open), type claim (you will be asked to confirm)",
    ),
    "confirm_claim": ("本当にオープンしますか? (y/n)", "Claim the rest? (y/n)"),
    "acts_face_down": ("札 {n} 枚を伏せる", "puts {n} card(s) face down"),
    "bot_name": ("ボット{n} ({kind})", "Bot {n} ({kind})"),
    "bot_short": ("ボット{n}", "Bot {n}"),
    "name_a_card": ("札を入力 (例 ♠A, AS)", "type the card (e.g. ♠A, AS)"),
    "players": ("席順: {names}", "Players by seat: {names}"),
    "level.easy": ("弱", "easy"),
    "level.normal": ("中", "normal"),
    "level.strong": ("強", "strong"),
    "bot_kind.heuristic": ("定石", "rules"),
    "bot_kind.random": ("でたらめ", "random"),
    "bot_kind.oracle": ("全知", "oracle"),
    "hand_sizes_line": ("手札の枚数 (席順): {sizes}", "Cards in hand (by seat): {sizes}"),
    "score_sheet": ("得点表", "Score sheet"),
    "see_options": ("ローカルルール: kirifuda options {game}", "Local rules: kirifuda options {game}"),
    "options_header": ("{game} のローカルルール (-o 名前=値):", "{game}'s local rules (-o NAME=VALUE):"),
    "options_footer": (
        "例: kirifuda play {game} -o {length}=3 (--length 3 と同じ)。真偽は true/false/1/0/yes/no。",
        "e.g. kirifuda play {game} -o {length}=3 (the same as --length 3). Booleans: true/false/1/0/yes/no.",
    ),
    "default": ("既定", "default"),
    "result": ("結果", "Result"),
    "deals_won": ("勝った回", "Deals won"),
    "outcome": ("結果", "outcome"),
    "outcome.played": ("成立", "played"),
    "outcome.redeal": ("配り直し", "redeal"),
    "outcome.chombo": ("チョンボ", "chombo"),
    "outcome.in-progress": ("進行中", "in progress"),
    "trick": ("場", "Trick"),
    "last_trick": ("直前の場", "Last trick"),
    "lead": ("台札", "lead"),
    "phase": ("局面", "Phase"),
    "to_act": ("手番", "To act"),
    "hand_sizes": ("手札の枚数", "Cards in hand"),
    "replay.header": ("{game} の棋譜", "Record of {game}"),
    "replay.tricks": ("場", "tricks"),
    "finished": ("終了", "finished"),
    "many_choices": (
        "{n} 通りあります。{k} 枚の札を空白で区切って入力してください (書き方の例: {example})",
        "{n} choices: type {k} cards separated by spaces (the form, e.g. {example})",
    ),
    "unfinished": ("進行中", "unfinished"),
}

_FIELDS: dict[str, tuple[str, str]] = {}
_GAME_FIELDS: dict[str, dict[str, tuple[str, str]]] = {}


def add_terms(
    messages: dict[str, tuple[str, str]] | None = None,
    fields: dict[str, tuple[str, str]] | None = None,
    game: str | None = None,
) -> None:
    """Add a game's words: messages by key, and labels of its view fields and replay keys.
    With ``game``, the labels are that game's own (two games may name a field differently)."""
    _MESSAGES.update(messages or {})
    if game is None:
        _FIELDS.update(fields or {})
    else:
        _GAME_FIELDS.setdefault(game, {}).update(fields or {})


def t(key: str, lang: str = "en", **kwargs: object) -> str:
    pair = _MESSAGES.get(key)
    if pair is None:
        return key.format(**kwargs) if kwargs else key
    text = pair[0] if lang == "ja" else pair[1]
    return text.format(**kwargs) if kwargs else text


def field_label(name: str, lang: str = "en", game: str | None = None) -> str:
    pair = (_GAME_FIELDS.get(game, {}).get(name) if game else None) or _FIELDS.get(name) or _MESSAGES.get(name)
    if pair is None:
        return name.replace("_", " ")
    return pair[0] if lang == "ja" else pair[1]


def default_lang() -> str:
    """Japanese where the locale is Japanese, else English."""
    for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(var)
        if value:
            return "ja" if value.lower().startswith("ja") else "en"
    try:
        loc = locale.getlocale()[0] or ""
    except ValueError:
        loc = ""
    return "ja" if loc.lower().startswith("ja") else "en"
