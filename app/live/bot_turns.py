"""Moves the room makes for bot seats, and for people away past the grace period (a bot stands in).

Each comes after a human-like pause and goes through the room's ``apply`` like a person's. Every seat the game
waits on has a pause of its own: on a simultaneous step (Tic Tac Top's writing, Trick-Tac-Foe's commits) the
bots think and move side by side, as people do, and one bot's move does not restart another's pause. A bot
that searches thinks in a worker (app.live.thinking) during its pause, without the room's lock: the room's
sockets and every other room go on meanwhile.
"""

from __future__ import annotations

import asyncio
import logging
import math
import random
import time
from dataclasses import dataclass
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


FILL_SHARE = 0.7
"""The share of the time left before a step's deadline that a bot with several moves still to make there
spreads them over: the rest is the margin for the last one to land (the room's lock, the store)."""

TurnKey = tuple[int, int, str, float | None]
"""What a seat's armed move waits on: the game, the version the seat was asked at, who moves (a bot's level,
or ``standin``) and when a stand-in may start."""


@dataclass
class SeatTurn:
    """One seat's armed move."""

    key: TurnKey
    due: float
    """When (``time.time()``) it moves."""
    task: asyncio.Task[None]
    moving: bool = False
    """Set once it holds the room's lock: from then on it is never cancelled (its move may be being stored)."""


class BotTurns:
    """The room's armed bot and stand-in moves: one task per seat the game waits on, each with its own pause."""

    def __init__(self, room: BotRoom, settings: Settings, thinker: Thinker) -> None:
        self.room = room
        self.settings = settings
        self.thinker = thinker
        self.turns: dict[Seat, SeatTurn] = {}

    def pending(self) -> bool:
        return any(not turn.task.done() for turn in self.turns.values())

    def cancel(self) -> None:
        for seat in list(self.turns):
            self._drop(seat)

    def _drop(self, seat: Seat) -> None:
        """Forget the seat's armed move, and cancel it unless it is already moving (or is what runs now)."""
        turn = self.turns.pop(seat)
        if not turn.moving and turn.task is not asyncio.current_task():
            turn.task.cancel()

    def get_ready(self, game: str, seats: list[dict[str, Any]]) -> None:
        """A new game begins: if a bot of it searches, start the workers now, so its first move finds them."""
        if any(needs_worker(game, parse_level(s.get("level", DEFAULT_LEVEL))) for s in seats if s["bot"]):
            self.thinker.start()

    def arm(self, game: LiveGame | None) -> None:
        """Let the bots and stand-ins of the seats ``game`` waits on move, each after its own pause (None: no
        game being played, nothing to move). A seat whose armed move still waits on the same position for
        it keeps it: another seat's move on a simultaneous step does not restart its pause."""
        wanted = {} if game is None else self._wanted(game)
        now = time.time()
        for seat, turn in list(self.turns.items()):
            if wanted.get(seat) != turn.key or turn.task.done():
                self._drop(seat)
            elif game is not None and not turn.moving and turn.due > self._latest(game, seat, turn.key, now):
                self._drop(seat)  # a deadline came closer (Tic Tac Top's countdown): a shorter pause
        if game is None:
            return
        for seat, key in wanted.items():
            if seat in self.turns:
                continue
            due = now + self._pause(game, seat, now)
            if (ready := key[3]) is not None:
                due = max(ready, due)
            task = asyncio.create_task(self._move(game.id, seat, key, due - now))
            self.turns[seat] = SeatTurn(key, due, task)

    def _wanted(self, game: LiveGame) -> dict[Seat, TurnKey]:
        """The key of every seat ``game`` waits on that a bot plays now or a stand-in will, in seat order."""
        wanted: dict[Seat, TurnKey] = {}
        for seat in sorted(game.to_act):
            if game.seats[seat].get("bot"):
                who, ready = str(game.seats[seat].get("level", DEFAULT_LEVEL)), None
            elif (ready := self.room.stand_in_from(seat)) is not None:
                who = "standin"
            else:
                continue
            wanted[seat] = (game.id, game.since.get(seat, game.version), who, ready)
        return wanted

    def _pause(self, game: LiveGame, seat: Seat, now: float) -> float:
        """A human-like pause: the game's own hint for this seat's step, else the default, jittered. A seat
        with several moves still to make before the step's deadline fits them all into the time left."""
        bot = get_bot(game.engine.name)
        hint = None if bot is None else bot.delay(game.state, seat)
        settings = self.settings
        base = settings.bot_delay_seconds if hint is None else hint
        pause = base * settings.bot_pace * (0.75 + 0.5 * random.random())
        fitted = self._fitted(game, seat, now)
        return pause if fitted is None else min(pause, fitted * (0.75 + 0.25 * random.random()))

    def _fitted(self, game: LiveGame, seat: Seat, now: float) -> float | None:
        """The longest pause that leaves time for the seat's other moves before the step's deadline (None:
        no deadline, or the seat is in no hurry)."""
        bot = get_bot(game.engine.name)
        moves = None if bot is None else bot.moves_left(game.state, seat)
        if not moves or game.deadline is None:
            return None
        return FILL_SHARE * max(0.0, game.deadline - now) / moves

    def _latest(self, game: LiveGame, seat: Seat, key: TurnKey, now: float) -> float:
        """The latest a seat's armed move may come, as things stand."""
        fitted = self._fitted(game, seat, now)
        return math.inf if fitted is None else max(key[3] or 0.0, now + fitted)

    async def _move(self, game_id: int, seat: Seat, key: TurnKey, wait: float) -> None:
        """Play one move for ``seat``: a bot, or a person away longer than the grace period (a stand-in),
        if the game still waits on it as it did when this was armed."""
        room = self.room
        started = time.monotonic()
        thought = await self._think(game_id, seat, started + self._think_budget())
        await asyncio.sleep(max(0.0, wait - (time.monotonic() - started)))
        async with room.lock:
            turn = self.turns.get(seat)
            if turn is not None and turn.task is not asyncio.current_task():
                turn = None  # a newer move is armed for the seat: it moves, not this one
            if turn is not None:
                turn.moving = True
            try:
                game = room.playing(game_id)
                if turn is not None and game is not None and self._wanted(game).get(seat) == key:
                    await self._play(game, seat, thought)
            finally:
                if turn is not None and self.turns.get(seat) is turn:
                    del self.turns[seat]
                # apply() re-armed the bots; if this seat did not move (its stand-in was not due yet, the
                # move was refused), it waits for another pause.
                if (game := room.playing(game_id)) is not None:
                    self.arm(game)

    async def _play(self, game: LiveGame, seat: Seat, thought: Thought | None) -> None:
        """The seat's move, now, through the room's ``apply`` (the lock is held)."""
        room = self.room
        is_bot = bool(game.seats[seat].get("bot"))
        if not is_bot and not room.standing_in(seat):
            return
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

    def _think_budget(self) -> float:
        """A strong bot's search time per move: scaled like its pauses (tests run bots fast)."""
        return STRONG_BUDGET_SECONDS * min(1.0, self.settings.bot_pace)

    async def _think(self, game_id: int, seat: Seat, deadline_at: float) -> Thought | None:
        """The move of bot ``seat``, if its level searches: thought out in a worker."""
        game = self.room.playing(game_id)
        if game is None or seat not in game.to_act:
            return None
        info = game.seats[seat]
        if not info.get("bot"):
            return None
        level = parse_level(info.get("level", DEFAULT_LEVEL))
        if not needs_worker(game.engine.name, level):
            return None
        version = game.version
        dumped = game.engine.dump(game.state)
        action = await self.thinker.choose(game.engine.name, level, dumped, seat, version * 31 + seat, deadline_at)
        return None if action is None else Thought(game_id, version, seat, action)
