"""Test helpers: a room with seated players, driven through the real protocol."""

from __future__ import annotations

from contextlib import AsyncExitStack
from dataclasses import dataclass, field
from typing import Any

from app.client import RoomSocket, ThreefoldClient


@dataclass
class Table:
    code: str
    clients: list[ThreefoldClient]
    sockets: list[RoomSocket]
    spectator: RoomSocket | None = None
    stack: AsyncExitStack = field(default_factory=AsyncExitStack)

    def seat_socket(self, seat: int) -> RoomSocket:
        for sock in self.sockets:
            if sock.you is not None and sock.you.get("seat") == seat:
                return sock
        raise LookupError(f"nobody at seat {seat}")

    async def close(self) -> None:
        await self.stack.aclose()


async def open_table(
    base_url: str,
    game: str,
    options: dict[str, Any] | None = None,
    seed: int | None = 1,
    players: int = 2,
    spectator: bool = True,
    start: bool = True,
    names: list[str] | None = None,
    servers: list[str] | None = None,
) -> Table:
    """Host creates a room (taking seat 0), the other ``players`` people sit in order, a spectator watches,
    the host starts. ``names``: the players' names (P1, P2, ...); ``servers``: each player's server (``base_url``)."""
    stack = AsyncExitStack()
    clients = []
    for i in range(players):
        client = await stack.enter_async_context(ThreefoldClient(servers[i] if servers else base_url))
        await client.set_name(names[i] if names else f"P{i + 1}")
        clients.append(client)
    code = await clients[0].create_room(game, options, seed=seed)
    sockets = []
    for i, client in enumerate(clients):
        sock = await stack.enter_async_context(client.connect(code))
        await sock.next(lambda m: m["type"] == "room")
        if i == 0:  # the host took the first seat when creating the room
            assert sock.you is not None and sock.you["seat"] == 0
        else:
            await sock.send({"type": "sit", "seat": i})
            await sock.next(lambda m, i=i: m["type"] == "welcome" and m["you"]["seat"] == i)
        sockets.append(sock)
    spec_sock = None
    if spectator:
        watcher = await stack.enter_async_context(ThreefoldClient(base_url))
        await watcher.set_name("Watcher")
        spec_sock = await stack.enter_async_context(watcher.connect(code))
        await spec_sock.next(lambda m: m["type"] == "room")
    table = Table(code, clients, sockets, spec_sock, stack)
    if start:
        await sockets[0].send({"type": "start"})
        for sock in sockets:
            await sock.wait_state()
        if spec_sock is not None:
            await spec_sock.wait_state()
    return table


def acting_socket(table: Table) -> tuple[int, RoomSocket]:
    state = table.sockets[0].state
    assert state is not None
    seat = int(state["to_act"][0])
    return seat, table.seat_socket(seat)


async def wait_all(table: Table, version: int) -> None:
    """Every socket (spectator included) has seen ``version``."""
    for sock in [*table.sockets, *([table.spectator] if table.spectator else [])]:
        await sock.wait_state(lambda s: s["version"] >= version)
