"""What a change of a room tells whom, once it is stored: each audience of this process its
own text (the broadcaster only queues, so nothing here waits on a socket), and the other
server processes an event over the relay (REDIS_URL; ``app/services/cluster.py`` hears it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from app.messaging import Broadcaster
from app.services import texts
from app.services.live import LiveRoom
from app.services.refusals import Refusal

if TYPE_CHECKING:
    from app.relay import RedisRelay as Relay


class RoomNews:
    def __init__(self, broadcaster: Broadcaster, relay: Relay | None) -> None:
        self.broadcaster = broadcaster
        self.relay = relay

    # This process's sockets

    def state(self, room: LiveRoom) -> None:
        """Each audience (a seat, the spectators) its own ``state``."""
        audiences = self.broadcaster.audiences(room.id)
        self.broadcaster.publish(room.id, texts.state_texts(room, audiences))

    def presence(self, room: LiveRoom) -> None:
        self.to_everyone(room, texts.presence_text(room))

    def changed(self, room: LiveRoom) -> None:
        """After seats changed or the room caught up with another process: presence, then
        each audience's state."""
        self.presence(room)
        self.state(room)

    def to_everyone(self, room: LiveRoom, text: str) -> None:
        self.broadcaster.publish_all(room.id, text)

    # The other server processes

    def require_peers(self) -> None:
        """With several processes, a change the others cannot hear of is not made: their
        clients would miss it until Redis is back."""
        if self.relay is not None and not self.relay.connected:
            raise Refusal("unavailable", "the server cannot reach its peers; try again")

    def announce(self, event: dict[str, Any]) -> None:
        if self.relay is not None:
            self.relay.announce(event)

    def online(self, room: LiveRoom) -> None:
        """How many sockets of this process each seat has (presence is the sum over all)."""
        if self.relay is not None:
            self.relay.announce({"t": "online", "room": room.id, "seats": room.local_online()})
