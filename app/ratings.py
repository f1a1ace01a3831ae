"""Per-game ratings with OpenSkill (Plackett-Luce): handles 1v1, teams and multi-player places, which is
exactly what our outcomes give (``ranks`` per seat, ``team`` per seat). A well-kept library beats a
hand-written Elo variant here."""

from __future__ import annotations

from typing import Any

from openskill.models import PlackettLuce

from app.sql import Sql, Statement
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


_RATING = Statement("SELECT mu, sigma FROM ratings WHERE player_id = :player_id AND game = :game")
_SAVE_RATING = Statement(
    "INSERT INTO ratings (player_id, game, mu, sigma, games) VALUES (:player_id, :game, :mu, :sigma, 1) "
    "ON CONFLICT (player_id, game) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma, games = ratings.games + 1"
)


def rate_game(sql: Sql, game: str, seats: list[dict[str, Any]], infos: list[SeatInfo], ranks: list[int]) -> None:
    """Update the ratings of everyone in a finished game; games with a bot, or a player twice, are not rated.

    Synchronous, to run inside the game end's transaction (app.sql)."""
    if any(s.get("bot") or s.get("player_id") is None for s in seats):
        return
    ids: list[int] = [int(s["player_id"]) for s in seats]
    if len(set(ids)) != len(ids):
        return
    current = {pid: sql.rows(_RATING, player_id=pid, game=game) for pid in ids}
    groups = sorted(_groups(seats, infos, ranks), key=lambda group: group[1])  # best place first
    teams = []
    for members, _rank in groups:
        team = []
        for seat in members:
            row = current[ids[seat]]
            team.append(MODEL.rating(mu=row[0][0], sigma=row[0][1]) if row else MODEL.rating())
        teams.append(team)
    places: list[float] = [rank for _members, rank in groups]
    # No tie: the teams' order is their ranking. Given ranks, openskill sorts through a closure that leaves
    # a reference cycle per call (its compiled ``_unwind``), garbage only the collector frees.
    tie = len(set(places)) < len(places)
    updated = MODEL.rate(teams, ranks=places) if tie else MODEL.rate(teams)
    for (members, _rank), team in zip(groups, updated, strict=True):
        for seat, rating in zip(members, team, strict=True):
            sql.run(_SAVE_RATING, player_id=ids[seat], game=game, mu=rating.mu, sigma=rating.sigma)
