"""Refusing abuse: failed room-code lookups per address, so room codes cannot be found by brute force."""

from __future__ import annotations

import time
from collections import deque


class AttemptLimiter:
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
        if not failures:
            self._failures.pop(key, None)
        return failures

    def blocked(self, key: str) -> bool:
        return len(self._recent(key, time.monotonic())) >= self.limit

    def failed(self, key: str) -> None:
        now = time.monotonic()
        self._recent(key, now)
        self._failures.setdefault(key, deque()).append(now)
        if len(self._failures) > 100_000:  # bound memory under a flood of addresses
            self._failures.pop(next(iter(self._failures)))
