"""Refusing abuse: failed room-code lookups per address, so room codes cannot be found by brute force.

In one process the count lives in memory; with several processes (REDIS_URL set) it lives in Redis, so an
address gets the same budget however the proxy spreads its requests. While Redis is away each process counts
on its own: a lookup is never refused for want of Redis (every socket's connect asks)."""

from __future__ import annotations

import logging
import time
from collections import deque
from typing import Any, Protocol

from app.redis_pool import open_redis

log = logging.getLogger("threefold.limits")


class AttemptLimiter(Protocol):
    async def blocked(self, key: str) -> bool: ...
    async def failed(self, key: str) -> None: ...
    async def close(self) -> None: ...


class MemoryAttemptLimiter:
    """At most ``limit`` failures per ``window`` seconds per key; past that every lookup is refused until the
    oldest failure ages out (a valid code does not help an address that is guessing)."""

    def __init__(self, limit: int, window: float = 60.0) -> None:
        self.limit = limit
        self.window = window
        self._failures: dict[str, deque[float]] = {}

    def _recent(self, key: str, now: float) -> deque[float]:
        failures = self._failures.setdefault(key, deque())
        while failures and now - failures[0] > self.window:
            failures.popleft()
        return failures

    async def blocked(self, key: str) -> bool:
        blocked = len(self._recent(key, time.monotonic())) >= self.limit
        if not self._failures.get(key):
            self._failures.pop(key, None)
        return blocked

    async def failed(self, key: str) -> None:
        self._recent(key, time.monotonic()).append(time.monotonic())
        if len(self._failures) > 100_000:  # bound memory under a flood of addresses
            self._failures.pop(next(iter(self._failures)))

    async def close(self) -> None:
        return None


class RedisAttemptLimiter:
    """The same budget shared by every process: a counter per address per window in Redis."""

    def __init__(self, url: str, limit: int, window: float = 60.0) -> None:
        self.redis: Any = open_redis(url)
        self.limit = limit
        self.window = int(window)
        self.alone = MemoryAttemptLimiter(limit, window)
        """This process' own count, while Redis is away."""
        self._away = False

    def _key(self, key: str) -> str:
        return f"threefold:join-failures:{key}:{int(time.time()) // self.window}"

    def _redis_away(self) -> None:
        if not self._away:
            log.warning("Redis is unreachable: join failures are counted per process", exc_info=True)
        self._away = True

    async def blocked(self, key: str) -> bool:
        try:
            count = await self.redis.get(self._key(key))
        except Exception:
            self._redis_away()
            return await self.alone.blocked(key)
        self._away = False
        return (count is not None and int(count) >= self.limit) or await self.alone.blocked(key)

    async def failed(self, key: str) -> None:
        name = self._key(key)
        try:
            async with self.redis.pipeline(transaction=True) as pipe:
                await pipe.incr(name).expire(name, self.window * 2).execute()
        except Exception:
            self._redis_away()
            await self.alone.failed(key)

    async def close(self) -> None:
        await self.redis.aclose()


def make_limiter(redis_url: str | None, limit: int) -> AttemptLimiter:
    return RedisAttemptLimiter(redis_url, limit) if redis_url else MemoryAttemptLimiter(limit)
