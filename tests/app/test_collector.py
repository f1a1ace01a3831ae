"""The collector's measure of growth (app.collector): a full collection comes when resident memory grew."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import time
import weakref
from collections.abc import Iterator

from app.collector import (
    ON_TIME_SECONDS,
    QUIET_GARBAGE,
    QuietBackoff,
    Refreezer,
    expect_garbage,
    refreeze_forever,
    resident_bytes,
)
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


def test_quiet_collections_let_more_ticks_go_by_each_time() -> None:
    """Flat out, young collections scan the moves in flight and free nothing: each one that finds nothing
    lets twice as many ticks (and one) go by before the next, up to the most allowed."""
    quiet = QuietBackoff(max_skipped=10)
    skipped = []
    assert quiet.collect_now()
    for _ in range(5):
        quiet.found(0)
        ticks = 0
        while not quiet.collect_now():
            ticks += 1
        skipped.append(ticks)
    assert skipped == [1, 3, 7, 10, 10]


def test_garbage_found_brings_back_a_collection_at_every_tick() -> None:
    quiet = QuietBackoff(max_skipped=10)
    for _ in range(4):
        quiet.found(0)
        while not quiet.collect_now():
            pass
    quiet.found(QUIET_GARBAGE)
    assert quiet.collect_now()
    quiet.found(QUIET_GARBAGE - 1)  # a stray cycle is not worth it: back to skipping
    assert not quiet.collect_now()


class Node:
    next: Node


def make_garbage_cycle() -> weakref.ref[Node]:
    """A ring of ``QUIET_GARBAGE`` objects that only a collection frees."""
    nodes = [Node() for _ in range(QUIET_GARBAGE)]
    for node, after in zip(nodes, nodes[1:] + nodes[:1], strict=True):
        node.next = after
    return weakref.ref(nodes[0])


@contextlib.contextmanager
def young_collections() -> Iterator[list[int]]:
    """What each young collection found, in order, while only the collector collects (automatic collections
    off, and no growth calling for a full one)."""
    young: list[int] = []

    def count(phase: str, info: dict[str, int]) -> None:
        if phase == "stop" and info["generation"] == 0:
            young.append(info["collected"])

    gc.collect()
    gc.disable()
    gc.callbacks.append(count)
    try:
        yield young
    finally:
        gc.callbacks.remove(count)
        gc.enable()
        gc.unfreeze()


def quiet_refreezer(ticks: int) -> Refreezer:
    """A collector that has ticked ``ticks`` times, at ticks 0 .. ticks-1, with no garbage to find."""
    settings = Settings(gc_freeze_seconds=0.05, gc_full_growth_min_mib=1 << 20)
    refreezer = Refreezer(Metrics(), settings, now=0.0)
    for tick in range(ticks):
        refreezer.tick(now=tick * 0.05, late=False)
    return refreezer


def test_the_collector_skips_ticks_while_quiet_and_collects_each_tick_while_cycles_die() -> None:
    """Driven tick by tick: quiet, young collections thin out; once cycles die at every tick, every tick
    collects, and each cycle is freed young, by the tick after it died."""
    with young_collections() as young:
        refreezer = quiet_refreezer(40)
        quiet_collections = len(young)
        assert quiet_collections <= 6, young  # ticks 0, 2, 6, 14, 30 of 40
        young.clear()
        cycles = []
        for tick in range(40, 80):
            cycles.append(make_garbage_cycle())
            refreezer.tick(now=tick * 0.05, late=False)
        # The first cycles may have died in ticks let go by (frozen, left for a full collection); from the
        # first that a collection found, every tick collects and frees the cycle that died in it.
        first_found = next(index for index, collected in enumerate(young) if collected >= QUIET_GARBAGE)
        assert len(young) - first_found >= 40 - 31, young
        assert all(collected >= QUIET_GARBAGE for collected in young[first_found:]), young
        assert all(ref() is None for ref in cycles[-(len(young) - first_found) :])


def test_expected_garbage_is_collected_at_the_next_tick_even_while_quiet() -> None:
    """A WebSocket upgrade leaves its HTTP protocol in a cycle smaller than ``QUIET_GARBAGE``: it calls for
    the next tick's collection (app.ws_protocol), so the cycle is freed young instead of frozen."""
    with young_collections() as young:
        refreezer = quiet_refreezer(40)  # the back-off now lets the next 31 ticks go by
        young.clear()
        small = Node()
        small.next = small  # one object in a cycle: less than a collection is kept for
        freed = weakref.ref(small)
        del small
        expect_garbage()
        refreezer.tick(now=40 * 0.05, late=False)
        assert len(young) == 1 and freed() is None
        refreezer.tick(now=41 * 0.05, late=False)  # nothing more expected: quiet again
        assert len(young) == 1
