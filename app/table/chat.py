"""Chat and quick reactions at a table.

Players always write; spectators when the room's creator allowed it (``spectator_chat``).
A line is plain text (trimmed, at most CHAT_MAX_CHARS characters, no control characters)
or a reaction's key; each player may send CHAT_BURST lines at once, then one every
1 / CHAT_PER_SECOND seconds, over all their sockets together (a browser without a player:
per client address); a flood is refused line by line with ``too_fast``, the socket stays
open. A line is stored with the room, its match and the match's version (the replay
shows it at that step), then published on the room-events hub: this process's sockets
and, over the relay, the other processes' hear it.

A line is no change of the match: it never takes the room's lock, so a move never waits
for a chat line (its version is read as the line arrives; a move stored meanwhile at most
shows the line one step earlier in the replay).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from app.limits import TokenBuckets
from app.messaging import Connection
from app.protocol import CHAT_MAX_CHARS, React, Say
from app.storage.chat import ChatStore, line
from app.storage.models import CHAT, ChatRow
from app.storage.repositories import Store
from app.table.events import Chatted, RoomEvents
from app.table.features import Feature
from app.table.live import LiveRoom, check_open
from app.table.refusals import Refusal, store_or_refuse

CHAT_BURST = 5
CHAT_PER_SECOND = 0.5
ROOM_LINES = 100  # what a table shows after a reload


@dataclass(frozen=True)
class ChatChoices:
    """The room creator's choices."""

    spectators_write: bool = False
    # Read back (a table's reload, the replay) only by those who hold a seat.
    private: bool = False


NO_CHOICES = ChatChoices()


def checked_text(text: str) -> str:
    """The text trimmed; refused when empty, too long or holding control characters (a
    line break, NUL, C1). Lone surrogates never get here: they are no JSON text."""
    text = text.strip()
    if not text:
        raise Refusal("bad_text", "an empty message; write something first")
    if len(text) > CHAT_MAX_CHARS:
        raise Refusal("bad_text", f"a message may have at most {CHAT_MAX_CHARS} characters")
    if any(unicodedata.category(char) == "Cc" for char in text):
        raise Refusal("bad_text", "a message may not hold control characters or binary data")
    return text


class Chat(Feature):
    messages = (Say, React)
    stores = (CHAT,)

    def __init__(self, store: Store, events: RoomEvents, clock: Callable[[], datetime]) -> None:
        self.store = store
        self.lines = ChatStore(store.engine)
        self.events = events
        self.clock = clock
        self.rates = TokenBuckets(CHAT_PER_SECOND, burst=CHAT_BURST)

    async def handle(self, room: LiveRoom, connection: Connection, message: Say | React) -> None:
        await self.say(room, connection, message)

    async def say(self, room: LiveRoom, connection: Connection, message: Say | React) -> None:
        """Store the line, then tell everyone in the room (on every process)."""
        check_open(room)
        self._take(connection)
        if isinstance(message, Say):
            text, reaction = checked_text(message.text), None
        else:
            text, reaction = None, message.reaction
        name = await self._writer(room, connection)
        self.events.check_ready()
        match = room.match
        row = ChatRow(
            room_id=room.id,
            match_id=match.id,
            ply=match.version,
            seat=connection.seat,
            name=name,
            player_id=connection.player_id,
            text=text,
            reaction=reaction,
            created_at=self.clock(),
        )
        await self.store.off_loop(store_or_refuse, room.id, self.lines.add, row)
        if not room.closed:
            self.events.publish(Chatted(room, line(row)))

    def _take(self, connection: Connection) -> None:
        """One line from this connection's writer: fresh sockets bring no fresh allowance."""
        player = connection.player_id
        writer = f"player {player}" if player else f"address {connection.address}"
        if not self.rates.take(writer):
            raise Refusal("too_fast", "too many chat messages at once; wait a moment")

    async def _writer(self, room: LiveRoom, connection: Connection) -> str:
        """The writer's name: their seat's, or a spectator's own when the room allows it."""
        seat = connection.seat
        holder = room.seats[seat] if seat is not None else None
        if holder is not None:
            return holder.name
        if not room.spectator_chat:
            raise Refusal("not_seated", "spectators may read the chat here, not write")
        player = connection.player_id
        name = await self.store.off_loop(self.lines.player_name, player) if player else None
        if name is None:
            raise Refusal("not_seated", "enter a name (join the room) to write in the chat")
        return name

    async def room_lines(self, room: LiveRoom, player: str | None) -> list[dict[str, Any]]:
        """The room's latest lines for a table that (re)loads. A private chat's are its
        players' alone: a spectator gets its lines only as they are written (on its
        socket), and the public history names the room to anyone."""
        if room.private_chat and room.seat_of(player) is None:
            return []
        return await self.store.off_loop(self.lines.room_lines, room.id, ROOM_LINES)

    def replay_lines(self, match_id: int, player: str | None) -> list[dict[str, Any]]:
        """A finished match's chat for its replay: none for a browser that held no seat in
        its room when the room's creator kept the chat private."""
        private, lines = self.lines.match_lines(match_id)
        if private and (player is None or not self.store.match_held_by(match_id, player)):
            return []
        return lines
