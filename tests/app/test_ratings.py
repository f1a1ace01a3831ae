"""OpenSkill ratings for 1v1, 2v2 and multi-player results; bot games are not rated."""

from __future__ import annotations

import gc
import inspect
from pathlib import Path
from typing import Any, cast

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from app.db import make_engine, make_sessionmaker
from app.models import Player, Rating
from app.queries import leaderboard
from app.ratings import MODEL, rate_game
from app.sql import SessionSql
from engines.base import SeatInfo
from tests.support.server import migrate


async def _setup(tmp_path: Path, players: int):  # type: ignore[no-untyped-def]
    url = f"sqlite+aiosqlite:///{tmp_path / 'r.db'}"
    migrate(url)
    engine = make_engine(url)
    sessions = make_sessionmaker(engine)
    async with sessions.begin() as s:
        s.add_all(Player(token_hash=f"h{i}", name=f"P{i}") for i in range(1, players + 1))
    return engine, sessions


def rated(session: Session, *args: Any) -> None:
    rate_game(SessionSql(session), *args)


def seats(*ids: int, bot: bool = False) -> list[dict]:
    return [{"player_id": i, "bot": bot} for i in ids]


async def _ratings(sessions, game: str) -> dict[int, Rating]:  # type: ignore[no-untyped-def]
    async with sessions() as s:
        return {r.player_id: r for r in (await s.execute(select(Rating).where(Rating.game == game))).scalars()}


async def test_one_v_one_team_and_multiplayer_results(tmp_path: Path) -> None:
    engine, sessions = await _setup(tmp_path, 4)
    try:
        solo = [SeatInfo("A"), SeatInfo("B")]
        async with sessions.begin() as s:
            await s.run_sync(rated, "tri-tac", seats(1, 2), solo, [0, 1])
        r = await _ratings(sessions, "tri-tac")
        assert r[1].mu > 25 > r[2].mu and r[1].games == r[2].games == 1

        teams = [SeatInfo("N", 0), SeatInfo("E", 1), SeatInfo("S", 0), SeatInfo("W", 1)]
        async with sessions.begin() as s:
            await s.run_sync(rated, "tic-tac-match", seats(1, 2, 3, 4), teams, [1, 0, 1, 0])
        r = await _ratings(sessions, "tic-tac-match")
        assert r[2].mu == r[4].mu > 25 > r[1].mu == r[3].mu  # teammates move together

        multi = [SeatInfo(f"P{i}") for i in range(4)]
        async with sessions.begin() as s:
            await s.run_sync(rated, "tic-tac-top", seats(1, 2, 3, 4), multi, [2, 0, 1, 2])
        r = await _ratings(sessions, "tic-tac-top")
        assert r[2].mu > r[3].mu > r[1].mu and abs(r[1].mu - r[4].mu) < 1e-9

        async with sessions.begin() as s:
            await s.run_sync(
                rated, "tri-tac", [{"player_id": 1, "bot": False}, {"player_id": None, "bot": True}], solo, [0, 1]
            )
        assert (await _ratings(sessions, "tri-tac"))[1].games == 1, "a bot game is not rated"
        board = await leaderboard(sessions, "tri-tac")
        assert [row["name"] for row in board] == ["P1", "P2"]
    finally:
        await engine.dispose()


class MemorySql:
    """Ratings as a dict: what ``rate_game`` reads and writes, without a database."""

    def __init__(self, ratings: dict[int, tuple[float, float]]) -> None:
        self.ratings = ratings

    def rows(self, statement: Any, **params: Any) -> list[tuple[float, float]]:
        found = self.ratings.get(params["player_id"])
        return [found] if found else []

    def run(self, statement: Any, **params: Any) -> int:
        self.ratings[params["player_id"]] = (params["mu"], params["sigma"])
        return 1


def _made_by_the_rating_code(obj: object) -> bool:
    """A function or object of openskill's or the app's. Under xdist other tests' servers run in threads of
    this process, and a connection one of them closes meanwhile is garbage of its own: not this test's."""
    module = obj.__module__ if inspect.isfunction(obj) else type(obj).__module__
    return (module or "").split(".")[0] in ("openskill", "app")


def test_a_decisive_result_is_rated_as_ranked_and_leaves_no_garbage() -> None:
    """Without a tie the teams go to openskill in their order of places, not with ranks: the same ratings,
    and no reference cycle per game end (openskill's sorting closure leaves one, which only a collection
    frees; the server freezes what survives young collections)."""
    start = {1: (30.0, 5.0), 2: (20.0, 7.0), 3: (25.0, 6.0)}
    places = [2, 0, 1]  # seat 0 last, seat 1 first
    expected = MODEL.rate([[MODEL.rating(mu=mu, sigma=sigma)] for mu, sigma in start.values()], ranks=places)
    sql = MemorySql(dict(start))
    gc.collect()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        rate_game(cast(Any, sql), "tic-tac-top", seats(1, 2, 3), [SeatInfo(f"P{i}") for i in range(3)], places)
        gc.collect()
        garbage = list(gc.garbage)
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
    assert [obj for obj in garbage if _made_by_the_rating_code(obj)] == []
    for seat, player_id in enumerate((1, 2, 3)):
        assert sql.ratings[player_id] == pytest.approx((expected[seat][0].mu, expected[seat][0].sigma))
