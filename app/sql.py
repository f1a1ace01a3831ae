"""Plain SQL for the writes made on the event loop, written once and run two ways.

A game end (ratings, standings, the room) and a new game cost many times a whole move through SQLAlchemy
statements built per call: at a table that plays short games that was most of the database time. These
statements are fixed SQL texts with ``:named`` parameters, the form both ``sqlite3`` and SQLAlchemy's
``text()`` take, and upserts (``INSERT … ON CONFLICT``) that SQLite and PostgreSQL spell alike. On SQLite they
run on the move writer's plain connection (``SqliteSql``); on PostgreSQL on the asyncpg connection under the
session pool (``app.live.pg_moves.AsyncpgSql``); elsewhere through the session (``SessionSql``), compiled once
per statement.
"""

from __future__ import annotations

import functools
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import orjson
from sqlalchemy import JSON, TextClause, bindparam, text
from sqlalchemy.orm import Session


@dataclass(frozen=True)
class Statement:
    sql: str
    json: frozenset[str] = frozenset()
    """The parameters bound to JSON columns: SQLite stores them as text, PostgreSQL as json."""


FENCE = "SELECT 1 FROM room_leases WHERE room_id = :room_id AND epoch = :epoch FOR SHARE"
"""The check every write of a room runs first where rooms have owners (app.live.leases): the room's lease is
still at the epoch this process took it at, and stays so until the write commits."""


def move_update(snapshot: bool, result: bool) -> str:
    """The per-move update of the game row, only over the previous version: with the new snapshot (every few
    moves and at the end) and the result (at the end). Shared by the SQLite and session path (app.live.sql_store)
    and the asyncpg path (app.live.pg_moves), which runs it inside one statement with the action's insert."""
    sets = ["version = :version", "timer_key = :timer_key", "deadline = :deadline"]
    if snapshot:
        sets += ["snapshot = :snapshot", "snapshot_version = :version"]
    if result:
        sets += ["status = 'finished'", "result = :result", "finished_at = CURRENT_TIMESTAMP"]
    return f"UPDATE games SET {', '.join(sets)} WHERE id = :game_id AND version = :previous"


class Sql(Protocol):
    """Runs statements inside the caller's transaction."""

    def run(self, statement: Statement, **params: Any) -> int:
        """Execute; the number of rows changed."""
        ...

    def rows(self, statement: Statement, **params: Any) -> Sequence[Sequence[Any]]:
        """Execute; every row returned."""
        ...


class SqliteSql:
    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def run(self, statement: Statement, **params: Any) -> int:
        return self.db.execute(statement.sql, _json_as_text(statement, params)).rowcount

    def rows(self, statement: Statement, **params: Any) -> Sequence[Sequence[Any]]:
        return self.db.execute(statement.sql, _json_as_text(statement, params)).fetchall()


class SessionSql:
    def __init__(self, session: Session) -> None:
        self.session = session

    def run(self, statement: Statement, **params: Any) -> int:
        result = self.session.execute(_compiled(statement), params)
        return int(result.rowcount)  # type: ignore[attr-defined]

    def rows(self, statement: Statement, **params: Any) -> Sequence[Sequence[Any]]:
        return self.session.execute(_compiled(statement), params).all()


def _json_as_text(statement: Statement, params: dict[str, Any]) -> dict[str, Any]:
    for name in statement.json:
        if params[name] is not None:
            params[name] = orjson.dumps(params[name]).decode()
    return params


@functools.cache
def _compiled(statement: Statement) -> TextClause:
    return text(statement.sql).bindparams(*(bindparam(name, type_=JSON) for name in sorted(statement.json)))
