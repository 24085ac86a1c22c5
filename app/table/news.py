"""What a change of a room tells whom, once it is stored: each audience of this process its
own text (``RoomNews``; the broadcaster only queues, so nothing here waits on a socket), and
the other server processes an event over the relay (``RelayNews``, with REDIS_URL;
``app/cluster/peers.py`` hears it). Both subscribe to the room-events hub
(``app/table/events.py``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from app.messaging import Audience, Broadcaster
from app.table import texts
from app.table.events import RoomListener
from app.table.live import LiveRoom
from app.table.refusals import Refusal

if TYPE_CHECKING:
    from app.cluster.relay import RedisRelay as Relay


class RoomNews(RoomListener):
    """This process's sockets."""

    def __init__(self, broadcaster: Broadcaster) -> None:
        self.broadcaster = broadcaster

    def audiences(self, room: LiveRoom) -> list[Audience]:
        """The audiences this process has sockets of in the room (none: no socket here)."""
        return self.broadcaster.audiences(room.id)

    def state(self, room: LiveRoom) -> None:
        """Each audience (a seat, the spectators) its own ``state``."""
        audiences = self.broadcaster.audiences(room.id)
        if audiences:  # nobody here: no text to build
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

    # The hub's events

    def acted(self, room: LiveRoom, seat: int, action: dict[str, Any], by_computer: bool) -> None:
        self.state(room)

    def seated(self, room: LiveRoom) -> None:
        self.changed(room)

    def seats_changed(self, room: LiveRoom) -> None:
        self.changed(room)

    def taken_back(self, room: LiveRoom) -> None:
        self.state(room)

    def connected(self, room: LiveRoom, first: bool) -> None:
        if first:
            self.presence(room)

    def disconnected(self, room: LiveRoom) -> None:
        self.presence(room)

    def rematch_asked(self, room: LiveRoom) -> None:
        self.to_everyone(room, texts.rematch_text(room))

    def rematch_started(self, room: LiveRoom) -> None:
        self.state(room)

    def takeback(self, room: LiveRoom, seat: int, answer: str) -> None:
        """The news of a takeback request, then each audience's state (which says what can
        be taken back now)."""
        self.to_everyone(room, texts.takeback_text(seat, answer))
        self.state(room)

    def takeback_asked(self, room: LiveRoom, seat: int) -> None:
        self.takeback(room, seat, "asked")

    def takeback_declined(self, room: LiveRoom, seat: int) -> None:
        self.takeback(room, seat, "declined")

    def move_taken_back(self, room: LiveRoom, seat: int) -> None:
        self.takeback(room, seat, "accepted")

    def caught_up(self, room: LiveRoom) -> None:
        self.changed(room)

    def chatted(self, room: LiveRoom, line: dict[str, Any]) -> None:
        self.to_everyone(room, texts.dumps({"type": "chat", **line}))


class RelayNews(RoomListener):
    """The other server processes: each change as an event they catch up by."""

    def __init__(self, relay: Relay) -> None:
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

    def _ended(self, room: LiveRoom) -> None:
        """Every process hears of a match's end (its ratings), not only the room's."""
        if room.match.status == "finished":
            self.relay.announce({"t": "ended", "room": room.id}, everyone=True)

    # The hub's events

    def acted(self, room: LiveRoom, seat: int, action: dict[str, Any], by_computer: bool) -> None:
        match = room.match
        self.relay.announce(
            {
                "t": "action",
                "room": room.id,
                "match": match.id,
                "v": match.version,
                "seat": seat,
                "action": action,
                "computer": by_computer,
                "at": room.turn_started and room.turn_started.isoformat(),
            }
        )
        self._ended(room)

    def seated(self, room: LiveRoom) -> None:
        self.relay.announce({"t": "seat", "room": room.id})
        self.online(room)

    def seats_changed(self, room: LiveRoom) -> None:
        self.relay.announce({"t": "seat", "room": room.id})
        self._ended(room)  # (a player resigned)

    def taken_back(self, room: LiveRoom) -> None:
        self.relay.announce({"t": "seat", "room": room.id})

    def connected(self, room: LiveRoom, first: bool) -> None:
        if first:
            self.online(room)

    def disconnected(self, room: LiveRoom) -> None:
        self.online(room)

    def rematch_asked(self, room: LiveRoom) -> None:
        self.relay.announce({"t": "rematch", "room": room.id})

    def rematch_started(self, room: LiveRoom) -> None:
        self.relay.announce({"t": "rematch", "room": room.id})

    def takeback(self, room: LiveRoom, seat: int, answer: str) -> None:
        self.relay.announce({"t": "takeback", "room": room.id, "seat": seat, "answer": answer})

    def takeback_asked(self, room: LiveRoom, seat: int) -> None:
        self.takeback(room, seat, "asked")

    def takeback_declined(self, room: LiveRoom, seat: int) -> None:
        self.takeback(room, seat, "declined")

    def move_taken_back(self, room: LiveRoom, seat: int) -> None:
        self.takeback(room, seat, "accepted")

    def chatted(self, room: LiveRoom, line: dict[str, Any]) -> None:
        self.relay.announce({"t": "chat", "room": room.id, "line": line})
