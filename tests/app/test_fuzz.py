"""Protocol fuzzing against a live server: thousands of random and mutated WebSocket messages.

Two players and a spectator of a Tri-Tac room (plus throw-away extra sockets) send garbage at every stage of a
room's life: the lobby, a game in progress, a finished game. Every candidate message is classified by an
oracle written from docs/protocol.md and docs/games/tri-tac.md; the ones that *might* be valid are not sent,
so every message that is sent must be refused. After each batch the test checks, through ``sync``:

- no ``internal`` error, no ``ack``, exactly one ``error`` per refused message (with its ``id`` echoed), a
  ``pong`` per ``ping``, only documented error codes;
- nothing changed: the game version, every seat's view and the room summary are exactly as before;
- no valid connection was closed.

Then the game is played to its end and a rematch starts. The random generator is seeded: a failure replays.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import string
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

import orjson
import pytest
import websockets

from app.client import RoomSocket, ThreefoldClient
from app.live.messages import (
    Act,
    AddBot,
    Chat,
    Configure,
    Kick,
    MakeHost,
    MoveSeat,
    Ping,
    ProtocolError,
    Rematch,
    RemoveBot,
    RoomSettingsMsg,
    ShuffleTeams,
    Sit,
    Stand,
    Start,
    Sync,
    parse,
)
from app.live.room_settings import RoomSettings
from engines.base import EngineError
from engines.registry import get_engine
from tests.app.helpers import Table, open_table
from tests.support.inprocess import InProcessServer
from tests.support.server import ServerProcess

SEED = 20240608
MAX_BYTES = 8192  # settings.max_message_bytes
WS_MAX_SIZE = 1048576  # --ws-max-size in tests/support/server.py
FAST_ENV = {"THREEFOLD_MESSAGES_PER_SECOND": "100000", "THREEFOLD_MESSAGE_BURST": "100000"}
CHUNK = 20
"""Messages per socket between two fences: at most two replies each, so the 64-deep send queue never overflows."""

DOCUMENTED_CODES = {
    "bad_json",
    "bad_message",
    "too_large",
    "rate_limited",
    "not_host",
    "not_seated",
    "not_your_turn",
    "stale_version",
    "duplicate",
    "illegal",
    "bad_options",
    "seat_taken",
    "not_in_lobby",
    "not_playing",
    "seats_empty",
    "no_bot",
}
"""docs/protocol.md "Error codes" that a connected socket can get. ``internal`` is deliberately not in it."""

Message = dict[str, Any]


@pytest.fixture
def fast_server(sqlite_url: str) -> Iterator[InProcessServer]:
    """A server with the per-socket rate limit raised, so the fuzzer is not slowed to 20 messages a second."""
    proc = InProcessServer(sqlite_url, extra_env=FAST_ENV).start()
    yield proc
    proc.stop()


# ---- the oracle -----------------------------------------------------------------------------------------


@dataclass
class World:
    """What the fuzzer knows about the room: the latest room summary and game state, as the clients saw them."""

    room: Message
    state: Message | None
    host_id: int

    @property
    def status(self) -> str:
        return str(self.room["status"])

    def board(self) -> list[list[Any]]:
        assert self.state is not None
        board: list[list[Any]] = self.state["view"]["board"]
        return board


@dataclass
class Sender:
    name: str
    sock: RoomSocket
    player_id: int
    seat: int | None
    remembered: list[str] = field(default_factory=list)
    """Ids of this socket's acts that the server remembers for duplicate detection (this batch only)."""


def is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def tri_tac_action_valid(action: Any, board: list[list[Any]]) -> bool:
    """docs/games/tri-tac.md, no options on: ``pass``, or ``place`` on an empty cell; extra fields refused."""
    if not isinstance(action, dict):
        return False
    if action == {"type": "pass"}:
        return True
    if set(action) != {"type", "cell"} or action["type"] != "place":
        return False
    cell = action["cell"]
    if not isinstance(cell, list) or len(cell) != 2 or not all(is_int(v) for v in cell):
        return False
    r, c = cell
    return 0 <= r < len(board) and 0 <= c < len(board) and board[r][c] is None


@dataclass
class Verdict:
    send: bool
    """False: the message might be accepted, so it is not sent (the fuzzer only sends what must be refused)."""
    reply: str = "error"
    """'error', 'pong' or 'sync' (a state and/or room message, no error)."""
    codes: frozenset[str] = frozenset()
    """The acceptable error codes."""
    echo: str | None = None
    """The id the error must carry."""
    remembered: str | None = None
    """An ``act`` id the server now remembers on this socket (it passed the seat and version checks)."""


def judge(raw: str | bytes, sender: Sender, world: World) -> Verdict:
    """Classify one raw message as the server must treat it (docs/protocol.md)."""
    size = len(raw.encode() if isinstance(raw, str) else raw)
    echo: str | None = None
    if size <= MAX_BYTES:
        try:
            data = orjson.loads(raw)
        except orjson.JSONDecodeError:
            data = None
        if isinstance(data, dict) and isinstance(data.get("id"), str):
            echo = data["id"]
    try:
        msg = parse(raw, MAX_BYTES)
    except ProtocolError as err:
        return Verdict(True, "error", frozenset({err.code}), echo)
    if isinstance(msg, Ping):
        return Verdict(True, "pong", echo=echo)
    if isinstance(msg, Sync):
        return Verdict(True, "sync", echo=echo)
    playing = world.status == "playing"
    is_host = sender.player_id == world.host_id
    if isinstance(msg, Act):
        if not playing:
            return Verdict(True, "error", frozenset({"not_playing"}), echo)
        if sender.seat is None:
            return Verdict(True, "error", frozenset({"not_seated"}), echo)
        assert world.state is not None
        if msg.id is not None and msg.id in sender.remembered:
            return Verdict(True, "error", frozenset({"duplicate"}), echo)
        if sender.seat not in world.state["to_act"]:
            return Verdict(True, "error", frozenset({"not_your_turn"}), echo)
        if msg.version != world.state["version"]:
            # Tri-Tac is strictly turn-based: the mover was asked at the current version.
            return Verdict(True, "error", frozenset({"stale_version"}), echo)
        if tri_tac_action_valid(msg.action, world.board()):
            return Verdict(False)
        # Refused, so not remembered: only applied actions count as duplicates when resent.
        return Verdict(True, "error", frozenset({"illegal"}), echo)
    if isinstance(msg, Sit | Stand):
        if playing:
            return Verdict(True, "error", frozenset({"not_in_lobby"}), echo)
        if isinstance(msg, Sit):
            seats = world.room["seats"]
            if not 0 <= msg.seat < len(seats):
                return Verdict(True, "error", frozenset({"bad_message"}), echo)
            holder = seats[msg.seat]["player"]
            if holder is not None and holder["id"] != sender.player_id:
                return Verdict(True, "error", frozenset({"seat_taken"}), echo)
        return Verdict(False)
    if isinstance(msg, Configure):
        if not is_host:
            return Verdict(True, "error", frozenset({"not_host"}), echo)
        if playing:
            return Verdict(True, "error", frozenset({"not_in_lobby"}), echo)
        try:
            game = msg.game or world.room["game"]
            get_engine(game).parse_options(msg.options if msg.options is not None else {})
        except EngineError:
            return Verdict(True, "error", frozenset({"bad_options"}), echo)
        return Verdict(False)
    if isinstance(msg, Rematch) and not is_host and world.status == "finished":
        # After a game any seated player may accept a rematch (it starts once all have).
        if sender.seat is None:
            return Verdict(True, "error", frozenset({"not_seated"}), echo)
        return Verdict(False)
    if isinstance(msg, Start | Rematch):
        if not is_host:
            return Verdict(True, "error", frozenset({"not_host"}), echo)
        if playing:
            return Verdict(True, "error", frozenset({"not_in_lobby"}), echo)
        if any(seat["player"] is None for seat in world.room["seats"]):
            return Verdict(True, "error", frozenset({"seats_empty"}), echo)
        return Verdict(False)
    if isinstance(msg, Chat):
        text = " ".join(msg.text.split())
        if not text or any(not ch.isprintable() for ch in text):
            return Verdict(True, "error", frozenset({"bad_message"}), echo)
        if len(text) > 300:
            return Verdict(True, "error", frozenset({"too_large"}), echo)
        if msg.team:  # Tri-Tac has no teams; the chat rate limit is checked first
            return Verdict(True, "error", frozenset({"bad_message", "rate_limited"}), echo)
        return Verdict(False)
    # Host controls: everyone else is refused first.
    if not is_host:
        return Verdict(True, "error", frozenset({"not_host"}), echo)
    seats = world.room["seats"]
    if isinstance(msg, AddBot | RemoveBot | MoveSeat | ShuffleTeams) and playing:
        return Verdict(True, "error", frozenset({"not_in_lobby"}), echo)
    if isinstance(msg, AddBot | RemoveBot):
        if not 0 <= msg.seat < len(seats):
            return Verdict(True, "error", frozenset({"bad_message"}), echo)
        seat = seats[msg.seat]
        is_bot = seat["player"] is not None and seat["player"].get("bot")
        if isinstance(msg, AddBot) and (seat["player"] is not None):
            return Verdict(True, "error", frozenset({"seat_taken"}), echo)
        if isinstance(msg, RemoveBot) and not is_bot:
            return Verdict(True, "error", frozenset({"bad_message"}), echo)
        return Verdict(False)
    if isinstance(msg, MoveSeat):
        if not (0 <= msg.seat < len(seats) and 0 <= msg.to < len(seats)):
            return Verdict(True, "error", frozenset({"bad_message"}), echo)
        return Verdict(False)
    if isinstance(msg, RoomSettingsMsg):
        changes = msg.model_dump(exclude={"type", "id"}, exclude_none=True)
        if changes.get("turn_seconds") == 0:
            changes["turn_seconds"] = None
        try:
            RoomSettings.model_validate({**world.room["settings"], **changes})
        except ValueError:
            return Verdict(True, "error", frozenset({"bad_options"}), echo)
        return Verdict(False)
    if isinstance(msg, Kick):
        if msg.player == sender.player_id:
            return Verdict(True, "error", frozenset({"bad_message"}), echo)
        return Verdict(False)
    if isinstance(msg, MakeHost):
        present = {s["player"]["id"] for s in seats if s["player"]} | {p["id"] for p in world.room["spectators"]}
        if msg.player not in present:
            return Verdict(True, "error", frozenset({"bad_message"}), echo)
        return Verdict(False)
    return Verdict(False)  # ShuffleTeams in the lobby, and anything newer than this oracle: held back


# ---- the generator --------------------------------------------------------------------------------------

WEIRD_STRINGS = [
    "",
    " ",
    "a",
    "place",
    "PLACE",
    "act ",
    "pass\u0000",
    "\u202e",
    "💥" * 10,
    "<script>alert(1)</script>",
    "'; DROP TABLE players; --",
    "x" * 300,
    "\\",
    "null",
]
WEIRD_NUMBERS: list[Any] = [
    0,
    1,
    -1,
    2,
    4,
    5,
    -6,
    255,
    2**31,
    2**31 - 1,
    -(2**31),
    2**53 + 1,
    2**63 - 1,
    -(2**63),
    2**64 - 1,
    0.5,
    -0.0,
    1.0,
    1e308,
    -1e308,
    5e-324,
    True,
    False,
]
HUGE_LITERALS = [
    "1e400",
    "-1e400",
    "123456789012345678901234567890",
    "-123456789012345678901234567890",
    "18446744073709551616",
    "9223372036854775808",
    "1e-400",
    "NaN",
    "Infinity",
    "-Infinity",
    "0x10",
    "01",
    "1.",
    ".5",
    "+1",
]
MESSAGE_TYPES = [
    "sit",
    "stand",
    "configure",
    "start",
    "rematch",
    "act",
    "sync",
    "ping",
    "add_bot",
    "remove_bot",
    "room_settings",
    "kick",
    "make_host",
    "move_seat",
    "shuffle",
    "chat",
]
ACTION_TYPES = ["place", "power", "pass", "vote", "PLACE", "move", "", "resign"]


class Fuzzer:
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.count = 0

    def new_id(self) -> str:
        self.count += 1
        return f"fz{self.count}"

    def weird(self, depth: int = 0) -> Any:
        rng = self.rng
        roll = rng.random()
        if depth > 3 or roll < 0.35:
            return rng.choice(WEIRD_NUMBERS)
        if roll < 0.6:
            return rng.choice(WEIRD_STRINGS)
        if roll < 0.7:
            return None
        if roll < 0.85:
            return [self.weird(depth + 1) for _ in range(rng.randint(0, 4))]
        return {
            rng.choice([*WEIRD_STRINGS, "type", "cell", "id"]): self.weird(depth + 1) for _ in range(rng.randint(0, 4))
        }

    def cell(self, world: World) -> Any:
        """Mostly near-miss cells: taken, out of range, negative, wrong types and shapes."""
        rng = self.rng
        size = len(world.board()) if world.state else 5
        taken = (
            [[r, c] for r, row in enumerate(world.board()) for c, v in enumerate(row) if v is not None]
            if world.state
            else []
        )
        empty = (
            [[r, c] for r, row in enumerate(world.board()) for c, v in enumerate(row) if v is None]
            if world.state
            else []
        )
        options: list[Callable[[], Any]] = [
            lambda: rng.choice(taken) if taken else [0, 0],
            lambda: [rng.randint(-3, -1), rng.randint(0, size - 1)],
            lambda: [rng.randint(0, size - 1), rng.choice([size, size + 1, -size, -1])],
            lambda: [rng.choice(WEIRD_NUMBERS), rng.choice(WEIRD_NUMBERS)],
            lambda: [*rng.choice(empty), 0] if empty else [0, 0, 0],
            lambda: (rng.choice(empty) if empty else [0, 0])[:1],
            lambda: [str(v) for v in (rng.choice(empty) if empty else [0, 0])],
            lambda: [float(v) for v in (rng.choice(empty) if empty else [0, 0])],
            lambda: [[v] for v in (rng.choice(empty) if empty else [0, 0])],
            lambda: {"row": 0, "column": 0},
            lambda: rng.randint(0, size * size),
            lambda: self.weird(),
            lambda: rng.choice(empty) if empty else [0, 0],
        ]
        return rng.choice(options)()

    def valid_act(self, world: World) -> Message:
        empty = (
            [[r, c] for r, row in enumerate(world.board()) for c, v in enumerate(row) if v is None]
            if world.state
            else []
        )
        empty = empty or [[0, 0]]
        version = world.state["version"] if world.state else 0
        return {"type": "act", "action": {"type": "place", "cell": self.rng.choice(empty)}, "version": version}

    def mutated_act(self, world: World) -> Message:
        """A correct move for the player to move, then one to three mutations."""
        rng = self.rng
        msg = self.valid_act(world)
        version = msg["version"]
        mutations: list[Callable[[], None]] = [
            lambda: msg.__setitem__(
                "version", rng.choice([version - 1, version + 1, version + 1000, -1, *WEIRD_NUMBERS])
            ),
            lambda: msg.__setitem__("version", rng.choice([str(version), float(version), None, [version]])),
            lambda: msg.pop("version"),
            lambda: msg["action"].__setitem__("cell", self.cell(world)),
            lambda: msg["action"].__setitem__("cell", self.cell(world)),
            lambda: msg["action"].__setitem__("type", rng.choice([*ACTION_TYPES, *WEIRD_NUMBERS[:3], None])),
            lambda: msg["action"].__setitem__(rng.choice(["expand", "extra", "seat", "Cell", "player"]), self.weird()),
            lambda: msg["action"].pop("cell"),
            lambda: msg["action"].pop("type"),
            lambda: msg.__setitem__("action", self.weird()),
            lambda: msg.__setitem__("action", {"type": "vote", "expand": rng.choice([True, False, 1, "yes"])}),
            lambda: msg.__setitem__("action", {"type": "power", "cell": self.cell(world)}),
            lambda: msg.__setitem__(rng.choice(["seat", "player", "token", "extra"]), self.weird()),
            lambda: msg.__setitem__("type", rng.choice(["Act", "act ", "ACT", "acts", "", None, 1])),
            lambda: msg.pop("type"),
            lambda: msg.__setitem__("action", {"type": "pass", "cell": self.cell(world)}),
        ]
        for _ in range(rng.randint(1, 3)):
            with contextlib.suppress(KeyError, TypeError, AttributeError):  # an earlier mutation replaced the action
                rng.choice(mutations)()
        return msg

    def template(self, world: World) -> Message:
        """Any message type with fields that are sometimes right, sometimes not."""
        rng = self.rng
        kind = rng.choice(MESSAGE_TYPES)
        msg: Message = {"type": kind}
        size = len(world.room["seats"])
        if kind == "sit":
            msg["seat"] = rng.choice([*range(-2, size + 2), *WEIRD_NUMBERS, "0", None])
        elif kind == "configure":
            if rng.random() < 0.7:
                msg["game"] = rng.choice(
                    ["tri-tac", "tic-tac-match", "chess", "", "TRI-TAC", "tri_tac", *WEIRD_NUMBERS[:3]]
                )
            if rng.random() < 0.7:
                msg["options"] = rng.choice(
                    [
                        {"size": rng.choice([2, 13, 0, -1, 2**63 - 1, "5", 5.5, None, True])},
                        {"size": 5, "unknown": True},
                        {"time_seconds": rng.choice([0, 4, 301, -5])},
                        {"power_play": rng.choice(["yes", 1, None])},
                        self.weird(),
                        [],
                    ]
                )
        elif kind == "act":
            return self.mutated_act(world)
        elif kind == "sync":
            msg["version"] = rng.choice([None, 0, -1, *WEIRD_NUMBERS, "1"])
        elif kind in ("add_bot", "remove_bot"):
            msg["seat"] = rng.choice([*range(-2, size + 2), *WEIRD_NUMBERS, "0", None])
        elif kind == "move_seat":
            msg["seat"] = rng.choice([*range(-1, size + 1), *WEIRD_NUMBERS[:4]])
            msg["to"] = rng.choice([*range(-1, size + 1), *WEIRD_NUMBERS[:4], None])
        elif kind in ("kick", "make_host"):
            msg["player"] = rng.choice([*WEIRD_NUMBERS, "1", None, 0, 10**6])
        elif kind == "room_settings":
            for key in rng.sample(
                ["locked", "spectators", "turn_seconds", "grace_seconds", "banned"], rng.randint(0, 3)
            ):
                msg[key] = rng.choice([True, False, None, 0, 4, 5, 601, -1, 2**40, "yes", [1]])
        elif kind == "chat":
            msg["text"] = rng.choice(["", "   ", "\u0000hi", "a\tb", "x" * 301, "x" * 5000, "\u202e", 5, None, ["hi"]])
            if rng.random() < 0.5:
                msg["team"] = rng.choice([True, False, 1, "yes", None])
        if rng.random() < 0.3:
            msg[rng.choice(["extra", "seat", "version", "action", "token", "room"])] = self.weird()
        return msg

    def with_id(self, msg: Message) -> Message:
        rng = self.rng
        roll = rng.random()
        if roll < 0.7:
            msg["id"] = self.new_id()
        elif roll < 0.8:
            msg["id"] = self.new_id() + "-" + "x" * rng.randint(60, 200)  # too long: bad_message, still echoed
        elif roll < 0.9:
            msg["id"] = rng.choice([*WEIRD_NUMBERS, None, [], {}])
        return msg

    def well_formed(self, world: World) -> Message:
        """A message of the right shape that is wrong in meaning: taken cells, stale versions, bad options."""
        rng = self.rng
        version = world.state["version"] if world.state else 0
        size = len(world.board()) if world.state else 5
        roll = rng.random()
        msg: Message
        if roll < 0.6:
            makers: list[Callable[[], Message]] = [
                lambda: {"type": "place", "cell": self.cell(world)},
                lambda: {"type": "place", "cell": [rng.randint(-2, size + 1), rng.randint(-2, size + 1)]},
                lambda: {"type": "power", "cell": [rng.randrange(size), rng.randrange(size)]},
                lambda: {"type": "vote", "expand": rng.choice([True, False])},
                lambda: {"type": "pass", "extra": 1},
                lambda: {"type": rng.choice(ACTION_TYPES)},
                lambda: {"type": "place"},
                lambda: {},
            ]
            action = rng.choice(makers)()
            stale = rng.choice([version - 1, version + 1, 0, -1, 2**63 - 1])
            msg = {"type": "act", "action": action, "version": version if rng.random() < 0.7 else stale}
        elif roll < 0.75:
            options = rng.choice(
                [
                    {"size": rng.choice([0, 1, 2, 13, 99, -1, 2**63 - 1])},
                    {"size": 5, rng.choice(["colour", "Size", "seed", ""]): True},
                    {"time_seconds": rng.choice([0, 4, 301, -5])},
                    {"players": rng.choice([0, 1, 9])},
                ]
            )
            msg = {"type": "configure", "options": options}
            if rng.random() < 0.5:
                msg["game"] = rng.choice(["tri-tac", "chess", "TRI-TAC", "tri_tac", " tri-tac"])
        elif roll < 0.85:
            msg = {"type": "sit", "seat": rng.randint(-2, 3)}
        elif roll < 0.9:
            msg = {"type": rng.choice(["start", "rematch", "stand", "shuffle"])}
        else:
            msg = rng.choice(
                [
                    {"type": "add_bot", "seat": rng.randint(-1, 2)},
                    {"type": "remove_bot", "seat": rng.randint(-1, 2)},
                    {"type": "move_seat", "seat": rng.randint(-1, 2), "to": rng.randint(-1, 2)},
                    {"type": "kick", "player": rng.randint(-1, 5)},
                    {"type": "make_host", "player": rng.randint(-1, 5)},
                    {"type": "room_settings", "turn_seconds": rng.choice([1, 4, 601, 10**6])},
                    {"type": "room_settings", "grace_seconds": rng.choice([0, 4, 601, -1])},
                    {"type": "chat", "text": rng.choice(["hello", "", " \n ", "x" * 400]), "team": True},
                ]
            )
        msg["id"] = self.new_id()
        return msg

    def raw(self, world: World) -> str | bytes:
        """One raw frame (str = text frame, bytes = binary frame)."""
        rng = self.rng
        if rng.random() < 0.35:
            return orjson.dumps(self.well_formed(world)).decode()
        roll = rng.random()
        if roll < 0.30:
            return orjson.dumps(self.with_id(self.mutated_act(world))).decode()
        if roll < 0.50:
            return orjson.dumps(self.with_id(self.template(world))).decode()
        if roll < 0.55:  # unknown types, missing or odd ``type``
            msg = rng.choice(
                [
                    {"type": rng.choice(WEIRD_STRINGS)},
                    {"type": rng.choice(WEIRD_NUMBERS)},
                    {"TYPE": "ping"},
                    {},
                    {"type": ["ping"]},
                    {"type": {"type": "ping"}},
                    {"type": "launch-missiles", "target": "moon"},
                ]
            )
            return orjson.dumps(self.with_id(msg)).decode()
        if roll < 0.62:  # numbers no JSON library agrees on
            literal = rng.choice(HUGE_LITERALS)
            where = rng.choice(
                [
                    '{"type":"act","action":{"type":"place","cell":[%s,0]},"version":%d,"id":"%s"}',
                    '{"type":"act","action":{"type":"place","cell":[0,%s]},"version":%d,"id":"%s"}',
                    '{"type":"act","action":{"type":"place","cell":[1,1]},"version":%s,"x":%d,"id":"%s"}',
                    '{"type":"sit","seat":%s,"x":%d,"id":"%s"}',
                    '{"type":"sync","version":%s,"x":%d,"id":"%s"}',
                ]
            )
            version = world.state["version"] if world.state else 0
            return where % (literal, version, self.new_id())
        if roll < 0.68:  # nesting: within the parser's depth limit (inside the action) and beyond it
            depth = rng.choice([10, 200, 1000, 1100, 5000])
            inner = "[" * depth + "]" * depth
            if rng.random() < 0.5:
                version = world.state["version"] if world.state else 0
                head = '{"type":"act","action":{"type":"place","cell":'
                return head + inner + f',"version":{version},"id":"{self.new_id()}"}}'

            return '{"type":"ping","x":' + '{"a":' * min(depth, 2000) + "1" + "}" * min(depth, 2000) + "}"
        if roll < 0.74:  # binary frames: random bytes, invalid UTF-8, or JSON sent as binary
            choice = rng.random()
            if choice < 0.4:
                return bytes(rng.getrandbits(8) for _ in range(rng.randint(0, 64)))
            if choice < 0.7:
                return (
                    b'{"type":"ping","id":"' + rng.choice([b"\xff", b"\xc3\x28", b"\xed\xa0\x80", b"\xf8\x88"]) + b'"}'
                )
            return orjson.dumps(self.with_id(self.template(world)))
        if roll < 0.78:  # too large for the server's limit (but below the WebSocket frame limit)
            pad = "x" * rng.randint(MAX_BYTES - 20, 120_000)
            return orjson.dumps(
                {"type": "act", "action": {"type": "place", "cell": [0, 0], "pad": pad}, "version": 0}
            ).decode()
        if roll < 0.85:  # corrupted JSON: flipped, dropped or inserted characters, truncation
            text = orjson.dumps(self.with_id(self.template(world))).decode()
            chars = list(text)
            for _ in range(rng.randint(1, 4)):
                op = rng.random()
                pos = rng.randrange(len(chars)) if chars else 0
                if op < 0.3 and chars:
                    chars[pos] = rng.choice(string.printable)
                elif op < 0.6 and chars:
                    del chars[pos]
                elif op < 0.8:
                    chars.insert(pos, rng.choice('{}[]",:\\'))
                else:
                    chars = chars[:pos]
            return "".join(chars)
        if roll < 0.9:  # not an object at all
            return rng.choice(
                ["", " ", "[]", "[1, 2]", "1", '"ping"', "null", "true", "{", "}", "\u0000", '"\\ud800"', "💥"]
            )
        if roll < 0.95:  # escapes that decode to odd strings
            return (
                '{"type":"\\u0070ing","id":"' + self.new_id() + '"}'
                if rng.random() < 0.5
                else '{"type":"ping","id":"\\ud83d"}'
            )
        return orjson.dumps(self.with_id(rng.choice([{"type": "ping"}, {"type": "sync"}]))).decode()


# ---- driving ----------------------------------------------------------------------------------------------


class Fence:
    ids = iter(range(1, 10**9))

    @classmethod
    def message(cls) -> tuple[str, str]:
        """A message every socket in every phase must refuse (``act`` with a negative version), with a fresh id."""
        fence_id = f"fence-{next(cls.ids)}"
        return fence_id, orjson.dumps({"type": "act", "action": {}, "version": -1, "id": fence_id}).decode()


async def send_frame(sock: RoomSocket, raw: str | bytes) -> None:
    await sock.ws.send(raw)


async def until_fence(sock: RoomSocket, fence_id: str, timeout: float = 10) -> list[Message]:
    """Every message up to (not including) the error that answers the fence."""
    out: list[Message] = []
    try:
        async with asyncio.timeout(timeout):
            while True:
                msg = await sock.inbox.get()
                if msg.get("type") == "error" and msg.get("id") == fence_id:
                    return out
                out.append(msg)
    except TimeoutError:
        raise AssertionError(
            f"no answer to {fence_id} in {timeout} s (closed: {sock.closed.is_set()}, code {sock.close_code}); "
            f"got {out}"
        ) from None


async def snapshot(sock: RoomSocket) -> tuple[Message | None, Message]:
    """(state without its per-message parts, room summary) as this socket sees them now, via ``sync``."""
    sock.drain()
    await sock.send({"type": "sync"})
    fence_id, fence = Fence.message()
    await send_frame(sock, fence)
    replies = await until_fence(sock, fence_id)
    states = [m for m in replies if m["type"] == "state"]
    rooms = [m for m in replies if m["type"] == "room"]
    assert rooms, replies
    state = None
    if states:
        state = {k: states[-1][k] for k in ("version", "game", "view", "to_act", "outcome", "log")}
    return state, rooms[-1]["room"]


async def senders_of(table: Table) -> list[Sender]:
    out = []
    for i, sock in enumerate(table.sockets):
        assert sock.you is not None
        out.append(Sender(f"P{i + 1}", sock, int(sock.you["id"]), sock.you["seat"]))
    assert table.spectator is not None and table.spectator.you is not None
    out.append(Sender("spectator", table.spectator, int(table.spectator.you["id"]), None))
    return out


@dataclass
class Tally:
    sent: int = 0
    skipped: int = 0
    codes: Counter[str] = field(default_factory=Counter)


async def fuzz_batch(fuzzer: Fuzzer, senders: list[Sender], world: World, tally: Tally, per_socket: int) -> None:
    """``per_socket`` messages from each sender; check every reply; check nothing changed."""
    before = {s.name: await snapshot(s.sock) for s in senders}
    for sender in senders:
        sender.remembered.clear()  # the server keeps the last 64 per socket; a batch adds fewer
    sent = 0
    while sent < per_socket:
        n = min(CHUNK, per_socket - sent)
        plans: dict[str, tuple[list[Verdict], str]] = {}
        for sender in senders:
            verdicts: list[Verdict] = []
            while len(verdicts) < n:
                if sender.remembered and fuzzer.rng.random() < 0.1:
                    # A resent action: refused as a duplicate even when the move itself would be legal now.
                    again = fuzzer.valid_act(world) if fuzzer.rng.random() < 0.5 else fuzzer.mutated_act(world)
                    raw: str | bytes = orjson.dumps({**again, "id": fuzzer.rng.choice(sender.remembered)}).decode()
                else:
                    raw = fuzzer.raw(world)
                verdict = judge(raw, sender, world)
                if not verdict.send:
                    tally.skipped += 1
                    continue
                await send_frame(sender.sock, raw)
                if verdict.remembered is not None:
                    sender.remembered.append(verdict.remembered)
                verdicts.append(verdict)
            fence_id, fence = Fence.message()
            await send_frame(sender.sock, fence)
            plans[sender.name] = (verdicts, fence_id)
        for sender in senders:
            verdicts, fence_id = plans[sender.name]
            replies = await until_fence(sender.sock, fence_id)
            check_replies(sender, verdicts, replies, tally)
            tally.sent += len(verdicts)
        sent += n
    for sender in senders:
        assert not sender.sock.closed.is_set(), f"{sender.name}'s connection was closed (code {sender.sock.close_code})"
        after = await snapshot(sender.sock)
        assert after == before[sender.name], f"{sender.name}: the room or game changed on invalid messages"


def check_replies(sender: Sender, verdicts: list[Verdict], replies: list[Message], tally: Tally) -> None:
    kinds = Counter(m["type"] for m in replies)
    errors = [m for m in replies if m["type"] == "error"]
    for err in errors:
        tally.codes[err["code"]] += 1
        assert err["code"] != "internal", f"{sender.name}: internal error: {err}"
        assert err["code"] in DOCUMENTED_CODES, f"{sender.name}: undocumented error code: {err}"
        assert isinstance(err.get("message"), str) and err["message"], err
    # The only acks are for harmless pings and syncs that carried an id (every message with an id is answered);
    # an ack for anything else means an invalid message was accepted.
    acked = [m.get("id") for m in replies if m["type"] == "ack"]
    harmless = [v.echo for v in verdicts if v.reply in ("pong", "sync") and v.echo is not None]
    assert acked == harmless, f"{sender.name}: an invalid message was accepted: {replies}"
    assert kinds["welcome"] == 0, f"{sender.name}: seats changed: {replies}"
    expected_errors = [v for v in verdicts if v.reply == "error"]
    assert len(errors) == len(expected_errors), (
        f"{sender.name}: {len(expected_errors)} refusals expected, got {len(errors)}: {errors}"
    )
    assert kinds["pong"] == sum(v.reply == "pong" for v in verdicts), replies
    # Errors come back in order: each one with the code the oracle expects and the id it must echo.
    for verdict, err in zip(expected_errors, errors, strict=True):
        assert err["code"] in verdict.codes, f"{sender.name}: expected {set(verdict.codes)}, got {err}"
        assert err.get("id") == verdict.echo, f"{sender.name}: expected id {verdict.echo!r} echoed, got {err}"


async def refresh(world: World, senders: list[Sender]) -> None:
    state, room = await snapshot(senders[0].sock)
    world.state, world.room = state, room
    for sender in senders:
        await snapshot(sender.sock)  # consume whatever the last move broadcast
        you = sender.sock.you
        assert you is not None
        sender.seat = you["seat"]


async def play_move(table: Table, world: World, rng: random.Random) -> None:
    """The player to move places on a random empty cell; everyone sees the new version."""
    assert world.state is not None
    seat = world.state["to_act"][0]
    sock = table.seat_socket(seat)
    empty = [[r, c] for r, row in enumerate(world.board()) for c, v in enumerate(row) if v is None]
    ack = await sock.act({"type": "place", "cell": rng.choice(empty)}, version=world.state["version"])
    for other in [*table.sockets, table.spectator]:
        assert other is not None
        await other.wait_state(lambda s: s["version"] >= ack["version"])


# ---- misbehaving connections ------------------------------------------------------------------------------


async def forged_connections(base_url: str, code: str, real_token: str, rng: random.Random) -> None:
    """New connections with forged tokens or bad room codes are refused with 4401/4404 and never join."""
    ws_base = "ws" + base_url[len("http") :]
    tokens = [
        "",
        "x",
        "forged",
        real_token[:-1] + ("A" if real_token[-1] != "A" else "B"),
        real_token + "x",
        real_token.upper() if real_token.upper() != real_token else real_token.lower(),
        "x" * 199,
        "x" * 201,
        "x" * 5000,
        "' OR 1=1 --",
        "💥" * 20,
        "\u0000",
        "%00",
        "null",
        *("".join(rng.choice(string.ascii_letters + string.digits + "-_") for _ in range(32)) for _ in range(6)),
    ]
    for token in tokens:
        for via_cookie in (False, True):
            if via_cookie:  # as a browser sends it: with the page's origin
                headers = {"Cookie": f"tf_token={quote(token)}", "Origin": base_url}
            else:
                headers = {"Authorization": f"Bearer {quote(token)}"}
            await expect_refused(f"{ws_base}/ws/{code}", headers, 4401, "unauthorized")
    real = {"Authorization": f"Bearer {real_token}"}
    for bad_code in ["ZZZZZ", "AAAAA", code[:-1], code + "A", "00000", "x" * 300, "%F0%9F%92%A5", "K7HXM%00"]:
        await expect_refused(f"{ws_base}/ws/{bad_code}", real, 4404, "unknown_room")


async def expect_refused(url: str, headers: dict[str, str], close_code: int, error_code: str) -> None:
    try:
        ws = await websockets.connect(url, additional_headers=headers, compression=None, open_timeout=10)
    except websockets.InvalidStatus as err:
        # Refused at the HTTP handshake (a path no route matches): acceptable, nothing joined.
        assert err.response.status_code in (403, 404), err
        return
    try:
        first = orjson.loads(await asyncio.wait_for(ws.recv(), 5))
        assert first == {"type": "error", "code": error_code, "message": first["message"]}, (url, first)
        with pytest.raises(websockets.ConnectionClosed):
            await asyncio.wait_for(ws.recv(), 5)
        assert ws.close_code == close_code, (url, ws.close_code)
    finally:
        await ws.close()


async def protocol_violations(client: ThreefoldClient, code: str) -> None:
    """A seated player's *extra* socket breaks the WebSocket protocol itself: only that socket is closed."""
    # Invalid UTF-8 in a text frame: the connection must fail with 1007 (RFC 6455 §8.1).
    sock = client.connect(code)
    await sock.open()
    await sock.next(lambda m: m["type"] == "room")
    await sock.ws.send(b'{"type":"ping","x":"\xff\xfe"}', text=True)
    await asyncio.wait_for(sock.closed.wait(), 10)
    assert sock.close_code == 1007, sock.close_code
    await sock.close()
    # A frame larger than the server's WebSocket limit: 1009 (message too big).
    sock = client.connect(code)
    await sock.open()
    await sock.next(lambda m: m["type"] == "room")
    with contextlib.suppress(websockets.ConnectionClosed):
        await sock.ws.send("x" * (WS_MAX_SIZE + 1))
    await asyncio.wait_for(sock.closed.wait(), 10)
    assert sock.close_code == 1009, sock.close_code
    await sock.close()
    # A socket that vanishes mid-message (TCP reset, no close frame).
    sock = client.connect(code)
    await sock.open()
    await sock.next(lambda m: m["type"] == "room")
    await sock.send({"type": "sync"})
    sock.ws.transport.abort()
    await asyncio.wait_for(sock.closed.wait(), 10)
    await sock.close()


def server_log_since(server: ServerProcess, offset: int) -> str:
    """The server's log since ``offset`` (the invalid UTF-8 frame we sent is one warning line, no traceback:
    app/ws_protocol.py)."""
    return server.log_path.read_bytes()[offset:].decode(errors="replace")


def log_offset(server: ServerProcess) -> int:
    path: Path = server.log_path
    return path.stat().st_size if path.exists() else 0


# ---- the tests -----------------------------------------------------------------------------------------------


async def test_protocol_fuzz(fast_server: ServerProcess) -> None:
    offset = log_offset(fast_server)
    fuzzer = Fuzzer(SEED)
    rng = random.Random(SEED + 1)
    tally = Tally()
    table = await open_table(fast_server.url, "tri-tac", {"size": 5}, seed=7, start=False)
    try:
        senders = await senders_of(table)
        host_id = senders[0].player_id
        world = World(room={}, state=None, host_id=host_id)
        await refresh(world, senders)
        assert world.status == "lobby"

        # The lobby: refused sits, starts, configures and acts change nothing.
        for _ in range(3):
            await fuzz_batch(fuzzer, senders, world, tally, per_socket=40)
        await table.sockets[0].send({"type": "start"})
        for sock in [*table.sockets, table.spectator]:
            assert sock is not None
            await sock.wait_state(lambda s: s["version"] == 0)
        await refresh(world, senders)
        assert world.status == "playing"

        # A game in progress: a batch after each move, until a few cells are left.
        moves = 0
        while len([v for row in world.board() for v in row if v is None]) > 4:
            await fuzz_batch(fuzzer, senders, world, tally, per_socket=60 if moves % 4 else 30)
            if moves == 3:
                await forged_connections(fast_server.url, table.code, client_token(table), rng)
                await protocol_violations(table.clients[1], table.code)
                await fuzz_batch(fuzzer, senders, world, tally, per_socket=10)
            await play_move(table, world, rng)
            await refresh(world, senders)
            moves += 1

        # Still playable to the end.
        while world.state is not None and world.state["outcome"] is None:
            await play_move(table, world, rng)
            await refresh(world, senders)
        assert world.state is not None and world.state["outcome"] is not None
        assert all(v is not None for row in world.board() for v in row)
        assert world.status == "finished"

        # A finished game: acts are refused (rematch and sitting would be valid, so the oracle holds them back).
        for _ in range(3):
            await fuzz_batch(fuzzer, senders, world, tally, per_socket=40)
        await table.sockets[0].send({"type": "rematch"})
        fresh = await table.spectator.wait_state(lambda s: s["version"] == 0 and s["outcome"] is None)  # type: ignore[union-attr]
        assert fresh["view"]["board"] == [[None] * 5 for _ in range(5)]
        for sock in table.sockets:
            assert not sock.closed.is_set()
    finally:
        await table.close()

    print(f"\nfuzz: {tally.sent} messages sent, {tally.skipped} possibly-valid ones held back; {dict(tally.codes)}")
    assert tally.sent >= 3500
    assert {"bad_json", "bad_message", "too_large", "illegal", "not_your_turn", "stale_version", "not_seated"} <= set(
        tally.codes
    )
    log = server_log_since(fast_server, offset)
    assert "Traceback" not in log and "internal error" not in log, log[-4000:]


def client_token(table: Table) -> str:
    token = table.clients[0].token
    assert token is not None
    return token


async def test_rate_limit_with_default_settings(sqlite_server: ServerProcess) -> None:
    """20 messages/s with bursts of 40 (the defaults): excess messages are refused, nothing else happens."""
    table = await open_table(sqlite_server.url, "tri-tac", {"size": 4}, seed=3)
    try:
        state = table.sockets[0].state
        assert state is not None
        mover = table.seat_socket(state["to_act"][0])
        other = table.seat_socket(1 - state["to_act"][0])
        await asyncio.sleep(40 / 20 + 0.1)  # joining, sitting and starting used a few tokens: let the bucket refill
        mover.drain()
        other.drain()
        # 100 pings as fast as the replies come back (in chunks of 20, so the 64-deep send queue never overflows),
        # and a valid move in the same write as the last chunk: the bucket is empty by then, so it is refused too.
        flood, replies = 100, []
        started = asyncio.get_running_loop().time()
        for chunk in range(flood // 20):
            for _ in range(20):
                await mover.send({"type": "ping"})
            if chunk == flood // 20 - 1:
                await mover.send({"type": "act", "action": {"type": "place", "cell": [0, 0]}, "version": 0})
            for _ in range(20 + (chunk == flood // 20 - 1)):
                replies.append(await mover.next(lambda m: m["type"] in ("pong", "error", "ack"), timeout=5))
        elapsed = asyncio.get_running_loop().time() - started
        pongs = sum(m["type"] == "pong" for m in replies)
        limited = [m for m in replies if m["type"] == "error" and m["code"] == "rate_limited"]
        # The burst of 40, and no more than the 20 a second the bucket refilled while the flood went on (the
        # server saw it within the client's window): a fast machine is done in a fraction of a second.
        assert 40 <= pongs <= 40 + 20 * elapsed + 1, (pongs, elapsed)
        assert len(limited) == flood + 1 - pongs, replies
        assert replies[-1]["type"] == "error" and replies[-1]["code"] == "rate_limited", replies[-1]
        assert all(m["message"] for m in limited)
        assert not any(m["type"] in ("ack", "state") for m in replies), replies
        # Per socket: the other player was never limited; the flooder's connection stays open.
        await other.send({"type": "ping"})
        await other.next(lambda m: m["type"] == "pong", timeout=5)
        assert not mover.closed.is_set()
        # Nothing changed, and after a pause the flooder plays normally.
        await asyncio.sleep(0.5)
        await mover.send({"type": "sync"})
        synced = await mover.next(lambda m: m["type"] == "state")
        assert synced["version"] == 0 and synced["view"]["board"] == [[None] * 4 for _ in range(4)]
        ack = await mover.act({"type": "place", "cell": [0, 0]}, version=0)
        assert ack["version"] == 1
    finally:
        await table.close()


async def test_many_rooms_finishing_games_at_once_never_stall(sqlite_server: ServerProcess) -> None:
    """Twelve rooms play 3×3 Tri-Tac games to the end and rematch, all at once, twice: game ends (standings,
    ratings, the next game) overlap other rooms' moves. Every move is acknowledged promptly and none fails.

    Found by the fan-out benchmark: the per-move write on its own synchronous SQLite connection waits for the
    write lock *on the event loop* while a game end's async session holds it (and that session needs the
    event loop to finish), so the whole server froze for the 30 s busy timeout and the move failed with an
    internal error ("database is locked")."""
    tables = [
        await open_table(sqlite_server.url, "tri-tac", {"size": 3}, seed=100 + i, spectator=False) for i in range(12)
    ]
    slowest = 0.0

    async def play(table: Table) -> None:
        nonlocal slowest
        for game in range(2):
            if game:
                await table.sockets[0].send({"type": "rematch"})
                for sock in table.sockets:
                    await sock.wait_state(lambda s: s["version"] == 0 and s["outcome"] is None, timeout=10)
            while True:
                state = table.sockets[0].state
                assert state is not None
                if state["outcome"] is not None:
                    break
                mover = table.seat_socket(state["to_act"][0])
                empty = [[r, c] for r, row in enumerate(state["view"]["board"]) for c, v in enumerate(row) if v is None]
                started = time.monotonic()
                ack = await mover.act({"type": "place", "cell": empty[0]}, version=state["version"], timeout=5)
                slowest = max(slowest, time.monotonic() - started)
                for sock in table.sockets:
                    await sock.wait_state(lambda s, v=ack["version"]: s["version"] >= v, timeout=5)

    try:
        await asyncio.gather(*(play(table) for table in tables))
    finally:
        for table in tables:
            await table.close()
    assert slowest < 2, f"a move took {slowest:.1f} s"
