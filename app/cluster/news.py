"""What a change of a room tells the other server processes (REDIS_URL): an event over the
relay, once it is stored, which they catch up by (``app/cluster/peers.py`` hears it). It
subscribes to the room-events hub (``app/table/events.py``).
"""

from __future__ import annotations

from typing import Any

from app.cluster.relay import RedisRelay
from app.table.events import RoomListener
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

    def closed(self, room_id: str) -> None:
        self.relay.unfollow(room_id)
