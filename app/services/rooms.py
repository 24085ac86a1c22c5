"""The live rooms: seats, the action path, presence, rematch and closing idle rooms.

A room lives in memory while it is in use and is rebuilt from the database on first access
(seed + options + stored actions, replayed through the engine). The database is the source
of truth: an action is stored before anyone hears of it. Messages for one room are handled
one at a time under the room's lock. Fan-out only queues texts on each connection (its own
writer sends them), so nothing under the lock waits on a socket.
"""

from __future__ import annotations

import asyncio
import logging
import re
import secrets
import time
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import orjson
from pydantic import ValidationError
from sqlalchemy.exc import SQLAlchemyError

from app.messaging import Audience, Broadcaster, Connection
from app.observability import ACTION_LATENCY, ACTIONS, MATCHES_IN_PROGRESS, ROOMS_OPEN
from app.protocol import (
    CLIENT_MESSAGE,
    CLOSE_RATE_LIMITED,
    CLOSE_ROOM_CLOSED,
    ActionMessage,
    ErrorCode,
    Ping,
    RematchRequest,
)
from app.settings import Settings
from app.storage.models import Match, Room, Seat
from app.storage.repositories import (
    Finish,
    HeldRoom,
    LoadedRoom,
    PlyTaken,
    SeatTaken,
    Store,
)
from engine import Game, IllegalAction, Outcome, get_game, replay, resolve_options

logger = logging.getLogger(__name__)

# The database learns of activity at most this often (the hot path stays one INSERT).
STORE_ACTIVITY_EVERY = timedelta(minutes=1)
ROOM_ID_BYTES = 18  # 144 bits
# What token_urlsafe makes; anything else is no room (and a NUL is an error on PostgreSQL).
ROOM_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
# Refusals that a well-behaved client never causes are logged louder.
SUSPICIOUS = {"malformed", "too_large", "rate_limited", "not_seated", "forbidden_origin"}


def utc_now() -> datetime:
    return datetime.now(UTC)


def dumps(message: dict[str, Any]) -> str:
    # orjson: the per-seat texts of every move are the server's largest CPU cost after the engine.
    return orjson.dumps(message).decode()


PONG = dumps({"type": "pong"})


def error_text(code: ErrorCode, message: str) -> str:
    return dumps({"type": "error", "code": code, "message": message})


class Refusal(Exception):
    """A client's message that is refused; nothing changed."""

    def __init__(self, code: ErrorCode, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class RoomNotFound(Exception):
    pass


@dataclass
class Holder:
    name: str
    token_hash: str


@dataclass
class LiveMatch:
    id: int
    number: int
    first_seat: int | None
    state: Any
    status: str  # waiting (seats free), playing, finished
    version: int = 0
    last_action: dict[str, Any] | None = None
    result: Outcome | None = None

    @classmethod
    def of(cls, row: Match, state: Any) -> LiveMatch:
        """A new match as stored in `row`, at its first state."""
        return cls(row.id, row.number, row.first_seat, state, row.status)


@dataclass
class LiveRoom:
    id: str
    game: Game[Any]
    options: dict[str, Any]
    preset: str | None
    seats: list[Holder | None]
    match: LiveMatch
    last_active: datetime
    stored_active: datetime
    wins: list[int]
    draws: int = 0
    finished: int = 0
    online: Counter[int] = field(default_factory=Counter)
    rematch: set[int] = field(default_factory=set)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    closed: bool = False

    def seat_of(self, token_hash: str | None) -> int | None:
        for seat, holder in enumerate(self.seats):
            if holder is not None and holder.token_hash == token_hash:
                return seat
        return None

    def to_move(self) -> int | None:
        if self.match.status != "playing":
            return None
        return self.game.to_move(self.match.state)

    def players(self) -> list[dict[str, Any]]:
        return [
            {"seat": seat, "name": holder and holder.name, "connected": self.online[seat] > 0}
            for seat, holder in enumerate(self.seats)
        ]

    def tally(self) -> dict[str, Any]:
        return {"wins": list(self.wins), "draws": self.draws, "matches": self.finished}

    def count_finished(self, winner: int | None) -> None:
        self.finished += 1
        if winner is not None:
            self.wins[winner] += 1
        elif self.game.seats > 1:
            self.draws += 1


def room_options(game: Game[Any], options: dict[str, Any], preset: str | None) -> dict[str, Any]:
    """The preset's values, then the given ones, over the defaults."""
    chosen: dict[str, Any] = {}
    if preset is not None:
        found = [p for p in game.presets if p.name == preset]
        if not found:
            names = ", ".join(p.name for p in game.presets) or "none"
            raise Refusal("unknown_preset", f"unknown preset {preset!r}; known: {names}")
        chosen.update(found[0].options)
    chosen.update(options)
    try:
        return resolve_options(game.options, chosen)
    except ValueError as error:
        raise Refusal("bad_option", str(error)) from None


class RoomService:
    def __init__(
        self,
        settings: Settings,
        store: Store,
        broadcaster: Broadcaster,
        clock: Callable[[], datetime] = utc_now,
    ) -> None:
        self.settings = settings
        self.store = store
        self.broadcaster = broadcaster
        self.clock = clock
        self.rooms: dict[str, LiveRoom] = {}

    # Creating and finding rooms

    def create_room(self, game_name: str, options: dict[str, Any], preset: str | None) -> LiveRoom:
        try:
            game = get_game(game_name)
        except KeyError as error:
            raise Refusal("unknown_game", str(error.args[0])) from None
        resolved = room_options(game, options, preset)
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
        match, state = self._new_match(room_id, game, resolved, 1, "waiting", now)
        self.store.create_room(row, match)
        room = LiveRoom(
            id=room_id,
            game=game,
            options=resolved,
            preset=preset,
            seats=[None] * game.seats,
            match=LiveMatch.of(match, state),
            last_active=now,
            stored_active=now,
            wins=[0] * game.seats,
        )
        self._go_live(room)
        logger.info("room created", extra={"room_id": room_id, "game": game.name})
        return room

    def room(self, room_id: str) -> LiveRoom:
        """The live room, rebuilt from the database on first access."""
        room = self.rooms.get(room_id)
        if room is not None:
            return room
        loaded = self.store.load_room(room_id) if ROOM_ID.fullmatch(room_id) else None
        if loaded is None:
            raise RoomNotFound(room_id)
        room = self._rebuild(loaded)
        self._go_live(room)
        logger.info("room loaded", extra={"room_id": room_id, "version": room.match.version})
        return room

    def _new_match(
        self,
        room_id: str,
        game: Game[Any],
        options: dict[str, Any],
        number: int,
        status: str,
        now: datetime,
    ) -> tuple[Match, Any]:
        """A match row to store, and its first state (the seed never leaves the row)."""
        seed = secrets.randbits(63)
        state = game.new(seed=seed, options=options)
        row = Match(
            room_id=room_id,
            number=number,
            game=game.name,
            seed=seed,
            options=options,
            first_seat=game.to_move(state),
            status=status,
            started_at=now if status == "playing" else None,
        )
        return row, state

    def _rebuild(self, loaded: LoadedRoom) -> LiveRoom:
        game = get_game(loaded.room.game)
        row = loaded.match
        moves = [(stored.seat, stored.action) for stored in loaded.actions]
        *_, state = replay(game, row.seed, row.options, moves)
        last_action = self._last_action(game, *moves[-1]) if moves else None
        match = LiveMatch(
            row.id,
            row.number,
            row.first_seat,
            state,
            row.status,
            version=len(loaded.actions),
            last_action=last_action,
            result=game.result(state),
        )
        seats: list[Holder | None] = [None] * game.seats
        for seat in loaded.seats:
            seats[seat.seat] = Holder(seat.name, seat.token_hash)
        room = LiveRoom(
            id=loaded.room.id,
            game=game,
            options=loaded.room.options,
            preset=loaded.room.preset,
            seats=seats,
            match=match,
            last_active=loaded.room.last_active_at,
            stored_active=loaded.room.last_active_at,
            wins=[0] * game.seats,
        )
        for winner in loaded.finished_winners:
            room.count_finished(winner)
        room.rematch.update(loaded.rematch)
        return room

    def _catch_up(self, room: LiveRoom) -> None:
        """Take the match, seats and tally from the database (the source of truth)."""
        loaded = self.store.load_room(room.id)
        if loaded is None:
            raise Refusal("unknown_room", "this room was closed")
        fresh = self._rebuild(loaded)
        was_playing = room.match.status == "playing"
        room.match, room.seats, room.rematch = fresh.match, fresh.seats, fresh.rematch
        room.wins, room.draws, room.finished = fresh.wins, fresh.draws, fresh.finished
        MATCHES_IN_PROGRESS.inc((room.match.status == "playing") - was_playing)
        logger.info("room caught up", extra={"room_id": room.id, "version": room.match.version})

    def _go_live(self, room: LiveRoom) -> None:
        self.rooms[room.id] = room
        ROOMS_OPEN.inc()
        if room.match.status == "playing":
            MATCHES_IN_PROGRESS.inc()

    def describe(self, room: LiveRoom) -> dict[str, Any]:
        return {
            "room_id": room.id,
            "game": room.game.name,
            "options": room.options,
            "preset": room.preset,
            "seats": room.players(),
            "status": room.match.status,
            "match_id": room.match.id,
            "tally": room.tally(),
        }

    def rooms_held_by(self, token_hash: str) -> list[HeldRoom]:
        return self.store.rooms_held_by(token_hash)

    # Seats and connections

    async def join(self, room_id: str, name: str, token_hash: str) -> int | None:
        """The seat this player holds, else a free seat, else None (a spectator)."""
        room = self.room(room_id)
        async with room.lock:
            self._check_open(room)
            held = room.seat_of(token_hash)
            if held is not None:
                return held
            free = [seat for seat, holder in enumerate(room.seats) if holder is None]
            if not free:
                return None
            now = self.clock()
            starts = len(free) == 1
            seat = Seat(room_id=room.id, seat=free[0], name=name, token_hash=token_hash)
            try:
                self.store.take_seat(seat, room.match.id if starts else None, now)
            except SeatTaken:
                logger.warning("seat taken elsewhere", extra={"room_id": room.id, "seat": free[0]})
                return None
            room.seats[free[0]] = Holder(name, token_hash)
            room.last_active = room.stored_active = now
            if starts:
                room.match.status = "playing"
                MATCHES_IN_PROGRESS.inc()
            self._seat_watchers(room, token_hash, free[0])
            self.broadcaster.publish_all(room.id, self._presence(room))
            self._publish_state(room)
            logger.info(
                "seat taken", extra={"room_id": room.id, "seat": free[0], "match_id": room.match.id}
            )
            return free[0]

    def _seat_watchers(self, room: LiveRoom, token_hash: str, seat: int) -> None:
        """Sockets this player opened before joining become the seat's."""
        for connection in self.broadcaster.connections(room.id, None):
            if connection.token_hash == token_hash:
                self.broadcaster.reseat(room.id, connection, seat)
                room.online[seat] += 1

    async def connect(self, room: LiveRoom, connection: Connection) -> None:
        """Seat the connection by its token (or not: a spectator) and send a full sync."""
        async with room.lock:
            self._check_open(room)
            connection.seat = room.seat_of(connection.token_hash)
            self.broadcaster.subscribe(room.id, connection)
            room.last_active = self.clock()
            if connection.seat is not None:
                room.online[connection.seat] += 1
            connection.send(self._state_texts(room, [connection.seat])[connection.seat])
            if connection.seat is not None and room.online[connection.seat] == 1:
                self.broadcaster.publish_all(room.id, self._presence(room))

    async def disconnect(self, room: LiveRoom, connection: Connection) -> None:
        """A dropped seat keeps the seat; the others learn that it went away."""
        self.broadcaster.unsubscribe(room.id, connection)
        unlogged = connection.refusals.flush()
        if unlogged:
            logger.warning(
                "refused %d more messages before the connection ended",
                unlogged,
                extra={"room_id": room.id, "seat": connection.seat, "count": unlogged},
            )
        if connection.seat is None or room.closed:
            return
        async with room.lock:
            room.online[connection.seat] -= 1
            if room.online[connection.seat] == 0:
                self.broadcaster.publish_all(room.id, self._presence(room))

    # The message path

    async def receive(self, room: LiveRoom, connection: Connection, data: str | bytes) -> None:
        """Handle one websocket message; a refusal answers this connection only.

        Every message counts against the rate, junk included, before any work is done; a
        connection over its rate gets one `rate_limited` error and is closed.
        """
        started = time.perf_counter()
        if not connection.bucket.take():
            refusal = Refusal("rate_limited", "too many messages; closing this connection")
            self._log_refusal(room, connection, refusal)
            connection.send(error_text(refusal.code, refusal.message))
            connection.close(CLOSE_RATE_LIMITED, "too many messages")
            return
        try:
            message = self._parse(data)
            if isinstance(message, Ping):
                connection.send(PONG)
            elif isinstance(message, RematchRequest):
                await self._ask_rematch(room, connection)
            else:
                await self._act(room, connection, message)
                ACTIONS.labels(room.game.name).inc()
                ACTION_LATENCY.observe(time.perf_counter() - started)
        except Refusal as refusal:
            self._log_refusal(room, connection, refusal)
            connection.send(error_text(refusal.code, refusal.message))

    def _parse(self, data: str | bytes) -> Any:
        limit = self.settings.max_message_bytes
        size = len(data) if isinstance(data, bytes) else len(data.encode())
        if size > limit:
            raise Refusal("too_large", f"a message may have at most {limit} bytes")
        try:
            return CLIENT_MESSAGE.validate_json(data)
        except ValidationError as error:
            raise Refusal("malformed", describe_error(error)) from None

    async def _act(self, room: LiveRoom, connection: Connection, message: ActionMessage) -> None:
        async with room.lock:
            self._check_open(room)
            seat, match = connection.seat, room.match
            if seat is None:
                raise Refusal("not_seated", "spectators cannot act; join a free seat first")
            if match.status == "finished":
                raise Refusal("game_over", "the match is over")
            if match.status == "waiting":
                raise Refusal("waiting", "the match starts when every seat is taken")
            if room.game.to_move(match.state) != seat:
                raise Refusal("not_your_turn", "it is not your turn")
            if message.version != match.version:
                raise Refusal(
                    "stale", f"version {message.version} is not the current version {match.version}"
                )
            try:
                state = room.game.apply(match.state, seat, message.action)
            except IllegalAction as error:
                raise Refusal(error.code, error.message) from None  # type: ignore[arg-type]
            try:
                self._store_action(room, seat, message.action, state)
            except PlyTaken:
                # Another server process stored this version first: catch up, then say so.
                self._catch_up(room)
                self._publish_state(room)
                raise Refusal("stale", "another action was stored first") from None
            self._publish_state(room)

    def _store_action(self, room: LiveRoom, seat: int, action: dict[str, Any], state: Any) -> None:
        """Store the action, then advance the live match (never the other way round)."""
        game, match = room.game, room.match
        now = self.clock()
        result = game.result(state)
        finish = None if result is None else Finish(result.to_json(), result.winner, now)
        touch = now - room.stored_active >= STORE_ACTIVITY_EVERY
        try:
            self.store.record_action(
                match.id,
                match.version + 1,
                seat,
                action,
                now,
                finish,
                active_room=room.id if touch else None,
            )
        except SQLAlchemyError:
            logger.exception(
                "storing an action failed",
                extra={"room_id": room.id, "match_id": match.id, "seat": seat},
            )
            raise Refusal("unavailable", "the move could not be saved; try again") from None
        match.state = state
        match.version += 1
        match.last_action = self._last_action(game, seat, action)
        room.last_active = now
        if touch:
            room.stored_active = now
        if finish is not None:
            match.status, match.result = "finished", result
            room.count_finished(finish.winner)
            MATCHES_IN_PROGRESS.dec()
            logger.info(
                "match finished",
                extra={"room_id": room.id, "match_id": match.id, "winner": finish.winner},
            )

    async def _ask_rematch(self, room: LiveRoom, connection: Connection) -> None:
        async with room.lock:
            self._check_open(room)
            if connection.seat is None:
                raise Refusal("not_seated", "spectators cannot ask for a rematch")
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
            if len(room.rematch) < room.game.seats:
                message = {"type": "rematch", "requested_by": sorted(room.rematch)}
                self.broadcaster.publish_all(room.id, dumps(message))
                return
            self._start_rematch(room)
            self._publish_state(room)

    def _start_rematch(self, room: LiveRoom) -> None:
        game, previous = room.game, room.match
        options = game.rematch_options(room.options, previous.result, previous.first_seat)
        row, state = self._new_match(
            room.id, game, options, previous.number + 1, "playing", self.clock()
        )
        try:
            self.store.add_match(row)
        except SQLAlchemyError:
            logger.exception("storing a rematch failed", extra={"room_id": room.id})
            raise Refusal("unavailable", "the rematch could not be saved; try again") from None
        room.match = LiveMatch.of(row, state)
        room.rematch.clear()
        MATCHES_IN_PROGRESS.inc()
        logger.info(
            "rematch started",
            extra={"room_id": room.id, "match_id": row.id, "first_seat": row.first_seat},
        )

    # Fan-out

    def _publish_state(self, room: LiveRoom) -> None:
        audiences = self.broadcaster.audiences(room.id)
        self.broadcaster.publish(room.id, self._state_texts(room, audiences))

    def _state_texts(self, room: LiveRoom, audiences: Iterable[Audience]) -> dict[Audience, str]:
        """One `state` text per audience: each seat's own view, one shared by spectators."""
        game, match = room.game, room.match
        to_move = room.to_move()
        over = match.status == "finished"
        common = {
            "room_id": room.id,
            "match_id": match.id,
            "match_number": match.number,
            "version": match.version,
            "to_move": to_move,
            "last_action": match.last_action,
            "result": match.result and match.result.to_json(),
            "players": room.players(),
            "tally": room.tally(),
            "rematch": {"requested_by": sorted(room.rematch)} if over else None,
        }
        texts = {}
        for seat in audiences:
            legal = (
                game.legal_actions(match.state, seat)
                if to_move is not None and seat == to_move
                else []
            )
            texts[seat] = dumps(
                {
                    "type": "state",
                    "seat": seat,
                    **common,
                    "view": game.view(match.state, seat),
                    "legal_actions": legal,
                }
            )
        return texts

    def _presence(self, room: LiveRoom) -> str:
        return dumps({"type": "presence", "players": room.players()})

    @staticmethod
    def _last_action(game: Game[Any], seat: int, action: dict[str, Any]) -> dict[str, Any]:
        return {"seat": seat, "action": action, "text": game.notation(action)}

    # Closing

    def _check_open(self, room: LiveRoom) -> None:
        if room.closed:
            raise Refusal("unknown_room", "this room was closed")

    async def close_idle_rooms(self) -> list[str]:
        """Close every room without activity for room_idle_minutes; return their ids."""
        now = self.clock()
        cutoff = now - timedelta(minutes=self.settings.room_idle_minutes)
        idle = set(self.store.idle_room_ids(cutoff))
        for room in self.rooms.values():
            if room.last_active < cutoff:
                idle.add(room.id)
            else:
                idle.discard(room.id)
        for room_id in sorted(idle):
            await self._close(room_id, now)
        return sorted(idle)

    async def _close(self, room_id: str, now: datetime) -> None:
        self.store.close_room(room_id, now)
        room = self.rooms.pop(room_id, None)
        if room is not None:
            async with room.lock:
                room.closed = True
                self._forget(room)
        minutes = self.settings.room_idle_minutes
        self.broadcaster.close_room(
            room_id, CLOSE_ROOM_CLOSED, f"room closed after {minutes} minutes without activity"
        )
        logger.info("room closed", extra={"room_id": room_id, "reason": "idle"})

    def _forget(self, room: LiveRoom) -> None:
        ROOMS_OPEN.dec()
        if room.match.status == "playing":
            MATCHES_IN_PROGRESS.dec()

    def shutdown(self) -> None:
        """Drop the live rooms (their state is in the database)."""
        for room in self.rooms.values():
            self._forget(room)
        self.rooms.clear()

    def _log_refusal(self, room: LiveRoom, connection: Connection, refusal: Refusal) -> None:
        """One line per connection per interval, with the number of refusals it stands for."""
        count = connection.refusals.note()
        if count is None:
            return
        level = logging.WARNING if refusal.code in SUSPICIOUS else logging.INFO
        logger.log(
            level,
            "refused: %s",
            refusal.message,
            extra={
                "room_id": room.id,
                "match_id": room.match.id,
                "seat": connection.seat,
                "code": refusal.code,
                "count": count,
            },
        )


def describe_error(error: ValidationError) -> str:
    first = error.errors(include_url=False, include_input=False)[0]
    if first["type"] == "json_invalid":
        return "not a JSON message"
    where = ".".join(str(part) for part in first["loc"])
    return f"{where}: {first['msg']}" if where else first["msg"]
