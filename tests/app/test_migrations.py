"""The migrations build exactly the schema app/models.py describes, and every one of them can be undone.

`alembic check` autogenerates the difference between a migrated database and the models: a column, an index
or a constraint changed in one and not the other fails here rather than in production."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.services import postgres_database

ROOT = Path(__file__).resolve().parents[2]


def alembic(database_url: str, *args: str) -> str:
    env = {**os.environ, "DATABASE_URL": database_url}
    done = subprocess.run(
        [sys.executable, "-m", "alembic", *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, f"alembic {' '.join(args)} failed:\n{done.stdout}\n{done.stderr}"
    return done.stdout + done.stderr


def check_round_trip(database_url: str) -> None:
    alembic(database_url, "upgrade", "head")
    assert "No new upgrade operations detected" in alembic(database_url, "check")
    alembic(database_url, "downgrade", "base")
    alembic(database_url, "upgrade", "head")
    assert "No new upgrade operations detected" in alembic(database_url, "check")


@pytest.mark.slow  # Alembic runs five times, in child processes
def test_sqlite_schema_matches_models_and_migrations_undo(tmp_path: Path) -> None:
    check_round_trip(f"sqlite+aiosqlite:///{tmp_path / 'schema.db'}")


@pytest.mark.postgres
@pytest.mark.slow
def test_postgres_schema_matches_models_and_migrations_undo() -> None:
    with postgres_database() as url:
        check_round_trip(url)
