"""SQLAlchemy 2.0 typed models. Engine states live in JSON columns, never as columns of their own,
so a rule change needs no migration."""

from __future__ import annotations

from datetime import datetime
from typing import Any, ClassVar

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
    func,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    type_annotation_map: ClassVar[dict[Any, Any]] = {dict[str, Any]: JSON, list[Any]: JSON}


class Player(Base):
    __tablename__ = "players"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True, index=True)
    name: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())


class Room(Base):
    __tablename__ = "rooms"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    code: Mapped[str] = mapped_column(String(8), unique=True, index=True)
    host_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    game: Mapped[str] = mapped_column(String(32))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    status: Mapped[str] = mapped_column(String(16), default="lobby")
    test_seed: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    settings: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict, server_default="{}")
    """Host controls (app.live.room_settings.RoomSettings): lock, spectators, turn timer, grace, bans."""
    revision: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    """Bumped by every change of the room row: a process saves its lobby change only over the revision it
    read, so two processes changing one room at once cannot undo each other (RoomStore.save_room)."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())


class RoomSeat(Base):
    __tablename__ = "room_seats"
    __table_args__ = (UniqueConstraint("room_id", "seat"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    player_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"), nullable=True)
    is_bot: Mapped[bool] = mapped_column(Boolean, default=False)
    bot_level: Mapped[str | None] = mapped_column(String(8), nullable=True)


class Game(Base):
    __tablename__ = "games"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"), index=True)
    number: Mapped[int] = mapped_column(Integer)
    engine: Mapped[str] = mapped_column(String(32))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    seed: Mapped[int] = mapped_column(BigInteger)
    seats: Mapped[list[Any]] = mapped_column(JSON)
    """Who sat where for this game: [{"player_id", "name", "bot"}] per seat."""
    version: Mapped[int] = mapped_column(Integer, default=0)
    status: Mapped[str] = mapped_column(String(16), default="playing")
    snapshot: Mapped[dict[str, Any]] = mapped_column(JSON)
    snapshot_version: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    """The version ``snapshot`` holds. A load replays every action from the seed (app.live.game); it starts
    from the snapshot only where the actions no longer replay (the rules changed since)."""
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    timer_key: Mapped[str | None] = mapped_column(String(64), nullable=True)
    deadline: Mapped[float | None] = mapped_column(Float, nullable=True)
    """Epoch seconds when the current step's timer runs out."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class GameAction(Base):
    __tablename__ = "game_actions"
    __table_args__ = (UniqueConstraint("game_id", "version"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    """Looked up through the unique (game_id, version) index; a second index on it alone cost a page a move."""
    version: Mapped[int] = mapped_column(Integer)
    """The game version this action produced (1 for the first action)."""
    seat: Mapped[int] = mapped_column(Integer)
    action: Mapped[dict[str, Any]] = mapped_column(JSON)
    actor: Mapped[str] = mapped_column(String(16), default="player")
    """player | timer | bot | standin"""
    created_at: Mapped[float] = mapped_column(Float)


class ChatLine(Base):
    """A room or team chat line, kept for people who join later and read by the room's other processes."""

    __tablename__ = "chat_lines"
    __table_args__ = (Index("ix_chat_lines_room_id_id", "room_id", "id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"))
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    name: Mapped[str] = mapped_column(String(64))
    """The name the writer had then."""
    text: Mapped[str] = mapped_column(Text)
    team: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """The team that may read it; None: everyone in the room."""
    created_at: Mapped[float] = mapped_column(Float)


class Standing(Base):
    __tablename__ = "standings"
    __table_args__ = (UniqueConstraint("room_id", "player_id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"), index=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    played: Mapped[int] = mapped_column(Integer, default=0)
    wins: Mapped[int] = mapped_column(Integer, default=0)
    draws: Mapped[int] = mapped_column(Integer, default=0)
    points: Mapped[float] = mapped_column(Float, default=0.0)


class Rating(Base):
    """A player's OpenSkill rating for one game (only games without bots are rated)."""

    __tablename__ = "ratings"
    __table_args__ = (UniqueConstraint("player_id", "game"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    game: Mapped[str] = mapped_column(String(32), index=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer, default=0)


class RoomLease(Base):
    """Which process owns a room (app.live.leases): only it applies the room's moves and changes, and every
    write of the room checks ``epoch``, which each new owner raises."""

    __tablename__ = "room_leases"

    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True)
    owner: Mapped[str] = mapped_column(String(64), index=True)
    address: Mapped[str] = mapped_column(String(255))
    """Where the owner's sockets are reached from the other processes (its internal URL)."""
    epoch: Mapped[int] = mapped_column(BigInteger)
    expires_at: Mapped[float] = mapped_column(Float)
    """The database server's clock (seconds since the epoch): every process compares against the same one."""
