"""The application factory: ``uvicorn app.main:create_app --factory`` (see the Makefile)."""

from __future__ import annotations

import asyncio
import importlib
import ipaddress
import secrets
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from prometheus_client import CONTENT_TYPE_LATEST
from sqlalchemy import text
from starlette.exceptions import HTTPException as StarletteHTTPException

from app import collector, log_redaction
from app.body_limit import BodyLimit
from app.db import make_engine, make_sessionmaker
from app.deps import Services
from app.errors import ApiError
from app.identity import bearer_token
from app.limits import make_limiter
from app.live.bus import make_bus
from app.live.hub import Hub
from app.live.open_store import open_store
from app.metrics import Metrics
from app.network import public_base_url
from app.origins import OriginCheck, OriginPolicy
from app.routers import games, history, i18n, learn, me, pages, ratings, rooms, ws
from app.security_headers import SecurityHeaders
from app.settings import Settings, get_settings
from app.static_files import StaticFolder
from engines import registry
from engines.game import Game

ROOT = Path(__file__).resolve().parents[1]


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or get_settings()
    register_extra_games(settings.extra_games)
    log_redaction.install()
    db = make_engine(settings.database_url, settings.postgres_pool_size, settings.postgres_pool_overflow)
    sessions = make_sessionmaker(db)
    bus = make_bus(settings.redis_url, settings.bus_heartbeat_seconds)
    metrics = Metrics()
    limiter = make_limiter(settings.redis_url, settings.join_attempts_per_minute)
    base = public_base_url(settings.public_url, settings.listen_host, settings.listen_port)
    origins = OriginPolicy([*settings.allowed_origins, *([settings.public_url] if settings.public_url else [])])
    # On PostgreSQL each room has one owner process (app.live.leases), named by its bus origin.
    store = open_store(sessions, settings, getattr(bus, "origin", None))
    hub = Hub(store, settings, bus, base, metrics)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await bus.start(hub)
        # Long-lived objects made at start-up need never be scanned again (bench/README.md: GC pauses).
        metrics.watch_gc()  # before the first collection, so /metrics has a pause from the start
        collector.start_freezing(settings)
        refreezer = asyncio.create_task(collector.refreeze_forever(metrics, settings))
        sweeper = asyncio.create_task(hub.unload_idle_rooms_forever())
        leaseholder = asyncio.create_task(hub.keep_leases_forever())
        yield
        leaseholder.cancel()
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
        origins=origins,
    )

    app.add_middleware(BodyLimit, max_bytes=settings.max_body_bytes)
    app.add_middleware(OriginCheck, policy=origins)  # inside SecurityHeaders: its 403 gets the headers too
    app.add_middleware(SecurityHeaders)
    app.add_middleware(ws.LiveSocketRoute)  # outermost of ours: a live socket passes nothing else of ours

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_request: Request, exc: StarletteHTTPException) -> JSONResponse:
        if isinstance(exc, ApiError):
            return JSONResponse(exc.body(), status_code=exc.status_code)
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
    async def prometheus_metrics(request: Request) -> Response:
        """For this machine (loopback), a scraper with ``metrics_token``, or anyone with ``metrics_public``:
        room counts and error rates are nobody else's business, and ``make run LAN=1`` has no proxy to hide
        them."""
        if not may_read_metrics(settings, request):
            raise ApiError(403, "metrics_not_public")
        return Response(metrics.render(), media_type=CONTENT_TYPE_LATEST)

    app.include_router(me.router)
    app.include_router(games.router)
    app.include_router(learn.router)
    app.include_router(rooms.router)
    app.include_router(history.router)
    app.include_router(ratings.router)
    app.include_router(pages.router)
    app.include_router(i18n.router)
    app.mount("/static", StaticFolder(directory=str(ROOT / "static")), name="static")
    return app


def register_extra_games(packages: Iterable[str]) -> None:
    """Serve each game package named (``settings.extra_games``) besides the registry's own: its ``GAME``."""
    for package in packages:
        try:
            module = importlib.import_module(package)
        except ModuleNotFoundError as err:
            if err.name is None or not (package == err.name or package.startswith(f"{err.name}.")):
                raise  # the package exists but imports something missing: its own traceback says what
            raise RuntimeError(f"extra_games: there is no package {package!r}") from None
        game = getattr(module, "GAME", None)
        if not isinstance(game, Game):
            raise RuntimeError(f"extra_games: {package!r} has no GAME (an engines.game.Game)")
        registry.register(game)


def may_read_metrics(settings: Settings, request: Request) -> bool:
    if settings.metrics_public:
        return True
    token = bearer_token(request.headers.get("authorization"))
    if settings.metrics_token and token is not None and secrets.compare_digest(token, settings.metrics_token):
        return True
    try:
        address = ipaddress.ip_address(request.client.host if request.client else "")
    except ValueError:  # not an address (a test client's name, a Unix socket)
        return False
    mapped = address.ipv4_mapped if isinstance(address, ipaddress.IPv6Address) else None
    return (mapped or address).is_loopback


def _code_for(status: int) -> str:
    return {
        400: "bad_json",
        401: "unauthorized",
        403: "forbidden",
        404: "not_found",
        413: "body_too_large",
        422: "bad_request",
        429: "rate_limited",
    }.get(status, "error")
