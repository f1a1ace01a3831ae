"""FastAPI dependencies: the app's services and the current player."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import Depends, Request
from pydantic import BaseModel
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker
from starlette.requests import HTTPConnection

from app.errors import ApiError
from app.identity import COOKIE, bearer_token
from app.limits import AttemptLimiter
from app.live.hub import Hub
from app.models import Player
from app.origins import OriginPolicy
from app.queries import player_by_token
from app.settings import Settings


class ErrorOut(BaseModel):
    """Every error response of the REST API."""

    detail: str
    code: str
    params: dict[str, Any] | None = None
    """The error's values, for the client to word it (app.errors.ApiError)."""


ERROR_RESPONSES: dict[int | str, dict[str, Any]] = {
    status: {"model": ErrorOut, "description": text}
    for status, text in (
        (400, "The body is not valid JSON"),
        (401, "No identity yet: POST /api/me first"),
        (403, "Not allowed"),
        (404, "Not found"),
        (413, "The request body is larger than max_body_bytes"),
        (422, "Invalid request: the detail names the field"),
        (429, "Too many attempts"),
    )
}


@dataclass
class Services:
    settings: Settings
    sessions: async_sessionmaker[AsyncSession]
    hub: Hub
    join_limiter: AttemptLimiter
    origins: OriginPolicy


def client_address(connection: HTTPConnection) -> str:
    return connection.client.host if connection.client else "unknown"


def get_services(request: Request) -> Services:
    services: Services = request.app.state.services
    return services


ServicesDep = Annotated[Services, Depends(get_services)]


def get_settings_dep(services: ServicesDep) -> Settings:
    return services.settings


SettingsDep = Annotated[Settings, Depends(get_settings_dep)]


def get_hub(services: ServicesDep) -> Hub:
    return services.hub


HubDep = Annotated[Hub, Depends(get_hub)]


def request_token(request: Request) -> str | None:
    return bearer_token(request.headers.get("authorization")) or request.cookies.get(COOKIE)


async def get_optional_player(request: Request, services: ServicesDep) -> Player | None:
    return await player_by_token(services.sessions, request_token(request))


OptionalPlayer = Annotated[Player | None, Depends(get_optional_player)]


async def get_player(player: OptionalPlayer) -> Player:
    if player is None:
        raise ApiError(401, "unauthorized", note="choose a name first (POST /api/me)")
    return player


CurrentPlayer = Annotated[Player, Depends(get_player)]


def base_url(request: Request, hub: Hub) -> str:
    """Join links: the address this request came in on, unless that is loopback and we know a LAN one."""
    host = request.url.hostname or ""
    if host in ("127.0.0.1", "localhost", "::1", "testserver"):
        return hub.base_url
    return str(request.base_url).rstrip("/")
