"""Players, their devices and the links that sign another device in (see app/people/identity.py)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import Insert, delete, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

from app.storage.models import (
    DEVICE_LINKS,
    DEVICES,
    MATCHES,
    PLAYERS,
    PUSH_SUBSCRIPTIONS,
    ROOMS,
    SEATS,
    fold_name,
)
from app.storage.repositories import names_by_seat


@dataclass(frozen=True)
class Device:
    id: int
    player_id: str
    label: str
    last_seen_at: datetime
    name: str | None  # the player's own name for it
    signed_in_at: datetime


DEVICE_COLUMNS = (
    DEVICES.c.id,
    DEVICES.c.player_id,
    DEVICES.c.label,
    DEVICES.c.last_seen_at,
    DEVICES.c.name,
    DEVICES.c.created_at,
)


class PlayerStore:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def device(self, token_hash: str) -> Device | None:
        with self.engine.connect() as connection:
            row = connection.execute(
                select(*DEVICE_COLUMNS).where(DEVICES.c.token_hash == token_hash)
            ).first()
        return None if row is None else Device(*row)

    def legacy_seats(self, token_hash: str) -> bool:
        """Whether seats from before players are held by this hash of a seat cookie, and no
        player has it as their id yet."""
        player = select(PLAYERS.c.id).where(PLAYERS.c.id == token_hash)
        with self.engine.connect() as connection:
            found = connection.execute(
                select(SEATS.c.room_id)
                .where(SEATS.c.player_id == token_hash, ~player.exists())
                .limit(1)
            )
            return found.first() is not None

    def add_player(self, player_id: str, token_hash: str, label: str, now: datetime) -> bool:
        """A new player with their first device; False when the device was there already."""
        try:
            self._add_player(player_id, token_hash, label, now)
        except IntegrityError:
            return False
        return True

    def _add_player(self, player_id: str, token_hash: str, label: str, now: datetime) -> None:
        with self.engine.begin() as connection:
            connection.execute(PLAYERS.insert().values(id=player_id, created_at=now))
            connection.execute(new_device(player_id, token_hash, label, now))

    def add_device(self, player_id: str, token_hash: str, label: str, now: datetime) -> None:
        with self.engine.begin() as connection:
            connection.execute(new_device(player_id, token_hash, label, now))

    def seen(self, device_id: int, now: datetime) -> None:
        with self.engine.begin() as connection:
            connection.execute(
                update(DEVICES).where(DEVICES.c.id == device_id).values(last_seen_at=now)
            )

    def devices(self, player_id: str) -> list[Device]:
        """The player's devices, most recently seen first."""
        with self.engine.connect() as connection:
            rows = connection.execute(
                select(*DEVICE_COLUMNS)
                .where(DEVICES.c.player_id == player_id)
                .order_by(DEVICES.c.last_seen_at.desc(), DEVICES.c.id.desc())
            ).all()
        return [Device(*row) for row in rows]

    def name_device(self, player_id: str, device_id: int, name: str) -> bool:
        """The player's own name for one of their devices; False when it is no device of
        theirs."""
        with self.engine.begin() as connection:
            named = connection.execute(
                update(DEVICES)
                .where(DEVICES.c.id == device_id, DEVICES.c.player_id == player_id)
                .values(name=name)
            )
        return named.rowcount == 1

    def remove_device(self, player_id: str, device_id: int) -> bool:
        """The player's device removed (its push subscriptions with it), and the player's open
        links: the device may have made one. False when it is no device of theirs."""
        with self.engine.begin() as connection:
            removed = connection.execute(
                delete(DEVICES).where(DEVICES.c.id == device_id, DEVICES.c.player_id == player_id)
            )
            if removed.rowcount == 0:
                return False
            connection.execute(delete(DEVICE_LINKS).where(DEVICE_LINKS.c.player_id == player_id))
            return True

    def device_exists(self, device_id: int) -> bool:
        return bool(self.signed_in([device_id]))

    def signed_in(self, device_ids: list[int]) -> set[int]:
        """Those of these devices that are signed in (not removed)."""
        with self.engine.connect() as connection:
            return set(connection.scalars(select(DEVICES.c.id).where(DEVICES.c.id.in_(device_ids))))

    def keep_only_device(self, player_id: str, device_id: int, token_hash: str) -> list[int]:
        """Every other device of the player removed (their push subscriptions with them), the
        subscriptions stored before they named their device, and the player's open links;
        this one's token is ``token_hash`` from now on. The removed devices' ids."""
        others = (DEVICES.c.player_id == player_id) & (DEVICES.c.id != device_id)
        unknown_device = (PUSH_SUBSCRIPTIONS.c.player_id == player_id) & (
            PUSH_SUBSCRIPTIONS.c.device_id.is_(None)
        )
        with self.engine.begin() as connection:
            removed = list(connection.scalars(select(DEVICES.c.id).where(others)))
            connection.execute(delete(DEVICES).where(DEVICES.c.id.in_(removed)))
            connection.execute(delete(PUSH_SUBSCRIPTIONS).where(unknown_device))
            connection.execute(delete(DEVICE_LINKS).where(DEVICE_LINKS.c.player_id == player_id))
            connection.execute(
                update(DEVICES).where(DEVICES.c.id == device_id).values(token_hash=token_hash)
            )
        return removed

    def add_link(
        self,
        token_hash: str,
        player_id: str,
        next_path: str | None,
        expires: datetime,
        now: datetime,
        open_links: int,
    ) -> None:
        """A new link of the player's; their oldest ones beyond ``open_links`` and every
        expired link (anyone's) are deleted, so the table holds only links in use."""
        links = DEVICE_LINKS.c
        newest = (
            select(links.token_hash)
            .where(links.player_id == player_id)
            .order_by(links.expires_at.desc(), links.token_hash)
            .limit(open_links - 1)
        )
        with self.engine.begin() as connection:
            connection.execute(delete(DEVICE_LINKS).where(links.expires_at <= now))
            connection.execute(
                delete(DEVICE_LINKS).where(
                    links.player_id == player_id, links.token_hash.not_in(newest.scalar_subquery())
                )
            )
            connection.execute(
                DEVICE_LINKS.insert().values(
                    token_hash=token_hash, player_id=player_id, next=next_path, expires_at=expires
                )
            )

    def link_open(self, token_hash: str, now: datetime) -> bool:
        """Whether the link is known and unexpired (read only: its page asks first)."""
        with self.engine.connect() as connection:
            expires = connection.scalar(
                select(DEVICE_LINKS.c.expires_at).where(DEVICE_LINKS.c.token_hash == token_hash)
            )
            return expires is not None and expires > now

    def use_link(self, token_hash: str, now: datetime) -> tuple[str, str | None] | None:
        """The player and next path of an unexpired link, which is used up (deleted) here;
        None for an unknown, used or expired link. The delete decides a race of two uses."""
        with self.engine.begin() as connection:
            row = connection.execute(
                select(
                    DEVICE_LINKS.c.player_id, DEVICE_LINKS.c.next, DEVICE_LINKS.c.expires_at
                ).where(DEVICE_LINKS.c.token_hash == token_hash)
            ).first()
            if row is None:
                return None
            taken = connection.execute(
                delete(DEVICE_LINKS).where(DEVICE_LINKS.c.token_hash == token_hash)
            )
            if taken.rowcount != 1 or row.expires_at <= now:
                return None
            return row.player_id, row.next

    def name(self, player_id: str) -> str | None:
        with self.engine.connect() as connection:
            found: str | None = connection.scalar(
                select(PLAYERS.c.name).where(PLAYERS.c.id == player_id)
            )
            return found

    def name_if_none(self, player_id: str, name: str) -> None:
        """The player's first name: the one they first took a seat under."""
        with self.engine.begin() as connection:
            connection.execute(
                update(PLAYERS)
                .where(PLAYERS.c.id == player_id, PLAYERS.c.name.is_(None))
                .values(name=name)
            )

    def rename(self, player_id: str, name: str) -> list[str]:
        """The player's new name, on their seats in open rooms too (the ids of those rooms);
        those rooms' ended matches keep the names they were played under."""
        with self.engine.begin() as connection:
            connection.execute(update(PLAYERS).where(PLAYERS.c.id == player_id).values(name=name))
            open_rooms = select(ROOMS.c.id).where(ROOMS.c.closed_at.is_(None))
            room_ids = list(
                connection.scalars(
                    select(SEATS.c.room_id).where(
                        SEATS.c.player_id == player_id, SEATS.c.room_id.in_(open_rooms)
                    )
                ).all()
            )
            played = names_by_seat(connection, set(room_ids))
            for room_id in room_ids:
                connection.execute(
                    update(MATCHES)
                    .where(
                        MATCHES.c.room_id == room_id,
                        MATCHES.c.finished_at.is_not(None),
                        MATCHES.c.names.is_(None),
                    )
                    .values(names=played[room_id])
                )
            connection.execute(
                update(SEATS)
                .where(SEATS.c.player_id == player_id, SEATS.c.room_id.in_(room_ids))
                .values(name=name, name_folded=fold_name(name))
            )
        return room_ids


def new_device(player_id: str, token_hash: str, label: str, now: datetime) -> Insert:
    """A browser signed in as the player, seen now."""
    return DEVICES.insert().values(
        player_id=player_id, token_hash=token_hash, label=label, created_at=now, last_seen_at=now
    )
