"""Host controls, stand-ins, room turn timers and chat: the life of a table."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest

from app.client import ClientError, RoomSocket, ThreefoldClient
from tests.app.helpers import open_table
from tests.app.test_ws_tri_tac import empty_cells
from tests.support.inprocess import InProcessServer
from tests.support.server import ServerProcess


@pytest.fixture
def quick_server(sqlite_url: str) -> Iterator[InProcessServer]:
    proc = InProcessServer(sqlite_url, extra_env={"THREEFOLD_HOST_GRACE_SECONDS": "0.5"}).start()
    yield proc
    proc.stop()


async def test_kick_lock_and_spectators(quick_server: ServerProcess) -> None:
    table = await open_table(quick_server.url, "tri-tac", {"size": 4}, seed=1, start=False)
    try:
        host, guest = table.sockets
        watcher = table.spectator
        assert watcher is not None and watcher.you is not None
        # Only the host kicks; the kicked spectator is told, disconnected, and cannot come back.
        with pytest.raises(ClientError) as err:
            await guest.request({"type": "kick", "player": watcher.you["id"]})
        assert err.value.code == "not_host"
        await host.send({"type": "kick", "player": watcher.you["id"]})
        kicked = await watcher.next(lambda m: m["type"] == "error")
        assert kicked["code"] == "kicked"
        await asyncio.wait_for(watcher.closed.wait(), 5)
        # Lock: a newcomer is refused, members still get in.
        await host.send({"type": "room_settings", "locked": True})
        await guest.wait_room(lambda r: r["settings"]["locked"] is True)
        async with ThreefoldClient(quick_server.url) as late:
            await late.set_name("Late")
            sock = late.connect(table.code)
            await sock.open()
            refused = await sock.next(lambda m: m["type"] == "error")
            assert refused["code"] == "forbidden" and "locked" in refused["message"]
            assert refused["reason"] == {"key": "room.refused.locked", "params": {}}
            await asyncio.wait_for(sock.closed.wait(), 5)
            assert sock.close_code == 4403
            await host.send({"type": "room_settings", "locked": False, "spectators": False})
            await guest.wait_room(lambda r: r["settings"]["spectators"] is False)
            # In the lobby a newcomer may still come in to take a seat; once the game runs, they may not watch.
            await host.send({"type": "start"})
            await guest.wait_state()
            sock = late.connect(table.code)
            await sock.open()
            refused = await sock.next(lambda m: m["type"] == "error")
            assert "spectators" in refused["message"]
            assert refused["reason"] == {"key": "room.refused.no_spectators", "params": {}}
    finally:
        await table.close()


async def test_kicked_player_cannot_rejoin(quick_server: ServerProcess) -> None:
    async with ThreefoldClient(quick_server.url) as ann, ThreefoldClient(quick_server.url) as bo:
        await ann.set_name("Ann")
        await bo.set_name("Bo")
        code = await ann.create_room("tri-tac")
        async with ann.connect(code) as host:
            await host.next(lambda m: m["type"] == "room")
            sock = bo.connect(code)
            await sock.open()
            await sock.next(lambda m: m["type"] == "welcome")
            assert bo.player_id is not None
            await host.send({"type": "kick", "player": bo.player_id})
            await asyncio.wait_for(sock.closed.wait(), 5)
            again = bo.connect(code)
            await again.open()
            refused = await again.next(lambda m: m["type"] == "error")
            assert refused["code"] == "forbidden" and "removed" in refused["message"]
            assert refused["reason"] == {"key": "room.refused.banned", "params": {}}
            await again.close()
            room = await host.wait_room(lambda r: r["removed"])
            assert room["removed"] == [{"id": bo.player_id, "name": "Bo"}]
            # A new invite from the host lets them back in.
            await host.request({"type": "invite", "player": bo.player_id})
            async with bo.connect(code) as back:
                welcome = await back.next(lambda m: m["type"] in ("welcome", "error"))
                assert welcome["type"] == "welcome"


async def test_host_hands_over_and_leaves(quick_server: ServerProcess) -> None:
    table = await open_table(quick_server.url, "tri-tac", {"size": 4}, seed=1, start=False)
    try:
        host, guest = table.sockets
        assert guest.you is not None and host.you is not None
        await host.send({"type": "make_host", "player": guest.you["id"]})
        room = await guest.wait_room(lambda r: r["host"] == guest.you["id"])  # type: ignore[index]
        assert room["host"] == guest.you["id"]
        welcome = await guest.next(lambda m: m["type"] == "welcome" and m["you"]["host"])
        assert welcome["you"]["host"] is True
        with pytest.raises(ClientError) as err:
            await host.request({"type": "start"})
        assert err.value.code == "not_host"
        # The (new) host leaves: after the grace period the longest-present person becomes host.
        await guest.close()
        room = await host.wait_room(lambda r: r["host"] == host.you["id"], timeout=10)  # type: ignore[index]
        assert room["host"] == host.you["id"]
    finally:
        await table.close()


async def test_seat_swap_and_shuffle(quick_server: ServerProcess) -> None:
    table = await open_table(quick_server.url, "tic-tac-match", {"players": 4}, seed=1, players=2, start=False)
    try:
        host, _guest = table.sockets
        await host.send({"type": "move_seat", "seat": 1, "to": 3})
        room = await host.wait_room(lambda r: r["seats"][3]["player"] is not None)
        assert room["seats"][1]["player"] is None and room["seats"][3]["player"]["name"] == "P2"
        for seat in (1, 2):
            await host.send({"type": "add_bot", "seat": seat})
        room = await host.wait_room(lambda r: all(s["player"] for s in r["seats"]))

        def people(r: dict) -> tuple[list[str], int]:  # bots are named by seat, so count them instead
            humans = sorted(s["player"]["name"] for s in r["seats"] if not s["player"]["bot"])
            return humans, sum(1 for s in r["seats"] if s["player"]["bot"])

        before = people(room)
        await host.send({"type": "shuffle"})
        await host.next(lambda m: m["type"] == "room")
        assert host.room is not None
        assert people(host.room) == before == (["P1", "P2"], 2)
    finally:
        await table.close()


async def test_stand_in_plays_for_an_away_player_who_then_reclaims(quick_server: ServerProcess) -> None:
    table = await open_table(quick_server.url, "tri-tac", {"size": 5}, seed=3, spectator=False)
    try:
        host, guest = table.sockets
        await host.send({"type": "room_settings", "grace_seconds": 5})
        await host.wait_room(lambda r: r["settings"]["grace_seconds"] == 5)
        assert guest.you is not None
        guest_seat = guest.you["seat"]
        await guest.close()
        # The host keeps playing; after the grace period a stand-in moves for the away guest.
        deadline = asyncio.get_running_loop().time() + 20
        while asyncio.get_running_loop().time() < deadline:
            state = host.state
            assert state is not None
            if any(entry.get("actor") == "standin" for entry in state["log"]):
                break
            if host.you is not None and host.you["seat"] in state["to_act"]:
                board = state["view"]["board"]
                cell = next([r, c] for r, row in enumerate(board) for c, v in enumerate(row) if v is None)
                await host.act({"type": "place", "cell": cell}, version=state["version"])
            await host.wait_state(lambda s, v=state["version"]: s["version"] > v, timeout=10)
        assert host.state is not None
        assert any(entry.get("actor") == "standin" for entry in host.state["log"])
        room = await host.wait_room(lambda r: r["seats"][guest_seat]["player"]["standin"])
        assert room["seats"][guest_seat]["player"]["connected"] is False
        # The guest comes back: same seat, and no more stand-in moves.
        back = table.clients[1].connect(table.code)
        await back.open()
        try:
            welcome = await back.next(lambda m: m["type"] == "welcome")
            assert welcome["you"]["seat"] == guest_seat
            await host.wait_room(lambda r: r["seats"][guest_seat]["player"]["standin"] is False)
            state = await back.wait_state()
            if guest_seat not in state["to_act"]:
                board = state["view"]["board"]
                cell = next([r, c] for r, row in enumerate(board) for c, v in enumerate(row) if v is None)
                await host.act({"type": "place", "cell": cell}, version=state["version"])
                state = await back.wait_state(lambda s: guest_seat in s["to_act"])
            standins = sum(entry.get("actor") == "standin" for entry in state["log"])
            await asyncio.sleep(1.5)
            assert back.state is not None and back.state["version"] == state["version"], "nobody moved for the guest"
            assert sum(entry.get("actor") == "standin" for entry in back.state["log"]) == standins
        finally:
            await back.close()
    finally:
        await table.close()


async def test_room_turn_timer_plays_the_default_action(quick_server: ServerProcess) -> None:
    table = await open_table(quick_server.url, "tri-tac", {"size": 4}, seed=9, spectator=False, start=False)
    try:
        host, _guest = table.sockets
        with pytest.raises(ClientError) as err:
            await host.request({"type": "room_settings", "turn_seconds": 2})
        assert err.value.code == "bad_options"
        await host.send({"type": "room_settings", "turn_seconds": 5})
        await host.wait_room(lambda r: r["settings"]["turn_seconds"] == 5)
        await host.send({"type": "start"})
        state = await host.wait_state()
        assert state["deadline"] is not None
        timed_out = await host.wait_state(lambda s: s["version"] == 1, timeout=12)
        assert timed_out["log"][-1]["actor"] == "timer"
        assert timed_out["deadline"] is not None and timed_out["deadline"] > state["deadline"]
    finally:
        await table.close()


async def _chat_lines(sock: RoomSocket) -> list[str]:
    """The chat lines ``sock`` holds once everything sent to it before now has arrived: its pong comes after
    them (a socket's messages arrive in the order they were queued, and a chat request's ack follows its
    fan-out)."""
    await sock.send({"type": "ping"})
    await sock.next(lambda m: m["type"] == "pong")
    return [m["text"] for m in sock.history if m["type"] == "chat"]


async def test_room_and_team_chat(quick_server: ServerProcess) -> None:
    table = await open_table(quick_server.url, "tic-tac-match", {"players": 4}, seed=2, players=4, start=True)
    try:
        socks = {s.you["seat"]: s for s in table.sockets}  # type: ignore[index]
        watcher = table.spectator
        assert watcher is not None
        await socks[0].request({"type": "chat", "text": "  hello   <b>all</b> "})
        await socks[0].request({"type": "chat", "text": "team zero only", "team": True})
        await socks[1].request({"type": "chat", "text": "team one only", "team": True})
        for seat, sock in socks.items():
            lines = await _chat_lines(sock)
            assert "hello <b>all</b>" in lines  # plain text, verbatim: clients never render it as markup
            team_line = "team zero only" if seat % 2 == 0 else "team one only"
            other_line = "team one only" if seat % 2 == 0 else "team zero only"
            assert team_line in lines and other_line not in lines
        spectator_lines = await _chat_lines(watcher)
        assert spectator_lines == ["hello <b>all</b>"]
        # Spectators have no team; limits are enforced.
        with pytest.raises(ClientError) as err:
            await watcher.request({"type": "chat", "text": "psst", "team": True})
        assert err.value.code == "bad_message"
        with pytest.raises(ClientError) as err:
            await socks[2].request({"type": "chat", "text": "x" * 301})
        assert err.value.code == "too_large"
        for _ in range(5):
            await socks[3].send({"type": "chat", "text": "spam"})
        with pytest.raises(ClientError) as err:
            await socks[3].request({"type": "chat", "text": "spam"})
        assert err.value.code == "rate_limited"
        # A late joiner gets the room's recent public chat, not the teams'.
        async with ThreefoldClient(quick_server.url) as late:
            await late.set_name("Late")
            async with late.connect(table.code) as sock:
                lines = await _chat_lines(sock)
                assert "hello <b>all</b>" in lines and "team zero only" not in lines
    finally:
        await table.close()


@pytest.mark.real_process
async def test_the_bot_that_took_a_kicked_players_seat_is_still_there_after_a_restart(sqlite_url: str) -> None:
    """The bot that takes a kicked player's seat mid-game is stored with the game. It was only in memory, so
    after a restart (or on another process) the seat was the kicked player's again: nobody played it."""
    server = ServerProcess(sqlite_url, extra_env={"THREEFOLD_BOT_PACE": "0.1"}).start()
    try:
        table = await open_table(server.url, "tri-tac", {"size": 4}, seed=1, spectator=False)
        try:
            host, guest = table.sockets
            state = await host.wait_state()
            for sock in (host, guest):  # one move each: the host's turn again
                ack = await sock.act({"type": "place", "cell": empty_cells(state)[0]}, version=state["version"])
                state = await host.wait_state(lambda s, v=ack["version"]: s["version"] == v)
            assert guest.you is not None
            await host.send({"type": "kick", "player": guest.you["id"]})
            await host.wait_room(lambda r: r["seats"][1]["player"] is not None and r["seats"][1]["player"]["bot"])
        finally:
            await table.close()
        server.kill()
        server.start()
        async with table.clients[0].connect(table.code) as host:
            state = await host.wait_state()
            assert state["version"] == 2 and state["to_act"] == [0]
            await host.act({"type": "place", "cell": empty_cells(state)[0]}, version=2)
            state = await host.wait_state(lambda s: s["version"] == 4)  # the bot answered
            assert state["log"][-1]["actor"] == "bot" and state["log"][-1]["params"]["seat"] == 1, state["log"]
    finally:
        server.stop()


@pytest.mark.real_process
async def test_chat_outlives_a_restart(sqlite_url: str) -> None:
    """Chat lines are stored: a newcomer after a restart (or after the room was unloaded) sees them."""
    server = ServerProcess(sqlite_url).start()
    try:
        table = await open_table(server.url, "tri-tac", {"size": 4}, seed=1, start=False)
        try:
            await table.sockets[0].request({"type": "chat", "text": "first"})
            await table.sockets[1].request({"type": "chat", "text": "second"})
        finally:
            await table.close()
        server.kill()
        server.start()
        async with ThreefoldClient(server.url) as late:
            await late.set_name("Late")
            async with late.connect(table.code) as sock:
                assert await _chat_lines(sock) == ["first", "second"]
    finally:
        server.stop()


async def test_the_creator_takes_the_first_seat_and_may_leave_it(sqlite_server: ServerProcess) -> None:
    """Whoever creates a room hosts it from its first seat (the summary, their welcome and the room message say
    so), and may still stand up: the seat is then free for anyone."""
    async with ThreefoldClient(sqlite_server.url) as ann, ThreefoldClient(sqlite_server.url) as ben:
        await ann.set_name("Ann")
        await ben.set_name("Ben")
        code = await ann.create_room("trick-tac-foe", {"players": 4})
        summary = await ann.room(code)
        assert summary["host"] == ann.player_id
        assert [s["player"] and s["player"]["id"] for s in summary["seats"]] == [ann.player_id, None, None, None]
        async with ann.connect(code) as host:
            room = await host.wait_room(lambda r: True)
            assert host.you == {"id": ann.player_id, "name": "Ann", "seat": 0, "host": True, "coach": False}
            assert room["seats"][0]["player"]["name"] == "Ann" and room["spectators"] == []
            await host.request({"type": "stand"})
            assert host.you["seat"] is None  # the new welcome came before the ack
            async with ben.connect(code) as guest:
                await guest.request({"type": "sit", "seat": 0})
                room = await host.wait_room(lambda r: r["seats"][0]["player"] is not None)
                assert room["seats"][0]["player"]["id"] == ben.player_id
