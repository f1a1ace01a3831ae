"""games.snapshot_version: the snapshot is written every few moves, not every move

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-30 14:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("snapshot_version", sa.Integer(), nullable=False, server_default="0"))
    # Until now every move rewrote the snapshot, so existing snapshots are at the game's version.
    op.execute("UPDATE games SET snapshot_version = version")


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("snapshot_version")
