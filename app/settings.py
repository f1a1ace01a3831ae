"""One settings object, read from the environment (prefix THREEFOLD_, plus DATABASE_URL / REDIS_URL)."""

from __future__ import annotations

from functools import lru_cache
from typing import Annotated, Any

from pydantic import AliasChoices, Field, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict


class Settings(BaseSettings):
    # An empty variable counts as unset: compose passes `${VAR:-}` through as "" when the shell has none.
    model_config = SettingsConfigDict(env_prefix="THREEFOLD_", extra="ignore", env_ignore_empty=True)

    database_url: str = Field(
        default="sqlite+aiosqlite:///./data/threefold.db",
        validation_alias=AliasChoices("DATABASE_URL", "THREEFOLD_DATABASE_URL"),
        description="SQLAlchemy async URL: sqlite+aiosqlite:///path or postgresql+asyncpg://user@host/db",
    )
    redis_url: str | None = Field(
        default=None,
        validation_alias=AliasChoices("REDIS_URL", "THREEFOLD_REDIS_URL"),
        description="Set when several app processes serve the same rooms: presence, lobby and chat news between "
        "them (docs/deploy.md, the bus); unset = one process.",
    )
    # The session pool keeps every connection it may open: a game's end holds one for several round trips, so
    # a busy process has many ends in flight, and an overflow connection closed on its return is opened again
    # (a full connect) for the next end.
    postgres_pool_size: int = Field(
        default=30, ge=1, description="PostgreSQL: connections the app's session pool keeps (rooms, lobbies, pages)."
    )
    postgres_pool_overflow: int = Field(
        default=0, ge=0, description="PostgreSQL: connections the session pool may add for a burst, and then close."
    )
    postgres_move_connections: int = Field(
        default=10, ge=1, description="PostgreSQL: the most connections the per-move writes and room leases use."
    )
    testing: bool = Field(default=False, description="Accept a fixed seed at room creation (tests only).")
    public_url: str | None = Field(default=None, description="Base URL for join links, e.g. http://192.168.1.20:8000")
    listen_host: str = Field(default="127.0.0.1", description="Interface the server listens on (for join links).")
    listen_port: int = 8000
    secure_cookies: bool | None = Field(
        default=None,
        description="Send the player cookie over HTTPS only. Unset: yes when public_url is https://, or when the "
        "request came over HTTPS (behind a proxy: its X-Forwarded-Proto, with uvicorn's --proxy-headers).",
    )
    metrics_public: bool = Field(
        default=False, description="Serve /metrics to any address; otherwise to loopback clients and metrics_token."
    )
    metrics_token: str | None = Field(
        default=None, description="A secret a scraper sends as Authorization: Bearer to read /metrics from anywhere."
    )
    allowed_origins: Annotated[list[str], NoDecode] = Field(
        default_factory=list,
        description="Origins besides the site's own (the Host a request was sent to, and public_url) whose "
        "pages may open the WebSocket and send POSTs, comma-separated: e.g. https://other.example.org",
    )
    extra_games: Annotated[list[str], NoDecode] = Field(
        default_factory=list,
        description="Game packages served besides the registry's own, comma-separated package names such as "
        "engines.<game> (docs/adding-a-game.md): each one's GAME is registered at start-up, and a name that is "
        "not such a package stops the start.",
    )

    max_message_bytes: int = 8192
    max_body_bytes: int = Field(
        default=1_048_576,
        ge=1024,
        description="Largest HTTP request body (bytes); larger ones get 413 body_too_large. nginx allows the same.",
    )
    import_max_actions: int = Field(
        default=10_000,
        ge=1,
        description="Most actions a game import (POST /api/history/import) may replay; more get 422 "
        "too_many_actions. Real games have hundreds at most.",
    )
    messages_per_second: float = 20.0
    message_burst: int = 40
    send_queue_size: int = 64
    name_max_length: int = 24
    join_attempts_per_minute: int = Field(default=30, description="Wrong room codes one address may try a minute.")
    chat_max_length: int = 300
    chats_per_second: float = 1.0
    chat_burst: int = 5
    host_grace_seconds: float = Field(default=20.0, description="How long the host may be away before handover.")
    room_idle_seconds: float = Field(
        default=600.0,
        description="A room nobody has been connected to for this long is unloaded (kept in the database).",
    )
    room_sweep_seconds: float = Field(default=60.0, description="How often idle rooms are looked for.")
    bus_heartbeat_seconds: float = Field(
        default=5.0,
        description="With Redis: how often each process says it is alive; one silent for three of these counts "
        "as gone, and so do the players connected through it.",
    )
    lease_seconds: float = Field(
        default=3.0,
        gt=0,
        description="PostgreSQL: how long a room's owner process keeps it without renewing (renewed every third "
        "of this); after a crash the room is taken over within about this long (docs/deploy.md).",
    )
    internal_url: str | None = Field(
        default=None,
        description="Where the other app processes reach this one (to pass them a socket of a room it owns), "
        "e.g. http://app1:8000. Unset: http://listen_host:listen_port.",
    )
    # The garbage collector (app.collector explains why).
    gc_young_threshold: int = Field(
        default=10_000,
        description="Net allocations between young collections. Each young collection costs a fixed part plus "
        "the live objects made since the last one; the refreeze (gc_freeze_seconds) already bounds "
        "those, so a higher threshold mostly saves the fixed part, paid on every collection.",
    )
    gc_middle_threshold: int = Field(
        default=100,
        description="Young collections between middle-generation ones: seldom reached, since what survives a young "
        "collection is frozen within gc_freeze_seconds.",
    )
    gc_freeze_seconds: float = Field(
        default=0.05,
        description="How often the young generation is collected and its survivors frozen: that collection scans "
        "what was made since the last one and is still alive, so its pause grows with this interval; a shorter "
        "one spends about the same time collecting in all. While collections find no garbage, ticks go by "
        "without one, up to a second (app.collector), the survivors still frozen at each.",
    )
    gc_full_growth_fraction: float = Field(
        default=0.25,
        description="A full collection, frozen objects included, once resident memory has grown by this fraction "
        "since the last one: it frees reference cycles that died after they were frozen.",
    )
    gc_full_growth_min_mib: int = Field(
        default=64, description="Least growth of resident memory (MiB) calling for a full collection."
    )
    bot_delay_seconds: float = 0.8
    bot_pace: float = Field(default=1.0, description="Multiplies every bot pause (tests run bots fast).")

    @field_validator("allowed_origins", "extra_games", mode="before")
    @classmethod
    def _comma_separated(cls, value: Any) -> Any:
        if isinstance(value, str):
            return [item.strip() for item in value.split(",") if item.strip()]
        return value

    def cookie_is_secure(self, request_scheme: str) -> bool:
        if self.secure_cookies is not None:
            return self.secure_cookies
        return (self.public_url or "").lower().startswith("https://") or request_scheme in ("https", "wss")


@lru_cache
def get_settings() -> Settings:
    return Settings()
