"""takeback requests: who asked to take back their last move, when, and who declined

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-04
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "takeback_requests",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("ply", sa.Integer(), nullable=False),
        sa.Column("asked_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("declined_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["match_id"], ["matches.id"], name=op.f("fk_takeback_requests_match_id_matches")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_takeback_requests")),
    )
    op.create_index(
        op.f("ix_takeback_requests_match_id"), "takeback_requests", ["match_id"], unique=False
    )


def downgrade() -> None:
    op.drop_index(op.f("ix_takeback_requests_match_id"), table_name="takeback_requests")
    op.drop_table("takeback_requests")
