"""A game's client folder, ``static/games/<game>/``: all the browser and the pages use of one game.

It holds the renderer's ES modules (entered by ``index.js``), ``style.css``, ``icon.svg``, one catalogue per
language (``i18n/<lang>.json``) and the rules pages (``rules/<lang>.html``, Jinja templates). The folder is
named by the engine's name, and the registry alone says which games exist: nothing here lists them, and
the list is asked for each time, since tests may register a game while the app runs.
"""

from __future__ import annotations

from pathlib import Path

from engines.registry import all_engines

STATIC = Path(__file__).resolve().parents[1] / "static"
FOLDERS = STATIC / "games"
URL = "/static/games"
GENERIC_ICON = "/static/img/generic-game.svg"
"""For a game this server does not know (a room or a replay of a game since removed)."""
TEMPLATE_PREFIX = "games"
"""Jinja names ``games/<game>/rules/<lang>.html`` for the rules pages (app/routers/pages.py loads them)."""
RULES = "rules"
"""The sub-folder of a game's folder that holds templates: rendered by the app, never served as they are."""


def names() -> tuple[str, ...]:
    """The games of the registry, in the lobby's order."""
    return tuple(engine.name for engine in all_engines())


def folder(game: str) -> Path:
    return FOLDERS / game


def catalogue_file(game: str, lang: str) -> Path:
    return folder(game) / "i18n" / f"{lang}.json"


def icon_url(game: str) -> str:
    """The game's own icon, or the generic one for a game that is not in the registry (or has no icon)."""
    if game in names() and (folder(game) / "icon.svg").is_file():
        return f"{URL}/{game}/icon.svg"
    return GENERIC_ICON


def icon_urls() -> dict[str, str]:
    """Every game's icon, for the scripts (the lobby's game picker)."""
    return {game: icon_url(game) for game in names()}


def rules_templates(game: str, lang: str, fallback: str) -> list[str]:
    """The Jinja names of a game's rules page in ``lang``, then in ``fallback`` (the first that exists wins)."""
    return [f"{TEMPLATE_PREFIX}/{game}/{RULES}/{code}.html" for code in dict.fromkeys((lang, fallback))]
