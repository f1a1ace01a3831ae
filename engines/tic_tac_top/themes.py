"""Themes: a name and its 12 words, the language decks they come from, and how they are dealt to the turns."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engines.base import JSON, InvalidOptions

WORDS_PER_THEME = 12
MAX_THEME_NAME = 60
MAX_WORD = 40

DECK_DIR = Path(__file__).parent / "decks"
"""Where the theme decks live (``en.json``, ``fr.json``); tests may point it elsewhere."""


@dataclass(frozen=True)
class Theme:
    """A theme as the rules deal it: its name and its 12 words in card order."""

    name: str
    words: tuple[str, ...]

    def to_json(self) -> dict[str, JSON]:
        return {"name": self.name, "words": list(self.words)}


def clean_theme(name: Any, words: Any) -> Theme:
    """Validate one theme (deck or custom): a name and 12 distinct non-empty words, trimmed.

    Raises ``ValueError`` with a human-readable reason.
    """
    if not isinstance(name, str):
        raise ValueError("a theme name must be a string")
    name = " ".join(name.split())
    if not 1 <= len(name) <= MAX_THEME_NAME:
        raise ValueError(f"a theme name must be 1–{MAX_THEME_NAME} characters")
    if not isinstance(words, list | tuple) or not all(isinstance(w, str) for w in words):
        raise ValueError(f"theme {name!r}: words must be a list of strings")
    cleaned = [" ".join(w.split()) for w in words]
    if len(cleaned) != WORDS_PER_THEME:
        raise ValueError(f"theme {name!r}: needs exactly {WORDS_PER_THEME} words, got {len(cleaned)}")
    for w in cleaned:
        if not 1 <= len(w) <= MAX_WORD:
            raise ValueError(f"theme {name!r}: every word must be 1–{MAX_WORD} characters (got {w!r})")
    seen: set[str] = set()
    for w in cleaned:
        if w.casefold() in seen:
            raise ValueError(f"theme {name!r}: the word {w!r} appears twice")
        seen.add(w.casefold())
    return Theme(name, tuple(cleaned))


_DECKS: dict[str, tuple[Theme, ...]] = {}


def load_deck(language: str) -> tuple[Theme, ...]:
    """The theme deck of a language, read once from ``DECK_DIR/<language>.json`` and validated."""
    path = DECK_DIR / f"{language}.json"
    key = str(path)
    if key not in _DECKS:
        try:
            raw = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise InvalidOptions(f"no {language!r} theme deck is installed ({path})") from None
        if not isinstance(raw, list):
            raise InvalidOptions(f"{path}: a theme deck must be a JSON list")
        themes: list[Theme] = []
        for i, item in enumerate(raw):
            if not isinstance(item, dict):
                raise InvalidOptions(f"{path}: theme #{i} must be an object")
            try:
                themes.append(clean_theme(item.get("name"), item.get("words")))
            except ValueError as err:
                raise InvalidOptions(f"{path}: theme #{i}: {err}") from None
        _DECKS[key] = tuple(themes)
    return _DECKS[key]


def deal_offers(pool: Sequence[Theme], turns: int) -> tuple[tuple[Theme, ...], ...]:
    """Pairs while there are enough themes for every later turn to get one, then single themes."""
    pairs = max(0, min(turns, len(pool) - turns))
    offers: list[tuple[Theme, ...]] = []
    i = 0
    for t in range(turns):
        k = 2 if t < pairs else 1
        offers.append(tuple(pool[i : i + k]))
        i += k
    return tuple(offers)
