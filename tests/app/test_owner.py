"""Each room has one owner process (app.live.leases): routed to it by nginx, taken over from the database when
it dies, drains or is cut off, and a process that lost a room's lease can no longer write it."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import time
from collections.abc import AsyncIterator, Iterator
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest
import websockets
from sqlalchemy import insert, text
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from app.client import ClientError, RoomSocket, ThreefoldClient
from app.db import make_engine, make_sessionmaker, postgres_dsn
from app.live.leases import Elsewhere
from app.live.postgres_store import PostgresStore
from app.live.records import LeaseLost, MoveWrite, NewGame, NewRoom, RoomRecord, VersionConflict
from app.models import Player
from tests.app.test_scale_out import Cluster, cluster
from tests.app.test_ws_tri_tac import empty_cells
from tests.support.nginx import nginx_in_front
from tests.support.server import ServerProcess, alembic_upgrade, free_port
from tests.support.services import postgres_database

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.real_process]

Message = dict[str, Any]


async def metric(process: ServerProcess, name: str) -> float:
    """One of the process' metrics (/metrics needs no database, unlike /healthz)."""
    async with httpx.AsyncClient() as http:
        for line in (await http.get(f"{process.url}/metrics")).text.splitlines():
            if line.startswith(f"{name} "):
                return float(line.split()[1])
    return 0.0


async def loaded_rooms(process: ServerProcess) -> int:
    return int(await metric(process, "threefold_rooms_active"))


async def relayed_sockets(process: ServerProcess) -> float:
    return await metric(process, "threefold_relayed_sockets_total")


async def owner_of(processes: list[ServerProcess]) -> ServerProcess:
    """The one process that has the (only) room loaded."""
    counts = [await loaded_rooms(p) for p in processes]
    assert sorted(counts) == [0] * (len(processes) - 1) + [1], counts
    return processes[counts.index(1)]


async def move(sock: RoomSocket, state: Message) -> Message:
    """Place on the first empty cell; the new state, once this socket has it."""
    ack = await sock.act({"type": "place", "cell": empty_cells(state)[0]}, version=state["version"])
    version = ack["version"]
    return await sock.wait_state(lambda s: s["version"] == version)


async def sit_and_start(sa: RoomSocket, sb: RoomSocket) -> Message:
    """Ann (``sa``, the host) has seat 0 from creating the room, Ben takes seat 1, Ann starts: the first state."""
    await sa.wait_room(lambda r: True)
    await sb.wait_room(lambda r: r["seats"][0]["player"] is not None)
    await sb.send({"type": "sit", "seat": 1})
    await sa.wait_room(lambda r: r["seats"][1]["player"] is not None)
    await sa.send({"type": "start"})
    return await sa.wait_state()


# --- routing -------------------------------------------------------------------------------------------------


async def test_rooms_played_through_the_proxy_each_live_in_one_process() -> None:
    """Three processes behind deploy/nginx.conf: every request and socket of a room reaches the same process,
    so each room is loaded by exactly one, nothing is relayed, and the rooms spread over the processes."""
    with cluster() as servers:
        processes = [servers.start() for _ in range(3)]
        with nginx_in_front([p.port for p in processes]) as proxy:

            async def play(index: int) -> None:
                async with ThreefoldClient(proxy) as ann, ThreefoldClient(proxy) as ben:
                    await ann.set_name(f"Ann {index}")
                    await ben.set_name(f"Ben {index}")
                    code = await ann.create_room("tri-tac", {"size": 3})
                    assert (await ben.room(code))["code"] == code
                    async with ann.connect(code) as sa, ben.connect(code) as sb:
                        state = await sit_and_start(sa, sb)
                        socks = {0: sa, 1: sb}
                        while state["outcome"] is None:
                            state = await move(socks[state["to_act"][0]], state)
                            await sa.wait_state(lambda s, v=state["version"]: s["version"] == v)

            await asyncio.gather(*(play(i) for i in range(9)))
            counts = [await loaded_rooms(p) for p in processes]
            assert sum(counts) == 9, counts
            assert sum(1 for count in counts if count) >= 2, counts  # all nine on one: 3 in 3^9
            assert [await relayed_sockets(p) for p in processes] == [0.0, 0.0, 0.0]


# --- failover ------------------------------------------------------------------------------------------------


async def test_the_owner_killed_mid_game_the_game_finishes_on_another() -> None:
    """Ann plays a bot through the proxy; the room's owner is killed with SIGKILL mid-game. Ann reconnects
    through the proxy, which sends her to the other process; it takes the room over from the database once
    the lease runs out: same version, the bot moves again by itself, and the game ends there. No move is
    lost or played twice (the final version is the number of moves), and the wait from the kill to Ann's
    first accepted move stays under 5 s."""
    with cluster() as servers:
        processes = [servers.start(), servers.start()]
        with nginx_in_front([p.port for p in processes]) as proxy:
            async with ThreefoldClient(proxy) as ann:
                await ann.set_name("Ann")
                code = await ann.create_room("tri-tac", {"size": 4}, seed=3)
                async with ann.connect(code) as sock:
                    await sock.wait_room(lambda r: True)
                    await sock.start_against_a_bot()
                    state = await sock.wait_state(lambda s: s["to_act"] == [0])
                    for _ in range(3):  # Ann's move, the bot's answer
                        state = await move(sock, state)
                        state = await sock.wait_state(lambda s: s["to_act"] == [0] or s["outcome"] is not None)
                    played = state["version"]
                    assert played == 6
                    owner = await owner_of(processes)
                    killed_at = time.monotonic()
                    owner.kill()
                    await asyncio.wait_for(sock.closed.wait(), 5)

                async with ann.connect(code) as sock:
                    state = await sock.wait_state(timeout=10)
                    assert state["version"] == played
                    state = await move(sock, state)
                    waited = time.monotonic() - killed_at
                    print(f"failover: {waited:.2f} s from SIGKILL to the first move accepted again")
                    assert waited < 5
                    while state["outcome"] is None:
                        state = await sock.wait_state(lambda s: s["to_act"] == [0] or s["outcome"] is not None)
                        if state["outcome"] is None:
                            state = await move(sock, state)
                    total = state["version"]
                    log = state["log"]
            survivor = next(p for p in processes if p is not owner)
            assert await loaded_rooms(survivor) == 1
        assert total > played
        assert len(log) == total, "every move once in the log"


def two_players(proxy: str) -> contextlib.AbstractAsyncContextManager[tuple[ThreefoldClient, ThreefoldClient]]:
    @contextlib.asynccontextmanager
    async def opened() -> AsyncIterator[tuple[ThreefoldClient, ThreefoldClient]]:
        async with ThreefoldClient(proxy) as a, ThreefoldClient(proxy) as b:
            yield a, b

    return opened()


async def play_on_through_restarts(proxy: str, index: int, stop: asyncio.Event) -> tuple[str, int, set[int], int]:
    """A 12×12 Tri-Tac game through the proxy that reconnects whenever its sockets close and resyncs by
    version, until it ends. Returns its room, final version, the versions acked and the reconnects it took."""
    async with two_players(proxy) as (ann, ben):
        await ann.set_name(f"Ann {index}")
        await ben.set_name(f"Ben {index}")
        code = await ann.create_room("tri-tac", {"size": 12})
        acked: set[int] = set()
        reconnects = -1
        started = False
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            reconnects += 1
            try:
                async with ann.connect(code) as sa, ben.connect(code) as sb:
                    if not started:
                        await sit_and_start(sa, sb)
                        started = True
                    socks = {0: sa, 1: sb}
                    state = await sa.wait_state(timeout=8)
                    while state["outcome"] is None:
                        mover = socks[state["to_act"][0]]
                        state = await mover.wait_state(lambda s, v=state["version"]: s["version"] >= v, timeout=8)
                        if not stop.is_set():  # paced until both restarts are done: every game outlasts them
                            with contextlib.suppress(TimeoutError):
                                await asyncio.wait_for(stop.wait(), 0.3)
                        else:  # then under the server's 20 messages a second per socket
                            await asyncio.sleep(0.06)
                        try:
                            ack = await mover.act(
                                {"type": "place", "cell": empty_cells(state)[0]}, version=state["version"], timeout=8
                            )
                        except ClientError as err:
                            if err.code not in ("stale_version", "moved"):
                                raise
                            state = await mover.wait_state(timeout=8)
                            continue
                        acked.add(ack["version"])
                        state = await sa.wait_state(lambda s, v=ack["version"]: s["version"] >= v, timeout=8)
                    return code, state["version"], acked, reconnects
            except (TimeoutError, websockets.ConnectionClosed, websockets.InvalidHandshake, OSError):
                continue
        raise AssertionError(f"game {index} did not finish in 120 s")


async def test_a_rolling_restart_under_load_keeps_every_game_going() -> None:
    """Two processes behind the proxy, six games being played; each process in turn is stopped (SIGTERM: it
    drains and gives its leases up) and started again on its port. Every game ends, every acked move is in
    it exactly once (its final version is its number of moves, and no acked version is above it)."""
    with cluster() as servers:
        processes = [servers.start(), servers.start()]
        with nginx_in_front([p.port for p in processes]) as proxy:
            stop = asyncio.Event()
            games = [asyncio.create_task(play_on_through_restarts(proxy, i, stop)) for i in range(6)]

            async def moves_done() -> float:
                return sum([await metric(p, "threefold_moves_total") for p in processes])

            for index, process in enumerate(processes):
                async with asyncio.timeout(60):  # under load: moves are being made on this process' watch
                    done = await moves_done()
                    while await moves_done() < done + 10:
                        await asyncio.sleep(0.05)
                await asyncio.to_thread(process.stop)
                restarted = ServerProcess(
                    process.database_url, redis_url=process.redis_url, port=process.port, extra_env=servers.extra_env
                )
                await asyncio.to_thread(restarted.start)
                servers.processes.append(restarted)
                processes[index] = restarted
            stop.set()
            results = await asyncio.gather(*games)
            stored = await stored_games(servers.database_url, [code for code, *_ in results])
        for code, version, acked, reconnects in results:
            # Every acked move is stored once, in order: one action a version, 1 to the final one.
            assert acked and acked <= set(range(1, version + 1)), (version, sorted(acked))
            assert stored[code] == (version, list(range(1, version + 1))), code
            assert reconnects >= 1, "every game was going on through a restart of its process"


async def stored_games(url: str, codes: list[str]) -> dict[str, tuple[int, list[int]]]:
    """Each room's latest game as stored: its version and its actions' versions, in order."""
    engine = create_async_engine(url)
    try:
        async with engine.connect() as db:
            found: dict[str, tuple[int, list[int]]] = {}
            for code in codes:
                game_id, version = (
                    await db.execute(
                        text(
                            "SELECT g.id, g.version FROM games g JOIN rooms r ON r.id = g.room_id "
                            "WHERE r.code = :code ORDER BY g.number DESC LIMIT 1"
                        ),
                        {"code": code},
                    )
                ).one()
                versions = await db.execute(
                    text("SELECT version FROM game_actions WHERE game_id = :id ORDER BY version"), {"id": game_id}
                )
                found[code] = (version, [row[0] for row in versions])
            return found
    finally:
        await engine.dispose()


# --- the lease itself ----------------------------------------------------------------------------------------


@contextlib.contextmanager
def migrated_database() -> Iterator[str]:
    with postgres_database(alembic_upgrade) as url:
        yield url


def owning_store(url: str, seconds: float) -> PostgresStore:
    dsn = postgres_dsn(url)
    assert dsn is not None
    store = PostgresStore(make_sessionmaker(make_engine(url, 2, 0)), dsn, 2)
    assert store.own_rooms("http://127.0.0.1:1", seconds) is not None
    return store


async def close_store(store: PostgresStore) -> None:
    await store.close()
    bind = store.sessions.kw["bind"]
    await bind.dispose()


@contextlib.asynccontextmanager
async def two_owners() -> AsyncIterator[tuple[PostgresStore, PostgresStore, AsyncEngine]]:
    """Two owning stores on one fresh database (as two processes would have, with 0.5 s leases), and an
    engine to look at what was stored; player 1 (Ann) exists."""
    with migrated_database() as url:
        one, two = owning_store(url, 0.5), owning_store(url, 0.5)
        engine = create_async_engine(url)
        try:
            async with engine.begin() as db:
                await db.execute(insert(Player).values(id=1, token_hash="x", name="Ann"))
            yield one, two, engine
        finally:
            await engine.dispose()
            for store in (one, two):
                await close_store(store)


async def test_two_processes_race_for_a_free_room_one_wins_and_the_loser_cannot_write() -> None:
    """Two owners (as two processes would) take the same free rooms at the same moment: each room gets exactly
    one. Once a lease has run out and the other took it, the first one's writes of that room are all refused
    (move, lobby save, chat), even though it has not renewed or noticed anything; the new owner's go through."""
    async with two_owners() as (one, two, engine):
        assert one.leases is not None and two.leases is not None
        codes = [f"R{i:04d}" for i in range(20)]
        for code in codes:
            await one.create_room(NewRoom(code, 1, "tri-tac", {"size": 3}, 2, None))
        # The race is taken with long leases: on a loaded machine the second of a pair can start more than
        # 0.5 s after the first won, and would then take an expired lease, rightly.
        one.leases.seconds = two.leases.seconds = 60.0
        results = await asyncio.gather(
            *(asyncio.gather(one.leases.acquire(code), two.leases.acquire(code)) for code in codes)
        )
        for first, second in results:
            assert [isinstance(r, Elsewhere) for r in (first, second)].count(True) == 1, (first, second)
        one.leases.seconds = two.leases.seconds = 0.5

        code = codes[0]
        room = await one.load_room(code)
        assert room is not None
        owner, other = (one, two) if room.id in one.leases.epochs else (two, one)
        assert owner.leases is not None and other.leases is not None
        assert await owner.leases.acquire(code) == room.id  # its own lease again, now for 0.5 s
        game_id = await owner.create_game(NewGame(room.id, 1, "tri-tac", {"size": 3}, 1, [{}, {}], {}, None, None))
        await owner.record_move(_move(game_id, 1, room.id))

        async with asyncio.timeout(5):  # the owner stops renewing (paused, partitioned): it runs out
            while isinstance(await other.leases.acquire(code), Elsewhere):
                await asyncio.sleep(0.05)
        assert room.id in owner.leases.epochs, "the old owner has not noticed"

        with pytest.raises(LeaseLost):
            await owner.record_move(_move(game_id, 2, room.id))
        with pytest.raises(LeaseLost):
            await owner.save_room(_copy(room))
        with pytest.raises(LeaseLost):
            await owner.create_game(NewGame(room.id, 2, "tri-tac", {"size": 3}, 1, [{}, {}], {}, None, None))
        await other.record_move(_move(game_id, 2, room.id))
        await other.save_room(_copy(await other.load_room(code)))
        async with engine.connect() as db:
            version = (await db.execute(text(f"SELECT version FROM games WHERE id = {game_id}"))).scalar()
            actions = (await db.execute(text(f"SELECT count(*) FROM game_actions WHERE game_id = {game_id}"))).scalar()
        assert (version, actions) == (2, 2)
        assert await owner.leases.renew() == {room.id}, "its next renewal tells it"


async def test_moves_of_many_rooms_go_in_one_statement_and_a_lost_room_is_refused_alone(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The moves asked for at once, across the rooms a process owns, are written in one statement, each row
    under its own room's lease: a room another process took over meanwhile is refused (LeaseLost), a move
    over a stale version is refused (VersionConflict), and every other move is stored."""
    async with two_owners() as (one, two, engine):
        assert one.leases is not None and two.leases is not None
        rooms: list[tuple[int, int]] = []  # (room id, game id)
        for i in range(6):
            code = f"G{i:04d}"
            await one.create_room(NewRoom(code, 1, "tri-tac", {"size": 3}, 2, None))
            room_id = await one.leases.acquire(code)
            assert isinstance(room_id, int)
            game = NewGame(room_id, 1, "tri-tac", {"size": 3}, 1, [{}, {}], {}, None, None)
            rooms.append((room_id, await one.create_game(game)))
        await asyncio.gather(*(one.record_move(_move(game_id, 1, room_id)) for room_id, game_id in rooms))

        async with asyncio.timeout(5):  # the first room's lease runs out and the other process takes it
            while isinstance(await two.leases.acquire("G0000"), Elsewhere):
                await asyncio.sleep(0.05)
        groups: list[int] = []  # the moves in each statement
        commit = one._pg._group._commit

        async def counted(group: list[Any]) -> Any:
            groups.append(len(group))
            return await commit(group)

        monkeypatch.setattr(one._pg._group, "_commit", counted)
        versions = [2, 1, 2, 2, 2, 2]  # the second room's move is over a version already stored
        outcomes = await asyncio.gather(
            *(
                one.record_move(_move(game_id, version, room_id))
                for (room_id, game_id), version in zip(rooms, versions, strict=True)
            ),
            return_exceptions=True,
        )
        assert isinstance(outcomes[0], LeaseLost)
        assert isinstance(outcomes[1], VersionConflict)
        assert outcomes[2:] == [None] * 4
        assert groups == [6], "one statement for the group"
        async with engine.connect() as db:
            stored = (await db.execute(text("SELECT game_id, max(version) FROM game_actions GROUP BY game_id"))).all()
            games = dict((await db.execute(text("SELECT id, version FROM games"))).all())
        assert dict(stored) == {game_id: [1, 1, 2, 2, 2, 2][i] for i, (_r, game_id) in enumerate(rooms)}
        assert games == dict(stored)


def _move(game_id: int, version: int, room_id: int) -> MoveWrite:
    return MoveWrite(
        game_id, version, 0, {"type": "place", "cell": [0, version]}, "player", None, None, None, None, room_id
    )


def _copy(room: RoomRecord | None) -> RoomRecord:
    assert room is not None
    return dataclasses.replace(room)


# --- partition -----------------------------------------------------------------------------------------------


class CuttableLink:
    """A TCP relay to PostgreSQL that the test can cut: every connection through it drops, new ones fail."""

    def __init__(self, target_port: int = 5432) -> None:
        self.port = free_port()
        self.target_port = target_port
        self._server: asyncio.Server | None = None
        self._writers: set[asyncio.StreamWriter] = set()

    async def start(self) -> None:
        self._server = await asyncio.start_server(self._pipe, "127.0.0.1", self.port)

    async def _pipe(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.target_port)
        self._writers |= {writer, up_writer}

        async def copy(source: asyncio.StreamReader, sink: asyncio.StreamWriter) -> None:
            with contextlib.suppress(Exception):
                while data := await source.read(65536):
                    sink.write(data)
                    await sink.drain()
            sink.close()

        await asyncio.gather(copy(reader, up_writer), copy(up_reader, writer))

    def in_front_of(self, url: str) -> str:
        """``url`` (of the service this link leads to) through the link."""
        through = url.replace(f"127.0.0.1:{self.target_port}", f"127.0.0.1:{self.port}")
        assert through != url, url
        return through

    async def cut(self) -> None:
        assert self._server is not None
        self._server.close()
        for writer in self._writers:
            writer.transport.abort()
        self._writers.clear()


async def one_behind_the_link_and_another(servers: Cluster, one: ServerProcess) -> tuple[ServerProcess, ServerProcess]:
    """``one`` started (off the loop: the link runs on it) and a second process of the cluster, reaching
    everything directly."""
    started = await asyncio.to_thread(one.start)
    servers.processes.append(started)
    return started, await asyncio.to_thread(servers.start)


@dataclasses.dataclass
class Table:
    ann: ThreefoldClient
    ben: ThreefoldClient
    code: str
    socks: dict[int, RoomSocket]
    """By seat: Ann's in 0, Ben's in 1."""
    state: Message
    """The game's first state."""


@contextlib.asynccontextmanager
async def tri_tac_under_way(url: str, size: int) -> AsyncIterator[Table]:
    """Ann and Ben at a Tri-Tac table on ``url``, its game started."""
    async with ThreefoldClient(url) as ann, ThreefoldClient(url) as ben:
        await ann.set_name("Ann")
        await ben.set_name("Ben")
        code = await ann.create_room("tri-tac", {"size": size})
        async with ann.connect(code) as sa, ben.connect(code) as sb:
            yield Table(ann, ben, code, {0: sa, 1: sb}, await sit_and_start(sa, sb))


async def test_a_process_cut_off_from_postgresql_stops_serving_its_rooms() -> None:
    """Process one reaches PostgreSQL through a link the test cuts mid-game. It cannot renew its lease, so it
    closes the room's sockets before the lease runs out (instead of going on alone); process two then takes
    the room over from the database, at the version the game had, and the game goes on there."""
    link = CuttableLink()
    await link.start()
    with cluster() as servers:
        one, two = await one_behind_the_link_and_another(
            servers, ServerProcess(link.in_front_of(servers.database_url), redis_url=servers.redis_url)
        )
        async with tri_tac_under_way(one.url, 4) as table:
            sa, sb = table.socks[0], table.socks[1]
            state = table.state
            for _ in range(3):
                state = await move(table.socks[state["to_act"][0]], state)
                await sa.wait_state(lambda s, v=state["version"]: s["version"] == v)
            cut_at = time.monotonic()
            await link.cut()
            await asyncio.wait_for(asyncio.gather(sa.closed.wait(), sb.closed.wait()), 5)
            assert (sa.close_code, sb.close_code) == (1012, 1012)
            print(f"partition: sockets closed {time.monotonic() - cut_at:.2f} s after the cut")
        assert await loaded_rooms(one) == 0

        ann_two = ThreefoldClient(two.url, token=table.ann.token)
        ben_two = ThreefoldClient(two.url, token=table.ben.token)
        try:
            async with ann_two.connect(table.code) as sa, ben_two.connect(table.code) as sb:
                state = await sa.wait_state(timeout=10)
                assert state["version"] == 3
                socks = {0: sa, 1: sb}
                state = await move(socks[state["to_act"][0]], state)
                assert state["version"] == 4
        finally:
            await ann_two.http.aclose()
            await ben_two.http.aclose()


async def test_a_process_cut_off_from_redis_keeps_serving_its_rooms_with_one_history() -> None:
    """Process one reaches Redis through a link the test cuts mid-game. Redis carries no moves and no leases
    (those are in PostgreSQL), so the owner goes on serving the room: moves, a chat line, a new socket to it
    and a game's end all work without Redis, and process two, asked for the room, relays the socket to the
    owner instead of taking the room over, so the room keeps one history."""
    with cluster() as servers:
        link = CuttableLink(target_port=urlsplit(servers.redis_url).port or 6379)
        await link.start()
        one, two = await one_behind_the_link_and_another(
            servers, ServerProcess(servers.database_url, redis_url=link.in_front_of(servers.redis_url))
        )
        async with tri_tac_under_way(one.url, 3) as table:
            sa, sb = table.socks[0], table.socks[1]
            state = await move(table.socks[table.state["to_act"][0]], table.state)
            await link.cut()

            state = await move(table.socks[state["to_act"][0]], state)  # the owner still applies moves
            await sa.send({"type": "chat", "text": "still here"})
            await sb.next(lambda m: m["type"] == "chat" and m.get("text") == "still here")
            async with ThreefoldClient(one.url) as cara:  # a new socket, past the join limiter
                await cara.set_name("Cara")
                async with cara.connect(table.code) as sc:
                    assert (await sc.wait_state())["version"] == state["version"]

            ann_two = ThreefoldClient(two.url, token=table.ann.token)
            try:
                async with ann_two.connect(table.code) as relayed:  # two relays to the owner, not a takeover
                    assert (await relayed.wait_state())["version"] == state["version"]
                    while state["outcome"] is None:
                        sock = relayed if state["to_act"][0] == 0 else sb
                        state = await move(sock, state)
                        await sb.wait_state(lambda s, v=state["version"]: s["version"] == v)
            finally:
                await ann_two.http.aclose()
            assert not sa.closed.is_set() and not sb.closed.is_set()
            assert await loaded_rooms(one) == 1
            assert await loaded_rooms(two) == 0
            assert await relayed_sockets(two) >= 1
