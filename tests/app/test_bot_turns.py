"""Bots on a simultaneous step (app/live/bot_turns.py): every seat the game waits on has its own pause, so no bot
waits for the ones before it in seat order, and a bot with several moves to make before a deadline (Tic Tac
Top's writer once the Leader has submitted) fits them into the time left."""

from __future__ import annotations

import random
import time
from typing import Any

from app.live.bus import LocalBus
from app.live.hub import Hub
from app.live.memory_store import MemoryStore
from app.live.room import Room
from app.settings import Settings
from engines.levels import level_bot
from engines.tic_tac_top.bots import BOT as TIC_TAC_TOP_BOT
from engines.tic_tac_top.rules import COUNTDOWN_SECONDS
from tests.app.test_room import Socket, say, until


async def table_of_bots(
    settings: Settings, game: str, options: dict[str, Any], bots: range
) -> tuple[Hub, MemoryStore, Room, Socket]:
    """A started game of ``game`` with bots in seats ``bots`` and Ann in seat 0 unless a bot has it (she then
    hosts from the shared screen)."""
    store = MemoryStore()
    hub = Hub(store, settings, LocalBus(), "http://test")
    ann = store.add_player("Ann")
    code = await hub.create_room(ann, game, options, seed=11)
    room = await hub.room(code)
    assert room is not None
    socket = Socket(ann)
    assert await room.connect(socket.conn, "Ann")
    if 0 in bots:
        await say(room, socket, {"type": "stand"})
    for seat in bots:
        await say(room, socket, {"type": "add_bot", "seat": seat})
    await say(room, socket, {"type": "start"})
    assert room.game is not None
    assert not [m for m in socket.sent if m["type"] == "error"], socket.sent
    return hub, store, room, socket


async def act(room: Room, socket: Socket, action: dict[str, Any]) -> None:
    assert room.game is not None
    before = len([m for m in socket.sent if m["type"] == "error"])
    await say(room, socket, {"type": "act", "action": action, "version": room.game.version})
    assert len([m for m in socket.sent if m["type"] == "error"]) == before, socket.last("error")


def closed_grids(socket: Socket, turn: int) -> list[list[str | None] | None] | None:
    """The grids as the writing of ``turn`` closed (None: still open)."""
    for message in socket.sent:
        for event in message.get("events", []) if message["type"] == "state" else []:
            if event["kind"] == "writing_closed" and event["turn"] == turn:
                grids: list[list[str | None] | None] = event["grids"]
                return grids
    return None


async def empty_cells_at_close(socket: Socket, turn: int, seconds: float) -> dict[int, int]:
    """Each bot writer's empty cells as the writing of ``turn`` closes (Ann is seat 0)."""
    await until(lambda: closed_grids(socket, turn) is not None, seconds)
    grids = closed_grids(socket, turn)
    assert grids is not None
    return {seat: grid.count(None) for seat, grid in enumerate(grids) if seat != 0 and grid is not None}


def view(room: Room) -> dict[str, Any]:
    assert room.game is not None
    return room.game.engine.view(room.game.state, 0)


async def lead_and_submit_at_once(room: Room, socket: Socket) -> None:
    """Ann, the Leader, keeps the first theme and submits a ranking at once: the countdown starts."""
    assert view(room)["leader"] == 0
    await act(room, socket, {"type": "choose_theme", "index": 0})
    await act(room, socket, {"type": "rank", "words": view(room)["theme"]["words"][:7]})


async def test_six_bots_fill_their_grids_before_the_writing_closes() -> None:
    """One person and six bots at Tic Tac Top, over two turns: every bot's grid is full as the writing closes.
    Ann leads the first turn and submits at once (the 5-second countdown), a bot leads the second. At this pace
    a bot writes its grid in about 1 s, so bots writing one after the other would need about 7 s."""
    settings = Settings(testing=True, bot_pace=0.15)
    options = {"players": 7, "reveal_pause": 1, "score_pause": 2}
    hub, _store, room, socket = await table_of_bots(settings, "tic-tac-top", options, range(1, 7))
    try:
        await lead_and_submit_at_once(room, socket)  # turn 1
        assert await empty_cells_at_close(socket, 1, 10) == dict.fromkeys(range(1, 7), 0)
        # Ann steps the reveal and the score screen on, to turn 2.
        while view(room)["turn"] == 1:
            await act(room, socket, {"type": "next"})
        # Turn 2: bot 1 leads; Ann writes her grid and is done, the bots write theirs.
        await until(lambda: view(room)["phase"] == "write", 5)
        words = view(room)["theme"]["words"]
        for cell in range(9):
            await act(room, socket, {"type": "place", "cell": cell, "word": words[cell]})
        await act(room, socket, {"type": "done"})
        assert await empty_cells_at_close(socket, 2, 15) == dict.fromkeys(range(2, 7), 0)
    finally:
        await hub.close()


async def test_once_the_leader_submits_each_writers_moves_fit_into_the_countdown() -> None:
    """At the default pace (0.6-1 s a move) a grid of 9 words and its ``done`` would take about 8 s: once the
    countdown runs, each bot's next move is armed to leave time for all the others before it ends, and every
    grid is full as the writing closes."""
    options = {"players": 7}
    hub, _store, room, socket = await table_of_bots(Settings(testing=True), "tic-tac-top", options, range(1, 7))
    try:
        game = room.game
        assert game is not None and game.deadline is None
        await lead_and_submit_at_once(room, socket)
        assert game.deadline is not None
        now = time.time()
        assert game.deadline - now <= COUNTDOWN_SECONDS
        for seat in range(1, 7):
            moves = TIC_TAC_TOP_BOT.moves_left(game.state, seat)
            assert moves is not None and moves >= 9
            due = room.bots.turns[seat].due - now
            assert due <= (game.deadline - now) / moves, (seat, due)
        assert await empty_cells_at_close(socket, 1, 10) == dict.fromkeys(range(1, 7), 0)
    finally:
        await hub.close()


async def test_one_bots_move_leaves_the_others_pending_moves_armed() -> None:
    """Trick-Tac-Foe 2v2, four bots: each seat to commit has its own armed move, and one bot's commit leaves the
    other three's pending moves (and their pauses) as they were. The pauses are long: nothing fires by itself."""
    settings = Settings(testing=True, bot_pace=1000)
    hub, _store, room, _socket = await table_of_bots(settings, "trick-tac-foe", {"players": 4}, range(4))
    try:
        game = room.game
        assert game is not None and game.to_act == frozenset(range(4))
        armed = dict(room.bots.turns)
        assert sorted(armed) == [0, 1, 2, 3]
        assert len({id(turn.task) for turn in armed.values()}) == 4
        bot = level_bot(game.engine.name, "normal")
        assert bot is not None
        async with room.lock:
            await room.apply(0, bot.choose(game.state, 0, random.Random(0)), "bot")
        assert game.to_act == frozenset({1, 2, 3})
        assert sorted(room.bots.turns) == [1, 2, 3]
        for seat in (1, 2, 3):
            assert room.bots.turns[seat] is armed[seat]
            assert not armed[seat].task.done()
        assert armed[0].task.cancelling()  # seat 0 is no longer to act
    finally:
        await hub.close()


async def test_bots_commit_in_their_own_order_not_seat_order() -> None:
    """Four bots play a one-shot 2v2 Trick-Tac-Foe: in each of its ten trick sets the commits come in the order
    of the bots' own pauses, so not every set in seat order (bots taking turns would: 1 chance in 24**10)."""
    settings = Settings(testing=True, bot_pace=0.02)
    hub, store, room, _socket = await table_of_bots(
        settings, "trick-tac-foe", {"players": 4, "one_shot": True}, range(4)
    )
    try:
        game = room.game
        assert game is not None
        await until(lambda: room.record.status == "finished", 30)
        commits = [seat for _v, seat, action, _actor in store.moves[game.id] if action["type"] == "commit"]
        sets = [commits[i : i + 4] for i in range(0, len(commits), 4)]
        assert len(sets) == 10 and all(sorted(s) == [0, 1, 2, 3] for s in sets), sets
        assert any(s != [0, 1, 2, 3] for s in sets), sets
    finally:
        await hub.close()
