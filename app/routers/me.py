"""Anonymous identity: choose a name, get a secret token (cookie)."""

from __future__ import annotations

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel

from app import queries
from app.deps import ERROR_RESPONSES, CurrentPlayer, OptionalPlayer, ServicesDep, SettingsDep
from app.errors import ApiError
from app.identity import COOKIE, BadName, clean_name, hash_token, new_token
from app.settings import Settings

router = APIRouter(prefix="/api/me", tags=["identity"], responses=ERROR_RESPONSES)


class NameIn(BaseModel):
    name: str


class MeOut(BaseModel):
    id: int
    name: str
    token: str | None = None


@router.get("", response_model=MeOut)
async def who_am_i(player: OptionalPlayer) -> MeOut:
    if player is None:
        raise ApiError(401, "unauthorized", note="no identity yet: POST /api/me with a name")
    return MeOut(id=player.id, name=player.name)


@router.post("", response_model=MeOut)
async def set_name(
    body: NameIn,
    player: OptionalPlayer,
    services: ServicesDep,
    settings: SettingsDep,
    request: Request,
    response: Response,
) -> MeOut:
    try:
        name = clean_name(body.name, settings.name_max_length)
    except BadName as err:
        raise ApiError(422, err.code, note=str(err), **err.params) from None
    if player is not None:
        await queries.rename_player(services.sessions, player.id, name)
        return MeOut(id=player.id, name=name)
    token = new_token()
    player_id = await queries.add_player(services.sessions, name, hash_token(token))
    _set_token_cookie(request, response, token, settings)
    return MeOut(id=player_id, name=name, token=token)


@router.post("/token/rotate", response_model=MeOut)
async def rotate_token(
    player: CurrentPlayer, services: ServicesDep, settings: SettingsDep, request: Request, response: Response
) -> MeOut:
    """A new secret for the same player (seats, host role, ratings stay); the old one stops working at once.
    Sockets already open stay open until they close."""
    token = new_token()
    await queries.set_token_hash(services.sessions, player.id, hash_token(token))
    _set_token_cookie(request, response, token, settings)
    return MeOut(id=player.id, name=player.name, token=token)


def _set_token_cookie(request: Request, response: Response, token: str, settings: Settings) -> None:
    secure = settings.cookie_is_secure(request.url.scheme)
    response.set_cookie(COOKIE, token, max_age=3600 * 24 * 365, httponly=True, samesite="lax", secure=secure)
