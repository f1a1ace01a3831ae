"""Per-game ratings with OpenSkill (Plackett-Luce): handles 1v1, teams and multi-player places, which is
exactly what our outcomes give (``ranks`` per seat, ``team`` per seat). A well-kept library beats a
hand-written Elo variant here."""

from __future__ import annotations

from typing import Any

from openskill.models import PlackettLuce
from sqlalchemy import insert, select, update
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import Session

from app.models import Player, Rating
from engines.base import SeatInfo

MODEL = PlackettLuce()


def _groups(seats: list[dict[str, Any]], infos: list[SeatInfo], ranks: list[int]) -> list[tuple[list[int], int]]:
    """Seats grouped into teams (or one seat each), with the team's place."""
    groups: dict[Any, tuple[list[int], int]] = {}
    for index, info in enumerate(infos):
        key = ("team", info.team) if info.team is not None else ("seat", index)
        members, rank = groups.get(key, ([], ranks[index]))
        members.append(index)
        groups[key] = (members, min(rank, ranks[index]))
    return list(groups.values())


def rate_game(
    session: Session, game: str, seats: list[dict[str, Any]], infos: list[SeatInfo], ranks: list[int]
) -> None:
    """Update the ratings of everyone in a finished game; games with a bot, or a player twice, are not rated.

    Synchronous, to run inside the game end's transaction (``AsyncSession.run_sync`` on PostgreSQL)."""
    if any(s.get("bot") or s.get("player_id") is None for s in seats):
        return
    ids: list[int] = [int(s["player_id"]) for s in seats]
    if len(set(ids)) != len(ids):
        return
    existing = {
        pid: (row_id, mu, sigma)
        for row_id, pid, mu, sigma in session.execute(
            select(Rating.id, Rating.player_id, Rating.mu, Rating.sigma).where(
                Rating.game == game, Rating.player_id.in_(ids)
            )
        )
    }
    groups = _groups(seats, infos, ranks)
    teams = []
    for members, _rank in groups:
        team = []
        for seat in members:
            row = existing.get(ids[seat])
            team.append(MODEL.rating(mu=row[1], sigma=row[2]) if row else MODEL.rating())
        teams.append(team)
    updated = MODEL.rate(teams, ranks=[rank for _members, rank in groups])
    for (members, _rank), team in zip(groups, updated, strict=True):
        for seat, rating in zip(members, team, strict=True):
            pid = ids[seat]
            row = existing.get(pid)
            if row is None:
                fresh = {"player_id": pid, "game": game, "mu": rating.mu, "sigma": rating.sigma, "games": 1}
                session.execute(insert(Rating).values(**fresh))
            else:
                session.execute(
                    update(Rating)
                    .where(Rating.id == row[0])
                    .values(mu=rating.mu, sigma=rating.sigma, games=Rating.games + 1)
                )


async def leaderboard(session: AsyncSession, game: str, limit: int = 50) -> list[dict[str, Any]]:
    rows = await session.execute(
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
