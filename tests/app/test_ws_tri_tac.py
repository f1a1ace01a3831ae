"""Live play over WebSockets: two players and a spectator, on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import sqlite3

import pytest
import websockets

from app.client import ClientError, ThreefoldClient
from tests.app.helpers import Table, acting_socket, open_table, wait_all
from tests.support.server import ServerProcess


def empty_cells(state: dict) -> list[list[int]]:
    board = state["view"]["board"]
    return [[r, c] for r, row in enumerate(board) for c, cell in enumerate(row) if cell is None]


async def play_one(table: Table) -> int:
    """The player to move places on the first empty cell; returns the new version."""
    _seat, sock = acting_socket(table)
    state = sock.state
    assert state is not None
    ack = await sock.act({"type": "place", "cell": empty_cells(state)[0]})
    await wait_all(table, ack["version"])
    return int(ack["version"])


async def test_full_game_with_spectator(server: ServerProcess) -> None:
    table = await open_table(server.url, "tri-tac", {"size": 4}, seed=7)
    try:
        spectator = table.spectator
        assert spectator is not None and spectator.you is not None and spectator.you["seat"] is None
        moves = 0
        while table.sockets[0].state and table.sockets[0].state["outcome"] is None:
            await play_one(table)
            moves += 1
        assert moves == 16
        final = [s.state for s in table.sockets]
        assert all(f is not None and f["outcome"] is not None for f in final)
        await spectator.wait_state(lambda s: s["outcome"] is not None)
        assert spectator.state is not None
        assert spectator.state["view"]["board"] == final[0]["view"]["board"]  # type: ignore[index]
        assert len(spectator.state["log"]) == 16
        # Each move's message carried only that move's entry, after the version the socket had.
        moves_seen = [m for m in spectator.history if m["type"] == "state" and "log_since" in m]
        assert moves_seen and all(
            [entry["v"] for entry in m["log_received"]] == [m["version"]] and m["log_since"] == m["version"] - 1
            for m in moves_seen
        )
        assert [entry["v"] for entry in spectator.state["log"]] == list(range(1, 17))
        assert {entry["key"] for entry in spectator.state["log"]} <= {"tri-tac.log.placed", "tri-tac.log.placed_scored"}
        # The spectator cannot act.
        with pytest.raises(ClientError) as err:
            await spectator.act({"type": "place", "cell": [0, 0]})
        assert err.value.code in ("not_seated", "not_playing")
        # Standings and the finished status reach everyone; a rematch keeps the seats.
        room = await table.sockets[1].wait_room(lambda r: r["status"] == "finished")
        assert sum(row["played"] for row in room["standings"]) == 2
        seen = [len(sock.history) for sock in table.sockets]
        await table.sockets[0].send({"type": "rematch"})
        # Every socket must hold the fresh game before play resumes: the loop below reads sockets[0].state,
        # which would otherwise still be the finished first game.
        for sock, before in zip(table.sockets, seen, strict=True):
            fresh = await sock.wait_state(lambda s: s["version"] == 0 and s["outcome"] is None)
            assert fresh["view"]["board"] == [[None] * 4 for _ in range(4)]
            # Nobody's seat or role changed: the one thing a socket may be told again (before the state) is that
            # this is no longer its player's first game of Tri-Tac, the coach's default (docs/protocol.md).
            last = [m["you"] for m in sock.history[:before] if m["type"] == "welcome"][-1]
            again = [m["you"] for m in sock.history[before:] if m["type"] == "welcome"]
            assert again in ([], [{**last, "coach": False}]) and (again == []) == (last["coach"] is False), again
        room = await table.sockets[1].wait_room(lambda r: r["game_number"] == 2)
        assert [s["player"]["name"] for s in room["seats"]] == ["P1", "P2"]
        first = {row["name"]: row for row in room["standings"]}
        # The second game adds to the same table of standings.
        while table.sockets[0].state and table.sockets[0].state["outcome"] is None:
            await play_one(table)
        room = await table.sockets[1].wait_room(lambda r: r["status"] == "finished" and r["game_number"] == 2)
        second = {row["name"]: row for row in room["standings"]}
        assert {name: row["played"] for name, row in second.items()} == {"P1": 2, "P2": 2}
        outcome = table.sockets[0].state["outcome"]  # type: ignore[index]
        for seat, name in enumerate(("P1", "P2")):
            assert second[name]["points"] == first[name]["points"] + outcome["scores"][seat]
            assert second[name]["wins"] == first[name]["wins"] + (seat in outcome["winners"])
    finally:
        await table.close()


async def test_bad_input_gets_clear_errors_and_changes_nothing(sqlite_server: ServerProcess) -> None:
    table = await open_table(sqlite_server.url, "tri-tac", {"size": 5}, seed=3)
    try:
        await play_one(table)
        seat, mover = acting_socket(table)
        idle = table.seat_socket(1 - seat)
        state = mover.state
        assert state is not None
        version = state["version"]
        taken = next([r, c] for r, row in enumerate(state["view"]["board"]) for c, v in enumerate(row) if v is not None)

        async def refused(sock, message, code):  # type: ignore[no-untyped-def]
            if isinstance(message, (str, bytes)):
                await sock.send_raw(message)
                reply = await sock.next(lambda m: m["type"] == "error")
            else:
                message = dict(message)
                message.setdefault("id", f"t{code}{len(sock.history)}")
                await sock.send(message)
                reply = await sock.next(lambda m: m["type"] == "error")
            assert reply["code"] == code, reply
            assert reply["message"]
            return reply

        free = empty_cells(state)[0]
        await refused(
            idle, {"type": "act", "action": {"type": "place", "cell": free}, "version": version}, "not_your_turn"
        )
        taken_reply = await refused(
            mover, {"type": "act", "action": {"type": "place", "cell": taken}, "version": version}, "illegal"
        )
        assert taken_reply["reason"] == {"key": "tri-tac.error.cell_taken", "params": {"cell": taken}}
        await refused(
            mover, {"type": "act", "action": {"type": "place", "cell": free}, "version": version - 1}, "stale_version"
        )
        await refused(
            mover, {"type": "act", "action": {"type": "place", "cell": free}, "version": version + 5}, "stale_version"
        )
        await refused(mover, "{not json", "bad_json")
        await refused(mover, "[1, 2]", "bad_message")
        await refused(mover, {"type": "act", "action": "place", "version": version}, "bad_message")
        await refused(mover, {"type": "act", "action": {"type": "place", "cell": free}, "version": "3"}, "bad_message")
        await refused(
            mover, {"type": "act", "action": {"type": "place", "cell": ["a", 1]}, "version": version}, "illegal"
        )
        await refused(mover, {"type": "launch-missiles"}, "bad_message")
        await refused(mover, '{"type": "ping", "pad": "' + "x" * 20000 + '"}', "too_large")
        host, guest = table.sockets
        await refused(host, {"type": "start"}, "not_in_lobby")
        await refused(guest, {"type": "configure", "options": {"size": 9}}, "not_host")

        # Duplicate: the same id twice is refused the second time; the first applied exactly once.
        ack = await mover.request(
            {"type": "act", "action": {"type": "place", "cell": free}, "version": version, "id": "dup-1"}
        )
        assert ack["version"] == version + 1
        await refused(
            mover,
            {
                "type": "act",
                "action": {"type": "place", "cell": empty_cells(state)[1]},
                "version": version + 1,
                "id": "dup-1",
            },
            "duplicate",
        )

        # Nothing else changed, and every connection still works.
        for sock in table.sockets:
            await sock.send({"type": "ping"})
            await sock.next(lambda m: m["type"] == "pong")
            await sock.send({"type": "sync"})
            synced = await sock.next(lambda m: m["type"] == "state")
            assert synced["version"] == version + 1
        assert len(synced["log"]) == 2
        await play_one(table)
    finally:
        await table.close()


async def test_unknown_room_and_bad_tokens(sqlite_server: ServerProcess) -> None:
    async with ThreefoldClient(sqlite_server.url) as alice:
        await alice.set_name("Alice")
        code = await alice.create_room("tri-tac")
        sock = alice.connect("ZZZZZ")
        await sock.open()
        err = await sock.next(lambda m: m["type"] == "error")
        assert err["code"] == "unknown_room"
        await asyncio.wait_for(sock.closed.wait(), 5)
        assert sock.close_code == 4404
        for token in ("forged-token-value", None):
            stranger = ThreefoldClient(sqlite_server.url, token=token)
            sock = stranger.connect(code)
            await sock.open()
            err = await sock.next(lambda m: m["type"] == "error")
            assert err["code"] == "unauthorized"
            await asyncio.wait_for(sock.closed.wait(), 5)
            assert sock.close_code == 4401
            await stranger.http.aclose()
        # HTTP: unknown room, bad options, no identity.
        assert (await alice.http.get("/api/rooms/ZZZZZ")).status_code == 404
        r = await alice.http.post(
            "/api/rooms", json={"game": "tri-tac", "options": {"size": 99}}, headers=alice._headers()
        )
        assert r.status_code == 422 and "size" in r.json()["detail"]
        async with ThreefoldClient(sqlite_server.url) as nobody:
            r = await nobody.http.post("/api/rooms", json={"game": "tri-tac"})
            assert r.status_code == 401
        # The server is still serving.
        assert (await alice.http.get("/healthz")).json()["ok"] is True


async def test_only_ws_and_a_code_is_a_live_socket(sqlite_server: ServerProcess) -> None:
    """The live socket is dispatched ahead of the router (app.routers.ws.LiveSocketRoute): other WebSocket
    paths still reach the router, which refuses the handshake, and the server keeps serving."""
    async with ThreefoldClient(sqlite_server.url) as alice:
        await alice.set_name("Alice")
        code = await alice.create_room("tri-tac")
        base = sqlite_server.url.replace("http://", "ws://")
        for path in ("/ws/", f"/ws/{code}/extra", f"/wsx/{code}", "/ws"):
            with pytest.raises(websockets.InvalidStatus) as refused:
                async with websockets.connect(f"{base}{path}", additional_headers=alice._headers()):
                    pass
            assert refused.value.response.status_code == 403, path
        sock = alice.connect(code)
        await sock.open()
        welcome = await sock.next(lambda m: m["type"] == "welcome")
        assert welcome["you"]["name"] == "Alice"
        await sock.close()


async def test_reconnect_keeps_seat_and_others_see_away(sqlite_server: ServerProcess) -> None:
    table = await open_table(sqlite_server.url, "tri-tac", {"size": 4}, seed=11)
    try:
        await play_one(table)
        await play_one(table)
        leaver = table.sockets[1]
        await leaver.close()
        room = await table.sockets[0].wait_room(lambda r: r["seats"][1]["player"]["connected"] is False)
        assert room["seats"][1]["player"]["name"] == "P2"
        again = table.clients[1].connect(table.code)
        await again.open()
        try:
            await again.next(lambda m: m["type"] == "welcome" and m["you"]["seat"] == 1)
            state = await again.wait_state()
            assert state["version"] == 2
            await table.sockets[0].wait_room(lambda r: r["seats"][1]["player"]["connected"] is True)
            table.sockets[1] = again
            await play_one(table)
        finally:
            await again.close()
    finally:
        await table.close()


async def test_time_challenge_passes_the_turn(sqlite_server: ServerProcess) -> None:
    table = await open_table(
        sqlite_server.url, "tri-tac", {"size": 4, "time_challenge": True, "time_seconds": 5}, seed=5, spectator=False
    )
    try:
        state = table.sockets[0].state
        assert state is not None and state["deadline"] is not None
        first = state["to_act"]
        # Nobody moves: the server's timer passes the turn through the normal path.
        passed = await table.sockets[0].wait_state(lambda s: s["version"] == 1, timeout=12)
        assert passed["to_act"] != first
        assert passed["log"][-1] == {
            "v": 1,
            "key": "tri-tac.log.passed",
            "params": {"seat": first[0]},
            "actor": "timer",
        }
    finally:
        await table.close()


@pytest.mark.real_process
async def test_a_game_end_whose_table_cannot_be_stored_still_reaches_everyone(sqlite_url: str) -> None:
    """The last move is stored with the game's result, the room's finish, its table and the ratings, in one
    transaction. When the table cannot be stored, the move is stored with the room's finish alone: the mover
    still gets the ack and everyone the end, and the room is finished in the database too: after a restart,
    a rematch starts. Before, the mover got an
    internal error, the others saw nothing until they resynced, and the reloaded room stayed "playing"."""
    server = ServerProcess(sqlite_url).start()
    try:
        database = sqlite3.connect(sqlite_url.split("///", 1)[1])
        database.execute("CREATE TRIGGER no_tables BEFORE INSERT ON standings BEGIN SELECT RAISE(ABORT, 'x'); END")
        database.close()
        table = await open_table(server.url, "tri-tac", {"size": 3}, seed=2)
        try:
            version = 0
            while (state := table.sockets[0].state) is None or state["outcome"] is None:
                version = await play_one(table)
            assert version == 9
            assert table.spectator is not None
            final = await table.spectator.wait_state(lambda s: s["version"] == 9)
            assert final["outcome"] is not None
        finally:
            await table.close()
        server.kill()
        server.start()
        async with table.clients[0].connect(table.code) as host:
            room = await host.wait_room(lambda _r: True)
            assert room["status"] == "finished"
            await host.send({"type": "rematch"})
            fresh = await host.wait_state(lambda s: s["version"] == 0 and s["outcome"] is None)
            assert fresh["to_act"]
    finally:
        server.stop()
