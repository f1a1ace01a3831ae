"""A room's timer: when a seat's time to act runs out, the game's timeout action goes through the room's ``apply``.

The deadline is the game's own timer if its rules set one, else the room's turn timer if the host set one. It is
stored with each move (``LiveGame.timer_key``, ``deadline``), so a process that loads the room resumes it.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Protocol

from app.live.game import LiveGame
from app.live.messages import ProtocolError
from engines.base import Action, Seat

log = logging.getLogger("threefold.room")


class TimedRoom(Protocol):
    """What a timer needs of its room (app.live.room.Room)."""

    lock: asyncio.Lock

    @property
    def code(self) -> str: ...

    def playing(self, game_id: int) -> LiveGame | None:
        """The game ``game_id`` if it is still being played."""
        ...

    async def apply(self, seat: Seat, action: Action, actor: str) -> None:
        """Must be called with the lock held."""
        ...


def set_deadline(game: LiveGame, turn_seconds: int | None) -> None:
    """The game's own timer if its rules set one, else the room's turn timer (``turn_seconds``) if the host set one.

    The room timer's key is the oldest version any waiting seat was asked at, so it keeps running
    while others act on a simultaneous step and restarts when a new step begins.
    """
    timer = game.engine.timer(game.state)
    key: str | None = None
    seconds = 0.0
    if timer is not None:
        key, seconds = timer.key, timer.seconds
    elif turn_seconds and game.to_act:
        oldest = min(game.since.get(s, game.version) for s in game.to_act)
        key, seconds = f"room-{oldest}-{turn_seconds}", float(turn_seconds)
    if key is None:
        game.timer_key, game.deadline = None, None
    elif key != game.timer_key:
        game.timer_key, game.deadline = key, time.time() + seconds


class Timer:
    """The room's one armed timer."""

    def __init__(self, room: TimedRoom) -> None:
        self.room = room
        self.task: asyncio.Task[None] | None = None

    def pending(self) -> bool:
        return self.task is not None and not self.task.done()

    def cancel(self) -> None:
        """Disarm it, unless it is what runs now (a timer applying several timeouts re-arms through ``arm``)."""
        if self.task is not None and self.task is not asyncio.current_task():
            self.task.cancel()

    def arm(self, game: LiveGame | None) -> None:
        """Fire at ``game``'s deadline (None: no game being played, nothing to fire)."""
        self.cancel()
        self.task = None
        if game is not None and game.deadline is not None:
            self.task = asyncio.create_task(self._fire(game.id, game.timer_key, game.deadline))

    async def _fire(self, game_id: int, key: str | None, deadline: float) -> None:
        room = self.room
        await asyncio.sleep(max(0.0, deadline - time.time()))
        async with room.lock:
            game = room.playing(game_id)
            if game is None or game.timer_key != key:
                return
            for seat in sorted(game.to_act):
                if game.timer_key != key or seat not in game.to_act:
                    continue
                try:
                    await room.apply(seat, game.engine.timeout_action(game.state, seat), "timer")
                except ProtocolError as err:  # pragma: no cover - an engine bug, logged
                    log.error("timeout action refused in room %s: %s", room.code, err.message)
