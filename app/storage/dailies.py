"""The daily deal's queries (see app/history/daily.py): players' attempts, the boards,
the pars.

An attempt itself is stored with its room (``Store.create_room``), in one commit: the
primary key (day, game, player) of ``dailies`` lets one of two racing requests in."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import and_, select
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

from app.storage.models import DAILIES, DAILY_PARS, MATCHES, ROOMS, SEATS, StoredResult

# A daily's player holds seat 0 (the computer the last one): app/history/daily.py.
PLAYER_SEAT = 0


@dataclass(frozen=True)
class Attempt:
    """One player's daily of a day and game, as stored: its room and match, whether the
    room is still open, the match's status and result, the name it was played under."""

    day: str
    game: str
    player_id: str
    room_id: str
    match_id: int
    room_open: bool
    status: str
    result: StoredResult | None
    name: str | None


def _attempts() -> Any:
    return (
        select(
            DAILIES.c.day,
            DAILIES.c.game,
            DAILIES.c.player_id,
            DAILIES.c.room_id,
            DAILIES.c.match_id,
            ROOMS.c.closed_at.is_(None),
            MATCHES.c.status,
            MATCHES.c.result,
            SEATS.c.name,
            MATCHES.c.names,
        )
        .join(ROOMS, ROOMS.c.id == DAILIES.c.room_id)
        .join(MATCHES, MATCHES.c.id == DAILIES.c.match_id)
        .outerjoin(SEATS, and_(SEATS.c.room_id == DAILIES.c.room_id, SEATS.c.seat == PLAYER_SEAT))
    )


def _attempt(row: Any) -> Attempt:
    day, game, player_id, room_id, match_id, room_open, status, result, seat_name, names = row
    name = names[PLAYER_SEAT] if names else seat_name
    return Attempt(day, game, player_id, room_id, match_id, room_open, status, result, name)


class DailyStore:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def attempts_of(self, player_id: str, day: str | None = None) -> list[Attempt]:
        """A player's attempts: of one day, or (None) of every day."""
        query = _attempts().where(DAILIES.c.player_id == player_id)
        if day is not None:
            query = query.where(DAILIES.c.day == day)
        with self.engine.connect() as connection:
            return [_attempt(row) for row in connection.execute(query)]

    def attempts_at(self, day: str, game: str) -> list[Attempt]:
        """Every player's attempt at one day's daily of one game."""
        query = _attempts().where(DAILIES.c.day == day, DAILIES.c.game == game)
        with self.engine.connect() as connection:
            return [_attempt(row) for row in connection.execute(query)]

    def of_room(self, room_id: str) -> tuple[str, str, int] | None:
        """The day, game and match of the daily played in this room, if it is one's."""
        query = select(DAILIES.c.day, DAILIES.c.game, DAILIES.c.match_id).where(
            DAILIES.c.room_id == room_id
        )
        with self.engine.connect() as connection:
            row = connection.execute(query).first()
        return None if row is None else (row[0], row[1], row[2])

    def days_of_matches(self, match_ids: list[int]) -> dict[int, str]:
        """The day of each of these matches that is a daily."""
        if not match_ids:
            return {}
        query = select(DAILIES.c.match_id, DAILIES.c.day).where(DAILIES.c.match_id.in_(match_ids))
        with self.engine.connect() as connection:
            return {match_id: day for match_id, day in connection.execute(query)}

    def par(self, day: str, game: str) -> tuple[bool, int | None]:
        """Whether the day's par was searched, and the best score (None: the search gave up)."""
        query = select(DAILY_PARS.c.best_score).where(
            DAILY_PARS.c.day == day, DAILY_PARS.c.game == game
        )
        with self.engine.connect() as connection:
            row = connection.execute(query).first()
        return (False, None) if row is None else (True, row[0])

    def store_par(self, day: str, game: str, best_score: int | None) -> None:
        """Keeps the day's par (a second process's equal answer is dropped)."""
        try:
            with self.engine.begin() as connection:
                connection.execute(
                    DAILY_PARS.insert().values(day=day, game=game, best_score=best_score)
                )
        except IntegrityError:
            pass
