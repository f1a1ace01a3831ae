"""Which pages may use a player's cookie: the site's own, never a page from another port or host.

SameSite=Lax does not help here: a page on another port of the same host is the *same site*, so the
browser sends the cookie with its WebSocket handshakes and POSTs. Browsers do say where the page came
from (``Origin``), so every WebSocket handshake and every state-changing HTTP request is checked against
the site's own origin:

- the host (and port) the request was sent to (its ``Host`` header): true of every page this server served,
  including one a phone loaded from the LAN address under ``make run LAN=1``;
- the origin of ``THREEFOLD_PUBLIC_URL``, and any listed in ``THREEFOLD_ALLOWED_ORIGINS``.

No ``Origin`` header means no browser page: browsers always send it on WebSocket handshakes and on
cross-origin POSTs. Such a request cannot be a foreign page riding the cookie, so HTTP lets it through
(app/client.py, curl), unless ``Sec-Fetch-Site`` says a browser sent it from another origin. A WebSocket
without ``Origin`` must not rely on the cookie: it authenticates with ``Authorization: Bearer``, a header
no page can put on a browser's WebSocket (or sends nothing, and is refused as ``unauthorized``). A cookie
without ``Origin`` proves nothing about where the page came from, so that socket is refused.
"""

from __future__ import annotations

from collections.abc import Awaitable, Iterable
from urllib.parse import urlsplit

from starlette.types import ASGIApp, Receive, Scope, Send

from app.errors import ApiError, send_error

DEFAULT_PORTS = {"http": 80, "https": 443, "ws": 80, "wss": 443}
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
FOREIGN_FETCH_SITES = frozenset({"same-site", "cross-site"})
"""``Sec-Fetch-Site`` values that mean the request came from a page of another origin."""


def normal_origin(url: str) -> tuple[str, str, int] | None:
    """``(scheme, host, port)`` of an origin or URL, the default port filled in; None if it is not one
    (``null``, another scheme, no host)."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    if scheme not in DEFAULT_PORTS or not parts.hostname:
        return None
    return scheme, parts.hostname.lower(), port or DEFAULT_PORTS[scheme]


def _host_and_port(host_header: str, scheme: str) -> tuple[str, int] | None:
    parts = normal_origin(f"{scheme}://{host_header}")
    return None if parts is None else (parts[1], parts[2])


class OriginPolicy:
    def __init__(self, listed: Iterable[str]) -> None:
        self.listed = {found for found in map(normal_origin, listed) if found is not None}

    def allows(self, origin: str, host_header: str | None) -> bool:
        """Is a page from ``origin`` this site's own, for a request sent with this ``Host`` header?"""
        parts = normal_origin(origin)
        if parts is None:
            return False
        if parts in self.listed:
            return True
        if not host_header:
            return False
        # The scheme the page came by decides the default port of a Host header without one (behind a
        # TLS proxy the app itself is reached over plain HTTP).
        return _host_and_port(host_header, parts[0]) == (parts[1], parts[2])


def header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key == name:
            return str(value.decode("latin-1"))
    return None


class OriginCheck:
    """ASGI middleware: a state-changing HTTP request from a page of another origin gets 403
    ``origin_not_allowed``. WebSockets are checked by their endpoint (app.routers.ws), which can answer with
    a close code the page sees."""

    def __init__(self, app: ASGIApp, policy: OriginPolicy) -> None:
        self.app = app
        self.policy = policy

    def __call__(self, scope: Scope, receive: Receive, send: Send) -> Awaitable[None]:
        if scope["type"] != "http" or scope["method"] in SAFE_METHODS:
            return self.app(scope, receive, send)
        origin = header(scope, b"origin")
        if origin is None:
            if header(scope, b"sec-fetch-site") not in FOREIGN_FETCH_SITES:
                return self.app(scope, receive, send)
            origin = "unknown"
        elif self.policy.allows(origin, header(scope, b"host")):
            return self.app(scope, receive, send)
        return send_error(send, ApiError(403, "origin_not_allowed", origin=origin))
