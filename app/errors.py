"""Errors that carry a machine code and its parameters, never a sentence for players: the page or client
words them (``{"detail": code, "code": code, "params": {...}}``; ``detail`` is an English note for
developers instead of the code when one is given)."""

from __future__ import annotations

from typing import Any

import orjson
from starlette.exceptions import HTTPException
from starlette.types import Send


class ApiError(HTTPException):
    def __init__(self, status_code: int, code: str, *, note: str | None = None, **params: Any) -> None:
        super().__init__(status_code=status_code, detail=note or code)
        self.code = code
        self.params = params

    def body(self) -> dict[str, Any]:
        return {"detail": self.detail, "code": self.code, "params": self.params}


async def send_error(send: Send, error: ApiError) -> None:
    """Answer with ``error`` straight from an ASGI middleware (outside FastAPI's exception handlers)."""
    body = orjson.dumps(error.body())
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": error.status_code, "headers": headers})
    await send({"type": "http.response.body", "body": body})
