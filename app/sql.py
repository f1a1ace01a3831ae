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


def move_update(new: str = ":", old: str = "", rows: str = "") -> str:
    """The per-move update of a game row, only over the previous version: the new version, timer and deadline,
    the snapshot (every few moves and at the end; else the stored one stays) and the result (at the end).

    Written once for both forms it runs in: one move's named parameters (``new=":"``, the row's own columns
    unqualified), and on PostgreSQL many moves at once, as rows of a ``FROM`` (``new="m."``, ``old="g."``,
    ``rows="FROM m"``, app.live.pg_moves). A value is set before it is tested for NULL, so that PostgreSQL
    infers each parameter's type from the column it is assigned to."""
    table = f"games {old[:-1]}" if old else "games"
    return (
        f"UPDATE {table} SET version = {new}version, timer_key = {new}timer_key, deadline = {new}deadline, "
        f"snapshot = COALESCE({new}snapshot, {old}snapshot), "
        f"snapshot_version = CASE WHEN {new}snapshot IS NULL THEN {old}snapshot_version ELSE {new}version END, "
        f"result = COALESCE({new}result, {old}result), "
        f"status = CASE WHEN {new}result IS NULL THEN {old}status ELSE 'finished' END, "
        f"finished_at = CASE WHEN {new}result IS NULL THEN {old}finished_at ELSE CURRENT_TIMESTAMP END "
        f"{rows + ' ' if rows else ''}WHERE {old}id = {new}game_id AND {old}version = {new}version - 1"
    )


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
    # none_as_null: a move without a snapshot or result binds NULL (the stored one stays), not JSON 'null'.
    json = JSON(none_as_null=True)
    return text(statement.sql).bindparams(*(bindparam(name, type_=json) for name in sorted(statement.json)))
