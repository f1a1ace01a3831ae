"""The application factory: ``uvicorn app.main:create_app --factory`` (see the Makefile)."""

from __future__ import annotations

import asyncio
import gc
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from prometheus_client import CONTENT_TYPE_LATEST
from sqlalchemy import text
from starlette.exceptions import HTTPException as StarletteHTTPException

from app.db import make_engine, make_sessionmaker, postgres_dsn, sqlite_file
from app.deps import Services
from app.limits import make_limiter
from app.live.bus import make_bus
from app.live.hub import Hub
from app.live.store import Store
from app.metrics import Metrics
from app.network import public_base_url
from app.routers import games, history, me, pages, ratings, rooms, ws
from app.security_headers import SecurityHeaders
from app.settings import Settings, get_settings

ROOT = Path(__file__).resolve().parents[1]


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or get_settings()
    db = make_engine(settings.database_url)
    sessions = make_sessionmaker(db)
    bus = make_bus(settings.redis_url, settings.bus_heartbeat_seconds)
    metrics = Metrics()
    limiter = make_limiter(settings.redis_url, settings.join_attempts_per_minute)
    base = public_base_url(settings.public_url, settings.listen_host, settings.listen_port)
    store = Store(sessions, sqlite_file(settings.database_url), postgres_dsn(settings.database_url))
    hub = Hub(store, settings, bus, base, metrics)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await bus.start(hub)
        # Long-lived objects made at start-up need never be scanned again (PERFORMANCE.md: GC pauses).
        metrics.watch_gc()  # before the first collection, so /metrics has a pause from the start
        gc.collect()
        gc.freeze()
        _, _, oldest = gc.get_threshold()
        gc.set_threshold(settings.gc_young_threshold, settings.gc_middle_threshold, oldest)
        refreezer = asyncio.create_task(_refreeze(hub, metrics, settings))
        sweeper = asyncio.create_task(hub.unload_idle_rooms_forever())
        yield
        sweeper.cancel()
        refreezer.cancel()
        metrics.unwatch_gc()
        await hub.close()
        await bus.stop()
        await limiter.close()
        await store.close()
        await db.dispose()

    app = FastAPI(title="Threefold", version="0.1.0", lifespan=lifespan)
    app.state.services = Services(
        settings=settings,
        sessions=sessions,
        hub=hub,
        join_limiter=limiter,
    )

    app.add_middleware(SecurityHeaders)
    app.add_middleware(ws.LiveSocketRoute)  # outermost of ours: a live socket passes nothing else of ours

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_request: Request, exc: StarletteHTTPException) -> JSONResponse:
        return JSONResponse({"detail": exc.detail, "code": _code_for(exc.status_code)}, status_code=exc.status_code)

    @app.exception_handler(RequestValidationError)
    async def validation_error(_request: Request, exc: RequestValidationError) -> JSONResponse:
        first = exc.errors()[0] if exc.errors() else {"loc": (), "msg": "invalid request"}
        where = ".".join(str(p) for p in first.get("loc", ()))
        return JSONResponse({"detail": f"{where}: {first.get('msg')}", "code": "bad_request"}, status_code=422)

    @app.get("/healthz", tags=["health"])
    async def healthz() -> JSONResponse:
        """Alive and able to reach the database (what a load balancer or compose health check needs)."""
        try:
            async with sessions() as session:
                await session.execute(text("SELECT 1"))
        except Exception as err:  # the check reports, it does not raise
            return JSONResponse({"ok": False, "error": type(err).__name__}, status_code=503)
        return JSONResponse({"ok": True, "rooms": len(hub.rooms), "moves": hub.moves})

    @app.get("/metrics", tags=["health"], response_class=Response)
    async def prometheus_metrics() -> Response:
        return Response(metrics.render(), media_type=CONTENT_TYPE_LATEST)

    app.include_router(me.router)
    app.include_router(games.router)
    app.include_router(rooms.router)
    app.include_router(history.router)
    app.include_router(ratings.router)
    app.include_router(pages.router)
    app.mount("/static", StaticFiles(directory=str(ROOT / "static")), name="static")
    return app


async def _refreeze(hub: Hub, metrics: Metrics, settings: Settings) -> None:
    """Keep every garbage-collector pause short (PERFORMANCE.md: GC pauses are the first limit).

    A collection's pause grows with the live objects it scans. Rooms, games and sockets live for minutes, and
    a move's state, a socket's pending receive and a game's containers for a second or more: with 7,000
    sockets, collections every second or so scanned 60,000-120,000 such objects, 30-170 ms each. So every
    ``gc_freeze_seconds`` (a quarter second) the young generation is collected and what survived is frozen
    (``gc.freeze`` costs nothing): no later collection scans it again, and the middle and oldest
    generations, which only ever held those survivors, stay nearly empty. Measured with 1,000 rooms of 7
    sockets at 2 moves/s: the longest pause 131-238 ms before, 10-14 ms after.

    The young threshold (``gc_young_threshold``) cannot bound that scan by itself: it counts allocations
    *net of deallocations*, and a move allocates its new state while freeing the old, frozen one, so the
    count barely moves while the young generation fills with every room's current state and every socket's
    re-armed receive (35,000-40,000 objects a second at 1,000 rooms: with a refreeze every second, a 30 ms
    collect each time). The timed refreeze bounds it; the threshold only adds collections under heavy load.

    What dies by reference counting is freed whether frozen or not; only a reference cycle that outlives a
    young collection and dies after it was frozen stays, until the next full collection. In steady play none
    did (50 s at 300 rooms: 0 objects); a socket's objects, though, are in cycles (the WebSocket protocol's
    parser generator holds the protocol), about 17 KiB a socket. So once the sockets closed since the last
    full collection reach ``gc_full_closed_fraction`` of those open then (at least ``gc_full_closed_min``),
    everything is unfrozen, collected and frozen again: CPython's own rule for its oldest generation (a full
    collection once it has grown by a quarter), counted in closed sockets. That pause is a full
    collection's (about 1 s with 7,000 sockets); a table of players who stay seated never pays it."""
    closed_at_full, open_at_full = hub.sockets_closed, 0
    while True:
        await asyncio.sleep(settings.gc_freeze_seconds)
        closed = hub.sockets_closed - closed_at_full
        if closed >= max(settings.gc_full_closed_min, settings.gc_full_closed_fraction * open_at_full):
            gc.unfreeze()
            gc.collect()
            metrics.full_collections.inc()
            closed_at_full, open_at_full = hub.sockets_closed, hub.sockets_opened - hub.sockets_closed
        else:
            gc.collect(0)  # fresh garbage cycles are freed, not frozen (a few milliseconds)
        gc.freeze()


def _code_for(status: int) -> str:
    return {
        400: "bad_json",
        401: "unauthorized",
        403: "forbidden",
        404: "not_found",
        422: "bad_request",
        429: "rate_limited",
    }.get(status, "error")
