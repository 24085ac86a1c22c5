"""The rooms this process holds in memory: each rebuilt from the database on first use,
caught up when another process stored first, and closed after a time without activity."""

from __future__ import annotations

import asyncio
import logging
import re
import time
import weakref
from datetime import datetime, timedelta

from app.messaging import Broadcaster
from app.observability import MATCHES_IN_PROGRESS, ROOMS_OPEN
from app.protocol import CLOSE_ROOM_CLOSED
from app.storage.repositories import LoadedRoom, Store
from app.table.events import Closed, Held, Read, RoomEvents
from app.table.live import LiveRoom, rebuild
from app.table.refusals import Refusal, RoomNotFound

logger = logging.getLogger(__name__)

# The database learns of activity at most this often (the hot path stays one INSERT).
STORE_ACTIVITY_EVERY = timedelta(minutes=1)

# What token_urlsafe makes; anything else is no room (and a NUL is an error on PostgreSQL).
ROOM_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")

# Every cache of this process (tests run several apps in one): the gauges add them up.
CACHES: weakref.WeakSet[RoomCache] = weakref.WeakSet()
ROOMS_OPEN.set_function(lambda: sum(len(cache.rooms) for cache in CACHES))
MATCHES_IN_PROGRESS.set_function(
    lambda: sum(room.match.status == "playing" for cache in CACHES for room in cache.rooms.values())
)


class RoomCache:
    def __init__(
        self, store: Store, broadcaster: Broadcaster, events: RoomEvents, idle_minutes: int
    ) -> None:
        self.store = store
        self.broadcaster = broadcaster
        self.events = events  # told of each room held, read and closed here
        self.idle_minutes = idle_minutes
        self.rooms: dict[str, LiveRoom] = {}
        self._loading: dict[str, asyncio.Future[LoadedRoom | None]] = {}
        # Reads that a close overtook: what they found is no longer the room.
        self._overtaken: weakref.WeakSet[asyncio.Future[LoadedRoom | None]] = weakref.WeakSet()
        CACHES.add(self)

    def add(self, room: LiveRoom) -> None:
        """A room created here."""
        self.rooms[room.id] = room
        self.events.publish(Held(room))

    def held(self, room_id: str) -> LiveRoom | None:
        """The room if this process holds it in memory (never loads it)."""
        return self.rooms.get(room_id)

    def held_rooms(self) -> list[LiveRoom]:
        """Every room this process holds, as a list (waiting on each room's lock may let
        rooms open or close meanwhile)."""
        return list(self.rooms.values())

    def get(self, room_id: str) -> LiveRoom:
        """The live room, rebuilt from the database on first access (from a thread, or
        where waiting on the database is fine; the event loop uses ``load``)."""
        room = self.rooms.get(room_id)
        if room is not None and room.followed:
            return room
        loaded = self.store.load_room(room_id) if ROOM_ID.fullmatch(room_id) else None
        if room is not None:  # not followed: the room as stored, never changing the loop's own
            if loaded is None:
                raise RoomNotFound(room_id)
            return rebuild(loaded)
        return self._loaded(room_id, loaded)

    async def load(self, room_id: str) -> LiveRoom:
        """``get`` for the event loop: the database read runs off the loop, once however
        many sockets and requests ask for the room at the same moment."""
        room = self.rooms.get(room_id)
        if room is not None:
            if not room.followed:
                await self._current(room)
            return room
        if not ROOM_ID.fullmatch(room_id):
            raise RoomNotFound(room_id)
        loading = self._loading.get(room_id)
        if loading is None:
            loading = self._loading[room_id] = asyncio.ensure_future(
                self.store.off_loop(self.store.load_room, room_id)
            )
            loading.add_done_callback(lambda done: self._forget_loading(room_id, done))
        loaded = await asyncio.shield(loading)
        if loading in self._overtaken:
            raise RoomNotFound(room_id)
        return self.rooms.get(room_id) or self._loaded(room_id, loaded)

    def _forget_loading(self, room_id: str, done: asyncio.Future[LoadedRoom | None]) -> None:
        if self._loading.get(room_id) is done:
            del self._loading[room_id]

    def _loaded(self, room_id: str, loaded: LoadedRoom | None) -> LiveRoom:
        if loaded is None:
            raise RoomNotFound(room_id)
        room = self.rooms[room_id] = rebuild(loaded)
        logger.info("room loaded", extra={"room_id": room_id, "version": room.match.version})
        self.events.publish(Held(room))
        self.events.publish(Read(room))
        return room

    async def _current(self, room: LiveRoom) -> None:
        """A room this process does not follow, caught up before anyone reads it."""
        async with room.lock:
            if room.closed or room.followed:
                return
            try:
                await self.catch_up(room)
            except Refusal:
                raise RoomNotFound(room.id) from None

    async def catch_up(self, room: LiveRoom) -> None:
        """Take the match, seats and tally from the database (the source of truth)."""
        loaded = await self.store.off_loop(self.store.load_room, room.id)
        if loaded is None:
            raise Refusal("unknown_room", "this room was closed")
        self._take(room, loaded)

    def _take(self, room: LiveRoom, loaded: LoadedRoom) -> None:
        fresh = rebuild(loaded)
        moved = (fresh.match.id, fresh.match.version) != (room.match.id, room.match.version)
        room.match, room.seats, room.rematch = fresh.match, fresh.seats, fresh.rematch
        room.wins, room.draws, room.finished = fresh.wins, fresh.draws, fresh.finished
        room.turn_started = fresh.turn_started  # a start or a wait stored by another process
        room.pause = fresh.pause
        if moved:  # the wait for an absent mover starts now, as after a replayed move
            room.turn_since = time.monotonic()
        self.events.publish(Read(room))
        logger.info("room caught up", extra={"room_id": room.id, "version": room.match.version})

    async def close_idle(self, now: datetime) -> list[str]:
        """Close every room without activity for idle_minutes; return their ids."""
        cutoff = now - timedelta(minutes=self.idle_minutes)
        idle = set(self.store.idle_room_ids(cutoff))
        for room in self.rooms.values():
            if room.last_active < cutoff and not room.keeps_open():
                idle.add(room.id)
            else:
                idle.discard(room.id)
        for room_id in sorted(idle):
            await self._close(room_id, now)
        return sorted(idle)

    async def close_idle_shared(self, now: datetime) -> list[str]:
        """With several processes: the database's last activity decides, and of the
        processes that find a room idle, only the one whose UPDATE closes it closes it
        (the others hear of it over Redis). Activity only this process saw (sockets that
        connected but did not act) is stored first, at most once a minute per room."""
        cutoff = now - timedelta(minutes=self.idle_minutes)
        for room in list(self.rooms.values()):
            if room.last_active - room.stored_active >= STORE_ACTIVITY_EVERY:
                self.store.touch_room(room.id, room.last_active)
                room.stored_active = room.last_active
        closed = []
        for room_id in sorted(self.store.idle_room_ids(cutoff)):
            if self.store.close_room(room_id, now, idle_before=cutoff):
                await self.close_here(room_id)
                closed.append(room_id)
        return closed

    async def close_here(self, room_id: str, reason: str | None = None) -> None:
        """Close the room's sockets of this process (the database closed it already)."""
        room = self.rooms.pop(room_id, None)
        if (loading := self._loading.pop(room_id, None)) is not None:
            self._overtaken.add(loading)
        if room is not None:
            async with room.lock:
                room.closed = True
        self.events.publish(Closed(room_id))
        idle = f"room closed after {self.idle_minutes} minutes without activity"
        self.broadcaster.close_room(room_id, CLOSE_ROOM_CLOSED, reason or idle)
        logger.info("room closed", extra={"room_id": room_id, "reason": reason or "idle"})

    async def _close(self, room_id: str, now: datetime) -> None:
        self.store.close_room(room_id, now)
        await self.close_here(room_id)

    def clear(self) -> None:
        """Drop the live rooms (their state is in the database)."""
        self.rooms.clear()
