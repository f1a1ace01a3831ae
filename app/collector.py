"""Keep every garbage-collector pause short (with thousands of sockets, GC pauses are the first limit).

A collection's pause grows with the live objects it scans. Rooms, games and sockets live for minutes, and a
move's state, a socket's pending receive and a game's containers for a second or more: with thousands of
sockets, every collection scanned tens of thousands of such objects, a pause players feel. So every
``gc_freeze_seconds`` the young generation is collected and what survived is frozen (``gc.freeze`` costs
nothing): no later collection scans it again, and the middle and oldest generations, which only ever held
those survivors, stay nearly empty. The young collection scans what was made since the last one and is still
alive, so its pause follows the interval: a shorter one makes each pause shorter for about the same total
time collecting. Flat out, a shorter interval costs a little more of the CPU: each collection also scans every
move in flight, whatever the interval. A rule keeping the collector to a share of the time was tried; under
load it drifted to the longest interval. The figures are in bench/README.md (garbage-collector pauses).

The young threshold (``gc_young_threshold``) cannot bound that scan by itself: it counts allocations *net of
deallocations*, and a move allocates its new state while freeing the old, frozen one, so the count barely
moves while the young generation fills with every room's current state and every socket's re-armed receive.

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

ON_TIME_SECONDS = 2.0
"""A full collection waits until the loop has woken this collector on time for this long. An overloaded
server grows too (its sockets' backlogs, the moves in flight), and a long pause then only makes it worse:
a full collection taken while already behind puts the server further behind."""


async def refreeze_forever(metrics: Metrics, settings: Settings) -> None:
    baseline = resident_bytes()
    checked_at = on_time_since = time.monotonic()
    while True:
        due = time.monotonic() + settings.gc_freeze_seconds
        await asyncio.sleep(settings.gc_freeze_seconds)
        now = time.monotonic()
        if now - due > settings.gc_freeze_seconds:  # woken more than an interval late: the loop is behind
            on_time_since = now
        if now - checked_at >= GROWTH_CHECK_SECONDS and now - on_time_since >= ON_TIME_SECONDS:
            checked_at, grown = now, resident_bytes() - baseline
        else:
            grown = None
        if grown is not None and grown >= max(
            settings.gc_full_growth_min_mib << 20, settings.gc_full_growth_fraction * baseline
        ):
            gc.unfreeze()
            gc.collect()
            metrics.full_collections.inc()
            baseline = resident_bytes()
        else:
            gc.collect(0)  # fresh garbage cycles are freed, not frozen
        gc.freeze()


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
