"""Tricky Tactics over WebSockets: full games against a real server, and what each socket may see.

Humans act through the headless client, choosing only from what their view offers (``playable`` cards,
``pending_action`` targets). The server-side truth is rebuilt by replaying the engine locally with the
room's seed and the actions the spectator saw, cross-checked against the database (actions and the final
engine dump) when it is SQLite. Every message any seat or spectator received is then checked: its view and
events are exactly the engine's for that seat, and no message carries another hand's cards, the set-aside
cards or an unrevealed automa card.
"""

from __future__ import annotations

import asyncio
import copy
import json
import random
import re
import sqlite3
import time
from typing import Any

import orjson
import pytest

from app.client import ClientError, RoomSocket
from engines.tricky_tactics import ENGINE
from engines.tricky_tactics.cards import card_suit
from tests.app.helpers import Table, open_table, wait_all
from tests.support.server import ServerProcess

GAME = "tricky-tactics"
Message = dict[str, Any]

CARD_RE = re.compile(r"(?<![0-9A-Za-z])(10|[2-9]|A)([SHDC♠♥♦♣])(?![0-9A-Za-z])")
SUIT_OF_SYMBOL = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}


def cards_in(obj: Any) -> set[str]:
    """Every card named anywhere in ``obj``: ids ("10H") and display text ("10♥") alike."""
    text = obj if isinstance(obj, str) else orjson.dumps(obj).decode()
    return {rank + SUIT_OF_SYMBOL.get(suit, suit) for rank, suit in CARD_RE.findall(text)}


def normal(obj: Any) -> Any:
    return orjson.loads(orjson.dumps(obj))


# ---- choosing moves from the view only --------------------------------------------------------------


def choose(view: Message, rng: random.Random) -> Message:
    """A legal action picked from what the view offers (never from the rules)."""
    if view["phase"] == "play":
        playable = view["playable"]
        hand = view["hand"]
        assert playable and set(playable) <= set(hand)
        led = view["led_suit"]
        if led and any(card_suit(c) == led for c in hand):
            assert sorted(playable) == sorted(c for c in hand if card_suit(c) == led), "must follow the led suit"
        else:
            assert sorted(playable) == sorted(hand)
        return {"type": "play", "card": rng.choice(playable)}
    pending = view["pending_action"]
    assert pending is not None and pending["player"] == view["you"]
    targets: list[Message] = [{"type": "add", "location": loc} for loc in pending["add"]]
    targets += [{"type": "remove", "location": r["location"], "owner": r["owner"]} for r in pending["remove"]]
    assert targets, "the server skips an impossible Action itself"
    for t in targets:
        assert t["location"][1] == pending["suit"]
    removes = [t for t in targets if t["type"] == "remove"]
    if removes and rng.random() < 0.4:
        return rng.choice(removes)
    return rng.choice(targets)


# The server allows a socket 20 messages a second (bursts of 40): act at a brisk human-like pace instead.
MIN_GAP = 0.08


async def paced(last: dict[int, float], seat: int) -> None:
    wait = last.get(seat, 0.0) + MIN_GAP - time.monotonic()
    if wait > 0:
        await asyncio.sleep(wait)
    last[seat] = time.monotonic()


async def play_humans(table: Table, humans: list[int], rng: random.Random, on_turn: Any = None) -> Message:
    """Human seats act from their own views until the game is over; bots (if any) act by themselves."""
    moves = 0
    last: dict[int, float] = {}
    while True:
        state = await table.sockets[0].wait_state(
            lambda s: s["outcome"] is not None or any(seat in humans for seat in s["to_act"]), timeout=20
        )
        if state["outcome"] is not None:
            # Every socket (the spectator too) has the final state before anyone reads its history.
            for sock in [*table.sockets, *([table.spectator] if table.spectator else [])]:
                await sock.wait_state(lambda s, v=state["version"]: s["version"] >= v)
            return state
        seat = next(seat for seat in state["to_act"] if seat in humans)
        sock = table.seat_socket(seat)
        mine = await sock.wait_state(lambda s, v=state["version"]: s["version"] >= v)
        if mine["version"] != state["version"] or seat not in mine["to_act"]:
            continue
        view = mine["view"]
        assert view["you"] == seat and view["hand"] is not None
        await paced(last, seat)
        if on_turn is not None:
            await on_turn(table, seat, sock, mine)
            await paced(last, seat)
            mine = sock.state
            assert mine is not None
            view = mine["view"]
        action = choose(view, rng)
        ack = await sock.act(action, version=mine["version"])
        assert ack["version"] == mine["version"] + 1
        await wait_all(table, ack["version"])
        moves += 1
        assert moves < 400, "the game does not end"


# ---- the server-side truth ----------------------------------------------------------------------------


def actions_from_events(history: list[Message]) -> list[tuple[int, Message]]:
    """The (seat, action) that produced each version, read off a socket's events (the first event of
    each transition is the seat's own play or Action; the engine's automatic moves follow it)."""
    by_version: dict[int, list[Message]] = {}
    for msg in history:
        if msg.get("type") == "state" and msg["events"]:
            by_version.setdefault(msg["version"], msg["events"])
    last = max(by_version)
    assert sorted(by_version) == list(range(1, last + 1)), "a version was never seen with its events"
    out: list[tuple[int, Message]] = []
    for v in range(1, last + 1):
        first = by_version[v][0]
        assert isinstance(first["player"], int), first
        if first["kind"] == "play":
            out.append((first["player"], {"type": "play", "card": first["card"]}))
        else:
            assert first["kind"] == "action" and first["type"] in ("add", "remove"), first
            action = {"type": first["type"], "location": first["location"]}
            if first["type"] == "remove":
                action["owner"] = first["owner"]
            out.append((first["player"], action))
    return out


def replay(options: Message, seed: int, actions: list[tuple[int, Message]]) -> tuple[list[Any], list[list[Any]]]:
    """States by version and the engine's events of each transition (index v: from v-1 to v)."""
    state = ENGINE.new_game(ENGINE.parse_options(options), seed)
    states = [state]
    events: list[list[Any]] = [[]]
    for seat, action in actions:
        state, evs = ENGINE.apply(state, seat, ENGINE.parse_action(action))
        states.append(state)
        events.append(evs)
    return states, events


def check_database(server: ServerProcess, code: str, actions: list[tuple[int, Message]], final: Any) -> None:
    """SQLite only: the server's own action log and final engine dump agree with the local replay."""
    url = server.database_url
    if not url.startswith("sqlite"):
        return
    path = url.split(":///", 1)[1]
    with sqlite3.connect(path) as db:
        game_id, snapshot = db.execute(
            "SELECT g.id, g.snapshot FROM games g JOIN rooms r ON r.id = g.room_id WHERE r.code = ? "
            "ORDER BY g.number LIMIT 1",
            (code,),
        ).fetchone()
        rows = db.execute(
            "SELECT version, seat, action FROM game_actions WHERE game_id = ? ORDER BY version", (game_id,)
        ).fetchall()
    assert [(v, s, json.loads(a)) for v, s, a in rows] == [(i + 1, s, a) for i, (s, a) in enumerate(actions)]
    assert json.loads(snapshot) == normal(ENGINE.dump(final))


def secrets_for(state: Any, seat: int | None) -> set[str]:
    """Cards this viewer must not see: other hands, the automa's face-down deck, the set-aside cards."""
    hidden: set[str] = set(state.automa_deck) | set(state.set_aside)
    for p, hand in enumerate(state.hands):
        if p != seat:
            hidden |= set(hand)
    return hidden


def check_socket(sock_seat: int | None, history: list[Message], states: list[Any], events: list[list[Any]]) -> int:
    """Every message one socket received: the engine's exact view/events for that seat, and no secret.

    Returns how many state messages were checked."""
    checked = 0
    played_ever: set[str] = set()
    for evs in events:
        for e in evs:
            if e.kind == "play":
                played_ever.add(e.public["card"])
    own_ever: set[str] = set()
    if sock_seat is not None:
        for st in states:
            own_ever |= set(st.hands[sock_seat])
    for msg in history:
        if msg.get("type") != "state":
            # welcome / room / ack / error / pong name no card but the socket's own or a played one
            assert cards_in(msg) <= own_ever | played_ever, msg
            continue
        v = msg["version"]
        state = states[v]
        view = msg["view"]
        assert view == normal(ENGINE.view(state, sock_seat)), f"version {v}: not this seat's view"
        if msg["events"]:
            assert msg["events"] == normal([e.redact(sock_seat) for e in events[v]]), f"version {v}: events"
        check_message(sock_seat, msg, state, states[v - 1] if v else None, events[v] if v else [], played_ever)
        checked += 1
    return checked


def check_message(
    seat: int | None, msg: Message, state: Any, before: Any, truth_events: list[Any], played_ever: set[str]
) -> None:
    """The hidden-information rule for one state message."""
    view = copy.deepcopy(msg["view"])
    if seat is None:
        assert view["hand"] is None and view["playable"] == []
    else:
        assert view["hand"] == list(state.hands[seat])
    view.pop("hand")
    view.pop("playable")
    now = secrets_for(state, seat)
    leaked = cards_in(view) & now
    assert not leaked, f"version {msg['version']}: the view shows hidden cards {leaked}"
    # Between the automa's turns only its carryover is public.
    if view.get("automa") is not None and msg["to_act"]:
        assert len(view["automa"]["row"]) <= 1
        assert set(view["automa"]["row"]) <= set(state.automa_row)
    # Events before a new deal belong to the old hand; from the deal on, to the new one.
    evs = copy.deepcopy(msg["events"])
    cut = next((i for i, e in enumerate(evs) if e["kind"] == "deal"), len(evs))
    if before is not None:
        made_public = set()
        for e in truth_events:
            if e.kind in ("play", "reveal"):
                made_public |= cards_in(e.public)
        old = secrets_for(before, seat) - made_public
        leaked = cards_in(evs[:cut]) & old
        assert not leaked, f"version {msg['version']}: events show hidden cards {leaked}"
    for e in evs[cut:]:
        if e["kind"] == "deal":
            if seat is None:
                assert "hand" not in e
            else:
                assert e["hand"] == list(state.hands[seat])
                e.pop("hand")
    leaked = cards_in(evs[cut:]) & now
    assert not leaked, f"version {msg['version']}: events of the new deal show hidden cards {leaked}"
    for line in msg["log"]:
        assert cards_in(line) <= played_ever, f"log line names a card never played: {line}"


def check_all(table: Table, options: Message, seed: int, server: ServerProcess) -> list[Any]:
    assert table.spectator is not None
    actions = actions_from_events(table.spectator.history)
    states, events = replay(options, seed, actions)
    check_database(server, table.code, actions, states[-1])
    final = table.spectator.state
    assert final is not None and final["version"] == len(actions)
    socks: list[tuple[int | None, RoomSocket]] = [(s.you["seat"], s) for s in table.sockets if s.you]
    socks.append((None, table.spectator))
    for seat, sock in socks:
        checked = check_socket(seat, sock.history, states, events)
        assert checked >= len(actions), f"seat {seat} saw only {checked} states"
    # The checker itself can fail: a doctored message that shows seat 1's hand to seat 0 is caught.
    sample = next(m for m in table.sockets[0].history if m.get("type") == "state" and m["version"] == 1)
    doctored = copy.deepcopy(sample)
    doctored["view"]["trick"].append({"player": 1, "card": states[1].hands[1][0]})
    with pytest.raises(AssertionError):
        check_message(0, doctored, states[1], states[0], events[1], set())
    if states[1].automa_deck:
        doctored = copy.deepcopy(sample)
        doctored["events"].append({"kind": "note", "text": f"next up {states[1].automa_deck[0]}"})
        with pytest.raises(AssertionError):
            check_message(0, doctored, states[1], states[0], events[1], set())
    return states


# ---- the tests ------------------------------------------------------------------------------------------


async def refused(sock: RoomSocket, action: Message, version: int, code: str) -> str:
    with pytest.raises(ClientError) as err:
        await sock.act(action, version=version)
    assert err.value.code == code, err.value
    return err.value.message


@pytest.mark.slow  # 12 s: a whole automa game, twice
async def test_automa_game_two_humans_to_the_end(server: ServerProcess) -> None:
    """2 humans + the automa, three rounds, every move chosen from the acting seat's view."""
    seed = 20
    options = {"mode": "automa"}
    table = await open_table(server.url, GAME, options, seed=seed, players=2)
    forged: dict[str, str] = {}

    async def forge(table: Table, seat: int, sock: RoomSocket, state: Message) -> None:
        """Once each: an illegal card while following, a card not held, an Action outside the Area, acting
        out of turn. Each is refused with the reason and changes nothing."""
        view = state["view"]
        v = state["version"]
        other = table.seat_socket(1 - seat)
        if view["phase"] == "play" and "follow" not in forged and set(view["playable"]) != set(view["hand"]):
            off_suit = next(c for c in view["hand"] if c not in view["playable"])
            forged["follow"] = await refused(sock, {"type": "play", "card": off_suit}, v, "illegal")
            public = next((t["card"] for t in view["trick"]), None)
            if public is not None:
                forged["not_held"] = await refused(sock, {"type": "play", "card": public}, v, "illegal")
            forged["turn"] = await refused(
                other, {"type": "play", "card": other.state["view"]["hand"][0]}, v, "not_your_turn"
            )
        if view["phase"] == "action" and "area" not in forged:
            suit = view["pending_action"]["suit"]
            elsewhere = next(f"K{s}" for s in "SHDC" if s != suit)
            forged["area"] = await refused(sock, {"type": "add", "location": elsewhere}, v, "illegal")
            forged["own"] = await refused(sock, {"type": "remove", "location": f"K{suit}", "owner": seat}, v, "illegal")
            forged["play_now"] = await refused(sock, {"type": "play", "card": view["hand"][0]}, v, "illegal")
        assert sock.state is not None and sock.state["version"] == v

    try:
        start = table.sockets[0].state
        assert start is not None
        first = start["view"]
        assert first["mode"] == "automa" and [p["id"] for p in first["players"]] == [0, 1, "automa"]
        assert [p["hand_size"] for p in first["players"]][:2] == [12, 12]
        assert first["players"][2]["hand_size"] + len(first["trick"]) == 16
        final = await play_humans(table, [0, 1], random.Random(seed), on_turn=forge)

        assert "must follow" in forged["follow"]
        assert "not in your hand" in forged.get("not_held", "not in your hand")
        assert forged["turn"] and "Area" in forged["area"] and "opponent" in forged["own"]
        assert "Action" in forged["play_now"]

        view = final["view"]
        assert view["phase"] == "over" and len(view["round_points"]) == 3
        standings = view["standings"]
        assert {s["player"] for s in standings} == {0, 1, "automa"}
        outcome = final["outcome"]
        assert outcome["ranks"] == [next(s["place"] for s in standings if s["player"] == p) for p in (0, 1)]
        assert outcome["winners"] == [p for p in (0, 1) if outcome["ranks"][p] == 0]
        for sock in [*table.sockets, table.spectator]:
            assert sock is not None
            done = await sock.wait_state(lambda s: s["outcome"] is not None)
            assert done["view"]["standings"] == standings

        states = check_all(table, options, seed, server)
        # The automa really played: it won tricks or at least laid cards, always with a reason.
        automa_plays = [
            e
            for evs in (m["events"] for m in table.spectator.history if m.get("type") == "state")  # type: ignore[union-attr]
            for e in evs
            if e["kind"] == "play" and e["player"] == "automa"
        ]
        assert len(automa_plays) >= 30 and all(e["reason"] and len(e["row"]) in (1, 2) for e in automa_plays)
        assert states[-1].phase == "over"

        # Rematch: same seats, a fresh deal.
        await table.sockets[0].send({"type": "rematch"})
        fresh = await table.sockets[1].wait_state(lambda s: s["version"] == 0 and s["outcome"] is None)
        assert fresh["view"]["round"] == 1 and fresh["view"]["players"][0]["score"] == 0
    finally:
        await table.close()


async def test_four_player_game_with_bots(sqlite_server: ServerProcess) -> None:
    """Two humans through the client and two bots: 10 cards each, three rounds, nothing hidden leaks."""
    seed = 41
    options = {"mode": "4p"}
    table = await open_table(sqlite_server.url, GAME, options, seed=seed, players=2, start=False)
    try:
        host = table.sockets[0]
        for seat in (2, 3):
            await host.send({"type": "add_bot", "seat": seat})
        await host.wait_room(lambda r: all(s["player"] is not None for s in r["seats"]))
        await host.send({"type": "start"})
        for sock in [*table.sockets, table.spectator]:
            assert sock is not None
            await sock.wait_state()
        first = host.state
        assert first is not None
        assert [p["hand_size"] for p in first["view"]["players"]] == [10, 10, 10, 10]
        assert first["view"]["tricks_per_round"] == 10 and first["view"]["automa"] is None
        final = await play_humans(table, [0, 1], random.Random(seed))
        view = final["view"]
        assert view["phase"] == "over" and len(view["round_points"]) == 3
        assert len(final["outcome"]["scores"]) == 4
        states = check_all(table, options, seed, sqlite_server)
        # Bots did play their seats, and through the same path.
        seats_moved = {seat for seat, _ in actions_from_events(table.spectator.history)}  # type: ignore[union-attr]
        assert seats_moved == {0, 1, 2, 3}
        assert all(sum(st.map[loc][p] for loc in st.map) + st.supply[p] == 10 for st in states for p in range(4))
    finally:
        await table.close()


async def test_three_player_game_set_aside_cards_stay_hidden(sqlite_server: ServerProcess) -> None:
    """3 humans (one through the client, two bots), one round: the 4 set-aside cards never show."""
    seed = 5
    options = {"mode": "3p", "rounds": 1}
    table = await open_table(sqlite_server.url, GAME, options, seed=seed, players=1, start=False)
    try:
        host = table.sockets[0]
        for seat in (1, 2):
            await host.send({"type": "add_bot", "seat": seat})
        await host.wait_room(lambda r: all(s["player"] is not None for s in r["seats"]))
        await host.send({"type": "start"})
        start = await host.wait_state()
        assert start["view"]["set_aside"] == 4
        assert [p["hand_size"] for p in start["view"]["players"]] == [12, 12, 12]
        await play_humans(table, [0], random.Random(seed))
        states = check_all(table, options, seed, sqlite_server)
        assert len(states[0].set_aside) == 4
        # One round: the set-aside cards are never dealt, so no message at all may name them.
        everything = "".join(
            orjson.dumps(m).decode() for s in [*table.sockets, table.spectator] if s for m in s.history
        )
        assert not set(states[0].set_aside) & cards_in(everything)
        assert cards_in(everything) >= {c for st in states for c in st.hands[0]}  # the scan does see cards
    finally:
        await table.close()
