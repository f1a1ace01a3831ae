"""Bots that search think in worker processes, never on the event loop.

A strong bot's move is a search of up to ``STRONG_BUDGET_SECONDS``: run on the loop it would stall every
socket of every room for that long. ``Thinker`` sends the game's dumped state to a process pool (started
with ``forkserver``: no copy of the server's sockets, threads or loop in the workers) and awaits the answer.
The deadline is an absolute ``time.monotonic()`` (one clock for every process of the machine), so a move
that waited in the pool's queue searches only for the time left. If the answer does not come by the
deadline plus a margin, or the worker fails, the caller plays the normal bot's move instead.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import random
import time
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from engines.base import Action
from engines.levels import Level, level_bot
from engines.registry import all_engines, get_engine
from engines.search import Deadline, SearchBot

if TYPE_CHECKING:
    from app.live.game import LiveGame

log = logging.getLogger(__name__)

LATE_MARGIN_SECONDS = 0.5
"""How long past its deadline an answer is still awaited (a worker's start, pickling both ways)."""


@dataclass(frozen=True)
class Thought:
    """A move a worker thought out for ``seat`` at game ``game_id``'s ``version``."""

    game_id: int
    version: int
    seat: int
    action: Action

    def fits(self, game: LiveGame, seat: int) -> bool:
        """Still playable now: the same position, or (others moved meanwhile on a simultaneous step) a move
        the seat may still make."""
        if game.id != self.game_id or seat != self.seat or seat not in game.to_act:
            return False
        return game.version == self.version or self.action in game.engine.legal_actions(game.state, seat)


def needs_worker(game: str, level: Level) -> bool:
    """Whether this bot searches (and so must think off the loop); the others answer in a few ms."""
    return isinstance(level_bot(game, level), SearchBot)


def think(game: str, level: Level, dumped: dict[str, Any], seat: int, seed: int, deadline_at: float) -> Action:
    """In a worker: the bot's move for ``seat``, searching until ``deadline_at`` (``time.monotonic()``)."""
    engine = get_engine(game)
    state = engine.load(dumped)
    bot = level_bot(game, level)
    assert bot is not None
    rng = random.Random(seed)
    if isinstance(bot, SearchBot):
        return bot.choose_until(state, seat, rng, Deadline(deadline_at))
    return bot.choose(state, seat, rng)


def _warm() -> None:
    """Build every game's strong bot in the worker (engines.levels) before a move needs it."""
    for engine in all_engines():
        level_bot(engine.name, "strong")


class Thinker:
    """The pool, started on first use and shut down with the hub."""

    def __init__(self, workers: int | None = None, late_margin: float = LATE_MARGIN_SECONDS) -> None:
        self.workers = workers or max(1, (os.cpu_count() or 2) - 1)
        self.late_margin = late_margin
        self._pool: Executor | None = None

    def _executor(self) -> Executor:
        if self._pool is None:
            context = multiprocessing.get_context("forkserver")
            self._pool = ProcessPoolExecutor(self.workers, mp_context=context, initializer=_warm)
        return self._pool

    def start(self) -> None:
        """Start the workers now (a game with a strong bot begins), so its first move finds them ready."""
        if self._pool is None:
            self._executor()  # each worker warms up as it starts (the pool's initializer)

    async def choose(
        self, game: str, level: Level, dumped: dict[str, Any], seat: int, seed: int, deadline_at: float
    ) -> Action | None:
        """The worker's move, or None if it is late or fails (the caller then plays the normal bot)."""
        loop = asyncio.get_running_loop()
        future = loop.run_in_executor(self._executor(), think, game, level, dumped, seat, seed, deadline_at)
        wait = max(0.0, deadline_at - time.monotonic()) + self.late_margin
        try:
            return await asyncio.wait_for(future, wait)
        except TimeoutError:
            log.warning("a %s bot of %s missed its deadline: the normal bot moves instead", level, game)
        except Exception:  # a crashed or broken worker must not stop the table
            log.exception("a %s bot of %s failed in its worker: the normal bot moves instead", level, game)
            self._reset()
        return None

    def _reset(self) -> None:
        """A broken pool (a worker died) is replaced on the next move."""
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)

    def close(self) -> None:
        self._reset()
