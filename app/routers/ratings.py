"""Per-game leaderboards (OpenSkill ratings; the displayed rating is the conservative mu − 3σ)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from app.deps import ERROR_RESPONSES, ServicesDep
from app.errors import ApiError
from app.queries import leaderboard
from engines.base import EngineError
from engines.registry import get_engine

router = APIRouter(prefix="/api/ratings", tags=["ratings"], responses=ERROR_RESPONSES)


@router.get("/{game}")
async def game_leaderboard(game: str, services: ServicesDep) -> list[dict[str, Any]]:
    try:
        get_engine(game)
    except EngineError as err:
        raise ApiError(404, "unknown_game", note=str(err), game=game) from None
    return await leaderboard(services.sessions, game)
