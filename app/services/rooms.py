"""Rooms as players meet them: creating one, taking a seat, connecting, and the action path.

The database is the source of truth: an action is stored before anyone hears of it.
Messages for one room are handled one at a time under the room's lock. Fan-out only
queues texts on each connection (its own writer sends them), so nothing under the lock
waits on a socket.
"""

from __future__ import annotations

import logging
import secrets
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError
from sqlalchemy.exc import IntegrityError, SQLAlchemyError

from app.messaging import Broadcaster, Connection
from app.observability import ACTION_LATENCY, actions_of
from app.protocol import Ping, RematchRequest, TakeoverChoice
from app.services import texts
from app.services.cache import STORE_ACTIVITY_EVERY, RoomCache
from app.services.computer import ComputerPlayers
from app.services.live import (
    Holder,
    LiveMatch,
    LiveRoom,
    check_open,
    last_action,
    new_match,
    room_options,
)
from app.services.refusals import Refusal, describe_error
from app.services.schemas import action_adapter
from app.services.seats import COMPUTER_NAME, ComputerSeats, check_computer, computer_seat
from app.settings import Settings
from app.storage.models import COMPUTER, Room, Seat
from app.storage.repositories import (
    ActionWrite,
    Finish,
    HeldRoom,
    PlyTaken,
    SeatTaken,
    Store,
)
from engine import IllegalAction, get_game

if TYPE_CHECKING:
    from app.relay import RedisRelay as Relay

logger = logging.getLogger(__name__)

ROOM_ID_BYTES = 18  # 144 bits


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
    ) -> None:
        self.settings = settings
        self.store = store
        self.broadcaster = broadcaster
        self.clock = clock
        # Several processes (REDIS_URL): what this one stores, it announces to the others.
        self.relay = relay
        self.cache = RoomCache(store, broadcaster, settings.room_idle_minutes)
        self.computer = ComputerPlayers(self, settings)
        self.seats = ComputerSeats(self)
        self.cache.on_close = self.computer.forget
        if relay is not None:
            self.cache.on_load = lambda room: relay.announce({"t": "hello", "room": room.id})

    # Creating and finding rooms

    def create_room(
        self,
        game_name: str,
        options: dict[str, Any],
        preset: str | None,
        computer: str | None = None,
    ) -> LiveRoom:
        """A new room; with ``computer`` (a bot level) the computer holds its last seat."""
        try:
            game = get_game(game_name)
        except KeyError as error:
            raise Refusal("unknown_game", str(error.args[0])) from None
        resolved = room_options(game, options, preset)
        if computer is not None:
            check_computer(game.name, game.seats, computer)
        now = self.clock()
        room_id = secrets.token_urlsafe(ROOM_ID_BYTES)
        row = Room(
            id=room_id,
            game=game.name,
            options=resolved,
            preset=preset,
            created_at=now,
            last_active_at=now,
        )
        match, state = new_match(room_id, game, resolved, 1, "waiting", now)
        seats: list[Holder | None] = [None] * game.seats
        stored = []
        if computer is not None:
            seats[-1] = Holder(COMPUTER_NAME, COMPUTER, computer)
            stored.append(computer_seat(room_id, game.seats - 1, computer))
        self.store.create_room(row, match, stored)
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
        )
        self.cache.add(room)
        logger.info("room created", extra={"room_id": room_id, "game": game.name})
        return room

    def room(self, room_id: str) -> LiveRoom:
        """The room, loaded here if need be (from a thread; the event loop uses open_room)."""
        return self.cache.get(room_id)

    async def open_room(self, room_id: str) -> LiveRoom:
        return await self.cache.load(room_id)

    def rooms_held_by(self, token_hash: str) -> list[HeldRoom]:
        return self.store.rooms_held_by(token_hash)

    # Seats and connections

    async def join(self, room_id: str, name: str, token_hash: str) -> int | None:
        """The seat this player holds, else a free seat, else None (a spectator)."""
        room = await self.open_room(room_id)
        async with room.lock:
            check_open(room)
            # With several processes, another one may have seated someone: the database
            # knows (and a seat lost in a race sends us to the next free one).
            for _attempt in range(room.game.seats + 1):
                if self.relay is not None:
                    await self.cache.catch_up(room)
                held = room.seat_of(token_hash)
                if held is not None:
                    return held
                free = room.free_seats()
                if not free:
                    return None
                if await self._take_seat(room, free, name, token_hash):
                    return free[0]
                if self.relay is None:
                    return None
            return None

    async def _take_seat(
        self, room: LiveRoom, free: list[int], name: str, token_hash: str
    ) -> bool:
        now = self.clock()
        starts = len(free) == 1
        seat = Seat(room_id=room.id, seat=free[0], name=name, token_hash=token_hash)
        try:
            await self.store.off_loop(
                self.store.take_seat, seat, room.match.id if starts else None, now
            )
        except SeatTaken:
            logger.warning("seat taken elsewhere", extra={"room_id": room.id, "seat": free[0]})
            return False
        room.seats[free[0]] = Holder(name, token_hash)
        self._seated(room, free[0], starts, now)
        self._seat_watchers(room, token_hash, free[0])
        self.broadcaster.publish_all(room.id, texts.presence_text(room))
        self._publish_state(room)
        self._announce({"t": "seat", "room": room.id})
        self._announce_online(room)
        self.computer.update(room)
        return True

    def _seated(self, room: LiveRoom, seat: int, starts: bool, now: datetime) -> None:
        room.last_active = room.stored_active = now
        if starts:
            room.match.status = "playing"
            room.turn_since = time.monotonic()
        logger.info(
            "seat taken", extra={"room_id": room.id, "seat": seat, "match_id": room.match.id}
        )

    def _seat_watchers(self, room: LiveRoom, token_hash: str, seat: int) -> None:
        """Sockets this player opened before joining become the seat's."""
        for connection in self.broadcaster.connections(room.id, None):
            if connection.token_hash == token_hash:
                self.broadcaster.reseat(room.id, connection, seat)
                room.online[seat] += 1

    async def connect(self, room: LiveRoom, connection: Connection) -> None:
        """Seat the connection by its token (or not: a spectator) and send a full sync."""
        async with room.lock:
            check_open(room)
            connection.seat = room.seat_of(connection.token_hash)
            if connection.seat is None and connection.token_hash and self.relay is not None:
                # Seated through another process a moment ago? The database knows.
                await self.cache.catch_up(room)
                connection.seat = room.seat_of(connection.token_hash)
            self.broadcaster.subscribe(room.id, connection)
            room.last_active = self.clock()
            if connection.seat is not None:
                room.online[connection.seat] += 1
                self.seats.reclaim(room, connection.seat)
            connection.send(texts.state_texts(room, [connection.seat])[connection.seat])
            if room.id in self.computer.offered:
                connection.send(self.computer.offer_text(room))
            if connection.seat is not None and room.online[connection.seat] == 1:
                self.broadcaster.publish_all(room.id, texts.presence_text(room))
                self._announce_online(room)
            # After a restart too: the computer to move thinks; an absent seat is watched.
            self.computer.update(room)

    async def disconnect(self, room: LiveRoom, connection: Connection) -> None:
        """A dropped seat keeps the seat; the others learn that it went away."""
        self.broadcaster.unsubscribe(room.id, connection)
        if connection.seat is None or room.closed:
            return
        async with room.lock:
            room.online[connection.seat] -= 1
            if room.online[connection.seat] == 0:
                self.broadcaster.publish_all(room.id, texts.presence_text(room))
                self._announce_online(room)
                self.computer.update(room, think=False)

    # The message path

    async def handle(self, room: LiveRoom, connection: Connection, message: Any) -> None:
        """One parsed client message; a Refusal says why nothing changed."""
        if isinstance(message, Ping):
            connection.send(texts.PONG)
        elif isinstance(message, RematchRequest):
            await self._ask_rematch(room, connection)
        elif isinstance(message, TakeoverChoice):
            await self.seats.answer_takeover(room, connection, message)
        else:
            await self.play(room, connection.seat, message.version, message.action)

    async def play(
        self,
        room: LiveRoom,
        seat: int | None,
        version: int,
        action: dict[str, Any],
        by_computer: bool = False,
    ) -> None:
        """One action of a seat, a person's or the computer's (the same path for both)."""
        started = time.perf_counter()
        await self._act(room, seat, version, action, by_computer)
        actions_of(room.game.name).inc()
        ACTION_LATENCY.observe(time.perf_counter() - started)

    async def _act(
        self,
        room: LiveRoom,
        seat: int | None,
        version: int,
        action: dict[str, Any],
        by_computer: bool,
    ) -> None:
        """The action path, guards in order: seat, match running, turn, version, shape,
        engine; then store, then fan out."""
        async with room.lock:
            check_open(room)
            match, game = room.match, room.game
            if seat is None:
                raise Refusal("not_seated", "spectators cannot act; join a free seat first")
            if by_computer and not room.played_by_computer(seat):
                raise Refusal("not_your_turn", "the player took their seat back")
            if match.status == "finished":
                raise Refusal("game_over", "the match is over")
            if match.status == "waiting":
                raise Refusal("waiting", "the match starts when every seat is taken")
            self._check_relay()
            if version > match.version and self.relay is not None:
                # Another process stored newer actions than this one has heard of yet.
                await self.cache.catch_up(room)
                match = room.match
                if match.status != "playing":
                    raise Refusal("stale", "the match moved on; here is the current state")
            if game.to_move(match.state) != seat:
                raise Refusal("not_your_turn", "it is not your turn")
            if version != match.version:
                raise Refusal(
                    "stale", f"version {version} is not the current version {match.version}"
                )
            try:
                action_adapter(game.name).validate_python(action, strict=True)
            except ValidationError as error:
                raise Refusal("malformed", describe_error(error)) from None
            try:
                state = game.apply(match.state, seat, action)
            except IllegalAction as error:
                raise Refusal(error.code, error.message) from None  # type: ignore[arg-type]
            try:
                await self._store_action(room, seat, action, state, by_computer)
            except PlyTaken:
                # Another server process stored this version first: catch up, then say so.
                await self.cache.catch_up(room)
                self._publish_state(room)
                raise Refusal("stale", "another action was stored first") from None
            self._publish_state(room)
            self._announce(
                {
                    "t": "action",
                    "room": room.id,
                    "match": match.id,
                    "v": match.version,
                    "seat": seat,
                    "action": action,
                    "computer": by_computer,
                }
            )
            self.computer.update(room)

    async def _store_action(
        self, room: LiveRoom, seat: int, action: dict[str, Any], state: Any, by_computer: bool
    ) -> None:
        """Store the action, then advance the live match (never the other way round)."""
        game, match = room.game, room.match
        now = self.clock()
        result = game.result(state)
        finish = None if result is None else Finish(result.to_json(), result.winner, now)
        touch = now - room.stored_active >= STORE_ACTIVITY_EVERY
        try:
            await self.store.store_action(
                ActionWrite(
                    match.id,
                    match.version + 1,
                    seat,
                    action,
                    now,
                    finish,
                    active_room=room.id if touch else None,
                    by_computer=by_computer,
                )
            )
        except SQLAlchemyError:
            logger.exception(
                "storing an action failed",
                extra={"room_id": room.id, "match_id": match.id, "seat": seat},
            )
            raise Refusal("unavailable", "the move could not be saved; try again") from None
        room.last_active = now
        if touch:
            room.stored_active = now
        advance(room, seat, action, state, by_computer)

    async def _ask_rematch(self, room: LiveRoom, connection: Connection) -> None:
        async with room.lock:
            check_open(room)
            if connection.seat is None:
                raise Refusal("not_seated", "spectators cannot ask for a rematch")
            self._check_relay()
            if room.match.status != "finished":
                raise Refusal("illegal", "a rematch can be asked for once the match is over")
            try:
                # Stored, so that a restart keeps it (and other processes see it).
                stored = self.store.request_rematch(room.match.id, connection.seat)
            except SQLAlchemyError:
                logger.exception("storing a rematch request failed", extra={"room_id": room.id})
                raise Refusal("unavailable", "the request could not be saved; try again") from None
            room.rematch.update(stored)
            room.last_active = self.clock()
            computers = {seat for seat, h in enumerate(room.seats) if h and h.is_computer}
            if len(room.rematch | computers) < room.game.seats:
                self.broadcaster.publish_all(room.id, texts.rematch_text(room))
                self._announce({"t": "rematch", "room": room.id})
                return
            await self._start_rematch(room)
            self._publish_state(room)
            self._announce({"t": "rematch", "room": room.id})
            self.computer.update(room)

    async def _start_rematch(self, room: LiveRoom) -> None:
        game, previous = room.game, room.match
        options = game.rematch_options(room.options, previous.result, previous.first_seat)
        row, state = new_match(room.id, game, options, previous.number + 1, "playing", self.clock())
        try:
            self.store.add_match(row)
        except IntegrityError:
            # Another process started this rematch first (the room's match numbers are unique).
            await self.cache.catch_up(room)
            return
        except SQLAlchemyError:
            logger.exception("storing a rematch failed", extra={"room_id": room.id})
            raise Refusal("unavailable", "the rematch could not be saved; try again") from None
        room.match = LiveMatch.of(row, state)
        room.turn_since = time.monotonic()
        room.rematch.clear()
        logger.info(
            "rematch started",
            extra={"room_id": room.id, "match_id": row.id, "first_seat": row.first_seat},
        )

    def _publish_state(self, room: LiveRoom) -> None:
        audiences = self.broadcaster.audiences(room.id)
        self.broadcaster.publish(room.id, texts.state_texts(room, audiences))

    def _publish_changed(self, room: LiveRoom) -> None:
        """After catching up with another process: presence, then each audience's state."""
        self.broadcaster.publish_all(room.id, texts.presence_text(room))
        self._publish_state(room)

    def _check_relay(self) -> None:
        """With several processes, a change the others cannot hear of is not made: their
        clients would miss it until Redis is back."""
        if self.relay is not None and not self.relay.connected:
            raise Refusal("unavailable", "the server cannot reach its peers; try again")

    def _announce(self, event: dict[str, Any]) -> None:
        if self.relay is not None:
            self.relay.announce(event)

    def _announce_online(self, room: LiveRoom) -> None:
        if self.relay is not None:
            self.relay.announce({"t": "online", "room": room.id, "seats": room.local_online()})

    # Closing

    async def close_idle_rooms(self) -> list[str]:
        if self.relay is None:
            return await self.cache.close_idle(self.clock())
        closed = await self.cache.close_idle_shared(self.clock())
        for room_id in closed:
            self.relay.announce({"t": "close", "room": room_id})
        return closed

    async def shutdown(self) -> None:
        await self.computer.shutdown()
        self.cache.clear()


def advance(
    room: LiveRoom, seat: int, action: dict[str, Any], state: Any, by_computer: bool = False
) -> None:
    """Move the live match on by one stored action (stored by this process or another)."""
    game, match = room.game, room.match
    match.state = state
    match.version += 1
    match.last_action = last_action(game, seat, action, by_computer)
    room.turn_since = time.monotonic()
    result = game.result(state)
    if result is not None:
        match.status, match.result = "finished", result
        room.count_finished(result.winner)
        logger.info(
            "match finished",
            extra={"room_id": room.id, "match_id": match.id, "winner": result.winner},
        )
