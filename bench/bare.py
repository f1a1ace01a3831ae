"""The stack's ceiling: a bare FastAPI fan-out endpoint (no engine, no database, no per-socket queues).

``/ws/{room}``: every socket that connects joins the room. Each text message received is parsed (orjson)
and answered like a move: an ``ack`` to the sender, then one ``state`` message of ``BENCH_PAYLOAD_BYTES``
bytes (default 700), encoded once, to every socket of the room. The state message has the same head as the
project's (``{"type":"state","version":N,"to_act":[seat],"outcome":null,...}``) so the same load generator
drives both servers.

Run it like the project (bench/serve.py starts it with the same uvicorn options)::

    uvicorn bench.bare:create_app --factory --ws app.ws_protocol:PreparedFramesProtocol --ws-per-message-deflate false

It sends through the ordinary ASGI ``send`` (Starlette's ``send_text``), as a FastAPI app does; the project
writes its frames through the protocol's prepared-frames extension instead (app/ws_protocol.py).
"""

from __future__ import annotations

import os

import orjson
from fastapi import FastAPI, WebSocket, WebSocketDisconnect


def create_app() -> FastAPI:
    size = int(os.environ.get("BENCH_PAYLOAD_BYTES", "700"))
    head = len(orjson.dumps({"type": "state", "version": 100000, "to_act": [0], "outcome": None, "pad": ""}))
    pad = "x" * max(0, size - head)
    rooms: dict[str, set[WebSocket]] = {}
    versions: dict[str, int] = {}
    app = FastAPI(title="bare fan-out")

    @app.get("/healthz")
    async def healthz() -> dict[str, bool]:
        return {"ok": True}

    @app.websocket("/ws/{room}")
    async def fanout(websocket: WebSocket, room: str) -> None:
        await websocket.accept()
        members = rooms.setdefault(room, set())
        members.add(websocket)
        try:
            while True:
                raw = await websocket.receive_text()
                msg = orjson.loads(raw)
                version = versions.get(room, 0) + 1
                versions[room] = version
                await websocket.send_text(
                    orjson.dumps({"type": "ack", "id": msg.get("id"), "version": version}).decode()
                )
                payload = orjson.dumps(
                    {"type": "state", "version": version, "to_act": [version % 2], "outcome": None, "pad": pad}
                ).decode()
                for member in list(members):
                    try:
                        await member.send_text(payload)
                    except Exception:
                        members.discard(member)
        except WebSocketDisconnect:
            pass
        finally:
            members.discard(websocket)

    return app
