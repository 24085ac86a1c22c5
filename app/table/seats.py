"""Seats the computer holds or plays: seating it in a free seat, and the other players'
answer when a person is away during their turn (a person takes their seat back by
connecting again: ``players``).

Each change is stored first, then published on the room-events hub (the other processes
hear it as a ``seat`` announcement: they reload the room's seats and match from the
database).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime

from app.computer.players import ComputerPlayers, levels
from app.messaging import Connection
from app.protocol import TakeoverChoice
from app.storage.models import COMPUTER, Seat
from app.storage.repositories import SeatTaken, Store
from app.table.cache import RoomCache
from app.table.endings import Endings
from app.table.events import RoomEvents
from app.table.live import Holder, LiveRoom, abandoned, check_open
from app.table.players import seated
from app.table.refusals import Refusal, store_or_refuse

logger = logging.getLogger(__name__)

COMPUTER_NAME = "Computer"  # a computer's seat; the client shows its own word and the level


class ComputerSeats:
    def __init__(
        self,
        store: Store,
        cache: RoomCache,
        events: RoomEvents,
        computer: ComputerPlayers,
        endings: Endings,
        clock: Callable[[], datetime],
        shared: bool,
    ) -> None:
        self.store = store
        self.endings = endings
        self.cache = cache
        self.events = events
        self.computer = computer  # who is away long enough, and the wait for them
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

    async def answer_takeover(
        self, room: LiveRoom, connection: Connection, message: TakeoverChoice
    ) -> None:
        """Another player's answer to a takeover offer: wait, let the computer play, or end."""
        computer = self.computer
        async with room.lock:
            check_open(room)
            absent = computer.absent_seat(room)
            if connection.seat is None or absent is None or absent == connection.seat:
                raise Refusal("not_offered", "nobody is away long enough during their turn")
            self.events.check_ready()
            if message.choice == "wait" and room.turn_based:
                self._wait_another_turn(room)
            elif message.choice == "wait":
                computer.keep_waiting(room, absent)
            elif message.choice == "computer":
                level = message.level or levels(room.game.name)[0]
                check_computer(room.game.name, room.game.seats, level)
                store_or_refuse(room.id, self.store.set_computer, room.id, absent, level)
                room.seats[absent].computer = level  # type: ignore[union-attr]
                logger.info("computer plays an absent seat", extra={"room_id": room.id})
                self._changed(room)
            else:
                ran_out = absent if room.turn_based else None
                await self.endings.end(room, abandoned(connection.seat, ran_out), connection.seat)

    def _wait_another_turn(self, room: LiveRoom) -> None:
        """Turn-based: the seat to move gets its whole time per move again from now."""
        now = self.clock()
        store_or_refuse(room.id, self.store.wait_longer, room.id, now)
        room.turn_started = now
        logger.info("waiting another turn", extra={"room_id": room.id})
        self._changed(room)

    def _changed(self, room: LiveRoom) -> None:
        room.last_active = self.clock()
        self.events.seats_changed(room)


def check_computer(game: str, seats: int, level: str) -> None:
    if seats < 2:
        raise Refusal("no_free_seat", f"{game} is played alone: there is no seat for a computer")
    if level not in levels(game):
        known = ", ".join(levels(game))
        raise Refusal("unknown_level", f"no computer player {level!r} for {game}; known: {known}")


def computer_seat(room_id: str, seat: int, level: str) -> Seat:
    return Seat(room_id=room_id, seat=seat, name=COMPUTER_NAME, player_id=COMPUTER, computer=level)
