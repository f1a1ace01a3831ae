"""The options a Trick-Tac-Foe table is created with, and the number of rounds they make."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from engines.base import GameOptions


class TrickTacFoeOptions(GameOptions):
    """Lobby options; the lobby renders its form from this model's JSON schema."""

    players: Literal[2, 4] = Field(
        2, title="Players", description="2 players head to head, or 4 in two teams (Red: North + East)."
    )
    one_shot: bool = Field(
        False,
        title="One-shot",
        description="Play a single round instead of the standard game (2 rounds for 2 players, 3 for 4).",
    )
    turn_timer: bool = Field(
        False,
        title="Turn timer",
        description="Each step has a time limit: an absent player commits their lowest card.",
    )
    turn_seconds: int = Field(
        45, ge=5, le=600, title="Seconds per step", description="The turn timer (5–600 s), when it is on."
    )


def rounds_for(options: TrickTacFoeOptions) -> int:
    if options.one_shot:
        return 1
    return 2 if options.players == 2 else 3
