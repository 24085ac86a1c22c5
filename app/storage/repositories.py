"""The queries the services need, each its own short transaction.

The action path uses SQLAlchemy Core (one INSERT per move; on PostgreSQL the moves that
wait share a commit); everything else uses ORM sessions.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, TypeVar

from sqlalchemy import Connection, Dialect, Engine, Table, select, update
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from app.storage.batching import BatchWriter
from app.storage.models import (
    ActionRow,
    Base,
    Match,
    RematchRequestRow,
    Room,
    Seat,
    fold_name,
)

T = TypeVar("T")

ACTIONS = Base.metadata.tables[ActionRow.__tablename__]
MATCHES = Base.metadata.tables[Match.__tablename__]
ROOMS = Base.metadata.tables[Room.__tablename__]
ACTION_COLUMNS = select(
    ActionRow.ply, ActionRow.seat, ActionRow.action, ActionRow.by_computer
).order_by(ActionRow.ply)
INSERTED_ACTION_COLUMNS = ("match_id", "ply", "seat", "action", "created_at", "by_computer")


class PreparedInsert:
    """An INSERT compiled once and run on the driver's own connection: the action path's one
    statement per move, without SQLAlchemy's per-execution work (cache key, compile cache,
    execution context: two thirds of the write's CPU in bench/action_path.py). The
    columns' own bind processors still shape each value, as SQLAlchemy would. A row whose
    key is taken is left out (not an error), so that one taken ply does not undo the
    other rows of a batch."""

    def __init__(
        self, dialect: Dialect, table: Table, columns: tuple[str, ...], key: tuple[str, ...]
    ) -> None:
        # The dialect's own module only: SQLite's server need not load PostgreSQL's (2 MB).
        insert = importlib.import_module(f"sqlalchemy.dialects.{dialect.name}").insert
        statement = insert(table).on_conflict_do_nothing(index_elements=key)
        compiled = statement.compile(dialect=dialect, column_keys=list(columns))
        self.sql = str(compiled)
        order = compiled.positiontup if dialect.positional else columns
        # For each parameter in the statement's order: its value's place in a row, and the
        # column's bind processor (None: the value goes as it is).
        self.slots = [
            (columns.index(name), table.c[name].type.dialect_impl(dialect).bind_processor(dialect))
            for name in order
        ]
        self.keys = None if dialect.positional else columns  # named parameters: their names

    def run(self, driver: Any, rows: Sequence[tuple[Any, ...]]) -> list[bool]:
        """On the driver's connection, in its open transaction; for each row, whether it went in."""
        cursor = driver.cursor()
        try:
            stored = []
            for values in rows:
                cursor.execute(self.sql, self._bind(values))
                stored.append(cursor.rowcount == 1)
            return stored
        finally:
            cursor.close()

    def _bind(self, values: tuple[Any, ...]) -> Any:
        params = [
            values[place] if process is None else process(values[place])
            for place, process in self.slots
        ]
        return params if self.keys is None else dict(zip(self.keys, params, strict=True))


def _driver(connection: Connection) -> Any:
    """The driver's own connection under SQLAlchemy's (reconnected if it was invalidated)."""
    return connection.connection.driver_connection


class SeatTaken(Exception):
    """Another player (maybe through another server process) took the seat first."""


class PlyTaken(Exception):
    """An action for this ply is already stored: another action won the race."""


@dataclass(frozen=True)
class StoredAction:
    ply: int
    seat: int
    action: dict[str, Any]
    by_computer: bool = False


@dataclass(frozen=True)
class Finish:
    result: dict[str, Any]
    winner: int | None
    at: datetime


@dataclass(frozen=True)
class ActionWrite:
    """One accepted action to store, with what its commit also records: the match's end,
    or (at most once a minute) the room's activity."""

    match_id: int
    ply: int
    seat: int
    action: dict[str, Any]
    at: datetime
    finish: Finish | None = None
    active_room: str | None = None
    by_computer: bool = False


@dataclass(frozen=True)
class LoadedRoom:
    room: Room
    seats: list[Seat]
    match: Match
    actions: list[StoredAction]
    finished_winners: list[int | None]
    rematch: list[int]  # seats that asked for a rematch after the current (finished) match


@dataclass(frozen=True)
class HeldRoom:
    room: Room
    seat: int
    name: str


class Store:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.sessions = sessionmaker(engine, expire_on_commit=False)
        self._writer: Connection | None = None
        self._insert_action = PreparedInsert(
            engine.dialect, ACTIONS, INSERTED_ACTION_COLUMNS, key=("match_id", "ply")
        )
        self._driver_error: type[Exception] = engine.dialect.loaded_dbapi.Error
        # The action path's commits run on a thread of their own, so that the event loop
        # serves every other room meanwhile (the driver lets go of the GIL while it writes).
        self._batcher = BatchWriter(self.record_actions)
        self._remote = engine.dialect.name != "sqlite"

    def close(self) -> None:
        self._batcher.close()
        if self._writer is not None:
            self._writer.close()
            self._writer = None

    async def off_loop(self, query: Callable[..., T], *args: Any) -> T:
        """Run a query in a worker thread when the database is over the network (every
        room of the process goes on meanwhile); SQLite's local reads stay on the loop."""
        if not self._remote:
            return query(*args)
        return await asyncio.to_thread(query, *args)

    def _action_writer(self) -> Connection:
        """The connection the action path keeps (used by one thread only): checking
        one out of the pool for every move cost a third of the write. SQLAlchemy reconnects
        it after a dropped connection once the failed transaction is rolled back."""
        if self._writer is None or self._writer.closed:
            self._writer = self.engine.connect()
        return self._writer

    # Rooms and seats

    def create_room(self, room: Room, match: Match, seats: Sequence[Seat] = ()) -> None:
        """The room, its first match and the seats taken from the start (the computer's)."""
        with self.sessions.begin() as session:
            session.add(room)
            session.flush()
            session.add(match)
            for seat in seats:
                seat.name_folded = fold_name(seat.name)
                session.add(seat)

    def load_room(self, room_id: str) -> LoadedRoom | None:
        """An open room with its seats, its newest match and that match's actions."""
        with self.sessions() as session:
            room = session.get(Room, room_id)
            if room is None or room.closed_at is not None:
                return None
            seats = session.scalars(select(Seat).where(Seat.room_id == room_id)).all()
            matches = session.scalars(
                select(Match).where(Match.room_id == room_id).order_by(Match.number)
            ).all()
            current = matches[-1]
            rows = session.execute(ACTION_COLUMNS.where(ActionRow.match_id == current.id)).all()
            rematch = session.scalars(
                select(RematchRequestRow.seat)
                .where(RematchRequestRow.match_id == current.id)
                .order_by(RematchRequestRow.seat)
            ).all()
            return LoadedRoom(
                room=room,
                seats=list(seats),
                match=current,
                actions=[StoredAction(*row) for row in rows],
                finished_winners=[m.winner for m in matches if m.status == "finished"],
                rematch=list(rematch),
            )

    def take_seat(self, seat: Seat, start_match_id: int | None, now: datetime) -> None:
        """Store the seat; when it was the last free one, the match starts in the same commit."""
        seat.name_folded = fold_name(seat.name)
        try:
            with self.sessions.begin() as session:
                session.add(seat)
                session.flush()
                if start_match_id is not None:
                    session.execute(
                        update(Match)
                        .where(Match.id == start_match_id)
                        .values(status="playing", started_at=now)
                    )
                session.execute(
                    update(Room).where(Room.id == seat.room_id).values(last_active_at=now)
                )
        except IntegrityError as error:
            raise SeatTaken(seat.room_id) from error

    def set_computer(self, room_id: str, seat: int, level: str | None) -> None:
        """The computer starts (a level) or stops (None) playing a person's seat."""
        with self.sessions.begin() as session:
            session.execute(
                update(Seat)
                .where(Seat.room_id == room_id, Seat.seat == seat)
                .values(computer=level)
            )

    def abandon_match(self, match_id: int, result: dict[str, Any], at: datetime) -> bool:
        """End a running match as abandoned; False when it was no longer running."""
        with self.sessions.begin() as session:
            ended = session.execute(
                update(Match)
                .where(Match.id == match_id, Match.status == "playing")
                .values(status="abandoned", result=result, winner=None, finished_at=at)
            )
            return ended.rowcount == 1  # type: ignore[attr-defined,no-any-return]

    def add_match(self, match: Match) -> None:
        with self.sessions.begin() as session:
            session.add(match)

    def request_rematch(self, match_id: int, seat: int) -> set[int]:
        """Store a seat's rematch request (again is fine); return every seat that asked."""
        with contextlib.suppress(IntegrityError), self.sessions.begin() as session:
            session.add(RematchRequestRow(match_id=match_id, seat=seat))
        with self.sessions() as session:
            return set(
                session.scalars(
                    select(RematchRequestRow.seat).where(RematchRequestRow.match_id == match_id)
                )
            )

    # The action path

    async def store_action(self, write: ActionWrite) -> None:
        """Store one action, or raise PlyTaken. The write leaves the event loop and shares
        its commit with whatever else waits (app/storage/batching.py)."""
        await self._batcher.write(write)

    def record_action(self, write: ActionWrite) -> None:
        """Store one action now; raise PlyTaken when that ply is already stored."""
        (outcome,) = self.record_actions([write])
        if outcome is not None:
            raise outcome

    def record_actions(self, writes: Sequence[ActionWrite]) -> list[Exception | None]:
        """Insert the actions (and finish a match, or note a room's activity) in one
        commit; for each, None when stored or PlyTaken when its ply was already stored."""
        connection = self._action_writer()
        rows = [(w.match_id, w.ply, w.seat, w.action, w.at, w.by_computer) for w in writes]
        try:
            if any(w.finish is not None or w.active_room is not None for w in writes):
                stored = self._insert_with_extras(connection, writes, rows)
            else:
                stored = self._insert_only(_driver(connection), rows)
        except self._driver_error as error:
            # As SQLAlchemy's own error (the action path answers it with `unavailable`), on
            # a connection replaced at its next use.
            connection.invalidate()
            raise DBAPIError.instance(
                self._insert_action.sql, None, error, self._driver_error
            ) from error
        return [
            None if went_in else PlyTaken(f"match {write.match_id} ply {write.ply}")
            for write, went_in in zip(writes, stored, strict=True)
        ]

    def _insert_only(self, driver: Any, rows: list[tuple[Any, ...]]) -> list[bool]:
        """The usual commit, nothing but moves, on the driver's connection alone: SQLAlchemy's
        transaction around it cost as much CPU as the INSERT."""
        try:
            stored = self._insert_action.run(driver, rows)
            driver.commit()
        except BaseException:
            with contextlib.suppress(Exception):
                driver.rollback()
            raise
        return stored

    def _insert_with_extras(
        self, connection: Connection, writes: Sequence[ActionWrite], rows: list[tuple[Any, ...]]
    ) -> list[bool]:
        with connection.begin():
            stored = self._insert_action.run(_driver(connection), rows)
            for write in itertools.compress(writes, stored):
                self._record_extras(connection, write)
        return stored

    @staticmethod
    def _record_extras(connection: Connection, write: ActionWrite) -> None:
        if write.finish is not None:
            connection.execute(
                update(MATCHES)
                .where(MATCHES.c.id == write.match_id)
                .values(
                    status="finished",
                    result=write.finish.result,
                    winner=write.finish.winner,
                    finished_at=write.finish.at,
                )
            )
        if write.active_room is not None:
            connection.execute(
                update(ROOMS).where(ROOMS.c.id == write.active_room).values(last_active_at=write.at)
            )

    # Idle rooms

    def idle_room_ids(self, cutoff: datetime) -> list[str]:
        with self.sessions() as session:
            return list(
                session.scalars(
                    select(Room.id).where(Room.closed_at.is_(None), Room.last_active_at < cutoff)
                )
            )

    def close_room(self, room_id: str, now: datetime, idle_before: datetime | None = None) -> bool:
        """Close the room; a match it left unfinished is abandoned (history keeps finished ones).

        With ``idle_before``, only while its last activity is older: of several processes
        that try, exactly one gets True."""
        condition = [Room.id == room_id, Room.closed_at.is_(None)]
        if idle_before is not None:
            condition.append(Room.last_active_at < idle_before)
        with self.sessions.begin() as session:
            closed = session.execute(update(Room).where(*condition).values(closed_at=now))
            if idle_before is not None and closed.rowcount != 1:  # type: ignore[attr-defined]
                return False
            session.execute(
                update(Match)
                .where(Match.room_id == room_id, Match.status != "finished")
                .values(status="abandoned")
            )
            return True

    def touch_room(self, room_id: str, at: datetime) -> None:
        """Note activity this process saw (never moves last activity back)."""
        with self.sessions.begin() as session:
            session.execute(
                update(Room)
                .where(Room.id == room_id, Room.last_active_at < at)
                .values(last_active_at=at)
            )

    def rooms_held_by(self, token_hash: str) -> list[HeldRoom]:
        with self.sessions() as session:
            rows = session.execute(
                select(Room, Seat.seat, Seat.name)
                .join(Seat, Seat.room_id == Room.id)
                .where(Seat.token_hash == token_hash, Room.closed_at.is_(None))
                .order_by(Room.created_at.desc())
            ).all()
            return [HeldRoom(room, seat, name) for room, seat, name in rows]

    # History

    def finished_matches(
        self,
        game: str | None,
        player: str | None,
        limit: int,
        offset: int,
        held_by: str | None = None,
    ) -> list[tuple[Match, list[str | None]]]:
        """Ended matches (finished or abandoned), newest first: all, or (held_by, a token
        hash) one player's."""
        query = select(Match).where(Match.finished_at.is_not(None))
        if held_by is not None:
            query = query.where(
                Match.room_id.in_(select(Seat.room_id).where(Seat.token_hash == held_by))
            )
        if game:
            query = query.where(Match.game == game)
        if player:
            folded = fold_name(player)
            escaped = folded.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
            holders = select(Seat.room_id).where(
                Seat.name_folded.like("%" + escaped + "%", escape="\\")
            )
            query = query.where(Match.room_id.in_(holders))
        query = (
            query.order_by(Match.finished_at.desc(), Match.id.desc()).limit(limit).offset(offset)
        )
        with self.sessions() as session:
            matches = list(session.scalars(query))
            names = self._names(session, {match.room_id for match in matches})
            return [(match, names[match.room_id]) for match in matches]

    def match_held_by(self, match_id: int, token_hash: str) -> bool:
        """True when this player holds a seat in the room of the match."""
        with self.sessions() as session:
            found = session.scalar(
                select(Seat.seat)
                .join(Match, Match.room_id == Seat.room_id)
                .where(Match.id == match_id, Seat.token_hash == token_hash)
                .limit(1)
            )
            return found is not None

    def match_ended(self, match_id: int) -> bool:
        """Finished, or abandoned by a player's choice (both have a result and an end)."""
        with self.sessions() as session:
            found = session.scalar(select(Match.finished_at).where(Match.id == match_id))
            return found is not None

    def finished_match(
        self, match_id: int
    ) -> tuple[Match, list[str | None], list[StoredAction]] | None:
        with self.sessions() as session:
            match = session.get(Match, match_id)
            if match is None or match.finished_at is None:
                return None
            rows = session.execute(ACTION_COLUMNS.where(ActionRow.match_id == match_id)).all()
            actions = [StoredAction(*row) for row in rows]
            return match, self._names(session, {match.room_id})[match.room_id], actions

    def match_played(self, match_id: int) -> tuple[int, dict[str, Any], list[StoredAction]]:
        """A match's seed, options and actions so far: every state it went through."""
        with self.sessions() as session:
            match = session.get(Match, match_id)
            if match is None:
                raise LookupError(f"no match {match_id}")
            rows = session.execute(ACTION_COLUMNS.where(ActionRow.match_id == match_id)).all()
            return match.seed, match.options, [StoredAction(*row) for row in rows]

    def match_actions(self, match_id: int) -> list[StoredAction]:
        """Every stored action of a match, in order (a running match's too)."""
        with self.sessions() as session:
            rows = session.execute(ACTION_COLUMNS.where(ActionRow.match_id == match_id)).all()
            return [StoredAction(*row) for row in rows]

    @staticmethod
    def _names(session: Session, room_ids: set[str]) -> dict[str, list[str | None]]:
        """Players' names by seat, per room (a finished match had every seat taken)."""
        rows = session.execute(
            select(Seat.room_id, Seat.seat, Seat.name)
            .where(Seat.room_id.in_(room_ids))
            .order_by(Seat.room_id, Seat.seat)
        ).all()
        names: dict[str, list[str | None]] = {room_id: [] for room_id in room_ids}
        for room_id, _seat, name in rows:
            names[room_id].append(name)
        return names
