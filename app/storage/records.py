"""The queries of the players' records and ratings (app/people/records.py): finished
matches with who sat where, and whether two players ever shared a match.

Only matches with status ``finished`` count: those its rules ended and resigned ones
(``result.reason`` "resigned"); aborted and abandoned matches are left out here already.
A match's seats are its room's seats (a room keeps its players from match to match)."""

from __future__ import annotations

import itertools
from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import ColumnElement, Engine, and_, func, or_, select

from app.storage.models import COMPUTER, MATCHES, PLAYERS, SEATS, StoredResult

# A match's place in the replay of every rating: its end, then its id for equal ends.
Order = tuple[datetime, int]


@dataclass(frozen=True)
class SeatOf:
    """Who played a seat: a person (their player id) or the computer at a level."""

    player_id: str | None  # None: the computer's own seat
    level: str | None  # the computer's level on its own seat
    name: str | None


@dataclass(frozen=True)
class PlayedMatch:
    id: int
    game: str
    finished_at: datetime
    result: StoredResult
    winner: int | None
    seats: list[SeatOf]

    @property
    def order(self) -> Order:
        return (self.finished_at, self.id)


FINISHED = and_(MATCHES.c.status == "finished", MATCHES.c.finished_at.is_not(None))
COLUMNS = (
    MATCHES.c.id,
    MATCHES.c.game,
    MATCHES.c.finished_at,
    MATCHES.c.result,
    MATCHES.c.winner,
    MATCHES.c.names,
)
SEAT_COLUMNS = (SEATS.c.seat, SEATS.c.player_id, SEATS.c.computer, SEATS.c.name)


class RecordStore:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def finished_after(self, after: Order | None) -> list[PlayedMatch]:
        """Every finished match after ``after`` (None: all), in the order of their ends."""
        where = FINISHED
        if after is not None:
            at, match_id = after
            later = or_(
                MATCHES.c.finished_at > at,
                and_(MATCHES.c.finished_at == at, MATCHES.c.id > match_id),
            )
            where = and_(FINISHED, later)
        return self._played(where)

    def finished_upto(self, upto: Order) -> int:
        """How many finished matches ended up to ``upto`` (included)."""
        at, match_id = upto
        earlier = or_(
            MATCHES.c.finished_at < at,
            and_(MATCHES.c.finished_at == at, MATCHES.c.id <= match_id),
        )
        with self.engine.connect() as connection:
            return int(
                connection.scalar(
                    select(func.count()).select_from(MATCHES).where(FINISHED, earlier)
                )
                or 0
            )

    def finished_of(self, player_id: str) -> list[PlayedMatch]:
        """The finished matches of one player, oldest first."""
        rooms = select(SEATS.c.room_id).where(SEATS.c.player_id == player_id)
        return self._played(and_(FINISHED, MATCHES.c.room_id.in_(rooms)))

    def _played(self, where: ColumnElement[bool]) -> list[PlayedMatch]:
        """The matches ``where`` holds, in the order of their ends, each with its seats (one
        query: a match's rows, one per seat, come together)."""
        query = (
            select(*COLUMNS, *SEAT_COLUMNS)
            .join(SEATS, SEATS.c.room_id == MATCHES.c.room_id)
            .where(where)
            .order_by(MATCHES.c.finished_at, MATCHES.c.id, SEATS.c.seat)
        )
        with self.engine.connect() as connection:
            rows = connection.execute(query).all()
        played: list[PlayedMatch] = []
        for match_id, group in itertools.groupby(rows, key=lambda row: row.id):
            seated = list(group)
            first = seated[0]
            names = first.names or []
            seats: list[SeatOf] = []
            for row in seated:
                name = names[row.seat] if row.seat < len(names) else None
                seats.append(_seat(row, name))
            played.append(
                PlayedMatch(
                    id=match_id,
                    game=first.game,
                    finished_at=first.finished_at,
                    result=first.result,  # set with the status (Finish)
                    winner=first.winner,
                    seats=seats,
                )
            )
        return played

    def played_together(self, one: str, other: str) -> bool:
        """The two held seats in one room with a finished or running match."""
        mine = select(SEATS.c.room_id).where(SEATS.c.player_id == one)
        query = (
            select(SEATS.c.room_id)
            .join(MATCHES, MATCHES.c.room_id == SEATS.c.room_id)
            .where(
                SEATS.c.player_id == other,
                SEATS.c.room_id.in_(mine),
                MATCHES.c.status.in_(("finished", "playing")),
            )
            .limit(1)
        )
        with self.engine.connect() as connection:
            return connection.scalar(query) is not None

    def name_of(self, player_id: str) -> str | None:
        """The player's name, or the newest name they sat under; None: no such player."""
        with self.engine.connect() as connection:
            found = connection.execute(
                select(PLAYERS.c.name).where(PLAYERS.c.id == player_id)
            ).first()
            if found is not None and found.name:
                return str(found.name)
            seat_name = connection.scalar(
                select(SEATS.c.name).where(SEATS.c.player_id == player_id).limit(1)
            )
            if seat_name is not None:
                return str(seat_name)
            return "" if found is not None else None

    def names_of(self, player_ids: set[str]) -> dict[str, str]:
        """The players' own names (the ones they gave on "You")."""
        if not player_ids:
            return {}
        with self.engine.connect() as connection:
            rows = connection.execute(
                select(PLAYERS.c.id, PLAYERS.c.name).where(PLAYERS.c.id.in_(player_ids))
            ).all()
        return {row.id: row.name for row in rows if row.name}

    def seat_holders(self, room_ids: set[str]) -> dict[str, list[str | None]]:
        """Per room, the player id by seat (None: the computer's own seat)."""
        if not room_ids:
            return {}
        with self.engine.connect() as connection:
            rows = connection.execute(
                select(SEATS.c.room_id, *SEAT_COLUMNS)
                .where(SEATS.c.room_id.in_(room_ids))
                .order_by(SEATS.c.room_id, SEATS.c.seat)
            ).all()
        holders: dict[str, list[str | None]] = defaultdict(list)
        for row in rows:
            holders[row.room_id].append(_seat(row, None).player_id)
        return dict(holders)


def _seat(row: Any, name: str | None) -> SeatOf:
    """A seat row as who played it, under the name of its match (kept once renamed)."""
    computer = row.player_id == COMPUTER
    return SeatOf(
        None if computer else row.player_id, row.computer if computer else None, name or row.name
    )
