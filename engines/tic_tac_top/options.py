"""Tic Tac Top's lobby options, custom themes included."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from engines.base import GameOptions
from engines.tic_tac_top.themes import MAX_THEME_NAME, MAX_WORD, WORDS_PER_THEME, clean_theme

MAX_CUSTOM_THEMES = 60
QUICK_TARGET = 25
"""The points that end a quick game after the turn that reaches them."""


class CustomTheme(BaseModel):
    """A theme typed in by the host: a name and 12 distinct words (trimmed; case-insensitive distinct)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(title="Theme", description=f"1–{MAX_THEME_NAME} characters.")
    words: tuple[str, ...] = Field(
        title="Words", description=f"Exactly {WORDS_PER_THEME} distinct words, 1–{MAX_WORD} characters each."
    )

    @model_validator(mode="before")
    @classmethod
    def _clean(cls, data: Any) -> Any:
        if isinstance(data, Mapping) and "name" in data and "words" in data:
            theme = clean_theme(data["name"], data["words"])
            return {**data, "name": theme.name, "words": list(theme.words)}
        return data


class TicTacTopOptions(GameOptions):
    """Lobby options; the lobby renders its form from this model's JSON schema."""

    players: int = Field(4, ge=3, le=7, title="Players", description="3 to 7 players.")
    language: Literal["en", "fr"] = Field("en", title="Language", description="Theme deck: English or French.")
    hard_timer: bool = Field(
        False,
        title="90-second timer",
        description="Competitive: the writing closes 90 seconds after the theme is chosen, whatever happens.",
    )
    quick_game: bool = Field(
        False,
        title="Quick game",
        description="6–7 players only: the game ends after any turn where someone has 25 points or more.",
    )
    custom_themes: tuple[CustomTheme, ...] = Field(
        (),
        max_length=MAX_CUSTOM_THEMES,
        title="Custom themes",
        description="Themes of your own (12 words each); they are offered before the deck's themes.",
    )
    custom_only: bool = Field(
        False,
        title="Custom themes only",
        description="Play only the custom themes (at least one per player).",
    )
    reveal_pause: float = Field(
        3.0, ge=1, le=10, title="Reveal pause", description="Seconds between two announced words (1–10)."
    )
    score_pause: float = Field(
        8.0, ge=2, le=60, title="Score screen", description="Seconds the turn's scoring stays up (2–60)."
    )

    @model_validator(mode="after")
    def _consistent(self) -> TicTacTopOptions:
        if self.quick_game and self.players < 6:
            raise ValueError(f"the quick game (25 points) is only for 6 or 7 players, not {self.players}")
        if self.custom_only and len(self.custom_themes) < self.players:
            raise ValueError(
                f"custom themes only needs at least one theme per turn: {self.players} themes for "
                f"{self.players} players, got {len(self.custom_themes)}"
            )
        return self
