"""Prepared frames (app/ws_protocol.py): the frames the app encodes are the ones a WebSocket client reads,
in order, whether they go out at once through the extension or through the ASGI send behind a backlog."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import inspect
import tomllib
from collections.abc import AsyncIterator
from typing import Any, cast

import orjson
import pytest
import uvicorn
from fastapi import FastAPI, WebSocket, WebSocketDisconnect
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.asyncio.client import connect
from websockets.frames import Frame, Opcode
from websockets.protocol import Protocol
from websockets.streams import StreamReader

from app.client import ThreefoldClient
from app.live.connection import Connection
from app.ws_protocol import PreparedFramesProtocol, frame_writer, text_frame
from tests.support.server import ROOT, ServerProcess


@pytest.mark.parametrize("size", [0, 1, 125, 126, 65535, 65536, 200_000])
def test_a_text_frame_parses_as_the_whole_payload(size: int) -> None:
    payload = ("é" * (size // 2) + "x" * (size % 2)).encode()
    reader = StreamReader()
    reader.feed_data(text_frame(payload))
    reader.feed_eof()
    parser = Frame.parse(reader.read_exact, mask=False)
    try:
        next(parser)
    except StopIteration as done:
        frame = done.value
    else:  # pragma: no cover - the parser wanted more bytes than the frame has
        raise AssertionError("incomplete frame")
    assert frame.opcode is Opcode.TEXT and frame.fin and bytes(frame.data) == payload


def _app() -> FastAPI:
    app = FastAPI()

    @app.websocket("/ws")
    async def socket(websocket: WebSocket) -> None:
        await websocket.accept()
        writer = frame_writer(websocket.scope)
        conn = Connection(websocket, 1, queue_size=8, rate=10, burst=10, write_frames=writer)
        conn.send(orjson.dumps({"prepared": writer is not None}))
        conn.send(b'{"n":1}', b'{"n":2}', b'{"n":3}')  # one write
        conn.send(orjson.dumps({"n": 4, "pad": "y" * 70_000}))  # a 64-bit length
        try:
            while True:
                await websocket.receive_text()
        except WebSocketDisconnect:
            pass
        finally:
            await conn.close()

    return app


@contextlib.asynccontextmanager
async def _serving(app: FastAPI) -> AsyncIterator[str]:
    config = uvicorn.Config(
        app, host="127.0.0.1", port=0, ws=PreparedFramesProtocol, ws_per_message_deflate=False, log_level="warning"
    )
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve())
    try:
        while not server.started:
            await asyncio.sleep(0.01)
        port = server.servers[0].sockets[0].getsockname()[1]
        yield f"ws://127.0.0.1:{port}/ws"
    finally:
        server.should_exit = True
        await task


async def test_prepared_frames_reach_the_client_whole_and_in_order() -> None:
    async with _serving(_app()) as url, connect(url, max_size=None) as client:
        received = [orjson.loads(await asyncio.wait_for(client.recv(), 10)) for _ in range(5)]
    assert received[0] == {"prepared": True}
    assert [m["n"] for m in received[1:]] == [1, 2, 3, 4]
    assert received[4]["pad"] == "y" * 70_000


class _Socket:
    """A WebSocket whose prepared-frames writer takes ``takes`` writes, then reports a full buffer; the
    ASGI send records what it is given."""

    def __init__(self, takes: int) -> None:
        self.takes = takes
        self.written: list[bytes] = []
        self.sent: list[str] = []
        self.release = asyncio.Event()

    def write(self, data: bytes) -> bool:
        if self.takes == 0:
            return False
        self.takes -= 1
        self.written.append(data)
        return True

    async def send_text(self, text: str) -> None:
        await self.release.wait()
        self.sent.append(text)


async def test_a_full_buffer_falls_back_to_the_asgi_send_and_keeps_the_order() -> None:
    socket = _Socket(takes=1)
    conn = Connection(cast(Any, socket), 1, queue_size=8, rate=10, burst=10, write_frames=socket.write)
    try:
        conn.send(b'{"n":1}', b'{"n":2}')
        conn.send(b'{"n":3}')  # the buffer is full: through the ASGI send, which waits
        socket.takes = 10  # drained: but what follows must queue behind the pending write
        conn.send(b'{"n":4}')
        assert socket.written == [text_frame(b'{"n":1}') + text_frame(b'{"n":2}')]
        socket.release.set()
        for _ in range(100):
            if len(socket.sent) == 2:
                break
            await asyncio.sleep(0.01)
        assert socket.sent == ['{"n":3}', '{"n":4}']
        conn.send(b'{"n":5}')  # the backlog is empty again: straight out
        assert socket.written[-1] == text_frame(b'{"n":5}')
    finally:
        await conn.close()


async def test_text_that_is_not_utf8_is_refused_without_a_traceback(sqlite_server: ServerProcess) -> None:
    """Each bad message fails its connection with 1007 and leaves at most one warning line in the log (uvicorn
    logged a traceback at error level for each: a hostile client could fill the error log)."""
    before = sqlite_server.log_path.stat().st_size
    async with ThreefoldClient(sqlite_server.url) as ann:
        await ann.set_name("Ann")
        code = await ann.create_room("tri-tac")
        for attempt in range(8):
            async with ann.connect(code) as sock:
                await sock.next(lambda m: m["type"] == "room")
                if attempt % 2:  # split over two frames, the bad byte in the second
                    sock.ws.protocol.send_text(b'{"type":"ping","x":"', fin=False)
                    sock.ws.protocol.send_continuation(b'\xc3\x28"}', fin=True)
                    sock.ws.send_data()
                else:
                    await sock.ws.send(b'{"type":"ping","x":"\xff\xfe"}', text=True)
                await asyncio.wait_for(sock.closed.wait(), 10)
                assert sock.close_code == 1007
        # Valid UTF-8 still gets through, a character split between two frames included.
        async with ann.connect(code) as sock:
            await sock.next(lambda m: m["type"] == "room")
            sock.ws.protocol.send_text(b'{"type":"ping","id":"\xc3', fin=False)
            sock.ws.protocol.send_continuation(b'\xa9"}', fin=True)
            sock.ws.send_data()
            assert (await sock.next(lambda m: m["type"] in ("pong", "error")))["type"] == "pong"
    log = sqlite_server.log_path.read_bytes()[before:].decode(errors="replace")
    assert "Traceback" not in log and "UnicodeDecodeError" not in log, log
    assert len([line for line in log.splitlines() if "UTF-8" in line]) <= 8, log


UVICORN_METHODS = {
    "__init__": "631dcd744eab875f",
    "connection_lost": "dd116afc4d8034e1",
    "run_asgi": "662375aa38d9044c",
    "handle_connect": "fc648c2161ff8e13",
    "send_receive_event_to_app": "a2b10de91477dc1d",
    "keepalive_timeout": "8e1ceb6ec446de9d",
    "handle_parser_exception": "ff5cf13c764fb332",
    "send": "d4919ed760ce9f7b",
}
"""The methods of uvicorn's WebSocket protocol that ``PreparedFramesProtocol`` overrides, copies from or
whose private state it reads and writes (``__init__`` sets that state), by the start of their source's
SHA-256."""


def test_uvicorn_is_pinned_and_its_protocol_is_the_one_we_subclassed() -> None:
    """``PreparedFramesProtocol`` subclasses a class uvicorn keeps private and uses its private state, so
    uvicorn is pinned to one version (pyproject.toml) and an upgrade fails here, naming the methods to read
    again before the digests are updated."""
    pinned = next(
        requirement.split("==")[1]
        for requirement in tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
        if requirement.startswith("uvicorn")
    )
    assert uvicorn.__version__ == pinned
    changed = [
        name
        for name, digest in UVICORN_METHODS.items()
        if hashlib.sha256(inspect.getsource(getattr(WebSocketsSansIOProtocol, name)).encode()).hexdigest()[:16]
        != digest
    ]
    assert not changed, f"uvicorn changed what app/ws_protocol.py relies on: {changed}"
    # websockets' parser state, which ``connection_lost`` replaces.
    assigned = {
        line.strip().split("=")[0].split(":")[0].strip() for line in inspect.getsource(Protocol.__init__).splitlines()
    }
    assert {"self.parser", "self.parser_exc"} <= assigned
