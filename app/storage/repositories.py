"""The queries the services need, each its own short transaction.

The action path uses the driver's connection under SQLAlchemy's (one INSERT per move; on
PostgreSQL the moves that wait share a commit); everything else SQLAlchemy Core, on a
connection of the engine's pool (no ORM: app/storage/models.py).
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

from sqlalchemy import (
    ColumnElement,
    Connection,
    Dialect,
    Engine,
    Table,
    and_,
    delete,
    exists,
    insert,
    not_,
    select,
    update,
)
from sqlalchemy.exc import DBAPIError, IntegrityError

from app.storage.batching import BatchWriter
from app.storage.models import (
    ACTIONS,
    MATCHES,
    REMATCH_REQUESTS,
    ROOMS,
    SEATS,
    TAKEBACK_REQUESTS,
    Base,
    DailyRow,
    Match,
    Room,
    Seat,
    StoredPause,
    TakebackRequestRow,
    fold_name,
)
from engine import OutcomeJson

T = TypeVar("T")

ACTION_COLUMNS = select(
    ACTIONS.c.ply, ACTIONS.c.seat, ACTIONS.c.action, ACTIONS.c.by_computer, ACTIONS.c.created_at
).order_by(ACTIONS.c.ply)
INSERTED_ACTION_COLUMNS = ("match_id", "ply", "seat", "action", "created_at", "by_computer")


def _dialect_insert(dialect: Dialect) -> Any:
    """The dialect's own INSERT (with ON CONFLICT), from its module only: SQLite's server
    need not load PostgreSQL's (2 MB)."""
    return importlib.import_module(f"sqlalchemy.dialects.{dialect.name}").insert


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
        statement = _dialect_insert(dialect)(table).on_conflict_do_nothing(index_elements=key)
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


def _insert(connection: Connection, row: Base) -> None:
    """Insert a row; a primary key the database chose (a match's id) is set on it."""
    result = connection.execute(insert(row.__table__).values(row.values()))
    inserted = result.inserted_primary_key
    assert inserted is not None  # set for an INSERT of one row
    for column, value in zip(row.__table__.primary_key, inserted, strict=True):
        if getattr(row, column.key) is None:
            setattr(row, column.key, value)


def _driver(connection: Connection) -> Any:
    """The driver's own connection under SQLAlchemy's (reconnected if it was invalidated)."""
    return connection.connection.driver_connection


class SeatTaken(Exception):
    """Another player (maybe through another server process) took the seat first."""


class DailyTaken(Exception):
    """This player's attempt at the day's daily of this game is stored already (perhaps
    by a request at the same moment): nothing of the new room was stored."""


class PlyTaken(Exception):
    """An action for this ply is already stored: another action won the race."""


@dataclass(frozen=True)
class StoredAction:
    ply: int
    seat: int
    action: dict[str, Any]
    by_computer: bool = False
    at: datetime | None = None  # when it was stored


def seats_of(player: str) -> ColumnElement[bool]:
    """The seats of one player (the key ``PlayerDep`` gives): every query on seats by
    player goes through here."""
    return SEATS.c.player_id == player


def running_turn_based() -> ColumnElement[bool]:
    """Rooms that are turn-based and whose match is running: never closed for idleness."""
    return and_(
        ROOMS.c.turn_based.is_(True),
        exists().where(MATCHES.c.room_id == ROOMS.c.id, MATCHES.c.status == "playing"),
    )


@dataclass(frozen=True)
class Finish:
    result: OutcomeJson
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
    takebacks: list[TakebackRequestRow]  # the current match's takeback requests, oldest first


@dataclass(frozen=True)
class HeldRoom:
    room: Room
    seat: int
    name: str


class Store:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._writer: Connection | None = None
        self._insert_action = PreparedInsert(
            engine.dialect, ACTIONS, INSERTED_ACTION_COLUMNS, key=("match_id", "ply")
        )
        self._driver_error: type[Exception] = engine.dialect.loaded_dbapi.Error
        self._remote = engine.dialect.name != "sqlite"
        # Over the network the action path's commits run on a thread of their own, so that
        # the event loop serves every other room during each round trip. SQLite's local
        # commit costs less than handing it to that thread and back (docs/performance.md).
        self._batcher = BatchWriter(self.record_actions) if self._remote else None

    def close(self) -> None:
        if self._batcher is not None:
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

    def create_room(
        self, room: Room, match: Match, seats: Sequence[Seat] = (), daily: DailyRow | None = None
    ) -> None:
        """The room, its first match and the seats taken from the start (the computer's);
        with ``daily``, that match as a player's attempt at a daily, in the same commit:
        DailyTaken (and nothing stored) when the player has one already."""
        try:
            with self.engine.begin() as connection:
                _insert(connection, room)
                _insert(connection, match)
                for seat in seats:
                    seat.name_folded = fold_name(seat.name)
                    _insert(connection, seat)
                if daily is not None:
                    daily.room_id, daily.match_id = room.id, match.id
                    _insert(connection, daily)
        except IntegrityError as error:
            if daily is None:
                raise
            raise DailyTaken(daily.day, daily.game) from error

    def load_room(self, room_id: str) -> LoadedRoom | None:
        """An open room with its seats, its newest match and that match's actions."""
        with self.engine.connect() as connection:
            found = connection.execute(select(ROOMS).where(ROOMS.c.id == room_id)).first()
            if found is None or found.closed_at is not None:
                return None
            room = Room.of(found)
            seats = connection.execute(select(SEATS).where(SEATS.c.room_id == room_id))
            matches = [
                Match.of(row)
                for row in connection.execute(
                    select(MATCHES).where(MATCHES.c.room_id == room_id).order_by(MATCHES.c.number)
                )
            ]
            current = matches[-1]
            rows = connection.execute(ACTION_COLUMNS.where(ACTIONS.c.match_id == current.id)).all()
            rematch = connection.scalars(
                select(REMATCH_REQUESTS.c.seat)
                .where(REMATCH_REQUESTS.c.match_id == current.id)
                .order_by(REMATCH_REQUESTS.c.seat)
            ).all()
            takebacks = connection.execute(
                select(TAKEBACK_REQUESTS)
                .where(TAKEBACK_REQUESTS.c.match_id == current.id)
                .order_by(TAKEBACK_REQUESTS.c.id)
            )
            return LoadedRoom(
                room=room,
                seats=[Seat.of(row) for row in seats],
                match=current,
                actions=[StoredAction(*row) for row in rows],
                finished_winners=[m.winner for m in matches if m.status == "finished"],
                rematch=list(rematch),
                takebacks=[TakebackRequestRow.of(row) for row in takebacks],
            )

    def take_seat(self, seat: Seat, start_match_id: int | None, now: datetime) -> None:
        """Store the seat; when it was the last free one, the match starts in the same commit."""
        seat.name_folded = fold_name(seat.name)
        try:
            with self.engine.begin() as connection:
                _insert(connection, seat)
                if start_match_id is not None:
                    connection.execute(
                        update(MATCHES)
                        .where(MATCHES.c.id == start_match_id)
                        .values(status="playing", started_at=now)
                    )
                connection.execute(
                    update(ROOMS).where(ROOMS.c.id == seat.room_id).values(last_active_at=now)
                )
        except IntegrityError as error:
            raise SeatTaken(seat.room_id) from error

    def set_computer(self, room_id: str, seat: int, level: str | None) -> None:
        """The computer starts (a level) or stops (None) playing a person's seat."""
        with self.engine.begin() as connection:
            connection.execute(
                update(SEATS)
                .where(SEATS.c.room_id == room_id, SEATS.c.seat == seat)
                .values(computer=level)
            )

    def end_match(self, match_id: int, status: str, finish: Finish) -> bool:
        """End a running match by a player's choice (abandoned, resigned as ``finished``,
        aborted); False when it was no longer running."""
        with self.engine.begin() as connection:
            ended = connection.execute(
                update(MATCHES)
                .where(MATCHES.c.id == match_id, MATCHES.c.status == "playing")
                .values(
                    status=status,
                    result=finish.result,
                    winner=finish.winner,
                    finished_at=finish.at,
                )
            )
            return ended.rowcount == 1

    def leave_seat(self, room_id: str, seat: int, at: datetime) -> bool:
        """Free a seat while the room's match waits for players; False once it started."""
        waiting = exists().where(MATCHES.c.room_id == room_id, MATCHES.c.status == "waiting")
        with self.engine.begin() as connection:
            left = connection.execute(
                delete(SEATS).where(SEATS.c.room_id == room_id, SEATS.c.seat == seat, waiting)
            )
            connection.execute(update(ROOMS).where(ROOMS.c.id == room_id).values(last_active_at=at))
            return left.rowcount == 1

    def request_rematch(
        self, match_id: int, seat: int, agreeing: set[int], seats: int, next_match: Match
    ) -> tuple[set[int], bool]:
        """Store a seat's rematch request (again is fine). When with it every seat has asked
        (``agreeing``: the seats that always agree, the computer's), ``next_match`` is stored
        in the same commit: no crash can leave every request stored and no match started.
        Return every seat that asked and whether the next match was stored; IntegrityError
        when another process stored that match first."""
        with self.engine.begin() as connection:
            # PostgreSQL: requests for one match one at a time, so that the later of two at
            # once sees the other's (SQLite's writers queue anyway; it renders no lock).
            connection.execute(
                select(MATCHES.c.id).where(MATCHES.c.id == match_id).with_for_update()
            )
            request = _dialect_insert(connection.dialect)(REMATCH_REQUESTS)
            connection.execute(
                request.values(match_id=match_id, seat=seat).on_conflict_do_nothing()
            )
            asked = set(
                connection.scalars(
                    select(REMATCH_REQUESTS.c.seat).where(REMATCH_REQUESTS.c.match_id == match_id)
                )
            )
            if len(asked | agreeing) < seats:
                return asked, False
            _insert(connection, next_match)
            return asked, True

    # Takebacks

    def ask_takeback(self, request: TakebackRequestRow) -> None:
        """Store a seat's request to take back its last move (its id is set)."""
        with self.engine.begin() as connection:
            _insert(connection, request)

    def decline_takeback(self, request_id: int, at: datetime) -> None:
        with self.engine.begin() as connection:
            connection.execute(
                update(TAKEBACK_REQUESTS)
                .where(TAKEBACK_REQUESTS.c.id == request_id)
                .values(declined_at=at)
            )

    # The action path

    async def store_action(self, write: ActionWrite) -> None:
        """Store one action, or raise PlyTaken. Over the network the write leaves the event
        loop and shares its commit with whatever else waits (app/storage/batching.py)."""
        if self._batcher is None:
            self.record_action(write)
        else:
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
        if len(rows) == 1 and self._remote:
            return self._insert_alone(driver, rows)
        try:
            stored = self._insert_action.run(driver, rows)
            driver.commit()
        except BaseException:
            with contextlib.suppress(Exception):
                driver.rollback()
            raise
        return stored

    def _insert_alone(self, driver: Any, rows: list[tuple[Any, ...]]) -> list[bool]:
        """One move over the network: a single statement is its own transaction, one round
        trip where BEGIN, INSERT and COMMIT took three (psycopg: 60 against 86 us of CPU and
        190 against 250 us of wall time on loopback)."""
        driver.autocommit = True
        try:
            return self._insert_action.run(driver, rows)
        finally:
            # A broken connection refuses the switch; it is replaced after the error anyway.
            with contextlib.suppress(self._driver_error):
                driver.autocommit = False

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
        with self.engine.connect() as connection:
            return list(
                connection.scalars(
                    select(ROOMS.c.id).where(
                        ROOMS.c.closed_at.is_(None),
                        ROOMS.c.last_active_at < cutoff,
                        not_(running_turn_based()),
                    )
                )
            )

    def close_room(self, room_id: str, now: datetime, idle_before: datetime | None = None) -> bool:
        """Close the room; a match it left unfinished is abandoned (history keeps finished ones).

        With ``idle_before``, only while its last activity is older: of several processes
        that try, exactly one gets True."""
        condition = [ROOMS.c.id == room_id, ROOMS.c.closed_at.is_(None)]
        if idle_before is not None:
            condition += [ROOMS.c.last_active_at < idle_before, not_(running_turn_based())]
        with self.engine.begin() as connection:
            closed = connection.execute(update(ROOMS).where(*condition).values(closed_at=now))
            if idle_before is not None and closed.rowcount != 1:
                return False
            connection.execute(
                update(MATCHES)
                .where(MATCHES.c.room_id == room_id, MATCHES.c.status != "finished")
                .values(status="abandoned")
            )
            return True

    def touch_room(self, room_id: str, at: datetime) -> None:
        """Note activity this process saw (never moves last activity back)."""
        with self.engine.begin() as connection:
            connection.execute(
                update(ROOMS)
                .where(ROOMS.c.id == room_id, ROOMS.c.last_active_at < at)
                .values(last_active_at=at)
            )

    # Turn-based rooms

    def running_turn_room_ids(self) -> list[str]:
        """Open turn-based rooms with a running match and a time per move."""
        with self.engine.connect() as connection:
            return list(
                connection.scalars(
                    select(ROOMS.c.id).where(
                        ROOMS.c.closed_at.is_(None),
                        ROOMS.c.move_days.is_not(None),
                        running_turn_based(),
                    )
                )
            )

    def wait_longer(self, room_id: str, at: datetime) -> None:
        """An opponent chose to keep waiting: the turn starts again at ``at``."""
        with self.engine.begin() as connection:
            connection.execute(update(ROOMS).where(ROOMS.c.id == room_id).values(waited_at=at))

    def store_pause(
        self, room_id: str, pause: StoredPause | None, waited_at: datetime | None = None
    ) -> None:
        """A pause asked for, agreed or ended (None); a turn-based turn resumed gets the
        paused time back (``waited_at``: when its turn now counts as started)."""
        moved = {} if waited_at is None else {"waited_at": waited_at}
        with self.engine.begin() as connection:
            connection.execute(
                update(ROOMS).where(ROOMS.c.id == room_id).values(pause=pause, **moved)
            )

    def claim_reminder(self, room_id: str, turn: str) -> bool:
        """True for exactly one caller per room and turn (several processes sweep)."""
        with self.engine.begin() as connection:
            claimed = connection.execute(
                update(ROOMS)
                .where(
                    ROOMS.c.id == room_id,
                    (ROOMS.c.reminded_turn != turn) | ROOMS.c.reminded_turn.is_(None),
                )
                .values(reminded_turn=turn)
            )
            return claimed.rowcount == 1

    def match_started_at(self, match_id: int) -> datetime | None:
        with self.engine.connect() as connection:
            return connection.scalar(select(MATCHES.c.started_at).where(MATCHES.c.id == match_id))

    def rooms_held_by(self, player_id: str) -> list[HeldRoom]:
        keys = ROOMS.c.keys()
        with self.engine.connect() as connection:
            rows = connection.execute(
                select(ROOMS, SEATS.c.seat, SEATS.c.name)
                .join(SEATS, SEATS.c.room_id == ROOMS.c.id)
                .where(seats_of(player_id), ROOMS.c.closed_at.is_(None))
                .order_by(ROOMS.c.created_at.desc())
            ).all()
            return [
                HeldRoom(Room(**dict(zip(keys, row[:-2], strict=True))), row[-2], row[-1])
                for row in rows
            ]

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
        query = select(MATCHES).where(MATCHES.c.finished_at.is_not(None))
        if held_by is not None:
            query = query.where(
                MATCHES.c.room_id.in_(select(SEATS.c.room_id).where(seats_of(held_by)))
            )
        if game:
            query = query.where(MATCHES.c.game == game)
        if player:
            folded = fold_name(player)
            escaped = folded.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
            holders = select(SEATS.c.room_id).where(
                SEATS.c.name_folded.like("%" + escaped + "%", escape="\\")
            )
            query = query.where(MATCHES.c.room_id.in_(holders))
        query = (
            query.order_by(MATCHES.c.finished_at.desc(), MATCHES.c.id.desc())
            .limit(limit)
            .offset(offset)
        )
        with self.engine.connect() as connection:
            matches = [Match.of(row) for row in connection.execute(query)]
            names = names_by_seat(connection, {match.room_id for match in matches})
            return [(match, match.names or names[match.room_id]) for match in matches]

    def match_held_by(self, match_id: int, player_id: str) -> bool:
        """True when this player holds a seat in the room of the match."""
        with self.engine.connect() as connection:
            found = connection.scalar(
                select(SEATS.c.seat)
                .join(MATCHES, MATCHES.c.room_id == SEATS.c.room_id)
                .where(MATCHES.c.id == match_id, seats_of(player_id))
                .limit(1)
            )
            return found is not None

    def match_ended(self, match_id: int) -> bool:
        """Finished, or abandoned by a player's choice (both have a result and an end)."""
        with self.engine.connect() as connection:
            found = connection.scalar(select(MATCHES.c.finished_at).where(MATCHES.c.id == match_id))
            return found is not None

    def finished_match(
        self, match_id: int
    ) -> tuple[Match, list[str | None], list[StoredAction]] | None:
        with self.engine.connect() as connection:
            match = _match(connection, match_id)
            if match is None or match.finished_at is None:
                return None
            rows = connection.execute(ACTION_COLUMNS.where(ACTIONS.c.match_id == match_id)).all()
            actions = [StoredAction(*row) for row in rows]
            names = match.names or names_by_seat(connection, {match.room_id})[match.room_id]
            return match, names, actions

    def match_played(self, match_id: int) -> tuple[int, dict[str, Any], list[StoredAction]]:
        """A match's seed, options and actions so far: every state it went through."""
        with self.engine.connect() as connection:
            match = _match(connection, match_id)
            if match is None:
                raise LookupError(f"no match {match_id}")
            rows = connection.execute(ACTION_COLUMNS.where(ACTIONS.c.match_id == match_id)).all()
            return match.seed, match.options, [StoredAction(*row) for row in rows]

    def match_actions(self, match_id: int) -> list[StoredAction]:
        """Every stored action of a match, in order (a running match's too)."""
        with self.engine.connect() as connection:
            rows = connection.execute(ACTION_COLUMNS.where(ACTIONS.c.match_id == match_id)).all()
            return [StoredAction(*row) for row in rows]


def names_by_seat(connection: Connection, room_ids: set[str]) -> dict[str, list[str | None]]:
    """Players' names by seat, per room (a finished match had every seat taken)."""
    rows = connection.execute(
        select(SEATS.c.room_id, SEATS.c.seat, SEATS.c.name)
        .where(SEATS.c.room_id.in_(room_ids))
        .order_by(SEATS.c.room_id, SEATS.c.seat)
    ).all()
    names: dict[str, list[str | None]] = {room_id: [] for room_id in room_ids}
    for room_id, _seat, name in rows:
        names[room_id].append(name)
    return names


def _match(connection: Connection, match_id: int) -> Match | None:
    found = connection.execute(select(MATCHES).where(MATCHES.c.id == match_id)).first()
    return None if found is None else Match.of(found)
