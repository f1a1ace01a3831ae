"""Freezing long-lived objects (app.main: _refreeze) must not keep closed sockets in memory.

A socket's server-side objects are in reference cycles, which only a collection that sees them frees; frozen
while the socket was open, they used to stay after it closed (about 17 KiB a socket, without bound). The
server now collects everything once enough sockets have closed, so memory stops growing under churn.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import websockets

from tests.support.server import ServerProcess

ROUNDS = 6
SOCKETS = 150
"""Per round: ~2.7 MB that stayed behind each round while closed sockets were kept frozen."""


@pytest.fixture
def churn_server(sqlite_url: str) -> Iterator[ServerProcess]:
    # Open sockets are frozen within a second; everything is collected after 100 have closed.
    env = {"THREEFOLD_GC_FULL_CLOSED_MIN": "100"}
    proc = ServerProcess(sqlite_url, extra_env=env).start()
    yield proc
    proc.stop()


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")


def metric(server: ServerProcess, name: str) -> float:
    text = httpx.get(f"{server.url}/metrics").text
    return next(float(line.split(" ")[1]) for line in text.splitlines() if line.startswith(f"{name} "))


async def test_closed_sockets_do_not_stay_frozen(churn_server: ServerProcess) -> None:
    assert churn_server.proc is not None
    pid = churn_server.proc.pid
    async with httpx.AsyncClient(base_url=churn_server.url) as http:
        token = (await http.post("/api/me", json={"name": "Watcher"})).json()["token"]
        created = await http.post(
            "/api/rooms", json={"game": "tri-tac", "options": {"size": 5}}, headers={"Authorization": f"Bearer {token}"}
        )
        code = created.json()["code"]
    url = churn_server.url.replace("http://", "ws://") + f"/ws/{code}?token={token}"

    after_round: list[int] = []
    for _ in range(ROUNDS):
        sockets = []
        for _ in range(SOCKETS):
            sock = await websockets.connect(url, compression=None)
            await sock.recv()  # welcome: the server has the socket in its room
            sockets.append(sock)
        await asyncio.sleep(2)  # the refreezer looks once a second: every open socket is frozen now
        for sock in sockets:
            await sock.close()
        await asyncio.sleep(2)  # ... and now has seen them close
        after_round.append(rss_kib(pid))

    # Once the first rounds have sized the heap, more rounds reuse it (when closed sockets stayed frozen,
    # rounds 2 to 6 added 11 MB).
    growth = after_round[-1] - after_round[1]
    assert growth < 3 * 1024, f"RSS grew {growth} KiB over {ROUNDS - 2} rounds of {SOCKETS} sockets: {after_round}"
    assert metric(churn_server, "threefold_gc_full_collections_total") >= ROUNDS - 1
