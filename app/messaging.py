"""Fan-out to websocket connections, behind a small interface.

``LocalBroadcaster`` delivers to the connections of this process. With several processes,
each fans out only to its own connections: the room changes themselves travel between
processes over Redis (``app/cluster/relay.py``, ``app/cluster/peers.py``).

Nothing here waits on a socket: ``Connection.send`` puts the text on the connection's own
bounded queue, which its writer task drains (``app/connections.py``). So fan-out under a
room's lock costs the same whether the readers are fast, slow or gone.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from typing import Protocol

# An audience is a seat number, or None for the spectators.
Audience = int | None


class Connection(Protocol):
    seat: Audience
    player_id: str | None
    address: str  # the client's (a spectator without a player is known by it)
    visible: bool  # its page is shown (the client says so: protocol.Visibility)

    def send(self, text: str) -> None:
        """Queue the text for this connection; never waits."""

    def close(self, code: int, reason: str) -> None:
        """Close after what is queued; never waits."""


class Broadcaster(Protocol):
    def subscribe(self, room_id: str, connection: Connection) -> None: ...

    def unsubscribe(self, room_id: str, connection: Connection) -> None: ...

    def reseat(self, room_id: str, connection: Connection, seat: Audience) -> None: ...

    def connections(self, room_id: str, audience: Audience) -> list[Connection]: ...

    def audiences(self, room_id: str) -> list[Audience]: ...

    def publish(self, room_id: str, texts: Mapping[Audience, str]) -> None: ...

    def publish_all(self, room_id: str, text: str) -> None: ...

    def close_room(self, room_id: str, code: int, reason: str) -> None: ...


class LocalBroadcaster:
    """The connections of this process, by room and audience."""

    def __init__(self) -> None:
        self._rooms: dict[str, dict[Audience, set[Connection]]] = defaultdict(
            lambda: defaultdict(set)
        )

    def subscribe(self, room_id: str, connection: Connection) -> None:
        self._rooms[room_id][connection.seat].add(connection)

    def unsubscribe(self, room_id: str, connection: Connection) -> None:
        audiences = self._rooms.get(room_id)
        if audiences is None:
            return
        audiences[connection.seat].discard(connection)
        if not audiences[connection.seat]:
            del audiences[connection.seat]
        if not audiences:
            del self._rooms[room_id]

    def reseat(self, room_id: str, connection: Connection, seat: Audience) -> None:
        self.unsubscribe(room_id, connection)
        connection.seat = seat
        self.subscribe(room_id, connection)

    def connections(self, room_id: str, audience: Audience) -> list[Connection]:
        return list(self._rooms.get(room_id, {}).get(audience, ()))

    def audiences(self, room_id: str) -> list[Audience]:
        return list(self._rooms.get(room_id, {}))

    def publish(self, room_id: str, texts: Mapping[Audience, str]) -> None:
        """Each audience its text, in the order of ``texts``."""
        audiences = self._rooms.get(room_id, {})
        for audience, text in texts.items():
            for connection in list(audiences.get(audience, ())):
                connection.send(text)

    def publish_all(self, room_id: str, text: str) -> None:
        for connections in list(self._rooms.get(room_id, {}).values()):
            for connection in list(connections):
                connection.send(text)

    def close_room(self, room_id: str, code: int, reason: str) -> None:
        for connections in list(self._rooms.pop(room_id, {}).values()):
            for connection in connections:
                connection.close(code, reason)
