"""The group commit both database stores write moves through: every write asked for while the previous group
was on its way goes in the next one (one transaction on SQLite, one statement on PostgreSQL), and each caller is
answered only once its group has committed, so "stored before anyone is told" holds.

One retry policy: if a group fails as a whole (say one move's version is already stored), each of its writes
is tried again alone, so a stale or duplicate write fails by itself and the others are still stored. A caller
that gave up waiting (cancelled) has been told its write failed and has undone it: its write is dropped from
any attempt not yet made.

What differs stays with each store, in its ``Commit``: SQLite yields and tries again while another connection
holds the write lock (app.live.sqlite_store), and a PostgreSQL statement takes one move a game
(app.live.pg_moves), which can refuse one move of a group without failing the rest.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from typing import Generic, TypeVar

W = TypeVar("W")
R = TypeVar("R")

Waiting = tuple[W, asyncio.Future[R]]
"""A write waiting for the next group, and its caller's future."""

Commit = Callable[[list[Waiting[W, R]]], Awaitable[Sequence[R | Exception]]]
"""Writes a group in one go: an outcome for each of its writes, in order (an exception: that write alone was
refused); raises if the group as a whole failed. It may leave out a write whose caller has meanwhile given up
(its outcome is then ignored)."""


def take_all(pending: list[Waiting[W, R]]) -> tuple[list[Waiting[W, R]], list[Waiting[W, R]]]:
    return pending, []


class GroupCommit(Generic[W, R]):
    def __init__(
        self,
        commit: Commit[W, R],
        take: Callable[[list[Waiting[W, R]]], tuple[list[Waiting[W, R]], list[Waiting[W, R]]]] = take_all,
    ) -> None:
        """``take`` splits what is waiting into the next group and what is left for the one after."""
        self._commit = commit
        self._take = take
        self._pending: list[Waiting[W, R]] = []
        self._committer: asyncio.Task[None] | None = None

    async def write(self, write: W) -> R:
        """Store ``write`` in the next group; its outcome once that is committed."""
        committer = self._committer
        # The committer's loop is the running one (asked of asyncio only for a group's first write: on
        # Python 3.11 each ask is a getpid system call).
        loop = asyncio.get_running_loop() if committer is None else committer.get_loop()
        future: asyncio.Future[R] = loop.create_future()
        self._pending.append((write, future))
        if committer is None:
            self._committer = loop.create_task(self._commit_pending())
        return await future

    async def drain(self) -> None:
        """Wait until the writes already asked for are stored (or refused)."""
        committer = self._committer
        if committer is not None:
            await asyncio.gather(committer, return_exceptions=True)

    async def _commit_pending(self) -> None:
        group: list[Waiting[W, R]] = []
        try:
            while self._pending:
                group, self._pending = self._take(self._pending)
                group = [waiting for waiting in group if not waiting[1].cancelled()]
                if group:
                    await self._commit_group(group)
                group = []
        except BaseException as err:  # never leave a caller waiting forever
            for _write, future in group + self._pending:
                _settle(future, err if isinstance(err, Exception) else RuntimeError("writer stopped"))
            self._pending = []
            raise
        finally:
            self._committer = None

    async def _commit_group(self, group: list[Waiting[W, R]]) -> None:
        try:
            outcomes = await self._commit(group)
        except Exception as err:
            if len(group) == 1:
                _settle(group[0][1], err)
                return
            for waiting in group:  # each alone
                if not waiting[1].cancelled():
                    await self._commit_group([waiting])
            return
        for (_write, future), outcome in zip(group, outcomes, strict=True):
            _settle(future, outcome)


def _settle(future: asyncio.Future[R], outcome: R | Exception) -> None:
    if future.done():  # the caller gave up waiting (cancelled)
        return
    if isinstance(outcome, Exception):
        future.set_exception(outcome)
    else:
        future.set_result(outcome)
