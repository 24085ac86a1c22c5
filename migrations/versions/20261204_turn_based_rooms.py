"""turn-based rooms: the mode and time per move, the wait an opponent granted, the reminder sent

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-04
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.add_column(
            sa.Column("turn_based", sa.Boolean(), nullable=False, server_default=sa.false())
        )
        batch.add_column(sa.Column("move_days", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("waited_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("reminded_turn", sa.String(length=64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        for column in ("reminded_turn", "waited_at", "move_days", "turn_based"):
            batch.drop_column(column)
