"""A burst of Redis commands (every socket of a busy process connecting at once asks the join limiter, and
the bus publishes beside them) waits for a pooled connection instead of failing."""

from __future__ import annotations

import asyncio

import pytest

from app.live.bus import RedisBus
from app.redis_pool import MAX_CONNECTIONS
from tests.support.services import require_redis

pytestmark = [pytest.mark.redis]


async def test_a_burst_of_publishes_waits_for_the_pool_instead_of_failing() -> None:
    bus = RedisBus(require_redis())
    try:
        burst = 5 * MAX_CONNECTIONS  # the default redis-py pool refuses anything past 100 at once
        await asyncio.gather(*(bus._publish({"kind": "room", "room": f"BURST{i}"}) for i in range(burst)))
        assert bus.redis.connection_pool.max_connections == MAX_CONNECTIONS
    finally:
        await bus.redis.aclose()
