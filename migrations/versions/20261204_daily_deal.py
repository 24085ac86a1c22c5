"""daily deal: each player's attempt at a day's deal of a game, and the deal's par

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-04
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "dailies",
        sa.Column("day", sa.String(length=10), nullable=False),
        sa.Column("game", sa.String(length=32), nullable=False),
        sa.Column("player_id", sa.String(length=64), nullable=False),
        sa.Column("room_id", sa.String(length=64), nullable=False),
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["room_id"], ["rooms.id"], name=op.f("fk_dailies_room_id_rooms")),
        sa.ForeignKeyConstraint(
            ["match_id"], ["matches.id"], name=op.f("fk_dailies_match_id_matches")
        ),
        sa.PrimaryKeyConstraint("day", "game", "player_id", name=op.f("pk_dailies")),
        sa.UniqueConstraint("match_id", name=op.f("uq_dailies_match_id")),
    )
    op.create_index(op.f("ix_dailies_room_id"), "dailies", ["room_id"], unique=False)
    op.create_table(
        "daily_pars",
        sa.Column("day", sa.String(length=10), nullable=False),
        sa.Column("game", sa.String(length=32), nullable=False),
        sa.Column("best_score", sa.Integer(), nullable=True),
        sa.PrimaryKeyConstraint("day", "game", name=op.f("pk_daily_pars")),
    )


def downgrade() -> None:
    op.drop_table("daily_pars")
    op.drop_index(op.f("ix_dailies_room_id"), table_name="dailies")
    op.drop_table("dailies")
