"""Every game through the server: bots play full games, and a turn timer expires in each."""

from __future__ import annotations

import asyncio

import pytest

from app.client import ThreefoldClient
from engines.registry import all_engines
from tests.support.server import ServerProcess

GAMES = sorted(e.name for e in all_engines())
FAST_OPTIONS = {"tic-tac-top": {"players": 3, "reveal_pause": 1, "score_pause": 2}, "tri-tac": {"size": 4}}


async def _room_of_bots(client: ThreefoldClient, game: str, seed: int) -> tuple[str, int]:
    code = await client.create_room(game, FAST_OPTIONS.get(game, {}), seed=seed)
    summary = await client.room(code)
    return code, len(summary["seats"])


@pytest.mark.parametrize("game", GAMES)
async def test_bots_play_a_full_game_through_the_server(sqlite_server: ServerProcess, game: str) -> None:
    async with ThreefoldClient(sqlite_server.url) as host:
        await host.set_name("Host")
        code, seats = await _room_of_bots(host, game, seed=5)
        async with host.connect(code) as sock:
            await sock.next(lambda m: m["type"] == "room")
            await sock.request({"type": "stand"})  # bots take every seat, the one the host took creating the room too
            for seat in range(seats):
                await sock.send({"type": "add_bot", "seat": seat})
            await sock.wait_room(lambda r: all(s["player"] and s["player"]["bot"] for s in r["seats"]))
            await sock.send({"type": "start"})
            final = await sock.wait_state(lambda s: s["outcome"] is not None, timeout=240)
        assert len(final["outcome"]["scores"]) == seats
        assert final["log"], "the game log recorded the bots' moves"
        room = await host.room(code)
        assert room["status"] == "finished"


async def _timer_expires(url: str, game: str) -> None:
    async with ThreefoldClient(url) as host:
        await host.set_name("Host")
        code, seats = await _room_of_bots(host, game, seed=8)
        async with host.connect(code) as sock:
            await sock.next(lambda m: m["type"] == "room")
            await sock.send({"type": "room_settings", "turn_seconds": 5})
            for seat in range(1, seats):
                await sock.send({"type": "add_bot", "seat": seat})
            await sock.wait_room(lambda r: all(s["player"] for s in r["seats"]) and r["settings"]["turn_seconds"])
            await sock.send({"type": "start"})
            # Nobody at seat 0 ever moves: whenever the game waits for seat 0, its timer must act for it.
            state = await sock.wait_state(
                lambda s: any(e.get("actor") == "timer" for e in s["log"]) or s["outcome"] is not None, timeout=60
            )
            assert any(e.get("actor") == "timer" for e in state["log"]), f"{game}: {state['log'][-5:]}"


async def test_a_turn_timer_expires_in_every_game(sqlite_server: ServerProcess) -> None:
    await asyncio.gather(*(_timer_expires(sqlite_server.url, game) for game in GAMES))
