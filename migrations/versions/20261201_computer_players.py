"""computer players: the bot level playing a seat; which stored actions the computer made

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("computer", sa.String(length=16), nullable=True))
    with op.batch_alter_table("actions") as batch:
        batch.add_column(
            sa.Column("by_computer", sa.Boolean(), nullable=False, server_default=sa.false())
        )


def downgrade() -> None:
    with op.batch_alter_table("actions") as batch:
        batch.drop_column("by_computer")
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("computer")
