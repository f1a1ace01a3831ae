"""CPU per move inside the server, without sockets: the project's own share of a move, measured steadily.

    .venv/bin/python -m bench.hub_moves                    # 200 rooms, 20,000 moves
    .venv/bin/python -m bench.hub_moves --profile hub.prof # and a cProfile of the moves

The fan-out benchmark (bench/fanout.py) measures a move end to end, and most of its CPU is the kernel's and
uvloop's socket work, shared with the bare endpoint; its figures also swing by 20 % from one day to the next on
a shared VM. This drives the same Tri-Tac rooms (two players, five spectators, a rematch when the board is
full) through the app's own message handler in this process, on a fresh SQLite database (durable per move, as
served), with sockets that take every write at once. A round sends one move in every room and waits until all
are applied, so writes group-commit as they do under load. It reports the process CPU per move: what the app
adds on top of the stack's fan-out, the part a change to app/ or engines/ moves.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import gc
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import uvloop

from app.live.connection import Connection
from app.live.hub import Hub
from app.live.messages import parse
from app.live.room import Room
from app.main import create_app
from app.routers.ws import _on_message
from app.settings import Settings

ROOT = Path(__file__).resolve().parents[1]
SPECTATORS = 5


class Table:
    """One room: its two players' and five spectators' connections, and the cells left to play."""

    def __init__(self, live: Room, players: list[Connection], size: int, rng: random.Random) -> None:
        self.live, self.players, self.size, self.rng = live, players, size, rng
        self.cells: list[tuple[int, int]] = []
        self.turn = 0

    def next_move(self) -> tuple[Connection, bytes]:
        game = self.live.game
        assert game is not None
        if not self.cells or self.live.record.status != "playing":
            return self.players[0], b'{"type":"rematch"}'
        row, col = self.cells.pop()
        mover = self.players[min(game.to_act)]
        return mover, b'{"type":"act","action":{"type":"place","cell":[%d,%d]},"version":%d}' % (
            row,
            col,
            game.version,
        )

    def new_game(self) -> None:
        self.cells = [(r, c) for r in range(self.size) for c in range(self.size)]
        self.rng.shuffle(self.cells)


def _sink(_frames: bytes) -> bool:
    return True


async def _connection(live: Room, settings: Settings, player_id: int, name: str) -> Connection:
    conn = Connection(
        None,  # type: ignore[arg-type]  # never used: every write goes through write_frames
        player_id,
        settings.send_queue_size,
        settings.messages_per_second,
        settings.message_burst,
        write_frames=_sink,
    )
    assert await live.connect(conn, name)
    return conn


async def _player(http: httpx.AsyncClient, name: str) -> tuple[int, str]:
    http.cookies.clear()  # a new person each time, not a rename of the last one
    body = (await http.post("/api/me", json={"name": name})).json()
    return int(body["id"]), str(body["token"])


async def run(rooms: int, moves: int, size: int, profile: str | None) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite+aiosqlite:///{tmp}/bench.db"
        env = {**os.environ, "THREEFOLD_DATABASE_URL": url}
        subprocess.run([sys.executable, "-m", "alembic", "upgrade", "head"], cwd=ROOT, env=env, check=True)
        settings = Settings(database_url=url, testing=True, messages_per_second=1e9, message_burst=1_000_000)
        app = create_app(settings)
        async with app.router.lifespan_context(app):
            hub: Hub = app.state.services.hub
            transport = httpx.ASGITransport(app=app)
            tables = []
            async with httpx.AsyncClient(transport=transport, base_url="http://bench") as http:
                for index in range(rooms):
                    host, token = await _player(http, f"A{index}")
                    guest, _ = await _player(http, f"B{index}")
                    created = await http.post(
                        "/api/rooms",
                        json={"game": "tri-tac", "options": {"size": size}, "seed": index},
                        headers={"Authorization": f"Bearer {token}"},
                    )
                    created.raise_for_status()
                    live = await hub.room(created.json()["code"])
                    assert live is not None
                    players = [
                        await _connection(live, settings, host, f"A{index}"),
                        await _connection(live, settings, guest, f"B{index}"),
                    ]
                    # The host took seat 0 creating the room; the guest sits next to them.
                    await live.handle(players[1], parse(b'{"type":"sit","seat":1}', 4096))
                    for watcher in range(SPECTATORS):
                        spectator, _ = await _player(http, f"S{index}-{watcher}")
                        await _connection(live, settings, spectator, f"S{index}-{watcher}")
                    await live.handle(players[0], parse(b'{"type":"start"}', 4096))
                    table = Table(live, players, size, random.Random(index))
                    table.new_game()
                    tables.append(table)

            async def one(table: Table) -> None:
                conn, raw = table.next_move()
                if raw.startswith(b'{"type":"rematch"'):
                    table.new_game()
                await _on_message(table.live, conn, raw, settings)

            gc.collect()
            profiler = cProfile.Profile() if profile else None
            applied_before, rounds = hub.moves, max(1, moves // rooms)
            round_seconds = []
            cpu_before = time.process_time()
            if profiler is not None:
                profiler.enable()
            for _ in range(rounds):
                started = time.perf_counter()
                await asyncio.gather(*(one(table) for table in tables))
                round_seconds.append(time.perf_counter() - started)
            if profiler is not None and profile:
                profiler.disable()
                profiler.dump_stats(profile)
            cpu = time.process_time() - cpu_before
            applied = hub.moves - applied_before
            return {
                "rooms": rooms,
                "messages": rounds * rooms,
                "moves_applied": applied,
                "cpu_us_per_message": round(cpu / (rounds * rooms) * 1e6, 1),
                "round_ms_median": round(statistics.median(round_seconds) * 1000, 2),
            }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rooms", type=int, default=200)
    parser.add_argument("--moves", type=int, default=20_000, help="messages in all (moves and rematches)")
    parser.add_argument("--size", type=int, default=5, help="Tri-Tac board size (a rematch every size² moves)")
    parser.add_argument("--profile", help="write a cProfile of the measured moves to this file")
    args = parser.parse_args()
    with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:  # as uvicorn serves
        print(runner.run(run(args.rooms, args.moves, args.size, args.profile)))


if __name__ == "__main__":
    main()
