"""The processes a fan-out run measures: a *deployment* of one or more servers, plus the services they need.

- ``project``: one app process on a fresh SQLite database (the embedded default).
- ``bare``: the stack's ceiling (bench/bare.py), one process.
- ``cluster``: two app processes sharing a fresh PostgreSQL database (``threefold_bench_<random>``, created on
  the server of ``--postgres-url`` and dropped afterwards) and a private ``redis-server`` on a free port
  (stopped afterwards), so that neither old runs nor other people's tests share the pub/sub channel: Redis
  pub/sub channels ignore the database number.

Every server runs under ``taskset -c CPU`` (all of them on the same core). PostgreSQL and Redis are not pinned.
Everything started here is stopped by the context manager ``deploy`` whatever happens (error, Ctrl-C), and the
children also get SIGTERM if the driver itself dies (``PR_SET_PDEATHSIG``).
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
APP = "app.main:create_app"
BARE = "bench.bare:create_app"
KINDS = ("project", "cluster", "routed", "routed3", "bare")  # run in this order: bare takes the project's state size
CLUSTER = ("cluster-a", "cluster-b")  # the processes of a cluster
CLUSTER_PROCESSES = {"cluster": 2, "routed": 2, "routed3": 3}
"""The app processes of each PostgreSQL + Redis kind. ``cluster`` spreads a room's sockets over its processes
(the scenario of a failover in progress, sockets relayed to the owner); ``routed`` and ``routed3`` put all of a
room's sockets on one process, as nginx routes them in production (deploy/nginx.conf)."""
PR_SET_PDEATHSIG = 1


@dataclass(frozen=True)
class Options:
    """What every deployment needs to know."""

    cpu: int
    payload_bytes: int
    profile: Path | None = None
    postgres_url: str = "postgresql://postgres@127.0.0.1:5432/postgres"
    redis_url: str | None = None
    """None: a private redis-server for each cluster run."""
    sqlite_dir: Path | None = None
    """Where the project's fresh SQLite database is made (None: the system's temporary directory)."""
    tree: Path = ROOT
    """The checkout whose app (and migrations) the app processes run: another commit's worktree, to compare
    two versions of the server under this harness (bench/serve.py is always this checkout's)."""


# ---- processes ------------------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def cpu_seconds(pid: int) -> float:
    """utime + stime of a process, from /proc/<pid>/stat."""
    return cpu_seconds_of(Path(f"/proc/{pid}/stat"))


def thread_cpu_seconds(pid: int) -> dict[str, float]:
    """The main thread's utime + stime apart from every other thread's (the SQLite checkpointer, the executor,
    the stall watchdog): the event loop's own share."""
    found = {"main": 0.0, "others": 0.0}
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            found["main" if task.name == str(pid) else "others"] += cpu_seconds_of(task / "stat")
        except (OSError, ValueError, IndexError):
            continue  # the thread ended meanwhile
    return found


def cpu_seconds_of(stat: Path) -> float:
    """utime + stime from a ``stat`` file of /proc (a process' or one thread's)."""
    fields = stat.read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def process_counters(pid: int) -> dict[str, float]:
    """What a window's figures can be checked against: context switches (involuntary ones: something else
    ran on the server's core), system calls and bytes written (the database's writes and fsyncs), and the
    time the kernel reports the process waited to run (``schedstat``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    counters = {"utime_s": int(fields[11]) / ticks, "stime_s": int(fields[12]) / ticks}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(("voluntary_ctxt_switches", "nonvoluntary_ctxt_switches")):
            name, value = line.split(":")
            counters[name] = float(value)
    with contextlib.suppress(OSError):  # not readable for another user's process
        for line in Path(f"/proc/{pid}/io").read_text().splitlines():
            name, value = line.split(":")
            if name in ("syscr", "syscw", "write_bytes", "wchar"):
                counters[name] = float(value)
    with contextlib.suppress(OSError, ValueError, IndexError):
        run_ns, wait_ns, _slices = Path(f"/proc/{pid}/schedstat").read_text().split()
        counters["run_s"], counters["runqueue_wait_s"] = int(run_ns) / 1e9, int(wait_ns) / 1e9
    return counters


def cpu_steal_seconds(cpus: tuple[int, ...]) -> dict[str, float]:
    """Per core: time the hypervisor gave to others (steal), time spent on interrupts (irq, softirq), time
    busy; and the kernel threads' CPU."""
    ticks = os.sysconf("SC_CLK_TCK")
    found: dict[str, float] = {}
    for line in Path("/proc/stat").read_text().splitlines():
        name, *values = line.split()
        if name.startswith("cpu") and name[3:].isdigit() and int(name[3:]) in cpus:
            found[f"{name}_steal"] = int(values[7]) / ticks
            found[f"{name}_irq"] = (int(values[5]) + int(values[6])) / ticks
            found[f"{name}_busy"] = (sum(map(int, values[:8])) - int(values[3]) - int(values[4])) / ticks
    found["kernel_threads_cpu"] = kernel_threads_cpu_seconds()
    return found


def kernel_threads_cpu_seconds() -> float:
    """CPU of the kernel's own threads (children of kthreadd: writeback, the ext4 journal, softirqs): the
    work a run's disk writes cause that no process of the run is charged for."""
    total = 0.0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # ended meanwhile
        if fields[1] == "2":  # the parent is kthreadd
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def counter_deltas(before: dict[str, float], after: dict[str, float]) -> dict[str, float]:
    return {name: round(after[name] - before[name], 4) for name in before if name in after}


def rss_bytes(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise RuntimeError("no VmRSS")


def die_with_parent() -> None:
    """In the child before exec: SIGTERM when the driver dies, even by SIGKILL."""
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)


def stop_process(proc: subprocess.Popen[bytes], sig: signal.Signals = signal.SIGINT, grace: float = 15) -> None:
    if proc.poll() is None:
        proc.send_signal(sig)
        try:
            proc.wait(grace)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(5)


@dataclass
class Server:
    name: str
    proc: subprocess.Popen[bytes]
    port: int
    stats_path: Path
    workdir: Path

    @property
    def pid(self) -> int:
        return self.proc.pid

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    def gc_reset(self) -> None:
        os.kill(self.pid, signal.SIGUSR2)

    async def gc_stats(self) -> dict[str, Any]:
        """Ask the server for its collector record (SIGUSR1) without blocking the load generator's loop."""
        self.stats_path.unlink(missing_ok=True)
        os.kill(self.pid, signal.SIGUSR1)
        for _ in range(250):
            if self.stats_path.exists() and self.stats_path.stat().st_size:
                await asyncio.sleep(0.05)
                data: dict[str, Any] = json.loads(self.stats_path.read_text())
                return data
            await asyncio.sleep(0.02)
        return {}

    def stop(self) -> None:
        stop_process(self.proc)  # SIGINT: uvicorn shuts down; the profiler (if any) writes its stats
        log = self.workdir / "server.log"
        if log.exists():
            shutil.copy(log, Path(tempfile.gettempdir()) / f"threefold-bench-{self.name}-last.log")
        shutil.rmtree(self.workdir, ignore_errors=True)


def server_env(name: str, port: int, options: Options) -> dict[str, str]:
    env = {
        **os.environ,
        "THREEFOLD_TESTING": "1",  # accept the fixed seeds the load generator sends
        "THREEFOLD_LISTEN_PORT": str(port),
        # The per-socket limit is abuse protection, not capacity: raised so saturation runs are never refused
        # (the check itself still runs on every message).
        "THREEFOLD_MESSAGES_PER_SECOND": "100000",
        "THREEFOLD_MESSAGE_BURST": "100000",
        "BENCH_PAYLOAD_BYTES": str(options.payload_bytes),
    }
    env.pop("REDIS_URL", None)
    env.pop("DATABASE_URL", None)
    if options.profile is not None:
        env["BENCH_PROFILE"] = str(options.profile.resolve().with_name(f"{options.profile.name}.{name}"))
    return env


def start_server(name: str, target: str, options: Options, extra_env: dict[str, str] | None = None) -> Server:
    """This checkout's ``bench/serve.py TARGET`` on a free port, pinned to ``options.cpu``, importing the app from
    ``options.tree`` (the bare endpoint from this checkout); returns once /healthz answers 200."""
    workdir = Path(tempfile.mkdtemp(prefix=f"threefold-bench-{name}-"))
    port = free_port()
    stats = workdir / "gc.json"
    tree = ROOT if target == BARE else options.tree
    serve = str(ROOT / "bench" / "serve.py")
    with (workdir / "server.log").open("wb") as log:
        proc = subprocess.Popen(
            ["taskset", "-c", str(options.cpu), sys.executable, serve, target, str(port), str(stats)],
            cwd=tree,
            env={**server_env(name, port, options), "PYTHONPATH": str(tree), **(extra_env or {})},
            stdout=log,
            stderr=subprocess.STDOUT,
            preexec_fn=die_with_parent,
        )
    server = Server(name, proc, port, stats, workdir)
    try:
        wait_healthy(server)
    except BaseException:
        server.stop()
        raise
    return server


def wait_healthy(server: Server, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.proc.poll() is not None:
            raise RuntimeError(f"{server.name} server exited: {(server.workdir / 'server.log').read_text()[-2000:]}")
        try:
            if httpx.get(f"{server.url}/healthz", timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    raise RuntimeError(f"{server.name} server did not become healthy")


def migrate(database_url: str, tree: Path = ROOT) -> None:
    subprocess.run(
        [sys.executable, "-m", "alembic", "upgrade", "head"],
        cwd=tree,
        env={**os.environ, "DATABASE_URL": database_url, "PYTHONPATH": str(tree)},
        check=True,
        capture_output=True,
    )


# ---- services -------------------------------------------------------------------------------------------


def pg_admin(admin_url: str, statement: str) -> None:
    """One statement on the admin database (asyncpg, in a thread of its own: the driver's loop may be running)."""

    async def run() -> None:
        import asyncpg

        conn = await asyncpg.connect(admin_url, timeout=10)
        try:
            await conn.execute(statement)
        finally:
            await conn.close()

    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, run()).result()


@contextlib.contextmanager
def postgres_database(admin_url: str) -> Iterator[str]:
    """A fresh database on the server of ``admin_url`` (dropped afterwards); yields its SQLAlchemy URL."""
    name = f"threefold_bench_{uuid.uuid4().hex[:10]}"
    pg_admin(admin_url, f'CREATE DATABASE "{name}"')
    try:
        yield f"{admin_url.rsplit('/', 1)[0].replace('postgresql://', 'postgresql+asyncpg://', 1)}/{name}"
    finally:
        pg_admin(admin_url, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@contextlib.contextmanager
def private_redis() -> Iterator[str]:
    """A redis-server of our own on a free port (pub/sub only: nothing saved); yields its URL (its pid is
    in ``REDIS_PIDS`` meanwhile, for its CPU time)."""
    port = free_port()
    workdir = Path(tempfile.mkdtemp(prefix="threefold-bench-redis-"))
    proc = subprocess.Popen(
        ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        cwd=workdir,
        stdout=subprocess.DEVNULL,
        preexec_fn=die_with_parent,
    )
    url = f"redis://127.0.0.1:{port}/0"
    REDIS_PIDS[url] = proc.pid
    try:
        wait_redis(url, proc)
        yield url
    finally:
        REDIS_PIDS.pop(url, None)
        stop_process(proc, signal.SIGTERM, grace=5)
        shutil.rmtree(workdir, ignore_errors=True)


def wait_redis(url: str, proc: subprocess.Popen[bytes], timeout: float = 10) -> None:
    import redis

    client = redis.Redis.from_url(url, socket_connect_timeout=1)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"redis-server exited with {proc.returncode}")
        with contextlib.suppress(redis.ConnectionError):
            client.ping()
            client.close()
            return
        time.sleep(0.1)
    raise RuntimeError("redis-server did not answer")


REDIS_PIDS: dict[str, int] = {}
"""The private redis-servers running now, by URL."""


def cpu_or_zero(pid: int) -> float:
    """A process' CPU time so far; 0 if it is gone or not ours to read."""
    try:
        return cpu_seconds(pid)
    except (OSError, ValueError, IndexError):
        return 0.0


# ---- deployments ----------------------------------------------------------------------------------------


@dataclass
class Deployment:
    """The server processes of one run; CPU and RSS are summed over them, GC pauses are the longest of any."""

    kind: str
    servers: list[Server]
    database_url: str | None = None
    redis_url: str | None = None
    sqlite_path: Path | None = None

    @property
    def app(self) -> bool:
        return self.kind != "bare"

    def cpu_seconds(self) -> list[float]:
        """Each process' CPU time so far."""
        return [cpu_seconds(s.pid) for s in self.servers]

    async def service_pids(self) -> dict[str, list[int]]:
        """The PostgreSQL backends serving this run's database (PostgreSQL's work for other databases is not
        counted) and the private Redis. Empty for one process."""
        found: dict[str, list[int]] = {}
        if self.database_url is not None:
            import asyncpg

            dsn = self.database_url.replace("postgresql+asyncpg://", "postgresql://", 1)
            connection = await asyncpg.connect(dsn)
            try:
                rows = await connection.fetch(
                    "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"
                )
            finally:
                await connection.close()
            found["postgres"] = [row[0] for row in rows]
        if self.redis_url is not None and self.redis_url in REDIS_PIDS:
            found["redis"] = [REDIS_PIDS[self.redis_url]]
        return found

    def rss_bytes(self) -> int:
        return sum(rss_bytes(s.pid) for s in self.servers)

    def counters(self, cpus: tuple[int, ...]) -> dict[str, float]:
        """``process_counters`` summed over the processes, each thread name's CPU (``thread_cpu_`` + name), the
        cores' steal and interrupt time, and the SQLite WAL's size: read at both ends of a window."""
        summed: dict[str, float] = {}
        for server in self.servers:
            threads = {f"thread_cpu_{name}": cpu for name, cpu in thread_cpu_seconds(server.pid).items()}
            for name, value in (process_counters(server.pid) | threads).items():
                summed[name] = summed.get(name, 0.0) + value
        summed |= cpu_steal_seconds(cpus)
        if self.sqlite_path is not None:
            with contextlib.suppress(OSError):
                summed["wal_bytes"] = float(Path(f"{self.sqlite_path}-wal").stat().st_size)
        return summed

    def check_alive(self) -> None:
        """Raise if a server died during the run (its figures would be meaningless)."""
        for server in self.servers:
            if server.proc.poll() is not None:
                log = (server.workdir / "server.log").read_text(errors="replace")[-2000:]
                raise RuntimeError(f"{server.name} server exited with {server.proc.returncode} during the run: {log}")

    def gc_reset(self) -> None:
        for server in self.servers:
            server.gc_reset()

    async def move_seconds(self) -> dict[str, float]:
        """The app's ``threefold_move_seconds`` histogram (cumulative count by upper bound), summed over its
        processes: from a validated action to its views written, on the server's clock. Empty for bare."""
        if not self.app:
            return {}
        counts: dict[str, float] = {}
        async with httpx.AsyncClient(timeout=10) as http:
            for server in self.servers:
                text = (await http.get(f"{server.url}/metrics")).text
                for line in text.splitlines():
                    if line.startswith("threefold_move_seconds_bucket{"):
                        bound = line.split('le="', 1)[1].split('"', 1)[0]
                        counts[bound] = counts.get(bound, 0.0) + float(line.rsplit(" ", 1)[1])
        return counts

    async def gc_stats(self) -> dict[str, Any]:
        """One process: its record. Several: the longest pause of any (absent if one did not answer), the
        collections of all, and each process' record under ``processes``."""
        records = [await server.gc_stats() for server in self.servers]
        if len(records) == 1:
            return records[0]
        merged: dict[str, Any] = {
            "collections": sum(r.get("collections", 0) for r in records),
            "total_ms": round(sum(r.get("total_ms", 0.0) for r in records), 3),
            "processes": records,
        }
        if all("longest_ms" in r for r in records):
            merged["longest_ms"] = max(r["longest_ms"] for r in records)
        return merged


@contextlib.contextmanager
def deploy(kind: str, options: Options) -> Iterator[Deployment]:
    """Start a deployment of ``kind`` (see the module docstring); everything is stopped and removed on exit."""
    with contextlib.ExitStack() as stack:
        if kind == "bare":
            servers = [start(stack, "bare", BARE, options, {})]
        elif kind == "project":
            directory = stack.enter_context(
                tempfile.TemporaryDirectory(prefix="threefold-bench-db-", dir=options.sqlite_dir)
            )
            database_url = f"sqlite+aiosqlite:///{directory}/threefold.db"
            migrate(database_url, options.tree)
            servers = [start(stack, "project", APP, options, {"DATABASE_URL": database_url})]
            yield Deployment(kind, servers, sqlite_path=Path(directory) / "threefold.db")
            return
        elif kind in CLUSTER_PROCESSES:
            redis_url = options.redis_url or stack.enter_context(private_redis())
            database_url = stack.enter_context(postgres_database(options.postgres_url))
            migrate(database_url, options.tree)
            env = {"DATABASE_URL": database_url, "REDIS_URL": redis_url}
            if CLUSTER_PROCESSES[kind] > 2:  # 40 connections each would pass PostgreSQL's 100 (docs/deploy.md)
                env |= {
                    f"THREEFOLD_POSTGRES_{name}": "8" for name in ("POOL_SIZE", "POOL_OVERFLOW", "MOVE_CONNECTIONS")
                }
            names = [f"{kind}-{chr(ord('a') + i)}" for i in range(CLUSTER_PROCESSES[kind])]
            servers = [start(stack, name, APP, options, env) for name in names]
            yield Deployment(kind, servers, database_url, redis_url)
            return
        else:
            raise ValueError(f"unknown server kind {kind!r} (one of {', '.join(KINDS)})")
        yield Deployment(kind, servers)


def start(stack: contextlib.ExitStack, name: str, target: str, options: Options, env: dict[str, str]) -> Server:
    """Start a server whose stop is the ``stack``'s business."""
    server = start_server(name, target, options, env)
    stack.callback(server.stop)
    return server
