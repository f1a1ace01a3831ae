"""A slow or stuck client cannot stall its room: what waits behind its pending write is bounded, and on
overflow it gets one fresh full state instead of the backlog."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import os
import socket
import tracemalloc
from collections.abc import Callable
from typing import Any, cast

import orjson
import pytest
import uvicorn
from fastapi import FastAPI, WebSocket, WebSocketDisconnect

from app.client import ClientError
from app.identity import COOKIE
from app.live.connection import RESYNC, Connection
from app.ws_protocol import FRAMES_EXTENSION, PreparedFramesProtocol
from tests.app.helpers import open_table
from tests.support.server import ServerProcess


class StuckSocket:
    """A WebSocket whose peer stopped reading: every send waits until released."""

    def __init__(self) -> None:
        self.release = asyncio.Event()
        self.sent: list[str] = []

    async def send_text(self, text: str) -> None:
        await self.release.wait()
        self.sent.append(text)


async def test_overflow_drops_the_backlog_and_resyncs() -> None:
    stuck = StuckSocket()
    conn = Connection(cast(Any, stuck), player_id=1, queue_size=8, rate=10, burst=10)
    resyncs = 0

    async def fresh_state(_conn: Connection) -> list[bytes]:
        nonlocal resyncs
        resyncs += 1
        return [b'{"type":"room"}', b'{"type":"state","version":100}']

    conn.resync = fresh_state
    try:
        for version in range(100):
            conn.send(b'{"type":"state","version":%d}' % version)  # never blocks the room
        conn.send(b'{"type":"chat","text":"still delivered"}')
        assert len(conn.backlog) <= 8
        assert conn.overflows > 0
        assert RESYNC in conn.backlog
        stuck.release.set()
        for _ in range(100):
            if not conn.backlog and resyncs and len(stuck.sent) == 4:
                break
            await asyncio.sleep(0.01)
        assert resyncs == 1
        # The write in flight when the socket stopped reading completes; the states queued behind it are
        # dropped; nothing stale arrives after the fresh state.
        assert stuck.sent == [
            '{"type":"state","version":0}',
            '{"type":"room"}',
            '{"type":"state","version":100}',
            '{"type":"chat","text":"still delivered"}',
        ]
    finally:
        await conn.close()


async def test_a_fast_client_is_not_held_up_by_a_stuck_one() -> None:
    stuck, fast = StuckSocket(), StuckSocket()
    fast.release.set()
    slow_conn = Connection(cast(Any, stuck), 1, 8, 10, 10)
    fast_conn = Connection(cast(Any, fast), 2, 8, 10, 10)
    try:
        for version in range(50):
            payload = b'{"v":%d}' % version
            slow_conn.send(payload)
            fast_conn.send(payload)
            await asyncio.sleep(0)
        for _ in range(100):
            if len(fast.sent) == 50:
                break
            await asyncio.sleep(0.01)
        assert len(fast.sent) == 50 and stuck.sent == []
    finally:
        await slow_conn.close()
        await fast_conn.close()


async def test_a_backlog_keeps_exact_size_copies() -> None:
    """orjson's bytes sit in a buffer of at least 16 KiB for a state message; 64 of them queued for every
    stuck phone would add up, so the backlog keeps compact copies."""
    stuck = StuckSocket()
    conn = Connection(cast(Any, stuck), 1, queue_size=64, rate=10, burst=10)
    try:
        tracemalloc.start()
        try:
            for version in range(65):  # the first is in flight, 64 wait
                conn.send(orjson.dumps({"type": "state", "version": version, "pad": "x" * 1400}))
            held = tracemalloc.get_traced_memory()[0]
        finally:
            tracemalloc.stop()
        assert len(conn.backlog) == 64 and orjson.loads(conn.backlog[-1])["version"] == 64
        assert held < 64 * 3 * 1024  # ~1.5 KiB each; orjson's buffers would be 64 × 16 KiB
    finally:
        await conn.close()


class AbortableSocket(StuckSocket):
    """A stuck socket on a server that can cut the connection (app/ws_protocol.py's frames extension)."""

    def __init__(self) -> None:
        super().__init__()
        self.aborted = asyncio.Event()
        self.scope = {"extensions": {FRAMES_EXTENSION: {"abort": self.aborted.set}}}


class TricklingSocket(AbortableSocket):
    """A slow reader: it takes one message every ``pause`` seconds."""

    def __init__(self, pause: float) -> None:
        super().__init__()
        self.pause = pause

    async def send_text(self, text: str) -> None:
        await asyncio.sleep(self.pause)
        self.sent.append(text)


async def _until(condition: Callable[[], bool], seconds: float) -> None:
    deadline = asyncio.get_running_loop().time() + seconds
    while not condition():
        assert asyncio.get_running_loop().time() < deadline, "timed out"
        await asyncio.sleep(0.01)


async def test_a_socket_that_takes_nothing_is_cut_after_stuck_seconds() -> None:
    stuck = AbortableSocket()
    conn = Connection(cast(Any, stuck), 1, 8, 10, 10)
    conn.stuck_seconds = 0.2
    try:
        conn.send(b'{"type":"state","version":0}')
        conn.send(b'{"type":"state","version":1}')
        started = asyncio.get_running_loop().time()
        await asyncio.wait_for(stuck.aborted.wait(), 5)
        assert asyncio.get_running_loop().time() - started >= 0.2
        assert conn.dropped and not conn.backlog
        conn.send(b'{"type":"chat"}')  # nothing more is queued for it
        assert not conn.backlog
    finally:
        await conn.close()


async def test_a_slow_reader_that_keeps_taking_is_not_cut() -> None:
    slow = TricklingSocket(pause=0.05)
    conn = Connection(cast(Any, slow), 1, 64, 10, 10)
    # Each write is taken far within stuck_seconds (a margin a loaded machine's scheduling cannot eat), and
    # all of them take three times as long as stuck_seconds: only progress may keep the socket.
    conn.stuck_seconds = 1.0
    try:
        for version in range(60):
            conn.send(b'{"type":"state","version":%d}' % version)
        await _until(lambda: len(slow.sent) == 60, 20)
        assert not conn.dropped and not slow.aborted.is_set()
    finally:
        await conn.close()


class ClosedByServer(Exception):
    """The server closed an UnreadSocket (what it does to a reader that fell too far behind)."""


class UnreadSocket:
    """A WebSocket client that sends but never reads after the handshake, with a tiny receive buffer: what
    the server writes to it soon stays queued, as for a phone whose page froze while it kept sending."""

    def __init__(self, port: int, path: str, token: str | None = None) -> None:
        self.port, self.path, self.token = port, path, token
        self.sock = socket.socket()

    async def open(self) -> None:
        loop = asyncio.get_running_loop()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        self.sock.setblocking(False)
        await loop.sock_connect(self.sock, ("127.0.0.1", self.port))
        key = base64.b64encode(os.urandom(16)).decode()
        # The token both ways a server may read it, from a page of its own origin.
        player = f"Authorization: Bearer {self.token}\r\nCookie: {COOKIE}={self.token}\r\n" if self.token else ""
        request = (
            f"GET {self.path} HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
            f"Origin: http://127.0.0.1:{self.port}\r\n{player}\r\n"
        )
        await loop.sock_sendall(self.sock, request.encode())
        answer = b""
        while not answer.endswith(b"\r\n\r\n"):  # the handshake's answer only: not one byte of a frame
            answer += await loop.sock_recv(self.sock, 1)
        assert answer.startswith(b"HTTP/1.1 101"), answer

    async def send(self, message: dict[str, Any]) -> None:
        payload, mask = orjson.dumps(message), os.urandom(4)
        assert len(payload) < 126
        masked = bytes(byte ^ mask[index % 4] for index, byte in enumerate(payload))
        frame = bytes((0x81, 0x80 | len(payload))) + mask + masked
        try:
            await asyncio.wait_for(asyncio.get_running_loop().sock_sendall(self.sock, frame), 5)
        except (ConnectionResetError, BrokenPipeError) as closed:
            raise ClosedByServer from closed

    def close(self) -> None:
        self.sock.close()


def _first_empty(state: dict[str, Any]) -> list[int]:
    board = state["view"]["board"]
    return next([r, c] for r, row in enumerate(board) for c, v in enumerate(row) if v is None)


SYNCS_PER_ROUND = 20
"""The stuck player asks for the full state this many times a round (the server is started with a high
message rate limit): what it is sent outgrows the kernel's socket buffers within seconds."""


@pytest.mark.real_process  # a socket whose kernel buffers fill up against a real server
async def test_a_seated_player_who_stops_reading_is_dropped_stood_in_for_and_handed_back(sqlite_url: str) -> None:
    """Their socket is closed like a spectator's and they are treated as any dropped player: away, a stand-in
    after the grace period, their seat back when they return. Before, the server stopped reading them once
    their writes backed up, but kept them "connected": no stand-in ever came and the table waited for good."""
    server = ServerProcess(
        sqlite_url, extra_env={"THREEFOLD_MESSAGES_PER_SECOND": "2000", "THREEFOLD_MESSAGE_BURST": "2000"}
    ).start()
    table = await open_table(server.url, "tri-tac", {"size": 12}, seed=5, spectator=False)
    stuck = None
    try:
        host, guest = table.sockets
        await host.send({"type": "room_settings", "grace_seconds": 5})
        await host.wait_room(lambda r: r["settings"]["grace_seconds"] == 5)
        seat = 1
        await guest.close()
        await host.wait_room(lambda r: not r["seats"][seat]["player"]["connected"])
        token = table.clients[1].token
        assert token is not None
        stuck = UnreadSocket(server.port, f"/ws/{table.code}", token)
        await stuck.open()
        await host.wait_room(lambda r: r["seats"][seat]["player"]["connected"])
        loop = asyncio.get_running_loop()
        started = loop.time()
        deadline = started + 45
        sent_for = -1
        next_move_at = started

        def connected(room: dict[str, Any] | None) -> bool:
            return room is None or bool(room["seats"][seat]["player"]["connected"])

        # The guest plays on (a move a second) and keeps asking for the full state, never reading any of it.
        while connected(host.room) and loop.time() < deadline:
            try:
                state = host.state
                assert state is not None and state["outcome"] is None
                if seat in state["to_act"] and sent_for != state["version"] and loop.time() > next_move_at:
                    sent_for = state["version"]
                    next_move_at = loop.time() + 1
                    move = {"type": "place", "cell": _first_empty(state)}
                    await stuck.send({"type": "act", "action": move, "version": state["version"]})
                elif seat not in state["to_act"] and host.you is not None:
                    with contextlib.suppress(ClientError):
                        await host.act({"type": "place", "cell": _first_empty(state)}, version=state["version"])
                for _sync in range(SYNCS_PER_ROUND):
                    await stuck.send({"type": "sync"})
            except ClosedByServer:
                # The server has closed the stuck socket; the room's news of it may still be on its way.
                await host.wait_room(lambda r: not connected(r), timeout=max(1.0, deadline - loop.time()))
                break
            await asyncio.sleep(0.05)
        assert not connected(host.room), "a player whose socket stopped being read still counts as connected"
        # Away like anyone whose connection went: the host plays on, a stand-in moves for them.
        state = await host.wait_state()
        while not any(entry.get("actor") == "standin" for entry in state["log"]):
            assert state["outcome"] is None, "no stand-in came"
            if seat not in state["to_act"]:
                await host.act({"type": "place", "cell": _first_empty(state)}, version=state["version"])
            state = await host.wait_state(lambda s, v=state["version"]: s["version"] > v, timeout=20)
        # Back with a socket they read: their seat, no stand-in, and their moves count again.
        async with table.clients[1].connect(table.code) as back:
            welcome = await back.next(lambda m: m["type"] == "welcome")
            assert welcome["you"]["seat"] == seat
            await host.wait_room(lambda r: connected(r) and r["seats"][seat]["player"]["standin"] is False)
            state = await back.wait_state()
            if seat not in state["to_act"]:
                await host.act({"type": "place", "cell": _first_empty(state)}, version=state["version"])
                state = await back.wait_state(lambda s: seat in s["to_act"])
            ack = await back.act({"type": "place", "cell": _first_empty(state)}, version=state["version"])
            assert ack["version"] == state["version"] + 1
    finally:
        if stuck is not None:
            stuck.close()
        await table.close()
        server.stop()


async def test_a_peer_that_answers_no_ping_is_cut_even_with_writes_unread() -> None:
    """uvicorn's keepalive closes a socket whose peer answers no ping, but a close waits for the peer to read
    what is buffered, and reading stops meanwhile: the app never heard that the socket had gone."""
    gone = asyncio.Event()
    app = FastAPI()

    @app.websocket("/ws")
    async def endpoint(websocket: WebSocket) -> None:
        await websocket.accept()
        await websocket.send_text("x" * (8 << 20))  # far more than the kernel's buffers hold
        with contextlib.suppress(WebSocketDisconnect):
            while (await websocket.receive())["type"] != "websocket.disconnect":
                pass
        gone.set()

    config = uvicorn.Config(
        app,
        host="127.0.0.1",
        port=0,
        ws=PreparedFramesProtocol,
        ws_ping_interval=0.2,
        ws_ping_timeout=0.2,
        log_level="warning",
        timeout_graceful_shutdown=1,
    )
    server = uvicorn.Server(config)
    serving = asyncio.create_task(server.serve())
    peer = None
    try:
        await _until(lambda: server.started, 10)
        peer = UnreadSocket(server.servers[0].sockets[0].getsockname()[1], "/ws")
        await peer.open()
        await asyncio.wait_for(gone.wait(), 10)
    finally:
        if peer is not None:
            peer.close()
        server.should_exit = True
        await serving
