"""push subscriptions name the device that subscribed: signing it out deletes them
(those stored before keep working, with no device)

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-05
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0011"
down_revision: str | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("push_subscriptions") as batch:
        batch.add_column(sa.Column("device_id", sa.Integer(), nullable=True))
        batch.create_foreign_key(
            op.f("fk_push_subscriptions_device_id_devices"),
            "devices",
            ["device_id"],
            ["id"],
            ondelete="CASCADE",
        )
        batch.create_index(op.f("ix_push_subscriptions_device_id"), ["device_id"])


def downgrade() -> None:
    with op.batch_alter_table("push_subscriptions") as batch:
        batch.drop_index(op.f("ix_push_subscriptions_device_id"))
        batch.drop_constraint(op.f("fk_push_subscriptions_device_id_devices"), type_="foreignkey")
        batch.drop_column("device_id")
