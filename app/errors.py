"""Errors that carry a machine code and its parameters, never a sentence for players: the page or client
words them (``{"detail": code, "code": code, "params": {...}}``)."""

from __future__ import annotations

from typing import Any

from starlette.exceptions import HTTPException


class ApiError(HTTPException):
    def __init__(self, status_code: int, code: str, **params: Any) -> None:
        super().__init__(status_code=status_code, detail=code)
        self.code = code
        self.params = params

    def body(self) -> dict[str, Any]:
        return {"detail": self.code, "code": self.code, "params": self.params}
