"""The /static mount: static/ as it is, less the templates kept in the games' folders.

A game's rules pages sit in its folder (``static/games/<game>/rules/``, app/game_folders.py) beside its
other files, but they are Jinja templates the pages render: served as they are, they would show their
template code, so they are not found here.
"""

from __future__ import annotations

import os
from pathlib import PurePosixPath

from starlette.staticfiles import StaticFiles

from app.game_folders import FOLDERS, RULES, STATIC

_GAMES = FOLDERS.relative_to(STATIC).as_posix()


class StaticFolder(StaticFiles):
    def lookup_path(self, path: str) -> tuple[str, os.stat_result | None]:
        parts = PurePosixPath(path).parts
        if len(parts) > 2 and parts[0] == _GAMES and parts[2] == RULES:
            return "", None
        return super().lookup_path(path)
