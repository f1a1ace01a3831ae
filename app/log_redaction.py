"""Tokens never reach a log: uvicorn writes every request's path with its query string (HTTP access lines
and its ``"WebSocket /ws/CODE?…" [accepted]`` lines), so a ``token=`` parameter, which this app no longer
reads but an old or careless client may still send, is blanked before a line is written."""

from __future__ import annotations

import logging
import re
from typing import Any

TOKEN_PARAMETER = re.compile(r"([?&;](?:access_)?token=)[^&;#\s\"']*", re.IGNORECASE)
REDACTED = "[redacted]"
LOGGERS = ("uvicorn.access", "uvicorn.error")
"""uvicorn's loggers that write request paths (its WebSocket lines go to uvicorn.error)."""


def redact(value: Any) -> Any:
    return TOKEN_PARAMETER.sub(rf"\g<1>{REDACTED}", value) if isinstance(value, str) else value


class RedactTokens(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        record.msg = redact(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(redact(arg) for arg in record.args)
        elif isinstance(record.args, dict):
            record.args = {key: redact(arg) for key, arg in record.args.items()}
        return True


def install() -> None:
    """On uvicorn's loggers (a filter on a logger sees the records logged to it directly); once."""
    for name in LOGGERS:
        logger = logging.getLogger(name)
        if not any(isinstance(existing, RedactTokens) for existing in logger.filters):
            logger.addFilter(RedactTokens())
