"""Lessons over HTTP: a step's position, and what a learner's try did on it. Nothing is stored: every try
is played again from the step's position on the game's engine (engines/lesson.py), outside any room."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from pydantic import BaseModel, ConfigDict, Field

from app.deps import ERROR_RESPONSES
from app.errors import ApiError
from app.live.game import log_entries
from engines.base import JSON, Event, Seat
from engines.lesson import Attempt, LessonRunner, Verdict
from engines.registry import UnknownGame, get_game

router = APIRouter(prefix="/api/learn", tags=["learn"], responses=ERROR_RESPONSES)


class Frame(BaseModel):
    """The board after one move (or before any): what a renderer's ``update`` gets in a game."""

    view: dict[str, Any]
    to_act: list[int]
    events: list[dict[str, Any]]
    log: list[dict[str, Any]]


class StepOut(BaseModel):
    game: str
    step: int
    """1-based, as the counter shows it."""
    of: int
    id: str
    """The step's name: its texts are ``<game>.lesson.<id>.prompt``, ``.done`` and ``.miss``."""
    seat: int
    seats: list[dict[str, Any]]
    frame: Frame
    hint: dict[str, JSON]
    """The move the step asks for, shown after two misses."""
    unjudged: list[str]
    """Action types the page keeps to itself (engines/lesson.py ``Lesson.unjudged``)."""


class TryIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    action: dict[str, Any] = Field(description="The learner's move, as a game's `act` message carries it.")


class TryOut(BaseModel):
    verdict: Verdict
    reason: dict[str, Any] | None = None
    """For ``refused``: the refusal as a game's error sends it (``{"key", "params"}``)."""
    frames: list[Frame]
    """The board after each move played: the learner's, then the scripted replies."""


def runner_for(game: str) -> LessonRunner:
    try:
        found = get_game(game)
    except UnknownGame:
        raise ApiError(404, "unknown_game", note=f"no game {game!r}", game=game) from None
    if found.lesson is None:
        raise ApiError(404, "no_lesson", note=f"{game} has no lesson", game=game)
    return LessonRunner(found.engine, found.lesson)


def step_index(runner: LessonRunner, step: int) -> int:
    if not 1 <= step <= len(runner.lesson.steps):
        raise ApiError(404, "bad_step", note=f"there is no step {step}", step=step)
    return step - 1


def _frame(runner: LessonRunner, seat: Seat, state: Any, events: list[Event], log: list[dict[str, Any]]) -> Frame:
    engine = runner.engine
    return Frame(
        view=engine.view(state, seat),
        to_act=sorted(engine.to_act(state)),
        events=[event.redact(seat) for event in events],
        log=log,
    )


def _frames(runner: LessonRunner, index: int, attempt: Attempt) -> list[Frame]:
    engine, seat = runner.engine, runner.seat(index)
    before, frames, log = attempt.start, [], []
    for version, (mover, action, after, events) in enumerate(attempt.played, 1):
        actor = "player" if mover == seat else "bot"
        log += log_entries(engine, before, mover, action, actor, version, (after, events))
        frames.append(_frame(runner, seat, after, events, list(log)))
        before = after
    return frames


@router.get("/{game}/steps/{step}")
async def get_step(game: str, step: int) -> StepOut:
    runner = runner_for(game)
    index = step_index(runner, step)
    seat, position = runner.seat(index), runner.position(index)
    seats = runner.engine.seats_of(position.state)
    return StepOut(
        game=game,
        step=step,
        of=len(runner.lesson.steps),
        id=runner.step(index).id,
        seat=seat,
        seats=[info.to_json(number) for number, info in enumerate(seats)],
        frame=_frame(runner, seat, position.state, [], []),
        hint=runner.step(index).ask[0],
        unjudged=list(runner.lesson.unjudged),
    )


@router.post("/{game}/steps/{step}/try")
async def try_move(game: str, step: int, body: TryIn) -> TryOut:
    runner = runner_for(game)
    index = step_index(runner, step)
    attempt = runner.attempt(index, body.action)
    reason = None if attempt.reason is None else dict(attempt.reason)
    return TryOut(verdict=attempt.verdict, reason=reason, frames=_frames(runner, index, attempt))
