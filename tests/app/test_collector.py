"""The collector's measure of growth (app.collector): a full collection comes when resident memory grew."""

from __future__ import annotations

import asyncio
import gc
import time

from app.collector import ON_TIME_SECONDS, refreeze_forever, resident_bytes
from app.metrics import Metrics
from app.settings import Settings


def test_resident_memory_is_read() -> None:
    before = resident_bytes()
    ballast = bytearray(64 << 20)  # touched: zero-filled pages count once written
    ballast[::4096] = b"\x01" * len(ballast[::4096])
    assert resident_bytes() >= before + (48 << 20)
    del ballast


def full_collections(metrics: Metrics) -> float:
    return metrics.registry.get_sample_value("threefold_gc_full_collections_total") or 0.0


async def test_a_full_collection_waits_until_the_loop_keeps_up() -> None:
    """Growth calls for a full collection (here any growth does), but not while the loop is behind: an
    overloaded server grows too, and a pause of a second would only put it further behind."""
    # The collector's interval is long enough that a machine busy with other work does not make its loop
    # look behind (a wake-up more than an interval late); the busy phase blocks the loop longer than that.
    settings = Settings(gc_freeze_seconds=0.2, gc_full_growth_min_mib=0, gc_full_growth_fraction=0.0)
    metrics = Metrics()
    refreezer = asyncio.create_task(refreeze_forever(metrics, settings))
    try:
        busy_until = time.monotonic() + ON_TIME_SECONDS + 1.5
        while time.monotonic() < busy_until:  # the loop is late every time the collector is due
            time.sleep(0.5)
            await asyncio.sleep(0)
        assert full_collections(metrics) == 0
        # On time again: the collection comes ON_TIME_SECONDS later (more on a loaded machine).
        deadline = time.monotonic() + ON_TIME_SECONDS + 30
        while full_collections(metrics) < 1:
            assert time.monotonic() < deadline, "no full collection once the loop kept up"
            await asyncio.sleep(0.05)
    finally:
        refreezer.cancel()
        gc.unfreeze()
