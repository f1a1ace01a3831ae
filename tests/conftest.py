"""Shared fixtures: databases (SQLite always; PostgreSQL where reachable), live servers.

``server`` and ``sqlite_server`` run the app in this process (tests.support.inprocess: uvicorn in a thread,
started in a fraction of a second), or as a child process (``ServerProcess``) for a test marked
``real_process``: one that must kill -9, restart or signal the server, run several processes or read
process-wide figures (memory, the collector, the process's own log) marks itself so, and either uses these
or starts ``ServerProcess`` itself. Databases are copies of one migrated once per test process
(tests.support.server.migrate).

Marks: ``browser`` (everything under tests/browser) and ``real_process`` are also ``slow``; ``make test-fast``
runs the rest (``-m "not slow"``). Under pytest-xdist (``--dist loadgroup``) the browser tests run in two
groups, each on one worker, the Redis ones in another, and a third worker starts on the rest
(tests.support.xdist_groups)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.inprocess import InProcessServer
from tests.support.server import ServerProcess, TestServer, alembic_upgrade, migrate, serve_games
from tests.support.services import postgres_database

serve_games("engines.tic_tac_toe")  # the example game of docs/adding-a-game.md, put through every generic test


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if BROWSER in item.path.parents:
            item.add_marker(pytest.mark.browser)
        if item.get_closest_marker("browser") or item.get_closest_marker("real_process"):
            item.add_marker(pytest.mark.slow)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """``--dist loadgroup``: the browser tests in two groups, the Redis ones in another (tests.support.xdist_groups)."""
    if config.getvalue("dist") != "loadgroup":
        return None
    from tests.support.xdist_groups import SerialGroups

    return SerialGroups(config, log)


BROWSER = Path(__file__).parent / "browser"


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A migrated, empty database of each kind the suite runs on."""
    if request.param == "sqlite":
        url = f"sqlite+aiosqlite:///{tmp_path / 'threefold.db'}"
        migrate(url)
        yield url
    else:
        with postgres_database(alembic_upgrade) as url:
            yield url


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    url = f"sqlite+aiosqlite:///{tmp_path / 'threefold.db'}"
    migrate(url)
    return url


def live_server(request: pytest.FixtureRequest, database_url: str) -> Iterator[TestServer]:
    """In this process; a child process for a test marked ``real_process`` (its own stdout log, its own pid)."""
    if request.node.get_closest_marker("real_process"):
        process = ServerProcess(database_url).start()
        try:
            yield process
        finally:
            process.stop()
    else:
        with InProcessServer(database_url) as running:
            yield running


@pytest.fixture
def server(request: pytest.FixtureRequest, database_url: str) -> Iterator[TestServer]:
    yield from live_server(request, database_url)


@pytest.fixture
def sqlite_server(request: pytest.FixtureRequest, sqlite_url: str) -> Iterator[TestServer]:
    yield from live_server(request, sqlite_url)
