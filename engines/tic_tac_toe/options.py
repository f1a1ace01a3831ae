"""Tic-Tac-Toe's lobby options: none, so the lobby shows no form and every game is the classic one."""

from __future__ import annotations

from engines.base import GameOptions


class TicTacToeOptions(GameOptions):
    """No options. A game with some declares them here as fields (``Field(..., title=..., description=...)``):
    the lobby builds its form from this model's JSON schema, and each field needs its ``opt.<game>.<field>``
    texts in both catalogues."""
