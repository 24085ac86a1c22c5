"""People at a room: taking a seat (joining), their sockets connecting and going away, and
taking their seat back from the computer that played it while they were away.

A seat belongs to the player token that joined it; a socket without a seat watches. A seat
is stored before anyone hears of it; presence (which seats have a socket open, on any
process) is told whenever a seat's first socket comes or its last one goes.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from datetime import datetime
from typing import Protocol

from app.messaging import Broadcaster, Connection
from app.storage.models import Seat
from app.storage.repositories import SeatTaken, Store
from app.table import texts
from app.table.cache import RoomCache
from app.table.events import (
    CaughtUp,
    Connected,
    Disconnected,
    RoomEvents,
    Seated,
    SeatsChanged,
    SeatTakenBack,
)
from app.table.features import Features
from app.table.live import Holder, LiveRoom, check_open
from app.table.refusals import Refusal, store_or_refuse

logger = logging.getLogger(__name__)


class Follower(Protocol):
    """With several processes, a room is heard of while a socket of it is here
    (app/cluster/peers.py)."""

    async def follow(self, room: LiveRoom) -> bool:
        """True when it began to follow the room: the room was just read from the database."""

    def unfollow(self, room: LiveRoom) -> None: ...


class Players:
    def __init__(
        self,
        store: Store,
        cache: RoomCache,
        broadcaster: Broadcaster,
        events: RoomEvents,
        clock: Callable[[], datetime],
        features: Features,
        open_offer: Callable[[LiveRoom], str | None],
        follower: Follower | None,
    ) -> None:
        self.store = store
        self.cache = cache
        self.broadcaster = broadcaster
        self.events = events
        self.clock = clock
        self.features = features  # their keys in each state
        self.open_offer = open_offer  # the takeover offer a joining socket hears, if any
        # Several processes (REDIS_URL): a room is heard of while a socket of it is here.
        self.follower = follower
        self.shared = follower is not None

    async def join(self, room: LiveRoom, name: str, player_id: str) -> int | None:
        """The seat this player holds, else a free seat, else None (a spectator)."""
        async with room.lock:
            check_open(room)
            # With several processes, another one may have seated someone: the database
            # knows (and a seat lost in a race sends us to the next free one).
            for _attempt in range(room.game.seats + 1):
                if self.shared:
                    await self.cache.catch_up(room)
                held = room.seat_of(player_id)
                if held is not None:
                    return held
                free = room.free_seats()
                if not free:
                    return None
                if await self._take_seat(room, free, name, player_id):
                    return free[0]
                if not self.shared:
                    return None
            return None

    async def _take_seat(self, room: LiveRoom, free: list[int], name: str, player_id: str) -> bool:
        now = self.clock()
        starts = len(free) == 1
        seat = Seat(room_id=room.id, seat=free[0], name=name, player_id=player_id)
        try:
            await self.store.off_loop(
                self.store.take_seat, seat, room.match.id if starts else None, now
            )
        except SeatTaken:
            logger.warning("seat taken elsewhere", extra={"room_id": room.id, "seat": free[0]})
            return False
        room.seats[free[0]] = Holder(name, player_id)
        seated(room, free[0], starts, now)
        self._seat_watchers(room, player_id, free[0])
        self.events.publish(Seated(room))
        return True

    def _seat_watchers(self, room: LiveRoom, player_id: str, seat: int) -> None:
        """Sockets this player opened before joining become the seat's."""
        broadcaster = self.broadcaster
        for connection in broadcaster.connections(room.id, None):
            if connection.player_id == player_id:
                broadcaster.reseat(room.id, connection, seat)
                room.online[seat] += 1

    async def leave(self, room: LiveRoom, player_id: str | None) -> bool:
        """A seated player gives up their seat while the room waits for players; their
        sockets watch from then on. True when that left no person seated: the room is
        closed (in the database and here; the caller closes its sockets)."""
        async with room.lock:
            check_open(room)
            if self.shared:
                await self.cache.catch_up(room)
            seat = room.seat_of(player_id)
            if seat is None:
                raise Refusal("not_seated", "only a player of this room can leave it")
            if room.match.status != "waiting":
                raise Refusal("illegal", "the match has started: resign or abort it instead")
            self.events.check_ready()
            now = self.clock()
            if not store_or_refuse(room.id, self.store.leave_seat, room.id, seat, now):
                await self.cache.catch_up(room)
                self.events.publish(CaughtUp(room))
                raise Refusal("illegal", "the match started meanwhile")
            room.seats[seat] = None
            room.last_active = room.stored_active = now
            unseat_leavers(room, self.broadcaster)
            logger.info("seat left", extra={"room_id": room.id, "seat": seat})
            self.events.publish(SeatsChanged(room))
            if any(holder is not None and not holder.is_computer for holder in room.seats):
                return False
            store_or_refuse(room.id, self.store.close_room, room.id, now)
            room.closed = True
            return True

    async def connect(self, room: LiveRoom, connection: Connection) -> None:
        """Seat the connection by its token (or not: a spectator) and send a full sync."""
        async with room.lock:
            check_open(room)
            # The room's first socket here: hear of it (the room is read afresh then).
            fresh = self.follower is not None and await self.follower.follow(room)
            connection.seat = room.seat_of(connection.player_id)
            if connection.seat is None and connection.player_id and self.shared and not fresh:
                # Seated through another process a moment ago? The database knows.
                await self.cache.catch_up(room)
                connection.seat = room.seat_of(connection.player_id)
            self.broadcaster.subscribe(room.id, connection)
            room.last_active = self.clock()
            if connection.seat is not None:
                room.online[connection.seat] += 1
                self._take_back(room, connection.seat)
            connection.send(
                texts.state_texts(room, [connection.seat], self.features)[connection.seat]
            )
            offer = self.open_offer(room)
            if offer is not None:
                connection.send(offer)
            first = connection.seat is not None and room.online[connection.seat] == 1
            self.events.publish(Connected(room, first))

    def _take_back(self, room: LiveRoom, seat: int) -> None:
        """A person back at a seat the computer played for them takes it back."""
        holder = room.seats[seat]
        if holder is None or holder.is_computer or holder.computer is None:
            return
        self.store.set_computer(room.id, seat, None)
        holder.computer = None
        logger.info("seat taken back from the computer", extra={"room_id": room.id, "seat": seat})
        self.events.publish(SeatTakenBack(room))

    async def disconnect(self, room: LiveRoom, connection: Connection) -> None:
        """A dropped seat keeps the seat; the others learn that it went away."""
        self.broadcaster.unsubscribe(room.id, connection)
        if room.closed:
            return
        async with room.lock:
            if self.follower is not None and not self.broadcaster.audiences(room.id):
                self.follower.unfollow(room)  # the room's last socket here
            if connection.seat is None:
                return
            room.online[connection.seat] -= 1
            if room.online[connection.seat] == 0:
                self.events.publish(Disconnected(room))


def unseat_leavers(room: LiveRoom, broadcaster: Broadcaster) -> None:
    """This process's sockets of a seat their player left watch from now on."""
    for seat, holder in enumerate(room.seats):
        for connection in broadcaster.connections(room.id, seat):
            if holder is None or connection.player_id != holder.player_id:
                broadcaster.reseat(room.id, connection, None)
                room.online[seat] -= 1


def seated(room: LiveRoom, seat: int, starts: bool, now: datetime) -> None:
    """A seat was taken (by a person or the computer); the last free one starts the match."""
    room.last_active = room.stored_active = now
    if starts:
        room.match.status = "playing"
        room.turn_since = time.monotonic()
        room.turn_started = now
    logger.info("seat taken", extra={"room_id": room.id, "seat": seat, "match_id": room.match.id})
