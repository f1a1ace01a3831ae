"""Shared fixtures: databases (SQLite always; PostgreSQL where reachable), live server processes."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.server import ServerProcess, migrate
from tests.support.services import postgres_database


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A migrated, empty database of each kind the suite runs on."""
    if request.param == "sqlite":
        url = f"sqlite+aiosqlite:///{tmp_path / 'threefold.db'}"
        migrate(url)
        yield url
    else:
        with postgres_database() as url:
            migrate(url)
            yield url


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    url = f"sqlite+aiosqlite:///{tmp_path / 'threefold.db'}"
    migrate(url)
    return url


@pytest.fixture
def server(database_url: str) -> Iterator[ServerProcess]:
    proc = ServerProcess(database_url).start()
    yield proc
    proc.stop()


@pytest.fixture
def sqlite_server(sqlite_url: str) -> Iterator[ServerProcess]:
    proc = ServerProcess(sqlite_url).start()
    yield proc
    proc.stop()
