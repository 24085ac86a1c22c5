"""Turn-based rooms: each move may take days. Whose turn it is since when, and its deadline,
come from stored times (the match's start, its last action, an opponent's choice to keep
waiting: ``LiveRoom.turn_started``), so a restart or another process finds the same.

A periodic sweep (app/main.py) looks at every open turn-based room with a running match
and a time per move: a seat whose time ran out is offered to the other player (the
takeover offer, ``Takeovers.timed_out``), and once a quarter of the move's time is left,
the room-events hub hears ``reminder_due(room, seat)``, once per turn over every process
(the room row remembers the turn it reminded of).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from app.storage.models import ROOMS
from app.storage.repositories import Store
from app.table.cache import RoomCache
from app.table.events import ReminderDue, RoomEvents
from app.table.features import Feature
from app.table.live import LiveRoom, iso
from app.table.refusals import Refusal, RoomNotFound
from app.table.takeover import Takeovers

logger = logging.getLogger(__name__)

MOVE_DAYS = (1, 2, 3, 7)  # the times per move a turn-based room may have (or none)


@dataclass(frozen=True)
class Turn:
    """The seat that must move in a turn-based room, since when, and until when (None:
    no time limit)."""

    seat: int
    since: datetime
    deadline: datetime | None


def turn_of(room: LiveRoom) -> Turn | None:
    """The turn of a turn-based room with a running match; else None."""
    seat, since = room.to_move(), room.turn_started
    if not room.turn_based or seat is None or since is None:
        return None
    return Turn(seat, since, room.deadline())


def check_turn_based(seats: int, turn_based: bool, move_days: int | None) -> None:
    """Only a game of several seats can be turn-based; a time per move only then."""
    if turn_based and seats < 2:
        raise Refusal("bad_option", "a game played alone has no turns to wait for")
    if move_days is not None and not turn_based:
        raise Refusal("bad_option", "a time per move needs a turn-based room")
    if move_days is not None and move_days not in MOVE_DAYS:
        allowed = ", ".join(map(str, MOVE_DAYS))
        raise Refusal("bad_option", f"a move may take {allowed} days, or have no limit")


def reminder_due(room: LiveRoom, now: datetime) -> str | None:
    """The turn (as a key) to remind a person of when a quarter of its time or less is left."""
    turn = turn_of(room)
    if turn is None or turn.deadline is None or room.move_days is None:
        return None
    if room.played_by_computer(turn.seat):  # the computer needs no reminder
        return None
    left = turn.deadline - now
    if not timedelta(0) < left <= timedelta(days=room.move_days) / 4:
        return None
    return f"{room.match.id}:{room.match.version}:{int(turn.since.timestamp())}"


class Turns(Feature):
    stores = (ROOMS,)  # (the reminder sent for a turn)

    def __init__(
        self,
        store: Store,
        cache: RoomCache,
        events: RoomEvents,
        takeovers: Takeovers,
        clock: Callable[[], datetime],
    ) -> None:
        self.store = store
        self.cache = cache
        self.events = events
        self.takeovers = takeovers
        self.clock = clock

    def state(self, room: LiveRoom) -> dict[str, Any]:
        """In a turn-based room: whose turn, since when, until when, and the server's clock
        now (a phone's own may be off by hours)."""
        turn = room.turn()
        return {"turn": turn and {**turn, "now": iso(self.clock())}}

    async def turn(self, room_id: str) -> Turn | None:
        """For the push helper: which seat of the room must move, and its deadline."""
        try:
            room = await self.cache.load(room_id)
        except RoomNotFound:
            return None
        return turn_of(room)

    async def sweep(self) -> None:
        """Offer the seats whose time ran out, and remind of a quarter left."""
        for room_id in await self.store.off_loop(self.store.running_turn_room_ids):
            try:
                room = await self.cache.load(room_id)
            except RoomNotFound:
                continue
            async with room.lock:
                if room.closed:
                    continue
                self.takeovers.watch(room)
                due = reminder_due(room, self.clock())
                seat = room.to_move()
            if due is None or seat is None:
                continue
            if await self.store.off_loop(self.store.claim_reminder, room.id, due):
                logger.info("reminding of a turn", extra={"room_id": room.id, "seat": seat})
                self.events.publish(ReminderDue(room, seat))
