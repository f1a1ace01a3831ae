"""Run the real server in a child process (uvicorn, as `make run` does), so tests can kill -9 it; migrate
test databases (from a template migrated once per test process).

A child is forked from a fork server (``multiprocessing``'s ``forkserver``, started once per test process)
that has already imported the app and uvicorn: the same code, settings and command-line options as
``python -m uvicorn``, but a start (and every restart after a kill -9) skips the interpreter's start-up and
the imports, most of a server's start-up time. The child is a real process of its own (own pid, signals,
memory, collector, stdout/stderr log), the app reads its environment only once it runs."""

from __future__ import annotations

import atexit
import contextlib
import functools
import io
import multiprocessing
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import warnings
from collections.abc import Iterator, Mapping
from concurrent.futures import ThreadPoolExecutor
from multiprocessing.process import BaseProcess
from pathlib import Path
from typing import Any

import httpx

from app.db import postgres_dsn, sqlite_file
from app.main import register_extra_games
from tests.support.services import postgres_copy_of

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def alembic_upgrade(database_url: str) -> None:
    """``alembic upgrade head`` on alembic.ini and env.py, in this process (its own thread: env.py runs an event
    loop, and a caller may be in one); this process' logging is left as it is."""
    from alembic import command
    from alembic.config import Config

    config = Config(str(ROOT / "alembic.ini"))
    config.attributes["database_url"] = database_url
    config.attributes["configure_logger"] = False
    with warnings.catch_warnings():
        # alembic.ini's prepend_sys_path is ".": the legacy splitting gives the same.
        warnings.filterwarnings("ignore", "No path_separator found", DeprecationWarning)
        with ThreadPoolExecutor(1) as pool:
            pool.submit(command.upgrade, config, "head").result()


def migrate(database_url: str) -> None:
    """``alembic upgrade head``, once per test process: a new SQLite file is a copy of a file migrated once,
    an empty test PostgreSQL database a copy of a database migrated once; anything else is upgraded."""
    target = sqlite_file(database_url)
    if target is not None and not Path(target).exists():
        template = _sqlite_template()
        for suffix in ("", "-wal"):  # Alembic's connection is closed, so no -wal is left; were one, it goes too
            if Path(template + suffix).exists():
                shutil.copyfile(template + suffix, target + suffix)
        return
    if postgres_dsn(database_url) is not None and postgres_copy_of(database_url, alembic_upgrade):
        return
    alembic_upgrade(database_url)


@functools.cache
def _sqlite_template() -> str:
    folder = tempfile.mkdtemp(prefix="threefold-template-")
    atexit.register(shutil.rmtree, folder, True)
    path = str(Path(folder) / "threefold.db")
    alembic_upgrade(f"sqlite+aiosqlite:///{path}")
    return path


def server_env(
    database_url: str,
    redis_url: str | None,
    port: int,
    extra_env: dict[str, str],
    base: Mapping[str, str] = os.environ,
) -> dict[str, str]:
    """The environment a test server runs with (InProcessServer reads its settings from the same)."""
    env = {
        **base,
        "DATABASE_URL": database_url,
        "THREEFOLD_TESTING": "1",
        "THREEFOLD_BOT_PACE": "0.05",
        # Many tests share 127.0.0.1; the brute-force guard has its own test with a low limit.
        "THREEFOLD_JOIN_ATTEMPTS_PER_MINUTE": "10000",
        "THREEFOLD_LISTEN_PORT": str(port),
        **extra_env,
    }
    env.pop("REDIS_URL", None)
    if redis_url:
        env["REDIS_URL"] = redis_url
    return env


def serve_games(*packages: str) -> None:
    """Serve these game packages besides the registry's own, in every test: they are registered in this process
    now (so tests that list games find them at collection), and ``THREEFOLD_EXTRA_GAMES`` tells the server
    processes the tests start (their environment is this one's, ``server_env``) to register them too."""
    os.environ["THREEFOLD_EXTRA_GAMES"] = ",".join(packages)
    register_extra_games(packages)


class TestServer:
    """What a test knows of a live server: its URL, database, settings (``extra_env``) and log."""

    def __init__(
        self,
        database_url: str,
        redis_url: str | None = None,
        port: int | None = None,
        extra_env: dict[str, str] | None = None,
        log_level: str = "warning",
    ) -> None:
        self.database_url = database_url
        self.redis_url = redis_url
        self.port = self.claim_port(port)
        self.extra_env = extra_env or {}
        self.log_level = log_level
        self.log_path = Path(f"/tmp/threefold-test-server-{self.port}.log")

    def claim_port(self, port: int | None) -> int:
        return port or free_port()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def env(self, base: Mapping[str, str] = os.environ) -> dict[str, str]:
        return server_env(self.database_url, self.redis_url, self.port, self.extra_env, base)


UVICORN_OPTIONS: dict[str, Any] = {
    "factory": True,
    "host": "127.0.0.1",
    "ws": "app.ws_protocol:PreparedFramesProtocol",
    "ws_per_message_deflate": False,
    "ws_max_size": 1048576,
}
"""What ``make run`` passes on uvicorn's command line (``--factory --ws ... --ws-per-message-deflate false
--ws-max-size 1048576``), for ``uvicorn.run``."""

_PRELOAD = [
    "app.main",
    "app.ws_protocol",
    "uvicorn",
    "uvicorn.main",
    "uvicorn.lifespan.on",
    "uvicorn.loops.auto",
    "uvicorn.protocols.http.auto",
    "uvicorn.protocols.websockets.websockets_impl",
    "tests.support.server",
]
_FORKS = multiprocessing.get_context("forkserver")
_FORKS.set_forkserver_preload(_PRELOAD)


def _serve(env: dict[str, str], port: int, log_level: str, log_path: str) -> None:
    """The child: stdout and stderr to the log, the test's environment, then what ``python -m uvicorn`` runs."""
    os.chdir(ROOT)
    sys.stdout.flush()
    sys.stderr.flush()
    log = os.open(log_path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    os.dup2(log, 1)
    os.dup2(log, 2)
    os.close(log)
    # As a new interpreter's with both on a file: stdout block-buffered, stderr line-buffered.
    unbuffered = bool(env.get("PYTHONUNBUFFERED"))
    sys.stdout = io.TextIOWrapper(io.FileIO(1, "w", closefd=False), write_through=unbuffered)
    sys.stderr = io.TextIOWrapper(io.FileIO(2, "w", closefd=False), line_buffering=True, write_through=unbuffered)
    os.environ.clear()
    os.environ.update(env)
    import uvicorn

    uvicorn.run("app.main:create_app", port=port, log_level=log_level, **UVICORN_OPTIONS)


class ChildProcess:
    """The parts of ``subprocess.Popen`` tests use, for a child of the fork server."""

    def __init__(self, process: BaseProcess) -> None:
        self.process = process
        assert process.pid is not None
        self.pid: int = process.pid

    @property
    def returncode(self) -> int | None:
        return self.process.exitcode

    def poll(self) -> int | None:
        return self.process.exitcode

    def wait(self, timeout: float | None = None) -> int:
        self.process.join(timeout)
        if self.process.exitcode is None:
            raise subprocess.TimeoutExpired(f"server {self.pid}", timeout or 0)
        return self.process.exitcode

    def send_signal(self, sig: int) -> None:
        if self.process.exitcode is None:
            os.kill(self.pid, sig)

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)


class ServerProcess(TestServer):
    proc: ChildProcess | None = None

    def start(self) -> ServerProcess:
        self.log_path.touch()
        process = _FORKS.Process(
            target=_serve,
            args=(self.env(), self.port, self.log_level, str(self.log_path)),
            name=f"threefold-{self.port}",
            daemon=True,
        )
        process.start()
        self.proc = ChildProcess(process)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited: {self.log_path.read_text()[-2000:]}")
            try:
                if httpx.get(f"{self.url}/healthz", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                time.sleep(0.02)  # polling a condition, with a deadline
        raise RuntimeError("server did not become healthy in 30 s")

    def kill(self) -> None:
        """kill -9: no shutdown hooks, nothing flushed that was not committed."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()


@contextlib.contextmanager
def serving(database_url: str, **options: Any) -> Iterator[ServerProcess]:
    """A started ``ServerProcess(database_url, **options)``, stopped on the way out."""
    proc = ServerProcess(database_url, **options).start()
    try:
        yield proc
    finally:
        proc.stop()
