"""One WebSocket connection with its own bounded send queue, so a slow client never stalls its room."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import deque
from collections.abc import Awaitable, Callable

from starlette.websockets import WebSocket

RESYNC = b""
"""Queue marker: the queue overflowed, so send a fresh room summary and full state instead of the dropped
messages. Until it is sent, further room and state messages are skipped (the resync carries the latest)."""
_SUPERSEDED = (b'{"type":"state"', b'{"type":"room"')


class Connection:
    def __init__(self, websocket: WebSocket, player_id: int, queue_size: int, rate: float, burst: int) -> None:
        self.websocket = websocket
        self.player_id = player_id
        self.queue: asyncio.Queue[bytes] = asyncio.Queue(maxsize=queue_size)
        self.recent_ids: deque[str] = deque(maxlen=64)
        self.overflows = 0
        self._rate = rate
        self._burst = float(burst)
        self._tokens = float(burst)
        self._last = time.monotonic()
        self._chat_bucket = (5.0, time.monotonic())
        self.chat_rate, self.chat_burst = 1.0, 5
        self._sender: asyncio.Task[None] | None = None
        self.resync: Callable[[Connection], Awaitable[list[bytes]]] | None = None
        self._resync_pending = False

    def start(self) -> None:
        self._sender = asyncio.create_task(self._send_loop())

    async def close(self) -> None:
        if self._sender is not None:
            self._sender.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._sender

    def send(self, payload: bytes) -> None:
        """Queue bytes for this socket (never blocks the room); on overflow drop the backlog and resync."""
        if self._resync_pending and payload.startswith(_SUPERSEDED):
            return
        try:
            self.queue.put_nowait(payload)
        except asyncio.QueueFull:
            self.overflows += 1
            while not self.queue.empty():
                self.queue.get_nowait()
            self.queue.put_nowait(RESYNC)
            self._resync_pending = True

    def allow_message(self) -> bool:
        """Token bucket: ``rate`` messages a second with bursts of ``burst``."""
        now = time.monotonic()
        self._tokens = min(self._burst, self._tokens + (now - self._last) * self._rate)
        self._last = now
        if self._tokens < 1.0:
            return False
        self._tokens -= 1.0
        return True

    def allow_chat(self) -> bool:
        tokens, last = self._chat_bucket
        now = time.monotonic()
        tokens = min(float(self.chat_burst), tokens + (now - last) * self.chat_rate)
        if tokens < 1.0:
            self._chat_bucket = (tokens, now)
            return False
        self._chat_bucket = (tokens - 1.0, now)
        return True

    async def _send_loop(self) -> None:
        try:
            while True:
                payload = await self.queue.get()
                if payload == RESYNC:
                    self._resync_pending = False
                    for fresh in await self.resync(self) if self.resync is not None else []:
                        await self.websocket.send_text(fresh.decode())
                    continue
                await self.websocket.send_text(payload.decode())
        except asyncio.CancelledError:
            raise
        except Exception:
            # The socket is gone; the receive loop notices and cleans up.
            return
