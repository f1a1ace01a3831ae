"""A bound on HTTP request bodies, so the app does not depend on a proxy for one (``make run`` has none):
past ``max_body_bytes`` a request gets 413 ``body_too_large`` without the body being read further."""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.errors import ApiError, send_error


class BodyLimit:
    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        too_large = ApiError(413, "body_too_large", max_bytes=self.max_bytes)
        declared = _content_length(scope)
        if declared is not None and declared > self.max_bytes:
            await send_error(send, too_large)  # refused before a byte of the body is read
            return
        received = 0

        async def bounded_receive() -> Message:
            # A body without a length (chunked) or longer than it said: counted as it arrives. The error is an
            # HTTPException, which FastAPI passes on from a body read, so the app's handler answers 413.
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.max_bytes:
                    raise too_large
            return message

        await self.app(scope, bounded_receive, send)


def _content_length(scope: Scope) -> int | None:
    for name, value in scope.get("headers", ()):
        if name == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None
