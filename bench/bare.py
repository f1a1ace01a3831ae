"""The stack's ceiling: a bare FastAPI fan-out endpoint (no engine, no database, no per-socket queues).

``/ws/{room}``: every socket that connects joins the room. Each text message received is parsed (orjson)
and answered like a move: an ``ack`` to the sender, then one ``state`` message of ``BENCH_PAYLOAD_BYTES``
bytes (default 700), encoded once, to every socket of the room. The state message has the same head as the
project's (``{"type":"state","version":N,"to_act":[seat],"outcome":null,...}``) so the same load generator
drives both servers.

Run it like the project (bench/serve.py starts it with the same uvicorn options)::

    uvicorn bench.bare:create_app --factory --ws app.ws_protocol:PreparedFramesProtocol --ws-per-message-deflate false

It sends through the ordinary ASGI ``send`` (Starlette's ``send_text``), as a FastAPI app does; the project
writes its frames through the protocol's prepared-frames extension instead (app/ws_protocol.py). With
``BENCH_BARE_PREPARED=1`` the bare endpoint does too (frames built once, written straight to each socket
that takes them): the ceiling of that write path, for comparison (bench/README.md). With
``BENCH_BARE_DIRECT=1`` its socket is dispatched ahead of FastAPI's router, as the project's live socket is
(app.routers.ws.LiveSocketRoute).
"""

from __future__ import annotations

import os

import orjson
from fastapi import FastAPI, WebSocket, WebSocketDisconnect

from app.routers.ws import LiveSocketRoute
from app.ws_protocol import FrameWriter, frame_writer, text_frame


def create_app() -> FastAPI:
    size = int(os.environ.get("BENCH_PAYLOAD_BYTES", "700"))
    prepared = os.environ.get("BENCH_BARE_PREPARED") == "1"
    writers: dict[WebSocket, FrameWriter | None] = {}
    head = len(orjson.dumps({"type": "state", "version": 100000, "to_act": [0], "outcome": None, "pad": ""}))
    pad = "x" * max(0, size - head)
    rooms: dict[str, set[WebSocket]] = {}
    versions: dict[str, int] = {}
    app = FastAPI(title="bare fan-out")

    @app.get("/healthz")
    async def healthz() -> dict[str, bool]:
        return {"ok": True}

    async def fanout(websocket: WebSocket, room: str) -> None:
        await websocket.accept()
        members = rooms.setdefault(room, set())
        members.add(websocket)
        writers[websocket] = frame_writer(websocket.scope) if prepared else None
        try:
            while True:
                raw = await websocket.receive_text()
                msg = orjson.loads(raw)
                version = versions.get(room, 0) + 1
                versions[room] = version
                ack = orjson.dumps({"type": "ack", "id": msg.get("id"), "version": version})
                write = writers.get(websocket)
                if write is None or not write(text_frame(ack)):
                    await websocket.send_text(ack.decode())
                payload = orjson.dumps(
                    {"type": "state", "version": version, "to_act": [version % 2], "outcome": None, "pad": pad}
                )
                frame = text_frame(payload) if prepared else b""
                for member in list(members):
                    try:
                        write = writers.get(member)
                        if write is None or not write(frame):
                            await member.send_text(payload.decode())
                    except Exception:
                        members.discard(member)
        except WebSocketDisconnect:
            pass
        finally:
            members.discard(websocket)
            writers.pop(websocket, None)

    if os.environ.get("BENCH_BARE_DIRECT") == "1":
        app.add_middleware(LiveSocketRoute, endpoint=fanout)
    else:
        app.add_api_websocket_route("/ws/{room}", fanout)
    return app
