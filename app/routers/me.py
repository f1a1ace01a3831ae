"""Anonymous identity: choose a name, get a secret token (cookie)."""

from __future__ import annotations

from fastapi import APIRouter, HTTPException, Response
from pydantic import BaseModel
from sqlalchemy import update

from app.deps import ERROR_RESPONSES, OptionalPlayer, SessionDep, SettingsDep
from app.identity import COOKIE, BadName, clean_name, hash_token, new_token
from app.models import Player

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
        raise HTTPException(status_code=401, detail="no identity yet: POST /api/me with a name")
    return MeOut(id=player.id, name=player.name)


@router.post("", response_model=MeOut)
async def set_name(
    body: NameIn, player: OptionalPlayer, session: SessionDep, settings: SettingsDep, response: Response
) -> MeOut:
    try:
        name = clean_name(body.name, settings.name_max_length)
    except BadName as err:
        raise HTTPException(status_code=422, detail=str(err)) from None
    if player is not None:
        await session.execute(update(Player).where(Player.id == player.id).values(name=name))
        await session.commit()
        return MeOut(id=player.id, name=name)
    token = new_token()
    fresh = Player(token_hash=hash_token(token), name=name)
    session.add(fresh)
    await session.commit()
    response.set_cookie(
        COOKIE, token, max_age=3600 * 24 * 365, httponly=True, samesite="lax", secure=settings.secure_cookies
    )
    return MeOut(id=fresh.id, name=name, token=token)
