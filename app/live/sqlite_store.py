"""The room store on a SQLite file (one process): the per-move writes on a plain ``sqlite3`` connection,
grouped into one commit per turn of the event loop (``SqliteMoveWriter``)."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import os
import sqlite3
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.live.group_commit import GroupCommit, Waiting
from app.live.sql_store import PLAYER_BY_TOKEN, SqlStore, player_row
from app.sql import Sql, SqliteSql

T = TypeVar("T")


class SqliteStore(SqlStore):
    def __init__(self, sessions: async_sessionmaker[AsyncSession], path: str) -> None:
        super().__init__(sessions)
        self._moves = SqliteMoveWriter(path)

    async def close(self) -> None:
        self._moves.close()

    async def _write(self, work: Callable[[Sql], T]) -> T:
        """On the move writer's connection, on the event loop: a game end or a new game then holds the write
        lock only while it computes, not across a dozen thread hops (through an async session it held it many
        times longer, while every move in every room retried)."""
        return await self._moves.write(work)

    async def player_by_token_hash(self, token_hash: str) -> tuple[int, str] | None:
        """A plain read on the loop, too short to be worth a thread: every socket opens with this, and through
        the async session pool (15 connections, a thread hop per statement) the benchmark's burst of sockets
        queued past the pool's timeout, failing sockets."""
        db = self._moves.db
        return player_row(await _when_not_busy(lambda: SqliteSql(db).rows(PLAYER_BY_TOKEN, token_hash=token_hash)))


class SqliteMoveWriter:
    """The per-move write on SQLite, on a plain ``sqlite3`` connection (WAL, synchronous=NORMAL).

    An async session (aiosqlite hops to its thread twice per statement) cost many times this write, and was
    most of the server's CPU per move (`git log -- app/live/sqlite_store.py` has the figures). A WAL commit
    with synchronous=NORMAL does not wait for the disk, so running it on the event loop is cheaper than
    handing it to a thread; it is still committed before anyone is told (a crash of the process loses
    nothing committed; only a power cut can lose the last moments, as with any NORMAL WAL database).

    Checkpoints (copying the WAL back into the database file, with an fsync) are what does wait for the
    disk: SQLite runs one inside the commit that crosses 1,000 WAL pages, which here would stall the event
    loop every fraction of a second under load. This connection never checkpoints; a thread does it every
    ``checkpoint_seconds`` (PASSIVE: it never blocks a writer), outside the loop.

    The WAL only starts over from its beginning when a write begins with every frame already copied back;
    under a writer that never pauses for a checkpoint's length, that never happens, and the file grew for
    as long as the load lasted (under the benchmark's saturation, without end). So once the file passes
    ``wal_size_limit`` (64 MiB) the writer itself holds its next group for one more pass (off the loop;
    moves meanwhile queue up for the group after), and that group's write starts the WAL over and cuts the
    file back (``journal_size_limit``).
    """

    def __init__(self, path: str, *, checkpoint_seconds: float = 1.0, wal_size_limit: int = 64 << 20) -> None:
        self.checkpoint_seconds = checkpoint_seconds
        self.wal_size_limit = wal_size_limit
        # busy_timeout=0: a busy database answers at once, and ``_when_not_busy`` retries without blocking.
        self.db = sqlite3.connect(path, isolation_level=None, check_same_thread=False, timeout=0)
        for pragma in ("journal_mode=WAL", "synchronous=NORMAL", "foreign_keys=ON", "busy_timeout=0"):
            self.db.execute(f"PRAGMA {pragma}")
        self.db.execute("PRAGMA wal_autocheckpoint=0")  # the checkpointer thread does it (see above)
        self.db.execute(f"PRAGMA journal_size_limit={wal_size_limit}")
        self._wal_path = f"{path}-wal"
        # Its own connection: the pass runs in a thread while the loop may still read on ``db``.
        self._restarter = sqlite3.connect(path, isolation_level=None, check_same_thread=False, timeout=0)
        self.wal_oversized = False
        """Set by the checkpointer thread: the WAL file is past ``wal_size_limit`` (see above)."""
        self._stop = threading.Event()
        self._checkpointer = threading.Thread(target=self._checkpoints, args=(path,), daemon=True)
        self._checkpointer.start()
        self._sql = SqliteSql(self.db)
        self._group: GroupCommit[Callable[[Sql], Any], Any] = GroupCommit(self._commit_group)

    def close(self) -> None:
        self._stop.set()
        self._checkpointer.join(timeout=5)
        self._restarter.close()
        self.db.close()

    def _checkpoints(self, path: str) -> None:
        db = sqlite3.connect(path, isolation_level=None, timeout=5)
        try:
            while not self._stop.wait(self.checkpoint_seconds):
                with contextlib.suppress(sqlite3.Error):  # busy now: the next round catches up
                    db.execute("PRAGMA wal_checkpoint(PASSIVE)")
                self.note_wal_size()
        finally:
            with contextlib.suppress(sqlite3.Error):
                db.execute("PRAGMA wal_checkpoint(PASSIVE)")
            db.close()

    def note_wal_size(self) -> None:
        with contextlib.suppress(OSError):
            self.wal_oversized = os.path.getsize(self._wal_path) > self.wal_size_limit

    async def _restart_wal(self) -> None:
        """One checkpoint pass with no write of ours under way, so the next write starts the WAL over."""
        self.wal_oversized = False
        with contextlib.suppress(sqlite3.Error):  # the checkpointer thread's pass holds the lock: next time
            await asyncio.to_thread(lambda: self._restarter.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall())

    async def write(self, work: Callable[[Sql], T]) -> T:
        """Run ``work`` in the next group commit (app.live.group_commit) and return its result once that is
        committed: every write asked for in one turn of the event loop (a move in each of many rooms, a game
        end) shares one transaction, one WAL append and one commit instead of one each."""
        result: T = await self._group.write(work)
        return result

    async def _commit_group(self, group: list[Waiting[Callable[[Sql], Any], Any]]) -> list[Any]:
        if self.wal_oversized:
            await self._restart_wal()
        return await _when_not_busy(functools.partial(self._commit_waited_for, group))

    def _commit_waited_for(self, group: list[Waiting[Callable[[Sql], Any], Any]]) -> list[Any]:
        """Commit the writes someone still waits for (a result for each of ``group``, None for the others).
        Checked at every attempt: a writer cancelled while the database was busy (between ``_when_not_busy``'s
        tries) has already been told its write failed, and restored what it had changed, so that write must
        not be stored after all."""
        waited_for = [index for index, (_work, future) in enumerate(group) if not future.cancelled()]
        results: list[Any] = [None] * len(group)
        if waited_for:
            for index, result in zip(waited_for, self._commit([group[i][0] for i in waited_for]), strict=True):
                results[index] = result
        return results

    def _commit(self, works: list[Callable[[Sql], Any]]) -> list[Any]:
        """Run ``works`` in one transaction holding the write lock from the start (BEGIN IMMEDIATE: the
        connection is in autocommit mode); raises sqlite3.OperationalError at once if another connection
        holds it (``_when_not_busy`` retries)."""
        db = self.db
        db.execute("BEGIN IMMEDIATE")
        try:
            results = [work(self._sql) for work in works]
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")
        return results


async def _when_not_busy(write: Callable[[], T]) -> T:
    """Run a synchronous SQLite write; if another connection holds the write lock, yield and try again.

    Never wait for the lock on the event loop: the holder may be an async session that needs the loop to
    finish (busy_timeout=0 makes a busy database answer at once)."""
    deadline_at = time.monotonic() + 30
    pause = 0.001
    while True:
        try:
            return write()
        except sqlite3.OperationalError as err:
            busy = "locked" in str(err) or "busy" in str(err)
            if not busy or time.monotonic() > deadline_at:
                raise
        await asyncio.sleep(pause)
        pause = min(pause * 2, 0.05)
