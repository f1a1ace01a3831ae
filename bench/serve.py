"""Start a server under uvicorn exactly as the Makefile does, plus a garbage-collector pause recorder.

    python -m bench.serve app.main:create_app PORT STATS_PATH
    python -m bench.serve bench.bare:create_app PORT STATS_PATH

Uvicorn options: one process, ``--ws websockets-sansio --ws-per-message-deflate false`` (PERFORMANCE.md),
the default event loop (uvloop when installed), access log off. ``gc.callbacks`` time every collection in
the server: SIGUSR2 resets the record (start of the measurement window), SIGUSR1 writes it as JSON to
STATS_PATH (end of the window). With ``BENCH_PROFILE=path`` the window also runs under cProfile (main
thread only) and its stats are written to ``path``.
"""

from __future__ import annotations

import cProfile
import gc
import json
import os
import signal
import sys
import time
from types import FrameType
from typing import Any

import uvicorn


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

    def as_json(self) -> dict[str, Any]:
        return {
            "collections": self.count,
            "by_generation": self.by_generation,
            "total_ms": round(self.total * 1000, 3),
            "longest_ms": round(self.longest * 1000, 3),
            "longest_generation": self.longest_generation,
            "collected": self.collected,
            "over_10ms": self.over_10ms,
        }


class GcPauses:
    """Times every collection; ``reset`` swaps in a fresh record (safe from a signal handler mid-callback)."""

    def __init__(self) -> None:
        self.record = Record()
        self._started = 0.0

    def reset(self) -> None:
        self.record = Record()

    def callback(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._started = time.perf_counter()
            return
        pause = time.perf_counter() - self._started
        record = self.record
        generation = int(info.get("generation", 0))
        record.count += 1
        record.total += pause
        record.by_generation[generation] += 1
        record.collected += int(info.get("collected", 0))
        record.over_10ms += pause > 0.010
        if pause > record.longest:
            record.longest, record.longest_generation = pause, generation


def main() -> None:
    target, port, stats_path = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    pauses = GcPauses()
    gc.callbacks.append(pauses.callback)

    profile_path = os.environ.get("BENCH_PROFILE")
    profiler = cProfile.Profile() if profile_path else None

    def dump(_signum: int, _frame: FrameType | None) -> None:
        if profiler is not None and profile_path:
            profiler.disable()
            profiler.dump_stats(profile_path)
        with open(stats_path, "w") as out:
            json.dump(pauses.record.as_json(), out)

    def reset(_signum: int, _frame: FrameType | None) -> None:
        pauses.reset()
        if profiler is not None:
            profiler.enable()

    signal.signal(signal.SIGUSR1, dump)
    signal.signal(signal.SIGUSR2, reset)
    serve(target, port)


def serve(target: str, port: int) -> None:
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
