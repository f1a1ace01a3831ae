"""Tests that must not run beside each other under pytest-xdist (``make test``: ``-n 3 --dist loadgroup``).

xdist's own ``xdist_group`` mark works by renaming the test, which pytest 9.2 no longer lets it do (it sets
an attribute pytest stopped reading), and its scheduler in the controller process never sees marks. So
the groups are decided here from the test's path: the browser tests in ``BROWSER_GROUPS`` groups of about equal
length (each worker's Chromium launched once and shared by its group: tests/browser/conftest.py), and every
module that needs Redis in another (one Redis server and one bus channel for all of them: found as the modules that call
``require_redis``). xdist hands out the biggest groups first, so the browser groups start at once, each on a
worker of its own, and the rest fills in beside and behind them."""

from __future__ import annotations

import functools
from pathlib import Path

from xdist.scheduler import LoadGroupScheduling

TESTS = Path(__file__).resolve().parents[1]
ROOT = TESTS.parent

BROWSER_SECONDS = {
    "test_accessibility": 122,
    "test_one_screen": 95,
    "test_log_language": 55,
    "test_sound_and_motion": 37,
    "test_trick_tac_foe": 20,
    "test_tricky_tactics": 15,
    "test_tic_tac_top": 14,
    "test_i18n": 14,
    "test_every_game_phone_keyboard": 11,
    "test_tic_tac_match": 11,
    "test_tri_tac": 11,
    "test_replay": 6,
}
"""Roughly how long each browser module takes (``--durations``), to balance the groups; a module not listed
counts as a few seconds. A module stays whole in its group (one_screen's server is module-scoped)."""
UNLISTED_SECONDS = 3
BROWSER_GROUPS = 2
"""At most this many browser groups run at once: a Chromium test keeps about one core busy, so two fill this
machine's two cores, and a third worker does better filling in with the other tests, many of which wait on a
timer or another process."""


@functools.cache
def redis_modules() -> frozenset[str]:
    return frozenset(
        path.relative_to(ROOT).as_posix()
        for path in TESTS.rglob("test_*.py")
        if "require_redis" in path.read_text(encoding="utf-8")
    )


@functools.cache
def browser_groups(count: int) -> dict[str, int]:
    """Each browser module's group, ``count`` groups balanced by their modules' seconds (longest first, each
    into the group that is shortest so far)."""
    modules = sorted(
        (path.stem for path in (TESTS / "browser").glob("test_*.py")),
        key=lambda stem: (-BROWSER_SECONDS.get(stem, UNLISTED_SECONDS), stem),
    )
    totals = [0] * count
    groups: dict[str, int] = {}
    for stem in modules:
        shortest = totals.index(min(totals))
        groups[f"tests/browser/{stem}.py"] = shortest
        totals[shortest] += BROWSER_SECONDS.get(stem, UNLISTED_SECONDS)
    return groups


def group_of(nodeid: str, workers: int) -> str | None:
    module = nodeid.split("::", 1)[0]
    if module.startswith("tests/browser/"):
        return f"browser-{browser_groups(max(1, min(workers, BROWSER_GROUPS))).get(module, 0) + 1}"
    if module in redis_modules():
        return "redis"
    return None


class SerialGroups(LoadGroupScheduling):  # type: ignore[misc]  # xdist is untyped here
    def _split_scope(self, nodeid: str) -> str:
        if "@" in nodeid:  # an xdist_group that xdist itself could apply
            return str(super()._split_scope(nodeid))
        return group_of(nodeid, self.numnodes) or nodeid
