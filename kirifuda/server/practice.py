"""Practice tables (練習卓) over HTTP: one human with bots, hints on, undo, replaying a deal, and
deals of a chosen kind.

A table is a practice table when it is created with ``"practice": {"kind": KIND|null}`` in the
body of ``POST /api/tables`` (:func:`check_practice`: exactly one human seat, hints not off, a
kind the game declares).  It is never rated and never saved to a club.

Its event log (``kirifuda.server.store``) gains two events, replayed on a restart like the others:

- ``{"rewind": {"deal": d, "actions": a}}``: the match goes back to deal ``d`` after its first
  ``a`` actions, the later deals dropped (an undo, or a replay);
- ``{"kind": KIND|null}``: the deals from the next one on are of that kind (or ordinary).

The table's state is always the engine's replay of a record, so the record of a practice table
(``GET /api/tables/{id}/record``) is its **final line**: what was taken back is not in it.  After
a rewind the bots are made anew and shown the seat's views of that line only, so none remembers
a card of a line taken back.  The deals after a rewind are dealt from the secret with the number
of rewinds so far, so a deal played again after them is a new one.

Endpoints (``GET /api/practice/kinds``: every game's kinds, named in both languages; the others
with ``{"token": str, "lang": "en"|"ja", …}``, the human seat's token):

- ``POST /api/tables/{id}/practice`` — the table's practice status: the kind, the kinds of the
  game, whether the last deal was of the kind, whether an undo is allowed now and why (not),
  and for each deal how many tricks were led (to replay from one);
- ``POST /api/tables/{id}/undo`` (``version`` optional) — take back the seat's last decision of
  the deal with the bots' answers since, where :func:`kirifuda.coach.may_undo` allows it;
- ``POST /api/tables/{id}/replay`` (``deal``: 0-based, default the current one; ``trick``: 0
  for the deal's start, else the trick to play again from) — play a deal again;
- ``POST /api/tables/{id}/kind`` (``kind``: a key or ``null``) — the kind of the next deals.

Refusals are ``{"detail": {"code", "message"}}`` in the request's language: ``malformed`` (400),
``unknown_table`` (404), ``unauthenticated`` (403), ``not_practice`` (403), ``stale`` (409),
``undo_refused`` (409, the rule's reason), ``bad_point`` (400: no such deal or trick),
``unknown_kind`` (400), ``unavailable`` (503: the database).
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING, Any, Literal

from fastapi import APIRouter, HTTPException, Request
from pydantic import BaseModel, ConfigDict, StrictInt, StrictStr, ValidationError

from ..coach.kinds import DealKind, deal_kinds, deal_of_kind, find_kind
from ..coach.practice import may_undo, rewound, trick_start
from ..errors import KirifudaError, OptionError
from ..game import GameState
from ..i18n import add_terms, t
from .protocol import LastDealCache, ProtocolError

if TYPE_CHECKING:
    from .tables import LiveTable, TableManager

__all__ = ["PracticeTable", "check_practice", "router"]

log = logging.getLogger("kirifuda.server")

KIND_DEAL_SECONDS = 0.3
"""A deal of a kind reaches the table no sooner than this after dealing began.  Testing every
candidate, always, makes the work the same whatever the cards but for the small part each
candidate's own test takes (a bidding that ends sooner); waiting for a fixed time, longer than
dealing takes (under 0.2 s of one core: docs/benchmarks.md), leaves no difference to time."""

add_terms(
    {
        "practice.api.malformed": ("リクエストの形が正しくありません: {what}", "malformed request: {what}"),
        "practice.api.unknown_table": ("卓 {table} はありません", "no table {table!r}"),
        "practice.api.unauthenticated": (
            "この招待リンクはこの卓では有効ではありません",
            "this invitation link is not valid for this table",
        ),
        "practice.api.not_practice": (
            "練習卓ではありません (取り消しや配り直しは練習卓だけです)",
            "this is not a practice table: undo and replay are for practice tables",
        ),
        "practice.api.stale": (
            "卓は状態 {now} です ({asked} ではありません): 見直してください",
            "the table is at state {now}, not {asked}: look again and retry",
        ),
        "practice.api.undo_refused": ("取り消せません: {reason}", "no undo: {reason}"),
        "practice.api.bad_point": ("その場面には戻れません: {what}", "cannot go back there: {what}"),
        "practice.api.unknown_kind": ("{what}", "{what}"),
        "practice.api.unavailable": (
            "保存できませんでした (データベース): 何も変わっていません。少し待ってもう一度",
            "the table could not save this (its database): nothing changed; retry shortly",
        ),
        "practice.api.one_human": (
            "練習卓の人間の席はちょうど 1 つです ({n} ではなく)",
            "a practice table has exactly one human seat, not {n}",
        ),
        "practice.api.hints_on": (
            "練習卓ではヒントは常に使えます (hints: false は不可)",
            "a practice table always allows hints: not hints: false",
        ),
        "practice.api.practice_setting": (
            'practice は {{"kind": 配り方または null}} です',
            'practice must be {{"kind": a kind or null}}',
        ),
        # the page's words (static/practice.js)
        "web.practice.title": ("練習", "Practice"),
        "web.practice.lobby": ("練習卓 (あなたとボットだけ)", "Practice table (you and bots)"),
        "web.practice.lobby_doc": (
            "取り消し・やり直し・配り方を選べます。人間の席は 1 つ。レーティングにもクラブの成績にも数えません",
            "Undo, play a deal again, choose the kind of deals. One human seat. "
            "Never rated, never counted in a club's statistics",
        ),
        "web.practice.one_human": (
            "練習卓の人間の席はちょうど 1 つです (いまは {n})",
            "A practice table has exactly one human seat (now {n})",
        ),
        "web.practice.kind": ("配り方", "Deals"),
        "web.practice.kind_none": ("ふつうの配り", "ordinary deals"),
        "web.practice.kind_next": ("次の回から", "from the next deal"),
        "web.practice.kind_set": ("次の回から: {kind}", "From the next deal: {kind}"),
        "web.practice.undo": ("取り消し", "Undo"),
        "web.practice.undone": ("取り消しました: {what}", "Taken back: {what}"),
        "web.practice.again": ("この回をもう一度", "Play this deal again"),
        "web.practice.again_prev": ("前の回をもう一度", "Play the last deal again"),
        "web.practice.from": ("どこから", "From"),
        "web.practice.from_start": ("最初から", "its start"),
        "web.practice.from_trick": ("第 {n} トリック", "trick {n}"),
        "web.practice.replayed": ("やり直します", "Playing it again"),
        "web.practice.unrated": (
            "練習卓: レーティングにもクラブの成績にも数えません",
            "Practice table: never rated, never counted in a club's statistics",
        ),
    }
)


def _refuse(status: int, code: str, lang: str, **kwargs: Any) -> HTTPException:
    return HTTPException(status, {"code": code, "message": t(f"practice.api.{code}", lang, **kwargs)})


def check_practice(game: str, seats: list[dict[str, Any]], settings: dict[str, Any]) -> None:
    """A practice table's settings, checked when it is created: raises OptionError naming what
    is wrong (a practice table is one human with bots, hints on, a kind the game declares)."""
    spec = settings.get("practice")
    if not isinstance(spec, dict) or set(spec) - {"kind"}:
        raise OptionError(t("practice.api.practice_setting", "en"))
    humans = sum(1 for s in seats if s.get("kind") == "human")
    if humans != 1:
        raise OptionError(t("practice.api.one_human", "en", n=humans))
    if settings.get("hints") is False:
        raise OptionError(t("practice.api.hints_on", "en"))
    kind = spec.get("kind")
    if kind is not None:
        if not isinstance(kind, str):
            raise OptionError(t("practice.api.practice_setting", "en"))
        try:
            find_kind(game, kind)
        except KirifudaError as exc:
            raise OptionError(str(exc)) from None


class PracticeTable:
    """A live practice table's own part: its seat, its kind, its rewinds."""

    def __init__(self, table: "LiveTable", seat: int, kind: str | None) -> None:
        self.table = table
        self.seat = seat
        """The one human seat."""
        self.kind = kind
        """The kind of the deals to come (a key of the game's kinds), or None: ordinary."""
        self.rewinds = 0
        """Rewinds so far (undo and replay): the deals after them are dealt anew."""
        self.found = True
        """Whether the last deal dealt was of the kind (False: none found, an ordinary deal)."""

    @classmethod
    def of(cls, table: "LiveTable") -> "PracticeTable | None":
        spec = table.settings.get("practice")
        if not isinstance(spec, dict):
            return None
        humans = [s for s, spec_ in enumerate(table.seats) if spec_["kind"] == "human"]
        kind = spec.get("kind")
        return cls(table, humans[0] if humans else 0, kind if isinstance(kind, str) else None)

    def public(self) -> dict[str, Any]:
        """What everyone may know (the kind is said on the table)."""
        return {"seat": self.seat, "kind": self.kind}

    def _kind(self) -> DealKind | None:
        if self.kind is None:
            return None
        try:
            return find_kind(self.table.info.id, self.kind)
        except KirifudaError:
            return None

    # -- events --------------------------------------------------------------------------
    def replay_event(self, ev: dict[str, Any]) -> bool:
        """Apply a practice event to the table (True), or leave it to the table (False)."""
        if "rewind" in ev:
            r = ev["rewind"]
            self._rewound(rewound(self.table.state, int(r["deal"]), int(r["actions"])))
            return True
        if "kind" in ev:
            kind = ev["kind"]
            self.kind = kind if isinstance(kind, str) else None
            return True
        return False

    def _rewound(self, state: GameState) -> None:
        table = self.table
        table.state = state
        table._views = {}
        table._finished_cache = None
        table.last_deal_cache = LastDealCache()
        table.cut = False
        self.rewinds += 1
        self._fresh_bots()

    def _fresh_bots(self) -> None:
        """The bots made anew and shown their seats' views of the line as it now stands (none
        remembers a card of a line taken back); stand-ins too, when next needed."""
        from .tables import _bot

        table = self.table
        table._standins.clear()
        table._following.clear()
        for seat in list(table._bots):
            table._bots[seat] = _bot(table.seats[seat].get("bot", "default"), table.info.id)
        watchers = {s: b for s, b in table._bots.items() if getattr(b, "observe", None) is not None}
        if not watchers:
            return
        rec = table.record()
        state = rec.new_state()
        for deal in rec.deals:
            state.deal(deal.hands, deal.rest)
            for s, b in watchers.items():
                table._show(s, b, state.view(s))
            for data in deal.actions:
                state.apply(table.info.action_from_json(data, data["seat"]), data["seat"])
                for s, b in watchers.items():
                    table._show(s, b, state.view(s))

    async def deal(self, new: GameState) -> None:
        """Deal ``new`` (a copy of the table's state that needs a deal): of the kind where one
        is chosen (:func:`kirifuda.coach.kinds.deal_of_kind`, in a worker thread), arriving no
        sooner than :data:`KIND_DEAL_SECONDS` after dealing began."""
        table = self.table
        seed = f"{table.secret}:{new.deal_number}" + (f":r{self.rewinds}" if self.rewinds else "")
        kind = self._kind()
        start = time.monotonic()
        found = await asyncio.get_running_loop().run_in_executor(None, deal_of_kind, new, kind, self.seat, seed)
        if kind is not None:  # the same wait whatever the cards
            await asyncio.sleep(max(0.0, KIND_DEAL_SECONDS - (time.monotonic() - start)))
        new.deal(found.hands, found.rest)
        self.found = found.found

    async def commit(self, event: dict[str, Any], new: GameState | None) -> None:
        """Write a practice event, then (only then) apply it: the rewound state ``new``, or
        the kind; every connection is told.  ProtocolError (``unavailable``): nothing changed."""
        table = self.table
        await table._store(event, False, table.limits.commit_retry_seconds)
        table.events.append(event)
        if new is not None:
            self._rewound(new)
        else:
            self.replay_event(event)
            table._views = {}
        table._timed_out = None
        table._arm_timer()
        table.broadcast()

    # -- status --------------------------------------------------------------------------
    def status(self, lang: str) -> dict[str, Any]:
        state = self.table.state
        verdict = may_undo(state, self.seat, [self.seat])
        summaries = state.deal_summaries()
        deals = []
        for i, d in enumerate(summaries):
            led = len(d.get("tricks") or ())
            if i == len(summaries) - 1 and not state.needs_deal and not state.is_over:
                led = len(getattr(state, "tricks", ())) + (1 if getattr(state.view(None), "trick", None) else 0)
            deals.append({"deal": i, "tricks": led})
        kind = self._kind()
        note = None
        if kind is not None and not self.found:
            note = t("practice.kind.not_found", lang, tries=kind.tries, kind=kind.label(lang))
        return {
            "table": self.table.id,
            "version": self.table.version,
            "seat": self.seat,
            "kind": self.kind,
            "kinds": [k.to_json() for k in deal_kinds(self.table.info.id)],
            "found": self.found,
            "kind_note": note,
            "undo": {"allowed": verdict.allowed, "reason": verdict.reason(lang)},
            "deals": deals,
        }


# -- requests ---------------------------------------------------------------------------------


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")
    token: StrictStr
    lang: Literal["en", "ja"] = "en"


class UndoBody(_Body):
    version: StrictInt | None = None


class ReplayBody(_Body):
    deal: StrictInt | None = None
    trick: StrictInt = 0
    version: StrictInt | None = None


class KindBody(_Body):
    kind: StrictStr | None


def _lang(request: Request) -> Literal["en", "ja"]:
    return "ja" if request.query_params.get("lang") == "ja" else "en"


async def _parse(request: Request, model: type[_Body]) -> _Body:
    lang = _lang(request)
    try:
        raw = await request.body()
        if len(raw) > 4096:
            raise ValueError("at most 4096 bytes")
        return model.model_validate_json(raw)
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(str(p) for p in err.get("loc", ())) or "body"
        raise _refuse(400, "malformed", lang, what=f"{where}: {err.get('msg', 'invalid')}") from None
    except ValueError as exc:
        raise _refuse(400, "malformed", lang, what=str(exc)) from None


def _practice(request: Request, table_id: str, body: _Body) -> PracticeTable:
    manager: TableManager = request.app.state.manager
    table = manager.tables.get(table_id)
    if table is None:
        raise _refuse(404, "unknown_table", body.lang, table=table_id)
    seat = table.seat_of_token(body.token)
    if seat is None:
        raise _refuse(403, "unauthenticated", body.lang)
    if table.practice is None or table.practice.seat != seat:
        raise _refuse(403, "not_practice", body.lang)
    return table.practice


def _check_version(p: PracticeTable, version: int | None, lang: str) -> None:
    if version is not None and version != p.table.version:
        raise _refuse(409, "stale", lang, asked=version, now=p.table.version)


async def _commit(p: PracticeTable, event: dict[str, Any], new: GameState | None, lang: str) -> None:
    try:
        await p.commit(event, new)
    except ProtocolError:
        raise _refuse(503, "unavailable", lang) from None


router = APIRouter()


@router.get("/api/practice/kinds")
async def api_kinds() -> dict[str, list[dict[str, Any]]]:
    """Every game's practice deal kinds, with their names in both languages (for the lobby)."""
    from ..games import GAMES

    return {game: [k.to_json() for k in deal_kinds(game)] for game in GAMES}


@router.post("/api/tables/{table_id}/practice")
async def api_practice(request: Request, table_id: str) -> dict[str, Any]:
    body = await _parse(request, _Body)
    p = _practice(request, table_id, body)
    return p.status(body.lang)


@router.post("/api/tables/{table_id}/undo")
async def api_undo(request: Request, table_id: str) -> dict[str, Any]:
    body = await _parse(request, UndoBody)
    assert isinstance(body, UndoBody)
    p = _practice(request, table_id, body)
    table = p.table
    async with table.lock:
        _check_version(p, body.version, body.lang)
        verdict = may_undo(table.state, p.seat, [p.seat])
        if not verdict.allowed or verdict.keep is None:
            raise _refuse(409, "undo_refused", body.lang, reason=verdict.reason(body.lang))
        deal = len(table.state.record_deals()) - 1
        new = rewound(table.state, deal, verdict.keep)
        await _commit(p, {"rewind": {"deal": deal, "actions": verdict.keep}}, new, body.lang)
        undone = verdict.params["action"].label(body.lang)
    table.kick()
    return {**p.status(body.lang), "undone": undone}


@router.post("/api/tables/{table_id}/replay")
async def api_replay(request: Request, table_id: str) -> dict[str, Any]:
    body = await _parse(request, ReplayBody)
    assert isinstance(body, ReplayBody)
    p = _practice(request, table_id, body)
    table = p.table
    async with table.lock:
        _check_version(p, body.version, body.lang)
        deal = len(table.state.record_deals()) - 1 if body.deal is None else body.deal
        try:
            keep = trick_start(table.state, deal, body.trick, body.lang)
            new = rewound(table.state, deal, keep, body.lang)
        except KirifudaError as exc:
            raise _refuse(400, "bad_point", body.lang, what=str(exc)) from None
        await _commit(p, {"rewind": {"deal": deal, "actions": keep}}, new, body.lang)
    table.kick()
    return p.status(body.lang)


@router.post("/api/tables/{table_id}/kind")
async def api_kind(request: Request, table_id: str) -> dict[str, Any]:
    body = await _parse(request, KindBody)
    assert isinstance(body, KindBody)
    p = _practice(request, table_id, body)
    if body.kind is not None:
        try:
            find_kind(p.table.info.id, body.kind, body.lang)
        except KirifudaError as exc:
            raise _refuse(400, "unknown_kind", body.lang, what=str(exc)) from None
    async with p.table.lock:
        await _commit(p, {"kind": body.kind}, None, body.lang)
    p.table.kick()
    return p.status(body.lang)
