"""The live WebSocket: authenticate, attach to the room, then pass each message to the room."""

from __future__ import annotations

import logging
import re
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from fastapi import WebSocket, WebSocketDisconnect
from starlette.types import ASGIApp, Receive, Scope, Send

from app.codes import is_well_formed, normalise
from app.deps import Services, client_address
from app.identity import COOKIE, MAX_TOKEN_LENGTH, bearer_token, hash_token
from app.live.connection import Connection
from app.live.leases import Elsewhere
from app.live.messages import ProtocolError, error, message_id, parse
from app.live.relay import RELAY_HEADER, WATCH, relay
from app.ws_protocol import frame_writer

if TYPE_CHECKING:
    from app.live.room import Room
    from app.settings import Settings

log = logging.getLogger("threefold.ws")
PATH = re.compile(r"/ws/([^/]+)")
"""``/ws/{code}``: dispatched by ``LiveSocketRoute``, not by FastAPI's router (see there)."""


class LiveSocketRoute:
    """ASGI middleware: hands WebSockets whose path matches ``pattern`` (default ``/ws/{code}``) straight to
    ``endpoint`` (default ``room_socket``) with the first group; every other scope goes to the app unchanged.

    A WebSocket endpoint's callers stay on its call stack for the socket's whole life. Through FastAPI's
    router those were the exception middleware, two async exit stack layers, the router, the route and
    FastAPI's endpoint wrapper: memory held for every socket's whole life (each exit stack holds an empty
    deque's block), and every message's resumption passed through each of them. None of it serves this
    endpoint: it takes no dependencies, raises no HTTP errors and handles its own failures (an unexpected one
    closes the socket with 1011, as before). bench/bare.py can dispatch its endpoint the same way, for
    comparison."""

    def __init__(
        self,
        app: ASGIApp,
        pattern: re.Pattern[str] = PATH,
        endpoint: Callable[[WebSocket, str], Awaitable[None]] | None = None,
    ) -> None:
        self.app = app
        self.pattern = pattern
        self.endpoint = endpoint or room_socket

    def __call__(self, scope: Scope, receive: Receive, send: Send) -> Awaitable[None]:
        if scope["type"] == "websocket":
            match = self.pattern.fullmatch(scope["path"])
            if match is not None:
                return self.endpoint(WebSocket(scope, receive, send), match.group(1))
        return self.app(scope, receive, send)


async def identify(services: Services, token: str | None) -> tuple[int, str] | None:
    """The player's id and name, as plain values: the socket's frame lives as long as the connection, so
    it must not keep a session or ORM objects alive for every socket."""
    if not token or len(token) > MAX_TOKEN_LENGTH:
        return None
    return await services.hub.store.player_by_token_hash(hash_token(token))


def refused_origin(services: Services, websocket: WebSocket, by_cookie: bool) -> str | None:
    """The origin to refuse, or None if the socket may go on. Without an ``Origin`` header, only a socket
    that does not rely on the cookie (app.origins: a bearer header, or nothing and so ``unauthorized``)."""
    origin = websocket.headers.get("origin")
    if origin is None:
        return "none" if by_cookie else None
    return None if services.origins.allows(origin, websocket.headers.get("host")) else origin


async def room_socket(websocket: WebSocket, code: str) -> None:
    services: Services = websocket.app.state.services
    hub, settings = services.hub, services.settings
    await websocket.accept()
    # Never from the query string: URLs end up in access logs (docs/protocol.md, Identity).
    token = bearer_token(websocket.headers.get("authorization"))
    by_cookie = token is None and COOKIE in websocket.cookies
    refused = refused_origin(services, websocket, by_cookie)
    if refused is not None:
        await websocket.send_text(error("origin_not_allowed", refused).decode())
        await websocket.close(code=4403)
        return
    token = token or websocket.cookies.get(COOKIE)
    player = await identify(services, token)
    if player is None:
        await websocket.send_text(error("unauthorized", "missing or unknown player token").decode())
        await websocket.close(code=4401)
        return
    player_id, name = player
    address = client_address(websocket)
    if await services.join_limiter.blocked(address):
        await websocket.send_text(error("rate_limited", "too many wrong room codes; wait a minute").decode())
        await websocket.close(code=4429)
        return
    normal = normalise(code)
    conn = Connection(
        websocket,
        player_id,
        settings.send_queue_size,
        settings.messages_per_second,
        settings.message_burst,
        frame_writer(websocket.scope),
    )
    conn.chat_rate, conn.chat_burst = settings.chats_per_second, settings.chat_burst
    conn.via = websocket.headers.get(RELAY_HEADER)
    conn.watching = websocket.query_params.get(WATCH) == "1"
    # Again if the hub unloads the room (idle) between finding it and attaching the socket, and after the
    # owner of a room relayed to went away (app.live.relay).
    while True:
        found = await hub.claim(normal) if is_well_formed(normal) else None
        if isinstance(found, Elsewhere):
            assert token is not None and hub.store.leases is not None
            hub.metrics.relayed.inc()
            if await relay(websocket, found, normal, token, hub.store.leases.owner, watching=conn.watching):
                continue
            return
        live = found
        if live is None:
            await services.join_limiter.failed(address)
            await websocket.send_text(error("unknown_room", f"no room with code {code!r}").decode())
            await websocket.close(code=4404)
            return
        refusal = live.admission(player_id)
        if refusal is not None:
            note, reason = refusal
            await websocket.send_text(error("forbidden", note, None, reason).decode())
            await websocket.close(code=4403)
            return
        if await live.connect(conn, name):
            break
    try:
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
            raw = message.get("text")
            await _on_message(live, conn, raw if raw is not None else message.get("bytes") or b"", settings)
    except WebSocketDisconnect:
        pass
    finally:
        await live.disconnect(conn)


async def _on_message(live: Room, conn: Connection, raw: str | bytes, settings: Settings) -> None:
    """One message, in its own frame: the parsed message and its action (about ten tracked objects) die
    when it is handled, instead of living in the socket's loop until the next message. Kept alive for a
    second or more, they would sit in the collector's young generation: with thousands of sockets that is
    what makes its pauses long (bench/README.md, "How to measure": GC pauses)."""
    if not conn.allow_message():
        live.refused("rate_limited")
        conn.send(error("rate_limited", "too many messages; slow down", message_id(raw, settings.max_message_bytes)))
        return
    try:
        parsed = parse(raw, settings.max_message_bytes)
    except ProtocolError as err:
        live.refused(err.code)
        conn.send(error(err.code, err.message, err.msg_id))
        return
    try:
        await live.handle(conn, parsed)
    except Exception:  # the server keeps serving whatever one message did
        log.exception("internal error handling a message in room %s", live.code)
        live.refused("internal")
        conn.send(error("internal", "the server could not handle that message"))
