"""The tables. A match is stored as seed + options + its actions; states are never stored.

SQLAlchemy Core tables, with a plain class per table for its rows (``Room``, ``Match``...):
the server never imports the ORM (``sqlalchemy.orm``, some 5.5 MB of the process).
Queries name a table's columns: ``ROOMS.c.id``."""

from __future__ import annotations

import unicodedata
from datetime import UTC, datetime
from typing import Any, TypeVar

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Column,
    DateTime,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    TypeDecorator,
    UniqueConstraint,
    false,
)
from sqlalchemy.engine import Dialect
from typing_extensions import TypedDict

from engine import OutcomeJson

NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}
METADATA = MetaData(naming_convention=NAMING_CONVENTION)


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


class Base:
    """One row of a table, as plain attributes; a column not given is None. Queries name
    the table's columns (``SEATS.c.player_id``)."""

    __table__: Table

    def __init__(self, **values: Any) -> None:
        columns = self.__table__.c
        unknown = set(values) - set(columns.keys())
        if unknown:
            raise TypeError(f"{type(self).__name__} has no column {', '.join(sorted(unknown))}")
        for key in columns.keys():
            setattr(self, key, values.get(key))

    @classmethod
    def of(cls: type[R], row: Any) -> R:
        """A row read with ``select(table)``."""
        return cls(**row._mapping)

    def values(self) -> dict[str, Any]:
        """The columns to insert: those given (the others get their defaults)."""
        return {key: value for key, value in vars(self).items() if value is not None}


R = TypeVar("R", bound=Base)


ROOMS = Table(
    "rooms",
    METADATA,
    Column("id", String(64), primary_key=True),
    Column("game", String(32), nullable=False),
    Column("options", JSON, nullable=False),
    Column("preset", String(64)),
    Column("created_at", UtcDateTime, nullable=False),
    Column("last_active_at", UtcDateTime, nullable=False, index=True),
    Column("closed_at", UtcDateTime),
    # Turn-based (app/table/turns.py): never closed for idleness while a match runs;
    # move_days is each move's time (None: no limit). The turn starts at the later of the
    # match's start, its last action and waited_at (an opponent chose to keep waiting);
    # reminded_turn is the turn whose "a quarter left" reminder was sent.
    Column("turn_based", Boolean, nullable=False, default=False, server_default=false()),
    Column("move_days", Integer),
    Column("waited_at", UtcDateTime),
    Column("reminded_turn", String(64)),
    # Chat (app/table/chat.py): spectators may write; the chat stays out of the replay
    # for anyone who held no seat (with PUBLIC_HISTORY).
    Column("spectator_chat", Boolean, nullable=False, default=False, server_default=false()),
    Column("private_chat", Boolean, nullable=False, default=False, server_default=false()),
    # A pause of the current match, asked for or holding (app/table/pause.py).
    Column("pause", JSON),
)


class StoredPause(TypedDict):
    """The match and version a pause was asked at, the seats that asked, and since when
    (ISO 8601) the match is paused (None: not every person asked yet)."""

    match_id: int
    version: int
    asked: list[int]
    since: str | None


class Room(Base):
    __table__ = ROOMS
    id: str
    game: str
    options: dict[str, Any]
    preset: str | None
    created_at: datetime
    last_active_at: datetime
    closed_at: datetime | None
    turn_based: bool
    move_days: int | None
    waited_at: datetime | None
    reminded_turn: str | None
    spectator_chat: bool
    private_chat: bool
    pause: StoredPause | None


# The token hash of a seat the computer holds: no HMAC (hex) ever equals it.
COMPUTER = "computer"


def fold_name(name: str) -> str:
    """A name as the history search compares it: NFC, then Unicode case folding (SQLite's
    lower() folds ASCII only, so the folding is Python's, on write and on query)."""
    return unicodedata.normalize("NFC", name).casefold()


SEATS = Table(
    "seats",
    METADATA,
    Column("room_id", String(64), ForeignKey("rooms.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("name", String(24), nullable=False),
    # fold_name(name); case folding can lengthen a name (ß → ss), up to three times.
    Column("name_folded", String(72), nullable=False),
    Column("player_id", String(64), nullable=False, index=True),
    # The bot level of the computer playing this seat: a computer's own seat (player_id
    # COMPUTER), or a person's while they are away (until they come back); else None.
    Column("computer", String(16)),
)


class Seat(Base):
    """A seat taken by a player (``PLAYERS``), or by the computer (``COMPUTER``)."""

    __table__ = SEATS
    room_id: str
    seat: int
    name: str
    name_folded: str
    player_id: str
    computer: str | None


MATCHES = Table(
    "matches",
    METADATA,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("room_id", String(64), ForeignKey("rooms.id"), nullable=False),
    Column("number", Integer, nullable=False),
    Column("game", String(32), nullable=False, index=True),
    Column("seed", BigInteger, nullable=False),
    Column("options", JSON, nullable=False),
    Column("first_seat", Integer),
    # waiting, playing, finished (by its rules, or resigned: result.reason "resigned");
    # aborted: called off early by a player (a result and finished_at, counted nowhere);
    # abandoned: ended unfinished (with a result and finished_at when a player ended it for
    # an absent opponent; without, when its room closed).
    Column("status", String(16), nullable=False),
    Column("result", JSON),
    Column("winner", Integer),
    Column("started_at", UtcDateTime),
    Column("finished_at", UtcDateTime, index=True),
    # The names by seat it was played under, kept once a player renames themselves; null:
    # the room's seats still carry them.
    Column("names", JSON),
    UniqueConstraint("room_id", "number"),
)


class EndingDetails(TypedDict, total=False):
    """Who ended a match by their choice (app/table/live.py's ``Ending``): the seat that
    resigned, aborted, or abandoned it (and whose time per move had run out)."""

    resigned_by: int
    aborted_by: int
    abandoned_by: int
    time_ran_out: int


class StoredResult(OutcomeJson, EndingDetails):
    """The matches.result column: a finished match's ``Outcome.to_json`` (the game's
    details beside its keys), or the ending a player chose, with who chose it."""


class Match(Base):
    __table__ = MATCHES
    id: int
    room_id: str
    number: int
    game: str
    seed: int
    options: dict[str, Any]
    first_seat: int | None
    status: str
    result: StoredResult | None
    winner: int | None
    started_at: datetime | None
    finished_at: datetime | None
    names: list[str | None] | None


# One accepted action. The primary key (match_id, ply) admits exactly one action per
# version, even when several server processes race for it.
ACTIONS = Table(
    "actions",
    METADATA,
    Column("match_id", Integer, ForeignKey("matches.id"), primary_key=True),
    Column("ply", Integer, primary_key=True),
    Column("seat", Integer, nullable=False),
    Column("action", JSON, nullable=False),
    Column("created_at", UtcDateTime, nullable=False),
    Column("by_computer", Boolean, nullable=False, default=False, server_default=false()),
)


# A chat line of a room, during a match: ``ply`` is the match's version when it was sent
# (the replay shows it at that step); text, or a quick reaction's key.
CHAT = Table(
    "chat",
    METADATA,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("room_id", String(64), ForeignKey("rooms.id"), nullable=False, index=True),
    Column("match_id", Integer, ForeignKey("matches.id"), nullable=False, index=True),
    Column("ply", Integer, nullable=False),
    Column("seat", Integer),
    Column("name", String(24), nullable=False),
    # The writer (null: a line stored before 0013): the client mutes a player by its hash.
    Column("player_id", String(64)),
    Column("text", String(300)),
    Column("reaction", String(16)),
    Column("created_at", UtcDateTime, nullable=False),
)


class ChatRow(Base):
    __table__ = CHAT
    id: int
    room_id: str
    match_id: int
    ply: int
    seat: int | None
    name: str
    player_id: str | None
    text: str | None
    reaction: str | None
    created_at: datetime


# A seat asked for a rematch after this (finished) match; kept across restarts.
REMATCH_REQUESTS = Table(
    "rematch_requests",
    METADATA,
    Column("match_id", Integer, ForeignKey("matches.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
)


# A seat asked the others to let it take back its last move (app/table/takebacks.py):
# open while the match is still at version ``ply`` and nobody declined. Kept for the limits
# (a few a minute, none for a minute after a decline) and across restarts.
TAKEBACK_REQUESTS = Table(
    "takeback_requests",
    METADATA,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("match_id", Integer, ForeignKey("matches.id"), nullable=False, index=True),
    Column("seat", Integer, nullable=False),
    Column("ply", Integer, nullable=False),
    Column("asked_at", UtcDateTime, nullable=False),
    Column("declined_at", UtcDateTime),
)


class TakebackRequestRow(Base):
    __table__ = TAKEBACK_REQUESTS
    id: int
    match_id: int
    seat: int
    ply: int
    asked_at: datetime
    declined_at: datetime | None


# Web Push: a device's subscription belongs to a player key (app/people/push.py); the
# endpoint is the browser's push service URL, unique per device and browser.
PUSH_SUBSCRIPTIONS = Table(
    "push_subscriptions",
    METADATA,
    Column("endpoint", String(1000), primary_key=True),
    Column("player_id", String(64), nullable=False, index=True),
    # The device that subscribed: signing it out deletes its subscriptions with it. None for
    # one stored before subscriptions named their device (signing out everywhere deletes it).
    Column("device_id", Integer, ForeignKey("devices.id", ondelete="CASCADE"), index=True),
    Column("p256dh", String(200), nullable=False),
    Column("auth", String(100), nullable=False),
    Column("lang", String(8), nullable=False),
    Column("created_at", UtcDateTime, nullable=False),
)


class PushSubscriptionRow(Base):
    __table__ = PUSH_SUBSCRIPTIONS
    endpoint: str
    player_id: str
    device_id: int | None
    p256dh: str
    auth: str
    lang: str
    created_at: datetime


# The server's VAPID key pair, made at first start (unless settings give one): one row.
VAPID_KEYS = Table(
    "vapid_keys",
    METADATA,
    Column("id", Integer, primary_key=True),
    Column("private_pem", String(1000), nullable=False),
    Column("public_key", String(200), nullable=False),
)


# A player: who holds seats. A player whose seats predate players has the id of their old
# seat token's HMAC, which those seats held (``SEATS.c.player_id``, once ``token_hash``),
# so they are theirs as they are.
PLAYERS = Table(
    "players",
    METADATA,
    Column("id", String(64), primary_key=True),
    Column("name", String(24)),
    Column("created_at", UtcDateTime, nullable=False),
)


# A browser signed in as a player: its cookie's secret, kept only as an HMAC.
DEVICES = Table(
    "devices",
    METADATA,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("player_id", String(64), ForeignKey("players.id"), nullable=False, index=True),
    Column("token_hash", String(64), nullable=False, unique=True),
    Column("label", String(64), nullable=False),
    Column("name", String(24)),  # the player's own name for it (null: none given)
    Column("created_at", UtcDateTime, nullable=False),
    Column("last_seen_at", UtcDateTime, nullable=False),
)


# A single-use link that signs another browser in as the player, kept only as an HMAC.
DEVICE_LINKS = Table(
    "device_links",
    METADATA,
    Column("token_hash", String(64), primary_key=True),
    Column("player_id", String(64), ForeignKey("players.id"), nullable=False),
    Column("next", String(200)),
    Column("expires_at", UtcDateTime, nullable=False),
)


# The daily deal (app/history/daily.py): a player's attempt at one game's daily of one day
# (the day in DAILY_TIME_ZONE, as YYYY-MM-DD) is a room like any other. The primary key
# admits one attempt per player, day and game, even when two requests race for it.
DAILIES = Table(
    "dailies",
    METADATA,
    Column("day", String(10), primary_key=True),
    Column("game", String(32), primary_key=True),
    Column("player_id", String(64), primary_key=True),
    Column("room_id", String(64), ForeignKey("rooms.id"), nullable=False, index=True),
    Column("match_id", Integer, ForeignKey("matches.id"), nullable=False, unique=True),
    Column("created_at", UtcDateTime, nullable=False),
)


class DailyRow(Base):
    __table__ = DAILIES
    day: str
    game: str
    player_id: str
    room_id: str
    match_id: int
    created_at: datetime


# The best score a day's deal allowed (Scoundrel's par), searched once per day and game;
# best_score None: the search gave up.
DAILY_PARS = Table(
    "daily_pars",
    METADATA,
    Column("day", String(10), primary_key=True),
    Column("game", String(32), primary_key=True),
    Column("best_score", Integer),
)
