"""Run the app under uvicorn in a thread of the test process: what ServerProcess does, in a tenth of the time.

The same interface as ServerProcess (``.url``, ``.port``, ``.database_url``, ``.log_path``, ``start``, ``stop``)
and the same settings (the environment ServerProcess would give the child, read into a ``Settings`` of this
server's own), so a test that needs no real process — no kill -9, no restart of the process, no signals, no
process-wide figures such as resident memory or the collector's — runs against this instead.

Everything the app keeps is per ``create_app`` (settings, engine, hub, bus, metrics registry, limiter), so two
servers in one test share nothing but the process: no app module reads the environment (only
``get_settings``, which ``create_app(settings)`` skips). What is process-wide: the garbage collector's
thresholds, callbacks and frozen generation (``app.collector``, ``Metrics.watch_gc``; restored on ``stop``),
the logging tree (this server's records, told apart by thread, also go to ``log_path``), and module-level
objects that hold no per-app state (the Jinja templates of ``app.routers.pages``, the routers, the rating
model of ``app.ratings``, the message parser of ``app.live.messages``).
"""

from __future__ import annotations

import gc
import logging
import socket
import threading
import time
from typing import Any

import uvicorn

from app.main import create_app
from app.settings import Settings
from app.ws_protocol import PreparedFramesProtocol
from tests.support.server import TestServer

START_SECONDS = 30.0
STOP_SECONDS = 10.0


class _ThreadFilter(logging.Filter):
    def __init__(self, thread: threading.Thread) -> None:
        super().__init__()
        self.thread = thread

    def filter(self, record: logging.LogRecord) -> bool:
        return record.thread == self.thread.ident


def settings_from_env(env: dict[str, str]) -> Settings:
    """The Settings a child process given ``env`` would read (and nothing from this process's environment)."""
    values: dict[str, Any] = {}
    fields = Settings.model_fields
    for key, value in env.items():
        if key in ("DATABASE_URL", "REDIS_URL"):
            values[key] = value
        elif key.startswith("THREEFOLD_") and key[len("THREEFOLD_") :].lower() in fields:
            values[key[len("THREEFOLD_") :].lower()] = value
    values.setdefault("REDIS_URL", None)
    # model_validate: only these values and the defaults, not a second read of os.environ.
    return Settings.model_validate(values)


class InProcessServer(TestServer):
    """Its port is bound at once (no race with another test for a free one) and served from ``start``."""

    sock: socket.socket
    _server: uvicorn.Server | None = None
    _thread: threading.Thread | None = None
    _log_handler: logging.Handler | None = None

    def claim_port(self, port: int | None) -> int:
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", port or 0))
        return int(self.sock.getsockname()[1])

    def start(self) -> InProcessServer:
        self._gc_threshold = gc.get_threshold()
        config = uvicorn.Config(
            create_app(settings_from_env(self.env(base={}))),
            ws=PreparedFramesProtocol,
            ws_per_message_deflate=False,
            ws_max_size=1048576,
            log_config=None,
            log_level=self.log_level,
            lifespan="on",
            timeout_graceful_shutdown=5,
        )
        server = self._server = uvicorn.Server(config)
        thread = self._thread = threading.Thread(
            target=server.run, kwargs={"sockets": [self.sock]}, name=f"threefold-{self.port}", daemon=True
        )
        self._log_handler = logging.FileHandler(self.log_path)
        self._log_handler.addFilter(_ThreadFilter(thread))
        self._log_handler.setLevel(logging.WARNING)
        self._log_handler.setFormatter(logging.Formatter("%(levelname)s:    %(message)s"))  # as uvicorn's
        logging.getLogger().addHandler(self._log_handler)
        thread.start()
        deadline = time.monotonic() + START_SECONDS
        while not server.started:
            if not thread.is_alive():
                raise RuntimeError(f"server exited: {self.log_path.read_text()[-2000:]}")
            if time.monotonic() > deadline:
                raise RuntimeError(f"server did not start in {START_SECONDS:.0f} s")
            time.sleep(0.005)  # polling a condition, with a deadline
        return self

    def stop(self) -> None:
        server, thread = self._server, self._thread
        if server is not None and thread is not None and thread.is_alive():
            server.should_exit = True
            thread.join(STOP_SECONDS)
            if thread.is_alive():
                server.force_exit = True
                thread.join(STOP_SECONDS)
        self.sock.close()
        if self._log_handler is not None:
            logging.getLogger().removeHandler(self._log_handler)
            self._log_handler.close()
            self._log_handler = None
        # The app froze what start-up made and raised the thresholds (app.collector): give the test process
        # its collector back.
        gc.unfreeze()
        gc.set_threshold(*self._gc_threshold)

    def __enter__(self) -> InProcessServer:
        return self.start()

    def __exit__(self, *_exc: object) -> None:
        self.stop()
