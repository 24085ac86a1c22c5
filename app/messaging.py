"""Fan-out to websocket connections, behind a small interface.

``LocalBroadcaster`` delivers to the connections of this process. A Redis pub/sub
broadcaster can take its place for several processes: it would publish the same
per-audience texts on a channel per room and deliver them to its local connections.

Nothing here waits on a socket: ``Connection.send`` puts the text on the connection's own
bounded queue, which its writer task drains (``app/connections.py``). So fan-out under a
room's lock costs the same whether the readers are fast, slow or gone.
"""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Callable, Mapping
from typing import Protocol

from app.limits import RefusalLog

# An audience is a seat number, or None for the spectators.
Audience = int | None


class Connection(Protocol):
    seat: Audience
    token_hash: str | None
    bucket: TokenBucket
    refusals: RefusalLog

    def send(self, text: str) -> None:
        """Queue the text for this connection; never waits."""

    def close(self, code: int, reason: str) -> None:
        """Close after what is queued; never waits."""


class Broadcaster(Protocol):
    def subscribe(self, room_id: str, connection: Connection) -> None: ...

    def unsubscribe(self, room_id: str, connection: Connection) -> None: ...

    def reseat(self, room_id: str, connection: Connection, seat: int) -> None: ...

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

    def reseat(self, room_id: str, connection: Connection, seat: int) -> None:
        self.unsubscribe(room_id, connection)
        connection.seat = seat
        self.subscribe(room_id, connection)

    def connections(self, room_id: str, audience: Audience) -> list[Connection]:
        return list(self._rooms.get(room_id, {}).get(audience, ()))

    def audiences(self, room_id: str) -> list[Audience]:
        return list(self._rooms.get(room_id, {}))

    def publish(self, room_id: str, texts: Mapping[Audience, str]) -> None:
        for audience, connections in list(self._rooms.get(room_id, {}).items()):
            text = texts.get(audience)
            if text is not None:
                for connection in list(connections):
                    connection.send(text)

    def publish_all(self, room_id: str, text: str) -> None:
        for connections in list(self._rooms.get(room_id, {}).values()):
            for connection in list(connections):
                connection.send(text)

    def close_room(self, room_id: str, code: int, reason: str) -> None:
        for connections in list(self._rooms.pop(room_id, {}).values()):
            for connection in connections:
                connection.close(code, reason)


class TokenBucket:
    """A per-connection message rate: ``rate`` per second, bursts up to one second's worth."""

    def __init__(self, rate: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self.capacity = max(rate, 1.0)
        self.tokens = self.capacity
        self.clock = clock
        self.updated = clock()

    def take(self) -> bool:
        now = self.clock()
        self.tokens = min(self.capacity, self.tokens + (now - self.updated) * self.rate)
        self.updated = now
        if self.tokens < 1.0:
            return False
        self.tokens -= 1.0
        return True
