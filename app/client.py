"""A small headless client for the Threefold protocol (docs/protocol.md).

Used by the tests, bots, benchmarks and scripts::

    async with ThreefoldClient("http://127.0.0.1:8000") as alice:
        await alice.set_name("Alice")
        code = await alice.create_room("tri-tac", {"size": 4})
        async with alice.connect(code) as sock:  # Alice took seat 0 creating the room
            await sock.start_against_a_bot()
            state = await sock.wait_state()
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
from collections.abc import AsyncIterator, Callable
from types import TracebackType
from typing import Any

import httpx
import orjson
import websockets

Message = dict[str, Any]


class ClientError(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


class ThreefoldClient:
    def __init__(self, base_url: str, token: str | None = None) -> None:
        self.base_url = base_url.rstrip("/")
        self.token = token
        self.player_id: int | None = None
        self.http = httpx.AsyncClient(base_url=self.base_url, timeout=10)

    async def __aenter__(self) -> ThreefoldClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.http.aclose()

    def _headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"} if self.token else {}

    async def set_name(self, name: str) -> str:
        r = await self.http.post("/api/me", json={"name": name}, headers=self._headers())
        r.raise_for_status()
        body = r.json()
        self.player_id = body["id"]
        if body.get("token"):
            self.token = body["token"]
        assert self.token is not None
        return self.token

    async def create_room(self, game: str, options: dict[str, Any] | None = None, seed: int | None = None) -> str:
        payload: dict[str, Any] = {"game": game, "options": options or {}}
        if seed is not None:
            payload["seed"] = seed
        r = await self.http.post("/api/rooms", json=payload, headers=self._headers())
        if r.status_code >= 400:
            raise ClientError(str(r.status_code), r.text)
        code: str = r.json()["code"]
        return code

    async def room(self, code: str) -> Message:
        r = await self.http.get(f"/api/rooms/{code}")
        r.raise_for_status()
        data: Message = r.json()
        return data

    def connect(self, code: str, *, watch: bool = False) -> RoomSocket:
        """The token goes in a header, never in the URL: URLs are written to access logs. With ``watch``, a
        shared screen's socket: the public view, whatever seat the player holds (docs/protocol.md)."""
        ws_base = "ws" + self.base_url[len("http") :]
        return RoomSocket(f"{ws_base}/ws/{code}" + ("?watch=1" if watch else ""), self._headers())


LOG_WINDOW = 60
"""Log entries a full ``state`` message carries (app.live.game.LOG_LINES): a socket keeps as many."""


class RoomSocket:
    """One live connection; keeps the latest welcome/room/state and every message in order."""

    _ids = itertools.count(1)

    def __init__(self, url: str, headers: dict[str, str] | None = None) -> None:
        self.url = url
        self.headers = headers or {}
        self.ws: Any = None
        self.inbox: asyncio.Queue[Message] = asyncio.Queue()
        self.history: list[Message] = []
        # Arrival number of each message (by identity: history keeps them alive) and of the latest room and
        # state, so waiting for a newer state never settles on an older one still queued in the inbox.
        self._arrival: dict[int, int] = {}
        self._latest: dict[str, int] = {}
        self.you: Message | None = None
        self.room: Message | None = None
        self.state: Message | None = None
        self._reader: asyncio.Task[None] | None = None
        self.closed = asyncio.Event()
        self.close_code: int | None = None

    async def __aenter__(self) -> RoomSocket:
        await self.open()
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.close()

    async def open(self) -> None:
        self.ws = await websockets.connect(
            self.url, additional_headers=self.headers, compression=None, max_size=2**22, open_timeout=10
        )
        self._reader = asyncio.create_task(self._read())

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._reader

    async def _read(self) -> None:
        try:
            async for raw in self.ws:
                msg: Message = orjson.loads(raw)
                kind = msg.get("type")
                if kind == "welcome":
                    self.you = msg["you"]
                elif kind == "room":
                    self.room = msg["room"]
                elif kind == "state":
                    if "log_since" in msg and self.state is not None:
                        # Only the new entries came: ``log`` becomes the whole log the socket knows, and
                        # ``log_received`` keeps what this message itself carried.
                        msg["log_received"] = msg["log"]
                        msg["log"] = [*self.state["log"], *msg["log"]][-LOG_WINDOW:]
                    self.state = msg
                self._arrival[id(msg)] = len(self.history)
                if kind in ("room", "state"):
                    self._latest[kind] = len(self.history)
                self.history.append(msg)
                await self.inbox.put(msg)
        except websockets.ConnectionClosed as closed:
            self.close_code = closed.rcvd.code if closed.rcvd else None
        finally:
            if self.ws is not None and self.ws.close_code is not None:
                self.close_code = self.ws.close_code
            self.closed.set()

    async def send(self, message: Message) -> None:
        await self.ws.send(orjson.dumps(message).decode())

    async def send_raw(self, raw: str | bytes) -> None:
        await self.ws.send(raw)

    async def next(self, predicate: Callable[[Message], bool] = lambda m: True, timeout: float = 10) -> Message:
        """The next message (from now on) that matches ``predicate``."""
        async with asyncio.timeout(timeout):
            while True:
                msg = await self.inbox.get()
                if predicate(msg):
                    return msg

    def drain(self) -> list[Message]:
        out = []
        while not self.inbox.empty():
            out.append(self.inbox.get_nowait())
        return out

    def _newer(self, kind: str, predicate: Callable[[Message], bool]) -> Callable[[Message], bool]:
        """Matches ``kind`` messages that arrived after the latest one seen now, and satisfy ``predicate``.

        Older ones may still sit unread in the inbox (a rematch's fresh state behind the last game's final
        one); settling on them would answer from a state the socket has already left behind.
        """
        floor = self._latest.get(kind, -1)
        return lambda m: m.get("type") == kind and self._arrival.get(id(m), -1) > floor and predicate(m)

    async def wait_state(self, predicate: Callable[[Message], bool] = lambda s: True, timeout: float = 10) -> Message:
        """The current state if it matches, else the next newer state message that does."""
        if self.state is not None and predicate(self.state):
            return self.state
        return await self.next(self._newer("state", predicate), timeout)

    async def wait_room(self, predicate: Callable[[Message], bool], timeout: float = 10) -> Message:
        """The current room summary if it matches, else the next newer one that does."""
        if self.room is not None and predicate(self.room):
            return self.room
        msg = await self.next(self._newer("room", lambda m: predicate(m["room"])), timeout)
        room: Message = msg["room"]
        return room

    async def start_against_a_bot(self) -> None:
        """The host, in seat 0 since creating the room, seats a bot in seat 1 and starts the game (a two-seat
        game)."""
        await self.send({"type": "add_bot", "seat": 1})
        await self.wait_room(lambda r: r["seats"][1]["player"] is not None)
        await self.send({"type": "start"})

    async def request(self, message: Message, timeout: float = 10) -> Message:
        """Send an ``act`` (or any message with an id) and wait for its ``ack`` or ``error``."""
        msg_id = message.setdefault("id", f"c{next(self._ids)}")
        await self.send(message)
        reply = await self.next(lambda m: m.get("type") in ("ack", "error") and m.get("id") == msg_id, timeout)
        if reply["type"] == "error":
            raise ClientError(reply["code"], reply["message"])
        return reply

    async def act(self, action: Message, version: int | None = None, timeout: float = 10) -> Message:
        if version is None:
            assert self.state is not None, "no state yet"
            version = int(self.state["version"])
        return await self.request({"type": "act", "action": action, "version": version}, timeout)


@contextlib.asynccontextmanager
async def player(base_url: str, name: str) -> AsyncIterator[ThreefoldClient]:
    async with ThreefoldClient(base_url) as client:
        await client.set_name(name)
        yield client
