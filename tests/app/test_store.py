"""The per-move write refuses a stale or duplicate version on both paths (raw SQLite and SQLAlchemy)."""

from __future__ import annotations

import pytest
from sqlalchemy import text

from app.db import make_engine, make_sessionmaker, sqlite_file
from app.live.store import Store, VersionConflict


@pytest.mark.parametrize("raw", [True, False], ids=["raw-sqlite", "sqlalchemy"])
async def test_a_version_is_written_once(sqlite_url: str, raw: bool) -> None:
    engine = make_engine(sqlite_url)
    store = Store(make_sessionmaker(engine), sqlite_file(sqlite_url) if raw else None)
    try:
        async with engine.begin() as conn:
            await conn.execute(text("INSERT INTO players (token_hash, name) VALUES ('h', 'Ann')"))
        await store.create_room("ACDEF", 1, "tri-tac", {}, 2, None)
        room = await store.load_room("ACDEF")
        assert room is not None
        game_id = await store.create_game(room.id, 1, "tri-tac", {}, 7, [], {"s": 0}, None, None)
        await store.record_action(
            game_id, 1, 0, {"type": "place", "cell": [0, 0]}, "player", {"s": 1}, None, None, None
        )
        for stale in (1, 3):  # a duplicate of version 1, and a version that skips 2
            with pytest.raises(VersionConflict):
                await store.record_action(game_id, stale, 1, {"type": "pass"}, "player", {"s": 9}, None, None, None)
        result = {"scores": [1, 0], "winners": [0], "ranks": [0, 1], "summary": "Ann wins"}
        await store.record_action(game_id, 2, 1, {"type": "pass"}, "timer", {"s": 2}, "k", 12.5, result)
        game = await store.latest_game(room.id)
        assert game is not None
        assert (game.version, game.snapshot, game.status, game.result) == (2, {"s": 2}, "finished", result)
        actions = await store.actions(game_id)
        assert [(v, seat, actor) for v, seat, _a, actor in actions] == [(1, 0, "player"), (2, 1, "timer")]
    finally:
        store.close()
        await engine.dispose()
