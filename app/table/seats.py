"""Seats the computer holds: the levels it plays at, and seating it in a free seat while
a room waits (it plays an absent person's seat once the others let it: ``takeover``; the
person takes it back by connecting again: ``players``).

Each change is stored first, then published on the room-events hub as ``SeatsChanged``
(the other processes hear it and reload the room's seats and match from the database).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime

from app.storage.models import COMPUTER, Seat
from app.storage.repositories import SeatTaken, Store
from app.table.cache import RoomCache
from app.table.events import RoomEvents, SeatsChanged
from app.table.live import Holder, LiveRoom, check_open
from app.table.players import seated
from app.table.refusals import Refusal
from engine.bots import bot_levels

logger = logging.getLogger(__name__)

COMPUTER_NAME = "Computer"  # a computer's seat; the client shows its own word and the level


class ComputerSeats:
    def __init__(
        self,
        store: Store,
        cache: RoomCache,
        events: RoomEvents,
        clock: Callable[[], datetime],
        shared: bool,
    ) -> None:
        self.store = store
        self.cache = cache
        self.events = events
        self.clock = clock
        self.shared = shared  # several processes (REDIS_URL)

    async def add(self, room: LiveRoom, level: str, player_id: str | None) -> int:
        """A seated player lets the computer take a free seat while the room waits."""
        async with room.lock:
            check_open(room)
            if self.shared:
                await self.cache.catch_up(room)
            if room.seat_of(player_id) is None:
                raise Refusal("not_seated", "only a player of this room may add a computer")
            check_computer(room.game.name, room.game.seats, level)
            free = room.free_seats()
            if not free or room.match.status != "waiting":
                raise Refusal("no_free_seat", "every seat of this room is taken")
            now = self.clock()
            starts = len(free) == 1
            try:
                self.store.take_seat(
                    computer_seat(room.id, free[-1], level), room.match.id if starts else None, now
                )
            except SeatTaken:
                raise Refusal("no_free_seat", "that seat was taken meanwhile") from None
            room.seats[free[-1]] = Holder(COMPUTER_NAME, COMPUTER, level)
            seated(room, free[-1], starts, now)
            self._changed(room)
            return free[-1]

    def _changed(self, room: LiveRoom) -> None:
        room.last_active = self.clock()
        self.events.publish(SeatsChanged(room))


def levels(game: str) -> list[str]:
    """The levels a computer player of this game can have, the one to offer first first."""
    return [*bot_levels(game), "random"]


def check_computer(game: str, seats: int, level: str) -> None:
    if seats < 2:
        raise Refusal("no_free_seat", f"{game} is played alone: there is no seat for a computer")
    if level not in levels(game):
        known = ", ".join(levels(game))
        raise Refusal("unknown_level", f"no computer player {level!r} for {game}; known: {known}")


def computer_seat(room_id: str, seat: int, level: str) -> Seat:
    return Seat(room_id=room_id, seat=seat, name=COMPUTER_NAME, player_id=COMPUTER, computer=level)
