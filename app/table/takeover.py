"""An absent player: when the others may take over their seat, and their answer.

When the seat to move belongs to a person with no socket for TAKEOVER_SECONDS of their
turn, and another seat is a person's (someone who could answer), every socket of the room
is told (a ``takeover`` message); the other players may keep waiting, let the computer
play the seat, or end the match as abandoned. A solo game, or a person against the
computer's own seat, has nobody to ask: no offer.

In a turn-based room being away is normal: the offer comes only once the seat's time per
move has run out (``LiveRoom.deadline``, from stored times and the injected clock), and it
is state derived from those alone, so every process finds the same one.

``Takeovers`` hears the room-events hub (under the room's lock) and offers or withdraws;
the computer players (app/computer/players.py) then play a seat given to them.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from datetime import datetime

from app.messaging import Broadcaster, Connection
from app.protocol import TakeoverChoice
from app.settings import Settings
from app.storage.models import ROOMS, SEATS
from app.storage.repositories import Store
from app.table import texts
from app.table.endings import Endings
from app.table.events import (
    Acted,
    ChangedElsewhere,
    Closed,
    Connected,
    Disconnected,
    Event,
    PauseChanged,
    RematchStarted,
    RoomEvents,
    RoomListener,
    Seated,
    SeatsChanged,
    Unfollowed,
)
from app.table.features import Feature
from app.table.live import LiveRoom, abandoned, check_open
from app.table.refusals import Refusal, store_or_refuse
from app.table.seats import check_computer, levels

logger = logging.getLogger(__name__)


class Takeovers(RoomListener, Feature):
    messages = (TakeoverChoice,)
    stores = (SEATS, ROOMS)  # (the computer's level at the seat; when the others waited)

    """A subscriber of the room-events hub: after a change, an absent player's seat is
    offered for takeover or the offer withdrawn; the other players answer here."""

    def __init__(
        self,
        settings: Settings,
        store: Store,
        broadcaster: Broadcaster,
        events: RoomEvents,
        endings: Endings,
        clock: Callable[[], datetime],
    ) -> None:
        self.settings = settings
        self.store = store
        self.broadcaster = broadcaster
        self.events = events
        self.endings = endings
        self.clock = clock  # the wall clock of turn-based deadlines
        self.waits: dict[str, asyncio.Task[None]] = {}  # room id: the wait before an offer
        self.offered: dict[str, int] = {}  # room id: the absent seat offered for takeover
        # room id: the absent mover whose offer is awaited, and when it comes (monotonic)
        self.awaited: dict[str, tuple[int, float]] = {}

    # After every change of a room (the hub's events, under the room's lock)

    def hear(self, event: Event) -> None:
        match event:
            # (ChangedElsewhere: presence is the same sum in every process)
            case (
                Acted()
                | Seated()
                | SeatsChanged()
                | Connected()
                | Disconnected()
                | RematchStarted()
                | PauseChanged()
                | ChangedElsewhere()
            ):
                self.watch(event.room)
            case Unfollowed(room):  # its sockets are gone; the next to join hears afresh
                self._drop_offer(room.id)
            case Closed(room_id):
                self._drop_offer(room_id)

    def watch(self, room: LiveRoom) -> None:
        """Offer or withdraw a takeover. No wait and no offer stand for a room this process
        does not follow (no socket here): they are worked out afresh once a socket joins,
        from the room as stored."""
        if not room.followed:
            self._drop_offer(room.id)
            return
        waiting = self.waits.pop(room.id, None)
        if waiting is not None and waiting is not asyncio.current_task():
            waiting.cancel()
        if room.turn_based:
            ran_out = self.timed_out(room)
            if ran_out != self.offered.get(room.id):
                self._tell_offer(room, ran_out)
            return
        deadline = self._deadline(room)
        absent = room.to_move() if deadline is not None and time.monotonic() >= deadline else None
        awaited = self.awaited.get(room.id)
        seat = room.to_move()
        if deadline is not None and absent is None and seat is not None:
            self.awaited[room.id] = (seat, deadline)
            self.waits[room.id] = asyncio.create_task(self._offer_at(room, deadline))
        else:
            self.awaited.pop(room.id, None)
        if absent != self.offered.get(room.id) or awaited != self.awaited.get(room.id):
            self._tell_offer(room, absent)

    # Who is away

    def absent_seat(self, room: LiveRoom) -> int | None:
        """The person to move when they have been away long enough for a takeover (in a
        turn-based room: when their time ran out)."""
        if room.turn_based:
            return self.timed_out(room)
        deadline = self._deadline(room)
        if deadline is None or time.monotonic() < deadline:
            return None
        return room.to_move()

    def _deadline(self, room: LiveRoom) -> float | None:
        seat = room.to_move()
        now = time.monotonic()
        for other in range(len(room.seats)):  # note who went away, and when
            if room.connected(other):
                room.away_since.pop(other, None)
            else:
                room.away_since.setdefault(other, now)
        if seat is None or room.played_by_computer(seat) or room.connected(seat):
            return None
        if room.paused():  # nobody is waited for
            return None
        if not room.another_person(seat):  # nobody could answer an offer
            return None
        return max(room.away_since[seat], room.turn_since) + self.settings.takeover_seconds

    def timed_out(self, room: LiveRoom) -> int | None:
        """In a turn-based room: the person to move once their time ran out, if another
        person could answer for them."""
        seat, deadline = room.to_move(), room.deadline()
        if seat is None or deadline is None or self.clock() < deadline:
            return None
        if room.played_by_computer(seat) or not room.another_person(seat):
            return None
        return seat

    async def _offer_at(self, room: LiveRoom, deadline: float) -> None:
        await asyncio.sleep(deadline - time.monotonic())
        async with room.lock:
            if not room.closed and room.followed:
                self.watch(room)

    def _tell_offer(self, room: LiveRoom, seat: int | None) -> None:
        if seat is None:
            self.offered.pop(room.id, None)
        else:
            self.offered[room.id] = seat
            logger.info("takeover offered", extra={"room_id": room.id, "seat": seat})
        self.broadcaster.publish_all(room.id, self.offer_text(room))

    def offer_text(self, room: LiveRoom) -> str:
        awaited = self.awaited.get(room.id)
        return texts.takeover_text(
            self.offered.get(room.id),
            levels(room.game.name),
            room.turn_based,
            away=None if awaited is None else (awaited[0], awaited[1] - time.monotonic()),
        )

    def open_offer(self, room: LiveRoom) -> str | None:
        """The takeover offer a socket joining the room hears, if one is open or awaited."""
        return self.offer_text(room) if room.id in self.offered or room.id in self.awaited else None

    # The other players' answer

    async def handle(self, room: LiveRoom, connection: Connection, message: TakeoverChoice) -> None:
        """Another player's answer to a takeover offer: wait, let the computer play, or end."""
        async with room.lock:
            check_open(room)
            absent = self.absent_seat(room)
            if connection.seat is None or absent is None or absent == connection.seat:
                raise Refusal("not_offered", "nobody is away long enough during their turn")
            self.events.check_ready()
            if message.choice == "wait" and room.turn_based:
                self._wait_another_turn(room)
            elif message.choice == "wait":
                room.away_since[absent] = time.monotonic()  # the wait starts again
                self.watch(room)
            elif message.choice == "computer":
                self._let_computer_play(room, absent, message.level)
            else:
                ran_out = absent if room.turn_based else None
                await self.endings.end(room, abandoned(connection.seat, ran_out), connection.seat)

    def _let_computer_play(self, room: LiveRoom, absent: int, level: str | None) -> None:
        level = level or levels(room.game.name)[0]
        check_computer(room.game.name, room.game.seats, level)
        store_or_refuse(room.id, self.store.set_computer, room.id, absent, level)
        holder = room.seats[absent]
        assert holder is not None  # the absent seat is a person's
        holder.computer = level
        logger.info("computer plays an absent seat", extra={"room_id": room.id})
        self._changed(room)

    def _wait_another_turn(self, room: LiveRoom) -> None:
        """Turn-based: the seat to move gets its whole time per move again from now."""
        now = self.clock()
        store_or_refuse(room.id, self.store.wait_longer, room.id, now)
        room.turn_started = now
        logger.info("waiting another turn", extra={"room_id": room.id})
        self._changed(room)

    def _changed(self, room: LiveRoom) -> None:
        room.last_active = self.clock()
        self.events.publish(SeatsChanged(room))

    # Closing

    def _drop_offer(self, room_id: str) -> None:
        waiting = self.waits.pop(room_id, None)
        if waiting is not None and waiting is not asyncio.current_task():
            waiting.cancel()
        self.offered.pop(room_id, None)
        self.awaited.pop(room_id, None)

    async def shutdown(self) -> None:
        waits = list(self.waits.values())
        for task in waits:
            task.cancel()
        for task in waits:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self.waits.clear()
