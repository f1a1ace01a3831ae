"""How the app opens Redis: a bounded pool that waits for a free connection instead of failing, and a Redis
that is away fails a command within seconds (about one when the connection is refused), not tens of them.

redis-py's default pool refuses the 101st concurrent command at once (``MaxConnectionsError``); a burst of
sockets closing together (each announcing its presence) hit that in the two-process benchmark. A blocking
pool queues the burst behind 64 connections and fails only after ``timeout``.

Redis carries hints (the bus) and a shared budget (app.limits), never a room's history, so the app goes on
without it: its default of three retries with backoff up to ten seconds, and a connect that waits for ever
on a silent network, would only hold up whoever waits for the answer."""

from __future__ import annotations

from typing import Any

MAX_CONNECTIONS = 64
WAIT_SECONDS = 10.0
CONNECT_SECONDS = 2.0
RETRIES = 2


def open_redis(url: str) -> Any:
    from redis.asyncio import BlockingConnectionPool, Redis
    from redis.asyncio.retry import Retry
    from redis.backoff import ExponentialWithJitterBackoff

    pool = BlockingConnectionPool.from_url(
        url,
        max_connections=MAX_CONNECTIONS,
        timeout=WAIT_SECONDS,
        socket_connect_timeout=CONNECT_SECONDS,
        retry=Retry(ExponentialWithJitterBackoff(cap=0.5, base=0.1), RETRIES),
    )
    return Redis.from_pool(pool)  # the client owns the pool: aclose() closes both
