"""A match ended by a player's choice rather than by its rules:

- resigned: a seated player gives up at any point of a running match; the other seat wins
  (alone at the table, the player loses). It counts in the room's tally like any win;
- aborted: a seated player calls the match off while each seat has made fewer than two
  moves (``LiveRoom.abortable``): no result, nothing in the tally;
- abandoned: another player ended it for an absent one (``seats``, the takeover answer).

The engine knows none of this: the match keeps its actions, and its stored result says
who ended it and how. Like a match's last action, the end is stored first (only while the
match runs: of two ends at once, one wins), then published on the room-events hub (the
other processes hear ``SeatsChanged`` and take the match from the database).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime
from typing import Any

from app.messaging import Connection
from app.protocol import Abort, Resign
from app.storage.models import MATCHES
from app.storage.repositories import Finish, Store
from app.table.cache import RoomCache
from app.table.events import CaughtUp, EndedByPlayer, RoomEvents, SeatsChanged
from app.table.features import Feature
from app.table.live import Ending, LiveRoom, aborted, check_open, resigned
from app.table.refusals import Refusal, store_or_refuse
from engine import Outcome

logger = logging.getLogger(__name__)

# How each ending is stored; a resignation counts in the tally as a finished match does.
STORED_STATUS = {
    Ending.RESIGNED: "finished",
    Ending.ABORTED: "aborted",
    Ending.ABANDONED: "abandoned",
}


class Endings(Feature):
    messages = (Resign, Abort)
    stores = (MATCHES,)

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

    async def handle(self, room: LiveRoom, connection: Connection, message: Resign | Abort) -> None:
        if isinstance(message, Resign):
            await self.resign(room, connection.seat)
        else:
            await self.abort(room, connection.seat)

    def state(self, room: LiveRoom) -> dict[str, Any]:
        return {"abortable": room.abortable()}

    async def resign(self, room: LiveRoom, seat: int | None) -> None:
        async with room.lock:
            mover = await self._check_running(room, seat, "resign")
            await self.end(room, resigned(mover, room.game.seats), mover)

    async def abort(self, room: LiveRoom, seat: int | None) -> None:
        async with room.lock:
            mover = await self._check_running(room, seat, "abort")
            if not room.abortable():
                raise Refusal(
                    "illegal",
                    "a match can be aborted only before each player has made two moves; "
                    "resign instead",
                )
            await self.end(room, aborted(mover), mover)

    async def _check_running(self, room: LiveRoom, seat: int | None, choice: str) -> int:
        """The seat, once the match is known to be running (with several processes, as the
        database has it)."""
        check_open(room)
        if seat is None:
            raise Refusal("not_seated", f"spectators cannot {choice}; only a player can")
        self.events.check_ready()
        if self.shared:
            await self.cache.catch_up(room)
        if room.match.status == "finished":
            raise Refusal("game_over", "the match is over")
        if room.match.status == "waiting":
            raise Refusal("waiting", "the match has not started; leave the room instead")
        return seat

    async def end(self, room: LiveRoom, result: Outcome, by: int) -> None:
        """Store the end of the running match that seat ``by`` chose, then tell everyone
        (under the room's lock)."""
        now = self.clock()
        status = STORED_STATUS[Ending(result.reason)]
        finish = Finish(result.to_json(), result.winner, now)
        if not store_or_refuse(room.id, self.store.end_match, room.match.id, status, finish):
            # Another process ended the match first (its last action, or a player's choice).
            await self.cache.catch_up(room)
            self.events.publish(CaughtUp(room))
            raise Refusal("stale", "the match moved on; here is the current state")
        room.match.status, room.match.result = "finished", result
        if status == "finished":
            room.count_finished(result.winner)
        room.last_active = now
        logger.info(
            "match ended by a player",
            extra={"room_id": room.id, "match_id": room.match.id, "reason": result.reason},
        )
        self.events.publish(SeatsChanged(room))
        self.events.publish(EndedByPlayer(room, by))
