"""Rooms as players meet them: creating one, finding one, routing a client's message to
the part that handles it, and closing rooms nobody uses.

The parts, each in a module named for what it holds (all built and hooked together in
app/wiring.py; none of them knows this service):

- ``cache``: the rooms this process holds in memory, rebuilt from the database;
- ``players``: taking a seat and leaving it while the room waits, sockets connecting and
  going away (presence), taking a seat back from the computer;
- ``actions``: the action path, top to bottom in one place;
- the table's features, each one module behind one seam (``features.Feature``: the client
  messages it handles, its keys of the state message, its veto on actions, what it
  stores), listed in app/wiring.py:
- ``rematch``: asking for the next match and starting it;
- ``endings``: a match a player ends: resigned, aborted, or abandoned for an absent one;
- ``takebacks``: asking to take back a move, answering, taking it back;
- ``seats``: seating the computer; ``takeover``: an absent player's seat offered to the
  others, and their answer;
- ``chat``: chat lines and reactions; ``turns``: turn-based rooms' deadlines;
- ``events``: the room-events hub, which tells a stored change to its subscribers: this
  process's sockets (``news``), the other processes (app/cluster/), the computer players
  (app/computer/), the ratings and Web Push (app/people/).

The database is the source of truth: a change is stored before anyone hears of it.
Messages for one room are handled one at a time under the room's lock. Fan-out only
queues texts on each connection (its own writer sends them), so nothing under the lock
waits on a socket.
"""

from __future__ import annotations

import logging
import secrets
from dataclasses import dataclass
from typing import Any

from app.messaging import Connection
from app.protocol import ActionMessage, AnyClientMessage, Ping, Visibility
from app.settings import Settings
from app.storage.models import COMPUTER, DailyRow, Room
from app.storage.repositories import HeldRoom, Store
from app.table import texts
from app.table.actions import Actions
from app.table.cache import RoomCache
from app.table.chat import NO_CHOICES, Chat, ChatChoices
from app.table.clock import Clock
from app.table.events import RoomEvents, SeatsChanged
from app.table.features import Features
from app.table.live import Holder, LiveMatch, LiveRoom, new_match, room_options
from app.table.others import OtherProcesses
from app.table.players import Players
from app.table.refusals import Refusal, RoomNotFound
from app.table.rematch import OnDeal
from app.table.seats import COMPUTER_NAME, ComputerSeats, check_computer, computer_seat
from app.table.takeover import Takeovers
from app.table.turns import Turn, Turns, check_turn_based, turn_of
from engine import get_game

logger = logging.getLogger(__name__)

ROOM_ID_BYTES = 18  # 144 bits
EVERYONE_LEFT = "everyone left the room"


@dataclass(frozen=True)
class TableParts:
    """The parts of the table this service hands a client's message or a question to."""

    cache: RoomCache
    events: RoomEvents
    actions: Actions
    players: Players
    seats: ComputerSeats
    features: Features  # every client message but moves, pings and visibility
    takeovers: Takeovers
    chat: Chat
    turns: Turns


class RoomService:
    def __init__(
        self,
        settings: Settings,
        store: Store,
        clock: Clock,
        parts: TableParts,
        on_deal: OnDeal,
        others: OtherProcesses | None,
    ) -> None:
        self.settings = settings
        self.store = store
        self.clock = clock  # every part reads it: a test may move it (``Clock.now``)
        self.parts = parts
        self.cache = parts.cache
        self.events = parts.events
        self.actions = parts.actions
        self.players = parts.players
        self.features = parts.features
        self.chat = parts.chat
        self.turns = parts.turns
        # Told of every match dealt here (its id, game and first state): MatchService.foresee.
        self.on_deal = on_deal
        # Several processes (REDIS_URL): a room closed here is closed in the others too.
        self.others = others

    # Creating and finding rooms

    def create_room(
        self,
        game_name: str,
        options: dict[str, Any],
        preset: str | None,
        computer: str | None = None,
        turn_based: bool = False,
        move_days: int | None = None,
        chat: ChatChoices = NO_CHOICES,
        seed: int | None = None,
        daily: DailyRow | None = None,
    ) -> LiveRoom:
        """A new room; with ``computer`` (a bot level) the computer holds its last seat;
        ``turn_based`` with ``move_days`` (None: no limit) for a game played over days;
        ``chat``: whether spectators may write, whether the chat stays out of public replays;
        ``seed`` and ``daily``: a player's attempt at a daily deal (app/history/daily.py;
        DailyTaken when they have one, and no room is made)."""
        try:
            game = get_game(game_name)
        except KeyError as error:
            raise Refusal("unknown_game", str(error.args[0])) from None
        resolved = room_options(game, options, preset)
        if computer is not None:
            check_computer(game.name, game.seats, computer)
        check_turn_based(game.seats, turn_based, move_days)
        now = self.clock()
        room_id = secrets.token_urlsafe(ROOM_ID_BYTES)
        row = Room(
            id=room_id,
            game=game.name,
            options=resolved,
            preset=preset,
            created_at=now,
            last_active_at=now,
            turn_based=turn_based,
            move_days=move_days,
            spectator_chat=chat.spectators_write,
            private_chat=chat.private,
        )
        match, state = new_match(room_id, game, resolved, 1, "waiting", now, seed)
        seats: list[Holder | None] = [None] * game.seats
        stored = []
        if computer is not None:
            seats[-1] = Holder(COMPUTER_NAME, COMPUTER, computer)
            stored.append(computer_seat(room_id, game.seats - 1, computer))
        self.store.create_room(row, match, stored, daily)
        self.on_deal(match.id, game.name, state)
        room = LiveRoom(
            id=room_id,
            game=game,
            options=resolved,
            preset=preset,
            seats=seats,
            match=LiveMatch.of(match, state),
            last_active=now,
            stored_active=now,
            wins=[0] * game.seats,
            turn_based=turn_based,
            move_days=move_days,
            spectator_chat=chat.spectators_write,
            private_chat=chat.private,
        )
        self.cache.add(room)
        logger.info("room created", extra={"room_id": room_id, "game": game.name})
        return room

    def room(self, room_id: str) -> LiveRoom:
        """The room, loaded here if need be (from a thread; the event loop uses open_room)."""
        return self.cache.get(room_id)

    async def open_room(self, room_id: str) -> LiveRoom:
        return await self.cache.load(room_id)

    async def renamed(self, player: str, name: str, room_ids: list[str]) -> None:
        """The player's seats in the live rooms of this process carry their new name (stored
        already); everyone at those tables sees it."""
        for room_id in room_ids:
            room = self.cache.rooms.get(room_id)
            if room is None:
                continue
            async with room.lock:
                for holder in room.seats:
                    if holder is not None and holder.player_id == player:
                        holder.name = name
                self.events.publish(SeatsChanged(room))

    async def rooms_held_by(self, player_id: str) -> list[tuple[HeldRoom, LiveRoom]]:
        """The open rooms in which this player holds a seat, newest first, each with its
        live room."""
        found = []
        for held in self.store.rooms_held_by(player_id):
            try:
                found.append((held, await self.open_room(held.room.id)))
            except RoomNotFound:
                continue
        return found

    async def games_of(self, player: str) -> list[tuple[HeldRoom, LiveRoom, Turn | None]]:
        """Every unfinished match of this player, in every open room, with its turn: the
        ones waiting for this player first, then the others; the newest turn first."""
        games = [
            (held, live, turn_of(live) or self._live_turn(live))
            for held, live in await self.rooms_held_by(player)
            if live.match.status != "finished"
        ]

        def order(game: tuple[HeldRoom, LiveRoom, Turn | None]) -> tuple[bool, float]:
            held, live, turn = game
            since = turn.since if turn is not None else held.room.created_at
            return (live.to_move() != held.seat, -since.timestamp())

        return sorted(games, key=order)

    @staticmethod
    def _live_turn(room: LiveRoom) -> Turn | None:
        """A live room's turn: whose, since when (no deadline)."""
        seat = room.to_move()
        if seat is None or room.turn_started is None:
            return None
        return Turn(seat, room.turn_started, None)

    async def sweep_turns(self) -> None:
        await self.turns.sweep()

    # People at a room

    async def join(self, room: LiveRoom, name: str, player_id: str) -> int | None:
        return await self.players.join(room, name, player_id)

    async def add_computer(self, room: LiveRoom, level: str, player_id: str | None) -> int:
        return await self.parts.seats.add(room, level, player_id)

    async def leave(self, room: LiveRoom, player_id: str | None) -> None:
        """A player gives up their seat in a waiting room; once nobody is seated, the room
        closes (here and, told over the relay, in the other processes)."""
        if not await self.players.leave(room, player_id):
            return
        await self.cache.close_here(room.id, EVERYONE_LEFT)
        if self.others is not None:
            self.others.announce(
                {"t": "close", "room": room.id, "reason": EVERYONE_LEFT}, everyone=True
            )

    async def connect(self, room: LiveRoom, connection: Connection) -> None:
        await self.players.connect(room, connection)

    async def disconnect(self, room: LiveRoom, connection: Connection) -> None:
        await self.players.disconnect(room, connection)

    # A client's message

    async def handle(
        self, room: LiveRoom, connection: Connection, message: AnyClientMessage
    ) -> None:
        """One parsed client message; a Refusal says why nothing changed."""
        if isinstance(message, ActionMessage):
            await self.actions.play(room, connection.seat, message.version, message.action)
        elif isinstance(message, Ping):
            connection.send(texts.PONG)
        elif isinstance(message, Visibility):
            connection.visible = message.visible
        elif (feature := self.features.handler(message)) is not None:
            await feature.handle(room, connection, message)
        else:
            raise Refusal("malformed", f"no part of the table handles {message.type}")

    # Closing

    async def close_idle_rooms(self) -> list[str]:
        if self.others is None:
            return await self.cache.close_idle(self.clock())
        closed = await self.cache.close_idle_shared(self.clock())
        for room_id in closed:
            self.others.announce({"t": "close", "room": room_id}, everyone=True)
        return closed

    async def shutdown(self) -> None:
        await self.parts.takeovers.shutdown()
        self.cache.clear()
