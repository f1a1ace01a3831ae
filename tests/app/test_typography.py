"""app/typography.py: French no-break spaces; other languages and markup untouched."""

from __future__ import annotations

from markupsafe import Markup

from app.typography import NARROW_NO_BREAK, NO_BREAK, french_spacing, typography


def test_french_marks_never_start_a_line() -> None:
    assert french_spacing("Bonjour, Ada ! Prêt ? Oui ; allons-y : « trois »") == (
        f"Bonjour, Ada{NARROW_NO_BREAK}! Prêt{NARROW_NO_BREAK}? Oui{NARROW_NO_BREAK}; allons-y{NO_BREAK}: "
        f"«{NO_BREAK}trois{NO_BREAK}»"
    )
    assert french_spacing("deux  :\ntrois") == f"deux{NO_BREAK}:\ntrois"  # a run of spaces, a line end after
    assert french_spacing("https://exemple.fr/?x=1 et 12:30") == "https://exemple.fr/?x=1 et 12:30"


def test_markup_stays_markup_and_english_is_left_alone() -> None:
    spaced = french_spacing(Markup("<p>Le but <strong>du jeu</strong> : aligner.</p>"))
    assert isinstance(spaced, Markup)
    assert spaced == Markup(f"<p>Le but <strong>du jeu</strong>{NO_BREAK}: aligner.</p>")
    assert typography("Ready ? Go !", "en") == "Ready ? Go !"
    assert typography("Prêt ?", "fr") == f"Prêt{NARROW_NO_BREAK}?"
