"""Fan-out benchmark: the project's live rooms against a bare FastAPI fan-out endpoint (bench/README.md).

    .venv/bin/python -m bench.fanout                      # both servers, both scenarios, 20 s windows
    .venv/bin/python -m bench.fanout --duration 60 --repeat 3 --json bench/results/project-bare.json
    .venv/bin/python -m bench.fanout --servers routed,project   # two app processes, PostgreSQL + Redis

Each run starts a fresh server process pinned to one core (``taskset -c 0``; the project on a fresh SQLite
database, durable per move) and drives it from this process pinned to another core (``-c 1``), with this
process' garbage collector frozen and disabled once the rooms are set up. ``--servers cluster`` starts two
app processes instead, both on that core, sharing a fresh PostgreSQL database and a private Redis (not
pinned; bench/servers.py), and spreads each room's sockets over both so that every move crosses the bus; its
CPU and RSS figures are the sums over both processes, its GC pause the longest of either.

A room is 7 sockets: two Tri-Tac players and five spectators, created through the documented protocol
(``POST /api/me``, ``POST /api/rooms`` with a fixed testing seed, ``sit``, ``start``); the players alternate
``place`` moves on the cells of a seeded shuffle, and the host asks for a ``rematch`` when the board is full.

Scenarios:

- ``latency``: ``--rooms`` rooms, each offering ``--rate`` moves a second (open loop, evenly spaced, random
  phase). A move is sent when it is due and the room's previous move has reached all 7 sockets; a room that
  falls behind owes at most one move (sent as soon as it can be, its latency counted from when it was due, so
  an overloaded server is not flattered by coordinated omission) and drops the rest (counted).
- ``saturation``: ``--sat-rooms`` rooms in a closed loop: each room sends its next move as soon as the previous
  one reached all 7 sockets. Achieved moves/s is the server's ceiling for this load.

Per run: moves/s offered and achieved; latency from sending a move to the *last* of the room's 7 sockets
receiving the new state (p50/p99/p99.9/max); server CPU per move (from /proc/<pid>/stat over the window);
server RSS per socket (RSS after the rooms are set up and idle, minus RSS before the sockets opened, divided
by the sockets: it includes each socket's share of its room and game); the longest garbage-collector pause in
the server during the window (bench/serve.py); the load generator's own CPU use (if it nears 100 % the
figures measure the generator, not the server). The bare endpoint gets state messages of the same average
size as the project's in the same invocation, and the project's figures are given as ratios to it.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import heapq
import json
import math
import os
import random
import signal
import statistics
import sys
import time
from dataclasses import dataclass, field
from http.cookiejar import DefaultCookiePolicy
from pathlib import Path
from typing import Any

import httpx
import orjson

from bench.servers import KINDS, ROOT, Deployment, Options, Server, counter_deltas, cpu_or_zero, deploy
from bench.wsclient import WSClient, connect

SOCKETS_PER_ROOM = 7
SPECTATORS = SOCKETS_PER_ROOM - 2
STATE_HEAD = b'{"type":"state","version":'
TO_ACT = b'"to_act":['
OUTCOME_NULL = b'"outcome":null'


# ---- the load generator ---------------------------------------------------------------------------------


@dataclass
class Sock:
    room: Room
    seat: int | None
    proto: WSClient | None = None
    inbox: asyncio.Queue[bytes] | None = None
    """Set during setup: messages are queued for the setup code; afterwards only the fast path runs."""
    counted: int = -1
    """The room's last move (``Room.move``) this socket's state message was counted for."""


class Room:
    """One room's sockets and where its game is; all the load generator's per-message work happens here."""

    def __init__(self, index: int, size: int, rng: random.Random, stats: Stats) -> None:
        self.index = index
        self.size = size
        self.rng = rng
        self.stats = stats
        self.socks: list[Sock] = []
        self.players: list[Sock] = []
        self.version = 0
        self.to_act = 0
        self.over = False
        self.started = False
        self.rematching = False
        self.move = 0
        """Counts moves and rematches sent: each socket counts once per move, whatever else it is sent."""
        self.inflight_version = -1
        self.inflight_sent = 0.0
        self.inflight_left = 0
        self.owed = 0
        self.owed_due = 0.0
        self.closed_loop = False
        self.prefill = 0
        """Moves still to play, as fast as they go, before the load starts (``stagger``)."""
        self.cells: list[tuple[int, int]] = []
        self.new_board()

    def new_board(self) -> None:
        self.cells = [(r, c) for r in range(self.size) for c in range(self.size)]
        self.rng.shuffle(self.cells)

    def idle(self) -> bool:
        return self.started and self.inflight_left == 0 and not self.over and self.to_act in (0, 1)

    def send_move(self, due: float | None = None) -> None:
        """Send the next move; a late move's latency counts from when it was ``due`` (no coordinated omission)."""
        row, col = self.cells.pop() if self.cells else (0, 0)
        payload = b'{"type":"act","action":{"type":"place","cell":[%d,%d]},"version":%d}' % (row, col, self.version)
        self.inflight_version = self.version + 1
        self.inflight_left = SOCKETS_PER_ROOM
        self.move += 1
        self.inflight_sent = time.perf_counter() if due is None else due
        sock = self.players[self.to_act]
        assert sock.proto is not None
        sock.proto.send_text(payload)

    def send_rematch(self) -> None:
        self.rematching = True
        self.inflight_left = SOCKETS_PER_ROOM
        self.move += 1
        host = self.players[0]
        assert host.proto is not None
        host.proto.send_text(b'{"type":"rematch"}')
        self.stats.rematches += 1

    def on_state(self, sock: Sock, payload: bytes, now: float) -> None:
        end = payload.index(b",", 26)
        version = int(payload[26:end])
        if self.rematching:
            if version != 0:
                return
        elif not (self.inflight_left and version >= self.inflight_version):
            return
        stats = self.stats
        if sock.counted == self.move:
            stats.repeated += 1
            return
        sock.counted = self.move
        stats.bytes_total += len(payload)
        stats.bytes_count += 1
        self.inflight_left -= 1
        if self.inflight_left:
            return
        # The last of the room's sockets has the new state.
        if self.rematching:
            self.rematching = False
            self.new_board()
        else:
            stats.completed(now - self.inflight_sent, self.inflight_sent)
        self.version = version
        at = payload.find(TO_ACT, end) + len(TO_ACT)
        digit = payload[at]
        self.to_act = digit - 48 if 48 <= digit <= 57 else -1
        self.over = payload.find(OUTCOME_NULL, end) < 0
        if not stats.sending:
            return
        if self.over:
            self.send_rematch()
        elif self.prefill:
            self.prefill -= 1
            self.send_move()
        elif self.closed_loop:
            self.send_move()
        elif self.owed and self.idle():
            self.owed = 0
            self.send_move(self.owed_due)


@dataclass
class Stats:
    sending: bool = False
    window_start: float = 0.0
    window_end: float = float("inf")
    rematches: int = 0
    offered: int = 0
    late: int = 0
    dropped: int = 0
    latencies: list[float] = field(default_factory=list)
    worst_by_tenth: dict[int, float] = field(default_factory=dict)
    """Longest latency of the moves sent in each tenth of a second of the window (where a stall happened)."""
    bytes_total: int = 0
    bytes_count: int = 0
    repeated: int = 0
    """State messages a socket got for a move it already had one for (at most one is counted)."""
    generator_lateness: dict[str, int] = field(default_factory=dict)
    """How late the load generator's own loop woke in the window (its stalls would read as server latency)."""

    def note_generator_lateness(self, seconds: float) -> None:
        bound = next(b for b in (1, 2, 5, 10, 20, 50, 100, math.inf) if seconds * 1000 <= b)
        key = str(bound)
        self.generator_lateness[key] = self.generator_lateness.get(key, 0) + 1

    def completed(self, latency: float, sent_at: float) -> None:
        if self.window_start <= sent_at < self.window_end:
            self.latencies.append(latency)
            tenth = int((sent_at - self.window_start) * 10)
            if latency > self.worst_by_tenth.get(tenth, 0.0):
                self.worst_by_tenth[tenth] = latency


def make_handler(sock: Sock) -> Any:
    room = sock.room

    def on_message(payload: bytes, now: float) -> None:
        if sock.inbox is not None:
            sock.inbox.put_nowait(payload)
            return
        if payload.startswith(STATE_HEAD):
            room.on_state(sock, payload, now)

    return on_message


async def next_message(sock: Sock, predicate: Any, timeout: float = 60) -> dict[str, Any]:
    """The socket's next message matching ``predicate`` (set-up only); a timeout says what came instead."""
    assert sock.inbox is not None
    skipped: list[str] = []
    try:
        async with asyncio.timeout(timeout):
            while True:
                msg: dict[str, Any] = orjson.loads(await sock.inbox.get())
                if predicate(msg):
                    return msg
                skipped.append(str(msg.get("type")))
    except TimeoutError:
        where = f"room {sock.room.index}, socket {sock.room.socks.index(sock)}"
        raise TimeoutError(f"{where}: no awaited message in {timeout:g} s; skipped {skipped[-10:]}") from None


async def open_socket(sock: Sock, url: str, limit: asyncio.Semaphore, token: str | None = None) -> None:
    sock.inbox = asyncio.Queue()
    async with limit:
        sock.proto = await connect(url, make_handler(sock), token=token)


ROUTED = {"routed", "routed3"}
"""The kinds whose rooms each live on one process, as nginx routes them (bench/servers.py)."""


def placement(servers: list[Server], room: Room, index: int, routed: bool = False) -> Server:
    """The process socket ``index`` of a room connects to (0 and 1: the players, then the spectators).
    Routed: every socket of a room on process (room mod processes), as nginx sends them. Otherwise
    (room + index) mod processes: with two, the players are on different processes (a room whose owner has
    the other's socket relayed to it, as while a failover is in progress), and the spectators alternate: 4
    sockets on one process and 3 on the other, the 4 on each in turn."""
    return servers[(room.index + (0 if routed else index)) % len(servers)]


def seated(message: dict[str, Any], seats: int) -> bool:
    """A room message showing the first ``seats`` seats taken."""
    return message.get("type") == "room" and all(s["player"] for s in message["room"]["seats"][:seats])


def add_sockets(room: Room) -> None:
    room.players = [Sock(room, 0), Sock(room, 1)]
    room.socks = [*room.players, *(Sock(room, None) for _ in range(SPECTATORS))]


async def create_rooms(
    servers: list[Server], rooms: list[Room], seed: int, routed: bool = False
) -> tuple[list[str], list[tuple[str, list[str]]]]:
    """The spectators' tokens, and each room's code and players' tokens, over REST (a room on its host's process)."""
    # At most 8 requests at once: before e87d734 more than the SQLite pool's 15 connections deadlocked
    # POST /api/rooms (tests/app/test_rest_fuzz.py); the set-up need not be faster than this.
    limit = asyncio.Semaphore(8)
    async with httpx.AsyncClient(timeout=60) as http:
        http.cookies.jar.set_policy(DefaultCookiePolicy(allowed_domains=[]))  # each POST /api/me: a new player

        async def player(server: Server, name: str) -> str:
            async with limit:
                r = await http.post(f"{server.url}/api/me", json={"name": name})
                r.raise_for_status()
                token: str = r.json()["token"]
                return token

        spectators = [await player(servers[0], f"Watcher {i + 1}") for i in range(SPECTATORS)]

        async def make_room(room: Room) -> tuple[str, list[str]]:
            host, guest = placement(servers, room, 0, routed), placement(servers, room, 1, routed)
            tokens = [await player(host, f"R{room.index} P1"), await player(guest, f"R{room.index} P2")]
            async with limit:
                r = await http.post(
                    f"{host.url}/api/rooms",
                    json={"game": "tri-tac", "options": {"size": room.size}, "seed": seed + room.index},
                    headers={"Authorization": f"Bearer {tokens[0]}"},
                )
                r.raise_for_status()
                return r.json()["code"], tokens

        return spectators, await asyncio.gather(*(make_room(room) for room in rooms))


async def setup_project(deployment: Deployment, rooms: list[Room], seed: int) -> tuple[int, int]:
    """Players, rooms and sockets through the documented protocol; returns (RSS before, after) the sockets."""
    servers = deployment.servers
    routed = deployment.kind in ROUTED
    spectators, made = await create_rooms(servers, rooms, seed, routed)
    rss_before = deployment.rss_bytes()
    connect_limit = asyncio.Semaphore(64)

    async def join(room: Room, code: str, tokens: list[str]) -> None:
        add_sockets(room)
        await asyncio.gather(
            *(
                open_socket(s, f"{placement(servers, room, i, routed).ws_url}/{code}", connect_limit, t)
                for i, (s, t) in enumerate(zip(room.socks, [*tokens, *spectators], strict=True))
            )
        )
        # Each player sits once its process shows the seats before its own taken, and the host starts once its
        # process shows both: on two processes a seat change reaches the other process over the bus, and a sit
        # on a process that has not heard of the previous one yet would undo it (README: server bugs).
        for seat, sock in enumerate(room.players):
            assert sock.proto is not None
            shown = await next_message(sock, lambda m, seat=seat: seated(m, seat))
            if seat == 0 and seated(shown, 1):
                continue  # the host took seat 0 creating the room (older servers left it empty: the host sits)
            sock.proto.send_text(b'{"type":"sit","seat":%d}' % seat)
            await next_message(sock, lambda m, seat=seat: m.get("type") == "welcome" and m["you"]["seat"] == seat)
        host = room.players[0]
        assert host.proto is not None
        await next_message(host, lambda m: seated(m, len(room.players)))
        host.proto.send_text(b'{"type":"start"}')
        first = await next_message(host, lambda m: m.get("type") == "state" and m["version"] == 0)
        for sock in room.socks[1:]:
            await next_message(sock, lambda m: m.get("type") == "state" and m["version"] == 0)
        room.version, room.to_act, room.started = 0, int(first["to_act"][0]), True

    await asyncio.gather(*(join(room, code, tokens) for room, (code, tokens) in zip(rooms, made, strict=True)))
    return rss_before, await settle(deployment, rooms)


async def setup_bare(deployment: Deployment, rooms: list[Room]) -> tuple[int, int]:
    rss_before = deployment.rss_bytes()
    servers = deployment.servers
    limit = asyncio.Semaphore(64)

    async def join(room: Room) -> None:
        add_sockets(room)
        await asyncio.gather(
            *(
                open_socket(s, f"{placement(servers, room, i).ws_url}/room{room.index}", limit)
                for i, s in enumerate(room.socks)
            )
        )
        room.version, room.to_act, room.started = 0, 0, True

    await asyncio.gather(*(join(room) for room in rooms))
    return rss_before, await settle(deployment, rooms)


async def settle(deployment: Deployment, rooms: list[Room]) -> int:
    """Let the set-up calm down, switch every socket to the fast path; returns the servers' RSS."""
    await asyncio.sleep(2)
    for room in rooms:
        for sock in room.socks:
            sock.inbox = None
    return deployment.rss_bytes()


async def stagger(rooms: list[Room], stats: Stats) -> None:
    """Play a random number of each room's first moves (0 to a board less one), unmeasured, so that the rooms'
    games end at times spread over a game's length, as independent rooms' games do; otherwise every room set
    up at once would finish its game in the same half second, a burst of game ends and rematches that is an
    artefact of the set-up (``--no-stagger`` keeps it, as a stress case)."""
    stats.sending, stats.window_start = True, float("inf")
    for room in rooms:
        room.prefill = room.rng.randrange(len(room.cells))
        if room.prefill and room.idle():
            room.prefill -= 1
            room.send_move()
    while any(room.prefill or room.inflight_left for room in rooms):
        await asyncio.sleep(0.05)


async def drive(
    rooms: list[Room],
    stats: Stats,
    rate: float | None,
    duration: float,
    warmup: float,
    deployment: Deployment,
    cores: tuple[int, ...],
) -> dict[str, Any]:
    """Offer moves (open loop at ``rate`` per room, or closed loop when ``rate`` is None) and measure a window."""
    loop_start = time.perf_counter()
    stats.sending = True
    stats.window_start = loop_start + warmup
    stats.window_end = stats.window_start + duration
    heap: list[tuple[float, int]] = []
    counters0: dict[str, float] = {}
    if rate is None:
        for room in rooms:
            room.closed_loop = True
            if room.idle():
                room.send_move()
    else:
        for room in rooms:
            heapq.heappush(heap, (loop_start + random.random() / rate, room.index))
    window: dict[str, Any] = {}
    cpu0: list[float] = []
    moves_before: dict[str, float] = {}
    gen0 = generator_wait0 = 0.0
    marked = False
    timeline = Timeline()
    while True:
        now = time.perf_counter()
        if not marked and now >= stats.window_start:
            marked = True
            moves_before = await deployment.move_seconds()
            deployment.gc_reset()
            services = await deployment.service_pids()
            service_cpu0 = {name: sum(map(cpu_or_zero, pids)) for name, pids in services.items()}
            counters0 = deployment.counters(cores)
            cpu0, gen0, generator_wait0 = deployment.cpu_seconds(), time.process_time(), runqueue_wait_seconds()
            timeline.start(now, len(stats.latencies), counters0)
            window["completed_before"] = len(stats.latencies)
        if now >= stats.window_end:
            window["server_cpu_each"] = [now - then for then, now in zip(cpu0, deployment.cpu_seconds(), strict=True)]
            window["server_cpu"] = sum(window["server_cpu_each"])
            counters = deployment.counters(cores)
            window["counters"] = counter_deltas(counters0, counters)
            window["timeline"] = timeline.seconds
            if "wal_bytes" in counters:
                window["counters"]["wal_bytes_at_start"], window["counters"]["wal_bytes_at_end"] = (
                    counters0.get("wal_bytes", 0.0),
                    counters["wal_bytes"],
                )
            window["service_cpu"] = {
                name: sum(map(cpu_or_zero, pids)) - service_cpu0[name] for name, pids in services.items()
            }
            window["generator_cpu"] = time.process_time() - gen0
            window["counters"]["generator_runqueue_wait_s"] = round(runqueue_wait_seconds() - generator_wait0, 4)
            window["gc"] = await deployment.gc_stats()
            moves_after = await deployment.move_seconds()
            window["server_move_ms"] = {
                str(float(bound) * 1000 if bound != "+Inf" else bound): count - moves_before.get(bound, 0.0)
                for bound, count in moves_after.items()
            }
            break
        if marked and now >= timeline.next_at:
            timeline.sample(now, len(stats.latencies), deployment.counters(cores))
        if rate is None:
            await asyncio.sleep(0.05)
            continue
        while heap and heap[0][0] <= now:
            due, index = heapq.heappop(heap)
            room = rooms[index]
            if stats.window_start <= due < stats.window_end:
                stats.offered += 1
            if room.idle():
                room.send_move()
            elif room.owed == 0:
                room.owed, room.owed_due = 1, due
                if stats.window_start <= due < stats.window_end:
                    stats.late += 1
            elif stats.window_start <= due < stats.window_end:
                stats.dropped += 1
            heapq.heappush(heap, (due + 1 / rate, index))
        delay = max(0.0, min((heap[0][0] if heap else now + 0.05) - time.perf_counter(), 0.05))
        wake = time.perf_counter() + delay
        await asyncio.sleep(delay)
        if marked:
            stats.note_generator_lateness(time.perf_counter() - wake)
    stats.sending = False
    # Let the moves of the window finish (their latencies count).
    drain_until = time.perf_counter() + 10
    while any(room.inflight_left for room in rooms) and time.perf_counter() < drain_until:
        await asyncio.sleep(0.05)
    window["unfinished"] = sum(1 for room in rooms if room.inflight_left)
    return window


def runqueue_wait_seconds() -> float:
    """How long this process' threads have waited for a core (another process ran on the generator's)."""
    return int(Path("/proc/self/schedstat").read_text().split()[1]) / 1e9


class Timeline:
    """The window second by second: moves completed, and the server's CPU, waits for its core and SQLite WAL
    size, so that a run whose figure differs can be looked into (a stall, a checkpoint, the WAL's growth)."""

    def __init__(self) -> None:
        self.seconds: list[dict[str, float]] = []
        self.next_at = math.inf
        self.origin = math.nan
        self._last: tuple[float, int, dict[str, float]] = (0.0, 0, {})

    def start(self, now: float, completed: int, counters: dict[str, float]) -> None:
        if not self.seconds:
            self.origin = now
        self._last, self.next_at = (now, completed, counters), now + 1

    def sample(self, now: float, completed: int, counters: dict[str, float]) -> None:
        then, done, before = self._last
        moves = completed - done
        cpu = counters["utime_s"] + counters["stime_s"] - before["utime_s"] - before["stime_s"]
        self.seconds.append(
            {
                "at_s": round(then - self.origin, 2),
                "moves_per_s": round(moves / (now - then), 1),
                "cpu_us_per_move": round(cpu / moves * 1e6, 1) if moves else math.nan,
                "stime_share": round((counters["stime_s"] - before["stime_s"]) / cpu, 3) if cpu else math.nan,
                "waited_s": round(counters["runqueue_wait_s"] - before["runqueue_wait_s"], 3),
                "wal_mib": round(counters.get("wal_bytes", 0.0) / 2**20, 1),
            }
        )
        self.start(now, completed, counters)


def percentile(sorted_values: list[float], q: float) -> float:
    if not sorted_values:
        return float("nan")
    index = min(len(sorted_values) - 1, max(0, math.ceil(q * len(sorted_values)) - 1))  # nearest rank
    return sorted_values[index]


async def run_one(kind: str, scenario: str, args: argparse.Namespace, payload_bytes: int, seed: int) -> dict[str, Any]:
    """One scenario against a fresh deployment of ``kind`` (stopped and removed whatever happens)."""
    if args.wait_quiet:
        deadline = time.monotonic() + 1800
        while os.getloadavg()[0] > args.wait_quiet and time.monotonic() < deadline:
            await asyncio.sleep(10)
    load_before = os.getloadavg()[0]
    options = Options(
        args.server_cpu,
        payload_bytes,
        args.profile,
        args.postgres_url,
        args.redis_url,
        args.sqlite_dir,
        args.tree,
    )
    with deploy(kind, options) as deployment:
        try:
            result = await measure(deployment, scenario, args, seed)
        finally:
            gc.enable()
            gc.unfreeze()
    result["loadavg_1min"] = [round(load_before, 2), round(os.getloadavg()[0], 2)]
    return result


async def measure(deployment: Deployment, scenario: str, args: argparse.Namespace, seed: int) -> dict[str, Any]:
    room_count = args.rooms if scenario == "latency" else args.sat_rooms
    rate = args.rate if scenario == "latency" else None
    stats = Stats()
    rng = random.Random(seed)
    rooms = [Room(i, args.size, random.Random(rng.random()), stats) for i in range(room_count)]
    gc.enable()
    t0 = time.perf_counter()
    if deployment.app:
        rss_before, rss_after = await setup_project(deployment, rooms, seed)
    else:
        rss_before, rss_after = await setup_bare(deployment, rooms)
    setup_seconds = time.perf_counter() - t0
    # The generator's own collector off from here on (its pauses would show up as server latency).
    gc.collect()
    gc.freeze()
    gc.disable()
    if args.stagger:
        await stagger(rooms, stats)
    cores = (args.server_cpu, args.generator_cpu)
    window = await drive(rooms, stats, rate, args.duration, args.warmup, deployment, cores)
    deployment.check_alive()
    for room in rooms:
        for sock in room.socks:
            if sock.proto is not None:
                sock.proto.close()
    lat = sorted(stats.latencies)
    sockets = room_count * SOCKETS_PER_ROOM
    offered = stats.offered / args.duration if rate is not None else float("nan")
    return {
        "server": deployment.kind,
        "processes": len(deployment.servers),
        "scenario": scenario,
        "rooms": room_count,
        "sockets": sockets,
        "duration_s": args.duration,
        "offered_moves_per_s": round(offered, 1),
        "achieved_moves_per_s": round(len(lat) / args.duration, 1),
        "late_moves": stats.late,
        "dropped_moves": stats.dropped,
        "unfinished_moves": window["unfinished"],
        "rematches": stats.rematches,
        "repeated_states": stats.repeated,
        "latency_ms": latency_figures(lat),
        "slowest_moments": slowest_moments(stats.worst_by_tenth),
        "server_cpu_s": round(window["server_cpu"], 3),
        "server_cpu_s_each": [round(cpu, 3) for cpu in window["server_cpu_each"]],
        "server_cpu_us_per_move": round(window["server_cpu"] / len(lat) * 1e6, 1) if lat else None,
        # PostgreSQL's backends for this run's database and the private Redis, beside the app's CPU.
        "service_cpu_us_per_move": {
            name: round(cpu / len(lat) * 1e6, 1) if lat else None for name, cpu in window["service_cpu"].items()
        },
        "server_cpu_utilisation": round(window["server_cpu"] / args.duration, 3),
        "generator_cpu_utilisation": round(window["generator_cpu"] / args.duration, 3),
        "rss_per_socket_kib": round((rss_after - rss_before) / sockets / 1024, 2),
        "rss_after_setup_mib": round(rss_after / 2**20, 1),
        "gc": {key: value for key, value in window["gc"].items() if key != "stalls"},
        "loop_stalls": window["gc"].get("stalls"),
        "server_move_ms_up_to": window.get("server_move_ms"),
        # Over the window: the server's context switches, system calls, bytes written, time waiting to run,
        # each thread's CPU, the cores' steal and interrupt time (what a noisy window is checked against).
        "window_counters": window["counters"],
        "window_timeline": window["timeline"],  # moves (cumulative) by apply-to-written time
        "generator_late_ms_up_to": stats.generator_lateness,  # one process' (a cluster's are under gc.processes)
        "state_bytes_mean": round(stats.bytes_total / stats.bytes_count) if stats.bytes_count else None,
        "setup_s": round(setup_seconds, 1),
    }


def slowest_moments(worst_by_tenth: dict[int, float], count: int = 5) -> list[dict[str, float]]:
    """The tenths of a second of the window whose moves waited longest: when a stall happened, and how long."""
    worst = sorted(worst_by_tenth.items(), key=lambda item: item[1], reverse=True)[:count]
    return [{"at_s": tenth / 10, "max_ms": round(latency * 1000, 1)} for tenth, latency in worst]


def latency_figures(lat: list[float]) -> dict[str, float | None]:
    """Milliseconds, from sorted latencies in seconds."""
    return {
        "p50": round(percentile(lat, 0.50) * 1000, 3),
        "p99": round(percentile(lat, 0.99) * 1000, 3),
        "p99.9": round(percentile(lat, 0.999) * 1000, 3),
        "max": round((lat[-1] if lat else float("nan")) * 1000, 3),
        "mean": round(statistics.fmean(lat) * 1000, 3) if lat else None,
    }


# ---- reporting --------------------------------------------------------------------------------------------


def table(results: list[dict[str, Any]]) -> str:
    head = (
        "| server | scenario | rooms × 7 | offered/s | achieved/s | p50 ms | p99 ms | p99.9 ms | max ms | "
        "CPU µs/move | server CPU | RSS KiB/socket | longest GC ms | state bytes | generator CPU |\n"
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n"
    )
    rows = []
    for r in results:
        lat = r["latency_ms"]
        offered = "closed loop" if r["scenario"] == "saturation" else f"{r['offered_moves_per_s']:.0f}"
        rows.append(
            f"| {r['server']} | {r['scenario']} | {r['rooms']} | {offered} | {r['achieved_moves_per_s']:.0f} | "
            f"{lat['p50']:.2f} | {lat['p99']:.2f} | {lat['p99.9']:.2f} | {lat['max']:.2f} | "
            f"{r['server_cpu_us_per_move']} | {r['server_cpu_utilisation'] * 100:.0f} % | "
            f"{r['rss_per_socket_kib']:.1f} | {r['gc'].get('longest_ms', '?')} | {r['state_bytes_mean']} | "
            f"{r['generator_cpu_utilisation'] * 100:.0f} % |"
        )
    return head + "\n".join(rows)


def ratios(results: list[dict[str, Any]]) -> list[str]:
    """Each app deployment (project, cluster) against the bare endpoint: medians of throughput and CPU per move."""
    lines = []
    for scenario in ("saturation", "latency"):
        runs = {kind: [r for r in results if r["server"] == kind and r["scenario"] == scenario] for kind in KINDS}
        lines += against_project(scenario, runs)
        if not runs["bare"]:
            continue
        b = statistics.median(r["achieved_moves_per_s"] for r in runs["bare"])
        bc = statistics.median(r["server_cpu_us_per_move"] or 0 for r in runs["bare"])
        for kind in ("project", "cluster", "routed", "routed3"):
            if not runs[kind]:
                continue
            p = statistics.median(r["achieved_moves_per_s"] for r in runs[kind])
            pc = statistics.median(r["server_cpu_us_per_move"] or 0 for r in runs[kind])
            if scenario == "saturation":
                lines.append(f"saturation: {kind} {p:.0f} moves/s = {p / b:.2f} × bare {b:.0f} moves/s")
            lines.append(f"{scenario}: CPU per move {kind} {pc:.0f} µs = {pc / bc:.1f} × bare {bc:.0f} µs")
    return lines


def against_project(scenario: str, runs: dict[str, list[dict[str, Any]]]) -> list[str]:
    """Each PostgreSQL + Redis kind against the one SQLite process: moves/s and app CPU per move (medians), with
    PostgreSQL's and Redis' own CPU per move beside it."""
    if not runs["project"]:
        return []
    p = statistics.median(r["achieved_moves_per_s"] for r in runs["project"])
    pc = statistics.median(r["server_cpu_us_per_move"] or 0 for r in runs["project"])
    lines = []
    for kind in ("cluster", "routed", "routed3"):
        if not runs[kind]:
            continue
        k = statistics.median(r["achieved_moves_per_s"] for r in runs[kind])
        kc = statistics.median(r["server_cpu_us_per_move"] or 0 for r in runs[kind])
        services = ", ".join(
            f"{name} {statistics.median((r['service_cpu_us_per_move'].get(name) or 0) for r in runs[kind]):.0f} µs"
            for name in ("postgres", "redis")
        )
        lines.append(
            f"{scenario}: {kind} {k:.0f} moves/s = {k / p:.2f} × project {p:.0f}; app CPU per move {kc:.0f} µs = "
            f"{kc / pc:.2f} × project {pc:.0f} µs (beside it: {services})"
        )
    return lines


def median_table(paths: list[Path]) -> str:
    """One row per (file, server, scenario): the median of each figure over the repetitions."""
    head = (
        "| load | server | rooms × 7 | offered/s | achieved/s | p50 ms | p99 ms | p99.9 ms | max ms | CPU µs/move | "
        "RSS KiB/socket | longest GC ms | runs |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|\n"
    )
    rows = []
    for path in paths:
        data = json.loads(path.read_text())
        runs, rate = data["runs"], data["args"]["rate"]
        keys = sorted(
            {(r["scenario"], r["rooms"], r["server"]) for r in runs},
            key=lambda k: (k[0] != "saturation", k[1], KINDS.index(k[2])),
        )
        for scenario, rooms, server in keys:
            group = [r for r in runs if (r["scenario"], r["rooms"], r["server"]) == (scenario, rooms, server)]

            def med(get: Any, group: list[dict[str, Any]] = group) -> float:
                return float(statistics.median(get(r) for r in group))

            if scenario == "saturation":
                load, offered = "saturation (closed loop)", "–"
            else:
                load = f"{rate:g} moves/s per room"
                offered = f"{med(lambda r: r['offered_moves_per_s']):.0f}"
            pauses = [r["gc"]["longest_ms"] for r in group if "longest_ms" in r["gc"]]
            gc_text = f"{statistics.median(pauses):.0f}" if pauses else "– (no answer: server stalled)"
            rows.append(
                f"| {load} | {server} | {rooms} | {offered} | {med(lambda r: r['achieved_moves_per_s']):.0f} | "
                f"{med(lambda r: r['latency_ms']['p50']):.2f} | {med(lambda r: r['latency_ms']['p99']):.1f} | "
                f"{med(lambda r: r['latency_ms']['p99.9']):.1f} | {med(lambda r: r['latency_ms']['max']):.1f} | "
                f"{med(lambda r: r['server_cpu_us_per_move']):.0f} | {med(lambda r: r['rss_per_socket_kib']):.1f} | "
                f"{gc_text} | {len(group)} |"
            )
    return head + "\n".join(rows)


def machine() -> str:
    model = "?"
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            model = line.split(":", 1)[1].strip()
            break
    return f"{os.cpu_count()} × {model}, Python {sys.version.split()[0]}, Linux {os.uname().release}"


def kinds(text: str) -> list[str]:
    """``--servers``: known kinds, in the order they run (``KINDS``)."""
    chosen = {kind for kind in text.split(",") if kind}
    if unknown := chosen - set(KINDS):
        raise argparse.ArgumentTypeError(f"unknown server kind(s) {', '.join(sorted(unknown))}")
    return [kind for kind in KINDS if kind in chosen]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--duration", type=float, default=20, help="measured window per run, seconds (default 20)")
    parser.add_argument("--warmup", type=float, default=3, help="load before the window, seconds (default 3)")
    parser.add_argument("--rooms", type=int, default=1000, help="rooms in the latency scenario (default 1000)")
    parser.add_argument("--rate", type=float, default=2, help="moves/s offered per room, latency scenario (2)")
    parser.add_argument("--sat-rooms", type=int, default=200, help="rooms in the saturation scenario (200)")
    parser.add_argument("--size", type=int, default=5, help="Tri-Tac board size (default 5: a rematch every 25)")
    parser.add_argument(
        "--stagger",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="start each room at a random point of its game, so that games end at independent times (default); "
        "--no-stagger: every room's game ends in the same half second",
    )
    parser.add_argument("--scenarios", default="saturation,latency", help="comma-separated: saturation,latency")
    parser.add_argument(
        "--servers",
        default="project,bare",
        type=kinds,
        help="comma-separated: project (one process, SQLite), bare, cluster (two processes, PostgreSQL + Redis, "
        "each room's sockets split over both), routed (the same, each room's sockets on one process, as nginx "
        "routes them), routed3 (three processes, routed)",
    )
    parser.add_argument("--repeat", type=int, default=1, help="repetitions of every run (medians are quoted)")
    parser.add_argument("--payload-bytes", type=int, default=0, help="bare state size (default: the project's)")
    parser.add_argument("--server-cpu", type=int, default=0, help="core for the server(s) (default 0)")
    parser.add_argument("--generator-cpu", type=int, default=1, help="core for this load generator (default 1)")
    parser.add_argument("--seed", type=int, default=1, help="base seed for rooms and moves")
    parser.add_argument("--json", type=Path, help="also write every run's figures to this file")
    parser.add_argument(
        "--report", type=Path, nargs="+", help="only print a table of medians from earlier --json files, and exit"
    )
    parser.add_argument(
        "--profile",
        type=Path,
        help="run the servers under cProfile; stats go to PROFILE.project, .bare, .cluster-a, .cluster-b",
    )
    parser.add_argument(
        "--postgres-url",
        default="postgresql://postgres@127.0.0.1:5432/postgres",
        help="cluster: admin database of the PostgreSQL server where a fresh database is created and dropped",
    )
    parser.add_argument(
        "--redis-url",
        help="cluster: use this Redis instead of a private redis-server (its pub/sub channel threefold:rooms is "
        "then shared with every other client of that server, whatever the database number)",
    )
    parser.add_argument(
        "--tree",
        type=Path,
        default=ROOT,
        help="the checkout whose app the app servers run (another commit's worktree; default this one)",
    )
    parser.add_argument(
        "--sqlite-dir",
        type=Path,
        help="project: make its fresh SQLite database in this directory (default: the system's temporary one)",
    )
    parser.add_argument(
        "--wait-quiet",
        type=float,
        default=0,
        help="before each run, wait (up to 30 min) until the 1-minute load average is below this (shared machines)",
    )
    args = parser.parse_args()
    if args.report:
        print(median_table(args.report))
        return

    os.sched_setaffinity(0, {args.generator_cpu})
    signal.signal(signal.SIGTERM, signal.default_int_handler)  # like Ctrl-C: every server stopped, database dropped
    import uvloop

    scenarios = [s for s in args.scenarios.split(",") if s]
    results: list[dict[str, Any]] = []
    payload = args.payload_bytes or 700
    print(f"machine: {machine()}", flush=True)
    print(
        f"pinning: server process(es) on core {args.server_cpu} (a cluster's two processes share it), this load "
        f"generator on core {args.generator_cpu}; PostgreSQL and Redis are not pinned",
        flush=True,
    )
    try:
        with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
            for rep in range(args.repeat):
                for scenario in scenarios:
                    for kind in args.servers:  # the app first: the bare state size is the app's
                        result = runner.run(run_one(kind, scenario, args, payload, args.seed + rep))
                        if kind != "bare" and not args.payload_bytes and result["state_bytes_mean"]:
                            payload = int(result["state_bytes_mean"])
                        results.append(result)
                        print(json.dumps(result), flush=True)
    except KeyboardInterrupt:
        print("interrupted: every server stopped, the cluster's database dropped", file=sys.stderr)
        sys.exit(130)
    print()
    print(table(results))
    print()
    for line in ratios(results):
        print(line)
    if args.json:
        args.json.write_text(
            json.dumps({"machine": machine(), "args": vars(args), "runs": results}, indent=2, default=str)
        )


if __name__ == "__main__":
    main()
