"""Tests that must not run beside each other under pytest-xdist (``make test``: ``-n 2 --dist loadgroup``).

xdist's own ``xdist_group`` mark works by renaming the test, which pytest 9.2 no longer lets it do (it sets
an attribute pytest stopped reading), and its scheduler in the controller process never sees marks. So
the groups are decided here from the test's path: every browser test in one group (one Chromium at a time,
launched once and shared: tests/browser/conftest.py), and every module that needs Redis in another (one
Redis server and one bus channel for all of them: found as the modules that call ``require_redis``). xdist
hands out the biggest groups first, so the browser tests start at once on one worker while the other takes
everything else."""

from __future__ import annotations

import functools
from pathlib import Path

from xdist.scheduler import LoadGroupScheduling

TESTS = Path(__file__).resolve().parents[1]
ROOT = TESTS.parent


@functools.cache
def redis_modules() -> frozenset[str]:
    return frozenset(
        path.relative_to(ROOT).as_posix()
        for path in TESTS.rglob("test_*.py")
        if "require_redis" in path.read_text(encoding="utf-8")
    )


def group_of(nodeid: str) -> str | None:
    module = nodeid.split("::", 1)[0]
    if module.startswith("tests/browser/"):
        return "browser"
    if module in redis_modules():
        return "redis"
    return None


class SerialGroups(LoadGroupScheduling):  # type: ignore[misc]  # xdist is untyped here
    def _split_scope(self, nodeid: str) -> str:
        if "@" in nodeid:  # an xdist_group that xdist itself could apply
            return str(super()._split_scope(nodeid))
        return group_of(nodeid) or nodeid
