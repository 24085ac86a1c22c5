"""The action path: one action of a seat, a person's or the computer's (the same path for
both), under the room's lock. In order, as ``play`` reads:

1. who may act: a seat (not a spectator), still the computer's if the computer sends it;
2. the match: running, this process caught up with the others, the seat's turn, no
   table feature's veto (app/table/features.py), the version the client saw;
3. the action: the game's shape (its JSON Schema), then the engine's rules;
4. the database stores it (the source of truth), and only then the live match advances;
5. the room-events hub tells its subscribers (every audience its new view, the other
   processes the action, the computer its turn).

A refused action raises a Refusal and changes nothing.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from datetime import datetime
from typing import Any

from pydantic import ValidationError
from sqlalchemy.exc import SQLAlchemyError

from app.observability import ACTION_LATENCY, actions_of
from app.storage.repositories import ActionWrite, Finish, PlyTaken, Store
from app.table.cache import STORE_ACTIVITY_EVERY, RoomCache
from app.table.events import Acted, CaughtUp, RoomEvents
from app.table.features import Features
from app.table.live import LiveRoom, check_open, count_move, last_action, may_take_back
from app.table.refusals import Refusal, describe_error
from app.table.schemas import action_adapter
from engine import IllegalAction, Outcome

logger = logging.getLogger(__name__)


class Actions:
    def __init__(
        self,
        store: Store,
        cache: RoomCache,
        events: RoomEvents,
        features: Features,
        clock: Callable[[], datetime],
        shared: bool,
    ) -> None:
        self.store = store
        self.cache = cache
        self.events = events
        self.features = features  # their vetoes
        self.clock = clock
        self.shared = shared  # several processes (REDIS_URL)

    async def play(
        self,
        room: LiveRoom,
        seat: int | None,
        version: int,
        action: dict[str, Any],
        by_computer: bool = False,
    ) -> None:
        started = time.perf_counter()
        async with room.lock:
            check_open(room)
            mover = self._check_seat(room, seat, by_computer)
            await self._check_turn(room, mover, version)
            state = self._apply(room, mover, action)
            await self._store(room, mover, action, state, by_computer)
            match, at = room.match, room.turn_started
            self.events.publish(
                Acted(room, mover, action, by_computer, match.id, match.version, at)
            )
        actions_of(room.game.name).inc()
        ACTION_LATENCY.observe(time.perf_counter() - started)

    def _check_seat(self, room: LiveRoom, seat: int | None, by_computer: bool) -> int:
        if seat is None:
            raise Refusal("not_seated", "spectators cannot act; join a free seat first")
        if by_computer and not room.played_by_computer(seat):
            raise Refusal("not_your_turn", "the player took their seat back")
        return seat

    async def _check_turn(self, room: LiveRoom, seat: int, version: int) -> None:
        if not room.followed:  # a computer's move in a room with no socket here
            await self.cache.catch_up(room)
        if room.match.status == "finished":
            raise Refusal("game_over", "the match is over")
        if room.match.status == "waiting":
            raise Refusal("waiting", "the match starts when every seat is taken")
        self.events.check_ready()
        if version > room.match.version and self.shared:
            # Another process stored newer actions than this one has heard of yet.
            await self.cache.catch_up(room)
            if room.match.status != "playing":
                raise Refusal("stale", "the match moved on; here is the current state")
        match = room.match
        if room.game.to_move(match.state) != seat:
            raise Refusal("not_your_turn", "it is not your turn")
        if (veto := self.features.veto(room, seat)) is not None:
            raise veto
        if version != match.version:
            raise Refusal("stale", f"version {version} is not the current version {match.version}")

    def _apply(self, room: LiveRoom, seat: int, action: dict[str, Any]) -> Any:
        """The state after the action: first its shape, then the rules."""
        game = room.game
        try:
            action_adapter(game.name).validate_python(action, strict=True)
        except ValidationError as error:
            raise Refusal("malformed", describe_error(error)) from None
        try:
            return game.apply(room.match.state, seat, action)
        except IllegalAction as error:
            raise Refusal(error.code, error.message) from None

    async def _store(
        self, room: LiveRoom, seat: int, action: dict[str, Any], state: Any, by_computer: bool
    ) -> None:
        """Store the action, then advance the live match (never the other way round)."""
        match = room.match
        now = self.clock()
        result = room.game.result(state)
        finish = None if result is None else Finish(result.to_json(), result.winner, now)
        touch = now - room.stored_active >= STORE_ACTIVITY_EVERY
        write = ActionWrite(
            match.id,
            match.version + 1,
            seat,
            action,
            now,
            finish,
            active_room=room.id if touch else None,
            by_computer=by_computer,
        )
        try:
            await self.store.store_action(write)
        except PlyTaken:
            # Another server process stored this version first: catch up, then say so.
            await self.cache.catch_up(room)
            self.events.publish(CaughtUp(room))
            raise Refusal("stale", "another action was stored first") from None
        except SQLAlchemyError:
            logger.exception(
                "storing an action failed",
                extra={"room_id": room.id, "match_id": match.id, "seat": seat},
            )
            raise Refusal("unavailable", "the move could not be saved; try again") from None
        room.last_active = now
        if touch:
            room.stored_active = now
        advance(room, seat, action, state, result, by_computer, now)


def acted(room: LiveRoom, seat: int, action: dict[str, Any], by_computer: bool) -> Acted:
    """The event of an action just stored and played."""
    match = room.match
    return Acted(room, seat, action, by_computer, match.id, match.version, room.turn_started)


def advance(
    room: LiveRoom,
    seat: int,
    action: dict[str, Any],
    state: Any,
    result: Outcome | None,
    by_computer: bool = False,
    at: datetime | None = None,
) -> None:
    """Move the live match on by one stored action (stored by this process or another) to
    ``state``, whose ``result`` the caller has asked the game for already."""
    game, match = room.game, room.match
    before = None if match.last_action is None else match.last_action["seat"]
    count_move(match, seat, before, game.seats == 1)
    match.last_action = last_action(game, match.state, seat, action, by_computer)
    over = result is not None
    taken_back = not over and may_take_back(game, match.state, action, by_computer)
    match.state = state
    match.version += 1
    match.undoable = (match.version, seat) if taken_back else None
    match.undone = None
    room.turn_since = time.monotonic()
    if room.to_move() != seat:  # the turn passed: it began when this action was stored
        room.turn_started = at  # (None when unknown, until the room is loaded again)
    if result is not None:
        match.status, match.result = "finished", result
        room.count_finished(result.winner)
        logger.info(
            "match finished",
            extra={"room_id": room.id, "match_id": match.id, "winner": result.winner},
        )
