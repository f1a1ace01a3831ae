"""CPU per move of the SQLite write alone, by group size: what a commit costs and what the game row's update adds.

    .venv/bin/python -m bench.sqlite_writes                  # groups of 1, 2 and 4; with and without the update
    .venv/bin/python -m bench.sqlite_writes --groups 1,8 --moves 100000

At 1,000 rooms × 2 moves/s a group commit holds 1-2 moves (at saturation, 64 and more), so there a commit's
fixed cost (the write lock's fcntl calls, a WAL write per page, the WAL index) is most of a move's write. This
drives the app's own writer (``SqliteMoveWriter``: one connection on the event loop, the checkpointer thread,
the WAL restart at ``wal_size_limit``) with the app's own statements on a freshly migrated database holding
``--games`` games in play, each round writing ``group`` moves to random games in one commit, and reports the
process' CPU (every thread) per move, for three writes: the move as served (the game row's version and timer,
and the action's row), the action's row alone (what dropping the game row's per-move update would save), and
an empty transaction (the commit itself, plus this benchmark's own task per write). The VM's speed drifts, so
compare figures of one run.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import os
import random
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import orjson

from app.live.records import MoveWrite
from app.live.sql_store import _record, add_action
from app.live.sqlite_store import SqliteMoveWriter
from app.sql import Sql

ROOT = Path(__file__).resolve().parents[1]
SNAPSHOT = {"board": [[None] * 5 for _ in range(5)], "padding": "x" * 600}
"""About the size of a Tri-Tac game's row."""
PLACE = {"type": "place", "row": 1, "col": 2}


def _migrated(path: str, games: int) -> None:
    env = {**os.environ, "THREEFOLD_DATABASE_URL": f"sqlite+aiosqlite:///{path}"}
    subprocess.run([sys.executable, "-m", "alembic", "upgrade", "head"], cwd=ROOT, env=env, check=True)
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("BEGIN")
    snapshot = orjson.dumps(SNAPSHOT).decode()
    for game_id in range(1, games + 1):  # foreign keys are off on this connection: no rooms or players needed
        db.execute(
            "INSERT INTO games (id, room_id, number, engine, options, seed, seats, version, status, snapshot, "
            "snapshot_version, created_at) VALUES (?, ?, 1, 'tri-tac', '{}', 1, '[]', 0, 'playing', ?, 0, "
            "CURRENT_TIMESTAMP)",
            (game_id, game_id, snapshot),
        )
    db.execute("COMMIT")
    db.close()


def _nothing(sql: Sql, move: MoveWrite) -> None:
    """An empty transaction: the commit's own cost, and this benchmark's (a task per write)."""


WRITES = {"the move (as served)": _record, "without the game row": add_action, "empty": _nothing}


async def _measure(path: str, games: int, group: int, moves: int, write: Callable[..., None]) -> float:
    writer = SqliteMoveWriter(path)
    versions = dict.fromkeys(range(1, games + 1), 0)
    rng = random.Random(group)
    try:
        cpu = time.process_time()
        for _ in range(moves // group):
            works = []
            for game_id in rng.sample(range(1, games + 1), group):
                versions[game_id] += 1
                move = MoveWrite(game_id, versions[game_id], 0, PLACE, "A", None, None, None, None)
                works.append(functools.partial(write, move=move))
            await asyncio.gather(*(writer.write(work) for work in works))  # one turn of the loop: one commit
        return (time.process_time() - cpu) / (moves // group * group)
    finally:
        writer.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=1000, help="games in play (1,000 rooms)")
    parser.add_argument("--groups", default="1,2,4", help="moves per commit, comma-separated")
    parser.add_argument("--moves", type=int, default=40_000, help="moves per measurement")
    args = parser.parse_args()
    for group in (int(g) for g in args.groups.split(",")):
        for label, write in WRITES.items():
            with tempfile.TemporaryDirectory() as tmp:  # a fresh database each time: the same work for each
                path = f"{tmp}/writes.db"
                _migrated(path, args.games)
                seconds = asyncio.run(_measure(path, args.games, group, args.moves, write))
                print(f"{group:>3} a commit, {label:<22}: {seconds * 1e6:6.1f} µs a move")


if __name__ == "__main__":
    main()
