"""The score keeper (得点記録係) for matches played with real cards: its page and its API.

``GET /keeper`` is a phone-sized page (``static/keeper.html``) where a referee or a scorer
records each deal of a physical match by its facts — the scored-deal form of
``docs/records.md`` — without entering a card.  The page keeps the match as a record and asks
``POST /api/keeper/sheet`` for the running score sheet: the server replays the record (every
scored deal checked and scored by the game's own rules and options) and answers with the replay
summary and who bids, deals or leads next; a bad deal is answered with the deal and the field
named, and the page drops it.  ``GET /api/keeper/terms?lang=ja|en`` gives the page its words
from the catalogue (:mod:`kirifuda.i18n`).  A finished record is downloaded, or saved to a club
(:mod:`.accounts`).
"""

from __future__ import annotations

from importlib import resources
from typing import Any

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse

from .. import record as records
from ..errors import KirifudaError
from ..games import GAMES
from ..i18n import add_terms, t
from ..scoresheets import scoresheet

__all__ = ["keeper_router", "TERMS"]

STATIC = resources.files("kirifuda.server") / "static"

TERMS: dict[str, tuple[str, str]] = {
    "keeper.title": ("得点記録", "Score keeper"),
    "keeper.game": ("ゲーム", "Game"),
    "keeper.players": ("人数", "Players"),
    "keeper.names": ("席の名前", "Names of the seats"),
    "keeper.seat": ("席{n}", "Seat {n}"),
    "keeper.team": ("チーム{n}", "Team {n}"),
    "keeper.pair": ("ペア{n}", "Pair {n}"),
    "keeper.target": ("何点先取", "Points to win"),
    "keeper.deals": ("回数", "Deals"),
    "keeper.start": ("記録を始める", "Start the match"),
    "keeper.new": ("新しい試合", "New match"),
    "keeper.deal": ("第{n}回", "Deal {n}"),
    "keeper.kind": ("結果の種類", "What happened"),
    "keeper.kind.played": ("成立", "Played"),
    "keeper.kind.broken": ("ブロークン (配り直し)", "Broken (redeal)"),
    "keeper.kind.all_pass": ("全員パス (配り直し)", "All passed (redeal)"),
    "keeper.kind.chombo": ("チョンボ", "Chombo"),
    "keeper.declarer": ("吹き上げた人", "Declarer"),
    "keeper.contract": ("コントラクト", "Contract"),
    "keeper.count": ("枚数", "Count"),
    "keeper.strain": ("切り札", "Trump"),
    "keeper.no_trump": ("トラ (切り札なし)", "No trump"),
    "keeper.tricks": ("宣言側の取り数", "Tricks of the declaring team"),
    "keeper.claim": ("オープンした人", "Claimed by"),
    "keeper.claim_after": ("オープンまでの場数", "Tricks played before the claim"),
    "keeper.none": ("なし", "none"),
    "keeper.broken_seat": ("ブロークンした人", "Seat that broke"),
    "keeper.chombo_seat": ("チョンボした人", "Seat of the chombo"),
    "keeper.reason": ("理由", "Reason"),
    "keeper.declared": ("宣言", "Declaration"),
    "keeper.adjutant": ("副官", "Adjutant"),
    "keeper.solo": ("なし (独り)", "none (solo)"),
    "keeper.face_cards": ("絵札の枚数", "Face cards taken"),
    "keeper.trump": ("切り札", "Trump"),
    "keeper.rensho_pair": ("れんしょを配られたペア", "Pair dealt the rensho"),
    "keeper.trump_ace_pair": ("切り札のAを配られたペア", "Pair dealt the trump ace"),
    "keeper.four_aces_pair": ("Aを4枚配られたペア", "Pair dealt all four aces"),
    "keeper.unknown": ("—", "—"),
    "keeper.tricks_won": ("取った場の数", "Tricks taken"),
    "keeper.record_deal": ("この回を記録", "Record this deal"),
    "keeper.undo": ("最後の回を取り消す", "Undo the last deal"),
    "keeper.sheet": ("得点表", "Score sheet"),
    "keeper.total": ("合計", "Total"),
    "keeper.chips": ("チップ", "Chips"),
    "keeper.next": ("次: {who}", "Next: {who}"),
    "keeper.first_bidder": ("吹き始め 席{n}", "first bidder seat {n}"),
    "keeper.dealer": ("親 席{n}", "dealer seat {n}"),
    "keeper.leading_pair": ("打ち出しはペア{n}", "pair {n} leads"),
    "keeper.sitting_out": ("ペア{n}は休み", "pair {n} sits out"),
    "keeper.over": ("試合終了", "Match over"),
    "keeper.winner": ("勝ち: {who}", "Winner: {who}"),
    "keeper.download": ("棋譜をダウンロード", "Download the record"),
    "keeper.club": ("クラブ", "Club"),
    "keeper.rated": ("レーティング対象", "Rated"),
    "keeper.save": ("クラブに保存", "Save to the club"),
    "keeper.saved": ("保存しました", "Saved"),
    "keeper.sign_in": ("クラブに保存するにはサインインしてください", "Sign in to save to a club"),
    "keeper.refused": ("記録できません: {reason}", "Not recorded: {reason}"),
    "keeper.preset": ("クラブのルール", "Club rules"),
    "keeper.no_preset": ("なし (標準)", "none (defaults)"),
    "keeper.account": ("アカウント", "Account"),
    "keeper.name": ("名前", "Name"),
    "keeper.password": ("パスワード (8文字以上)", "Password (8 characters or more)"),
    "keeper.sign_up": ("アカウントを作る", "Create an account"),
    "keeper.sign_in_button": ("サインイン", "Sign in"),
    "keeper.sign_out": ("ログアウト", "Sign out"),
    "keeper.sign_out_all": ("すべての端末でログアウト", "Sign out everywhere"),
    "keeper.signed_in_as": ("{name} としてサインイン中", "Signed in as {name}"),
    "keeper.my_seats": ("わたしの席", "My seats"),
    "keeper.seat_link": ("卓 {table} の席{n}", "Table {table}, seat {n}"),
    "keeper.login_failed": ("名前かパスワードが違います", "Wrong name or password"),
    "keeper.login_limited": (
        "失敗が多すぎます。しばらく待ってください",
        "Too many failed sign-ins: wait a few minutes",
    ),
    "keeper.name_taken": ("その名前は使われています", "That name is taken"),
    "keeper.bad_account": (
        "名前は1〜32文字 (: と / なし)、パスワードは8文字以上",
        "A name of 1-32 characters (no : or /) and a password of 8 or more",
    ),
    "keeper.outcome.played": ("成立", "played"),
    "keeper.outcome.redeal": ("配り直し", "redeal"),
    "keeper.outcome.chombo": ("チョンボ", "chombo"),
}
for _info in GAMES.values():  # each game's own words, from its score sheet
    _sheet = scoresheet(_info.id)
    if _sheet is not None:
        TERMS.update(_sheet.keeper_terms)
add_terms(messages=TERMS)


def _next(state: Any) -> dict[str, Any]:
    """Who starts the next deal (what the scorer needs to know): the game's score sheet says."""
    sheet = scoresheet(state.game_id)
    return {} if sheet is None else sheet.next_deal(state)


def _setups() -> dict[str, Any]:
    """How the page sets up a match of each game that has a score sheet (its ``keeper_setup``)."""
    out = {}
    for info in GAMES.values():
        sheet = scoresheet(info.id)
        if sheet is not None and sheet.keeper_setup:
            out[info.id] = dict(sheet.keeper_setup)
    return out


def _entry(state: Any, summary: dict[str, Any], players: list[str] | None) -> dict[str, Any]:
    """The next deal's entry form and a line for each played deal, by the game's score sheet
    (data the page draws: it holds no per-game code)."""
    sheet = scoresheet(state.game_id)
    if sheet is None:
        return {"form": None, "described": []}
    names = players or []

    def seat_name(s: int) -> str:
        return names[s] if s < len(names) and names[s] else f"#{s}"

    form = None if state.is_over or sheet.keeper_form is None else sheet.keeper_form(state)
    described = [
        sheet.describe(d, seat_name) if sheet.describe is not None and d.get("outcome") == "played" else None
        for d in summary["deals"]
    ]
    return {"form": form, "described": described}


def keeper_router() -> APIRouter:
    router = APIRouter()

    @router.get("/keeper", response_class=HTMLResponse)
    async def keeper_page() -> HTMLResponse:
        return HTMLResponse((STATIC / "keeper.html").read_text(encoding="utf-8"), headers={"Cache-Control": "no-cache"})

    @router.get("/api/keeper/terms")
    async def terms(lang: str = "en") -> dict[str, Any]:
        if lang not in ("ja", "en"):
            raise HTTPException(400, "lang is ja or en")
        words = {k: t(k, lang) for k in TERMS}
        games = {g.id: g.name_ja if lang == "ja" else g.name_en for g in GAMES.values()}
        return {"lang": lang, "terms": words, "games": games, "setup": _setups()}

    @router.post("/api/keeper/sheet")
    async def sheet(request: Request) -> dict[str, Any]:
        body = await request.body()
        if len(body) > 1_000_000:
            raise HTTPException(413, "a score keeper's record may be at most 1 MB")
        try:
            rec = records.loads(body)
            state = records.replay(rec)
        except KirifudaError as exc:
            raise HTTPException(400, {"message": str(exc), "deal": getattr(exc, "deal", None)}) from None
        n = state.num_players
        summary = state.summary()
        return {
            "summary": summary,
            "next": _next(state),
            "players": n,
            **_entry(state, summary, rec.players),
            "units": [state.unit_name(u, "en") for u in range(len(state.summary()["totals"]))],
            "units_ja": [state.unit_name(u, "ja") for u in range(len(state.summary()["totals"]))],
        }

    return router
