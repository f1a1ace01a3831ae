"""Crash test: many games in progress, the server is kill -9'd at random moments and restarted; every move a
client was told about is in the database exactly once, and every game plays on to its end."""

from __future__ import annotations

import asyncio
import random
from contextlib import AsyncExitStack
from dataclasses import dataclass

import pytest
import sqlalchemy as sa
import websockets
from sqlalchemy.ext.asyncio import create_async_engine

from app.client import ClientError, RoomSocket, ThreefoldClient
from app.live.room import KILL_POINT_VARIABLE
from app.replay import replay
from tests.app.helpers import acting_socket, open_table, wait_all
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
        for seat, client in enumerate(self.clients[1:], start=1):  # A took seat 0 creating the room
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


# ---- around a game's end --------------------------------------------------------------------------------

LAST_VERSION = 9
"""A 3×3 Tri-Tac game ends when the board is full: its ninth move is its last."""
KILL_DELAYS = (0.0, 0.0005, 0.001, 0.002, 0.004)
"""Seconds between sending the last moves and the kill -9: around the commit of a game's end."""
TABLES_PER_KILL = 2


@dataclass
class Ending:
    """A 3×3 Tri-Tac table one move from its end, both players connected."""

    code: str
    clients: list[ThreefoldClient]
    sockets: list[RoomSocket]

    async def send_last_move(self) -> None:
        state = self.sockets[0].state
        assert state is not None and state["version"] == LAST_VERSION - 1
        mover = self.sockets[state["to_act"][0]]
        cell = next([r, c] for r, row in enumerate(state["view"]["board"]) for c, v in enumerate(row) if v is None)
        await mover.send({"type": "act", "action": {"type": "place", "cell": cell}, "version": state["version"]})


async def _one_move_from_the_end(url: str, stack: AsyncExitStack, index: int) -> Ending:
    table = await open_table(url, "tri-tac", {"size": 3}, seed=300 + index, spectator=False, names=["Ann", "Ben"])
    stack.push_async_callback(table.close)
    for _move in range(LAST_VERSION - 1):
        _seat, sock = acting_socket(table)
        state = sock.state
        assert state is not None
        cell = next([r, c] for r, row in enumerate(state["view"]["board"]) for c, v in enumerate(row) if v is None)
        ack = await sock.act({"type": "place", "cell": cell})
        await wait_all(table, ack["version"])
    return Ending(table.code, table.clients, table.sockets)


async def _stored_end(database_url: str, code: str) -> tuple[str, int, list[int], list[int]]:
    """The room's status, its latest game's version, each player's games in its standings and in ratings."""
    engine = create_async_engine(database_url)
    try:
        async with engine.connect() as conn:
            status, room_id = (
                await conn.execute(sa.text("SELECT status, id FROM rooms WHERE code = :code"), {"code": code})
            ).one()
            version = (
                await conn.execute(
                    sa.text("SELECT version FROM games WHERE room_id = :room ORDER BY number DESC LIMIT 1"),
                    {"room": room_id},
                )
            ).scalar_one()
            played = (
                await conn.execute(
                    sa.text("SELECT played FROM standings WHERE room_id = :room ORDER BY player_id"), {"room": room_id}
                )
            ).scalars()
            rated = (
                await conn.execute(
                    sa.text(
                        "SELECT ratings.games FROM ratings JOIN room_seats ON room_seats.player_id = ratings.player_id "
                        "WHERE room_seats.room_id = :room ORDER BY ratings.player_id"
                    ),
                    {"room": room_id},
                )
            ).scalars()
            return str(status), int(version), list(played), list(rated)
    finally:
        await engine.dispose()


async def _finish_and_rematch(database_url: str, ending: Ending) -> None:
    """After a restart: the game ends (now, if the kill came before its last move was stored), the room is
    finished with the game in its standings and ratings exactly once, and the host's rematch starts."""
    async with AsyncExitStack() as stack:
        sockets = [await stack.enter_async_context(client.connect(ending.code)) for client in ending.clients]
        state = await sockets[0].wait_state()
        if state["outcome"] is None:
            assert state["version"] == LAST_VERSION - 1, "a move that was never sent was stored"
            for sock in sockets:
                await sock.wait_state()
            await Ending(ending.code, ending.clients, sockets).send_last_move()
            state = await sockets[0].wait_state(lambda s: s["outcome"] is not None)
        assert state["version"] == LAST_VERSION
        room = await sockets[0].wait_room(lambda r: r["status"] != "playing")
        assert room["status"] == "finished"
        assert [row["played"] for row in room["standings"]] == [1, 1], room["standings"]
        assert await _stored_end(database_url, ending.code) == ("finished", LAST_VERSION, [1, 1], [1, 1])
        await sockets[0].request({"type": "rematch"})
        fresh = await sockets[0].wait_state(lambda s: s["version"] == 0 and s["outcome"] is None)
        assert fresh["to_act"]


async def test_a_kill_just_after_a_games_end_is_stored_leaves_a_room_that_can_rematch(database_url: str) -> None:
    """The server kills itself right after committing a game's last move (a test-only fault point): the
    room's finish and the game's standings and ratings were committed with that move, so the room is not
    left "playing" (it was, for good: the room's change came in a second transaction)."""
    server = ServerProcess(database_url, extra_env={KILL_POINT_VARIABLE: "game_end_stored"}).start()
    try:
        async with AsyncExitStack() as stack:
            ending = await _one_move_from_the_end(server.url, stack, 0)
            await ending.send_last_move()
            assert server.proc is not None
            await asyncio.to_thread(server.proc.wait, 10)
        assert await _stored_end(database_url, ending.code) == ("finished", LAST_VERSION, [1, 1], [1, 1])
        server.extra_env = {}
        server.start()
        await _finish_and_rematch(database_url, ending)
    finally:
        server.stop()


async def test_a_room_left_playing_after_its_game_ended_is_repaired_on_load(database_url: str) -> None:
    """A database from before the game's end and the room's finish were one transaction may hold a room
    still "playing" whose game is over, without that game's standings and ratings. Loading the room finishes
    it and records them, once: a second restart adds nothing."""
    server = ServerProcess(database_url).start()
    try:
        async with AsyncExitStack() as stack:
            ending = await _one_move_from_the_end(server.url, stack, 1)
            await ending.send_last_move()
            await ending.sockets[0].wait_state(lambda s: s["outcome"] is not None)
        server.kill()
        engine = create_async_engine(database_url)
        try:
            async with engine.begin() as conn:
                room = {"code": ending.code}
                room_id = (await conn.execute(sa.text("SELECT id FROM rooms WHERE code = :code"), room)).scalar_one()
                await conn.execute(sa.text("UPDATE rooms SET status = 'playing' WHERE id = :room"), {"room": room_id})
                await conn.execute(sa.text("DELETE FROM standings WHERE room_id = :room"), {"room": room_id})
                await conn.execute(
                    sa.text(
                        "DELETE FROM ratings WHERE player_id IN "
                        "(SELECT player_id FROM room_seats WHERE room_id = :room)"
                    ),
                    {"room": room_id},
                )
        finally:
            await engine.dispose()
        assert await _stored_end(database_url, ending.code) == ("playing", LAST_VERSION, [], [])
        server.start()
        async with ending.clients[0].connect(ending.code) as host:
            room_summary = await host.wait_room(lambda _r: True)
            assert room_summary["status"] == "finished"
            assert [row["played"] for row in room_summary["standings"]] == [1, 1]
        assert await _stored_end(database_url, ending.code) == ("finished", LAST_VERSION, [1, 1], [1, 1])
        server.kill()
        server.start()
        await _finish_and_rematch(database_url, ending)
    finally:
        server.stop()


async def test_kill_9_at_many_points_around_a_games_end(database_url: str) -> None:
    """Last moves sent in several rooms at once, the server killed a few hundred microseconds to a few
    milliseconds later, restarted: each room either still waits for its last move or is finished with its
    standings, and every one can rematch."""
    server = ServerProcess(database_url).start()
    try:
        for round_, delay in enumerate(KILL_DELAYS):
            async with AsyncExitStack() as stack:
                endings = [
                    await _one_move_from_the_end(server.url, stack, 10 + round_ * TABLES_PER_KILL + index)
                    for index in range(TABLES_PER_KILL)
                ]
                for ending in endings:
                    await ending.send_last_move()
                await asyncio.sleep(delay)
                server.kill()
            server.start()
            for ending in endings:
                await _finish_and_rematch(database_url, ending)
    finally:
        server.stop()
