"""Every HTTP response carries the security headers (pages, API, errors, static files), exactly once, and
the middleware leaves WebSockets alone."""

from __future__ import annotations

import asyncio

import httpx
import pytest
from starlette.types import Message, Receive, Scope, Send

from app.security_headers import SECURITY_HEADERS, SecurityHeaders
from tests.support.server import ServerProcess


def test_every_kind_of_response_has_the_headers(sqlite_server: ServerProcess) -> None:
    with httpx.Client(base_url=sqlite_server.url) as http:
        responses = [
            http.get("/"),
            http.get("/rules/tri-tac"),
            http.get("/api/games"),
            http.get("/static/css/app.css"),
            http.get("/rules/chess"),  # 404
            http.post("/api/rooms", content=b"{"),  # no player yet: refused
        ]
    assert [r.status_code for r in responses] == [200, 200, 200, 200, 404, 401]
    for response in responses:
        for name, value in SECURITY_HEADERS.items():
            assert response.headers.get_list(name) == [value], (response.url, name)


async def test_an_app_header_of_the_same_name_is_replaced() -> None:
    sent: list[Message] = []

    async def app(_scope: Scope, _receive: Receive, send: Send) -> None:
        await send({"type": "http.response.start", "status": 200, "headers": [(b"x-frame-options", b"ALLOW")]})
        await send({"type": "http.response.body", "body": b"ok"})

    async def record(message: Message) -> None:
        sent.append(message)

    async def nothing() -> Message:
        return {"type": "http.request"}

    await SecurityHeaders(app)({"type": "http"}, nothing, record)
    headers = [(n.decode(), v.decode()) for n, v in sent[0]["headers"]]
    assert [v for n, v in headers if n == "x-frame-options"] == ["DENY"]
    assert sent[1] == {"type": "http.response.body", "body": b"ok"}


@pytest.mark.parametrize("kind", ["websocket", "lifespan"])
def test_other_scopes_get_the_app_itself(kind: str) -> None:
    calls: list[tuple[Scope, Send]] = []

    async def app(scope: Scope, _receive: Receive, send: Send) -> None:
        calls.append((scope, send))

    async def send(_message: Message) -> None:
        return None

    async def receive() -> Message:
        return {"type": "websocket.connect"}

    scope: Scope = {"type": kind}
    asyncio.run(SecurityHeaders(app)(scope, receive, send))
    assert calls == [(scope, send)]  # the very send: no wrapper stays on a socket's stack
