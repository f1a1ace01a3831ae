"""Keep every garbage-collector pause short (with thousands of sockets, GC pauses are the first limit).

A collection's pause grows with the live objects it scans. Rooms, games and sockets live for minutes, and a
move's state, a socket's pending receive and a game's containers for a second or more: with thousands of
sockets, every collection scanned tens of thousands of such objects, a pause players feel. So every
``gc_freeze_seconds`` the young generation is collected and what survived is frozen (``gc.freeze`` costs
nothing): no later collection scans it again, and the middle and oldest generations, which only ever held
those survivors, stay nearly empty. The young collection scans what was made since the last one and is still
alive, so its pause follows the interval: a shorter one makes each pause shorter for about the same total
time collecting. A rule keeping the collector to a share of the time was tried; under load it drifted to the
longest interval. The figures are in bench/README.md (garbage-collector pauses).

The young threshold (``gc_young_threshold``) cannot bound that scan by itself: it counts allocations *net of
deallocations*, and a move allocates its new state while freeing the old, frozen one, so the count barely
moves while the young generation fills with every room's current state and every socket's re-armed receive.

Flat out, each collection also scans every move in flight, whatever the interval, and finds nothing to free:
every reference is counted away. So a young collection that found no garbage lets the next tick go by, the
next 3 after the next that finds none, and so on up to ``QUIET_SECONDS`` without one (``QuietBackoff``);
the survivors are frozen at every tick all the same, so a collection's pause does not grow. Garbage found
brings back a collection at every tick; a stray cycle or two (``QUIET_GARBAGE``: a drawn game's rating
leaves one) does not. What is known to leave cycles calls for the next tick's collection whatever the
back-off says (``expect_garbage``): a connection upgraded to a WebSocket leaves its HTTP protocol in one. A
cycle that dies within a skipped tick otherwise is frozen with the survivors, and waits for the full
collection below, as one that dies after its freeze does.

What dies by reference counting is freed whether frozen or not; only a reference cycle that outlives a young
collection and dies after it was frozen stays, until a full collection. Steady play makes none that live that
long, and a closed WebSocket leaves none (app.ws_protocol). Some remain (an HTTP keep-alive connection's
parser and protocol, for one), so, as CPython does for its oldest generation, everything is unfrozen and
collected once the process has grown by ``gc_full_growth_fraction`` since the last full collection (at least
``gc_full_growth_min_mib``), counted in resident memory, and only while the loop keeps up (``ON_TIME_SECONDS``).
That pause is a full collection's, long with thousands of sockets; a server whose population holds steady,
however many sockets come and go, does not pay it.
"""

from __future__ import annotations

import asyncio
import gc
import os
import resource
import sys
import time

from app.metrics import Metrics
from app.settings import Settings


def start_freezing(settings: Settings) -> None:
    """Freeze what start-up made, and set the thresholds for what comes after."""
    gc.collect()
    gc.freeze()
    _, _, oldest = gc.get_threshold()
    gc.set_threshold(settings.gc_young_threshold, settings.gc_middle_threshold, oldest)


GROWTH_CHECK_SECONDS = 1.0
"""How often resident memory is read (a system call; growth worth a full collection takes longer than this)."""

QUIET_SECONDS = 1.0
"""The longest stretch without a young collection while they keep finding no garbage (the most garbage
cycles that can be frozen before the next one looks)."""


QUIET_GARBAGE = 64
"""A young collection that found fewer unreachable objects than this found nothing worth scanning every move
in flight for (openskill's rating of a tie leaves a cycle of four objects at every drawn game)."""


class QuietBackoff:
    """Which refreezes collect first: after a young collection that found nothing, the next 1, 3, 7, ...
    ticks only freeze, up to ``max_skipped``; one that finds garbage (``QUIET_GARBAGE`` or more objects)
    brings back collecting at every tick."""

    def __init__(self, max_skipped: int) -> None:
        self.max_skipped = max_skipped
        self._skip = 0
        """Ticks to skip after the latest collection."""
        self._left = 0
        """Of those, the ones still to come."""

    def collect_now(self) -> bool:
        if self._left > 0:
            self._left -= 1
            return False
        return True

    def found(self, unreachable: int) -> None:
        """What the collection this tick found (``gc.collect``'s count)."""
        self._skip = 0 if unreachable >= QUIET_GARBAGE else min(2 * self._skip + 1, self.max_skipped)
        self._left = self._skip


class GarbageNotice:
    """Whether something that leaves reference cycles happened since the last tick."""

    def __init__(self) -> None:
        self.expected = False

    def take(self) -> bool:
        expected, self.expected = self.expected, False
        return expected


_notice = GarbageNotice()


def expect_garbage() -> None:
    """Something just left reference cycles: the next tick collects, even while the quiet back-off skips."""
    _notice.expected = True


ON_TIME_SECONDS = 2.0
"""A full collection waits until the loop has woken this collector on time for this long. An overloaded
server grows too (its sockets' backlogs, the moves in flight), and a long pause then only makes it worse:
a full collection taken while already behind puts the server further behind."""


class Refreezer:
    """One tick of the collector: a full collection if the process grew while the loop kept up, else a young
    collection unless the quiet back-off lets this tick go by; then what survived is frozen."""

    def __init__(self, metrics: Metrics, settings: Settings, now: float) -> None:
        self.metrics, self.settings = metrics, settings
        self.baseline = resident_bytes()
        self.checked_at = self.on_time_since = now
        self.quiet = QuietBackoff(max(0, round(QUIET_SECONDS / settings.gc_freeze_seconds) - 1))

    def tick(self, now: float, late: bool) -> None:
        """``late``: the loop woke this tick more than an interval after it was due (it is behind)."""
        settings = self.settings
        if late:
            self.on_time_since = now
        grown = None
        if now - self.checked_at >= GROWTH_CHECK_SECONDS and now - self.on_time_since >= ON_TIME_SECONDS:
            self.checked_at, grown = now, resident_bytes() - self.baseline
        if grown is not None and grown >= max(
            settings.gc_full_growth_min_mib << 20, settings.gc_full_growth_fraction * self.baseline
        ):
            gc.unfreeze()
            self.quiet.found(gc.collect())
            self.metrics.full_collections.inc()
            self.baseline = resident_bytes()
        else:
            expected = _notice.take()
            if self.quiet.collect_now() or expected:
                self.quiet.found(gc.collect(0))  # fresh garbage cycles are freed, not frozen
        gc.freeze()


async def refreeze_forever(metrics: Metrics, settings: Settings) -> None:
    refreezer = Refreezer(metrics, settings, time.monotonic())
    while True:
        due = time.monotonic() + settings.gc_freeze_seconds
        await asyncio.sleep(settings.gc_freeze_seconds)
        now = time.monotonic()
        refreezer.tick(now, late=now - due > settings.gc_freeze_seconds)


_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


def resident_bytes() -> int:
    """The process' resident memory now (Linux), else its peak (which only grows, so a full collection
    comes later there, never sooner)."""
    try:
        with open("/proc/self/statm", "rb") as statm:
            return int(statm.read().split()[1]) * _PAGE
    except OSError:
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        return peak if sys.platform == "darwin" else peak * 1024  # bytes on macOS, KiB on Linux and BSDs
