"""Tricky Tactics' lobby options: the mode (who plays), rounds, cubes and what Locations are worth."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from engines.base import GameOptions

HUMANS = {"automa": 2, "3p": 3, "4p": 4}
"""Human seats per mode (the automa is no seat)."""


class TrickyTacticsOptions(GameOptions):
    mode: Literal["automa", "3p", "4p"] = Field(
        "automa", description="automa: 2 humans + the automa; 3p: 3 humans; 4p: 4 humans"
    )
    rounds: int = Field(3, ge=1, le=10, description="rounds to play")
    cubes: int = Field(10, ge=1, le=40, description="cubes per player")
    value_k: int = Field(3, ge=0, le=20, description="points for controlling a K Location")
    value_q: int = Field(2, ge=0, le=20, description="points for controlling a Q Location")
    value_j: int = Field(1, ge=0, le=20, description="points for controlling a J Location")
    area_bonus: bool = Field(True, description="bonus for controlling all three Locations of a suit")
    area_bonus_points: int = Field(2, ge=0, le=20, description="size of the area bonus")
