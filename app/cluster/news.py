"""What a change of a room tells the other server processes (REDIS_URL): an event over the
relay, once it is stored, which they catch up by (``app/cluster/peers.py`` hears it). It
subscribes to the room-events hub (``app/table/events.py``) and sends each relayed event as
the event writes itself.
"""

from __future__ import annotations

from app.cluster.relay import RedisRelay
from app.table.events import (
    Acted,
    Closed,
    Connected,
    Disconnected,
    Event,
    RoomEvent,
    RoomListener,
    Seated,
    SeatsChanged,
)
from app.table.live import LiveRoom
from app.table.refusals import Refusal


class RelayNews(RoomListener):
    """The other server processes: each change as an event they catch up by."""

    def __init__(self, relay: RedisRelay) -> None:
        self.relay = relay

    def check_ready(self) -> None:
        if not self.relay.connected:
            raise Refusal("unavailable", "the server cannot reach its peers; try again")

    def online(self, room: LiveRoom) -> None:
        """How many sockets of this process each seat has (presence is the sum over all)."""
        self.relay.announce({"t": "online", "room": room.id, "seats": room.local_online()})

    async def follow(self, room: LiveRoom) -> None:
        """Hear the room's events from now on (app/cluster/peers.py)."""
        await self.relay.follow(room.id)

    def unfollow(self, room_id: str) -> None:
        self.relay.unfollow(room_id)

    def hello(self, room: LiveRoom) -> None:
        """This process began to follow the room: the others with sockets there say so."""
        self.relay.announce({"t": "hello", "room": room.id})

    def hear(self, event: Event) -> None:
        match event:
            case RoomEvent(room) if event.relayed:
                self.relay.announce(event.write())
                if isinstance(event, Acted | SeatsChanged):  # (a move, or a resignation)
                    self._ended(room)
                if isinstance(event, Seated):
                    self.online(room)
            case Connected(room, first) if first:
                self.online(room)
            case Disconnected(room):
                self.online(room)
            case Closed(room_id):
                self.relay.unfollow(room_id)

    def _ended(self, room: LiveRoom) -> None:
        """Every process hears of a match's end (its ratings), not only the room's."""
        if room.match.status == "finished":
            self.relay.announce({"t": "ended", "room": room.id}, everyone=True)
