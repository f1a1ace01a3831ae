"""A playing room's latency while many strong bots think at once: thinking bots must never stall a table.

    .venv/bin/python -m bench.bots_load                  # 50 rooms of two strong bots, 30 s window
    .venv/bin/python -m bench.bots_load --rooms 0        # the same measurement without the bots

One server (fresh SQLite, real bot pace: 0.8 s pauses, 0.8 s searches) runs ``--rooms`` Tri-Tac 7x7 rooms
whose two seats are strong bots, so one bot per room is thinking or pausing at any moment. A person plays a
normal bot in one more room and sends a ``ping`` every 50 ms; the report is the ping round trip (p50, p99,
max) over the window, and how many strong moves missed their deadline (from the server's log).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

from app.client import RoomSocket, ThreefoldClient
from tests.support.server import ServerProcess, migrate

BOT_MOVES = [0]
"""Moves the bot rooms' sockets saw (the bots do play while the room is measured)."""


async def _bot_room(url: str, index: int) -> None:
    async with ThreefoldClient(url) as host:
        await host.set_name(f"Host {index}")
        code = await host.create_room("tri-tac", {"size": 7}, seed=index)
        async with host.connect(code) as sock:
            await sock.next(lambda m: m["type"] == "room")
            await sock.request({"type": "stand"})  # bots take both seats, the one the host took creating the room too
            for seat in (0, 1):
                await sock.send({"type": "add_bot", "seat": seat, "level": "strong"})
            await sock.wait_room(lambda r: all(s["player"] is not None for s in r["seats"]))
            await sock.send({"type": "start"})
            await sock.wait_state()
            while True:  # keep the room's socket open while the bots play on
                await sock.next(lambda m: m["type"] == "state", timeout=600)
                sock.drain()
                BOT_MOVES[0] += 1


async def _pings(sock: RoomSocket, seconds: float) -> list[float]:
    times: list[float] = []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        sent = time.perf_counter()
        await sock.send({"type": "ping"})
        await sock.next(lambda m: m["type"] == "pong")
        times.append(time.perf_counter() - sent)
        await asyncio.sleep(0.05)
    return times


async def run(rooms: int, seconds: float) -> dict[str, object]:
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite+aiosqlite:///{Path(tmp) / 'bench.db'}"
        migrate(url)
        server = ServerProcess(url, extra_env={"THREEFOLD_BOT_PACE": "1.0"}).start()
        try:
            tasks = [asyncio.create_task(_bot_room(server.url, i)) for i in range(rooms)]
            await asyncio.sleep(3.0 if rooms else 0.0)  # every room seated and started
            async with ThreefoldClient(server.url) as me:
                await me.set_name("Measured")
                code = await me.create_room("tri-tac", {"size": 7}, seed=999)
                async with me.connect(code) as sock:
                    await sock.next(lambda m: m["type"] == "room")
                    await sock.start_against_a_bot()
                    await sock.wait_state()
                    moves_before = BOT_MOVES[0]
                    pings = await _pings(sock, seconds)
                    bot_moves = BOT_MOVES[0] - moves_before
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
        finally:
            server.stop()
        late = server.log_path.read_text(errors="replace").count("missed its deadline")
    ordered = sorted(pings)
    return {
        "rooms": rooms,
        "seconds": seconds,
        "pings": len(ordered),
        "ping_ms_p50": round(1000 * statistics.median(ordered), 2),
        "ping_ms_p99": round(1000 * ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))], 2),
        "ping_ms_max": round(1000 * ordered[-1], 2),
        "bot_room_moves_in_window": bot_moves,
        "late_strong_moves": late,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rooms", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=30.0)
    args = parser.parse_args(argv)
    print(json.dumps(asyncio.run(run(args.rooms, args.seconds))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
