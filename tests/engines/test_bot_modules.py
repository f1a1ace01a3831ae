"""Every game of the registry plays at every level: its package hands over a strong bot of its own (the
``Game`` descriptor requires one, so a game without it cannot be listed), never the normal bot again."""

from __future__ import annotations

from engines.levels import LEVELS, level_bot
from engines.registry import games
from engines.search import SearchBot


def test_every_listed_game_has_a_strong_bot() -> None:
    for game in games():
        strong = level_bot(game.name, "strong")
        assert strong is not None and strong is not level_bot(game.name, "normal")
        assert isinstance(strong, SearchBot) or strong is game.strong


def test_every_level_of_every_game_has_a_bot() -> None:
    for game in games():
        for level in LEVELS:
            assert level_bot(game.name, level) is not None, (game.name, level)
