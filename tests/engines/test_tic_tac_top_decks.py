"""Validation of the Tic Tac Top theme decks (engines/tic_tac_top/decks/*.json).

Each deck is a JSON list of {"name": str, "words": [12 str]}. Rules (docs/games/tic-tac-top.md):
at least 120 themes per language, 12 distinct short words per theme, no duplicate theme
names, and the French deck written in French rather than copied from the English one.
"""

from __future__ import annotations

import json
import unicodedata
from pathlib import Path
from typing import Any

import pytest

DATA_DIR = Path(__file__).resolve().parents[2] / "engines" / "tic_tac_top" / "decks"
LANGUAGES = ("en", "fr")
MIN_THEMES = 120
WORDS_PER_THEME = 12
MAX_WORD_CHARS = 24
MAX_WORDS_IN_ENTRY = 3
# A French theme sharing this many words with an English theme looks copied, not written.
MAX_SHARED_WORDS_ACROSS_LANGUAGES = 4


def _key(text: str) -> str:
    return text.strip().casefold()


def _load(lang: str) -> list[dict[str, Any]]:
    raw = (DATA_DIR / f"{lang}.json").read_text(encoding="utf-8")
    data = json.loads(raw)
    assert isinstance(data, list), f"{lang}.json must hold a JSON list"
    return data


DECKS: dict[str, list[dict[str, Any]]] = {lang: _load(lang) for lang in LANGUAGES}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_deck_has_enough_themes(lang: str) -> None:
    assert len(DECKS[lang]) >= MIN_THEMES


@pytest.mark.parametrize("lang", LANGUAGES)
def test_theme_shape(lang: str) -> None:
    problems: list[str] = []
    for i, theme in enumerate(DECKS[lang]):
        if not isinstance(theme, dict) or set(theme) != {"name", "words"}:
            problems.append(f"#{i}: must be an object with exactly 'name' and 'words'")
            continue
        name = theme["name"]
        if not isinstance(name, str) or not name.strip():
            problems.append(f"#{i}: empty or non-string name")
        elif name != name.strip():
            problems.append(f"{name!r}: name has surrounding whitespace")
        words = theme["words"]
        if not isinstance(words, list) or len(words) != WORDS_PER_THEME:
            problems.append(f"{name!r}: needs exactly {WORDS_PER_THEME} words")
            continue
        for word in words:
            if not isinstance(word, str) or not word.strip():
                problems.append(f"{name!r}: empty or non-string word {word!r}")
                continue
            if word != word.strip():
                problems.append(f"{name!r}: word {word!r} has surrounding whitespace")
            if len(word) > MAX_WORD_CHARS:
                problems.append(f"{name!r}: word {word!r} longer than {MAX_WORD_CHARS} chars")
            if len(word.split()) > MAX_WORDS_IN_ENTRY:
                problems.append(f"{name!r}: word {word!r} has more than {MAX_WORDS_IN_ENTRY} words")
            if unicodedata.normalize("NFC", word) != word:
                problems.append(f"{name!r}: word {word!r} is not NFC-normalised")
        keys = [_key(w) for w in words if isinstance(w, str)]
        if len(set(keys)) != len(keys):
            dupes = sorted({k for k in keys if keys.count(k) > 1})
            problems.append(f"{name!r}: duplicate words {dupes}")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_duplicate_theme_names(lang: str) -> None:
    names = [_key(t["name"]) for t in DECKS[lang]]
    dupes = sorted({n for n in names if names.count(n) > 1})
    assert not dupes, f"duplicate theme names in {lang}.json: {dupes}"


def test_french_theme_names_differ_from_english() -> None:
    english = {_key(t["name"]) for t in DECKS["en"]}
    shared = sorted(t["name"] for t in DECKS["fr"] if _key(t["name"]) in english)
    assert not shared, f"French themes named like English ones: {shared}"


def test_french_themes_are_not_copies_of_english_word_lists() -> None:
    english = [(t["name"], {_key(w) for w in t["words"]}) for t in DECKS["en"]]
    copied: list[str] = []
    for theme in DECKS["fr"]:
        words = {_key(w) for w in theme["words"]}
        for en_name, en_words in english:
            shared = words & en_words
            if len(shared) > MAX_SHARED_WORDS_ACROSS_LANGUAGES:
                copied.append(f"{theme['name']!r} ~ {en_name!r}: {sorted(shared)}")
    assert not copied, "\n".join(copied)


def test_french_deck_is_written_in_french() -> None:
    text = "".join(t["name"] + "".join(t["words"]) for t in DECKS["fr"])
    accented = sum(1 for ch in text if ch in "àâäçéèêëîïôöùûüÿœæÀÂÇÉÈÊËÎÏÔÙÛÜŒ")
    assert accented >= 100
    themes_with_accents = sum(1 for t in DECKS["fr"] if any(not ch.isascii() for ch in t["name"] + "".join(t["words"])))
    assert themes_with_accents >= len(DECKS["fr"]) // 2


def test_english_deck_is_plain_english() -> None:
    # Loanwords like "Café" are fine, but an English deck full of accents is likely French.
    text = "".join(t["name"] + "".join(t["words"]) for t in DECKS["en"])
    non_ascii = sum(1 for ch in text if not ch.isascii())
    assert non_ascii <= 20
