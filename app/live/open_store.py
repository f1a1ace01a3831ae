"""The room store for the app's database (app.live.store): which implementation serves it."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db import postgres_dsn, sqlite_file
from app.live.postgres_store import PostgresStore
from app.live.sql_store import SqlStore
from app.live.sqlite_store import SqliteStore
from app.live.store import RoomStore
from app.settings import Settings


def open_store(
    sessions: async_sessionmaker[AsyncSession], settings: Settings, lease_owner: str | None = None
) -> RoomStore:
    """A SQLite file's store, PostgreSQL's (whose rooms then have owner processes, ``lease_owner`` naming this
    one: app.live.leases), else one through the sessions alone."""
    dsn = postgres_dsn(settings.database_url)
    if dsn is not None:
        store = PostgresStore(sessions, dsn, settings.postgres_move_connections)
        address = settings.internal_url or f"http://{settings.listen_host}:{settings.listen_port}"
        store.own_rooms(address, settings.lease_seconds, lease_owner)
        return store
    path = sqlite_file(settings.database_url)
    if path is not None:
        return SqliteStore(sessions, path)
    return SqlStore(sessions)
