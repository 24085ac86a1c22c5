"""Rematches: once a match is over, each seat may ask for the next one. A request is stored
(a restart and the other processes keep it); when every person has asked (the computer
always agrees), the room's next match starts, with the options the game chooses for it
(for example who starts)."""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING

from sqlalchemy.exc import IntegrityError, SQLAlchemyError

from app.messaging import Connection
from app.services import texts
from app.services.live import LiveMatch, LiveRoom, check_open, new_match
from app.services.refusals import Refusal

if TYPE_CHECKING:
    from app.services.rooms import RoomService

logger = logging.getLogger(__name__)


class Rematches:
    def __init__(self, rooms: RoomService) -> None:
        self.rooms = rooms

    async def ask(self, room: LiveRoom, connection: Connection) -> None:
        rooms = self.rooms
        async with room.lock:
            check_open(room)
            if connection.seat is None:
                raise Refusal("not_seated", "spectators cannot ask for a rematch")
            rooms.news.require_peers()
            if room.match.status != "finished":
                raise Refusal("illegal", "a rematch can be asked for once the match is over")
            try:
                # Stored, so that a restart keeps it (and other processes see it).
                stored = rooms.store.request_rematch(room.match.id, connection.seat)
            except SQLAlchemyError:
                logger.exception("storing a rematch request failed", extra={"room_id": room.id})
                raise Refusal("unavailable", "the request could not be saved; try again") from None
            room.rematch.update(stored)
            room.last_active = rooms.clock()
            computers = {seat for seat, h in enumerate(room.seats) if h and h.is_computer}
            if len(room.rematch | computers) < room.game.seats:
                rooms.news.to_everyone(room, texts.rematch_text(room))
                rooms.news.announce({"t": "rematch", "room": room.id})
                return
            await self._start(room)
            rooms.news.state(room)
            rooms.news.announce({"t": "rematch", "room": room.id})
            rooms.computer.update(room)

    async def _start(self, room: LiveRoom) -> None:
        rooms, game, previous = self.rooms, room.game, room.match
        options = game.rematch_options(room.options, previous.result, previous.first_seat)
        number, now = previous.number + 1, rooms.clock()
        row, state = new_match(room.id, game, options, number, "playing", now)
        try:
            rooms.store.add_match(row)
        except IntegrityError:
            # Another process started this rematch first (the room's match numbers are unique).
            await rooms.cache.catch_up(room)
            return
        except SQLAlchemyError:
            logger.exception("storing a rematch failed", extra={"room_id": room.id})
            raise Refusal("unavailable", "the rematch could not be saved; try again") from None
        room.match = LiveMatch.of(row, state)
        rooms.on_deal(row.id, game.name, state)
        room.turn_since = time.monotonic()
        room.rematch.clear()
        logger.info(
            "rematch started",
            extra={"room_id": room.id, "match_id": row.id, "first_seat": row.first_seat},
        )
