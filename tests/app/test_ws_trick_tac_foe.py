"""Trick-Tac-Foe over WebSockets: a full 2-player game (SQLite and PostgreSQL) and a full 4-player game with two
bots, each watched by a spectator, and the live wire checked for hidden information.

The hidden-information check rebuilds the truth: it reads the actions off the public events (a commit's card
from its later reveal, a wild choice from its resolve), replays them with the engine and the room's seed, and
then looks at every message every socket received. No message may carry a card from a personal deck, another
seat's hand, or another seat's committed card before its pair's reveal (teammates included).
"""

from __future__ import annotations

import asyncio
import copy
import itertools
import re
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import pytest

from app.client import ClientError, RoomSocket, ThreefoldClient
from engines.trick_tac_foe.cards import CARD_SET, card_text, sort_cards
from engines.trick_tac_foe.rules import ENGINE
from engines.trick_tac_foe.seats import labels_for
from engines.trick_tac_foe.state import TrickTacFoeState
from tests.app.helpers import Table, open_table
from tests.app.test_room_unload import FORGETFUL, wait_rooms_loaded
from tests.support.inprocess import InProcessServer
from tests.support.server import ServerProcess

PACE = 0.07  # seconds between one seat's actions (the server allows 20 messages a second per socket)
GLYPH = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}
GLYPH_CARD = re.compile(r"(10|[2-9]|A)([♠♥♦♣])")


def cards_in(obj: Any) -> set[str]:
    """Every card named anywhere in a JSON value: codes ("7S") and text ("7♠")."""
    found: set[str] = set()
    if isinstance(obj, str):
        if obj in CARD_SET:
            found.add(obj)
        for rank, glyph in GLYPH_CARD.findall(obj):
            found.add(rank + GLYPH[glyph])
    elif isinstance(obj, dict):
        for value in obj.values():
            found |= cards_in(value)
    elif isinstance(obj, list):
        for value in obj:
            found |= cards_in(value)
    return found


def secret_cards(state: TrickTacFoeState, viewer: int | None) -> set[str]:
    """What ``viewer`` (None = spectator) must not see in this state."""
    hidden: set[str] = set()
    for s in range(state.players):
        hidden |= set(state.decks[s])
        if s != viewer:
            hidden |= set(state.hands[s])
            card = state.committed[s]
            if card is not None and not state.revealed[s]:
                hidden.add(card)
    return hidden


def choose(view: dict[str, Any], version: int) -> dict[str, Any]:
    """A human's pick from their own view: a wild cell that changes something, else a card from the hand."""
    if view["phase"] == "wild":
        mine = view["seats"][view["you"]]["colour"]
        for entry in view["board"]:
            if entry["token"] != mine:
                return {"type": "wild", "number": entry["number"]}
        return {"type": "wild", "number": 5}
    hand = view["hand"]
    return {"type": "commit", "card": hand[version % len(hand)]}


async def play_seat(sock: RoomSocket, seat: int, sent: list[tuple[int, int, dict[str, Any]]]) -> None:
    """Act for ``seat`` whenever it is asked to, until the game is over; record (version, seat, action)."""
    seen = -1
    while True:

        def asked(s: dict[str, Any], seen: int = seen) -> bool:
            return s["outcome"] is not None or (seat in s["to_act"] and s["version"] > seen)

        state = await sock.wait_state(asked, timeout=20)
        if state["outcome"] is not None:
            return
        view = state["view"]
        assert view["you"] == seat
        action = choose(view, state["version"])
        if action["type"] == "commit":
            assert action["card"] in view["hand"]
        await asyncio.sleep(PACE)  # a brisk human, under the server's per-socket message rate limit
        try:
            ack = await sock.act(action, version=state["version"])
        except ClientError as err:  # the game moved on meanwhile (a wild choice elsewhere): look again
            assert err.code in ("stale_version", "illegal"), err
            seen = state["version"]
            continue
        sent.append((int(ack["version"]), seat, action))
        # The state our action produced may ask us again (a won wild 10): anything older may not.
        seen = int(ack["version"]) - 1


def state_messages(sock: RoomSocket) -> list[dict[str, Any]]:
    return [m for m in sock.history if m.get("type") == "state"]


def reconstruct(spectator: RoomSocket) -> list[tuple[int, dict[str, Any]]]:
    """The action log (seat, action) per version 1.., read off the public events alone."""
    by_version: dict[int, dict[str, Any]] = {}
    for msg in state_messages(spectator):
        by_version.setdefault(int(msg["version"]), msg)
    final = max(by_version)
    assert sorted(by_version) == list(range(final + 1)), "the spectator missed a version"
    actions: list[tuple[int, dict[str, Any]]] = []
    waiting: dict[int, int] = {}  # seat -> index of its commit whose card is not known yet
    for version in range(1, final + 1):
        events = by_version[version]["events"]
        assert events, f"version {version} came without events"
        first = events[0]
        if first["kind"] == "commit":
            assert "card" not in first, "a spectator saw a committed card"
            waiting[first["seat"]] = len(actions)
            actions.append((first["seat"], {"type": "commit", "card": None}))
        else:
            assert first["kind"] == "resolve" and first["wild"], first
            actions.append((first["seat"], {"type": "wild", "number": first["number"]}))
        for event in events:
            if event["kind"] == "reveal":
                for seat, card in zip(event["seats"], event["cards"], strict=True):
                    actions[waiting.pop(seat)][1]["card"] = card
    assert not waiting, "a committed card was never revealed"
    return actions


def check_wire(table: Table, seed: int, options: dict[str, Any], sockets: dict[int | None, Any]) -> int:
    """Replay the game and check every state message of every socket; returns the number of actions."""
    assert table.spectator is not None
    actions = reconstruct(table.spectator)
    state = ENGINE.new_game(ENGINE.parse_options(options), seed)
    truth = [state]
    truth_events: list[list[Any]] = [[]]
    for seat, action in actions:
        state, events = ENGINE.apply(state, seat, ENGINE.parse_action(action))  # the wire's JSON
        truth.append(state)
        truth_events.append(events)
    assert ENGINE.outcome(state) is not None
    labels = labels_for(state.players)
    checked = 0
    for viewer, sock in sockets.items():
        for msg in state_messages(sock):
            v = int(msg["version"])
            now = truth[v]
            view = msg["view"]
            # The view: judged against the state it describes.
            leaked = cards_in(view) & secret_cards(now, viewer)
            assert not leaked, f"seat {viewer} saw {sorted(leaked)} in the view at version {v}"
            assert not (cards_in(msg.get("outcome")) | cards_in(msg.get("to_act"))), msg
            events = msg["events"]
            if v > 0 and events:
                # Exactly what the engine said, redacted for this socket: nothing more on the wire.
                assert events == [e.redact(viewer) for e in truth_events[v]], f"events differ at version {v}"
                # Cards in the events and the new log line: only those this action revealed, and the
                # viewer's own (its commit, its draws); round 1's events are judged on round 1's state.
                revealed = {c for e in events if e["kind"] == "reveal" for c in e["cards"]}
                own: set[str] = set()
                for e in events:
                    if ("cards" in e and e["kind"] == "draw") or ("card" in e and e["kind"] == "commit"):
                        assert e["seat"] == viewer, f"seat {viewer} got seat {e['seat']}'s private event"
                        own |= set(e.get("cards") or [e["card"]])
                split = next((i for i, e in enumerate(events) if e["kind"] == "round_start"), len(events))
                before = cards_in([events[:split], msg["log"][-1:]]) - revealed - own
                after = cards_in(events[split:]) - own
                leaked = (before & secret_cards(truth[v - 1], viewer)) | (after & secret_cards(now, viewer))
                assert not leaked, f"seat {viewer} saw {sorted(leaked)} in the events at version {v}"
                if viewer is not None:
                    assert own <= set(now.hands[viewer]) | set(truth[v - 1].hands[viewer])
            # The replay matches what the server showed this seat.
            if viewer is None:
                assert view["hand"] is None and view["your_card"] is None and view["perspective"] == "south"
            else:
                assert view["hand"] == sort_cards(now.hands[viewer])
                assert view["your_card"] == now.committed[viewer]
                assert view["perspective"] == labels[viewer].lower()
            assert [e["number"] for e in view["board"]] == list(range(1, 10))
            assert view["scores"] == list(now.scores)
            checked += 1
    assert checked > len(actions)
    return len(actions)


async def finish(sockets: list[RoomSocket]) -> dict[str, Any]:
    final = None
    for sock in sockets:
        final = await sock.wait_state(lambda s: s["outcome"] is not None, timeout=20)
    assert final is not None
    version = final["version"]
    for sock in sockets:
        await sock.wait_state(lambda s: s["version"] == version)
    return final


async def test_full_two_player_game_keeps_hands_hidden(server: ServerProcess) -> None:
    seed = 21
    options = {"players": 2}
    table = await open_table(server.url, "trick-tac-foe", options, seed=seed)
    try:
        spectator = table.spectator
        assert spectator is not None
        first = table.sockets[0].state
        assert first is not None
        assert first["view"]["perspective"] == "south" and first["view"]["rotation"] == 0
        assert table.sockets[1].state is not None and table.sockets[1].state["view"]["perspective"] == "north"
        assert sorted(first["to_act"]) == [0, 1]
        assert len(first["view"]["hand"]) == 4 and first["view"]["seats"][1]["hand_count"] == 4
        sent: list[tuple[int, int, dict[str, Any]]] = []
        await asyncio.wait_for(
            asyncio.gather(*(play_seat(sock, seat, sent) for seat, sock in enumerate(table.sockets))), 60
        )
        final = await finish([*table.sockets, spectator])
        view = final["view"]
        assert view["phase"] == "over" and view["round"] == 2 and len(view["history"]) == 2
        assert final["outcome"]["scores"] == [view["scores"][1], view["scores"][0]]  # South is Black
        # The end cleared the grid; a page opened now still gets the position the game ended on, as the pages
        # that watched the last move do.
        assert not any(any(row) for row in view["grid"]) and any(any(row) for row in view["final"]["grid"])
        async with ThreefoldClient(server.url) as late:
            await late.set_name("Late")
            async with late.connect(table.code) as sock:
                opened = await sock.wait_state()
        assert opened["version"] == final["version"] and opened["view"]["final"] == view["final"]
        n = check_wire(table, seed, options, {0: table.sockets[0], 1: table.sockets[1], None: spectator})
        # 2 rounds of 20 tricks: 80 commits, plus one action per wild 10 that won.
        wilds = sum(1 for _, _, a in sent if a["type"] == "wild")
        assert n == len(sent) == 80 + wilds
        # The check is not blind: North's card planted in a message to South is caught, in the view and in a
        # log line alike.
        south_msgs = state_messages(table.sockets[0])
        north_hands = {m["version"]: m["view"]["hand"] for m in state_messages(table.sockets[1])}
        msg = next(m for m in south_msgs if m["version"] > 0 and north_hands.get(m["version"]))
        card = north_hands[msg["version"]][0]
        for plant in ("view", "log"):
            forged = copy.deepcopy(msg)
            if plant == "view":
                forged["view"]["seats"][1]["card"] = card
            else:
                forged["log"].append(f"North holds {card_text(card)}")
            with pytest.raises(AssertionError, match="saw"):
                check_wire(table, seed, options, {0: SimpleNamespace(history=[forged])})
        # Nobody can act once it is over; the spectator never could.
        with pytest.raises(ClientError) as refused:
            await spectator.act({"type": "commit", "card": "AS"})
        assert refused.value.code in ("not_seated", "not_playing")
    finally:
        await table.close()


async def test_full_four_player_game_with_two_bots(sqlite_server: ServerProcess) -> None:
    """Two humans (teammates North and East, Red) against two bots (South and West), a spectator watching."""
    seed = 8
    options = {"players": 4}
    async with (
        ThreefoldClient(sqlite_server.url) as ann,
        ThreefoldClient(sqlite_server.url) as ben,
        ThreefoldClient(sqlite_server.url) as cy,
    ):
        await ann.set_name("Ann")
        await ben.set_name("Ben")
        await cy.set_name("Cy")
        code = await ann.create_room("trick-tac-foe", options, seed=seed)
        async with ann.connect(code) as north, ben.connect(code) as east, cy.connect(code) as watcher:
            for sock in (north, east, watcher):
                await sock.next(lambda m: m["type"] == "room")
            assert north.you is not None and north.you["seat"] == 0  # Ann sat creating the room
            await east.send({"type": "sit", "seat": 1})
            await east.next(lambda m: m["type"] == "welcome" and m["you"]["seat"] == 1)
            await north.send({"type": "add_bot", "seat": 2})
            await north.send({"type": "add_bot", "seat": 3})
            room = await watcher.wait_room(lambda r: all(s["player"] is not None for s in r["seats"]))
            assert [s["team"] for s in room["seats"]] == [0, 0, 1, 1]
            # Seats are data the pages phrase (docs/protocol.md "Room summary"), never an English label.
            assert [s["direction"] for s in room["seats"]] == ["north", "east", "south", "west"]
            assert all(set(s) == {"index", "team", "direction", "player"} for s in room["seats"])
            assert [s["player"]["bot"] for s in room["seats"]] == [False, False, True, True]
            await north.send({"type": "start"})
            start = await watcher.wait_state(lambda s: s["version"] == 0)
            view = start["view"]
            assert [s["direction"] for s in view["seats"]] == ["north", "east", "south", "west"]
            assert [set(t) for t in view["teams"]] == [{"team", "colour", "seats", "score"}] * 2
            assert view["players"] == 4 and view["tricks_in_round"] == 10 and view["rounds"] == 3
            assert view["first_pair"] == view["order"][0] and view["start_seat"] in view["first_pair"]

            sent: list[tuple[int, int, dict[str, Any]]] = []
            await asyncio.wait_for(asyncio.gather(play_seat(north, 0, sent), play_seat(east, 1, sent)), 90)
            final = await finish([north, east, watcher])
            assert final["view"]["phase"] == "over" and len(final["view"]["history"]) == 3
            scores = final["view"]["scores"]
            assert final["outcome"]["scores"] == [scores[0], scores[0], scores[1], scores[1]]

            table = Table(code, [ann, ben], [north, east], watcher)
            n = check_wire(table, seed, options, {0: north, 1: east, None: watcher})
            # 3 rounds of 10 sets of 4 commits, plus the wild choices; the humans made 60 of the commits.
            assert sum(1 for _, _, a in sent if a["type"] == "commit") == 60
            assert n >= 120
            # The starting position passed clockwise every set and never reset (not even at a new round).
            starts: list[tuple[tuple[int, int], int]] = []
            for msg in state_messages(watcher):
                key = (msg["view"]["round"], msg["view"]["trick"])
                if not starts or starts[-1][0] != key:
                    starts.append((key, msg["view"]["start_seat"]))
            assert len(starts) == 30
            for (_, a), (_, b) in itertools.pairwise(starts):
                assert b == (a + 1) % 4


@pytest.fixture
def quick_forgetful_server(sqlite_url: str) -> Iterator[InProcessServer]:
    """Bots without pauses, and rooms let go a second after their last socket leaves."""
    proc = InProcessServer(sqlite_url, extra_env={**FORGETFUL, "THREEFOLD_BOT_PACE": "0"}).start()
    yield proc
    proc.stop()


async def test_a_finished_four_player_game_opens_on_the_grid_it_ended_on(
    quick_forgetful_server: InProcessServer,
) -> None:
    """Four bots play a one-round 2v2 to its end; the room is let go and loaded again (its game replayed from
    the store). A socket that opens it then gets the result and the position the game ended on: the end
    cleared the grid, the view's ``final`` still has its tokens."""
    url = quick_forgetful_server.url
    async with ThreefoldClient(url) as host:
        await host.set_name("Host")
        code = await host.create_room("trick-tac-foe", {"players": 4, "one_shot": True}, seed=5)
        async with host.connect(code) as sock:
            await sock.next(lambda m: m["type"] == "room")
            await sock.send({"type": "stand"})
            for seat in range(4):
                await sock.send({"type": "add_bot", "seat": seat})
            await sock.wait_room(lambda r: all(s["player"] for s in r["seats"]))
            await sock.send({"type": "start"})
            ended = await sock.wait_state(lambda s: s["outcome"] is not None, timeout=60)
        await wait_rooms_loaded(quick_forgetful_server, 0)
        async with host.connect(code) as sock:
            opened = await sock.wait_state()
    view = ended["view"]
    assert view["phase"] == "over" and not any(any(row) for row in view["grid"])
    assert any(any(row) for row in view["final"]["grid"])
    assert (opened["version"], opened["outcome"]) == (ended["version"], ended["outcome"])
    assert opened["view"]["final"] == view["final"]
