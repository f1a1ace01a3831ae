"""Tri-Tac's lobby options."""

from __future__ import annotations

from pydantic import Field

from engines.base import GameOptions

MIN_SIZE = 3
MAX_SIZE = 12


class TriTacOptions(GameOptions):
    """Lobby options; the lobby renders its form from this model's JSON schema."""

    size: int = Field(
        5, ge=MIN_SIZE, le=MAX_SIZE, title="Board size", description="The board is size × size cells (3–12)."
    )
    power_play: bool = Field(
        False,
        title="Power Play",
        description="Once per game, with at least 5 points, replace one opponent marker with your own.",
    )
    combo_strike: bool = Field(
        False, title="Combo Strike", description="+1 point when you score on two of your turns in a row."
    )
    time_challenge: bool = Field(
        False,
        title="Time Challenge",
        description="Each move has a time limit: too slow and the turn is lost.",
    )
    time_seconds: int = Field(
        30,
        ge=5,
        le=300,
        title="Seconds per move",
        description="The Time Challenge limit (5–300 seconds); used only when Time Challenge is on.",
        json_schema_extra={"x-show-if": "time_challenge"},
    )
    dynamic_board: bool = Field(
        False,
        title="Dynamic Board",
        description="When the board is full, both players may vote to add a ring of cells (up to 12×12).",
    )
    special_squares: bool = Field(
        False,
        title="Special Squares",
        description="About one cell in ten is special: a new line through one is worth 2 points.",
    )
