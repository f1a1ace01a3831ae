"""Anonymous identity: a random secret token per player, kept in a cookie; only its hash is stored."""

from __future__ import annotations

import hashlib
import secrets
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.models import Player

COOKIE = "tf_token"


def new_token() -> str:
    return secrets.token_urlsafe(24)


def bearer_token(authorization: str | None) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header, if that is what it is."""
    if authorization and authorization[:7].lower() == "bearer ":
        return authorization[7:].strip() or None
    return None


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class BadName(ValueError):
    """``code`` (``name_not_text``, ``name_empty``, ``name_too_long`` with ``params["max"]``,
    ``name_control``) is what the page phrases; ``str(err)`` is an English note."""

    def __init__(self, message: str, code: str, **params: Any) -> None:
        super().__init__(message)
        self.code = code
        self.params = params


def clean_name(raw: object, max_length: int) -> str:
    if not isinstance(raw, str):
        raise BadName("name must be a string", "name_not_text")
    name = " ".join(raw.split())
    if not name:
        raise BadName("name must not be empty", "name_empty")
    if len(name) > max_length:
        raise BadName(f"name must be at most {max_length} characters", "name_too_long", max=max_length)
    if any(not ch.isprintable() for ch in name):
        raise BadName("name contains control characters", "name_control")
    return name


MAX_TOKEN_LENGTH = 200
"""Longer tokens are refused without a lookup (ours are 32 characters)."""


async def player_for_token(session: AsyncSession, token: str | None) -> Player | None:
    if not token or len(token) > MAX_TOKEN_LENGTH:
        return None
    return (await session.execute(select(Player).where(Player.token_hash == hash_token(token)))).scalar_one_or_none()
