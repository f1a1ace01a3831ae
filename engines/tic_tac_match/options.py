"""Tic Tac Match's lobby options."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from engines.base import GameOptions


class TicTacMatchOptions(GameOptions):
    """Lobby options; the lobby renders its form from this model's JSON schema."""

    players: Literal[2, 4] = Field(
        2, title="Players", description="2 players, or 4 in two teams (partners sit opposite)."
    )
    series: int = Field(
        1,
        ge=1,
        le=5,
        title="Matches to win",
        description="The first side to win this many matches wins (1–5).",
    )
