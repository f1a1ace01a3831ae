"""Tic Tac Top over WebSockets: a 4-player party game run from a host screen.

The room host creates the room and never sits: their connection is the shared screen (the "TV view", a
spectator in protocol terms). Four players sit and play every turn through the real server with its real
timers (the 5-second countdown, the reveal and score pauses). Every message received on every socket is then
scanned: nobody, the shared screen included, may see the Leader's words before they are announced, or
another player's grid before the reveal.
"""

from __future__ import annotations

import random
import time
from contextlib import AsyncExitStack
from typing import Any

import orjson
import pytest

from app.client import ClientError, RoomSocket, ThreefoldClient
from engines.tic_tac_top.scoring import score_turn
from tests.support.server import ServerProcess

PLAYERS = 4
RANK_IDX = [5, 2, 9, 0, 7, 3, 11]  # the Leader ranks the theme's words in this card order (no two adjacent)
THEMES = [{"name": f"Theme {t}", "words": [f"T{t}w{j:02d}" for j in range(12)]} for t in range(2 * PLAYERS)]
OPTIONS: dict[str, Any] = {
    "players": PLAYERS,
    "custom_themes": THEMES,
    "custom_only": True,
    "reveal_pause": 1,
    "score_pause": 2,
}


def grid_plan(turn: int, seat: int, taken_rows: set[tuple[int, ...]]) -> list[int]:
    """9 card indices for a seat's grid: no two of the Leader's consecutive words side by side, no row in
    card order and no row another player uses (so each signature below is unique to its secret)."""
    pairs = {(RANK_IDX[k], RANK_IDX[k + 1]) for k in range(6)}
    pairs |= {(b, a) for a, b in pairs}
    rng = random.Random(turn * 100 + seat)
    while True:
        cells = rng.sample(range(12), 9)
        rows = [tuple(cells[r * 3 : r * 3 + 3]) for r in range(3)]
        if any((cells[i], cells[i + 1]) in pairs for i in range(8)):
            continue
        if any(row[1] == row[0] + 1 and row[2] == row[1] + 1 for row in rows) or taken_rows & set(rows):
            continue
        taken_rows.update(rows)
        return cells


def sig(words: list[str | None]) -> str:
    """How a run of list items looks inside a JSON message."""
    return orjson.dumps(words).decode()[1:-1]


class Party:
    def __init__(self, host: RoomSocket, players: list[RoomSocket]) -> None:
        self.host = host
        self.players = players
        self.secrets: dict[int, dict[str, Any]] = {}  # per turn: leader, ranking, grids (by seat)

    @property
    def everyone(self) -> list[RoomSocket]:
        return [self.host, *self.players]

    async def all_see(self, predicate: Any, timeout: float = 15) -> None:
        for sock in self.everyone:
            await sock.wait_state(predicate, timeout=timeout)

    async def act(self, seat: int, action: dict[str, Any]) -> dict[str, Any]:
        return await self.players[seat].act(action)


async def open_party(url: str, stack: AsyncExitStack) -> Party:
    host_client = await stack.enter_async_context(ThreefoldClient(url))
    await host_client.set_name("TV")
    code = await host_client.create_room("tic-tac-top", OPTIONS, seed=5)
    host = await stack.enter_async_context(host_client.connect(code))
    await host.next(lambda m: m["type"] == "room")
    await host.request({"type": "stand"})  # the TV only watches: it leaves the seat it took creating the room
    players = []
    for seat in range(PLAYERS):
        client = await stack.enter_async_context(ThreefoldClient(url))
        await client.set_name(f"P{seat + 1}")
        sock = await stack.enter_async_context(client.connect(code))
        await sock.next(lambda m: m["type"] == "room")
        await sock.send({"type": "sit", "seat": seat})
        await sock.next(lambda m, seat=seat: m["type"] == "welcome" and m["you"]["seat"] == seat)
        players.append(sock)
    await host.wait_room(lambda r: all(s["player"] is not None for s in r["seats"]))
    assert host.you == {"id": host_client.player_id, "name": "TV", "seat": None, "host": True, "coach": False}
    await host.send({"type": "start"})
    party = Party(host, players)
    await party.all_see(lambda s: s["view"]["phase"] == "choose")
    return party


async def choose_and_plan(party: Party, turn: int) -> tuple[int, list[str], dict[int, list[int]]]:
    leader = turn - 1
    state = await party.players[leader].wait_state(
        lambda s: s["view"]["turn"] == turn and s["view"]["phase"] == "choose"
    )
    offered = state["view"]["offered"]
    assert len(offered) == 2 and all(len(t["words"]) == 12 for t in offered)
    # Everyone else, the shared screen included, sees both names and no words.
    for sock in [party.host, *(p for s, p in enumerate(party.players) if s != leader)]:
        seen = await sock.wait_state(lambda s: s["view"]["turn"] == turn)
        assert seen["view"]["offered"] == [{"name": t["name"]} for t in offered]
    await party.act(leader, {"type": "choose_theme", "index": turn % 2})
    words = offered[turn % 2]["words"]
    await party.all_see(lambda s: s["view"]["phase"] == "write" and s["view"]["turn"] == turn)
    assert party.host.state is not None and party.host.state["view"]["theme"]["words"] == words
    taken: set[tuple[int, ...]] = set()
    plans = {seat: grid_plan(turn, seat, taken) for seat in range(PLAYERS) if seat != leader}
    return leader, words, plans


async def fill(party: Party, seat: int, words: list[str], plan: list[int], cells: int) -> list[str | None]:
    grid: list[str | None] = [None] * 9
    for cell in range(cells):
        await party.act(seat, {"type": "place", "cell": cell, "word": words[plan[cell]]})
        grid[cell] = words[plan[cell]]
    own = party.players[seat].state
    assert own is not None and own["view"]["grid"] == grid
    return grid


async def step_show(party: Party, leader: int, turn: int, until: str) -> None:
    """The Leader paces the show with `next` until the turn is scored (`until="score"`) or the next turn
    has begun (`"choose"`); a timer may step in between, which is fine."""
    sock = party.players[leader]
    while True:
        state = sock.state
        assert state is not None
        view = state["view"]
        if view["phase"] == "over" or view["turn"] > turn or (until == "score" and view["phase"] == "score"):
            return
        try:
            await sock.act({"type": "next"})
        except ClientError as err:
            assert err.code in ("stale_version", "not_your_turn"), err
            await sock.wait_state(lambda s, v=state["version"]: s["version"] > v)


@pytest.mark.slow  # 15 s on the game's own timers
async def test_four_player_party_with_a_host_screen(sqlite_server: ServerProcess) -> None:
    async with AsyncExitStack() as stack:
        party = await open_party(sqlite_server.url, stack)
        tv = party.host
        totals = [0] * PLAYERS

        # ---- turn 1, on the server's timers: the Leader submits first, the countdown locks the grids ----
        leader, words, plans = await choose_and_plan(party, 1)
        ranking = [words[i] for i in RANK_IDX]
        await party.act(leader, {"type": "draft", "words": ranking[:3]})
        grids: dict[int, list[str | None]] = {}
        grids[1] = await fill(party, 1, words, plans[1], 9)
        await party.act(1, {"type": "done"})
        grids[2] = await fill(party, 2, words, plans[2], 9)  # full, but never says done
        grids[3] = await fill(party, 3, words, plans[3], 5)  # four blank cells
        await party.all_see(lambda s: [w["filled"] for w in s["view"]["writers"]] == [9, 9, 5])
        await party.act(leader, {"type": "rank", "words": ranking})
        counting = await tv.wait_state(lambda s: s["view"]["countdown"] is True)
        assert counting["view"]["ranked"] is True and counting["view"]["ranking"] is None
        assert counting["view"]["timer"]["key"] == "close-1" and counting["deadline"] is not None
        assert 0 < counting["deadline"] - time.time() * 1000 <= 5500
        party.secrets[1] = {"leader": leader, "ranking": ranking, "grids": grids}
        # The countdown closes the writing; the reveal then steps by itself every second.
        revealed = await tv.wait_state(lambda s: s["view"]["phase"] == "reveal", timeout=10)
        writers = {w["seat"]: w["how"] for w in revealed["view"]["writers"]}
        assert writers == {1: "done", 2: "locked", 3: "locked"}
        assert [g and g["words"] for g in revealed["view"]["grids"]] == [None, grids[1], grids[2], grids[3]]
        scored = await tv.wait_state(lambda s: s["view"]["phase"] == "score", timeout=15)
        expected = score_turn(ranking, [grids.get(s) for s in range(PLAYERS)], leader).to_json()
        assert scored["view"]["scoring"]["points"] == expected["points"]
        assert scored["view"]["announced"] == ranking == scored["view"]["ranking"]
        totals = [a + b for a, b in zip(totals, expected["points"], strict=True)]
        assert scored["view"]["scores"] == totals
        # The score screen moves on by itself too.
        await party.all_see(lambda s: s["view"]["turn"] == 2 and s["view"]["phase"] == "choose", timeout=10)
        assert any(entry.get("actor") == "pace" for entry in tv.state["log"])  # type: ignore[index]

        # ---- turns 2-4: everyone finishes first, so the reveal starts at once; the Leader paces it ----
        for turn in range(2, PLAYERS + 1):
            leader, words, plans = await choose_and_plan(party, turn)
            ranking = [words[i] for i in RANK_IDX]
            grids = {}
            for seat, plan in plans.items():
                grids[seat] = await fill(party, seat, words, plan, 9)
                await party.act(seat, {"type": "done"})
            party.secrets[turn] = {"leader": leader, "ranking": ranking, "grids": grids}
            await party.all_see(lambda s: all(w["finished"] for w in s["view"]["writers"]))
            await party.act(leader, {"type": "rank", "words": ranking})
            state = await tv.wait_state(lambda s, t=turn: s["view"]["turn"] == t and s["view"]["phase"] == "reveal")
            assert state["view"]["countdown"] is False
            await step_show(party, leader, turn, "score")
            expected = score_turn(ranking, [grids.get(s) for s in range(PLAYERS)], leader).to_json()
            totals = [a + b for a, b in zip(totals, expected["points"], strict=True)]
            done = await tv.wait_state(lambda s, t=turn: len(s["view"]["history"]) >= t)
            assert done["view"]["history"][turn - 1]["points"] == expected["points"]
            await step_show(party, leader, turn, "choose")

        # ---- the end: everyone saw the same result; the host screen could never act ----
        final = await tv.wait_state(lambda s: s["outcome"] is not None)
        assert final["view"]["phase"] == "over" and final["view"]["scores"] == totals
        best = max(totals)
        assert final["outcome"]["winners"] == [s for s in range(PLAYERS) if totals[s] == best]
        assert len(final["view"]["history"]) == PLAYERS
        assert [h["leader"] for h in final["view"]["history"]] == [0, 1, 2, 3]
        for sock in party.players:
            mine = await sock.wait_state(lambda s: s["outcome"] is not None)
            assert mine["outcome"] == final["outcome"]
        with pytest.raises(ClientError) as err:
            await tv.act({"type": "next"})
        assert err.value.code in ("not_seated", "not_playing")
        room = await tv.wait_room(lambda r: r["status"] == "finished")
        assert sum(row["played"] for row in room["standings"]) == PLAYERS

        # ---- nobody saw a secret early ----
        for receiver, sock in [(None, tv), *enumerate(party.players)]:
            check_no_leaks(sock.history, receiver, party.secrets)


def check_no_leaks(history: list[dict[str, Any]], receiver: int | None, secrets: dict[int, dict[str, Any]]) -> None:
    """Replay what one socket received, in order, and fail on the first secret it saw too early."""
    assert any(m["type"] == "state" for m in history)
    turn = 0
    announced = 0
    revealed = False
    for index, msg in enumerate(history):
        where = f"message #{index} to seat {receiver}: {msg}"
        if msg["type"] == "state":
            view = msg["view"]
            turn, announced = view["turn"], len(view["announced"])
            revealed = view["phase"] in ("reveal", "score", "over")
            check_view(view, receiver, secrets.get(turn), where)
            for event in msg["events"]:
                check_event(event, receiver, revealed, where)
        secret = secrets.get(turn)
        if secret is None:
            continue
        raw = orjson.dumps(msg).decode()
        ranking = secret["ranking"]
        if receiver != secret["leader"]:
            # The Leader's order: two of their words side by side, the second not yet announced.
            for k in range(announced, 7):
                if k >= 1:
                    assert sig(ranking[k - 1 : k + 1]) not in raw, f"ranked word {k + 1} leaked: {where}"
            assert announced == 7 or sig(ranking) not in raw, where
        if not revealed:
            for seat, grid in secret["grids"].items():
                if seat == receiver:
                    continue
                for r in range(3):
                    row = grid[r * 3 : r * 3 + 3]
                    if None not in row:
                        assert sig(row) not in raw, f"seat {seat}'s grid leaked: {where}"


def check_view(view: dict[str, Any], receiver: int | None, secret: dict[str, Any] | None, where: str) -> None:
    leader = view["leader"]
    revealed = view["phase"] in ("reveal", "score", "over")
    assert view["you"] == receiver, where
    if receiver != leader:
        assert view["draft"] is None, where
        assert view["ranking"] is None or len(view["announced"]) == 7, where
        if view["phase"] == "choose":
            assert all(set(t) == {"name"} for t in view["offered"]), where
    if receiver is None or receiver == leader:
        assert view["grid"] is None, where
    if not revealed:
        assert view["grids"] is None and view["announced"] == [], where
    if secret is not None:
        assert view["announced"] == secret["ranking"][: len(view["announced"])], where
        if receiver is not None and receiver != leader and view["grid"] is not None:
            own = secret["grids"].get(receiver)
            filled = [w for w in view["grid"] if w is not None]
            assert own is None or all(w in own for w in filled), where


def check_event(event: dict[str, Any], receiver: int | None, revealed: bool, where: str) -> None:
    kind = event["kind"]
    owner = event.get("seat")
    if kind in ("wrote", "erased") and owner != receiver:
        assert "cell" not in event and "word" not in event, where
    if kind == "leader_drafting" and owner != receiver:
        assert "draft" not in event, where
    if kind == "ranked" and owner != receiver:
        assert "ranking" not in event, where
    if kind == "turn_start" and event.get("leader") != receiver:
        assert "offered_themes" not in event, where
    if kind == "writing_closed":
        assert revealed, where


def test_the_leak_scan_catches_early_secrets() -> None:
    """The scan above is not vacuous: each kind of early secret is caught (synthetic messages)."""
    words = THEMES[0]["words"]
    ranking = [words[i] for i in RANK_IDX]
    grid: list[str | None] = [words[i] for i in grid_plan(1, 1, set())]
    secrets = {1: {"leader": 0, "ranking": ranking, "grids": {1: grid}}}

    def state(**view: Any) -> dict[str, Any]:
        base = {"turn": 1, "leader": 0, "you": None, "phase": "write", "announced": [], "grids": None, "grid": None}
        base |= {"draft": None, "ranking": None, "offered": None}
        return {"type": "state", "view": base | view, "events": [], "log": []}

    check_no_leaks([state()], None, secrets)  # a clean writing phase
    check_no_leaks([state(phase="reveal", announced=ranking[:2], grids=[None, {"words": grid}])], None, secrets)
    leaks = [
        [state(grids=[None, {"words": grid}])],  # grids before the reveal
        [state(), {"type": "x", "grid": grid}],  # a grid row in any message
        [state(ranking=ranking)],  # the ranking to a non-Leader
        [state(phase="reveal", announced=ranking[:1]), {"type": "x", "words": ranking[:2]}],  # word 2 early
        [state(phase="reveal", announced=ranking[1:2])],  # an announced word out of order
        [{"type": "state", "view": state()["view"], "events": [{"kind": "wrote", "seat": 1, "cell": 0}], "log": []}],
        [
            {
                "type": "state",
                "view": state()["view"],
                "events": [{"kind": "ranked", "seat": 0, "ranking": []}],
                "log": [],
            }
        ],
    ]
    for history in leaks:
        with pytest.raises(AssertionError):
            check_no_leaks(history, None, secrets)
    # A player's own grid is theirs to see.
    check_no_leaks([state(you=1, grid=grid)], 1, secrets)
