"""The games on offer and their option schemas (the lobby renders its form from them)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from pydantic import BaseModel

from app.deps import ERROR_RESPONSES
from engines.base import EngineError
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
        counts = {len(engine.seats(engine.parse_options({})))}
        # Seat counts follow from the options (players 2 or 4, a mode with or without the automa…): try each
        # choice of every enumerated option and both ends of a "players" range.
        for field, prop in schema.get("properties", {}).items():
            values = list(prop.get("enum", []))
            if field == "players" and "minimum" in prop and "maximum" in prop:
                values += [prop["minimum"], prop["maximum"]]
            for value in values:
                try:
                    counts.add(len(engine.seats(engine.parse_options({field: value}))))
                except EngineError:
                    continue
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
