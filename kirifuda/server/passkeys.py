"""Passkeys (パスキー): WebAuthn registration and sign-in, through ``webauthn`` (py_webauthn).

A signed-in player may add a passkey to their account where the browser offers them; then they
sign in with it, without a name or password (the passkey is discoverable: the browser lists the
site's passkeys).  Each step is two requests: the options (a fresh challenge, kept server-side for
:data:`CHALLENGE_TTL` seconds and usable once), then the browser's answer, verified by the
library against that challenge, this site's origin and relying-party id, and the stored public
key and signature counter.

The relying party is the host the page was loaded from (``KIRIFUDA_RP_ID`` and
``KIRIFUDA_ORIGIN`` override it behind a proxy).  Only the credential's id, public key and
counter are stored (``kf_acc_passkeys``): nothing secret.

HTTP (JSON): ``POST /api/passkeys/register/options`` (signed in) → ``{flow, options}`` ·
``POST /api/passkeys/register`` ``{flow, credential}`` · ``POST /api/passkeys/login/options`` →
``{flow, options}`` · ``POST /api/passkeys/login`` ``{flow, credential}`` (sets the login
cookie) · ``GET /api/me/passkeys``.
"""

from __future__ import annotations

import json
import os
import secrets
from dataclasses import dataclass
from typing import Any

from fastapi import APIRouter, Cookie, HTTPException, Request, Response
from pydantic import BaseModel, Field
from sqlalchemy import Column, Float, Integer, String, Table, Text, insert, select, update
from sqlalchemy.exc import IntegrityError
from webauthn import (
    generate_authentication_options,
    generate_registration_options,
    options_to_json,
    verify_authentication_response,
    verify_registration_response,
)
from webauthn.helpers import base64url_to_bytes, bytes_to_base64url
from webauthn.helpers.exceptions import WebAuthnException
from webauthn.helpers.structs import (
    AuthenticatorSelectionCriteria,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from .accounts import Accounts, metadata, users

__all__ = ["passkeys_router", "passkeys", "CHALLENGE_TTL"]

CHALLENGE_TTL = 300.0
"""Seconds a passkey challenge may be answered in."""
MAX_FLOWS = 10_000

passkeys = Table(
    "kf_acc_passkeys",
    metadata,
    Column("credential_id", String(512), primary_key=True),  # base64url
    Column("user_id", String(32), nullable=False, index=True),
    Column("public_key", Text, nullable=False),  # base64url (COSE)
    Column("sign_count", Integer, nullable=False),
    Column("created", Float, nullable=False),
)


class Answer(BaseModel):
    flow: str = Field(min_length=1, max_length=64)
    credential: dict[str, Any]


@dataclass(frozen=True)
class _Flow:
    challenge: bytes
    user_id: str | None
    expires: float


def _party(request: Request) -> tuple[str, str]:
    """The relying party's id and the page's origin."""
    origin = os.environ.get("KIRIFUDA_ORIGIN") or f"{request.url.scheme}://{request.url.netloc}"
    rp_id = os.environ.get("KIRIFUDA_RP_ID") or (request.url.hostname or "localhost")
    return rp_id, origin


def passkeys_router(acc: Accounts) -> APIRouter:
    router = APIRouter()
    flows: dict[str, _Flow] = {}

    def start(challenge: bytes, user_id: str | None) -> str:
        now = acc.clock()
        if len(flows) >= MAX_FLOWS:  # forget those past their time
            for key in [k for k, f in flows.items() if f.expires <= now]:
                del flows[key]
            if len(flows) >= MAX_FLOWS:
                raise HTTPException(503, "too many passkey requests at once: try again in a moment")
        flow = secrets.token_urlsafe(24)
        flows[flow] = _Flow(challenge, user_id, now + CHALLENGE_TTL)
        return flow

    def finish(flow: str) -> _Flow:
        found = flows.pop(flow, None)  # a challenge is answered once
        if found is None or found.expires <= acc.clock():
            raise HTTPException(400, "this passkey request is unknown or has expired: start again")
        return found

    @router.post("/api/passkeys/register/options")
    async def register_options(request: Request, kf_session: str | None = Cookie(None)) -> dict[str, Any]:
        user = await acc.require(kf_session)
        rp_id, _ = _party(request)
        engine = await acc.engine()
        async with engine.connect() as conn:
            mine = (
                (await conn.execute(select(passkeys.c.credential_id).where(passkeys.c.user_id == user["id"])))
                .scalars()
                .all()
            )
        options = generate_registration_options(
            rp_id=rp_id,
            rp_name="kirifuda",
            user_id=user["id"].encode(),
            user_name=user["name"],
            exclude_credentials=[PublicKeyCredentialDescriptor(id=base64url_to_bytes(c)) for c in mine],
            authenticator_selection=AuthenticatorSelectionCriteria(
                resident_key=ResidentKeyRequirement.REQUIRED, user_verification=UserVerificationRequirement.PREFERRED
            ),
        )
        return {"flow": start(options.challenge, user["id"]), "options": json.loads(options_to_json(options))}

    @router.post("/api/passkeys/register")
    async def register(body: Answer, request: Request, kf_session: str | None = Cookie(None)) -> dict[str, Any]:
        user = await acc.require(kf_session)
        flow = finish(body.flow)
        if flow.user_id != user["id"]:
            raise HTTPException(403, "this passkey request was started by another account")
        rp_id, origin = _party(request)
        try:
            verified = verify_registration_response(
                credential=body.credential,
                expected_challenge=flow.challenge,
                expected_rp_id=rp_id,
                expected_origin=origin,
            )
        except (WebAuthnException, ValueError, KeyError, TypeError) as exc:
            raise HTTPException(400, f"the passkey was not accepted: {exc}") from None
        cred_id = bytes_to_base64url(verified.credential_id)
        engine = await acc.engine()
        try:
            async with engine.begin() as conn:
                await conn.execute(
                    insert(passkeys).values(
                        credential_id=cred_id,
                        user_id=user["id"],
                        public_key=bytes_to_base64url(verified.credential_public_key),
                        sign_count=verified.sign_count,
                        created=acc.clock(),
                    )
                )
        except IntegrityError:
            raise HTTPException(409, "this passkey is already registered") from None
        return {"registered": True, "id": cred_id}

    @router.post("/api/passkeys/login/options")
    async def login_options(request: Request) -> dict[str, Any]:
        rp_id, _ = _party(request)
        options = generate_authentication_options(rp_id=rp_id, user_verification=UserVerificationRequirement.PREFERRED)
        return {"flow": start(options.challenge, None), "options": json.loads(options_to_json(options))}

    @router.post("/api/passkeys/login")
    async def login(body: Answer, request: Request, response: Response) -> dict[str, Any]:
        flow = finish(body.flow)
        cred_id = body.credential.get("id")
        if not isinstance(cred_id, str) or not 1 <= len(cred_id) <= 512:
            raise HTTPException(400, "the answer names no passkey (credential id)")
        engine = await acc.engine()
        async with engine.connect() as conn:
            row = (
                (
                    await conn.execute(
                        select(passkeys, users.c.name)
                        .select_from(passkeys.join(users, users.c.id == passkeys.c.user_id))
                        .where(passkeys.c.credential_id == cred_id)
                    )
                )
                .mappings()
                .first()
            )
        if row is None:
            raise HTTPException(401, "this passkey is not registered here")
        rp_id, origin = _party(request)
        try:
            verified = verify_authentication_response(
                credential=body.credential,
                expected_challenge=flow.challenge,
                expected_rp_id=rp_id,
                expected_origin=origin,
                credential_public_key=base64url_to_bytes(row["public_key"]),
                credential_current_sign_count=row["sign_count"],
            )
        except (WebAuthnException, ValueError, KeyError, TypeError) as exc:
            raise HTTPException(401, f"the passkey was not accepted: {exc}") from None
        async with engine.begin() as conn:
            await conn.execute(
                update(passkeys).where(passkeys.c.credential_id == cred_id).values(sign_count=verified.new_sign_count)
            )
        await acc.new_session(row["user_id"], response)
        return {"id": row["user_id"], "name": row["name"]}

    @router.get("/api/me/passkeys")
    async def my_passkeys(kf_session: str | None = Cookie(None)) -> list[dict[str, Any]]:
        user = await acc.require(kf_session)
        engine = await acc.engine()
        async with engine.connect() as conn:
            rows = (
                (
                    await conn.execute(
                        select(passkeys.c.credential_id, passkeys.c.created)
                        .where(passkeys.c.user_id == user["id"])
                        .order_by(passkeys.c.created)
                    )
                )
                .mappings()
                .all()
            )
        return [{"id": r["credential_id"], "created": r["created"]} for r in rows]

    return router
