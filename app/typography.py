"""Typography by language. In French the space before ``: ; ! ?`` and inside ``« »`` does not break, so a line
never starts with the mark. The catalogues and rules pages are written with ordinary spaces; templates pass
their text through the ``typography`` filter (the ``i18n.t`` macro and the rules page), and the scripts'
``t()`` (static/js/i18n.js) does the same."""

from __future__ import annotations

import re

from markupsafe import Markup

NO_BREAK = "\u00a0"
"""Before a colon and inside guillemets."""
NARROW_NO_BREAK = "\u202f"
"""Before ; ! ?"""

_BEFORE_MARK = re.compile(r"[ \t\n]+([;:!?»])")
_AFTER_GUILLEMET = re.compile(r"«[ \t\n]+")


def _space_for(match: re.Match[str]) -> str:
    mark = match.group(1)
    return (NO_BREAK if mark in ":»" else NARROW_NO_BREAK) + mark


def french_spacing(text: str) -> str:
    """``text`` with French no-break spaces; markup stays markup (only spaces between words change)."""
    spaced = _AFTER_GUILLEMET.sub("«" + NO_BREAK, _BEFORE_MARK.sub(_space_for, text))
    return Markup(spaced) if isinstance(text, Markup) else spaced


def typography(text: str, lang: str) -> str:
    """The Jinja filter: ``text`` as typeset in ``lang``."""
    return french_spacing(text) if lang == "fr" else text
