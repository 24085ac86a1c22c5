"""Rematches: once a match is over, each seat may ask for the next one. A request is stored
(a restart and the other processes keep it); when every person has asked (the computer
always agrees), the room's next match starts, with the options the game chooses for it
(for example who starts)."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from datetime import datetime
from typing import Any

from sqlalchemy.exc import IntegrityError, SQLAlchemyError

from app.messaging import Connection
from app.protocol import RematchRequest
from app.storage.models import MATCHES, REMATCH_REQUESTS, Match
from app.storage.repositories import Store
from app.table.cache import RoomCache
from app.table.events import RematchAsked, RematchStarted, RoomEvents
from app.table.features import Feature, seat_of
from app.table.live import LiveMatch, LiveRoom, check_open, new_match
from app.table.refusals import Refusal

# Told of every match dealt (its id, game and first state): MatchService.foresee.
OnDeal = Callable[[int, str, Any], None]

logger = logging.getLogger(__name__)


class Rematches(Feature):
    messages = (RematchRequest,)
    stores = (REMATCH_REQUESTS, MATCHES)

    def __init__(
        self,
        store: Store,
        cache: RoomCache,
        events: RoomEvents,
        clock: Callable[[], datetime],
        on_deal: OnDeal,
        one_match_only: Callable[[str], bool],
    ) -> None:
        self.store = store
        self.cache = cache
        self.events = events
        self.clock = clock
        self.on_deal = on_deal
        # Rooms of one match only, a daily deal's (DailyCalendar.is_daily_room: the deal is
        # the day's).
        self.one_match_only = one_match_only

    async def handle(self, room: LiveRoom, connection: Connection, message: RematchRequest) -> None:
        await self.ask(room, connection)

    def state(self, room: LiveRoom) -> dict[str, Any]:
        """Who asked for the next match, once the match is over."""
        over = room.match.status == "finished"
        return {"rematch": {"requested_by": sorted(room.rematch)} if over else None}

    async def ask(self, room: LiveRoom, connection: Connection) -> None:
        async with room.lock:
            check_open(room)
            seat = seat_of(connection, "ask for a rematch")
            self.events.check_ready()
            if room.match.status != "finished":
                raise Refusal("illegal", "a rematch can be asked for once the match is over")
            if self.one_match_only(room.id):
                raise Refusal("illegal", "a daily deal is played once: its room has no rematch")
            computers = {at for at, h in enumerate(room.seats) if h and h.is_computer}
            # Dealt now, stored only if this request is the last one (in the same commit).
            row, state = self._next_match(room)
            try:
                asked, started = self.store.request_rematch(
                    room.match.id, seat, computers, room.game.seats, row
                )
            except IntegrityError:
                # Another process started this rematch first (the room's match numbers are unique).
                await self.cache.catch_up(room)
            except SQLAlchemyError:
                logger.exception("storing a rematch request failed", extra={"room_id": room.id})
                raise Refusal("unavailable", "the request could not be saved; try again") from None
            else:
                room.last_active = self.clock()
                if not started:
                    room.rematch.update(asked)
                    self.events.publish(RematchAsked(room))
                    return
                self._started(room, row, state)
            self.events.publish(RematchStarted(room))

    def _next_match(self, room: LiveRoom) -> tuple[Match, Any]:
        """The room's next match, with the options the game chooses for it."""
        game, previous = room.game, room.match
        options = game.rematch_options(room.options, previous.result, previous.first_seat)
        return new_match(room.id, game, options, previous.number + 1, "playing", self.clock())

    def _started(self, room: LiveRoom, row: Match, state: Any) -> None:
        room.match = LiveMatch.of(row, state)
        self.on_deal(row.id, room.game.name, state)
        room.turn_since = time.monotonic()
        room.turn_started = row.started_at
        room.rematch.clear()
        logger.info(
            "rematch started",
            extra={"room_id": room.id, "match_id": row.id, "first_seat": row.first_seat},
        )
