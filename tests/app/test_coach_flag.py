"""The coach's default comes from the player's history: ``welcome`` says ``coach: true`` to a seated player
in their first game of that kind, and false after they finished one, in another game kind's first game
true again, and always false to spectators."""

from __future__ import annotations

from types import SimpleNamespace

from app.client import RoomSocket, ThreefoldClient
from app.live.memory_store import MemoryStore
from tests.app.helpers import Table, acting_socket, open_table
from tests.support.server import ServerProcess


async def play_to_the_end(table: Table) -> None:
    """Both seats place on the first empty cell until the game is over."""
    while True:
        state = table.sockets[0].state
        assert state is not None
        if state["outcome"] is not None:
            return
        _seat, sock = acting_socket(table)
        cell = state["view"]["board"].index(None)
        await sock.act({"type": "place", "cell": cell}, version=state["version"])
        for each in table.sockets:
            await each.wait_state(lambda s, v=state["version"]: s["version"] > v)


def coach(sock: RoomSocket) -> bool:
    assert sock.you is not None
    return bool(sock.you["coach"])


async def test_first_game_of_a_kind_then_not(server: ServerProcess) -> None:
    table = await open_table(server.url, "tic-tac-toe", seed=1, players=2, spectator=True)
    try:
        assert [coach(sock) for sock in table.sockets] == [True, True]
        assert table.spectator is not None and coach(table.spectator) is False
        await play_to_the_end(table)
        # The next game of the same kind is not a first one: the rematch tells each seat so.
        await table.sockets[0].send({"type": "rematch"})
        for sock in table.sockets:
            await sock.next(lambda m: m["type"] == "welcome" and m["you"]["coach"] is False)
        assert table.spectator is not None and coach(table.spectator) is False
        # Another kind is new to them: true there; and a new room of the finished kind says false.
        async with ThreefoldClient(server.url, token=table.clients[0].token) as me:
            for game, expected in (("tri-tac", True), ("tic-tac-toe", False)):
                code = await me.create_room(game, {"size": 4} if game == "tri-tac" else None, seed=2)
                async with me.connect(code) as sock:
                    await sock.next(lambda m: m["type"] == "room")
                    await sock.send({"type": "add_bot", "seat": 1})
                    await sock.send({"type": "start"})
                    await sock.wait_state()  # a changed welcome comes before the game's first state
                    assert sock.you is not None and sock.you["coach"] is expected, game
    finally:
        await table.close()


async def test_the_memory_store_answers_as_the_sql_ones() -> None:
    """Only finished games count, only seated people (not bots), only of that kind."""
    store = MemoryStore()
    ada, ben = store.add_player("Ada"), store.add_player("Ben")
    assert await store.new_to("tri-tac", {ada, ben}) == {ada, ben}
    assert await store.new_to("tri-tac", set()) == set()
    seats = [{"player_id": ada, "name": "Ada", "bot": False}, {"player_id": None, "name": "Bot", "bot": True}]
    store.games[1] = (1, SimpleNamespace(engine="tri-tac", status="playing", seats=seats))  # type: ignore[assignment]
    assert await store.new_to("tri-tac", {ada, ben}) == {ada, ben}  # not finished yet
    store.games[1] = (1, SimpleNamespace(engine="tri-tac", status="finished", seats=seats))  # type: ignore[assignment]
    assert await store.new_to("tri-tac", {ada, ben}) == {ben}
    assert await store.new_to("tic-tac-match", {ada, ben}) == {ada, ben}
