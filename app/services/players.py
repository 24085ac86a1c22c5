"""People at a room: taking a seat (joining), and their sockets connecting and going away.

A seat belongs to the player token that joined it; a socket without a seat watches. A seat
is stored before anyone hears of it; presence (which seats have a socket open, on any
process) is told whenever a seat's first socket comes or its last one goes.
"""

from __future__ import annotations

import logging
import time
from datetime import datetime
from typing import TYPE_CHECKING

from app.messaging import Connection
from app.services import texts
from app.services.live import Holder, LiveRoom, check_open
from app.storage.models import Seat
from app.storage.repositories import SeatTaken

if TYPE_CHECKING:
    from app.services.rooms import RoomService

logger = logging.getLogger(__name__)


class Players:
    def __init__(self, rooms: RoomService) -> None:
        self.rooms = rooms

    async def join(self, room_id: str, name: str, token_hash: str) -> int | None:
        """The seat this player holds, else a free seat, else None (a spectator)."""
        rooms = self.rooms
        room = await rooms.open_room(room_id)
        async with room.lock:
            check_open(room)
            # With several processes, another one may have seated someone: the database
            # knows (and a seat lost in a race sends us to the next free one).
            for _attempt in range(room.game.seats + 1):
                if rooms.relay is not None:
                    await rooms.cache.catch_up(room)
                held = room.seat_of(token_hash)
                if held is not None:
                    return held
                free = room.free_seats()
                if not free:
                    return None
                if await self._take_seat(room, free, name, token_hash):
                    return free[0]
                if rooms.relay is None:
                    return None
            return None

    async def _take_seat(self, room: LiveRoom, free: list[int], name: str, token_hash: str) -> bool:
        rooms = self.rooms
        now = rooms.clock()
        starts = len(free) == 1
        seat = Seat(room_id=room.id, seat=free[0], name=name, token_hash=token_hash)
        try:
            await rooms.store.off_loop(
                rooms.store.take_seat, seat, room.match.id if starts else None, now
            )
        except SeatTaken:
            logger.warning("seat taken elsewhere", extra={"room_id": room.id, "seat": free[0]})
            return False
        room.seats[free[0]] = Holder(name, token_hash)
        seated(room, free[0], starts, now)
        self._seat_watchers(room, token_hash, free[0])
        rooms.news.presence(room)
        rooms.news.state(room)
        rooms.news.announce({"t": "seat", "room": room.id})
        rooms.news.online(room)
        rooms.computer.update(room)
        return True

    def _seat_watchers(self, room: LiveRoom, token_hash: str, seat: int) -> None:
        """Sockets this player opened before joining become the seat's."""
        broadcaster = self.rooms.broadcaster
        for connection in broadcaster.connections(room.id, None):
            if connection.token_hash == token_hash:
                broadcaster.reseat(room.id, connection, seat)
                room.online[seat] += 1

    async def connect(self, room: LiveRoom, connection: Connection) -> None:
        """Seat the connection by its token (or not: a spectator) and send a full sync."""
        rooms = self.rooms
        async with room.lock:
            check_open(room)
            connection.seat = room.seat_of(connection.token_hash)
            if connection.seat is None and connection.token_hash and rooms.relay is not None:
                # Seated through another process a moment ago? The database knows.
                await rooms.cache.catch_up(room)
                connection.seat = room.seat_of(connection.token_hash)
            rooms.broadcaster.subscribe(room.id, connection)
            room.last_active = rooms.clock()
            if connection.seat is not None:
                room.online[connection.seat] += 1
                rooms.seats.reclaim(room, connection.seat)
            connection.send(texts.state_texts(room, [connection.seat])[connection.seat])
            if room.id in rooms.computer.offered:
                connection.send(rooms.computer.offer_text(room))
            if connection.seat is not None and room.online[connection.seat] == 1:
                rooms.news.presence(room)
                rooms.news.online(room)
            # After a restart too: the computer to move thinks; an absent seat is watched.
            rooms.computer.update(room)

    async def disconnect(self, room: LiveRoom, connection: Connection) -> None:
        """A dropped seat keeps the seat; the others learn that it went away."""
        rooms = self.rooms
        rooms.broadcaster.unsubscribe(room.id, connection)
        if connection.seat is None or room.closed:
            return
        async with room.lock:
            room.online[connection.seat] -= 1
            if room.online[connection.seat] == 0:
                rooms.news.presence(room)
                rooms.news.online(room)
                rooms.computer.update(room, think=False)


def seated(room: LiveRoom, seat: int, starts: bool, now: datetime) -> None:
    """A seat was taken (by a person or the computer); the last free one starts the match."""
    room.last_active = room.stored_active = now
    if starts:
        room.match.status = "playing"
        room.turn_since = time.monotonic()
    logger.info("seat taken", extra={"room_id": room.id, "seat": seat, "match_id": room.match.id})
