"""What a change of a room tells this process's sockets, once it is stored: each audience
its own text (the broadcaster only queues, so nothing here waits on a socket). It
subscribes to the room-events hub (``app/table/events.py``); the other server processes
hear of the change from ``app/cluster/news.py``.
"""

from __future__ import annotations

from app.messaging import Audience, Broadcaster
from app.table import texts
from app.table.events import (
    Acted,
    CaughtUp,
    Chatted,
    Connected,
    Disconnected,
    Event,
    MoveTakenBack,
    PauseChanged,
    RematchAsked,
    RematchStarted,
    RoomListener,
    Seated,
    SeatsChanged,
    SeatTakenBack,
    Takeback,
    TakebackAsked,
    TakebackDeclined,
)
from app.table.features import Features
from app.table.live import LiveRoom


class RoomNews(RoomListener):
    """This process's sockets."""

    def __init__(self, broadcaster: Broadcaster, features: Features) -> None:
        self.broadcaster = broadcaster
        self.features = features  # their keys in each state

    def audiences(self, room: LiveRoom) -> list[Audience]:
        """The audiences this process has sockets of in the room (none: no socket here)."""
        return self.broadcaster.audiences(room.id)

    def state(self, room: LiveRoom) -> None:
        """Each audience (a seat, the spectators) its own ``state``."""
        audiences = self.broadcaster.audiences(room.id)
        if audiences:  # nobody here: no text to build
            self.broadcaster.publish(room.id, texts.state_texts(room, audiences, self.features))

    def presence(self, room: LiveRoom) -> None:
        self.to_everyone(room, texts.presence_text(room))

    def changed(self, room: LiveRoom) -> None:
        """After seats changed or the room caught up with another process: presence, then
        each audience's state."""
        self.presence(room)
        self.state(room)

    def to_everyone(self, room: LiveRoom, text: str) -> None:
        self.broadcaster.publish_all(room.id, text)

    def hear(self, event: Event) -> None:
        match event:
            case Acted() | SeatTakenBack() | RematchStarted() | PauseChanged():
                self.state(event.room)
            case Seated() | SeatsChanged() | CaughtUp():
                self.changed(event.room)
            case Connected(room, first) if first:
                self.presence(room)
            case Disconnected():
                self.presence(event.room)
            case RematchAsked():
                self.to_everyone(event.room, texts.rematch_text(event.room))
            case TakebackAsked() | TakebackDeclined() | MoveTakenBack():
                self.takeback(event)
            case Chatted(room, line):
                self.to_everyone(room, texts.dumps({"type": "chat", **line}))

    def takeback(self, event: Takeback) -> None:
        """The news of a takeback request, then each audience's state (which says what can
        be taken back now)."""
        self.to_everyone(event.room, texts.takeback_text(event.seat, event.answer))
        self.state(event.room)
