"""a seat holds a player: seats.token_hash is named for what it holds, the player's id

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-04
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_index("ix_seats_token_hash")
        batch.alter_column("token_hash", new_column_name="player_id")
    op.create_index("ix_seats_player_id", "seats", ["player_id"])


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_index("ix_seats_player_id")
        batch.alter_column("player_id", new_column_name="token_hash")
    op.create_index("ix_seats_token_hash", "seats", ["token_hash"])
