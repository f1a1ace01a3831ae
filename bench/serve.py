"""Start a server under uvicorn exactly as the Makefile does, plus a garbage-collector pause recorder.

    python -m bench.serve app.main:create_app PORT STATS_PATH
    python -m bench.serve bench.bare:create_app PORT STATS_PATH

Uvicorn options: one process, ``--ws websockets-sansio --ws-per-message-deflate false`` (bench/README.md),
the default event loop (uvloop when installed), access log off. ``gc.callbacks`` time every collection in
the server: SIGUSR2 resets the record (start of the measurement window), SIGUSR1 writes it as JSON to
STATS_PATH (end of the window). With ``BENCH_PROFILE=path`` the window also runs under cProfile (main
thread only) and its stats are written to ``path``.

The record also holds the event loop's stalls: a callback due every 5 ms notes each turn it came more than
20 ms late, with how much of that the main thread spent on the CPU (near all: the server was busy; little:
it was blocked in a system call, or not scheduled at all), how much was garbage collection, and, caught by a
watchdog thread while the stall lasted, where the main thread was. The benchmark's "slowest moments" say
when a move was slow; this says what the server was doing then.
"""

from __future__ import annotations

import asyncio
import cProfile
import gc
import importlib
import json
import os
import signal
import sys
import threading
import time
import traceback
from collections.abc import Awaitable, Callable, MutableMapping
from pathlib import Path
from types import FrameType
from typing import Any

import uvicorn

BUCKETS_MS = (1, 2, 5, 10, 20, 50, 100, 1000, float("inf"))


def bucket(seconds: float) -> float:
    return next(bound for bound in BUCKETS_MS if seconds * 1000 <= bound)


class Record:
    def __init__(self) -> None:
        self.count = 0
        self.total = 0.0
        self.longest = 0.0
        self.longest_generation = -1
        self.by_generation = [0, 0, 0]
        self.collected = 0
        """Objects the collections freed: cyclic garbage (refcounting frees everything else)."""
        self.over_10ms = 0
        self.histogram = dict.fromkeys(BUCKETS_MS, 0)
        """Collections by pause, keyed by each bucket's upper bound in milliseconds."""

    def as_json(self) -> dict[str, Any]:
        return {
            "collections": self.count,
            "by_generation": self.by_generation,
            "total_ms": round(self.total * 1000, 3),
            "longest_ms": round(self.longest * 1000, 3),
            "longest_generation": self.longest_generation,
            "collected": self.collected,
            "over_10ms": self.over_10ms,
            "pauses_up_to_ms": {str(bound): count for bound, count in self.histogram.items() if count},
        }


class GcPauses:
    """Times every collection; ``reset`` swaps in a fresh record (safe from a signal handler mid-callback)."""

    def __init__(self) -> None:
        self.record = Record()
        self.cumulative = 0.0
        self._started = 0.0

    def reset(self) -> None:
        self.record = Record()

    def total_seconds(self) -> float:
        """Every collection's pause since the server started (the record restarts with each window)."""
        return self.cumulative

    def callback(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._started = time.perf_counter()
            return
        pause = time.perf_counter() - self._started
        record = self.record
        generation = int(info.get("generation", 0))
        record.count += 1
        record.total += pause
        self.cumulative += pause
        record.by_generation[generation] += 1
        record.collected += int(info.get("collected", 0))
        record.over_10ms += pause > 0.010
        record.histogram[bucket(pause)] += 1
        if pause > record.longest:
            record.longest, record.longest_generation = pause, generation


TICK_SECONDS = 0.005
STALL_SECONDS = 0.020
KEPT_STALLS = 10


class LoopStalls:
    """The event loop's turns that came more than STALL_SECONDS late (see the module docstring)."""

    def __init__(self, pauses: GcPauses) -> None:
        self.pauses = pauses
        self.main_thread = threading.get_ident()
        self.reset()
        self._due = self._last_cpu = self._last_gc = 0.0
        self._stack: list[str] | None = None
        self._stack_for = -1.0
        """The watchdog's sample of the main thread's stack, and the tick it was taken after."""

    def reset(self) -> None:
        self.started = time.perf_counter()
        self.count = 0
        self.longest: list[dict[str, Any]] = []
        self.histogram = dict.fromkeys(BUCKETS_MS, 0)
        """Turns by how late they came, keyed by each bucket's upper bound in milliseconds."""

    def as_json(self) -> dict[str, Any]:
        late = {str(bound): count for bound, count in self.histogram.items() if count}
        return {"over_20ms": self.count, "late_up_to_ms": late, "longest": self.longest}

    def start(self, loop: asyncio.AbstractEventLoop) -> None:
        self._due = time.perf_counter() + TICK_SECONDS
        self._last_cpu, self._last_gc = time.thread_time(), self.pauses.total_seconds()
        loop.call_later(TICK_SECONDS, self._tick, loop)
        threading.Thread(target=self._watch, daemon=True, name="stall-watchdog").start()

    def _tick(self, loop: asyncio.AbstractEventLoop) -> None:
        now, cpu, collecting = time.perf_counter(), time.thread_time(), self.pauses.total_seconds()
        late = now - self._due
        self.histogram[bucket(late)] += 1
        if late > STALL_SECONDS:
            self.count += 1
            stall = {
                "at_s": round(self._due - self.started, 2),
                "ms": round(late * 1000, 1),
                # The main thread's CPU since the last turn less the tick's own 5 ms: about what it spent while late.
                "main_cpu_ms": round((cpu - self._last_cpu) * 1000 - TICK_SECONDS * 1000, 1),
                "gc_ms": round((collecting - self._last_gc) * 1000, 1),
                "stack": self._stack if self._stack_for == self._due else None,
            }
            self.longest = sorted([*self.longest, stall], key=lambda s: -s["ms"])[:KEPT_STALLS]
        self._due = now + TICK_SECONDS
        self._last_cpu, self._last_gc = cpu, collecting
        loop.call_later(TICK_SECONDS, self._tick, loop)

    def _watch(self) -> None:
        while True:
            time.sleep(TICK_SECONDS)
            due = self._due
            if time.perf_counter() - due > STALL_SECONDS / 2 and self._stack_for != due:
                frame = sys._current_frames().get(self.main_thread)
                if frame is not None:
                    summary = traceback.extract_stack(frame)[-12:]
                    self._stack = [f"{Path(f.filename).name}:{f.lineno} {f.name}" for f in summary]
                    self._stack_for = due


ASGIApp = Callable[[MutableMapping[str, Any], Any, Any], Awaitable[None]]


def with_stall_recorder(factory: Callable[[], ASGIApp], stalls: LoopStalls) -> Callable[[], ASGIApp]:
    """The app, starting the stall recorder on the server's loop when the lifespan starts."""

    def create() -> ASGIApp:
        app = factory()

        async def wrapped(scope: MutableMapping[str, Any], receive: Any, send: Any) -> None:
            if scope["type"] == "lifespan":
                stalls.start(asyncio.get_running_loop())
            await app(scope, receive, send)

        return wrapped

    return create


def main() -> None:
    target, port, stats_path = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    pauses = GcPauses()
    gc.callbacks.append(pauses.callback)
    stalls = LoopStalls(pauses)

    profile_path = os.environ.get("BENCH_PROFILE")
    profiler = cProfile.Profile() if profile_path else None

    def dump(_signum: int, _frame: FrameType | None) -> None:
        if profiler is not None and profile_path:
            profiler.disable()
            profiler.dump_stats(profile_path)
        with open(stats_path, "w") as out:
            json.dump({**pauses.record.as_json(), "stalls": stalls.as_json()}, out)

    def reset(_signum: int, _frame: FrameType | None) -> None:
        pauses.reset()
        stalls.reset()
        if profiler is not None:
            profiler.enable()

    signal.signal(signal.SIGUSR1, dump)
    signal.signal(signal.SIGUSR2, reset)
    module, _, name = target.partition(":")
    serve(with_stall_recorder(getattr(importlib.import_module(module), name), stalls), port)


def serve(target: str | Callable[[], ASGIApp], port: int) -> None:
    uvicorn.run(
        target,
        factory=True,
        host="127.0.0.1",
        port=port,
        ws="app.ws_protocol:PreparedFramesProtocol",
        ws_per_message_deflate=False,
        ws_max_size=1048576,
        log_level="warning",
        access_log=False,
        backlog=8192,
    )


if __name__ == "__main__":
    main()
