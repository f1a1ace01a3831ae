"""The per-move write on every path (raw SQLite, SQLAlchemy, asyncpg on PostgreSQL): a version is written
once, with the game's timer; a game reloads from its last snapshot plus the actions after it; and SQLite's
WAL does not grow for good under a writer that never pauses."""

from __future__ import annotations

import asyncio
import contextlib
import random
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from sqlalchemy import text
from sqlalchemy.util import await_

from app.db import make_engine, make_sessionmaker, postgres_dsn, sqlite_file
from app.live.game import LiveGame
from app.live.postgres_store import PostgresStore
from app.live.records import CHAT_KEPT, ChatRecord, GameEnd, MoveWrite, NewGame, NewRoom, VersionConflict
from app.live.sql_store import SqlStore
from app.live.sqlite_store import SqliteMoveWriter, SqliteStore
from app.settings import Settings
from app.sql import Sql, Statement
from engines.base import SeatInfo
from engines.registry import get_bot, get_engine
from tests.support.server import alembic_upgrade, migrate
from tests.support.services import postgres_database


@pytest.fixture(params=["raw-sqlite", "sqlalchemy", "asyncpg"])
async def store(tmp_path: Path, request: pytest.FixtureRequest) -> AsyncIterator[SqlStore]:
    """A store with one player (Ann) and her room ACDEF; moves through the raw SQLite writer, the ORM (an
    in-process SQLite file without the raw writer), or asyncpg on PostgreSQL."""
    with contextlib.ExitStack() as stack:
        if request.param == "asyncpg":
            url = stack.enter_context(postgres_database(alembic_upgrade))
        else:
            url = f"sqlite+aiosqlite:///{tmp_path / 'threefold.db'}"
            migrate(url)
        engine = make_engine(url)
        sessions = make_sessionmaker(engine)
        dsn, path = postgres_dsn(url), sqlite_file(url)
        if request.param == "asyncpg" and dsn is not None:
            store: SqlStore = PostgresStore(sessions, dsn)
        elif request.param == "raw-sqlite" and path is not None:
            store = SqliteStore(sessions, path)
        else:
            store = SqlStore(sessions)
        try:
            async with engine.begin() as conn:
                await conn.execute(text("INSERT INTO players (token_hash, name) VALUES ('h', 'Ann')"))
            await store.create_room(NewRoom("ACDEF", 1, "tri-tac", {}, 2, None))
            yield store
        finally:
            await store.close()
            await engine.dispose()


async def room_id(store: SqlStore) -> int:
    room = await store.load_room("ACDEF")
    assert room is not None
    return room.id


async def stored_versions(store: SqlStore, game_id: int) -> list[int]:
    """The versions of the game's stored actions, in order."""
    async with store.sessions() as s:
        query = text("SELECT version FROM game_actions WHERE game_id = :game_id ORDER BY version")
        return [int(version) for (version,) in await s.execute(query, {"game_id": game_id})]


async def test_a_version_is_written_once(store: SqlStore) -> None:
    game_id = await store.create_game(NewGame(await room_id(store), 1, "tri-tac", {}, 7, [], {"s": 0}, None, None))
    place = {"type": "place", "cell": [0, 0]}
    await store.record_move(MoveWrite(game_id, 1, 0, place, "player", {"s": 1}, None, None, None))
    for stale in (1, 3):  # a duplicate of version 1, and a version that skips 2
        with pytest.raises(VersionConflict):
            stale_move = MoveWrite(game_id, stale, 1, {"type": "pass"}, "player", {"s": 9}, None, None, None)
            await store.record_move(stale_move)
    result = {"scores": [1, 0], "winners": [0], "ranks": [0, 1], "summary": "Ann wins"}
    await store.record_move(MoveWrite(game_id, 2, 1, {"type": "pass"}, "timer", {"s": 2}, "k", 12.5, result))
    loaded = await store.load_game(await room_id(store))
    assert loaded is not None
    game, actions = loaded
    assert (game.version, game.snapshot, game.status, game.result) == (2, {"s": 2}, "finished", result)
    assert [(v, seat, actor) for v, seat, _a, actor in actions] == [(1, 0, "player"), (2, 1, "timer")]


async def test_each_move_stores_the_games_version_and_timer_with_its_action(store: SqlStore) -> None:
    rid = await room_id(store)
    game_id = await store.create_game(NewGame(rid, 1, "tri-tac", {}, 7, [], {"s": 0}, None, None))
    moves = [{"type": "place", "cell": [0, n]} for n in range(3)]
    for version, action in enumerate(moves, start=1):
        timer = (f"turn-{version}", 100.0 + version) if version == 3 else (None, None)
        await store.record_move(MoveWrite(game_id, version, version % 2, action, "player", None, *timer, None))
    loaded = await store.load_game(rid)
    assert loaded is not None
    game, actions = loaded
    assert (game.version, game.timer_key, game.deadline) == (3, "turn-3", 103.0)
    assert actions == [(n, n % 2, moves[n - 1], "player") for n in (1, 2, 3)]


async def test_a_player_is_found_by_the_hash_of_their_token(store: SqlStore) -> None:
    assert await store.player_by_token_hash("h") == (1, "Ann")
    assert await store.player_by_token_hash("not a known hash") is None


async def test_moves_made_at_once_are_stored_together_and_a_stale_one_fails_alone(store: SqlStore) -> None:
    """Moves asked for in one turn of the event loop share a commit on SQLite (one WAL append); a stale one
    among them is refused by itself and the others are stored, on both write paths."""
    rid = await room_id(store)
    games = [await store.create_game(NewGame(rid, n, "tri-tac", {}, 7, [], {"s": 0}, None, None)) for n in (1, 2, 3)]
    statements: list[str] = []
    if isinstance(store, SqliteStore):
        store._moves.db.set_trace_callback(statements.append)

    def move(game_id: int, version: int) -> MoveWrite:
        return MoveWrite(game_id, version, 0, {"type": "place", "cell": [0, version]}, "player", None, None, None, None)

    await asyncio.gather(*(store.record_move(move(g, 1)) for g in games))
    if isinstance(store, SqliteStore):
        assert statements.count("COMMIT") == 1, statements

    outcomes = await asyncio.gather(
        store.record_move(move(games[0], 2)),
        store.record_move(move(games[1], 1)),  # already stored
        store.record_move(move(games[2], 2)),
        return_exceptions=True,
    )
    assert outcomes[0] is None and outcomes[2] is None
    assert isinstance(outcomes[1], VersionConflict)
    stored = [await stored_versions(store, g) for g in games]
    assert stored == [[1, 2], [1], [1, 2]]


async def test_a_game_reloads_from_an_older_snapshot_and_the_actions_after_it(store: SqlStore) -> None:
    """Moves without a snapshot leave the stored one behind; loading rolls it forward to the same state."""
    tri_tac = get_engine("tri-tac")
    options = tri_tac.parse_options({"size": 4})
    state = tri_tac.new_game(options, 11)
    rid = await room_id(store)
    game_id = await store.create_game(NewGame(rid, 1, "tri-tac", {"size": 4}, 11, [], tri_tac.dump(state), None, None))
    bot = get_bot("tri-tac")
    assert bot is not None
    for version in range(1, 8):
        seat = next(iter(tri_tac.to_act(state)))
        action = bot.choose(state, seat, random.Random(version))
        state, _ = tri_tac.apply(state, seat, action)
        snapshot = tri_tac.dump(state) if version == 3 else None
        await store.record_move(
            MoveWrite(game_id, version, seat, action.to_json(), "player", snapshot, None, None, None)
        )
        loaded = await store.load_game(rid)
        assert loaded is not None
        record, actions = loaded
        assert record.version == version
        assert record.snapshot_version == (0 if version < 3 else 3)
        live = LiveGame.from_record(record, actions)
        assert tri_tac.dump(live.state) == tri_tac.dump(state)
        assert [entry["v"] for entry in live.log] == list(range(1, version + 1))


async def test_a_room_keeps_its_latest_chat_lines_only(store: SqlStore) -> None:
    """Each new line forgets the room's lines before its latest ``CHAT_KEPT``; other rooms keep theirs."""
    rid = await room_id(store)
    await store.create_room(NewRoom("BCDFG", 1, "tri-tac", {}, 2, None))
    async with store.sessions() as s:
        other = (await s.execute(text("SELECT id FROM rooms WHERE code = 'BCDFG'"))).scalar_one()
    await store.add_chat(other, ChatRecord(0, 1, "Ann", "first in the other room", None, 1.0))
    for n in range(CHAT_KEPT + 5):
        await store.add_chat(rid, ChatRecord(0, 1, "Ann", f"line {n}", None, float(n)))
    async with store.sessions() as s:
        rows = await s.execute(text("SELECT text FROM chat_lines WHERE room_id = :r ORDER BY id"), {"r": rid})
        texts = rows.scalars()
        assert list(texts) == [f"line {n}" for n in range(5, CHAT_KEPT + 5)]
    assert [line.text for line in await store.chat_lines(other)] == ["first in the other room"]


@pytest.mark.parametrize("store", ["asyncpg"], indirect=True)
async def test_a_postgres_write_cancelled_midway_is_rolled_back(store: SqlStore) -> None:
    """A game end or new game on PostgreSQL runs on the pool's asyncpg connection, outside the session: one
    cancelled halfway stores nothing, and the pool's connections go on writing."""
    assert isinstance(store, PostgresStore)
    rid = await room_id(store)
    halfway, never = asyncio.Event(), asyncio.Event()

    def work(sql: Sql) -> None:
        sql.run(Statement("UPDATE rooms SET revision = revision + 100 WHERE id = :room_id"), room_id=rid)
        halfway.set()
        await_(never.wait())

    writing = asyncio.create_task(store._write(work))
    await halfway.wait()
    writing.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await writing
    room = await store.load_room("ACDEF")
    assert room is not None and room.revision < 100
    for n in range(12):  # more than the session pool keeps
        await store.add_chat(rid, ChatRecord(0, 1, "Ann", f"line {n}", None, float(n)))
    assert len(await store.chat_lines(rid)) == 12


async def test_the_sqlite_wal_starts_over_once_it_passes_its_limit(tmp_path: Path) -> None:
    """The checkpointer thread's passes never catch up with a writer that never pauses, so the WAL file grew
    for as long as the load lasted; past its limit the writer holds one group for a pass of its own, and that
    group's commit starts the WAL over and cuts the file back. Nothing written is lost."""
    path = tmp_path / "threefold.db"
    limit = 128 * 1024
    writer = SqliteMoveWriter(str(path), checkpoint_seconds=3600, wal_size_limit=limit)  # no timed passes
    try:
        writer.db.execute("CREATE TABLE filler (data BLOB)")
        insert = Statement("INSERT INTO filler (data) VALUES (:data)")
        for n in range(60):
            await writer.write(lambda sql, n=n: sql.run(insert, data=bytes([n]) * 4000))
        wal = Path(f"{path}-wal")
        assert wal.stat().st_size > 2 * limit
        writer.note_wal_size()  # what the checkpointer thread does after each of its passes
        assert writer.wal_oversized
        await writer.write(lambda sql: sql.run(insert, data=b"last"))
        assert wal.stat().st_size <= limit
        assert not writer.wal_oversized
        rows = sqlite3.connect(path).execute("SELECT count(*), max(length(data)) FROM filler").fetchone()
        assert rows == (61, 4000)
    finally:
        writer.close()


async def test_a_write_given_up_while_the_database_was_busy_is_not_stored(tmp_path: Path) -> None:
    """While another connection holds SQLite's write lock the writer retries; a caller cancelled meanwhile
    (a move whose socket's task was stopped) has been told its write failed and put its game back, so the
    retry must leave that write out and store only the others."""
    path = tmp_path / "threefold.db"
    writer = SqliteMoveWriter(str(path), checkpoint_seconds=3600)
    try:
        writer.db.execute("CREATE TABLE t (name TEXT)")
        insert = Statement("INSERT INTO t (name) VALUES (:name)")
        other = sqlite3.connect(path, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")  # the write lock, held
        given_up = asyncio.create_task(writer.write(lambda sql: sql.run(insert, name="given up")))
        kept = asyncio.create_task(writer.write(lambda sql: sql.run(insert, name="kept")))
        await asyncio.sleep(0.05)  # both are in the group, retrying
        assert not given_up.done() and not kept.done()
        given_up.cancel()
        other.execute("COMMIT")
        assert await asyncio.wait_for(kept, 5) == 1
        with pytest.raises(asyncio.CancelledError):
            await given_up
        assert other.execute("SELECT name FROM t").fetchall() == [("kept",)]
        other.close()
    finally:
        writer.close()


async def test_postgres_connections_stay_within_the_settings() -> None:
    """Every process opens at most pool + overflow + move connections (docs/deploy.md: PostgreSQL's
    max_connections must cover them all)."""
    with postgres_database(alembic_upgrade) as url:
        settings = Settings(
            database_url=url, postgres_pool_size=3, postgres_pool_overflow=1, postgres_move_connections=2
        )
        engine = make_engine(settings.database_url, settings.postgres_pool_size, settings.postgres_pool_overflow)
        dsn = postgres_dsn(url)
        assert dsn is not None
        store = PostgresStore(make_sessionmaker(engine), dsn, settings.postgres_move_connections)
        try:
            held = [await engine.connect() for _ in range(4)]
            assert engine.pool.size() == 3
            assert engine.pool.overflow() == 1  # type: ignore[attr-defined]
            await asyncio.gather(*(c.close() for c in held))
            assert (await store._pg.connections()).get_max_size() == 2
        finally:
            await store.close()
            await engine.dispose()


SOLO = [{"player_id": 1, "name": "Ann", "bot": False}, {"player_id": None, "name": "Bot 2", "bot": True}]
OUTCOME = {"scores": [3.0, 1.0], "winners": [0], "ranks": [1, 2], "summary": "Ann wins"}


def _game_end(room: int) -> GameEnd:
    return GameEnd(room, OUTCOME, SOLO, "tri-tac", [SeatInfo("Player 1"), SeatInfo("Player 2")])


async def _room_and_standings(store: SqlStore) -> tuple[str, list[int]]:
    room = await store.load_room("ACDEF")
    assert room is not None
    return room.status, [row["played"] for row in await store.standings(room.id)]


async def test_a_games_last_move_is_stored_with_the_rooms_finish_and_standings(store: SqlStore) -> None:
    rid = await room_id(store)
    game_id = await store.create_game(NewGame(rid, 1, "tri-tac", {}, 7, SOLO, {"s": 0}, None, None))
    await store.record_move(MoveWrite(game_id, 1, 0, {"type": "place"}, "player", None, None, None, None))
    last = MoveWrite(game_id, 2, 1, {"type": "place"}, "bot", {"s": 2}, None, None, OUTCOME)
    standings = await store.record_move(last, _game_end(rid))
    assert standings is not None and [(row["player_id"], row["played"]) for row in standings] == [(1, 1)]
    assert await _room_and_standings(store) == ("finished", [1])
    with pytest.raises(VersionConflict):  # stored once: the game's end is not counted twice either
        await store.record_move(last, _game_end(rid))
    assert await _room_and_standings(store) == ("finished", [1])


async def test_a_room_left_playing_after_its_game_ended_is_finished_once(store: SqlStore) -> None:
    rid = await room_id(store)
    game_id = await store.create_game(NewGame(rid, 1, "tri-tac", {}, 7, SOLO, {"s": 0}, None, None))
    # As a crash between the last move and the room's finish left it, before they were one transaction.
    await store.record_move(MoveWrite(game_id, 1, 0, {"type": "place"}, "player", {"s": 1}, None, None, OUTCOME))
    room = await store.load_room("ACDEF")
    assert room is not None and room.status == "playing"
    assert await store.repair_finished_game(room.revision, _game_end(rid)) is not None
    assert await _room_and_standings(store) == ("finished", [1])
    assert await store.repair_finished_game(room.revision, _game_end(rid)) is None  # another process, too late
    assert await _room_and_standings(store) == ("finished", [1])
