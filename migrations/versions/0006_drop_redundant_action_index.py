"""Drop ix_game_actions_game_id: the unique (game_id, version) index already serves every lookup by game

Every move inserts a game_actions row, and each index is one more b-tree page written per move (on SQLite,
one more 4 KiB WAL frame a commit); this one duplicated the leading column of the unique constraint.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01 03:45:00
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.drop_index("ix_game_actions_game_id", table_name="game_actions")


def downgrade() -> None:
    op.create_index("ix_game_actions_game_id", "game_actions", ["game_id"])
