"""What the host controls about a room, beyond the game and its options."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class RoomSettings(BaseModel):
    model_config = ConfigDict(extra="ignore")

    locked: bool = Field(default=False, description="Nobody new may join (seated players and the host still can).")
    spectators: bool = Field(default=True, description="People without a seat may watch a game in progress.")
    turn_seconds: int | None = Field(
        default=None, ge=5, le=600, description="Room turn timer; on expiry the game's default action is played."
    )
    grace_seconds: int = Field(
        default=60, ge=5, le=600, description="How long a player may be away before a bot stands in."
    )
    banned: list[int] = Field(default_factory=list, description="Players kicked from this room.")
    rematch: list[int] = Field(
        default_factory=list, description="Seated players who accepted a rematch of the game ``rematch_after``."
    )
    rematch_after: int | None = Field(
        default=None, description="The finished game (its id) those acceptances follow: a new game voids them."
    )
