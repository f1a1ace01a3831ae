"""Room codes that are easy to read aloud: no look-alike characters (0/O, 1/I/L, 2/Z, 5/S, 8/B, G/6, U/V)."""

from __future__ import annotations

import secrets

ALPHABET = "ACDEFHJKMNPRTWXY34679"
LENGTH = 5


def new_code() -> str:
    return "".join(secrets.choice(ALPHABET) for _ in range(LENGTH))


def normalise(raw: str) -> str:
    """Upper-case and drop spaces and dashes, so "k7h-xm" and "K7 HXM" both work."""
    return "".join(ch for ch in raw.upper() if ch not in " -_\t")


def is_well_formed(code: str) -> bool:
    return len(code) == LENGTH and all(ch in ALPHABET for ch in code)
