"""uvicorn's sans-I/O WebSocket protocol plus one ASGI extension: writing frames the app encoded itself.

A server's frames are not masked (RFC 6455 §5.3), so a text frame's bytes depend only on its payload: the
room's state message is framed once and the same bytes go to every socket that gets it, the way gorilla's
``PreparedMessage`` or uWebSockets' corked sends do. Through the ASGI ``send`` every frame costs three
wrappers (Starlette's WebSocket, its exception handler, the protocol's ``send`` coroutine) and a frame
object serialised per socket, a cost paid again for each socket of the room.

The extension is ``scope["extensions"]["threefold.frames"] = {"write": write, "abort": abort}``;
``write(data)`` writes ``data`` (whole frames) at once and returns True, or returns False and writes nothing
if the connection is not open or its buffer is over the transport's high-water mark; the caller then uses the
ordinary ``send``, which waits for the buffer to drain. ``abort()`` cuts the connection at once, unsent data
dropped: a close waits for data its peer may never read. Run uvicorn with
``--ws app.ws_protocol:PreparedFramesProtocol``;
any other server simply lacks the extension and the app sends through ASGI as usual.

uvicorn keeps this protocol class and its state private, and offers no public way to write frames: so uvicorn
is pinned to one version (pyproject.toml), and tests/app/test_ws_protocol.py fails when the methods and state
relied on here change.
"""

from __future__ import annotations

import asyncio
import logging
import struct
from collections.abc import Callable, Generator, Mapping
from typing import Any, cast

from uvicorn.protocols.utils import get_client_addr
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.http11 import Request
from websockets.protocol import State

from app.collector import expect_garbage

log = logging.getLogger("uvicorn.error")
FRAMES_EXTENSION = "threefold.frames"
FrameWriter = Callable[[bytes], bool]


def frame_writer(scope: Mapping[str, Any]) -> FrameWriter | None:
    """The connection's prepared-frames writer, if the server offers one."""
    extension = (scope.get("extensions") or {}).get(FRAMES_EXTENSION)
    return None if extension is None else cast(FrameWriter, extension["write"])


def _parsed_everything() -> Generator[None, None, None]:
    return
    yield  # a generator, finished before it starts


_DONE_PARSING = _parsed_everything()
"""What a closed connection's parser is replaced with (nothing feeds it data after the connection is lost)."""

_TEXT = 0x81  # FIN + opcode 1 (text): a whole, unfragmented text message


def text_frame(payload: bytes) -> bytes:
    """A server's frame for a UTF-8 text message (the payload must be valid UTF-8; orjson's output is)."""
    size = len(payload)
    if size < 126:
        head = bytes((_TEXT, size))
    elif size < 1 << 16:
        head = struct.pack("!BBH", _TEXT, 126, size)
    else:
        head = struct.pack("!BBQ", _TEXT, 127, size)
    return head + payload


class PreparedFramesProtocol(WebSocketsSansIOProtocol):
    """Also leaves no reference cycle behind once a socket is done, so a closed socket is freed by reference
    counting. The server freezes long-lived objects out of the garbage collector's sight (app.collector): a
    cycle among frozen objects stays until a full collection, which pauses the server for up to a second
    with thousands of sockets open. Before, each closed socket left 48 such objects (its protocol, websockets'
    parser generator, the handshake, the receive queue)."""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)
        expect_garbage()  # the HTTP protocol this connection was upgraded from is left in a reference cycle

    def connection_lost(self, exc: Exception | None) -> None:
        super().connection_lost(exc)
        # Nothing is parsed any more. The parser is a generator whose frame holds the parser's owner, and
        # the error that ended it (if any) holds that frame in its traceback.
        self.conn.parser = _DONE_PARSING
        self.conn.parser_exc = None

    async def run_asgi(self) -> None:
        try:
            await super().run_asgi()
        finally:
            # The app is done with its scope, which held this protocol through the extension's bound method.
            (self.scope.get("extensions") or {}).pop(FRAMES_EXTENSION, None)

    def handle_connect(self, event: Request) -> None:
        super().handle_connect(event)
        scope = getattr(self, "scope", None)  # set only when the handshake is accepted
        if scope is not None:
            scope["extensions"][FRAMES_EXTENSION] = {"write": self.write_frames, "abort": self.transport.abort}

    def send_receive_event_to_app(self) -> None:
        """uvicorn's, with one difference: a text message that is not UTF-8 still fails the connection with
        1007, but is logged as one warning line. uvicorn logs a traceback at error level, and a hostile client
        can open connection after connection to fill the error log with them. Decoded once, as there."""
        if self.curr_msg_data_type == "text" and not self.close_sent:
            data = self.frames[0] if len(self.frames) == 1 else b"".join(self.frames)
            try:
                text = data.decode()
            except UnicodeDecodeError as err:
                self.frames = []
                log.warning(
                    "%s - WebSocket text message is not UTF-8 (%s at byte %d): closed with 1007",
                    get_client_addr(self.scope),
                    err.reason,
                    err.start,
                )
                self.conn.send_close(1007)
                self.handle_parser_exception()
                return
            self.frames = []
            self._queue_text(text)
            return
        super().send_receive_event_to_app()

    def _queue_text(self, text: str) -> None:
        """The rest of uvicorn's ``send_receive_event_to_app`` for a decoded text message."""
        self.queue.put_nowait({"type": "websocket.receive", "text": text})
        if not self.read_paused:
            self.read_paused = True
            self.transport.pause_reading()

    def write_frames(self, data: bytes) -> bool:
        if (
            not self.handshake_complete
            or self.disconnected
            or self.close_sent
            or self.initial_response is not None
            or self.conn.state is not State.OPEN
            or not self.writable.is_set()
            or self.transport.is_closing()
        ):
            return False
        self.transport.write(data)
        return True

    def keepalive_timeout(self) -> None:
        """uvicorn's, then the connection cut: its close waits for the peer to read what is still buffered,
        and stops reading meanwhile, so a peer that stopped reading stayed connected for good."""
        super().keepalive_timeout()
        self.transport.abort()
