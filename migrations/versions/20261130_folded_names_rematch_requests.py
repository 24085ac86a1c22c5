"""folded player names for the history search; stored rematch requests

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-30
"""

import unicodedata
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def fold_name(name: str) -> str:
    # A copy of app.storage.models.fold_name as of this revision (migrations do not change).
    return unicodedata.normalize("NFC", name).casefold()


def upgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("name_folded", sa.String(length=72), nullable=True))
    seats = sa.table(
        "seats",
        sa.column("room_id", sa.String),
        sa.column("seat", sa.Integer),
        sa.column("name", sa.String),
        sa.column("name_folded", sa.String),
    )
    connection = op.get_bind()
    rows = connection.execute(sa.select(seats.c.room_id, seats.c.seat, seats.c.name)).all()
    for room_id, seat, name in rows:
        connection.execute(
            seats.update()
            .where(seats.c.room_id == room_id, seats.c.seat == seat)
            .values(name_folded=fold_name(name))
        )
    with op.batch_alter_table("seats") as batch:
        batch.alter_column("name_folded", existing_type=sa.String(length=72), nullable=False)
    op.create_table(
        "rematch_requests",
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["match_id"], ["matches.id"], name=op.f("fk_rematch_requests_match_id_matches")
        ),
        sa.PrimaryKeyConstraint("match_id", "seat", name=op.f("pk_rematch_requests")),
    )


def downgrade() -> None:
    op.drop_table("rematch_requests")
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("name_folded")
