"""External services for tests: PostgreSQL, Redis, Chromium.

Without them a test skips with the reason, except under CI=true, where .ci/run has set them up and a
missing service is a failure."""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import os
import shutil
import uuid
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from typing import Any

import pytest

IN_CI = os.environ.get("CI") == "true"
POSTGRES_ADMIN_URL = os.environ.get("THREEFOLD_TEST_POSTGRES", "postgresql+asyncpg://postgres@127.0.0.1:5432/postgres")
REDIS_URL = os.environ.get("THREEFOLD_TEST_REDIS", "redis://127.0.0.1:6379/0")
CHROMIUM = os.environ.get("THREEFOLD_CHROMIUM", shutil.which("chromium") or "/usr/bin/chromium")


def missing(reason: str) -> None:
    """Skip locally; fail under CI, where every service must be there."""
    if IN_CI:
        pytest.fail(f"required service missing under CI=true: {reason}")
    pytest.skip(reason)


def _pg_admin(statement: str) -> None:
    """Run one statement on the admin database, from sync or async tests alike (in its own thread)."""
    _pg_fetch(statement)


async def _pg_admin_async(statement: str, url: str = POSTGRES_ADMIN_URL) -> list[Any]:
    import asyncpg

    conn = await asyncpg.connect(url.replace("postgresql+asyncpg://", "postgresql://"), timeout=5)
    try:
        return list(await conn.fetch(statement))
    finally:
        await conn.close()


def _pg_fetch(statement: str, url: str = POSTGRES_ADMIN_URL) -> list[Any]:
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, _pg_admin_async(statement, url)).result()


def postgres_copy_of(database_url: str, migrate: Callable[[str], None]) -> bool:
    """Make the empty test database ``database_url`` a copy of a template that ``migrate`` migrated once per
    process (``CREATE DATABASE ... TEMPLATE``: a file copy in the server, instead of an Alembic run). False,
    and nothing done, for a database that is not an empty one on the test server."""
    base, name = database_url.rsplit("/", 1)
    if base != POSTGRES_ADMIN_URL.rsplit("/", 1)[0] or not name.startswith("threefold_test_"):
        return False
    tables = "SELECT 1 FROM pg_tables WHERE schemaname NOT IN ('pg_catalog', 'information_schema') LIMIT 1"
    if _pg_fetch(tables, database_url):
        return False
    template = _template(migrate)
    _pg_admin(f'DROP DATABASE "{name}"')
    _pg_admin(f'CREATE DATABASE "{name}" TEMPLATE "{template}"')
    return True


def _template(migrate: Callable[[str], None]) -> str:
    """The database ``migrate`` migrated, once per process, for tests' databases to be copies of."""
    global _pg_template
    if _pg_template is None:
        _drop_stale_templates()
        template = f"{TEMPLATE_PREFIX}{os.getpid()}"
        _pg_admin(f'DROP DATABASE IF EXISTS "{template}"')
        _pg_admin(f'CREATE DATABASE "{template}"')
        atexit.register(_drop_at_exit, template)
        migrate(f"{POSTGRES_ADMIN_URL.rsplit('/', 1)[0]}/{template}")
        _pg_template = template
    return _pg_template


TEMPLATE_PREFIX = "threefold_template_"
_pg_template: str | None = None


def _drop_at_exit(name: str) -> None:
    """When no thread can be started any more: on this thread, where no event loop runs by then."""
    with contextlib.suppress(Exception):
        asyncio.run(_pg_admin_async(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


def _drop_stale_templates() -> None:
    """Templates left by test processes that were killed before their atexit ran."""
    for row in _pg_fetch(f"SELECT datname FROM pg_database WHERE datname LIKE '{TEMPLATE_PREFIX}%'"):
        pid = row["datname"][len(TEMPLATE_PREFIX) :]
        if pid.isdigit() and not _alive(int(pid)):
            with contextlib.suppress(Exception):
                _pg_admin(f'DROP DATABASE IF EXISTS "{row["datname"]}" WITH (FORCE)')


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


@contextmanager
def postgres_database(migrate: Callable[[str], None] | None = None) -> Iterator[str]:
    """A fresh PostgreSQL database for one test (dropped afterwards): empty, or with ``migrate`` (the test
    servers' migration) made at once as a copy of the template it migrated once per process (one CREATE
    DATABASE instead of making an empty one, then replacing it with the copy)."""
    name = f"threefold_test_{uuid.uuid4().hex[:10]}"
    try:
        _pg_fetch("SELECT 1") if migrate is not None else _pg_admin(f'CREATE DATABASE "{name}"')
    except Exception as err:
        missing(f"PostgreSQL not reachable at {POSTGRES_ADMIN_URL}: {err}")
    if migrate is not None:
        _pg_admin(f'CREATE DATABASE "{name}" TEMPLATE "{_template(migrate)}"')
    base = POSTGRES_ADMIN_URL.rsplit("/", 1)[0]
    try:
        yield f"{base}/{name}"
    finally:
        # Dropped while the next test runs: nothing reads a test's database after it.
        _DROPPER.submit(_drop_quietly, name)


def _drop_quietly(name: str) -> None:
    with contextlib.suppress(Exception):
        asyncio.run(_pg_admin_async(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


_DROPPER = ThreadPoolExecutor(1, thread_name_prefix="drop-test-database")
"""Test databases are dropped here, one at a time, in the background; Python joins its thread (running what
is queued) before the process exits."""


def require_redis() -> str:
    import redis

    try:
        redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2).ping()
    except Exception as err:
        missing(f"Redis not reachable at {REDIS_URL}: {err}")
    return REDIS_URL


def require_chromium() -> str:
    if not os.path.exists(CHROMIUM):
        missing(f"Chromium not found at {CHROMIUM} (apt-get install chromium)")
    return CHROMIUM
