"""A socket for a room another process owns: its frames are passed to and from the owner unchanged.

nginx sends every socket of a room to one process (deploy/nginx.conf), so this is the exception: a socket
that reached another process while the routing changed (a process added, restarted or gone) or from a
client that connects to a process directly. Relaying keeps the owner's order and its one history; taking
the room over instead would bounce it between processes while sockets of both kinds are open. When the
owner goes away the relay does not close the client's socket: the caller claims the room again (taking it
over once the lease runs out) and the client gets a fresh welcome and state.
"""

from __future__ import annotations

import asyncio
import contextlib

import websockets
from fastapi import WebSocket

from app.live.leases import Elsewhere

WATCH = "watch"
"""The query parameter (``/ws/{code}?watch=1``) of a shared screen's socket (``Connection.watching``)."""

RELAY_HEADER = "x-threefold-relay"
"""Sent to the owner with the relaying process' bus origin: if that process falls silent, the owner drops
the sockets it relayed instead of showing their players connected."""

OWNER_GONE = frozenset({1001, 1006, 1011, 1012, 1013})
"""Close codes from the owner that mean it went away or let the room go, not that it refused this client."""


async def relay(
    websocket: WebSocket, owner: Elsewhere, code: str, token: str, origin: str, *, watching: bool = False
) -> bool:
    """Pass frames both ways until one side closes. True if the owner went away (claim the room again);
    False if the client left or the owner closed the socket for good (its close code was passed on). A
    shared screen's socket (``watching``) stays one at the owner."""
    url = "ws" + owner.address.removeprefix("http") + f"/ws/{code}" + (f"?{WATCH}=1" if watching else "")
    headers = {"Authorization": f"Bearer {token}", RELAY_HEADER: origin}
    try:
        upstream = await websockets.connect(
            url, additional_headers=headers, compression=None, max_size=None, open_timeout=5
        )
    except (OSError, TimeoutError, websockets.InvalidHandshake, websockets.InvalidURI):
        # The owner is unreachable: try again when its lease runs out (or soon, if it was only a hiccup).
        await asyncio.sleep(min(owner.expires_in + 0.02, 1.0))
        return True
    client_left = asyncio.Event()
    to_owner = asyncio.create_task(_client_to_owner(websocket, upstream, client_left))
    try:
        async for frame in upstream:
            if isinstance(frame, str):
                await websocket.send_text(frame)
            else:
                await websocket.send_bytes(frame)
    except websockets.ConnectionClosed:
        pass
    except Exception:  # the client's side failed: it is gone
        client_left.set()
    finally:
        to_owner.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await to_owner
        with contextlib.suppress(Exception):
            await upstream.close()
    if client_left.is_set():
        return False
    received = upstream.protocol.close_rcvd
    if received is None or received.code in OWNER_GONE:
        return True
    with contextlib.suppress(Exception):
        await websocket.close(code=received.code, reason=received.reason)
    return False


async def _client_to_owner(websocket: WebSocket, upstream: websockets.ClientConnection, left: asyncio.Event) -> None:
    try:
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
            text = message.get("text")
            await upstream.send(text if text is not None else message.get("bytes") or b"")
    except websockets.ConnectionClosed:
        return  # the owner's side: the reader sees why
    except Exception:
        pass
    left.set()
    with contextlib.suppress(Exception):
        await upstream.close()
