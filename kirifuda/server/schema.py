"""The shapes of what clients send, checked at the edge (pydantic), with refusals in words.

Every HTTP body and every WebSocket message is parsed by :func:`load_json` (orjson: at most
1,024 levels deep; a lone surrogate ``"\\ud800"`` is not UTF-8 and is refused) and then validated
by one of the models here, strictly (``true`` is not a number, ``"3"`` is not a seat).  A refusal
is a :class:`InputError` whose message names the field and what is wrong, never echoing the
input.  A seat's name (名前) is checked by :func:`check_name`: 1–40 characters once trimmed,
encodable as UTF-8, and no control, format, private-use, unassigned or line-breaking characters,
so that no name can make a later frame or page fail.
"""

from __future__ import annotations

import unicodedata
from typing import Annotated, Any, Literal, Union

import orjson
from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    JsonValue,
    StrictBool,
    TypeAdapter,
    model_validator,
    ValidationError,
)

__all__ = [
    "InputError",
    "load_json",
    "check_name",
    "Name",
    "SeatSpec",
    "CreateTable",
    "HelloMessage",
    "ActMessage",
    "PingMessage",
    "ClientMessage",
    "parse_client_message",
    "validate",
    "MAX_NAME",
]

MAX_NAME = 40
"""The longest seat name, in characters."""
BOT_NAME_REFUSAL = "a person's name would pass for a bot's (a bot's kind or label): choose another"
"""A human seat named as a bot would be (kirifuda.server.botnames)."""
_BAD_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
_ALLOWED_FORMAT = frozenset({"\u200d"})
"""Zero-width joiner: emoji sequences (👩‍💻) need it."""


class InputError(ValueError):
    """Refused input: the message says which field and why."""


def load_json(raw: str | bytes, what: str) -> Any:
    """Parse JSON text (orjson: a depth of at most 1,024, strict UTF-8, no lone surrogates)."""
    try:
        return orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        reason = str(exc).split(":", 1)[0]
        raise InputError(f"{what} must be JSON text ({reason})") from None


def check_name(value: str) -> str:
    """A seat's name, trimmed; raises ValueError naming the fault."""
    name = value.strip()
    if not name:
        raise ValueError("a name has at least one visible character")
    if len(name) > MAX_NAME:
        raise ValueError(f"a name has at most {MAX_NAME} characters")
    for ch in name:
        cat = unicodedata.category(ch)
        if cat in _BAD_CATEGORIES and ch not in _ALLOWED_FORMAT:
            raise ValueError(
                f"a name may not hold the character U+{ord(ch):04X} (Unicode category {cat}: not printable)"
            )
    return name


Name = Annotated[str, AfterValidator(check_name)]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class SeatSpec(_Strict):
    """One seat of a new table: a human (invited by a link) or a bot."""

    kind: Literal["human", "bot"]
    bot: Annotated[str, Field(min_length=1, max_length=32)] | None = None
    name: Name | None = None

    @model_validator(mode="after")
    def _person_not_a_bot(self) -> "SeatSpec":
        from .botnames import mimics_bot

        if self.kind == "human" and self.name is not None and mimics_bot(self.name):
            raise ValueError(BOT_NAME_REFUSAL)
        return self


class PracticeSpec(_Strict):
    """A practice table's setting: the kind of its deals (a key of the game's kinds), or null."""

    kind: Annotated[str, Field(min_length=1, max_length=32)] | None = None


class CreateTable(_Strict):
    """The body of ``POST /api/tables``.  No seed: the server draws each table's secret."""

    game: Annotated[str, Field(min_length=1, max_length=32)]
    options: Annotated[dict[Annotated[str, Field(max_length=64)], JsonValue], Field(max_length=32)] = Field(
        default_factory=dict
    )
    seats: Annotated[list[SeatSpec], Field(min_length=1, max_length=10)]
    timer: int = 0
    first: Annotated[int, Field(ge=0, le=9)] = 0
    hints: StrictBool = True
    """Whether the seats may ask the coach for hints (kirifuda.server.coach)."""
    club: Annotated[str, Field(min_length=1, max_length=32)] | None = None
    """The club whose table this is (its members see it in the club's tables list)."""
    rated: StrictBool = False
    """A rated table (a club's, seats for its signed-in members; no hints): kirifuda.server.clubtables."""
    practice: PracticeSpec | None = None
    """A practice table (kirifuda.server.practice): one human with bots, undo, deal kinds."""

    @model_validator(mode="after")
    def _practice_alone(self) -> "CreateTable":
        if self.practice is not None and (self.rated or self.club is not None):
            raise ValueError(
                "a practice table is never a club's or a rated table: leave out 'club' and 'rated', or 'practice'"
            )
        return self

    def settings(self) -> dict[str, Any]:
        """The table's stored settings (``kf_tables.settings``)."""
        out: dict[str, Any] = {"hints": self.hints and not self.rated}  # rated: no hints
        if self.practice is not None:
            out["practice"] = self.practice.model_dump()
        return out


class HelloMessage(_Strict):
    type: Literal["hello"]
    token: Annotated[str, Field(max_length=128)] | None = None
    name: Name | None = None


class ActMessage(_Strict):
    type: Literal["act"]
    version: Annotated[int, Field(ge=0, le=2**31)]
    action: Annotated[dict[Annotated[str, Field(max_length=32)], JsonValue], Field(min_length=1, max_length=8)]


class PingMessage(_Strict):
    type: Literal["ping"]


ClientMessage = Annotated[Union[HelloMessage, ActMessage, PingMessage], Field(discriminator="type")]
_CLIENT_MESSAGE: TypeAdapter[HelloMessage | ActMessage | PingMessage] = TypeAdapter(ClientMessage)


def _words(err: ValidationError, what: str) -> str:
    """The first few faults of a ValidationError, each as ``field: reason`` (no input echoed)."""
    parts = []
    for e in err.errors(include_url=False, include_input=False)[:3]:
        loc = ".".join(str(p) for p in e["loc"] if p not in ("hello", "act", "ping"))
        msg = e["msg"]
        if e["type"] == "union_tag_invalid" or e["type"] == "union_tag_not_found":
            msg = "the type must be hello, act or ping"
            loc = "type"
        elif e["type"] == "extra_forbidden":
            msg = "unknown field"
        parts.append(f"{loc}: {msg}" if loc else msg)
    return f"{what}: " + "; ".join(parts)


def validate(model: type[_Strict], data: Any, what: str) -> Any:
    """``model`` from parsed JSON, or InputError naming the faults."""
    try:
        return model.model_validate(data)
    except ValidationError as err:
        raise InputError(_words(err, what)) from None


def parse_client_message(raw: str | bytes) -> HelloMessage | ActMessage | PingMessage:
    """One WebSocket message from a client, parsed and validated (InputError naming the fault)."""
    data = load_json(raw, "a message")
    if not isinstance(data, dict):
        raise InputError('a message must be one JSON object such as {"type": "ping"}')
    try:
        return _CLIENT_MESSAGE.validate_python(data)
    except ValidationError as err:
        kind = data.get("type")
        raise InputError(_words(err, kind if isinstance(kind, str) and len(kind) < 10 else "message")) from None
