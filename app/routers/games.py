"""The games on offer and their option schemas (the lobby renders its form from them)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from pydantic import BaseModel

from app.deps import ERROR_RESPONSES
from engines.registry import all_engines

router = APIRouter(prefix="/api/games", tags=["games"], responses=ERROR_RESPONSES)


class GameInfo(BaseModel):
    name: str
    title: str
    min_seats: int
    max_seats: int
    options_schema: dict[str, Any]


def game_catalogue() -> list[GameInfo]:
    out = []
    for engine in all_engines():
        schema = engine.options_model.model_json_schema()
        default_seats = len(engine.seats(engine.parse_options({})))
        counts = [default_seats]
        props = schema.get("properties", {})
        players = props.get("players", {})
        if "enum" in players:
            counts = [int(v) for v in players["enum"]]
        elif "minimum" in players and "maximum" in players:
            counts = [int(players["minimum"]), int(players["maximum"])]
        out.append(
            GameInfo(
                name=engine.name,
                title=engine.title,
                min_seats=min(counts),
                max_seats=max(counts),
                options_schema=schema,
            )
        )
    return out


@router.get("", response_model=list[GameInfo])
async def list_games() -> list[GameInfo]:
    return game_catalogue()
