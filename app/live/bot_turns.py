"""Moves the room makes for bot seats, and for people away past the grace period (a bot stands in).

Each comes after a human-like pause and goes through the room's ``apply`` like a person's. A bot that searches
thinks in a worker (app.live.thinking) during its pause, without the room's lock: the room's sockets and every
other room go on meanwhile.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from typing import Any, Protocol

from app.live.game import LiveGame
from app.live.messages import ProtocolError
from app.live.thinking import Thinker, Thought, needs_worker
from app.settings import Settings
from engines.base import Action, Seat
from engines.levels import DEFAULT_LEVEL, STAND_IN_LEVEL, STRONG_BUDGET_SECONDS, level_bot, parse_level
from engines.registry import get_bot

log = logging.getLogger("threefold.room")


class BotRoom(Protocol):
    """What bot turns need of their room (app.live.room.Room)."""

    lock: asyncio.Lock

    @property
    def code(self) -> str: ...

    def playing(self, game_id: int) -> LiveGame | None:
        """The game ``game_id`` if it is still being played."""
        ...

    def standing_in(self, seat: Seat) -> bool:
        """A bot plays for the seat's person now."""
        ...

    def stand_in_from(self, seat: Seat) -> float | None:
        """When (``time.time()``) a bot starts standing in for the seat's person, if they are away."""
        ...

    async def apply(self, seat: Seat, action: Action, actor: str) -> None:
        """Must be called with the lock held."""
        ...

    def show_room(self) -> None:
        """Send everyone the room's summary again (seats now show "a bot is standing in")."""
        ...

    def after_change(self) -> None:
        """Re-arm the room's timer and bots."""
        ...


class BotTurns:
    """The room's one armed bot turn: at most one bot or stand-in move waits at a time."""

    def __init__(self, room: BotRoom, settings: Settings, thinker: Thinker) -> None:
        self.room = room
        self.settings = settings
        self.thinker = thinker
        self.task: asyncio.Task[None] | None = None
        self.version: int | None = None
        """The game version ``task`` was armed at."""

    def pending(self) -> bool:
        return self.task is not None and not self.task.done()

    def cancel(self) -> None:
        if self.task is not None and self.task is not asyncio.current_task():
            self.task.cancel()

    def get_ready(self, game: str, seats: list[dict[str, Any]]) -> None:
        """A new game begins: if a bot of it searches, start the workers now, so its first move finds them."""
        if any(needs_worker(game, parse_level(s.get("level", DEFAULT_LEVEL))) for s in seats if s["bot"]):
            self.thinker.start()

    def arm(self, game: LiveGame) -> None:
        """Let the bots and stand-ins of the seats ``game`` waits on move, after their pause."""
        if self.task is not None and not self.task.done():
            if self.version == game.version or self.task is asyncio.current_task():
                return
            # Armed for an earlier position (say, a stand-in for a player who has come back and moved since,
            # with a bot to move now): wait for this one instead.
            self.task.cancel()
        now = time.time()
        waits = []
        for seat in sorted(game.to_act):
            if game.seats[seat].get("bot"):
                waits.append(self._pause(game))
            elif (ready := self.room.stand_in_from(seat)) is not None:
                waits.append(max(ready - now, self._pause(game)))
        if waits:
            self.task = asyncio.create_task(self._move(game.id, min(waits)))
            self.version = game.version

    def _pause(self, game: LiveGame) -> float:
        """A human-like pause: the game's own hint for this step, else the default, jittered."""
        bot = get_bot(game.engine.name)
        hint = None
        for seat in sorted(game.to_act):
            if bot is not None and game.seats[seat].get("bot"):
                hint = bot.delay(game.state, seat)
                break
        settings = self.settings
        base = settings.bot_delay_seconds if hint is None else hint
        return base * settings.bot_pace * (0.75 + 0.5 * random.random())

    async def _move(self, game_id: int, wait: float) -> None:
        """Play one move for a bot seat, or for a person away longer than the grace period (a stand-in)."""
        room = self.room
        started = time.monotonic()
        thought = await self._think(game_id, started + self._think_budget())
        await asyncio.sleep(max(0.0, wait - (time.monotonic() - started)))
        async with room.lock:
            game = room.playing(game_id)
            if game is None:
                return
            for seat in sorted(game.to_act):
                is_bot = bool(game.seats[seat].get("bot"))
                if not is_bot and not room.standing_in(seat):
                    continue
                level = parse_level(game.seats[seat].get("level", DEFAULT_LEVEL)) if is_bot else STAND_IN_LEVEL
                if needs_worker(game.engine.name, level):
                    level = DEFAULT_LEVEL  # the worker's answer is late or stale: the normal bot answers at once
                bot = level_bot(game.engine.name, level)
                if thought is not None and thought.fits(game, seat):
                    action = thought.action
                elif bot is not None:
                    action = bot.choose(game.state, seat, random.Random(game.version * 31 + seat))
                else:
                    action = game.engine.timeout_action(game.state, seat)
                try:
                    await room.apply(seat, action, "bot" if is_bot else "standin")
                except ProtocolError as err:  # pragma: no cover - a bot bug, logged
                    log.error("bot move refused in room %s: %s", room.code, err.message)
                if not is_bot:
                    room.show_room()  # seats show "a bot is standing in"
                break
        # apply() re-armed bots if they still have to move.
        if self.task is asyncio.current_task():
            self.task = None
            room.after_change()

    def _think_budget(self) -> float:
        """A strong bot's search time per move: scaled like its pauses (tests run bots fast)."""
        return STRONG_BUDGET_SECONDS * min(1.0, self.settings.bot_pace)

    async def _think(self, game_id: int, deadline_at: float) -> Thought | None:
        """The move of the first bot seat to act, if its level searches: thought out in a worker."""
        game = self.room.playing(game_id)
        if game is None:
            return None
        for seat in sorted(game.to_act):
            info = game.seats[seat]
            if not info.get("bot"):
                continue
            level = parse_level(info.get("level", DEFAULT_LEVEL))
            if not needs_worker(game.engine.name, level):
                return None
            version = game.version
            dumped = game.engine.dump(game.state)
            seed = version * 31 + seat
            action = await self.thinker.choose(game.engine.name, level, dumped, seat, seed, deadline_at)
            return None if action is None else Thought(game_id, version, seat, action)
        return None
