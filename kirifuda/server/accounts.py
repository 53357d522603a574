"""Accounts, clubs, club matches, ratings and profiles of the web app.

An account is optional: guests still play with invitation links.  A player signs up with a name
and a password (hashed with argon2 by ``argon2-cffi``; the password itself is never stored nor
logged) and is then signed in by a **session cookie** — random, ``HttpOnly``, ``Secure``,
``SameSite=Lax`` — whose SHA-256 alone is stored, with an expiry; a player can sign out (the
session is revoked) or revoke every session of theirs.  Login is rate-limited per name and per
client address: after :data:`LOGIN_FAILURES` failures within :data:`LOGIN_WINDOW` seconds, even a
right password is refused until the window has passed.

A **club** (クラブ) has an administrator (who created it), members (whom the administrator adds
by account name) and named presets of local rules ("KIT 2002 rules"), listed first in its lobby.
Its members save the club's matches — the records of the score keeper's physical matches or of
online tables — marked rated or not; the club's leaderboard per game is the OpenSkill rating
(:mod:`kirifuda.ratings`) over its rated matches in the order they were saved.  A member's
profile (theirs only) lists their matches with replay links and their statistics by game and
role (:mod:`kirifuda.stats`), counted from the records.  A club administrator sees members'
names, never a password, a session or a seat's token, and cannot act for anyone.

The tables live in the web app's database (``kf_acc_*``, created on first use, apart from the
table store's schema).  HTTP (JSON unless said):

- ``POST /api/accounts`` {name, password} · ``POST /api/login`` · ``POST /api/logout`` ·
  ``POST /api/sessions/revoke`` (every session of mine) · ``GET /api/me``
- ``GET /api/me/profile`` (my matches and statistics) · ``GET/POST /api/me/seats`` (my seats'
  links at online tables, to return to them from any device)
- ``POST /api/clubs`` {name} · ``GET /api/clubs`` (mine) · ``GET /api/clubs/{id}`` ·
  ``POST /api/clubs/{id}/members`` {name} · ``DELETE /api/clubs/{id}/members/{name}`` ·
  ``PUT/DELETE /api/clubs/{id}/presets/{name}`` {game, options}
- ``POST /api/clubs/{id}/matches`` {record, rated, abandoned_by} · ``POST /api/clubs/{id}/tables/{tid}``
  {rated, abandoned_by} (an online table's match) · ``GET /api/clubs/{id}/matches``
  · ``GET /api/clubs/{id}/matches/{mid}/record`` · ``GET /api/clubs/{id}/leaderboard?game=``
- ``GET /api/clubs/{id}/export.zip`` (every match's record) ·
  ``GET /api/clubs/{id}/standings.csv?game=``
"""

from __future__ import annotations

import asyncio
import csv
import hashlib
import io
import json
import logging
import os
import secrets
import time
import uuid
import zipfile
from collections import deque
from typing import Any, Callable, Mapping

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from fastapi import APIRouter, Cookie, HTTPException, Request, Response
from pydantic import BaseModel, Field
from sqlalchemy import (
    Boolean,
    Column,
    Float,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    and_,
    delete,
    insert,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError

from .. import record as records
from ..errors import KirifudaError, OptionError
from ..games import GAMES
from ..ratings import Ratings, result_of
from ..stats import player_stats
from ..i18n import t
from .botnames import BOT_NAME_CODE, mimics_bot
from .keeper import keeper_router
from .store import Store

__all__ = ["accounts_router", "Accounts", "COOKIE", "SESSION_TTL", "LOGIN_FAILURES", "LOGIN_WINDOW"]

log = logging.getLogger("kirifuda.accounts")

COOKIE = "kf_session"
SESSION_TTL = 30 * 24 * 3600.0
"""A login session lasts 30 days (``KIRIFUDA_SESSION_TTL`` seconds if set), then the player signs
in again."""
LOGIN_FAILURES = 5
LOGIN_WINDOW = 15 * 60.0
MAX_RECORD = 5_000_000

metadata = MetaData()
users = Table(
    "kf_acc_users",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("name", String(64), nullable=False, unique=True),
    Column("pw_hash", Text, nullable=False),  # argon2id, with its salt and parameters
    Column("created", Float, nullable=False),
)
sessions = Table(
    "kf_acc_sessions",
    metadata,
    Column("token_hash", String(64), primary_key=True),  # SHA-256 of the cookie's value
    Column("user_id", String(32), nullable=False, index=True),
    Column("created", Float, nullable=False),
    Column("expires", Float, nullable=False),
    Column("revoked", Boolean, nullable=False),
)
user_seats = Table(
    "kf_acc_seats",
    metadata,
    Column("user_id", String(32), primary_key=True),
    Column("table_id", String(32), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("link", Text, nullable=False),  # the seat's invitation link (its token): the owner's
    Column("created", Float, nullable=False),
)
clubs = Table(
    "kf_acc_clubs",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("name", String(80), nullable=False, unique=True),
    Column("admin_id", String(32), nullable=False),
    Column("created", Float, nullable=False),
)
members = Table(
    "kf_acc_members",
    metadata,
    Column("club_id", String(32), primary_key=True),
    Column("user_id", String(32), primary_key=True),
    Column("joined", Float, nullable=False),
)
presets = Table(
    "kf_acc_presets",
    metadata,
    Column("club_id", String(32), primary_key=True),
    Column("name", String(80), primary_key=True),
    Column("game", String(32), nullable=False),
    Column("options", Text, nullable=False),
    Column("created", Float, nullable=False),
)
matches = Table(
    "kf_acc_matches",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("club_id", String(32), nullable=False, index=True),
    Column("game", String(32), nullable=False),
    Column("record", Text, nullable=False),
    Column("rated", Boolean, nullable=False),
    Column("abandoned_by", Integer, nullable=True),
    Column("saved_by", String(32), nullable=False),
    Column("created", Float, nullable=False),
)


_LEVEL_NAMES = {"search": "search:normal"}
"""A bot kind's name as a rated player: its level."""


def _lang_of(request: Request) -> str:
    """The reader's language: ``?lang=``, else the browser's (``Accept-Language``)."""
    q = request.query_params.get("lang")
    if q in ("ja", "en"):
        return q
    return "ja" if request.headers.get("accept-language", "").lower().startswith("ja") else "en"


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


# -- request bodies -------------------------------------------------------------------------


class Credentials(BaseModel):
    name: str = Field(min_length=1, max_length=32, pattern=r"^[^\s:/][^:/]*$")
    password: str = Field(min_length=8, max_length=256)


class ClubBody(BaseModel):
    name: str = Field(min_length=1, max_length=80)


class MemberBody(BaseModel):
    name: str = Field(min_length=1, max_length=32)


class PresetBody(BaseModel):
    game: str
    options: dict[str, Any] = Field(default_factory=dict)


class MatchBody(BaseModel):
    record: dict[str, Any]
    rated: bool = False
    abandoned_by: int | None = None


class TableBody(BaseModel):
    rated: bool = False
    abandoned_by: int | None = None


class SeatBody(BaseModel):
    table_id: str = Field(min_length=1, max_length=32)
    seat: int = Field(ge=0, le=5)
    link: str = Field(min_length=1, max_length=200, pattern=r"^/t/[A-Za-z0-9_-]+#token=[A-Za-z0-9_-]+$")


# -- the service ----------------------------------------------------------------------------


class Accounts:
    """Accounts and clubs on the web app's database (tables created on first use)."""

    def __init__(
        self,
        get_store: Callable[[], Store],
        *,
        clock: Callable[[], float] = time.time,
        session_ttl: float | None = None,
        secure_cookie: bool = True,
    ) -> None:
        self._get_store = get_store
        self.clock = clock
        self.session_ttl = (
            session_ttl if session_ttl is not None else float(os.environ.get("KIRIFUDA_SESSION_TTL") or SESSION_TTL)
        )
        self.secure_cookie = secure_cookie
        self.hasher = PasswordHasher()
        self._dummy_hash = self.hasher.hash(secrets.token_urlsafe(16))
        """Verified against when the name is unknown, so both cases take as long."""
        self._ready = False
        self._lock = asyncio.Lock()
        self._failures: dict[str, deque[float]] = {}

    async def engine(self) -> Any:
        store = self._get_store()
        if not self._ready:
            async with self._lock:
                if not self._ready:
                    async with store.engine.begin() as conn:
                        await conn.run_sync(metadata.create_all)
                    self._ready = True
        return store.engine

    # -- rate limiting -----------------------------------------------------------------------
    def _recent(self, key: str) -> deque[float]:
        now = self.clock()
        if len(self._failures) > 10_000:  # forget the names and addresses whose window has passed
            self._failures = {k: q for k, q in self._failures.items() if q and q[-1] > now - LOGIN_WINDOW}
        q = self._failures.setdefault(key, deque())
        while q and q[0] <= now - LOGIN_WINDOW:
            q.popleft()
        return q

    def limited(self, *keys: str) -> bool:
        return any(len(self._recent(k)) >= LOGIN_FAILURES for k in keys)

    def failed(self, *keys: str) -> None:
        for k in keys:
            self._recent(k).append(self.clock())

    # -- sessions ----------------------------------------------------------------------------
    async def new_session(self, user_id: str, response: Response) -> None:
        token = secrets.token_urlsafe(32)
        now = self.clock()
        engine = await self.engine()
        async with engine.begin() as conn:
            await conn.execute(
                insert(sessions).values(
                    token_hash=_digest(token),
                    user_id=user_id,
                    created=now,
                    expires=now + self.session_ttl,
                    revoked=False,
                )
            )
        response.set_cookie(
            COOKIE,
            token,
            max_age=int(self.session_ttl),
            httponly=True,
            secure=self.secure_cookie,
            samesite="lax",
            path="/",
        )

    async def user(self, token: str | None) -> dict[str, Any] | None:
        """The signed-in user of a session cookie, or ``None`` (no cookie, unknown, expired or
        revoked)."""
        if not token:
            return None
        engine = await self.engine()
        async with engine.connect() as conn:
            row = (
                (
                    await conn.execute(
                        select(users.c.id, users.c.name, sessions.c.expires, sessions.c.revoked)
                        .select_from(sessions.join(users, users.c.id == sessions.c.user_id))
                        .where(sessions.c.token_hash == _digest(token))
                    )
                )
                .mappings()
                .first()
            )
        if row is None or row["revoked"] or row["expires"] <= self.clock():
            return None
        return {"id": row["id"], "name": row["name"]}

    async def require(self, token: str | None) -> dict[str, Any]:
        user = await self.user(token)
        if user is None:
            raise HTTPException(401, "sign in first (or the session has expired or was revoked)")
        return user


def _club_row_or_404(row: Any, club_id: str) -> Any:
    if row is None:
        raise HTTPException(404, f"no club {club_id!r}")
    return row


def accounts_router(
    get_store: Callable[[], Store], get_tables: Callable[[], Mapping[str, Any]] | None = None, **kwargs: Any
) -> APIRouter:
    """The accounts and clubs API on the database ``get_store()`` returns (once the app has
    started); ``get_tables()`` gives the online tables by id (to save one's match to a club).
    ``kwargs`` go to :class:`Accounts` (tests pass a clock and a session length)."""
    acc = Accounts(get_store, **kwargs)
    router = APIRouter()
    router.accounts = acc  # type: ignore[attr-defined]
    router.include_router(keeper_router())
    from .clubtables import ClubTables, club_tables_router
    from .passkeys import passkeys_router

    service = ClubTables(acc, get_tables)
    router.club_tables = service  # type: ignore[attr-defined]

    async def club_for(club_id: str, user: dict[str, Any], *, admin: bool = False) -> dict[str, Any]:
        engine = await acc.engine()
        async with engine.connect() as conn:
            club = _club_row_or_404(
                (await conn.execute(select(clubs).where(clubs.c.id == club_id))).mappings().first(), club_id
            )
            member = (
                await conn.execute(
                    select(members.c.user_id).where(and_(members.c.club_id == club_id, members.c.user_id == user["id"]))
                )
            ).first()
        if member is None:
            raise HTTPException(403, "only the club's members see it")
        if admin and club["admin_id"] != user["id"]:
            raise HTTPException(403, "only the club's administrator may do this")
        return dict(club)

    async def club_records(club_id: str, game: str | None = None) -> list[dict[str, Any]]:
        engine = await acc.engine()
        async with engine.connect() as conn:
            q = select(matches).where(matches.c.club_id == club_id).order_by(matches.c.created, matches.c.id)
            if game is not None:
                q = q.where(matches.c.game == game)
            return [dict(r) for r in (await conn.execute(q)).mappings().all()]

    def ratings_of(rows: list[dict[str, Any]]) -> Ratings:
        book = Ratings()
        for r in rows:
            if r["rated"]:
                book.rate(result_of(records.loads(r["record"]), rated=True, abandoned_by=r["abandoned_by"]))
        return book

    router.include_router(club_tables_router(acc, service, club_for))
    router.include_router(passkeys_router(acc))

    # -- accounts ----------------------------------------------------------------------------
    @router.post("/api/accounts")
    async def sign_up(body: Credentials, request: Request, response: Response) -> dict[str, Any]:
        if mimics_bot(body.name):  # a bot's kind or label: the person would pass for a bot
            lang = "ja" if _lang_of(request) == "ja" else "en"
            raise HTTPException(422, {"code": BOT_NAME_CODE, "message": t("web.err.bot_name", lang)})
        engine = await acc.engine()
        user_id = uuid.uuid4().hex
        pw_hash = await asyncio.to_thread(acc.hasher.hash, body.password)  # argon2 is slow on purpose
        try:
            async with engine.begin() as conn:
                await conn.execute(
                    insert(users).values(id=user_id, name=body.name, pw_hash=pw_hash, created=acc.clock())
                )
        except IntegrityError:
            raise HTTPException(409, f"the name {body.name!r} is taken") from None
        await acc.new_session(user_id, response)
        log.info("account created: %s", body.name)
        return {"id": user_id, "name": body.name}

    @router.post("/api/login")
    async def login(body: Credentials, request: Request, response: Response) -> dict[str, Any]:
        keys = (f"name:{body.name}", f"addr:{request.client.host if request.client else '?'}")
        if acc.limited(*keys):
            raise HTTPException(429, "too many failed sign-ins: wait a few minutes")
        engine = await acc.engine()
        async with engine.connect() as conn:
            row = (await conn.execute(select(users).where(users.c.name == body.name))).mappings().first()
        try:
            await asyncio.to_thread(acc.hasher.verify, row["pw_hash"] if row else acc._dummy_hash, body.password)
            ok = row is not None
        except (VerificationError, InvalidHashError):
            ok = False
        if not ok or row is None:
            acc.failed(*keys)
            log.info("failed sign-in for %s", body.name)
            raise HTTPException(401, "wrong name or password")
        if acc.hasher.check_needs_rehash(row["pw_hash"]):
            fresh = await asyncio.to_thread(acc.hasher.hash, body.password)
            async with engine.begin() as conn:
                await conn.execute(update(users).where(users.c.id == row["id"]).values(pw_hash=fresh))
        await acc.new_session(row["id"], response)
        return {"id": row["id"], "name": row["name"]}

    @router.post("/api/logout")
    async def logout(response: Response, kf_session: str | None = Cookie(None)) -> dict[str, Any]:
        if kf_session:
            engine = await acc.engine()
            async with engine.begin() as conn:
                await conn.execute(
                    update(sessions).where(sessions.c.token_hash == _digest(kf_session)).values(revoked=True)
                )
        response.delete_cookie(COOKIE, path="/", secure=acc.secure_cookie, httponly=True, samesite="lax")
        return {"signed_out": True}

    @router.post("/api/sessions/revoke")
    async def revoke_all(response: Response, kf_session: str | None = Cookie(None)) -> dict[str, Any]:
        user = await acc.require(kf_session)
        engine = await acc.engine()
        async with engine.begin() as conn:
            res = await conn.execute(
                update(sessions)
                .where(and_(sessions.c.user_id == user["id"], sessions.c.revoked == False))  # noqa: E712
                .values(revoked=True)
            )
        response.delete_cookie(COOKIE, path="/", secure=acc.secure_cookie, httponly=True, samesite="lax")
        return {"revoked": res.rowcount}

    @router.get("/api/me")
    async def me(kf_session: str | None = Cookie(None)) -> dict[str, Any]:
        return await acc.require(kf_session)

    @router.get("/api/me/seats")
    async def my_seats(kf_session: str | None = Cookie(None)) -> list[dict[str, Any]]:
        user = await acc.require(kf_session)
        engine = await acc.engine()
        async with engine.connect() as conn:
            rows = (
                (
                    await conn.execute(
                        select(user_seats.c.table_id, user_seats.c.seat, user_seats.c.link)
                        .where(user_seats.c.user_id == user["id"])
                        .order_by(user_seats.c.created)
                    )
                )
                .mappings()
                .all()
            )
        return [dict(r) for r in rows]

    @router.post("/api/me/seats")
    async def keep_seat(body: SeatBody, kf_session: str | None = Cookie(None)) -> dict[str, Any]:
        user = await acc.require(kf_session)
        if not body.link.startswith(f"/t/{body.table_id}#"):
            raise HTTPException(400, "the link is not of that table")
        engine = await acc.engine()
        async with engine.begin() as conn:
            await conn.execute(
                delete(user_seats).where(
                    and_(
                        user_seats.c.user_id == user["id"],
                        user_seats.c.table_id == body.table_id,
                        user_seats.c.seat == body.seat,
                    )
                )
            )
            await conn.execute(
                insert(user_seats).values(
                    user_id=user["id"], table_id=body.table_id, seat=body.seat, link=body.link, created=acc.clock()
                )
            )
        return {"table_id": body.table_id, "seat": body.seat}

    @router.get("/api/me/profile")
    async def profile(kf_session: str | None = Cookie(None)) -> dict[str, Any]:
        user = await acc.require(kf_session)
        engine = await acc.engine()
        async with engine.connect() as conn:
            club_ids = (
                (await conn.execute(select(members.c.club_id).where(members.c.user_id == user["id"]))).scalars().all()
            )
            rows = (
                (
                    await conn.execute(
                        select(matches).where(matches.c.club_id.in_(club_ids)).order_by(matches.c.created, matches.c.id)
                    )
                )
                .mappings()
                .all()
                if club_ids
                else []
            )
        mine = []
        recs = []
        for r in rows:
            rec = records.loads(r["record"])
            if not rec.players or user["name"] not in rec.players:
                continue
            recs.append(rec)
            summary = records.replay(rec).summary()
            mine.append(
                {
                    "club_id": r["club_id"],
                    "id": r["id"],
                    "game": r["game"],
                    "rated": r["rated"],
                    "players": rec.players,
                    "seat": rec.players.index(user["name"]),
                    "totals": summary["totals"],
                    "finished": summary["finished"],
                    "winner": summary["winner"],
                    "created": r["created"],
                    "record": f"/api/clubs/{r['club_id']}/matches/{r['id']}/record",
                    "replay": f"/api/clubs/{r['club_id']}/matches/{r['id']}/replay",
                    "reviews": [
                        f"/api/clubs/{r['club_id']}/matches/{r['id']}/review?deal={d}"
                        for d, deal in enumerate(rec.deals)
                        if deal.scored is None
                    ],
                }
            )
        return {"name": user["name"], "matches": mine, "stats": player_stats(recs, user["name"])}

    # -- clubs -------------------------------------------------------------------------------
    @router.post("/api/clubs")
    async def create_club(body: ClubBody, kf_session: str | None = Cookie(None)) -> dict[str, Any]:
        user = await acc.require(kf_session)
        club_id = uuid.uuid4().hex[:12]
        engine = await acc.engine()
        now = acc.clock()
        try:
            async with engine.begin() as conn:
                await conn.execute(insert(clubs).values(id=club_id, name=body.name, admin_id=user["id"], created=now))
                await conn.execute(insert(members).values(club_id=club_id, user_id=user["id"], joined=now))
        except IntegrityError:
            raise HTTPException(409, f"there is already a club named {body.name!r}") from None
        return {"id": club_id, "name": body.name, "admin": user["name"]}

    @router.get("/api/clubs")
    async def my_clubs(kf_session: str | None = Cookie(None)) -> list[dict[str, Any]]:
        user = await acc.require(kf_session)
        engine = await acc.engine()
        async with engine.connect() as conn:
            rows = (
                (
                    await conn.execute(
                        select(clubs.c.id, clubs.c.name, clubs.c.admin_id)
                        .select_from(clubs.join(members, members.c.club_id == clubs.c.id))
                        .where(members.c.user_id == user["id"])
                        .order_by(clubs.c.name)
                    )
                )
                .mappings()
                .all()
            )
        return [{"id": r["id"], "name": r["name"], "admin": r["admin_id"] == user["id"]} for r in rows]

    @router.get("/api/clubs/{club_id}")
    async def club_info(club_id: str, kf_session: str | None = Cookie(None)) -> dict[str, Any]:
        user = await acc.require(kf_session)
        club = await club_for(club_id, user)
        engine = await acc.engine()
        async with engine.connect() as conn:
            names = (
                (
                    await conn.execute(
                        select(users.c.id, users.c.name)
                        .select_from(members.join(users, users.c.id == members.c.user_id))
                        .where(members.c.club_id == club_id)
                        .order_by(users.c.name)
                    )
                )
                .mappings()
                .all()
            )
            rules = (
                (
                    await conn.execute(
                        select(presets).where(presets.c.club_id == club_id).order_by(presets.c.created, presets.c.name)
                    )
                )
                .mappings()
                .all()
            )
        admin = next((n["name"] for n in names if n["id"] == club["admin_id"]), None)
        return {
            "id": club_id,
            "name": club["name"],
            "admin": admin,
            "members": [n["name"] for n in names],
            "presets": [{"name": p["name"], "game": p["game"], "options": json.loads(p["options"])} for p in rules],
        }

    @router.post("/api/clubs/{club_id}/members")
    async def add_member(club_id: str, body: MemberBody, kf_session: str | None = Cookie(None)) -> dict[str, Any]:
        user = await acc.require(kf_session)
        await club_for(club_id, user, admin=True)
        engine = await acc.engine()
        async with engine.connect() as conn:
            uid = (await conn.execute(select(users.c.id).where(users.c.name == body.name))).scalar()
        if uid is None:
            raise HTTPException(404, f"no account named {body.name!r}")
        try:
            async with engine.begin() as conn:
                await conn.execute(insert(members).values(club_id=club_id, user_id=uid, joined=acc.clock()))
        except IntegrityError:
            raise HTTPException(409, f"{body.name} is already a member") from None
        return {"member": body.name}

    @router.delete("/api/clubs/{club_id}/members/{name}")
    async def remove_member(club_id: str, name: str, kf_session: str | None = Cookie(None)) -> dict[str, Any]:
        user = await acc.require(kf_session)
        club = await club_for(club_id, user, admin=True)
        engine = await acc.engine()
        async with engine.begin() as conn:
            uid = (await conn.execute(select(users.c.id).where(users.c.name == name))).scalar()
            if uid == club["admin_id"]:
                raise HTTPException(400, "the administrator stays a member")
            res = await conn.execute(
                delete(members).where(and_(members.c.club_id == club_id, members.c.user_id == uid))
            )
        if not res.rowcount:
            raise HTTPException(404, f"{name} is not a member")
        return {"removed": name}

    @router.put("/api/clubs/{club_id}/presets/{name}")
    async def set_preset(
        club_id: str, name: str, body: PresetBody, kf_session: str | None = Cookie(None)
    ) -> dict[str, Any]:
        user = await acc.require(kf_session)
        await club_for(club_id, user, admin=True)
        if body.game not in GAMES:
            raise HTTPException(400, f"unknown game {body.game!r}")
        if not 1 <= len(name) <= 80:
            raise HTTPException(400, "a preset's name has 1-80 characters")
        try:
            GAMES[body.game].options(body.options)
        except OptionError as exc:
            raise HTTPException(400, f"options: {exc}") from None
        engine = await acc.engine()
        async with engine.begin() as conn:
            await conn.execute(delete(presets).where(and_(presets.c.club_id == club_id, presets.c.name == name)))
            await conn.execute(
                insert(presets).values(
                    club_id=club_id, name=name, game=body.game, options=json.dumps(body.options), created=acc.clock()
                )
            )
        return {"name": name, "game": body.game, "options": body.options}

    @router.delete("/api/clubs/{club_id}/presets/{name}")
    async def delete_preset(club_id: str, name: str, kf_session: str | None = Cookie(None)) -> dict[str, Any]:
        user = await acc.require(kf_session)
        await club_for(club_id, user, admin=True)
        engine = await acc.engine()
        async with engine.begin() as conn:
            res = await conn.execute(delete(presets).where(and_(presets.c.club_id == club_id, presets.c.name == name)))
        if not res.rowcount:
            raise HTTPException(404, f"no preset {name!r}")
        return {"removed": name}

    # -- club matches ------------------------------------------------------------------------
    @router.post("/api/clubs/{club_id}/matches")
    async def save_match(club_id: str, body: MatchBody, kf_session: str | None = Cookie(None)) -> dict[str, Any]:
        user = await acc.require(kf_session)
        await club_for(club_id, user)
        try:
            rec = records.from_json(body.record)
            summary = records.replay(rec).summary()
            text = records.dumps(rec)
        except KirifudaError as exc:
            detail: dict[str, Any] = {"message": str(exc)}
            for key in ("deal", "action", "seat"):
                detail[key] = getattr(exc, key, None)
            raise HTTPException(400, detail) from None
        if len(text) > MAX_RECORD:
            raise HTTPException(413, "a record may be at most 5 MB")
        if body.rated:
            if not rec.players:
                raise HTTPException(400, "a rated match's record names its players")
            if not summary["finished"] and body.abandoned_by is None:
                raise HTTPException(400, "a rated match is finished, or abandoned by a seat")
        if body.abandoned_by is not None and not 0 <= body.abandoned_by < len(rec.players or []):
            raise HTTPException(400, "abandoned_by must be a seat of the record")
        match_id = uuid.uuid4().hex[:12]
        engine = await acc.engine()
        async with engine.begin() as conn:
            await conn.execute(
                insert(matches).values(
                    id=match_id,
                    club_id=club_id,
                    game=rec.game,
                    record=text,
                    rated=body.rated,
                    abandoned_by=body.abandoned_by,
                    saved_by=user["id"],
                    created=acc.clock(),
                )
            )
        return {
            "id": match_id,
            "totals": summary["totals"],
            "finished": summary["finished"],
            "winner": summary["winner"],
        }

    @router.post("/api/clubs/{club_id}/tables/{table_id}")
    async def save_table(
        club_id: str, table_id: str, body: TableBody, kf_session: str | None = Cookie(None)
    ) -> dict[str, Any]:
        """Save an online table's match to the club: a bot's seat is named by its kind (so bots
        are rated by level), a seat kept in an account by that account's name."""
        user = await acc.require(kf_session)
        await club_for(club_id, user)
        table = (get_tables() if get_tables else {}).get(table_id)
        if table is None:
            raise HTTPException(404, f"no table {table_id!r}")
        if getattr(table, "practice", None) is not None:  # kirifuda.server.practice
            raise HTTPException(
                403,
                "a practice table's match is never saved to a club: it is not rated "
                "and not counted in the club's statistics",
            )
        await service.load()
        if table_id in service.meta:
            raise HTTPException(409, "this is a club's table: its match is saved to its club by itself when it ends")
        if not table.state.is_over and body.abandoned_by is None:
            raise HTTPException(409, "the match is not over (or name the seat that abandoned it)")
        rec = table.record()
        engine = await acc.engine()
        async with engine.connect() as conn:
            owners = dict(
                (
                    await conn.execute(
                        select(user_seats.c.seat, users.c.name)
                        .select_from(user_seats.join(users, users.c.id == user_seats.c.user_id))
                        .where(user_seats.c.table_id == table_id)
                    )
                ).all()
            )
        names = rec.players or [f"Seat {s}" for s in range(len(table.seats))]
        rec.players = [
            _LEVEL_NAMES.get(seat["bot"], seat["bot"]) if seat.get("kind") == "bot" else owners.get(s, names[s])
            for s, seat in enumerate(table.seats)
        ]
        return await save_match(
            club_id, MatchBody(record=rec.to_json(), rated=body.rated, abandoned_by=body.abandoned_by), kf_session
        )

    @router.get("/api/clubs/{club_id}/matches")
    async def club_matches(club_id: str, kf_session: str | None = Cookie(None)) -> list[dict[str, Any]]:
        user = await acc.require(kf_session)
        await club_for(club_id, user)
        out = []
        for r in await club_records(club_id):
            rec = records.loads(r["record"])
            summary = records.replay(rec).summary()
            out.append(
                {
                    "id": r["id"],
                    "game": r["game"],
                    "players": rec.players,
                    "rated": r["rated"],
                    "totals": summary["totals"],
                    "finished": summary["finished"],
                    "winner": summary["winner"],
                    "created": r["created"],
                    "replay": f"/api/clubs/{club_id}/matches/{r['id']}/replay",
                    "reviews": [
                        f"/api/clubs/{club_id}/matches/{r['id']}/review?deal={d}"
                        for d, deal in enumerate(rec.deals)
                        if deal.scored is None
                    ],
                }
            )
        return out

    @router.get("/api/clubs/{club_id}/matches/{match_id}/record")
    async def match_record(club_id: str, match_id: str, kf_session: str | None = Cookie(None)) -> Response:
        user = await acc.require(kf_session)
        await club_for(club_id, user)
        row = next((r for r in await club_records(club_id) if r["id"] == match_id), None)
        if row is None:
            raise HTTPException(404, f"no match {match_id!r} in this club")
        return Response(row["record"], media_type="application/json")

    @router.get("/api/clubs/{club_id}/matches/{match_id}/replay")
    async def match_replay(club_id: str, match_id: str, kf_session: str | None = Cookie(None)) -> dict[str, Any]:
        """The replay of a club match: the steps of the replay viewer, and the summary."""
        from .app import replay_steps

        user = await acc.require(kf_session)
        await club_for(club_id, user)
        row = next((r for r in await club_records(club_id) if r["id"] == match_id), None)
        if row is None:
            raise HTTPException(404, f"no match {match_id!r} in this club")
        rec = records.loads(row["record"])
        return {"steps": replay_steps(rec), "summary": records.replay(rec).summary()}

    @router.get("/api/clubs/{club_id}/matches/{match_id}/review")
    async def match_review(
        club_id: str, match_id: str, deal: int, lang: str = "en", kf_session: str | None = Cookie(None)
    ) -> dict[str, Any]:
        """The coach's review of one deal of a club match (a deal played card by card; a scored
        deal has no cards to review)."""
        from ..coach import review_text
        from .coach import _run_review  # one review at a time, beside the tables' own

        user = await acc.require(kf_session)
        await club_for(club_id, user)
        row = next((r for r in await club_records(club_id) if r["id"] == match_id), None)
        if row is None:
            raise HTTPException(404, f"no match {match_id!r} in this club")
        rec = records.loads(row["record"])
        if not 0 <= deal < len(rec.deals):
            raise HTTPException(404, f"this match has no deal {deal} (counted from 0)")
        if rec.deals[deal].scored is not None:
            raise HTTPException(400, f"deal {deal} was scored by its facts (score keeper): it has no cards to review")
        language = "ja" if lang == "ja" else "en"
        try:
            rev = await _run_review(rec, [deal], language)
        except KirifudaError as exc:
            raise HTTPException(400, f"this deal cannot be reviewed: {exc}") from None
        return {
            "match": match_id,
            "deal": deal,
            "players": rec.players,
            "review": rev.to_json(language),
            "text": review_text(rev, language),
        }

    @router.get("/api/clubs/{club_id}/leaderboard")
    async def leaderboard(club_id: str, game: str, kf_session: str | None = Cookie(None)) -> list[dict[str, Any]]:
        user = await acc.require(kf_session)
        await club_for(club_id, user)
        if game not in GAMES:
            raise HTTPException(400, f"unknown game {game!r}")
        book = ratings_of(await club_records(club_id, game))
        return [dict(name=name, **r.to_json()) for name, r in book.leaderboard(game)]

    # -- export ------------------------------------------------------------------------------
    @router.get("/api/clubs/{club_id}/export.zip")
    async def export_zip(club_id: str, kf_session: str | None = Cookie(None)) -> Response:
        user = await acc.require(kf_session)
        club = await club_for(club_id, user)
        buf = io.BytesIO()
        with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
            for r in await club_records(club_id):
                z.writestr(f"{r['game']}-{r['id']}.json", r["record"])
        return Response(
            buf.getvalue(),
            media_type="application/zip",
            headers={"Content-Disposition": f'attachment; filename="club-{club["id"]}.zip"'},
        )

    @router.get("/api/clubs/{club_id}/standings.csv")
    async def standings_csv(club_id: str, game: str, kf_session: str | None = Cookie(None)) -> Response:
        rows = await leaderboard(club_id, game, kf_session)
        out = io.StringIO()
        w = csv.writer(out)
        w.writerow(["rank", "name", "ordinal", "mu", "sigma", "matches"])
        for i, r in enumerate(rows, 1):
            w.writerow([i, r["name"], r["ordinal"], r["mu"], r["sigma"], r["matches"]])
        return Response(
            out.getvalue(),
            media_type="text/csv; charset=utf-8",
            headers={"Content-Disposition": f'attachment; filename="standings-{game}.csv"'},
        )

    return router
