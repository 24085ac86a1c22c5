"""The room-events hub: a change of a room, once stored, is published here once as one
event, and each subscriber does its own part: this process's sockets hear their new texts
(``news.RoomNews``), the other processes the event over Redis (``cluster.news.RelayNews``,
with REDIS_URL), and the computer players move or watch for an absent player. The parts
that change rooms know only the hub, never who listens; a new subscriber is one
``subscribe`` line in ``app/wiring.py``.

Each event is a frozen dataclass; a listener matches on the types it cares for and ignores
the rest. An event that other server processes hear of (``relayed``) carries its own
encoding for the relay (``write``) and is read back from it (``read``), by its class's
name: the list of events exists once, here, and tests/app/test_events.py proves each one
survives the round trip.

Events are published under the room's lock, in the order the subscribers subscribed; a
subscriber only queues or starts work (it never waits), so the action path stays one
method call per subscriber.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from datetime import datetime
from typing import Any, ClassVar, Self

from app.table.live import LiveRoom

Message = dict[str, Any]
RELAYED: dict[str, type[RoomEvent]] = {}  # the events other processes hear of, by name


@dataclass(frozen=True)
class Event:
    """Something that happened to a room, once it is stored."""


@dataclass(frozen=True)
class RoomEvent(Event):
    relayed: ClassVar[bool] = False  # the other server processes hear of it too
    room: LiveRoom

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if cls.relayed:
            RELAYED[cls.__name__] = cls

    def write(self) -> Message:
        """The event as the relay carries it, plain JSON data: its name, its room's id and
        its fields."""
        fields = {name: getattr(self, name) for name in field_names(type(self))}
        return {"t": type(self).__name__, "room": self.room.id, **fields}

    @classmethod
    def read(cls, room: LiveRoom, message: Message) -> Self:
        """The event another process wrote, for this process's copy of its room."""
        return cls(room, *(message[name] for name in field_names(cls)))


def field_names(cls: type[RoomEvent]) -> list[str]:
    """The fields an event carries beyond its room."""
    return [field.name for field in dataclasses.fields(cls)[1:]]


def read(message: Message, room: LiveRoom) -> RoomEvent | None:
    """The relayed event in ``message`` (None: no room event, or not one of ours)."""
    kind = RELAYED.get(message.get("t", ""))
    return None if kind is None else kind.read(room, message)


# The match


@dataclass(frozen=True)
class Acted(RoomEvent):
    """An action was stored as the match's version ``version`` and the live match advanced;
    ``at``: when the next turn started."""

    relayed = True
    seat: int
    action: dict[str, Any]
    by_computer: bool
    match_id: int
    version: int
    at: datetime | None

    def write(self) -> Message:
        return {**RoomEvent.write(self), "at": self.at and self.at.isoformat()}

    @classmethod
    def read(cls, room: LiveRoom, message: Message) -> Self:
        at = message["at"] and datetime.fromisoformat(message["at"])
        return cls(room, **{**{name: message[name] for name in field_names(cls)}, "at": at})


@dataclass(frozen=True)
class Seated(RoomEvent):
    """A person took a seat (their sockets already open here count for it)."""

    relayed = True


@dataclass(frozen=True)
class SeatsChanged(RoomEvent):
    """The computer took a seat or plays an absent one, a player left a waiting room's
    seat, or a player ended the match (resigned, aborted, abandoned)."""

    relayed = True


@dataclass(frozen=True)
class SeatTakenBack(RoomEvent):
    """A person back at their seat took it back from the computer."""

    relayed = True


@dataclass(frozen=True)
class EndedByPlayer(RoomEvent):
    """The player of ``seat`` ended the match (resigned, aborted, or ended it for an absent
    player); ``SeatsChanged`` came first (and is what the other processes hear)."""

    seat: int


# Requests between the seats


@dataclass(frozen=True)
class RematchAsked(RoomEvent):
    """A seat asked for a rematch; others have still to ask."""

    relayed = True


@dataclass(frozen=True)
class RematchStarted(RoomEvent):
    """The room's next match started (here, or in another process that was first)."""

    relayed = True


@dataclass(frozen=True)
class TakebackAsked(RoomEvent):
    """``seat`` asked to take back its last move; another seat may answer."""

    relayed = True
    answer: ClassVar[str] = "asked"
    seat: int


@dataclass(frozen=True)
class TakebackDeclined(RoomEvent):
    """``seat``'s takeback request was declined."""

    relayed = True
    answer: ClassVar[str] = "declined"
    seat: int


@dataclass(frozen=True)
class MoveTakenBack(RoomEvent):
    """``seat``'s last move was taken back (stored; the live match rebuilt without it)."""

    relayed = True
    answer: ClassVar[str] = "accepted"
    seat: int


Takeback = TakebackAsked | TakebackDeclined | MoveTakenBack


@dataclass(frozen=True)
class PauseChanged(RoomEvent):
    """A seat asked for a pause, every person agreed (the match is paused), or a player
    resumed it (app/table/pause.py)."""

    relayed = True


@dataclass(frozen=True)
class Chatted(RoomEvent):
    """A chat line was stored (published without the room's lock: it is no change of the
    match, app/table/chat.py)."""

    relayed = True
    line: dict[str, Any]


@dataclass(frozen=True)
class ReminderDue(RoomEvent):
    """A quarter of a turn-based move's time is left for ``seat`` (once per turn over every
    process; published outside the room's lock, by the periodic sweep)."""

    seat: int


# This process's sockets and memory


@dataclass(frozen=True)
class Connected(RoomEvent):
    """A socket of this process joined the room; ``first``: its seat's first one here."""

    first: bool


@dataclass(frozen=True)
class Disconnected(RoomEvent):
    """The last socket of a seat in this process went away."""


@dataclass(frozen=True)
class Held(RoomEvent):
    """A room came into this process's memory: created here, or read from the database
    (with several processes, not followed until a socket of it joins here)."""


@dataclass(frozen=True)
class Read(RoomEvent):
    """The room's seats and match were taken from the database (loaded, caught up)."""


@dataclass(frozen=True)
class CaughtUp(RoomEvent):
    """The room was taken from the database after another process stored first."""


@dataclass(frozen=True)
class ChangedElsewhere(RoomEvent):
    """Another process changed the room, and this one has taken over its change."""


@dataclass(frozen=True)
class Unfollowed(RoomEvent):
    """The last socket of the room here went away, and with other server processes this
    one no longer hears of the room's changes: it is caught up from the database before it
    is read again."""


@dataclass(frozen=True)
class Closed(Event):
    """The room closed (stored): nothing more is done or heard for it here (the room may
    not be held here, so only its id)."""

    room_id: str


class RoomListener:
    """A subscriber: ``hear`` matches the events it cares for and ignores the rest."""

    def check_ready(self) -> None:
        """Raise a Refusal when this subscriber could not hear of a change now (the change
        is then not made)."""

    def hear(self, event: Event) -> None:
        """An event, after its change was stored."""


class RoomEvents:
    def __init__(self) -> None:
        self.listeners: list[RoomListener] = []
        self.gates: list[RoomListener] = []  # the listeners that may not be ready

    def subscribe(self, listener: RoomListener) -> None:
        self.listeners.append(listener)
        if type(listener).check_ready is not RoomListener.check_ready:
            self.gates.append(listener)

    def check_ready(self) -> None:
        """A change that a subscriber could not hear of is not made (with several
        processes, their clients would miss it until Redis is back)."""
        for listener in self.gates:
            listener.check_ready()

    def publish(self, event: Event) -> None:
        for listener in self.listeners:
            listener.hear(event)
