"""Web Push's storage: the devices' subscriptions and the server's VAPID key pair
(app/storage/models.py); app/people/push.py sends the notices."""

from __future__ import annotations

import logging
from collections.abc import Callable

from sqlalchemy import delete, insert, select
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

from app.storage.models import DEVICES, PUSH_SUBSCRIPTIONS, VAPID_KEYS, PushSubscriptionRow

logger = logging.getLogger(__name__)

DEVICES_PER_PLAYER = 10  # a player's newest subscriptions; older ones are removed


class PushStore:
    """The subscriptions and the server's VAPID key pair (app/storage/models.py)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def subscribe(self, row: PushSubscriptionRow) -> bool:
        """Store a device's subscription for a player (again: it now belongs to this one and
        this device; signing the device out deletes it, ``PUSH_SUBSCRIPTIONS``). False, and
        nothing stored, when the device was signed out meanwhile."""
        try:
            self._subscribe(row)
        except IntegrityError:
            if row.device_id is None or self._device_exists(row.device_id):
                raise
            return False
        return True

    def _device_exists(self, device_id: int) -> bool:
        with self.engine.connect() as connection:
            found = connection.execute(select(DEVICES.c.id).where(DEVICES.c.id == device_id))
            return found.first() is not None

    def _subscribe(self, row: PushSubscriptionRow) -> None:
        with self.engine.begin() as connection:
            connection.execute(
                delete(PUSH_SUBSCRIPTIONS).where(PUSH_SUBSCRIPTIONS.c.endpoint == row.endpoint)
            )
            connection.execute(insert(PUSH_SUBSCRIPTIONS).values(row.values()))
            newest = (
                select(PUSH_SUBSCRIPTIONS.c.endpoint)
                .where(PUSH_SUBSCRIPTIONS.c.player_id == row.player_id)
                .order_by(PUSH_SUBSCRIPTIONS.c.created_at.desc())
                .limit(DEVICES_PER_PLAYER)
            )
            connection.execute(
                delete(PUSH_SUBSCRIPTIONS)
                .where(PUSH_SUBSCRIPTIONS.c.player_id == row.player_id)
                .where(PUSH_SUBSCRIPTIONS.c.endpoint.not_in(newest.scalar_subquery()))
            )

    def unsubscribe(self, endpoint: str, player_id: str | None = None) -> bool:
        query = delete(PUSH_SUBSCRIPTIONS).where(PUSH_SUBSCRIPTIONS.c.endpoint == endpoint)
        if player_id is not None:
            query = query.where(PUSH_SUBSCRIPTIONS.c.player_id == player_id)
        with self.engine.begin() as connection:
            return bool(connection.execute(query).rowcount)

    def subscriptions(self, player_id: str) -> list[PushSubscriptionRow]:
        query = select(PUSH_SUBSCRIPTIONS).where(PUSH_SUBSCRIPTIONS.c.player_id == player_id)
        with self.engine.connect() as connection:
            return [PushSubscriptionRow.of(row) for row in connection.execute(query)]

    def vapid_pem(self, make: Callable[[], tuple[str, str]]) -> str:
        """The stored private key (PEM); made with ``make`` and stored at first start. Two
        processes starting at once: the second insert fails and both read the first."""
        with self.engine.connect() as connection:
            row = connection.execute(select(VAPID_KEYS.c.private_pem)).first()
        if row is not None:
            return str(row[0])
        pem, public = make()
        try:
            with self.engine.begin() as connection:
                connection.execute(
                    insert(VAPID_KEYS).values(id=1, private_pem=pem, public_key=public)
                )
        except Exception:  # another process stored its key first
            logger.info("VAPID key made by another process")
        with self.engine.connect() as connection:
            return str(connection.execute(select(VAPID_KEYS.c.private_pem)).scalar_one())
