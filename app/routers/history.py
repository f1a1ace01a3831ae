"""Finished games: list them, export them (options, seed, actions), import an export and replay it step by
step from any seat's point of view or with everything revealed. A game in progress is never exported: its
seed would reveal every hidden card."""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, Path, Query, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field

from app import queries
from app.codes import is_well_formed, normalise
from app.deps import ERROR_RESPONSES, ServicesDep, SettingsDep
from app.errors import ApiError
from app.replay import Replay, ReplayError, replay
from app.routers.rooms import refuse_if_guessing, wrong_code
from engines.base import SeatInfo

router = APIRouter(prefix="/api/history", tags=["history"], responses=ERROR_RESPONSES)

GameId = Annotated[int, Path(ge=1, le=2**31 - 1)]
SeatQuery = Annotated[int | None, Query(ge=0, le=63)]
StepQuery = Annotated[int, Query(ge=0, le=1_000_000)]


class GameExport(BaseModel):
    format: str = "threefold-game/1"
    engine: str
    options: dict[str, Any]
    seed: int = Field(ge=-(2**63), le=2**63 - 1)
    seats: list[dict[str, Any]]
    actions: list[dict[str, Any]]
    result: dict[str, Any] | None = None


class ImportResult(BaseModel):
    steps: int
    outcome: dict[str, Any] | None
    fingerprint: str
    log: list[dict[str, Any]]
    """The log entries (docs/protocol.md, "Log entries"): the client phrases them."""
    seats: list[dict[str, Any]]
    """Each seat (index, team, direction) and its player's name, to name the seats in the log."""


@router.get("/rooms/{code}")
async def room_games(code: str, services: ServicesDep, request: Request) -> list[dict[str, Any]]:
    await refuse_if_guessing(services, request)
    normal = normalise(code)
    games = await queries.room_games(services.sessions, normal) if is_well_formed(normal) else None
    if games is None:
        raise await wrong_code(services, request, code)
    return games


@router.get("/{game_id}/export", response_model=GameExport)
async def export_game(game_id: GameId, services: ServicesDep) -> GameExport:
    game = await queries.finished_game(services.sessions, game_id)
    if game is None:
        raise ApiError(404, "no_game", note=f"no finished game {game_id}", game_id=game_id)
    return GameExport(
        engine=game.engine,
        options=game.options,
        seed=game.seed,
        seats=game.seats,
        actions=game.actions,
        result=game.result,
    )


@router.post("/import", response_model=ImportResult)
async def import_game(export: GameExport, settings: SettingsDep) -> ImportResult | JSONResponse:
    """The body is bounded by ``max_body_bytes`` (app.body_limit), the replay by ``import_max_actions``, and it
    runs in a thread: a long replay on the event loop would stall every socket meanwhile."""
    if len(export.actions) > settings.import_max_actions:
        raise ApiError(422, "too_many_actions", actions=len(export.actions), max_actions=settings.import_max_actions)
    return await asyncio.to_thread(_imported, export)


def _imported(export: GameExport) -> ImportResult | JSONResponse:
    try:
        run = replay(export.engine, export.options, export.seed, export.actions)
    except ReplayError as err:
        # The page words the refusal from its code: which move (``step``) and why (``reason``).
        refusal = {"detail": str(err), "code": "import_refused", "step": err.step, "reason": err.reason}
        return JSONResponse(refusal, status_code=422)
    outcome = run.engine.outcome(run.final)
    infos = run.engine.seats_of(run.final)
    return ImportResult(
        steps=len(run.states) - 1,
        outcome=None if outcome is None else outcome.to_json(),
        fingerprint=run.fingerprint(),
        log=run.log_until(len(run.log)),
        seats=[_seat_json(i, info, export.seats[i] if i < len(export.seats) else {}) for i, info in enumerate(infos)],
    )


def _seat_json(index: int, info: SeatInfo, seat: dict[str, Any]) -> dict[str, Any]:
    return {**info.to_json(index), "name": seat.get("name"), "bot": bool(seat.get("bot"))}


@router.get("/{game_id}/replay")
async def replay_step(
    game_id: GameId, services: ServicesDep, step: StepQuery = 0, seat: SeatQuery = None, reveal: bool = False
) -> dict[str, Any]:
    """The view at ``step`` (0 = before the first action) as ``seat`` saw it (none: a spectator), or the full
    state with ``reveal``."""
    export = await export_game(game_id, services)
    run = await asyncio.to_thread(replay, export.engine, export.options, export.seed, export.actions)
    if not 0 <= step < len(run.states):
        last = len(run.states) - 1
        raise ApiError(422, "bad_step", note=f"step must be between 0 and {last}", max=last)
    if seat is not None and not 0 <= seat < len(export.seats):
        raise ApiError(422, "no_seat", note=f"no seat {seat}", seat=seat)
    state = run.states[step]
    outcome = run.engine.outcome(state)
    return {
        "game": export.engine,
        "step": step,
        "steps": len(run.states) - 1,
        "seats": [info.to_json(i) for i, info in enumerate(run.engine.seats_of(state))],
        "players": [s.get("name") for s in export.seats],
        "view": run.view(step, seat, reveal),
        "to_act": sorted(run.engine.to_act(state)),
        "outcome": None if outcome is None else outcome.to_json(),
        "log": run.log_until(step),
    }


@router.get("/{game_id}/views")
async def all_views(game_id: GameId, services: ServicesDep, seat: SeatQuery = None) -> dict[str, Any]:
    """Every step of a finished game as ``seat`` saw it (no seat: a spectator), for stepping through a
    replay in the browser without a request per step."""
    export = await export_game(game_id, services)
    run = await asyncio.to_thread(replay, export.engine, export.options, export.seed, export.actions)
    if seat is not None and not 0 <= seat < len(export.seats):
        raise ApiError(422, "no_seat", note=f"no seat {seat}", seat=seat)
    return {
        "game": export.engine,
        "seats": [info.to_json(i) for i, info in enumerate(run.engine.seats_of(run.final))],
        "players": [s.get("name") for s in export.seats],
        "bots": [bool(s.get("bot")) for s in export.seats],
        "steps": await asyncio.to_thread(_every_step, run, seat),
    }


def _every_step(run: Replay, seat: int | None) -> list[dict[str, Any]]:
    steps = []
    for index, state in enumerate(run.states):
        outcome = run.engine.outcome(state)
        steps.append(
            {
                "view": run.engine.view(state, seat),
                "to_act": sorted(run.engine.to_act(state)),
                "outcome": None if outcome is None else outcome.to_json(),
                "log": run.log[index - 1] if index else [],
            }
        )
    return steps
