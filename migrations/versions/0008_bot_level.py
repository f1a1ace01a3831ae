"""room_seats.bot_level: the level the host chose for a bot seat (easy, normal, strong)

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-02 01:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("room_seats") as batch:
        batch.add_column(sa.Column("bot_level", sa.String(8), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("room_seats") as batch:
        batch.drop_column("bot_level")
