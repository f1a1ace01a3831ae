"""One WebSocket connection that never stalls its room: a send is written at once while the socket takes it,
and only a socket that pushes back gets a bounded backlog (and a resync when that overflows). A socket that
takes nothing for ``stuck_seconds`` has a peer that stopped reading: it is dropped, and its player is away
like anyone whose connection went."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable, Coroutine, Generator
from typing import Any, cast

from starlette.websockets import WebSocket

from app.live.messages import kept
from app.ws_protocol import FRAMES_EXTENSION, FrameWriter, text_frame

log = logging.getLogger("threefold.connection")

RESYNC = b""
"""Backlog marker: the backlog overflowed, so send a fresh room summary and full state instead of the dropped
messages. Until it is sent, further room and state messages are skipped (the resync carries the latest)."""
_SUPERSEDED = (b'{"type":"state"', b'{"type":"room"')
RECENT_IDS = 64
STUCK_SECONDS = 10.0
"""How long a write the socket pushed back on may wait without the socket taking anything before its peer
counts as no longer reading. A phone on a bad network takes a message within seconds; a frozen page never."""


class _Rest:
    """The rest of a coroutine that was started by hand and suspended on ``pending``: awaiting it resumes
    the coroutine where it stopped (what an eager task does; ``asyncio.eager_task_factory`` is 3.12+)."""

    def __init__(self, coro: Coroutine[Any, Any, Any], pending: Any) -> None:
        self.coro, self.pending = coro, pending

    def __await__(self) -> Generator[Any, Any, None]:
        coro, pending = self.coro, self.pending
        while True:
            try:
                received = yield pending
            except BaseException as exc:  # cancellation included: the coroutine gets to clean up
                try:
                    pending = coro.throw(exc)
                except StopIteration:
                    return
                continue
            try:
                pending = coro.send(received)
            except StopIteration:
                return


class Connection:
    stuck_seconds = STUCK_SECONDS

    def __init__(
        self,
        websocket: WebSocket,
        player_id: int,
        queue_size: int,
        rate: float,
        burst: int,
        write_frames: FrameWriter | None = None,
    ) -> None:
        self.websocket = websocket
        self.player_id = player_id
        # Lists, not deques: an empty deque already holds a whole block, kept for every socket's life.
        self.backlog: list[bytes] = []
        """Messages waiting behind a write the socket has not taken yet; at most ``queue_size``."""
        self.queue_size = queue_size
        self.recent_ids: list[str] = []
        """The ids of the socket's last RECENT_IDS applied actions (a resent action is refused)."""
        self.welcomed: tuple[Any, ...] = ()
        """What the last ``welcome`` built for this socket said (not the message: orjson's bytes keep a
        buffer much larger than themselves)."""
        self.overflows = 0
        self._rate = rate
        self._burst = float(burst)
        self._tokens = float(burst)
        self._last = time.monotonic()
        self._chat_bucket = (5.0, time.monotonic())
        self.chat_rate, self.chat_burst = 1.0, 5
        self._flusher: asyncio.Task[None] | None = None
        self._gone = False
        self.resync: Callable[[Connection], Awaitable[list[bytes]]] | None = None
        self._resync_pending = False
        self._write_frames = write_frames
        """Set when the server writes prepared frames (app/ws_protocol.py): no ASGI send per message."""
        self._took_at = 0.0
        """When the socket last took a write, while one is pushed back (monotonic clock)."""
        self._watchdog: asyncio.TimerHandle | None = None
        """Checks, while a write is pushed back, that the socket still takes something now and then."""
        self.dropped = False
        """Set when the socket took nothing for ``stuck_seconds`` and was dropped."""
        self.via: str | None = None
        """The process relaying this socket from its client (app.routers.ws), if it came through one."""
        self.watching = False
        """A shared screen (the room page's TV mode, ``/ws/{code}?watch=1``): it gets the public view, as a
        spectator does, even when its player holds a seat, so no seat's hand or words reach the TV. It is
        nobody's presence (``LiveRoom.local_players``): a seat whose player has only the TV open is away."""

    async def close(self) -> None:
        self._gone = True
        if self._flusher is not None:
            self._flusher.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._flusher

    def send(self, *payloads: bytes) -> None:
        """Send in order, never blocking the room: written at once while the socket takes them (several in
        one write, where the server takes prepared frames), else queued behind the pending write; on
        overflow the backlog is dropped for a resync."""
        if self._gone:
            return
        write = self._write_frames
        if self._flusher is None and write is not None:
            frames = text_frame(payloads[0]) if len(payloads) == 1 else b"".join(map(text_frame, payloads))
            if write(frames):
                return
        for payload in payloads:
            self._send_one(payload)

    def send_framed(self, frame: bytes, payload: bytes) -> None:
        """``send(payload)``, given ``frame = text_frame(payload)`` already: a room's state is framed once for
        all the sockets that get it, not once per socket."""
        if self._gone:
            return
        write = self._write_frames
        if self._flusher is None and write is not None and write(frame):
            return
        self._send_one(payload)

    def _send_one(self, payload: bytes) -> None:
        if self._gone or (self._resync_pending and payload.startswith(_SUPERSEDED)):
            return
        if self._flusher is None:
            rest = self._write_now(payload)
            if rest is not None:
                self._flusher = asyncio.create_task(self._flush(rest))
        elif len(self.backlog) < self.queue_size:
            self.backlog.append(kept(payload))  # a stuck socket's backlog must not hold orjson's large buffers
        else:
            self.overflows += 1
            self.backlog.clear()
            self.backlog.append(RESYNC)
            self._resync_pending = True

    def _write_now(self, payload: bytes) -> _Rest | None:
        """Run the ASGI send up to its first suspension: a writable socket takes the frame without one, so
        most messages cost no task and no queue. Returns the rest if the socket pushed back."""
        coro = self.websocket.send_text(payload.decode())
        try:
            pending = coro.send(None)
        except StopIteration:
            return None
        except Exception:
            self._gone = True  # the socket is gone; the receive loop notices and cleans up
            return None
        return _Rest(coro, pending)

    def remember_id(self, msg_id: str) -> None:
        self.recent_ids.append(msg_id)
        if len(self.recent_ids) > RECENT_IDS:
            del self.recent_ids[0]

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

    async def _flush(self, rest: _Rest) -> None:
        """Finish the write the socket pushed back on, then everything queued behind it, in order."""
        self._took_at = time.monotonic()
        self._watch(self.stuck_seconds)
        try:
            await rest
            while self.backlog:
                self._took_at = time.monotonic()
                payload = self.backlog.pop(0)
                if payload == RESYNC:
                    self._resync_pending = False
                    for fresh in await self.resync(self) if self.resync is not None else []:
                        await self.websocket.send_text(fresh.decode())
                        self._took_at = time.monotonic()
                    continue
                await self.websocket.send_text(payload.decode())
        except asyncio.CancelledError:
            raise
        except Exception:
            self._gone = True  # the socket is gone; the receive loop notices and cleans up
        finally:
            self._flusher = None
            if self._watchdog is not None:
                self._watchdog.cancel()
                self._watchdog = None

    def _watch(self, delay: float) -> None:
        self._watchdog = asyncio.get_running_loop().call_later(delay, self._check_taking)

    def _check_taking(self) -> None:
        """Drop the socket if its pending write has waited ``stuck_seconds`` with nothing taken."""
        self._watchdog = None
        if self._flusher is None or self._gone:
            return
        waited = time.monotonic() - self._took_at
        if waited < self.stuck_seconds:
            self._watch(self.stuck_seconds - waited)
            return
        self._drop()

    def _drop(self) -> None:
        """Its peer stopped reading. A close would wait behind what the peer never reads (and, once the server
        gave up on it, stop reading its moves while it still counted as connected): the connection is cut
        instead, so the receive loop ends and the room treats the player as gone."""
        log.info("dropping the socket of player %s: it took nothing for %.0f s", self.player_id, self.stuck_seconds)
        self._gone = self.dropped = True
        self.backlog.clear()
        abort = _abort_of(self.websocket)
        if abort is not None:
            abort()
        elif self._flusher is not None:
            self._flusher.cancel()  # another server: at least let go of the pending write


def _abort_of(websocket: WebSocket) -> Callable[[], None] | None:
    """The server's way to cut the connection at once (app/ws_protocol.py), if it offers one."""
    scope = getattr(websocket, "scope", None) or {}
    extension = (scope.get("extensions") or {}).get(FRAMES_EXTENSION)
    return None if extension is None else cast(Callable[[], None] | None, extension.get("abort"))
