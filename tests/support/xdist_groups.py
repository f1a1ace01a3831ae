"""Tests that must not run beside each other under pytest-xdist (``make test``: ``-n 2 --dist loadgroup``).

xdist's own ``xdist_group`` mark works by renaming the test, which pytest 9.2 no longer lets it do (it sets
an attribute pytest stopped reading), and its scheduler in the controller process never sees marks. So
the groups are decided here from the test's path: the browser tests in two groups of about equal length
(each worker's Chromium launched once and shared by its group: tests/browser/conftest.py; much of a browser
test is waiting on the game's pace, so two run well side by side), and every module that needs Redis in
another (one Redis server and one bus channel for all of them: found as the modules that call
``require_redis``). xdist hands out the biggest groups first, so both browser groups start at once, one on
each worker, and the rest fills in behind them."""

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


BROWSER_SECOND_HALF = frozenset(
    f"tests/browser/{name}.py"
    for name in (
        "test_log_language",
        "test_one_screen",
        "test_sound_and_motion",
        "test_trick_tac_foe",
        "test_tic_tac_top",
        "test_tri_tac",
    )
)
"""The browser modules of the second group, chosen by their durations (``--durations``) so that the two take
about as long; a module stays whole in its group (one_screen's server is module-scoped)."""


def group_of(nodeid: str) -> str | None:
    module = nodeid.split("::", 1)[0]
    if module.startswith("tests/browser/"):
        return "browser-2" if module in BROWSER_SECOND_HALF else "browser-1"
    if module in redis_modules():
        return "redis"
    return None


class SerialGroups(LoadGroupScheduling):  # type: ignore[misc]  # xdist is untyped here
    def _split_scope(self, nodeid: str) -> str:
        if "@" in nodeid:  # an xdist_group that xdist itself could apply
            return str(super()._split_scope(nodeid))
        return group_of(nodeid) or nodeid
