"""Crash test: many games in progress, the server is kill -9'd at random moments and restarted; every move a
client was told about is in the database exactly once, and every game plays on to its end."""

from __future__ import annotations

import asyncio
import random

import pytest
import sqlalchemy as sa
import websockets
from sqlalchemy.ext.asyncio import create_async_engine

from app.client import ClientError, ThreefoldClient
from app.replay import replay
from tests.support.server import ServerProcess

pytestmark = pytest.mark.real_process  # kill -9 mid-game

ROOMS = 6
KILLS = 3


class Game:
    def __init__(self, url: str, index: int) -> None:
        self.url = url
        self.index = index
        self.code = ""
        self.clients: list[ThreefoldClient] = []
        self.seen = 0
        """The highest version any of this game's clients was told about (ack or state)."""
        self.done = False

    async def setup(self) -> None:
        for name in ("A", "B"):
            client = ThreefoldClient(self.url)
            await client.set_name(f"{name}{self.index}")
            self.clients.append(client)
        self.code = await self.clients[0].create_room("tri-tac", {"size": 7}, seed=100 + self.index)
        for seat, client in enumerate(self.clients):
            async with client.connect(self.code) as sock:
                await sock.next(lambda m: m["type"] == "room")
                await sock.send({"type": "sit", "seat": seat})
                await sock.next(lambda m, s=seat: m["type"] == "welcome" and m["you"]["seat"] == s)
        async with self.clients[0].connect(self.code) as sock:
            await sock.next(lambda m: m["type"] == "room")
            await sock.send({"type": "start"})
            await sock.wait_state()

    async def play(self, rng: random.Random) -> None:
        """Play until the game ends, reconnecting whenever the server goes away."""
        while not self.done:
            try:
                async with self.clients[0].connect(self.code) as a, self.clients[1].connect(self.code) as b:
                    socks = [a, b]
                    state = await a.wait_state(timeout=5)
                    assert state["version"] >= self.seen, "the server forgot a move it had announced"
                    while state["outcome"] is None:
                        self.seen = max(self.seen, state["version"])
                        board = state["view"]["board"]
                        empty = [[r, c] for r, row in enumerate(board) for c, v in enumerate(row) if v is None]
                        mover = socks[state["to_act"][0]]
                        try:
                            ack = await mover.act({"type": "place", "cell": rng.choice(empty)}, state["version"], 5)
                        except ClientError as err:
                            assert err.code == "stale_version", err
                        else:
                            self.seen = max(self.seen, ack["version"])
                        v = state["version"]
                        state = await a.wait_state(lambda s, v=v: s["version"] > v, timeout=5)
                        await asyncio.sleep(rng.uniform(0.0, 0.08))  # people think; games overlap the kills
                    self.seen = max(self.seen, state["version"])
                    self.done = True
            except (OSError, TimeoutError, EOFError, ClientError, websockets.WebSocketException):
                await asyncio.sleep(0.2)  # the server died under us: reconnect, as a browser would

    async def close(self) -> None:
        for client in self.clients:
            await client.http.aclose()


async def _check_database(database_url: str, games: list[Game]) -> None:
    engine = create_async_engine(database_url)
    try:
        async with engine.connect() as conn:
            for game in games:
                row = (
                    await conn.execute(
                        sa.text(
                            "SELECT g.id, g.version, g.options, g.seed, g.status FROM games g "
                            "JOIN rooms r ON r.id = g.room_id WHERE r.code = :code"
                        ),
                        {"code": game.code},
                    )
                ).one()
                game_id, version, options, seed, status = row
                actions = (
                    await conn.execute(
                        sa.text("SELECT version, seat, action FROM game_actions WHERE game_id = :g ORDER BY version"),
                        {"g": game_id},
                    )
                ).all()
                versions = [v for v, _s, _a in actions]
                assert versions == list(range(1, version + 1)), f"room {game.code}: each move exactly once"
                assert version >= game.seen, f"room {game.code}: an announced move was lost"
                assert status == "finished"
                if isinstance(options, str):  # SQLite returns JSON as text through raw SQL
                    import json

                    options = json.loads(options)
                    actions = [(v, s, json.loads(a)) for v, s, a in actions]
                run = replay("tri-tac", options, seed, [{"seat": s, "action": a} for _v, s, a in actions])
                assert run.engine.outcome(run.final) is not None, "the logged moves replay to a finished game"
    finally:
        await engine.dispose()


async def test_kill_9_at_random_moments_loses_nothing(database_url: str) -> None:
    rng = random.Random(2026)
    server = ServerProcess(database_url).start()
    games = [Game(server.url, i) for i in range(ROOMS)]
    try:
        for game in games:
            await game.setup()
        players = [asyncio.create_task(game.play(random.Random(i))) for i, game in enumerate(games)]
        in_progress_at_kill = []
        for kill in range(1, KILLS + 1):
            # Kill at a random moment once every game is at least 10·kill moves in (of 49), so the kills
            # land mid-play however fast the machine is.
            while not all(game.done or game.seen >= 10 * kill for game in games):
                await asyncio.sleep(0.01)
            await asyncio.sleep(rng.uniform(0.0, 0.3))
            in_progress_at_kill.append(sum(game.seen > 0 and not game.done for game in games))
            server.kill()
            await asyncio.sleep(rng.uniform(0.0, 0.3))
            server.start()
        await asyncio.wait_for(asyncio.gather(*players), timeout=120)
        assert all(game.done for game in games)
        assert all(in_progress_at_kill), f"every kill must hit games mid-play: {in_progress_at_kill}"
        await _check_database(database_url, games)
    finally:
        for game in games:
            await game.close()
        server.stop()
