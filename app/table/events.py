"""The room-events hub: a change of a room, once stored, is published here once, and each
subscriber does its own part: this process's sockets hear their new texts
(``news.RoomNews``), the other processes an event over Redis (``news.RelayNews``, with
REDIS_URL), and the computer players move or watch for an absent player
(``computer.ComputerPlayers``). The parts that change rooms know only the hub, never who
listens; a new subscriber is one ``subscribe`` line where the parts are put together
(``rooms.py``).

Events are published under the room's lock, in the order the subscribers subscribed; a
subscriber only queues or starts work (it never waits), so the action path stays one
method call per subscriber.
"""

from __future__ import annotations

from typing import Any

from app.table.live import LiveRoom


class RoomListener:
    """A subscriber: it overrides the events it cares for; the others do nothing."""

    def check_ready(self) -> None:
        """Raise a Refusal when this subscriber could not hear of a change now (the change
        is then not made)."""

    def acted(self, room: LiveRoom, seat: int, action: dict[str, Any], by_computer: bool) -> None:
        """An action was stored and the live match advanced."""

    def seated(self, room: LiveRoom) -> None:
        """A person took a seat (their sockets already open here count for it)."""

    def seats_changed(self, room: LiveRoom) -> None:
        """The computer took a seat or plays an absent one, a player left a waiting room's
        seat, or a player ended the match (resigned, aborted, abandoned)."""

    def taken_back(self, room: LiveRoom) -> None:
        """A person back at their seat took it back from the computer."""

    def ended_by_player(self, room: LiveRoom, seat: int) -> None:
        """The player of ``seat`` ended the match (resigned, aborted, or ended it for an
        absent player); ``seats_changed`` came first."""

    def connected(self, room: LiveRoom, first: bool) -> None:
        """A socket of this process joined the room; ``first``: its seat's first one here."""

    def disconnected(self, room: LiveRoom) -> None:
        """The last socket of a seat in this process went away."""

    def rematch_asked(self, room: LiveRoom) -> None:
        """A seat asked for a rematch; others have still to ask."""

    def takeback_asked(self, room: LiveRoom, seat: int) -> None:
        """``seat`` asked to take back its last move; another seat may answer."""

    def takeback_declined(self, room: LiveRoom, seat: int) -> None:
        """``seat``'s takeback request was declined."""

    def move_taken_back(self, room: LiveRoom, seat: int) -> None:
        """``seat``'s last move was taken back (stored; the live match rebuilt without it)."""

    def rematch_started(self, room: LiveRoom) -> None:
        """The room's next match started (here, or in another process that was first)."""

    def caught_up(self, room: LiveRoom) -> None:
        """The room was taken from the database after another process stored first."""

    def changed_elsewhere(self, room: LiveRoom) -> None:
        """Another process changed the room, and this one has taken over its change."""

    def unfollowed(self, room: LiveRoom) -> None:
        """The last socket of the room here went away, and with other server processes this
        one no longer hears of the room's changes: it is caught up from the database before
        it is read again."""

    def chatted(self, room: LiveRoom, line: dict[str, Any]) -> None:
        """A chat line was stored (published without the room's lock: it is no change of
        the match, app/table/chat.py)."""

    def held(self, room: LiveRoom) -> None:
        """A room came into this process's memory: created here, or read from the database
        (with several processes, not followed until a socket of it joins here)."""

    def read(self, room: LiveRoom) -> None:
        """The room's seats and match were taken from the database (loaded, caught up)."""

    def closed(self, room_id: str) -> None:
        """The room closed (stored): nothing more is done or heard for it here."""

    def reminder_due(self, room: LiveRoom, seat: int) -> None:
        """A quarter of a turn-based move's time is left for ``seat`` (once per turn over
        every process; published outside the room's lock, by the periodic sweep)."""


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

    def acted(self, room: LiveRoom, seat: int, action: dict[str, Any], by_computer: bool) -> None:
        for listener in self.listeners:
            listener.acted(room, seat, action, by_computer)

    def seated(self, room: LiveRoom) -> None:
        for listener in self.listeners:
            listener.seated(room)

    def seats_changed(self, room: LiveRoom) -> None:
        for listener in self.listeners:
            listener.seats_changed(room)

    def taken_back(self, room: LiveRoom) -> None:
        for listener in self.listeners:
            listener.taken_back(room)

    def ended_by_player(self, room: LiveRoom, seat: int) -> None:
        for listener in self.listeners:
            listener.ended_by_player(room, seat)

    def connected(self, room: LiveRoom, first: bool) -> None:
        for listener in self.listeners:
            listener.connected(room, first)

    def disconnected(self, room: LiveRoom) -> None:
        for listener in self.listeners:
            listener.disconnected(room)

    def rematch_asked(self, room: LiveRoom) -> None:
        for listener in self.listeners:
            listener.rematch_asked(room)

    def rematch_started(self, room: LiveRoom) -> None:
        for listener in self.listeners:
            listener.rematch_started(room)

    def takeback_asked(self, room: LiveRoom, seat: int) -> None:
        for listener in self.listeners:
            listener.takeback_asked(room, seat)

    def takeback_declined(self, room: LiveRoom, seat: int) -> None:
        for listener in self.listeners:
            listener.takeback_declined(room, seat)

    def move_taken_back(self, room: LiveRoom, seat: int) -> None:
        for listener in self.listeners:
            listener.move_taken_back(room, seat)

    def caught_up(self, room: LiveRoom) -> None:
        for listener in self.listeners:
            listener.caught_up(room)

    def changed_elsewhere(self, room: LiveRoom) -> None:
        for listener in self.listeners:
            listener.changed_elsewhere(room)

    def unfollowed(self, room: LiveRoom) -> None:
        for listener in self.listeners:
            listener.unfollowed(room)

    def chatted(self, room: LiveRoom, line: dict[str, Any]) -> None:
        for listener in self.listeners:
            listener.chatted(room, line)

    def held(self, room: LiveRoom) -> None:
        for listener in self.listeners:
            listener.held(room)

    def read(self, room: LiveRoom) -> None:
        for listener in self.listeners:
            listener.read(room)

    def closed(self, room_id: str) -> None:
        for listener in self.listeners:
            listener.closed(room_id)

    def reminder_due(self, room: LiveRoom, seat: int) -> None:
        for listener in self.listeners:
            listener.reminder_due(room, seat)
