"""What this process does with the room changes other processes announce (REDIS_URL).

A process follows a room (hears its events) only while it has a socket of it: the first
socket to join subscribes to the room's channel, and once Redis confirmed, the room is taken
from the database (so nothing stored before the subscription is missed); the last socket to
go unsubscribes. A room held without a socket here is not followed (``LiveRoom.followed``):
no work is done for its moves, and it is caught up from the database before anything reads
it. So a move costs only the processes with sockets of its room.

For a followed room, the room events another process relayed (``app/table/events.py``,
each read back as the event it was):

- ``Acted``: another process stored the action of ``version``: replay it through the
  engine when it is the next one here, else catch the room up from the database; then
  every local audience gets its new view.
- the seats, a match's end by a player's choice, rematch and takeback requests and
  takebacks are stored; catch up and tell (sockets of a seat its player left watch from
  then on).
- ``Chatted``: another process stored a chat line; the local sockets hear it as it is.

And the messages of the processes themselves:

- ``online``: another process's sockets per seat (presence is the sum over processes).
  A process not heard of for ``FORGET_AFTER_SECONDS`` (its heartbeat stopped: killed, or
  cut off from Redis) is forgotten.
- ``hello``: a process began to follow the room; the ones with sockets there say how many.

Every process hears:

- ``close``: another process closed the room in the database; close the local sockets.
- ``ended``: a match ended somewhere: the ratings are brought up to date.
- ``signed_out``: a player's devices were signed out; their sockets here are closed
  (app/table/devices.py).
- ``resync``: Redis was away and events may be lost; catch up every followed room, and
  close the sockets of devices signed out meanwhile.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from app.cluster.news import RelayNews
from app.table import events, texts
from app.table.actions import advance
from app.table.cache import RoomCache
from app.table.devices import DeviceSockets
from app.table.events import (
    Acted,
    ChangedElsewhere,
    Chatted,
    Event,
    Held,
    Message,
    MoveTakenBack,
    PauseChanged,
    RematchAsked,
    RematchStarted,
    RoomEvent,
    RoomEvents,
    RoomListener,
    Seated,
    SeatsChanged,
    SeatTakenBack,
    TakebackAsked,
    TakebackDeclined,
    Unfollowed,
)
from app.table.live import LiveRoom
from app.table.news import RoomNews
from app.table.players import unseat_leavers
from app.table.refusals import Refusal

logger = logging.getLogger(__name__)

FORGET_AFTER_SECONDS = 4.0


class Cluster(RoomListener):
    def __init__(
        self,
        cache: RoomCache,
        news: RoomNews,
        relay: RelayNews,
        events: RoomEvents,
        on_ended: Callable[[], None],
        devices: DeviceSockets,
    ) -> None:
        self.cache = cache
        self.news = news  # this process's sockets
        self.relay = relay  # the other processes
        self.events = events
        self.on_ended = on_ended  # a match ended in another process (the ratings)
        self.devices = devices  # this process's sockets of signed-in devices
        self.seen: dict[str, float] = {}

    # Following a room

    def hear(self, event: Event) -> None:
        """A room just created or loaded is not followed until a socket of it joins here."""
        if isinstance(event, Held):
            event.room.followed = False

    async def follow(self, room: LiveRoom) -> bool:
        """Before a socket of the room joins here (under the room's lock): hear the room's
        events from now on, take it from the database, and ask the processes with sockets
        there how many. True when it began to follow the room (it was just read)."""
        if room.followed:
            return False
        await self.relay.follow(room)
        try:
            await self.cache.catch_up(room)
        except Refusal:
            self.relay.unfollow(room.id)
            raise
        room.followed = True
        self.relay.hello(room)
        return True

    def unfollow(self, room: LiveRoom) -> None:
        """After the last socket of the room here went away (under the room's lock)."""
        if not room.followed:
            return
        room.followed = False
        room.remote.clear()  # the others' presence is no longer heard of
        self.relay.unfollow(room.id)
        self.events.publish(Unfollowed(room))

    async def on_event(self, message: Message) -> None:
        process = message.get("proc", "")
        new = process not in self.seen
        self.seen[process] = time.monotonic()
        kind = message["t"]
        if kind == "resync":
            await self.resync()
            return
        if new and kind == "alive":
            # A process we did not know (just started, or back): tell it our presence.
            self._announce_all_online()
        if kind == "ended":
            self.on_ended()
            return
        if kind == "signed_out":
            self.devices.close(message["player"], message["devices"])
            return
        room = self.cache.held(message.get("room", ""))
        if room is None:
            return
        if kind == "close":
            await self.cache.close_here(room.id, message.get("reason"))
            return
        if not room.followed:  # (sent before Redis took in the unsubscription)
            return
        heard = events.read(message, room)
        if isinstance(heard, Chatted):  # stored by its process; no change of the room
            self.news.hear(heard)
            return
        async with room.lock:
            if room.closed or not room.followed:
                return
            if heard is not None:
                await self._on_room_event(heard)
            elif kind == "online":
                self._on_online(room, process, message["seats"])
            elif kind == "hello" and any(room.local_online()):
                self.relay.online(room)
            self.events.publish(ChangedElsewhere(room))

    async def _on_room_event(self, event: RoomEvent) -> None:
        """Another process's change (stored), taken over here under the room's lock."""
        room = event.room
        match event:
            case Acted():
                await self._on_action(event)
            case Seated() | SeatsChanged() | SeatTakenBack():
                await self._catch_up(room)
                unseat_leavers(room, self.news.broadcaster)
                self.news.changed(room)
            case RematchAsked() | RematchStarted():
                await self._catch_up(room)
                if room.match.status == "finished":  # requests so far, as the asker's process
                    self.news.to_everyone(room, texts.rematch_text(room))
                else:  # the rematch started
                    self.news.state(room)
            case PauseChanged():
                await self._catch_up(room)
                self.news.state(room)
            case TakebackAsked() | TakebackDeclined() | MoveTakenBack():
                await self._catch_up(room)
                self.news.takeback(event)

    def _on_online(self, room: LiveRoom, process: str, seats: list[int]) -> None:
        before = room.players()
        room.remote[process] = list(seats)
        if room.players() != before:
            self.news.presence(room)

    async def _on_action(self, event: Acted) -> None:
        room, match = event.room, event.room.match
        if match.id == event.match_id and event.version <= match.version:
            return  # caught up already
        if match.id == event.match_id and event.version == match.version + 1:
            seat, action = event.seat, event.action
            state = room.game.apply(match.state, seat, action)
            result = room.game.result(state)
            advance(room, seat, action, state, result, event.by_computer, event.at)
        else:
            await self._catch_up(room)
        self.news.state(room)

    async def _catch_up(self, room: LiveRoom) -> None:
        try:
            await self.cache.catch_up(room)
        except Refusal:  # closed in the database meanwhile; the close event follows
            pass

    async def resync(self) -> None:
        """Redis was away: every followed room from the database, our presence again, and
        the sockets of devices signed out meanwhile closed."""
        for room in self.cache.held_rooms():
            async with room.lock:
                if room.closed or not room.followed:
                    continue
                try:
                    await self.cache.catch_up(room)
                except Refusal:
                    continue
                except Exception:  # the database may be away too; the next resync tries
                    logger.exception("catching up a room failed", extra={"room_id": room.id})
                    continue
                self.news.changed(room)
        self._announce_all_online()
        try:
            await self.devices.recheck()
        except Exception:  # the database may be away too; the next resync tries
            logger.exception("looking up the devices of open sockets failed")

    def _announce_all_online(self) -> None:
        for room in self.cache.held_rooms():
            if any(room.local_online()):
                self.relay.online(room)

    async def heartbeat(self) -> None:
        """Forget processes that went silent, and their sockets' presence."""
        now = time.monotonic()
        gone = {p for p, at in self.seen.items() if now - at > FORGET_AFTER_SECONDS}
        if not gone:
            return
        for process in gone:
            del self.seen[process]
            logger.info("forgetting a silent server process", extra={"process": process})
        for room in self.cache.held_rooms():
            if gone & room.remote.keys():
                before = room.players()
                for process in gone:
                    room.remote.pop(process, None)
                if room.players() != before:
                    self.news.presence(room)
                    self.events.publish(ChangedElsewhere(room))
