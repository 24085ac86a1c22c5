"""What a change of a room tells this process's sockets, once it is stored: each audience
its own text (the broadcaster only queues, so nothing here waits on a socket). It
subscribes to the room-events hub (``app/table/events.py``); the other server processes
hear of the change from ``app/cluster/news.py``.
"""

from __future__ import annotations

from typing import Any

from app.messaging import Audience, Broadcaster
from app.table import texts
from app.table.events import RoomListener
from app.table.live import LiveRoom


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
