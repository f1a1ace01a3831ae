"""boardgame.io's own server under the fan-out benchmark's saturation shape (bench/README.md).

    .venv/bin/python -m bench.boardgameio --storage memory --duration 15
    .venv/bin/python -m bench.boardgameio --storage flatfile --json /tmp/bgio.json

Installs boardgame.io's current release from the npm registry (and node-persist, which its FlatFile storage
loads) into a cache directory outside the repository (``--cache``, default ``~/.cache/threefold-bench``), once
per version. Its server runs ``bench/boardgameio_js/server.js`` (a two-player game placing marks on a 5x5
board, a new board when one is full) pinned to the server's core; the load generator
``bench/boardgameio_js/load.js`` (socket.io, as boardgame.io's own client) runs pinned to the other core:
``--rooms`` matches of 7 sockets, two players and five spectators, closed loop, staggered starts, a warm-up
and a measured window, as ``bench.fanout``'s saturation scenario. Prints one JSON line (and writes it to
``--json``): moves/s, latency to the last socket, the server's CPU a move, the generator's CPU share.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.servers import die_with_parent, free_port, stop_process

HERE = Path(__file__).resolve().parent / "boardgameio_js"
CACHE = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "threefold-bench"


def current_version() -> str:
    """boardgame.io's latest release on the npm registry."""
    return subprocess.run(
        ["npm", "view", "boardgame.io", "version"], check=True, capture_output=True, text=True
    ).stdout.strip()


def install(cache: Path, version: str) -> Path:
    """``node_modules`` holding boardgame.io ``version`` and node-persist, installed once under ``cache``."""
    directory = cache / f"boardgame.io-{version}"
    modules = directory / "node_modules"
    if not (modules / "boardgame.io" / "package.json").exists():
        directory.mkdir(parents=True, exist_ok=True)
        (directory / "package.json").write_text('{"private": true}\n')
        subprocess.run(
            ["npm", "install", "--no-audit", "--no-fund", f"boardgame.io@{version}", "node-persist"],
            cwd=directory,
            check=True,
            capture_output=True,
        )
    return modules


def run(
    modules: Path, storage: str, rooms: int, warmup: float, duration: float, seed: int, cpus: tuple[int, int]
) -> dict[str, Any]:
    """One server, one window; the server and its file storage (if any) are removed whatever happens."""
    port = free_port()
    env = {**os.environ, "NODE_PATH": str(modules), "NODE_ENV": "production"}
    workdir = Path(tempfile.mkdtemp(prefix="threefold-bench-bgio-"))
    log = workdir / "server.log"
    with log.open("wb") as out:
        server = subprocess.Popen(
            ["taskset", "-c", str(cpus[0]), "node", str(HERE / "server.js"), str(port), storage, str(workdir / "db")],
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            preexec_fn=die_with_parent,
        )
    try:
        wait_listening(server, log)
        load = subprocess.run(
            [
                *("taskset", "-c", str(cpus[1]), "node", str(HERE / "load.js")),
                *(f"http://127.0.0.1:{port}", str(server.pid), str(rooms), str(warmup), str(duration), str(seed)),
            ],
            env=env,
            check=True,
            capture_output=True,
            text=True,
            timeout=600,
        )
        result: dict[str, Any] = json.loads(load.stdout.strip().splitlines()[-1])
    finally:
        stop_process(server, grace=5)
        shutil.rmtree(workdir, ignore_errors=True)
    return {"server": f"boardgameio-{storage}", "scenario": "saturation", **result}


def wait_listening(server: subprocess.Popen[bytes], log: Path, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while b"listening" not in log.read_bytes():
        if server.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError(f"boardgame.io's server did not start: {log.read_text(errors='replace')[-2000:]}")
        time.sleep(0.1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--storage", choices=("memory", "flatfile"), default="memory")
    parser.add_argument("--rooms", type=int, default=200, help="matches of 7 sockets (default 200)")
    parser.add_argument("--duration", type=float, default=20, help="measured window, seconds (default 20)")
    parser.add_argument("--warmup", type=float, default=3, help="load before the window, seconds (default 3)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--version", help="boardgame.io version (default: its current release on npm)")
    parser.add_argument("--cache", type=Path, default=CACHE, help=f"where it is installed (default {CACHE})")
    parser.add_argument("--server-cpu", type=int, default=0)
    parser.add_argument("--generator-cpu", type=int, default=1)
    parser.add_argument("--json", type=Path, help="also write the result to this file")
    args = parser.parse_args()
    version = args.version or current_version()
    modules = install(args.cache, version)
    result = run(
        modules,
        args.storage,
        args.rooms,
        args.warmup,
        args.duration,
        args.seed,
        (args.server_cpu, args.generator_cpu),
    )
    result = {"boardgameio_version": version, **result, "loadavg_1min": round(os.getloadavg()[0], 2)}
    line = json.dumps(result)
    print(line, flush=True)
    if args.json:
        args.json.write_text(json.dumps({"args": vars(args), "runs": [result]}, indent=2, default=str))


if __name__ == "__main__":
    main()
