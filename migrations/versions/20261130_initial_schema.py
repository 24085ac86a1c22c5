"""initial schema: rooms, seats, matches, actions

Revision ID: 0001
Revises:
Create Date: 2026-11-30
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def when(name: str, nullable: bool = False) -> sa.Column:  # type: ignore[type-arg]
    return sa.Column(name, sa.DateTime(timezone=True), nullable=nullable)


def upgrade() -> None:
    op.create_table(
        "rooms",
        sa.Column("id", sa.String(length=64), nullable=False),
        sa.Column("game", sa.String(length=32), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("preset", sa.String(length=64), nullable=True),
        when("created_at"),
        when("last_active_at"),
        when("closed_at", nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_rooms")),
    )
    op.create_index(op.f("ix_rooms_last_active_at"), "rooms", ["last_active_at"])
    op.create_table(
        "matches",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("room_id", sa.String(length=64), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("game", sa.String(length=32), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("first_seat", sa.Integer(), nullable=True),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("result", sa.JSON(), nullable=True),
        sa.Column("winner", sa.Integer(), nullable=True),
        when("started_at", nullable=True),
        when("finished_at", nullable=True),
        sa.ForeignKeyConstraint(["room_id"], ["rooms.id"], name=op.f("fk_matches_room_id_rooms")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_matches")),
        sa.UniqueConstraint("room_id", "number", name=op.f("uq_matches_room_id_number")),
    )
    op.create_index(op.f("ix_matches_finished_at"), "matches", ["finished_at"])
    op.create_index(op.f("ix_matches_game"), "matches", ["game"])
    op.create_table(
        "seats",
        sa.Column("room_id", sa.String(length=64), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=24), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.ForeignKeyConstraint(["room_id"], ["rooms.id"], name=op.f("fk_seats_room_id_rooms")),
        sa.PrimaryKeyConstraint("room_id", "seat", name=op.f("pk_seats")),
    )
    op.create_index(op.f("ix_seats_token_hash"), "seats", ["token_hash"])
    op.create_table(
        "actions",
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("ply", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("action", sa.JSON(), nullable=False),
        when("created_at"),
        sa.ForeignKeyConstraint(
            ["match_id"], ["matches.id"], name=op.f("fk_actions_match_id_matches")
        ),
        sa.PrimaryKeyConstraint("match_id", "ply", name=op.f("pk_actions")),
    )


def downgrade() -> None:
    op.drop_table("actions")
    op.drop_index(op.f("ix_seats_token_hash"), table_name="seats")
    op.drop_table("seats")
    op.drop_index(op.f("ix_matches_game"), table_name="matches")
    op.drop_index(op.f("ix_matches_finished_at"), table_name="matches")
    op.drop_table("matches")
    op.drop_index(op.f("ix_rooms_last_active_at"), table_name="rooms")
    op.drop_table("rooms")
