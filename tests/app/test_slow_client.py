"""A slow or stuck client cannot stall its room: what waits behind its pending write is bounded, and on
overflow it gets one fresh full state instead of the backlog."""

from __future__ import annotations

import asyncio
import tracemalloc
from typing import Any, cast

import orjson

from app.live.connection import RESYNC, Connection


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
