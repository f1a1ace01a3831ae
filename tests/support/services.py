"""External services for tests: PostgreSQL, Redis, Chromium.

Without them a test skips with the reason, except under CI=true, where .ci/run has set them up and a
missing service is a failure."""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager

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
    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, _pg_admin_async(statement)).result()


async def _pg_admin_async(statement: str) -> None:
    import asyncpg

    url = POSTGRES_ADMIN_URL.replace("postgresql+asyncpg://", "postgresql://")
    conn = await asyncpg.connect(url, timeout=5)
    try:
        await conn.execute(statement)
    finally:
        await conn.close()


@contextmanager
def postgres_database() -> Iterator[str]:
    """A fresh, empty PostgreSQL database for one test (dropped afterwards)."""
    name = f"threefold_test_{uuid.uuid4().hex[:10]}"
    try:
        _pg_admin(f'CREATE DATABASE "{name}"')
    except Exception as err:
        missing(f"PostgreSQL not reachable at {POSTGRES_ADMIN_URL}: {err}")
    base = POSTGRES_ADMIN_URL.rsplit("/", 1)[0]
    try:
        yield f"{base}/{name}"
    finally:
        with contextlib.suppress(Exception):
            _pg_admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


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
