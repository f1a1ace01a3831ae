"""Incoming WebSocket messages, validated with pydantic; outgoing ones are plain dicts encoded by orjson."""

from __future__ import annotations

from typing import Annotated, Any, Literal

import orjson
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError, model_validator

from engines.lesson import MAX_STEPS


class _Msg(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    id: str | None = Field(default=None, max_length=64)
    """Optional client-chosen id, echoed in the ``ack`` or ``error`` it causes."""


class Sit(_Msg):
    type: Literal["sit"]
    seat: int


class Stand(_Msg):
    type: Literal["stand"]


class Configure(_Msg):
    type: Literal["configure"]
    game: str | None = None
    options: dict[str, Any] | None = None


class AddBot(_Msg):
    """Host seats a bot at ``level``, or sets the level of the bot already there."""

    type: Literal["add_bot"]
    seat: int
    level: Literal["easy", "normal", "strong"] = "normal"


class RemoveBot(_Msg):
    type: Literal["remove_bot"]
    seat: int


class RoomSettingsMsg(_Msg):
    type: Literal["room_settings"]
    locked: bool | None = None
    spectators: bool | None = None
    turn_seconds: int | None = None
    grace_seconds: int | None = None


class Kick(_Msg):
    type: Literal["kick"]
    player: int


class Invite(_Msg):
    """Host lets a kicked player back in (a new invite)."""

    type: Literal["invite"]
    player: int


class MakeHost(_Msg):
    type: Literal["make_host"]
    player: int


class MoveSeat(_Msg):
    """Host moves a player (or a bot) to another seat; whoever sat there swaps places."""

    type: Literal["move_seat"]
    seat: int
    to: int


class ShuffleTeams(_Msg):
    type: Literal["shuffle"]


class Chat(_Msg):
    type: Literal["chat"]
    text: str
    team: bool = False


class Start(_Msg):
    type: Literal["start"]


class Rematch(_Msg):
    type: Literal["rematch"]


class Act(_Msg):
    type: Literal["act"]
    action: dict[str, Any]
    version: int


class Sync(_Msg):
    type: Literal["sync"]
    version: int | None = None


class Ping(_Msg):
    type: Literal["ping"]


class Learning(_Msg):
    """How far the sender is in the chosen game's lesson while the room waits; ``step`` null: stopped."""

    type: Literal["learning"]
    step: int | None = Field(ge=1, le=MAX_STEPS)
    of: int | None = Field(default=None, ge=1, le=MAX_STEPS)

    @model_validator(mode="after")
    def _step_within_the_lesson(self) -> Learning:
        if self.step is None:
            if self.of is not None:
                raise ValueError("of is only given with a step")
        elif self.of is None:
            raise ValueError("a step needs of, the lesson's number of steps")
        elif self.step > self.of:
            raise ValueError("step must be at most of")
        return self


ClientMessage = Annotated[
    Sit
    | Stand
    | Configure
    | AddBot
    | RemoveBot
    | RoomSettingsMsg
    | Kick
    | Invite
    | MakeHost
    | MoveSeat
    | ShuffleTeams
    | Chat
    | Start
    | Rematch
    | Act
    | Sync
    | Ping
    | Learning,
    Field(discriminator="type"),
]
_adapter: TypeAdapter[ClientMessage] = TypeAdapter(ClientMessage)


class ProtocolError(Exception):
    """A refusal: ``code`` (and, for a move the rules refuse, the engine's ``reason`` as ``{"key", "params"}``)
    is what the client phrases; ``message`` is an English note for developers."""

    def __init__(
        self, code: str, message: str, msg_id: str | None = None, reason: dict[str, Any] | None = None
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.msg_id = msg_id
        self.reason = reason


def parse(raw: str | bytes, max_bytes: int) -> ClientMessage:
    size = len(raw.encode() if isinstance(raw, str) else raw)
    if size > max_bytes:
        raise ProtocolError("too_large", f"message of {size} bytes exceeds the limit of {max_bytes}")
    try:
        data = orjson.loads(raw)
    except orjson.JSONDecodeError:
        raise ProtocolError("bad_json", "message is not valid JSON") from None
    msg_id = data.get("id") if isinstance(data, dict) and isinstance(data.get("id"), str) else None
    if not isinstance(data, dict):
        raise ProtocolError("bad_message", "message must be a JSON object")
    try:
        return _adapter.validate_python(data)
    except ValidationError as err:
        first = err.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "message"
        raise ProtocolError("bad_message", f"{where}: {first['msg']}", msg_id) from None


def message_id(raw: str | bytes, max_bytes: int) -> str | None:
    """The client's ``id`` of a message we refuse without handling it (so the error can still be matched)."""
    if len(raw) > max_bytes:
        return None
    try:
        data = orjson.loads(raw)
    except orjson.JSONDecodeError:
        return None
    value = data.get("id") if isinstance(data, dict) else None
    return value if isinstance(value, str) and len(value) <= 64 else None


def encode(message: dict[str, Any]) -> bytes:
    return orjson.dumps(message)


def kept(payload: bytes) -> bytes:
    """An exact-size copy of a message to keep: orjson's bytes sit in a buffer much larger than the message,
    which is fine for what is sent and dropped, not for what a room holds on to."""
    return bytes(memoryview(payload))


def error(code: str, message: str, msg_id: str | None = None, reason: dict[str, Any] | None = None) -> bytes:
    body: dict[str, Any] = {"type": "error", "code": code, "message": message}
    if msg_id is not None:
        body["id"] = msg_id
    if reason is not None:
        body["reason"] = reason
    return orjson.dumps(body)
