"""Seats the computer holds or plays: seating it in a free seat, a person taking their seat
back from it, and the other players' answer when a person is away during their turn.

Each change is stored first, then told to the room's sockets and the other processes
(as a ``seat`` announcement: they reload the room's seats and match from the database).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from sqlalchemy.exc import SQLAlchemyError

from app.messaging import Connection
from app.protocol import TakeoverChoice
from app.services.computer import levels
from app.services.live import Holder, LiveRoom, abandoned, check_open
from app.services.players import seated
from app.services.refusals import Refusal
from app.storage.models import COMPUTER, Seat
from app.storage.repositories import SeatTaken

if TYPE_CHECKING:
    from app.services.rooms import RoomService

logger = logging.getLogger(__name__)

COMPUTER_NAME = "Computer"  # a computer's seat; the client shows its own word and the level


class ComputerSeats:
    def __init__(self, rooms: RoomService) -> None:
        self.rooms = rooms

    async def add(self, room_id: str, level: str, token_hash: str | None) -> int:
        """A seated player lets the computer take a free seat while the room waits."""
        rooms = self.rooms
        room = await rooms.open_room(room_id)
        async with room.lock:
            check_open(room)
            if rooms.relay is not None:
                await rooms.cache.catch_up(room)
            if room.seat_of(token_hash) is None:
                raise Refusal("not_seated", "only a player of this room may add a computer")
            check_computer(room.game.name, room.game.seats, level)
            free = room.free_seats()
            if not free or room.match.status != "waiting":
                raise Refusal("no_free_seat", "every seat of this room is taken")
            now = rooms.clock()
            starts = len(free) == 1
            try:
                rooms.store.take_seat(
                    computer_seat(room.id, free[-1], level), room.match.id if starts else None, now
                )
            except SeatTaken:
                raise Refusal("no_free_seat", "that seat was taken meanwhile") from None
            room.seats[free[-1]] = Holder(COMPUTER_NAME, COMPUTER, level)
            seated(room, free[-1], starts, now)
            self._changed(room)
            return free[-1]

    def reclaim(self, room: LiveRoom, seat: int) -> None:
        """A person back at a seat the computer played for them takes it back."""
        holder = room.seats[seat]
        if holder is None or holder.is_computer or holder.computer is None:
            return
        self.rooms.store.set_computer(room.id, seat, None)
        holder.computer = None
        logger.info("seat taken back from the computer", extra={"room_id": room.id, "seat": seat})
        self.rooms.news.state(room)
        self.rooms.news.announce({"t": "seat", "room": room.id})

    async def answer_takeover(
        self, room: LiveRoom, connection: Connection, message: TakeoverChoice
    ) -> None:
        """Another player's answer to a takeover offer: wait, let the computer play, or end."""
        computer = self.rooms.computer
        async with room.lock:
            check_open(room)
            absent = computer.absent_seat(room)
            if connection.seat is None or absent is None or absent == connection.seat:
                raise Refusal("not_offered", "nobody is away long enough during their turn")
            self.rooms.news.require_peers()
            if message.choice == "wait":
                computer.keep_waiting(room, absent)
            elif message.choice == "computer":
                level = message.level or levels(room.game.name)[0]
                check_computer(room.game.name, room.game.seats, level)
                store_or_refuse(self.rooms.store.set_computer, room.id, absent, level)
                room.seats[absent].computer = level  # type: ignore[union-attr]
                logger.info("computer plays an absent seat", extra={"room_id": room.id})
                self._changed(room)
            else:
                await self._end_abandoned(room, connection.seat)

    async def _end_abandoned(self, room: LiveRoom, by: int) -> None:
        rooms = self.rooms
        result = abandoned(by)
        ended = store_or_refuse(
            rooms.store.abandon_match, room.match.id, result.to_json(), rooms.clock()
        )
        if not ended:  # another process moved the match on first
            await rooms.cache.catch_up(room)
            rooms.news.changed(room)
            raise Refusal("stale", "the match moved on; here is the current state")
        room.match.status, room.match.result = "finished", result
        logger.info("match abandoned", extra={"room_id": room.id, "match_id": room.match.id})
        self._changed(room)

    def _changed(self, room: LiveRoom) -> None:
        room.last_active = self.rooms.clock()
        self.rooms.news.changed(room)
        self.rooms.news.announce({"t": "seat", "room": room.id})
        self.rooms.computer.update(room)


def store_or_refuse(write: Callable[..., Any], *args: Any) -> Any:
    try:
        return write(*args)
    except SQLAlchemyError:
        logger.exception("storing a seat change failed", extra={"room_id": args[0]})
        raise Refusal("unavailable", "the choice could not be saved; try again") from None


def check_computer(game: str, seats: int, level: str) -> None:
    if seats < 2:
        raise Refusal("no_free_seat", f"{game} is played alone: there is no seat for a computer")
    if level not in levels(game):
        known = ", ".join(levels(game))
        raise Refusal("unknown_level", f"no computer player {level!r} for {game}; known: {known}")


def computer_seat(room_id: str, seat: int, level: str) -> Seat:
    return Seat(room_id=room_id, seat=seat, name=COMPUTER_NAME, token_hash=COMPUTER, computer=level)
