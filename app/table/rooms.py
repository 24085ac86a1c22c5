"""Rooms as players meet them: creating one, finding one, routing a client's message to
the part that handles it, and closing rooms nobody uses. Here the parts are put together,
each given only what it uses; none of them knows this service.

The parts, each in a module named for what it holds:

- ``cache``: the rooms this process holds in memory, rebuilt from the database;
- ``players``: taking a seat and leaving it while the room waits, sockets connecting and
  going away (presence), taking a seat back from the computer;
- ``actions``: the action path, top to bottom in one place;
- ``rematch``: asking for the next match and starting it;
- ``endings``: a match a player ends: resigned, aborted, or abandoned for an absent one;
- ``takebacks``: asking to take back a move, answering, taking it back;
- ``seats`` and ``computer``: the computer's seats, its moves, taking over an absent seat;
- ``push``: Web Push to players away from the table (your turn, a rematch, the end);
- ``events``: the room-events hub, which tells a stored change to its subscribers: this
  process's sockets and the other processes (``news``), and the computer players.

The database is the source of truth: a change is stored before anyone hears of it.
Messages for one room are handled one at a time under the room's lock. Fan-out only
queues texts on each connection (its own writer sends them), so nothing under the lock
waits on a socket.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from app.cluster.peers import Cluster
from app.computer.players import ComputerPlayers
from app.messaging import Broadcaster, Connection
from app.people.push import Notifier, PushListener
from app.people.records import Ratings, RatingsListener
from app.protocol import (
    Abort,
    Ping,
    React,
    RematchRequest,
    Resign,
    Say,
    TakebackAnswer,
    TakebackRequest,
    TakeoverChoice,
    Visibility,
)
from app.settings import Settings
from app.storage.models import COMPUTER, DailyRow, Room
from app.storage.players import PlayerStore
from app.storage.records import RecordStore
from app.storage.repositories import HeldRoom, Store
from app.table import texts
from app.table.actions import Actions
from app.table.cache import RoomCache
from app.table.chat import NO_CHOICES, Chat, ChatChoices
from app.table.devices import DeviceSockets
from app.table.endings import Endings
from app.table.events import RoomEvents
from app.table.live import Holder, LiveMatch, LiveRoom, new_match, room_options
from app.table.news import RelayNews, RoomNews
from app.table.players import Players
from app.table.refusals import Refusal, RoomNotFound
from app.table.rematch import OnDeal, Rematches
from app.table.seats import COMPUTER_NAME, ComputerSeats, check_computer, computer_seat
from app.table.takebacks import Takebacks
from app.table.turns import Turn, Turns, check_turn_based, turn_of
from engine import get_game

if TYPE_CHECKING:
    from app.cluster.relay import RedisRelay as Relay

logger = logging.getLogger(__name__)

ROOM_ID_BYTES = 18  # 144 bits
EVERYONE_LEFT = "everyone left the room"


def utc_now() -> datetime:
    return datetime.now(UTC)


class RoomService:
    def __init__(
        self,
        settings: Settings,
        store: Store,
        broadcaster: Broadcaster,
        clock: Callable[[], datetime] = utc_now,
        relay: Relay | None = None,
        on_deal: OnDeal | None = None,
        notifier: Notifier | None = None,
    ) -> None:
        self.settings = settings
        # Told of every match dealt here (its id, game and first state): MatchService.foresee.
        self.on_deal = on_deal or (lambda match_id, game, state: None)
        self.store = store
        self.clock = clock
        # Several processes (REDIS_URL): what this one stores, it announces to the others.
        self.relay = relay
        shared = relay is not None
        self.cache = cache = RoomCache(store, broadcaster, settings.room_idle_minutes)
        self.events = events = RoomEvents()
        self.news = news = RoomNews(broadcaster)
        # Every part reads the clock through here: a test may move ``self.clock``.
        now = lambda: self.clock()  # noqa: E731
        self.actions = Actions(store, cache, events, now, shared)
        self.computer = computer = ComputerPlayers(settings, store, news, self.actions.play, now)
        self.turns = Turns(store, cache, computer, now)
        self.players = Players(store, cache, broadcaster, events, now, shared, computer.open_offer)
        self.rematches = Rematches(store, cache, events, now, self.on_deal)
        self.endings = endings = Endings(store, cache, events, now, shared)
        self.takebacks = Takebacks(store, cache, events, now)
        self.seats = ComputerSeats(store, cache, events, computer, endings, now, shared)
        self.chat = Chat(store, events, now)
        # The sockets of signed-in devices, so that signing one out closes them.
        self.devices = devices = DeviceSockets(
            relay, PlayerStore(store.engine).signed_in, store.off_loop
        )
        # The players' ratings beside their names (app/people/records.py): first, so that
        # the texts of a change carry them.
        self.ratings = Ratings(RecordStore(store.engine))
        self.seat_ratings = seat_ratings = RatingsListener(
            self.ratings, store.off_loop, cache.held_rooms, settings.public_history
        )
        # The order is the order in which they hear of a change.
        events.subscribe(seat_ratings)
        events.subscribe(news)
        # What other processes announce (with REDIS_URL): app/main.py starts the relay with it.
        self.cluster: Cluster | None = None
        if relay is not None:
            relay_news = RelayNews(relay)
            events.subscribe(relay_news)
            self.cluster = Cluster(cache, news, relay_news, events, seat_ratings.ended, devices)
            self.players.follower = self.cluster
            cache.on_load = self.cluster.loaded
        events.subscribe(computer)
        # Web Push to players away from the table (app/main.py makes the notifier).
        self.notifier = notifier
        if notifier is not None:
            base_url = settings.public_base_url or ""
            push = PushListener(notifier, broadcaster, base_url)
            events.subscribe(push)
            self.turns.on_reminder = push.remind
        cache.on_close = self._forget
        cache.on_seats = seat_ratings.show

    def _forget(self, room_id: str) -> None:
        """A room closed: nothing more is done or heard for it here."""
        self.computer.forget(room_id)
        if self.relay is not None:
            self.relay.unfollow(room_id)

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
        self.seat_ratings.show(room)
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
                self.events.seats_changed(room)

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
        return await self.seats.add(room, level, player_id)

    async def leave(self, room: LiveRoom, player_id: str | None) -> None:
        """A player gives up their seat in a waiting room; once nobody is seated, the room
        closes (here and, told over the relay, in the other processes)."""
        if not await self.players.leave(room, player_id):
            return
        await self.cache.close_here(room.id, EVERYONE_LEFT)
        if self.relay is not None:
            self.relay.announce(
                {"t": "close", "room": room.id, "reason": EVERYONE_LEFT}, everyone=True
            )

    async def connect(self, room: LiveRoom, connection: Connection) -> None:
        await self.players.connect(room, connection)

    async def disconnect(self, room: LiveRoom, connection: Connection) -> None:
        await self.players.disconnect(room, connection)

    # A client's message

    async def handle(self, room: LiveRoom, connection: Connection, message: Any) -> None:
        """One parsed client message; a Refusal says why nothing changed."""
        if isinstance(message, Ping):
            connection.send(texts.PONG)
        elif isinstance(message, Visibility):
            connection.visible = message.visible
        elif isinstance(message, RematchRequest):
            await self.rematches.ask(room, connection)
        elif isinstance(message, TakeoverChoice):
            await self.seats.answer_takeover(room, connection, message)
        elif isinstance(message, Resign):
            await self.endings.resign(room, connection.seat)
        elif isinstance(message, Abort):
            await self.endings.abort(room, connection.seat)
        elif isinstance(message, TakebackRequest):
            await self.takebacks.ask(room, connection)
        elif isinstance(message, TakebackAnswer):
            await self.takebacks.answer(room, connection, message.accept)
        elif isinstance(message, Say | React):
            await self.chat.say(room, connection, message)
        else:
            await self.actions.play(room, connection.seat, message.version, message.action)

    # Closing

    async def close_idle_rooms(self) -> list[str]:
        if self.relay is None:
            return await self.cache.close_idle(self.clock())
        closed = await self.cache.close_idle_shared(self.clock())
        for room_id in closed:
            self.relay.announce({"t": "close", "room": room_id}, everyone=True)
        return closed

    async def shutdown(self) -> None:
        await self.computer.shutdown()
        await self.seat_ratings.stop()
        if self.notifier is not None:
            await self.notifier.shutdown()
        self.cache.clear()
