"""Two app processes against one PostgreSQL and one Redis: players of one room on different processes see
every move; when one process dies its player reconnects to the other and the game completes."""

from __future__ import annotations

import asyncio
import contextlib
import signal
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from typing import Any

import pytest

from app.client import ThreefoldClient
from tests.app.helpers import open_table
from tests.app.test_ws_tri_tac import empty_cells
from tests.support.server import ServerProcess, alembic_upgrade
from tests.support.services import postgres_database, require_redis

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.real_process]


class Cluster:
    """App processes sharing one fresh, migrated PostgreSQL database and the test Redis."""

    def __init__(self, database_url: str, redis_url: str, extra_env: dict[str, str] | None) -> None:
        self.database_url, self.redis_url, self.extra_env = database_url, redis_url, extra_env
        self.processes: list[ServerProcess] = []

    def start(self) -> ServerProcess:
        process = ServerProcess(self.database_url, redis_url=self.redis_url, extra_env=self.extra_env).start()
        self.processes.append(process)
        return process


@contextlib.contextmanager
def cluster(extra_env: dict[str, str] | None = None) -> Iterator[Cluster]:
    """A cluster whose every process (killed ones too) is stopped when the block ends."""
    redis_url = require_redis()
    with postgres_database(alembic_upgrade) as database_url:
        servers = Cluster(database_url, redis_url, extra_env)
        try:
            yield servers
        finally:
            for process in servers.processes:
                process.stop()


async def test_one_room_across_two_processes() -> None:
    with cluster() as servers:
        one, two = servers.start(), servers.start()
        async with ThreefoldClient(one.url) as a, ThreefoldClient(one.url) as b:
            await a.set_name("Ann")
            await b.set_name("Ben")
            code = await a.create_room("tri-tac", {"size": 4}, seed=2)
            b_on_two = ThreefoldClient(two.url, token=b.token)
            async with contextlib.AsyncExitStack() as sockets:
                sa = await sockets.enter_async_context(a.connect(code))
                # Ann's process has the room (and its lease) before Ben's socket reaches the other one.
                await sa.next(lambda m: m["type"] == "room")
                sb = await sockets.enter_async_context(b_on_two.connect(code))
                await sb.next(lambda m: m["type"] == "room")
                await sb.wait_room(lambda r: r["seats"][0]["player"] is not None)  # Ann sat when creating it
                await sb.send({"type": "sit", "seat": 1})
                await sa.wait_room(lambda r: r["seats"][1]["player"] is not None)
                # Presence crosses processes too.
                room = await sa.wait_room(lambda r: r["seats"][1]["player"]["connected"])
                assert room["seats"][1]["player"]["name"] == "Ben"
                await sa.send({"type": "start"})
                socks = {0: sa, 1: sb}
                state = await sb.wait_state()
                for _ in range(6):
                    mover = socks[state["to_act"][0]]
                    cell = empty_cells(state)[0]
                    ack = await mover.act({"type": "place", "cell": cell}, version=state["version"])
                    v = ack["version"]
                    state = await sa.wait_state(lambda s, v=v: s["version"] == v)
                    other = await sb.wait_state(lambda s, v=v: s["version"] == v)
                    # The process that did not take the move catches up from the database: the same
                    # board, log, turn and timer as the process that wrote it.
                    for key in ("view", "log", "to_act", "deadline", "outcome"):
                        assert other[key] == state[key], key
            # ... and process two applied none of them: the room has one owner, and two relayed Ben's socket
            # to it (app.live.relay), so no move crossed the bus to be read back and played again there.
            metrics = (await b_on_two.http.get("/metrics")).text
            assert "\nthreefold_moves_total 0.0\n" in metrics
            assert "\nthreefold_rooms_active 0.0\n" in metrics
            await b_on_two.http.aclose()

            # Process one dies; Ann reconnects to process two and the game completes there.
            one.kill()
            a_on_two = ThreefoldClient(two.url, token=a.token)
            b_on_two = ThreefoldClient(two.url, token=b.token)
            async with a_on_two.connect(code) as sa, b_on_two.connect(code) as sb:
                state = await sa.wait_state()
                assert state["version"] == 6
                socks = {0: sa, 1: sb}
                while state["outcome"] is None:
                    mover = socks[state["to_act"][0]]
                    cell = empty_cells(state)[0]
                    ack = await mover.act({"type": "place", "cell": cell}, version=state["version"])
                    v = ack["version"]
                    state = await sa.wait_state(lambda s, v=v: s["version"] == v)
                assert state["version"] == 16
            await a_on_two.http.aclose()
            await b_on_two.http.aclose()


async def test_lobby_changes_on_two_processes_at_once_are_not_lost() -> None:
    """The two players of each room sit at the same moment, one through each process: a process saving the
    seat table from a copy that lacks the other's sit must not undo it (both stay seated, everywhere)."""
    with cluster() as servers:
        one, two = servers.start(), servers.start()
        clients: list[ThreefoldClient] = []

        def seated(room: dict[str, Any]) -> list[str | None]:
            return [s["player"] and s["player"]["name"] for s in room["seats"]]

        async def race(index: int) -> str:
            a, b = ThreefoldClient(one.url), ThreefoldClient(two.url)
            clients.extend((a, b))
            await a.set_name(f"Ann {index}")
            await b.set_name(f"Ben {index}")
            code = await a.create_room("tri-tac", {"size": 3})
            expected = [f"Ann {index}", f"Ben {index}"]
            async with a.connect(code) as sa, b.connect(code) as sb:
                # Ann took seat 0 when creating the room: she stands, to sit again as Ben sits.
                await sa.send({"type": "stand"})
                await sa.wait_room(lambda r: seated(r) == [None, None])
                await sb.wait_room(lambda r: seated(r) == [None, None])
                await asyncio.gather(sa.send({"type": "sit", "seat": 0}), sb.send({"type": "sit", "seat": 1}))
                await sa.wait_room(lambda r: seated(r) == expected)
                await sb.wait_room(lambda r: seated(r) == expected)
            return code

        try:
            codes = await asyncio.gather(*(race(i) for i in range(12)))
            # A third process knows only what the database holds.
            async with ThreefoldClient(servers.start().url) as look:
                for index, code in enumerate(codes):
                    assert seated(await look.room(code)) == [f"Ann {index}", f"Ben {index}"]
        finally:
            for client in clients:
                await client.http.aclose()


@asynccontextmanager
async def ann_and_ben(
    one: ServerProcess, two: ServerProcess
) -> AsyncIterator[tuple[ThreefoldClient, ThreefoldClient, str]]:
    """Ann on process one, Ben on process two, and a 3×3 Tri-Tac room Ann opened."""
    async with ThreefoldClient(one.url) as ann, ThreefoldClient(two.url) as ben:
        await ann.set_name("Ann")
        await ben.set_name("Ben")
        yield ann, ben, await ann.create_room("tri-tac", {"size": 3})


async def test_the_players_of_a_process_that_dies_count_as_gone() -> None:
    """A process killed with players connected cannot say they left. The others stop hearing its heartbeat
    and count them as gone: shown away, and the host's role passes to someone still here. A process that
    loads the room later asks who is connected elsewhere instead of waiting for someone to come or go."""
    fast = {"THREEFOLD_BUS_HEARTBEAT_SECONDS": "0.5", "THREEFOLD_HOST_GRACE_SECONDS": "0.5"}
    with cluster(fast) as servers:
        one, two, three = servers.start(), servers.start(), servers.start()
        async with ann_and_ben(one, two) as (ann, ben, code), ann.connect(code) as sa, ben.connect(code) as sb:
            await sb.wait_room(lambda r: r["seats"][0]["player"] is not None)
            await sb.send({"type": "sit", "seat": 1})
            await sb.wait_room(lambda r: r["seats"][0]["player"]["connected"])
            await sa.wait_room(lambda r: r["seats"][1]["player"] and r["seats"][1]["player"]["connected"])

            # Process three has not loaded the room: its first look must show both connected.
            async with ThreefoldClient(three.url) as cat:
                await cat.set_name("Cat")
                async with cat.connect(code) as sc:
                    room = await sc.wait_room(
                        lambda r: all(s["player"] and s["player"]["connected"] for s in r["seats"][:2]),
                        timeout=5,
                    )
                    assert [s["player"]["name"] for s in room["seats"][:2]] == ["Ann", "Ben"]

                    one.kill()  # Ann's socket dies with it, unannounced
                    # Process one owned the room: Ben's and Cat's sockets were relayed to it, and the process
                    # that takes the room over shows Ben connected once his socket is attached there again.
                    for watcher in (sb, sc):
                        await watcher.wait_room(
                            lambda r: not r["seats"][0]["player"]["connected"] and r["seats"][1]["player"]["connected"],
                            timeout=5,
                        )
                    room = await sb.wait_room(lambda r: r["host"] != ann.player_id, timeout=5)
                    assert room["host"] in (ben.player_id, cat.player_id)


async def test_a_process_that_was_only_slow_gets_its_players_back() -> None:
    """A process stopped for longer than three heartbeats is counted as gone, its players with it; when it is
    heard again, the others ask who is connected through it instead of showing its players away for good."""
    with cluster({"THREEFOLD_BUS_HEARTBEAT_SECONDS": "0.2"}) as servers:
        one, two = servers.start(), servers.start()
        async with ann_and_ben(one, two) as (ann, ben, code), ann.connect(code) as sa:
            # Process one owns the room before Ben's socket reaches two, which relays it there: were two the
            # owner, stopping it would freeze the room itself, not only Ben's way in.
            await sa.wait_room(lambda r: True)
            async with ben.connect(code) as sb:
                await sb.send({"type": "sit", "seat": 1})
                await sa.wait_room(lambda r: r["seats"][1]["player"] and r["seats"][1]["player"]["connected"])

                assert two.proc is not None
                two.proc.send_signal(signal.SIGSTOP)  # alive, sockets open, but silent
                try:
                    await sa.wait_room(lambda r: not r["seats"][1]["player"]["connected"], timeout=5)
                finally:
                    two.proc.send_signal(signal.SIGCONT)
                await sa.wait_room(lambda r: r["seats"][1]["player"]["connected"], timeout=5)


async def test_news_that_arrives_while_a_room_loads_is_not_lost() -> None:
    """Ben's process loads the room as Ann sits through the other one: if her sit is stored after the load
    read the room but announced before the load finished, the announcement must still be applied."""
    with cluster() as servers:
        one, two = servers.start(), servers.start()
        clients: list[ThreefoldClient] = []

        async def race(index: int) -> None:
            ann, ben = ThreefoldClient(one.url), ThreefoldClient(two.url)
            clients.extend((ann, ben))
            await ann.set_name(f"Ann {index}")
            await ben.set_name(f"Ben {index}")
            code = await ann.create_room("tri-tac", {"size": 3})
            async with ann.connect(code) as sa:
                await sa.wait_room(lambda r: True)
                await sa.request({"type": "stand"})  # she took seat 0 when creating the room
                async with ben.connect(code) as sb:  # process two loads the room now...
                    await sa.send({"type": "sit", "seat": 0})  # ... while Ann sits
                    room = await sb.wait_room(lambda r: r["seats"][0]["player"] is not None, timeout=5)
                    assert room["seats"][0]["player"]["name"] == f"Ann {index}"

        try:
            await asyncio.gather(*(race(i) for i in range(20)))
        finally:
            for client in clients:
                await client.http.aclose()


async def test_chat_reaches_every_process_and_outlives_them() -> None:
    """Chat is stored and read back like moves: a line posted through one process reaches the room's sockets
    on the other (team lines only the team's, and never through Redis), and a process started after both
    died shows the room's recent public chat to a newcomer. Before, chat only reached the sockets of the
    process it was posted on and was lost with it."""
    with cluster() as servers:
        one, two = servers.start(), servers.start()
        table = await open_table(
            one.url,
            "tic-tac-match",
            {"players": 4},
            seed=None,
            players=4,
            spectator=False,
            start=False,
            names=["Ann", "Bea", "Cy", "Dov"],  # seats 0-3; teams {0, 2} and {1, 3}
            servers=[one.url, one.url, two.url, two.url],
        )
        async with table.stack:
            code, socks = table.code, table.sockets

            def said(sock: Any) -> list[str]:
                return [m["text"] for m in sock.history if m["type"] == "chat"]

            async def heard(sock: Any, text: str) -> None:
                async with asyncio.timeout(5):
                    while text not in said(sock):
                        await asyncio.sleep(0.02)

            await socks[0].send({"type": "chat", "text": "hello from one"})
            await socks[0].send({"type": "chat", "text": "for Cy only", "team": True})
            await heard(socks[3], "hello from one")  # so that every process shows the lines in one order
            await socks[3].send({"type": "chat", "text": "for Bea only", "team": True})
            await socks[3].send({"type": "chat", "text": "bye from two"})
            for sock in socks:
                await heard(sock, "hello from one")
                await heard(sock, "bye from two")  # posted last: every line before it was read
            assert said(socks[2]).count("for Cy only") == 1 and "for Bea only" not in said(socks[2])
            assert said(socks[1]).count("for Bea only") == 1 and "for Cy only" not in said(socks[1])
            assert said(socks[0]) == ["hello from one", "for Cy only", "bye from two"]
            assert said(socks[3]) == ["hello from one", "for Bea only", "bye from two"]
            for sock in socks:  # one order for the room, whichever process stored a line: clients show by id
                ids = [m["id"] for m in sock.history if m["type"] == "chat"]
                assert ids == sorted(set(ids)), ids
        one.kill()  # both die: what a newcomer sees next comes from the database
        two.kill()
        async with ThreefoldClient(servers.start().url) as eve:
            await eve.set_name("Eve")
            async with eve.connect(code) as sock:
                await sock.next(lambda m: m["type"] == "room")  # a newcomer's chat comes before its room
                assert [m["text"] for m in sock.history if m["type"] == "chat"] == [
                    "hello from one",
                    "bye from two",
                ]
