"""Prometheus metrics for one app process: rooms, sockets, moves, errors, move latency, GC pauses."""

from __future__ import annotations

import gc
import time
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest


class Metrics:
    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self.rooms = Gauge("threefold_rooms_active", "Rooms loaded in this process", registry=self.registry)
        self.sockets = Gauge("threefold_sockets_open", "Open WebSocket connections", registry=self.registry)
        self.moves = Counter("threefold_moves_total", "Actions applied and committed", registry=self.registry)
        self.relayed = Counter(
            "threefold_relayed_sockets_total",
            "Sockets passed to the process that owns their room (app.live.relay), counted at each connection",
            registry=self.registry,
        )
        self.errors = Counter(
            "threefold_errors_total", "Refused messages by error code", ["code"], registry=self.registry
        )
        self.move_latency = Histogram(
            "threefold_move_seconds",
            "From a validated action to its views queued for every socket (apply + commit + fan-out)",
            buckets=(0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1.0),
            registry=self.registry,
        )
        self.gc_pause = Histogram(
            "threefold_gc_pause_seconds",
            "Garbage-collector pauses",
            ["generation"],
            buckets=(0.0001, 0.0005, 0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1.0),
            registry=self.registry,
        )
        self.full_collections = Counter(
            "threefold_gc_full_collections_total",
            "Full collections of everything frozen, after the process grew (app.collector)",
            registry=self.registry,
        )
        self._gc_started = 0.0

    def _on_gc(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._gc_started = time.perf_counter()
        elif self._gc_started:
            self.gc_pause.labels(str(info.get("generation", "?"))).observe(time.perf_counter() - self._gc_started)
            self._gc_started = 0.0

    def watch_gc(self) -> None:
        gc.callbacks.append(self._on_gc)

    def unwatch_gc(self) -> None:
        if self._on_gc in gc.callbacks:
            gc.callbacks.remove(self._on_gc)

    def render(self) -> bytes:
        return generate_latest(self.registry)
