"""Rematches after a finished game: any seated player may offer one; it starts when all have accepted."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager

import pytest

from app.client import ClientError, RoomSocket, ThreefoldClient
from tests.support.server import ServerProcess


def empty_cells(state: dict) -> list[list[int]]:
    board = state["view"]["board"]
    return [[r, c] for r, row in enumerate(board) for c, cell in enumerate(row) if cell is None]


@asynccontextmanager
async def finished_room(
    base_url: str, host_sits: bool = False, bot: bool = False
) -> AsyncIterator[tuple[RoomSocket, list[RoomSocket]]]:
    """A 3×3 Tri-Tac room whose first game is over: the host's socket, and the seated guests' (two, or one
    beside a bot). The host sits in seat 0 with ``host_sits`` (one guest then), else watches."""
    async with AsyncExitStack() as stack:
        socks = []
        for name in ("Host", "Ann", "Ben"):
            client = await stack.enter_async_context(ThreefoldClient(base_url))
            await client.set_name(name)
            if not socks:
                code = await client.create_room("tri-tac", {"size": 3}, seed=1)
            sock = await stack.enter_async_context(client.connect(code))
            await sock.wait_room(lambda r: True)
            socks.append(sock)
        host, guests = socks[0], socks[1:]
        me = host.you["id"] if host.you else None
        if any(s["player"] and s["player"]["id"] == me for s in host.room["seats"]):  # type: ignore[index]
            await host.request({"type": "stand"})
        sitters = [host, guests[0]] if host_sits else guests[:1] if bot else guests
        for seat, sock in enumerate(sitters):
            await sock.request({"type": "sit", "seat": seat})
        if bot:
            await host.request({"type": "add_bot", "seat": 1})
        if host_sits or bot:
            guests = guests[:1]
        await host.request({"type": "start"})
        while True:
            state = await host.wait_state(lambda s: True)
            if state["outcome"] is not None:
                break
            seat = state["to_act"][0]
            mover = next((s for s in sitters if s.you and s.you["seat"] == seat), None)
            if mover is None:  # the bot's turn
                await host.wait_state(lambda s, v=state["version"]: s["version"] > v)
                continue
            await mover.wait_state(lambda s, v=state["version"]: s["version"] >= v)
            await mover.act({"type": "place", "cell": empty_cells(state)[0]}, state["version"])
            await host.wait_state(lambda s, v=state["version"]: s["version"] > v)
        await host.wait_room(lambda r: r["status"] == "finished")
        yield host, guests


def player_id(sock: RoomSocket) -> int:
    assert sock.you is not None
    return int(sock.you["id"])


async def test_a_rematch_starts_when_every_seated_player_has_accepted(server: ServerProcess) -> None:
    async with finished_room(server.url) as (host, (ann, ben)):
        await ann.request({"type": "rematch"})
        room = await host.wait_room(lambda r: r["rematch"] == [player_id(ann)])
        assert room["status"] == "finished" and room["game_number"] == 1  # one alone does not start it
        await ann.request({"type": "rematch"})  # accepting twice changes nothing
        await ben.request({"type": "rematch"})
        room = await host.wait_room(lambda r: r["game_number"] == 2)
        assert room["status"] == "playing" and room["rematch"] == []
        for sock in (host, ann, ben):
            await sock.wait_state(lambda s: s["version"] == 0 and s["outcome"] is None)


async def test_a_change_to_the_room_voids_the_acceptances(server: ServerProcess) -> None:
    async with finished_room(server.url) as (host, (ann, ben)):
        await ann.request({"type": "rematch"})
        await host.wait_room(lambda r: r["rematch"] == [player_id(ann)])
        await host.request({"type": "move_seat", "seat": 0, "to": 1})
        await host.wait_room(lambda r: r["rematch"] == [])
        await ben.request({"type": "rematch"})
        room = await host.wait_room(lambda r: r["rematch"] == [player_id(ben)])
        assert room["game_number"] == 1


async def test_bots_accept_a_rematch(server: ServerProcess) -> None:
    async with finished_room(server.url, bot=True) as (host, (ann,)):
        await ann.request({"type": "rematch"})
        room = await host.wait_room(lambda r: r["game_number"] == 2)
        assert room["status"] == "playing"


async def test_the_host_alone_still_starts_a_rematch_at_once(server: ServerProcess) -> None:
    async with finished_room(server.url, host_sits=True) as (host, (ann,)):
        await host.request({"type": "rematch"})
        room = await ann.wait_room(lambda r: r["game_number"] == 2)
        assert room["status"] == "playing"


async def test_who_may_not_accept_a_rematch(server: ServerProcess) -> None:
    async with finished_room(server.url, host_sits=True) as (host, (ann,)):
        async with ThreefoldClient(server.url) as client:
            await client.set_name("Cy")
            async with client.connect(host.room["code"]) as cy:  # type: ignore[index]
                await cy.wait_room(lambda r: True)
                with pytest.raises(ClientError) as err:
                    await cy.request({"type": "rematch"})
                assert err.value.code == "not_seated"
        await host.request({"type": "rematch"})
        await ann.wait_room(lambda r: r["status"] == "playing")
        with pytest.raises(ClientError) as err:  # no game has finished: only the host starts one
            await ann.request({"type": "rematch"})
        assert err.value.code == "not_host"
