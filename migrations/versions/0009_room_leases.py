"""room_leases: one owner process per room, with a fencing epoch every write of the room checks

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-02 01:20:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "room_leases",
        sa.Column("room_id", sa.Integer(), sa.ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("owner", sa.String(64), nullable=False),
        sa.Column("address", sa.String(255), nullable=False),
        sa.Column("epoch", sa.BigInteger(), nullable=False),
        sa.Column("expires_at", sa.Float(), nullable=False),
    )
    op.create_index("ix_room_leases_owner", "room_leases", ["owner"])


def downgrade() -> None:
    op.drop_index("ix_room_leases_owner", table_name="room_leases")
    op.drop_table("room_leases")
