"""The catalogues: every string a page or a script shows, one catalogue per language.

A language's catalogue is the site's files, ``static/i18n/<lang>/<area>.json``, and each game's own,
``static/games/<game>/i18n/<lang>.json`` (for every game of the registry), merged: a key lives in exactly one
file, and both languages have the same files and keys (tests/app/test_i18n_catalogues.py).
Templates phrase through ``t()`` (the ``i18n.t`` macro of templates/_i18n.html); the scripts fetch the same
merged catalogue from ``/i18n/<lang>/<digest>.json`` (app/routers/i18n.py) and phrase with
static/js/i18n.js.

Placeholders: ``t("fr", "home.seats", min=2, max=4)`` replaces ``{min}`` and ``{max}``. French typography
(app/typography.py) is applied to the catalogue's text before the values go in, so names are left as typed.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any, Protocol

from app import game_folders
from app.typography import typography

LANGUAGES = ("en", "fr")
DEFAULT = "en"
COOKIE = "tf_lang"
"""Set by the header's EN/FR switch (static/js/prefs.js)."""
FOLDER = Path(__file__).resolve().parents[1] / "static" / "i18n"


class DuplicateKey(ValueError):
    """A key written in two files of one language."""


def parts(lang: str, games: tuple[str, ...] | None = None) -> dict[str, Path]:
    """The files of a language's catalogue, by part: each site file by its name (``site``, ``room``…), then
    each game (of the registry unless given) by its name: the game's folder holds its texts."""
    found = {path.stem: path for path in sorted((FOLDER / lang).glob("*.json"))}
    for game in game_folders.names() if games is None else games:
        path = game_folders.catalogue_file(game, lang)
        if not path.is_file():
            continue  # a game without texts: tests/app/test_i18n_catalogues.py fails on it, pages still work
        if game in found:
            raise DuplicateKey(f"{lang}: {found[game]} is named like the game {game!r}")
        found[game] = path
    return found


def files(lang: str) -> list[Path]:
    """The files of a language's catalogue, in a fixed order."""
    return list(parts(lang).values())


def catalogue(lang: str) -> Mapping[str, str]:
    """The language's merged catalogue (read once per process and list of games)."""
    return _catalogue(lang, game_folders.names())


@cache
def _catalogue(lang: str, games: tuple[str, ...]) -> Mapping[str, str]:
    merged: dict[str, str] = {}
    where: dict[str, str] = {}
    for path in parts(lang, games).values():
        name = str(path.relative_to(FOLDER.parent)) if path.is_relative_to(FOLDER.parent) else str(path)
        for key, text in json.loads(path.read_text(encoding="utf-8")).items():
            if key in merged:
                raise DuplicateKey(f"{lang}: {key!r} is in both {where[key]} and {name}")
            merged[key] = text
            where[key] = name
    return merged


def catalogue_json(lang: str) -> bytes:
    """The catalogue as the scripts receive it (compact UTF-8 JSON, keys sorted so the digest is stable)."""
    return _catalogue_json(lang, game_folders.names())


@cache
def _catalogue_json(lang: str, games: tuple[str, ...]) -> bytes:
    return json.dumps(_catalogue(lang, games), ensure_ascii=False, sort_keys=True, separators=(",", ":")).encode()


def digest(lang: str) -> str:
    """A short hash of the catalogue's content: it names the scripts' copy, so a browser may keep it forever."""
    return _digest(lang, game_folders.names())


@cache
def _digest(lang: str, games: tuple[str, ...]) -> str:
    return hashlib.sha256(_catalogue_json(lang, games)).hexdigest()[:16]


def catalogue_url(lang: str) -> str:
    return f"/i18n/{lang}/{digest(lang)}.json"


def has(lang: str, key: str) -> bool:
    return key in catalogue(lang) or key in catalogue(DEFAULT)


def t(lang: str, key: str, **params: Any) -> str:
    """``key`` in ``lang`` (else in English, else the key itself), typeset, with its ``{placeholders}`` filled."""
    text = typography(catalogue(lang).get(key, catalogue(DEFAULT).get(key, key)), lang)
    for name, value in params.items():
        text = text.replace("{" + name + "}", str(value))
    return text


def number(lang: str, value: float, digits: int = 0) -> str:
    """A number as the language writes it: 1,234.5 in English, 1 234,5 in French."""
    text = f"{value:,.{digits}f}"
    return text.replace(",", "\u202f").replace(".", ",") if lang == "fr" else text


class _Request(Protocol):
    @property
    def cookies(self) -> Mapping[str, str]: ...
    @property
    def headers(self) -> Mapping[str, str]: ...


def pick_language(request: _Request | None) -> str:
    """The ``tf_lang`` cookie, else the first supported language of the browser's Accept-Language, else
    English. The page writes it into ``<html lang>``, so scripts and templates agree."""
    if request is None:
        return DEFAULT
    chosen = request.cookies.get(COOKIE)
    if chosen in LANGUAGES:
        return chosen
    for part in (request.headers.get("accept-language") or "").split(","):
        code = part.split(";")[0].strip()[:2].lower()
        if code in LANGUAGES:
            return code
    return DEFAULT


def install(globals_: dict[str, Any]) -> None:
    """Make the catalogue callable from templates (templates/_i18n.html wraps these in its macros)."""
    globals_.update(
        i18n_pick=pick_language,
        i18n_t=t,
        i18n_has=has,
        i18n_number=number,
        i18n_catalogue_url=catalogue_url,
    )
