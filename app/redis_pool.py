"""How the app opens Redis: a bounded pool that waits for a free connection instead of failing.

redis-py's default pool refuses the 101st concurrent command at once (``MaxConnectionsError``); a burst of
sockets closing together (each announcing its presence) hit that in the two-process benchmark. A blocking
pool queues the burst behind 64 connections and fails only after ``timeout``."""

from __future__ import annotations

from typing import Any

MAX_CONNECTIONS = 64
WAIT_SECONDS = 10.0


def open_redis(url: str) -> Any:
    from redis.asyncio import BlockingConnectionPool, Redis

    pool = BlockingConnectionPool.from_url(url, max_connections=MAX_CONNECTIONS, timeout=WAIT_SECONDS)
    return Redis.from_pool(pool)  # the client owns the pool: aclose() closes both
