"""A club's online tables (クラブの卓), and rated tables (レート戦).

A signed-in member may open a table **for a club** (``POST /api/tables`` with ``club``): the
club's members find it in the club's tables list (``GET /api/clubs/{id}/tables``), and when the
match ends its record is saved to the club's matches by itself, once.

A club's table may be **rated** (``rated: true``; a rated table is always a club's, since
ratings are a club's leaderboard).  Then:

- each human seat is taken by a **signed-in member** of the club: the first member who opens
  the seat's invitation link while signed in holds it; a guest, a non-member, another account or
  a member already seated elsewhere at the table is refused (a WebSocket ``error`` whose code
  says why: ``rated_sign_in``, ``rated_member``, ``rated_taken``, ``rated_twice``);
- hints are off (the coach's hint API refuses with code ``rated``);
- when the match ends it is saved to the club **rated**, so the club's leaderboard counts it;
- a player who **abandons** the match — gone past the grace period — is replaced by the
  stand-in bot, which finishes the match; the player cannot take the seat back
  (``rated_abandoned``) and the match counts as their loss (the first seat to abandon; ranked
  last by :class:`kirifuda.ratings.MatchResult`); so does a member's seat the host hands to a bot.

A rated match is saved unrated when it cannot be rated fairly: a human seat never taken by an
account, or a match the server cut at its deal limit without anyone abandoning.

The facts live in the accounts' database tables ``kf_acc_tables`` (club, rated, the seat that
abandoned, the saved match) and ``kf_acc_table_players`` (which account holds which seat).
"""

from __future__ import annotations

import asyncio
import json
import logging
import uuid
from dataclasses import dataclass, field
from typing import Any, Awaitable, Callable, Mapping

from fastapi import APIRouter, Cookie, HTTPException, Request
from sqlalchemy import Boolean, Column, Float, Integer, String, Table, UniqueConstraint, and_, insert, select, update
from sqlalchemy.exc import IntegrityError

from .. import record as records
from ..games import GAMES
from ..i18n import add_terms, t
from . import clubwords  # noqa: F401  (the refusals' words)
from .accounts import _LEVEL_NAMES, COOKIE, Accounts, clubs, matches, members, metadata, presets, users
from .protocol import ProtocolError

__all__ = ["ClubTables", "club_tables_router", "club_tables", "table_players"]

log = logging.getLogger("kirifuda.clubs")

club_tables = Table(
    "kf_acc_tables",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("club_id", String(32), nullable=False, index=True),
    Column("rated", Boolean, nullable=False),
    Column("created_by", String(32), nullable=False),
    Column("created", Float, nullable=False),
    Column("abandoned_by", Integer, nullable=True),  # the first seat gone past its grace (rated)
    Column("match_id", String(32), nullable=True),  # the club match saved when it ended (once)
)
table_players = Table(
    "kf_acc_table_players",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("user_id", String(32), nullable=False),
    UniqueConstraint("table_id", "user_id", name="kf_acc_table_players_once"),
)

add_terms(
    {
        "clubs.api.sign_in": ("クラブの卓を作るにはサインインしてください", "sign in to open a club's table"),
        "clubs.api.no_club": ("クラブ {club} はありません", "no club {club!r}"),
        "clubs.api.not_member": (
            "クラブ「{club}」の会員だけがその卓を作れます",
            "only members of the club {club!r} open its tables",
        ),
        "clubs.api.rated_club": (
            "レート戦の卓はクラブの卓です: クラブを選んでください (レーティングはクラブの順位表です)",
            "a rated table is a club's: choose the club (ratings are a club's leaderboard)",
        ),
        "clubs.api.rated_humans": (
            "レート戦の卓には人間の席が少なくとも一つ要ります",
            "a rated table has at least one human seat",
        ),
    }
)


def _lang(request: Request) -> str:
    q = request.query_params.get("lang")
    if q in ("ja", "en"):
        return q
    return "ja" if request.headers.get("accept-language", "").lower().startswith("ja") else "en"


def _refuse(status: int, code: str, lang: str, **kwargs: Any) -> HTTPException:
    return HTTPException(status, {"code": code, "message": t(f"clubs.api.{code}", lang, **kwargs)})


@dataclass
class TableMeta:
    """What the server keeps of a club's table."""

    club_id: str
    club_name: str
    rated: bool
    created_by: str
    abandoned_by: int | None = None
    match_id: str | None = None
    players: dict[int, tuple[str, str]] = field(default_factory=dict)
    """Seat → (account id, account name) of a rated table's seats taken."""

    def tags(self) -> dict[str, Any]:
        """What anyone who sees the table learns: that it is a club's, whether rated (not which
        club: only its members see a club; they find it in the club's tables list)."""
        return {"club_table": True, "rated": self.rated}


@dataclass(frozen=True)
class Admission:
    """A new table's club, checked: the club and whether the table is rated."""

    club_id: str
    club_name: str
    rated: bool
    user_id: str


class ClubTables:
    """The clubs' tables of one server: admission, seats, abandonment and saving the match."""

    def __init__(self, acc: Accounts, get_tables: Callable[[], Mapping[str, Any]] | None) -> None:
        self.acc = acc
        self.get_tables = get_tables
        self.meta: dict[str, TableMeta] = {}
        self._loaded = False
        self._load_lock = asyncio.Lock()
        self._tasks: set[asyncio.Task[None]] = set()

    # -- memory <-> database -------------------------------------------------------------------
    async def load(self) -> None:
        """Read every club table's facts once (at the first table the server reloads)."""
        if self._loaded:
            return
        async with self._load_lock:
            if self._loaded:
                return
            engine = await self.acc.engine()
            async with engine.connect() as conn:
                rows = (
                    (
                        await conn.execute(
                            select(club_tables, clubs.c.name).select_from(
                                club_tables.join(clubs, clubs.c.id == club_tables.c.club_id)
                            )
                        )
                    )
                    .mappings()
                    .all()
                )
                seats = (
                    (
                        await conn.execute(
                            select(table_players, users.c.name).select_from(
                                table_players.join(users, users.c.id == table_players.c.user_id)
                            )
                        )
                    )
                    .mappings()
                    .all()
                )
            for r in rows:
                self.meta.setdefault(
                    r["table_id"],
                    TableMeta(r["club_id"], r["name"], r["rated"], r["created_by"], r["abandoned_by"], r["match_id"]),
                )
            for s in seats:
                m = self.meta.get(s["table_id"])
                if m is not None:
                    m.players[s["seat"]] = (s["user_id"], s["name"])
            self._loaded = True
            live = self.get_tables() if self.get_tables else {}
            for table_id, m in self.meta.items():
                table = live.get(table_id)
                if table is not None:
                    table.tags.update(m.tags())
                    if table.over and m.match_id is None:
                        self._spawn(self.settle(table))

    def _spawn(self, coro: Any) -> None:
        async def guarded() -> None:
            try:
                await coro
            except Exception:
                log.exception("a club table's save or abandonment failed (a restart retries the save)")

        task = asyncio.get_running_loop().create_task(guarded())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def wait(self) -> None:
        """Wait for the saves and abandonments under way (tests)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    # -- a new table ---------------------------------------------------------------------------
    async def admit(self, request: Request, body: Any) -> Admission | None:
        """Check a new table's ``club`` and ``rated`` (HTTPException, in words, if refused)."""
        club_id: str | None = getattr(body, "club", None)
        rated = bool(getattr(body, "rated", False))
        lang = _lang(request)
        if club_id is None:
            if rated:
                raise _refuse(400, "rated_club", lang)
            return None
        user = await self.acc.user(request.cookies.get(COOKIE))
        if user is None:
            raise _refuse(401, "sign_in", lang)
        engine = await self.acc.engine()
        async with engine.connect() as conn:
            club = (await conn.execute(select(clubs.c.name).where(clubs.c.id == club_id))).scalar()
            member = (
                await conn.execute(
                    select(members.c.user_id).where(and_(members.c.club_id == club_id, members.c.user_id == user["id"]))
                )
            ).first()
        if club is None:
            raise _refuse(404, "no_club", lang, club=club_id)
        if member is None:
            raise _refuse(403, "not_member", lang, club=club)
        if rated and not any(s.kind == "human" for s in body.seats):
            raise _refuse(400, "rated_humans", lang)
        return Admission(club_id, club, rated, user["id"])

    async def register(self, table: Any, club: Admission | None) -> None:
        """Keep a new table's club (after :meth:`admit`)."""
        if club is None:
            return
        await self.load()
        engine = await self.acc.engine()
        async with engine.begin() as conn:
            await conn.execute(
                insert(club_tables).values(
                    table_id=table.id,
                    club_id=club.club_id,
                    rated=club.rated,
                    created_by=club.user_id,
                    created=self.acc.clock(),
                )
            )
        m = self.meta[table.id] = TableMeta(club.club_id, club.club_name, club.rated, club.user_id)
        table.tags.update(m.tags())
        table.broadcast()

    # -- seats ---------------------------------------------------------------------------------
    async def seat_gate(
        self,
        table: Any,
        seat: int,
        cookie: str | None,
        who: Callable[[], Awaitable[Mapping[str, Any] | None]] | None = None,
    ) -> str | None:
        """Before a seat's token joins: ``None`` at any table but a rated one; there the seat's
        account's name (the seat is taken on first join), or ProtocolError saying why not.

        The account is the sign-in cookie's, or ``who()``'s: the identity a cluster's gateway
        forwarded with a relayed hello (kirifuda.server.cluster), checked here exactly as a
        direct connection's."""
        if self._loaded and not table.tags.get("rated"):
            return None  # no database at a hello but a rated table's
        if not self._loaded:
            try:
                await self.load()
            except Exception as exc:
                log.warning("the clubs' tables could not be read (%s)", type(exc).__name__)
                raise ProtocolError(
                    "unavailable",
                    "the table could not check its seats (its database is busy or down): try again in a moment",
                ) from None
        m = self.meta.get(table.id)
        if m is None or not m.rated:
            return None
        if seat == m.abandoned_by:
            raise ProtocolError("rated_abandoned", t("web.err.rated_abandoned", "en"))
        user = await (who() if who is not None else self.acc.user(cookie))
        if user is None:
            raise ProtocolError("rated_sign_in", t("web.err.rated_sign_in", "en"))
        held = m.players.get(seat)
        if held is not None:
            if held[0] != user["id"]:
                raise ProtocolError("rated_taken", t("web.err.rated_taken", "en"))
            return held[1]
        if any(uid == user["id"] for uid, _ in m.players.values()):
            raise ProtocolError("rated_twice", t("web.err.rated_twice", "en"))
        engine = await self.acc.engine()
        async with engine.connect() as conn:
            member = (
                await conn.execute(
                    select(members.c.user_id).where(
                        and_(members.c.club_id == m.club_id, members.c.user_id == user["id"])
                    )
                )
            ).first()
        if member is None:
            raise ProtocolError("rated_member", t("web.err.rated_member", "en"))
        try:
            async with engine.begin() as conn:
                await conn.execute(insert(table_players).values(table_id=table.id, seat=seat, user_id=user["id"]))
        except IntegrityError:  # taken at the same moment by another connection
            raise ProtocolError("rated_taken", t("web.err.rated_taken", "en")) from None
        m.players[seat] = (user["id"], user["name"])
        return str(user["name"])

    # -- the table's events --------------------------------------------------------------------
    def on_table(self, table: Any, kind: str, seat: int | None) -> None:
        """A table hook (:attr:`kirifuda.server.tables.LiveTable.hooks`)."""
        if kind == "loaded":
            if not self._loaded:
                self._spawn(self.load())
            return
        m = self.meta.get(table.id)
        if m is None:
            return
        if kind == "over":
            self._spawn(self.settle(table))
        elif kind == "away" and seat is not None and m.rated and m.abandoned_by is None and not table.over:
            m.abandoned_by = seat
            self._spawn(self._abandon(table.id, seat))

    async def _abandon(self, table_id: str, seat: int) -> None:
        engine = await self.acc.engine()
        async with engine.begin() as conn:
            await conn.execute(
                update(club_tables)
                .where(and_(club_tables.c.table_id == table_id, club_tables.c.abandoned_by.is_(None)))
                .values(abandoned_by=seat)
            )
        log.info("table %s: seat %d abandoned the rated match: a bot finishes it", table_id, seat)

    def players_of(self, table: Any, m: TableMeta) -> list[str]:
        """The record's names: a seat taken by an account, its name (even if the host gave it
        to a bot since); a bot's seat, its level."""
        names = table.players()
        return [
            m.players[i][1]
            if i in m.players
            else _LEVEL_NAMES.get(s["bot"], s["bot"])
            if s.get("kind") == "bot"
            else names[i]
            for i, s in enumerate(table.seats)
        ]

    async def settle(self, table: Any) -> str | None:
        """Save an ended club table's match to the club, once (rated if it is and can be).
        Returns the match's id, or None if it was saved already."""
        m = self.meta.get(table.id)
        if m is None or not table.over:
            return None
        rec = table.record()
        rec.players = self.players_of(table, m)
        if m.rated and m.abandoned_by is None:  # a member's seat the host gave to a bot: left it
            m.abandoned_by = next(
                (i for i, s in enumerate(table.seats) if i in m.players and s.get("kind") == "bot"), None
            )
        humans = [i for i, s in enumerate(table.seats) if s.get("kind") != "bot"]
        rated = m.rated and all(i in m.players for i in humans) and (table.state.is_over or m.abandoned_by is not None)
        match_id = uuid.uuid4().hex[:12]
        engine = await self.acc.engine()
        async with engine.begin() as conn:
            res = await conn.execute(
                update(club_tables)
                .where(and_(club_tables.c.table_id == table.id, club_tables.c.match_id.is_(None)))
                .values(match_id=match_id)
            )
            if res.rowcount != 1:
                return None
            await conn.execute(
                update(club_tables).where(club_tables.c.table_id == table.id).values(abandoned_by=m.abandoned_by)
            )
            await conn.execute(
                insert(matches).values(
                    id=match_id,
                    club_id=m.club_id,
                    game=rec.game,
                    record=records.dumps(rec),
                    rated=rated,
                    abandoned_by=m.abandoned_by if rated else None,
                    saved_by=m.created_by,
                    created=self.acc.clock(),
                )
            )
        m.match_id = match_id
        log.info("table %s: its match was saved to club %s (%s)", table.id, m.club_id, "rated" if rated else "unrated")
        return match_id


def club_tables_router(acc: Accounts, service: ClubTables, club_for: Callable[..., Any]) -> APIRouter:
    """``GET /api/clubs/{id}/tables`` (a club's open tables) and ``GET /api/me/presets`` (the
    presets of my clubs, then each game's standard rules: what the lobby offers, in order)."""
    router = APIRouter()

    @router.get("/api/clubs/{club_id}/tables")
    async def tables_of_club(club_id: str, kf_session: str | None = Cookie(None)) -> list[dict[str, Any]]:
        user = await acc.require(kf_session)
        await club_for(club_id, user)
        await service.load()
        live = service.get_tables() if service.get_tables else {}
        out = []
        for table_id, m in service.meta.items():
            table = live.get(table_id)
            if m.club_id != club_id or table is None or table.over:
                continue
            info = table.summary_info()
            info["club"] = {"id": m.club_id, "name": m.club_name}
            info["free"] = [
                i for i, s in enumerate(table.seats) if s.get("kind") == "human" and (not m.rated or i not in m.players)
            ]
            info["created"] = table.created
            out.append(info)
        out.sort(key=lambda x: -x["created"])
        return out

    @router.get("/api/me/presets")
    async def my_presets(kf_session: str | None = Cookie(None)) -> list[dict[str, Any]]:
        user = await acc.user(kf_session)
        out: list[dict[str, Any]] = []
        if user is not None:
            engine = await acc.engine()
            async with engine.connect() as conn:
                rows = (
                    (
                        await conn.execute(
                            select(presets, clubs.c.name.label("club_name"))
                            .select_from(
                                presets.join(clubs, clubs.c.id == presets.c.club_id).join(
                                    members, members.c.club_id == clubs.c.id
                                )
                            )
                            .where(members.c.user_id == user["id"])
                            .order_by(clubs.c.name, presets.c.created, presets.c.name)
                        )
                    )
                    .mappings()
                    .all()
                )
            out = [
                {
                    "club": {"id": r["club_id"], "name": r["club_name"]},
                    "name": r["name"],
                    "game": r["game"],
                    "options": json.loads(r["options"]),
                }
                for r in rows
            ]
        out += [{"club": None, "name": None, "game": g, "options": {}} for g in GAMES]
        return out

    return router
