"""Pausing a running match: a seat asks, and once every person seated has asked (the
computer always agrees, so a person alone pauses at once) the match is paused: no seat may
act (the veto), the computer does not think, a turn-based room's clock stands and no
absent player is offered for takeover. Either player resumes; a turn-based turn then gets
the paused time back (as the time its turn started).

A request is open while the match stays at the version it was asked at: a move closes it.
Each change is stored with the room (a restart and the other processes find it) before it
is published.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import replace
from datetime import datetime
from typing import Any

from app.messaging import Connection
from app.protocol import PauseRequest, Resume
from app.storage.models import ROOMS
from app.storage.repositories import Store
from app.table.events import PauseChanged, RoomEvents
from app.table.features import Feature, seat_of
from app.table.live import LiveRoom, Pause, check_open
from app.table.refusals import Refusal, store_or_refuse

logger = logging.getLogger(__name__)


def standing_pause(room: LiveRoom) -> Pause | None:
    """The running match's pause, or its request still open (asked at this version)."""
    pause, match = room.pause, room.match
    if pause is None or match.status != "playing" or pause.match_id != match.id:
        return None
    if pause.since is None and pause.version != match.version:
        return None
    return pause


def people(room: LiveRoom) -> set[int]:
    """The seats whose person must agree (the computer, also at an absent person's seat,
    always does)."""
    return {seat for seat, holder in enumerate(room.seats) if holder and holder.computer is None}


class Pauses(Feature):
    messages = (PauseRequest, Resume)
    stores = (ROOMS,)  # (the pause; a turn-based turn's start, moved on by the paused time)

    def __init__(self, store: Store, events: RoomEvents, clock: Callable[[], datetime]) -> None:
        self.store = store
        self.events = events
        self.clock = clock

    async def handle(
        self, room: LiveRoom, connection: Connection, message: PauseRequest | Resume
    ) -> None:
        async with room.lock:
            check_open(room)
            seat = seat_of(connection, "pause or resume a match")
            self.events.check_ready()
            if isinstance(message, PauseRequest):
                self.ask(room, seat)
            else:
                self.resume(room)
            room.last_active = self.clock()
            self.events.publish(PauseChanged(room))

    def state(self, room: LiveRoom) -> dict[str, Any]:
        """Who asked for a pause and whether the match is paused (null: no match runs)."""
        if room.match.status != "playing":
            return {"pause": None}
        pause = standing_pause(room)
        asked = sorted(pause.asked) if pause else []
        return {"pause": {"asked_by": asked, "paused": room.paused()}}

    def veto(self, room: LiveRoom, seat: int) -> Refusal | None:
        if room.paused():
            return Refusal("paused", "the match is paused; resume it first")
        return None

    def ask(self, room: LiveRoom, seat: int) -> None:
        if room.match.status != "playing":
            raise Refusal("illegal", "only a running match can be paused")
        if room.paused():
            raise Refusal("paused", "the match is paused already")
        standing = standing_pause(room) or Pause(room.match.id, room.match.version)
        pause = replace(standing, asked=standing.asked | {seat})
        if people(room) <= pause.asked:
            pause.since = self.clock()
        store_or_refuse(room.id, self.store.store_pause, room.id, pause.to_json())
        room.pause = pause
        if pause.since is not None:
            logger.info("match paused", extra={"room_id": room.id, "match_id": room.match.id})

    def resume(self, room: LiveRoom) -> None:
        pause = room.pause
        if pause is None or pause.since is None or not room.paused():
            raise Refusal("not_paused", "the match is not paused")
        waited_at = None  # a turn-based turn gets the paused time back
        if room.turn_based and room.turn_started is not None:
            waited_at = room.turn_started + (self.clock() - pause.since)
        store_or_refuse(room.id, self.store.store_pause, room.id, None, waited_at)
        room.pause = None
        room.turn_started = waited_at or room.turn_started
        room.turn_since = time.monotonic()  # an absent player's wait starts again
        logger.info("match resumed", extra={"room_id": room.id, "match_id": room.match.id})
