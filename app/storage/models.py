"""The tables. A match is stored as seed + options + its actions; states are never stored."""

from __future__ import annotations

import unicodedata
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    DateTime,
    ForeignKey,
    Integer,
    MetaData,
    String,
    TypeDecorator,
    UniqueConstraint,
    false,
)
from sqlalchemy.engine import Dialect
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class UtcDateTime(TypeDecorator[datetime]):
    """A timezone-aware UTC datetime on every database (SQLite forgets the zone)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is not None and value.tzinfo is None:
            raise ValueError("naive datetime; use datetime.now(UTC)")
        return value

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is not None and value.tzinfo is None:
            return value.replace(tzinfo=UTC)
        return value


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)
    type_annotation_map = {datetime: UtcDateTime, dict[str, Any]: JSON}


class Room(Base):
    __tablename__ = "rooms"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    game: Mapped[str] = mapped_column(String(32))
    options: Mapped[dict[str, Any]]
    preset: Mapped[str | None] = mapped_column(String(64))
    created_at: Mapped[datetime]
    last_active_at: Mapped[datetime] = mapped_column(index=True)
    closed_at: Mapped[datetime | None]


# The token hash of a seat the computer holds: no HMAC (hex) ever equals it.
COMPUTER = "computer"


def fold_name(name: str) -> str:
    """A name as the history search compares it: NFC, then Unicode case folding (SQLite's
    lower() folds ASCII only, so the folding is Python's, on write and on query)."""
    return unicodedata.normalize("NFC", name).casefold()


class Seat(Base):
    """A seat taken by a player; the player is known only by the HMAC of their token."""

    __tablename__ = "seats"

    room_id: Mapped[str] = mapped_column(ForeignKey("rooms.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(24))
    # fold_name(name); case folding can lengthen a name (ß → ss), up to three times.
    name_folded: Mapped[str] = mapped_column(String(72))
    token_hash: Mapped[str] = mapped_column(String(64), index=True)
    # The bot level of the computer playing this seat: a computer's own seat (token_hash
    # COMPUTER), or a person's while they are away (until they come back); else None.
    computer: Mapped[str | None] = mapped_column(String(16))


class Match(Base):
    __tablename__ = "matches"
    __table_args__ = (UniqueConstraint("room_id", "number"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    room_id: Mapped[str] = mapped_column(ForeignKey("rooms.id"))
    number: Mapped[int]
    game: Mapped[str] = mapped_column(String(32), index=True)
    seed: Mapped[int] = mapped_column(BigInteger)
    options: Mapped[dict[str, Any]]
    first_seat: Mapped[int | None]
    # waiting, playing, finished; abandoned: ended unfinished (with a result and finished_at
    # when a player ended it for an absent opponent; without, when its room closed).
    status: Mapped[str] = mapped_column(String(16))
    result: Mapped[dict[str, Any] | None]
    winner: Mapped[int | None]
    started_at: Mapped[datetime | None]
    finished_at: Mapped[datetime | None] = mapped_column(index=True)


class ActionRow(Base):
    """One accepted action. The primary key (match_id, ply) admits exactly one action per
    version, even when several server processes race for it."""

    __tablename__ = "actions"

    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id"), primary_key=True)
    ply: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int]
    action: Mapped[dict[str, Any]]
    created_at: Mapped[datetime]
    by_computer: Mapped[bool] = mapped_column(default=False, server_default=false())


class RematchRequestRow(Base):
    """A seat asked for a rematch after this (finished) match; kept across restarts."""

    __tablename__ = "rematch_requests"

    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
