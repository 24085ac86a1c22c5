"""Takebacks: a seat asks to take back its last move, and another seat's player accepts or
declines (lichess's manners: one open request at a time, a few a minute, none for a minute
after a decline). Alone at the table (a solo game, or only the computer opposite, which
always agrees) the move is taken back at once.

Only the last move that stands may be taken back, only by the seat that made it, and only
if it revealed nothing (``Game.reveals``: the live match knows it as ``undoable``), so the
server holds no rule of any game. A takeback is stored as an entry of the match's actions
(``timeline.takeback_event``) under the next version, which decides its race with a move
like any action's; the live match is then rebuilt by the one rule of
``app/table/timeline.py``. A request is stored (a restart keeps it) and stays open while
the match is at the version it was asked at: any move closes it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy.exc import SQLAlchemyError

from app.messaging import Connection
from app.protocol import TakebackAnswer, TakebackRequest
from app.storage.models import MATCHES, TAKEBACK_REQUESTS, TakebackRequestRow
from app.storage.repositories import ActionWrite, PlyTaken, Store
from app.table.cache import RoomCache
from app.table.events import CaughtUp, MoveTakenBack, RoomEvents, TakebackAsked, TakebackDeclined
from app.table.features import Feature, seat_of
from app.table.live import LiveMatch, LiveRoom, check_open
from app.table.refusals import Refusal, store_or_refuse
from app.table.timeline import takeback_event
from engine import Takeback

logger = logging.getLogger(__name__)

ASKS_PER_MINUTE = 3
MINUTE = timedelta(minutes=1)


def open_request(match: LiveMatch) -> TakebackRequestRow | None:
    """The request the other seats may answer: the newest, at the current version, not
    declined."""
    if not match.requests:
        return None
    newest = match.requests[-1]
    if newest.ply != match.version or newest.declined_at is not None:
        return None
    return newest


class Takebacks(Feature):
    messages = (TakebackRequest, TakebackAnswer)
    stores = (TAKEBACK_REQUESTS, MATCHES)  # (a takeback is an entry of the match's actions)

    def __init__(
        self,
        store: Store,
        cache: RoomCache,
        events: RoomEvents,
        clock: Callable[[], datetime],
    ) -> None:
        self.store = store
        self.cache = cache
        self.events = events
        self.clock = clock

    async def handle(
        self, room: LiveRoom, connection: Connection, message: TakebackRequest | TakebackAnswer
    ) -> None:
        if isinstance(message, TakebackRequest):
            await self.ask(room, connection)
        else:
            await self.answer(room, connection, message.accept)

    def state(self, room: LiveRoom) -> dict[str, Any]:
        """Whose last move may be taken back now, whether they asked, and the move the
        newest entry took back."""
        match = room.match
        return {
            "takeback": {
                "seat": match.undoable and match.undoable[1],
                "requested": open_request(match) is not None,
                "undone": match.undone,
            }
        }

    async def ask(self, room: LiveRoom, connection: Connection) -> None:
        async with room.lock:
            check_open(room)
            seat = seat_of(connection, "take moves back")
            self.events.check_ready()
            ply = check_last_move(room, seat)
            if room.game.takeback is Takeback.FREE or not room.another_person(seat):
                await self._take_back(room, seat, ply)
                return
            now = self.clock()
            check_may_ask(room.match, seat, now)
            request = TakebackRequestRow(
                match_id=room.match.id, seat=seat, ply=room.match.version, asked_at=now
            )
            store_or_refuse(room.id, self.store.ask_takeback, request)
            room.match.requests.append(request)
            room.last_active = now
            self.events.publish(TakebackAsked(room, seat))

    async def answer(self, room: LiveRoom, connection: Connection, accept: bool) -> None:
        async with room.lock:
            check_open(room)
            seat = seat_of(connection, "take moves back")
            request = open_request(room.match)
            if request is None or request.seat == seat:
                raise Refusal("not_offered", "nobody asks you to let them take a move back")
            self.events.check_ready()
            if accept:
                await self._take_back(room, request.seat, check_last_move(room, request.seat))
                return
            now = self.clock()
            store_or_refuse(room.id, self.store.decline_takeback, request.id, now)
            request.declined_at = now
            room.last_active = now
            self.events.publish(TakebackDeclined(room, request.seat))

    async def _take_back(self, room: LiveRoom, seat: int, ply: int) -> None:
        """Store the takeback under the next version, then rebuild the live match by the
        stored entries (the same rule as a restart)."""
        match, now = room.match, self.clock()
        write = ActionWrite(
            match.id, match.version + 1, seat, takeback_event(ply), now, active_room=room.id
        )
        try:
            await self.store.store_action(write)
        except PlyTaken:
            await self.cache.catch_up(room)
            self.events.publish(CaughtUp(room))
            raise Refusal("stale", "a move was stored first; nothing was taken back") from None
        except SQLAlchemyError:
            logger.exception("storing a takeback failed", extra={"room_id": room.id})
            raise Refusal("unavailable", "the takeback could not be saved; try again") from None
        await self.cache.catch_up(room)
        room.last_active = room.stored_active = now
        logger.info("move taken back", extra={"room_id": room.id, "seat": seat, "ply": ply})
        self.events.publish(MoveTakenBack(room, seat))


def check_last_move(room: LiveRoom, seat: int) -> int:
    """The ply of the seat's last move, if it may be taken back now."""
    match = room.match
    if match.status == "finished":
        raise Refusal("game_over", "the match is over")
    if match.status == "waiting" or match.last_action is None:
        raise Refusal("nothing_to_take_back", "no move has been made yet")
    if match.last_action["seat"] != seat:
        raise Refusal("not_your_move", "the last move is another player's")
    if match.undoable is None:
        raise Refusal("revealed", "your last move showed a hidden card; it stands")
    ply, _seat = match.undoable
    return ply


def check_may_ask(match: LiveMatch, seat: int, now: datetime) -> None:
    """One open request at a time, a few a minute, none for a minute after a decline."""
    if open_request(match) is not None:
        raise Refusal("takeback_open", "a takeback request is waiting for an answer")
    mine = [request for request in match.requests if request.seat == seat]
    if sum(now - request.asked_at < MINUTE for request in mine) >= ASKS_PER_MINUTE:
        raise Refusal("too_many_takebacks", "too many takeback requests; wait a minute")
    declined = [r.declined_at for r in mine if r.declined_at is not None]
    if declined and now - declined[-1] < MINUTE:
        raise Refusal("takeback_declined", "your last request was declined; wait a minute")
