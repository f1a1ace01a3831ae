"""The database work of the HTTP routes outside the live rooms (which go through app.live.store): finished
games, leaderboards, and a player's own name and token. Each call takes a session of its own and gives it
back at once, so a route never holds a connection while it waits on anything else."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.identity import player_for_token
from app.models import Game, GameAction, Player, Rating, Room

Sessions = async_sessionmaker[AsyncSession]


@dataclass(frozen=True)
class FinishedGame:
    engine: str
    options: dict[str, Any]
    seed: int
    seats: list[dict[str, Any]]
    actions: list[dict[str, Any]]
    """Each action with its seat and actor, in order."""
    result: dict[str, Any] | None


async def room_games(sessions: Sessions, code: str) -> list[dict[str, Any]] | None:
    """The games of the room with this code, in order; None if there is no such room."""
    async with sessions() as s:
        room_id = (await s.execute(select(Room.id).where(Room.code == code))).scalar_one_or_none()
        if room_id is None:
            return None
        games = (await s.execute(select(Game).where(Game.room_id == room_id).order_by(Game.number))).scalars()
        return [
            {
                "id": g.id,
                "number": g.number,
                "engine": g.engine,
                "status": g.status,
                "result": g.result,
                "seats": g.seats,
            }
            for g in games
        ]


async def finished_game(sessions: Sessions, game_id: int) -> FinishedGame | None:
    """The game with its actions, if it is finished (a game in progress is never shown: its seed would reveal
    every hidden card)."""
    async with sessions() as s:
        game = await s.get(Game, game_id)
        if game is None or game.status != "finished":
            return None
        rows = await s.execute(
            select(GameAction.seat, GameAction.action, GameAction.actor)
            .where(GameAction.game_id == game_id)
            .order_by(GameAction.version)
        )
        actions = [{"seat": seat, "action": action, "actor": actor} for seat, action, actor in rows]
        return FinishedGame(game.engine, game.options, game.seed, game.seats, actions, game.result)


async def leaderboard(sessions: Sessions, game: str, limit: int = 50) -> list[dict[str, Any]]:
    """The game's best ``limit`` players by their displayed rating (the conservative mu − 3σ)."""
    async with sessions() as s:
        rows = await s.execute(
            select(Rating, Player.name).join(Player, Player.id == Rating.player_id).where(Rating.game == game)
        )
        table: list[dict[str, Any]] = [
            {
                "player_id": r.player_id,
                "name": name,
                "rating": round(r.mu - 3 * r.sigma, 2),
                "mu": round(r.mu, 2),
                "sigma": round(r.sigma, 2),
                "games": r.games,
            }
            for r, name in rows
        ]
    table.sort(key=lambda row: row["rating"], reverse=True)
    return table[:limit]


async def add_player(sessions: Sessions, name: str, token_hash: str) -> int:
    """A new player; their id."""
    async with sessions.begin() as s:
        player = Player(token_hash=token_hash, name=name)
        s.add(player)
        await s.flush()
        return player.id


async def rename_player(sessions: Sessions, player_id: int, name: str) -> None:
    async with sessions.begin() as s:
        await s.execute(update(Player).where(Player.id == player_id).values(name=name))


async def set_token_hash(sessions: Sessions, player_id: int, token_hash: str) -> None:
    """The player's new secret: the old one stops working at once."""
    async with sessions.begin() as s:
        await s.execute(update(Player).where(Player.id == player_id).values(token_hash=token_hash))


async def player_by_token(sessions: Sessions, token: str | None) -> Player | None:
    """The player a token names, looked up on a connection of its own and returned to the pool at once: a
    route that then opens another (the hub's store) never holds two and deadlocks the pool."""
    async with sessions() as s:
        return await player_for_token(s, token)
