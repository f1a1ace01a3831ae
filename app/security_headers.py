"""Security headers on every HTTP response, as a plain ASGI middleware.

Not ``@app.middleware("http")``: Starlette's BaseHTTPMiddleware runs a task and memory streams per request,
and for a WebSocket it stays on the socket's call stack as one more coroutine for the socket's whole life.
Here a WebSocket gets the app's own coroutine back (no frame of ours), and an HTTP response gets the
headers added to its start message.
"""

from __future__ import annotations

from collections.abc import Awaitable

from starlette.types import ASGIApp, Message, Receive, Scope, Send

# No inline script anywhere (JSON data blocks are not executed), so scripts come from this origin only.
# Inline styles stay allowed: renderers set CSS custom properties through style attributes.
SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
        "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "X-Frame-Options": "DENY",
}
FRAMED_HERE = ("/learn/",)
"""Pages the site's own pages show in a frame (the room's lesson panel): framed by this origin, no other."""
FRAMED_HERE_HEADERS = {
    **SECURITY_HEADERS,
    "Content-Security-Policy": SECURITY_HEADERS["Content-Security-Policy"].replace(
        "frame-ancestors 'none'", "frame-ancestors 'self'"
    ),
    "X-Frame-Options": "SAMEORIGIN",
}


def _raw(headers: dict[str, str]) -> list[tuple[bytes, bytes]]:
    return [(name.lower().encode("latin-1"), value.encode("latin-1")) for name, value in headers.items()]


_RAW, _RAW_FRAMED_HERE = _raw(SECURITY_HEADERS), _raw(FRAMED_HERE_HEADERS)
_NAMES = {name for name, _ in _RAW}


class SecurityHeaders:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    def __call__(self, scope: Scope, receive: Receive, send: Send) -> Awaitable[None]:
        if scope["type"] != "http":
            return self.app(scope, receive, send)
        framed_here = str(scope.get("path", "")).startswith(FRAMED_HERE)
        return self.app(scope, receive, _adding_headers(send, _RAW_FRAMED_HERE if framed_here else _RAW))


def _adding_headers(send: Send, raw: list[tuple[bytes, bytes]]) -> Send:
    async def send_with_headers(message: Message) -> None:
        if message["type"] == "http.response.start":
            kept = [(name, value) for name, value in message.get("headers", []) if name.lower() not in _NAMES]
            message = {**message, "headers": kept + raw}
        await send(message)

    return send_with_headers
