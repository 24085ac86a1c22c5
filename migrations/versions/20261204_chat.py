"""chat: a room's chat lines, and the room's choices for spectators and the public replay

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-04
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # A plain ADD COLUMN: SQLite's batch mode would copy the rooms table, and dropping the
    # old one breaks the foreign keys of the seats and matches in it.
    for column in ("spectator_chat", "private_chat"):
        op.add_column(
            "rooms", sa.Column(column, sa.Boolean(), nullable=False, server_default=sa.false())
        )
    op.create_table(
        "chat",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("room_id", sa.String(length=64), nullable=False),
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("ply", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("name", sa.String(length=24), nullable=False),
        sa.Column("text", sa.String(length=300), nullable=True),
        sa.Column("reaction", sa.String(length=16), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["match_id"], ["matches.id"], name="fk_chat_match_id_matches"),
        sa.ForeignKeyConstraint(["room_id"], ["rooms.id"], name="fk_chat_room_id_rooms"),
        sa.PrimaryKeyConstraint("id", name="pk_chat"),
    )
    op.create_index("ix_chat_match_id", "chat", ["match_id"])
    op.create_index("ix_chat_room_id", "chat", ["room_id"])


def downgrade() -> None:
    op.drop_table("chat")
    with op.batch_alter_table("rooms") as batch:
        for column in ("private_chat", "spectator_chat"):
            batch.drop_column(column)
