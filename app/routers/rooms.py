"""Rooms over HTTP: create one, look one up, its QR code. Live play happens on the WebSocket."""

from __future__ import annotations

import io
from typing import Any

import segno
from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, Field

from app.codes import is_well_formed, normalise
from app.deps import (
    ERROR_RESPONSES,
    CurrentPlayer,
    HubDep,
    Services,
    ServicesDep,
    SettingsDep,
    base_url,
    client_address,
)
from app.errors import ApiError
from app.live.lobby import options_reason
from app.live.room import Room
from engines.base import EngineError

router = APIRouter(prefix="/api/rooms", tags=["rooms"], responses=ERROR_RESPONSES)


class RoomIn(BaseModel):
    game: str = Field(max_length=32)
    options: dict[str, Any] | None = None
    seed: int | None = Field(
        default=None, ge=0, le=2**62, description="Only accepted when the server runs in testing mode."
    )


class RoomCreated(BaseModel):
    code: str
    url: str


async def refuse_if_guessing(services: Services, request: Request) -> None:
    """Every endpoint that takes a room code calls this first: one budget of wrong codes per address
    (``join_attempts_per_minute``), shared with the WebSocket, so no endpoint is a free oracle."""
    if await services.join_limiter.blocked(client_address(request)):
        raise ApiError(429, "rate_limited", note="too many wrong room codes; wait a minute")


async def wrong_code(services: Services, request: Request, raw_code: str) -> ApiError:
    """Count a failed lookup against the address; the 404 to raise."""
    await services.join_limiter.failed(client_address(request))
    return ApiError(404, "unknown_room", note=f"no room with code {raw_code!r}", room=raw_code)


async def find_room(services: Services, request: Request, raw_code: str) -> Room:
    """The room for a typed code; an address that keeps guessing wrong codes is refused for a while."""
    await refuse_if_guessing(services, request)
    code = normalise(raw_code)
    live = await services.hub.room(code) if is_well_formed(code) else None
    if live is None:
        raise await wrong_code(services, request, raw_code)
    return live


@router.post("", response_model=RoomCreated, status_code=201)
async def create_room(
    body: RoomIn, player: CurrentPlayer, hub: HubDep, settings: SettingsDep, request: Request
) -> RoomCreated:
    if body.seed is not None and not settings.testing:
        raise ApiError(403, "seed_not_allowed", note="a fixed seed is only accepted by a server in testing mode")
    try:
        code = await hub.create_room(player.id, body.game, body.options, body.seed)
    except EngineError as err:
        raise ApiError(422, "bad_options", note=str(err), reason=options_reason(err, body.game)) from None
    return RoomCreated(code=code, url=f"{base_url(request, hub)}/r/{code}")


@router.get("/{code}")
async def room_summary(code: str, hub: HubDep, services: ServicesDep, request: Request) -> dict[str, Any]:
    live = await find_room(services, request, code)
    return live.summary(base_url(request, hub))


@router.get("/{code}/qr.svg", response_class=Response)
async def room_qr(code: str, hub: HubDep, services: ServicesDep, request: Request) -> Response:
    live = await find_room(services, request, code)
    qr = segno.make(f"{base_url(request, hub)}/r/{live.code}", error="m")
    buffer = io.BytesIO()
    qr.save(
        buffer,
        kind="svg",
        scale=6,
        border=2,
        dark="#111",
        light="#fff",
        xmldecl=False,
        svgns=True,
        title=f"Join room {live.code}",
    )
    return Response(buffer.getvalue(), media_type="image/svg+xml")
