"""Computer players at the table: when they move, and who takes over an absent seat.

A seat is played by the computer when its holder has a bot level (``Holder.computer``):
the computer's own seat, or a person's seat while they are away (they take it back by
connecting again). On its turn the computer gets its seat's view, the legal actions and
the public history (never the state), thinks in a worker process, and its answer goes
through the room's action path like a person's, no sooner than BOT_MOVE_DELAY_SECONDS
after the move before it.

Thinking runs in a process pool (app/computer/workers.py), not a thread: the strong bot
is pure Python and holds the GIL for its whole budget, which in a thread stalls every
room's messages in this process (``bench/bot_thinking.py`` measures the event loop's lag
both ways). A room has at most one move being thought about; closing the room cancels it
(a worker that already started finishes its budget and its answer is dropped); a worker
that dies costs one more try with new workers; the server's shutdown ends the workers.

When the seat to move belongs to a person with no socket for TAKEOVER_SECONDS of their
turn, and another seat is a person's (someone who could answer), every socket of the room
is told (a ``takeover`` message); the other players may keep waiting, let the computer
play the seat, or end the match as abandoned. A solo game, or a person against the
computer's own seat, has nobody to ask: no offer.

In a turn-based room being away is normal: the offer comes only once the seat's time per
move has run out (``LiveRoom.deadline``, from stored times and the injected clock), and it
is state derived from those alone, so every process finds the same one.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from concurrent.futures.process import BrokenProcessPool
from datetime import datetime
from typing import Any

from app.computer import thinking
from app.computer.workers import Workers
from app.settings import Settings
from app.storage.repositories import Store
from app.table import texts
from app.table.events import RoomListener
from app.table.live import LiveRoom
from app.table.news import RoomNews
from app.table.refusals import Refusal
from app.table.timeline import standing_moves
from engine.bots import bot_levels

logger = logging.getLogger(__name__)


def levels(game: str) -> list[str]:
    """The levels a computer player of this game can have, the one to offer first first."""
    return [*bot_levels(game), "random"]


# The action path (``Actions.play``): room, seat, version, action, by_computer.
Play = Callable[[LiveRoom, int, int, dict[str, Any], bool], Awaitable[None]]


class ComputerPlayers(RoomListener):
    """A subscriber of the room-events hub: after a change, the computer moves if it is its
    turn, and an absent player's seat is offered for takeover or the offer withdrawn."""

    def __init__(
        self,
        settings: Settings,
        store: Store,
        news: RoomNews,
        play: Play,
        clock: Callable[[], datetime],
    ) -> None:
        self.settings = settings
        self.clock = clock  # the wall clock of turn-based deadlines
        self.store = store
        self.news = news
        self.play = play
        self.moves: dict[str, asyncio.Task[None]] = {}  # room id: its computer's next move
        self.waits: dict[str, asyncio.Task[None]] = {}  # room id: the wait before an offer
        self.offered: dict[str, int] = {}  # room id: the absent seat offered for takeover
        # room id: the absent mover whose offer is awaited, and when it comes (monotonic)
        self.awaited: dict[str, tuple[int, float]] = {}
        self.workers = Workers(settings.bot_processes)

    # After every change of a room (the hub's events, under the room's lock)

    def acted(self, room: LiveRoom, seat: int, action: dict[str, Any], by_computer: bool) -> None:
        self.update(room)

    def seated(self, room: LiveRoom) -> None:
        self.update(room)

    def seats_changed(self, room: LiveRoom) -> None:
        self.update(room)

    def connected(self, room: LiveRoom, first: bool) -> None:
        # After a restart too: the computer to move thinks; an absent seat is watched.
        self.update(room)

    def disconnected(self, room: LiveRoom) -> None:
        self.update(room, think=False)

    def rematch_started(self, room: LiveRoom) -> None:
        self.update(room)

    def changed_elsewhere(self, room: LiveRoom) -> None:
        # The process that stored the change lets its computer move; this one only
        # watches for absent players (presence is the same sum in every process).
        self.update(room, think=False)

    def unfollowed(self, room: LiveRoom) -> None:
        self._drop_offer(room.id)  # (its sockets are gone; the next to join hears afresh)

    def update(self, room: LiveRoom, think: bool = True) -> None:
        """Start the computer's move when it is its turn (``think``: only the process that
        made the change does, so several processes do not think twice), and offer or
        withdraw a takeover."""
        seat = room.to_move()
        if think and seat is not None and room.played_by_computer(seat):
            moving = self.moves.get(room.id)
            if moving is None or moving.done():
                self.moves[room.id] = asyncio.create_task(self._move(room, seat))
        if not room.followed:
            # No wait and no offer stand for a room this process does not follow (no socket
            # here): they are worked out afresh once a socket joins, from the room as stored.
            self._drop_offer(room.id)
            return
        self._watch_absence(room)

    async def _move(self, room: LiveRoom, seat: int) -> None:
        try:
            try:
                await self._think_and_play(room, seat)
            except BrokenProcessPool:  # a worker died: once more, with new workers
                await self._think_and_play(room, seat)
        except Exception:  # the database is away: the next change tries again
            logger.exception("computer move failed", extra={"room_id": room.id, "seat": seat})

    async def _think_and_play(self, room: LiveRoom, seat: int) -> None:
        started = time.monotonic()
        game = room.game
        async with room.lock:
            holder = room.seats[seat]
            if room.closed or room.to_move() != seat or holder is None or not holder.computer:
                return
            level, version, state = holder.computer, room.match.version, room.match.state
            view, legal = game.view(state, seat), game.legal_actions(state, seat)
            history = self._history(room)
        thought = self.workers.submit(
            thinking.choose,
            (room.id, room.match.id, seat),
            game.name,
            level,
            self.settings.bot_think_seconds,
            view,
            legal,
            history,
            secrets.randbits(64),
        )
        action = await asyncio.wrap_future(thought)
        await asyncio.sleep(self.settings.bot_move_delay_seconds - (time.monotonic() - started))
        if self.moves.get(room.id) is asyncio.current_task():
            del self.moves[room.id]  # so that the computer's next move can start
        try:
            await self.play(room, seat, version, action, True)
        except Refusal as refusal:  # the person came back, or the match moved on meanwhile
            logger.info(
                "computer move dropped: %s",
                refusal.message,
                extra={"room_id": room.id, "seat": seat, "code": refusal.code},
            )

    def _history(self, room: LiveRoom) -> list[tuple[int, dict[str, Any]]]:
        """The public history of the current match: every stored (seat, action) (actions
        are public, ``engine.Game``)."""
        stored = standing_moves(self.store.match_actions(room.match.id)[: room.match.version])
        return [(s.seat, s.action) for s in stored]

    # Absent players

    def absent_seat(self, room: LiveRoom) -> int | None:
        """The person to move when they have been away long enough for a takeover (in a
        turn-based room: when their time ran out)."""
        if room.turn_based:
            return self.timed_out(room)
        deadline = self._deadline(room)
        if deadline is None or time.monotonic() < deadline:
            return None
        return room.to_move()

    def _deadline(self, room: LiveRoom) -> float | None:
        seat = room.to_move()
        now = time.monotonic()
        for other in range(len(room.seats)):  # note who went away, and when
            if room.connected(other):
                room.away_since.pop(other, None)
            else:
                room.away_since.setdefault(other, now)
        if seat is None or room.played_by_computer(seat) or room.connected(seat):
            return None
        if not room.another_person(seat):  # nobody could answer an offer
            return None
        return max(room.away_since[seat], room.turn_since) + self.settings.takeover_seconds

    def timed_out(self, room: LiveRoom) -> int | None:
        """In a turn-based room: the person to move once their time ran out, if another
        person could answer for them."""
        seat, deadline = room.to_move(), room.deadline()
        if seat is None or deadline is None or self.clock() < deadline:
            return None
        if room.played_by_computer(seat) or not room.another_person(seat):
            return None
        return seat

    def _watch_absence(self, room: LiveRoom) -> None:
        waiting = self.waits.pop(room.id, None)
        if waiting is not None and waiting is not asyncio.current_task():
            waiting.cancel()
        if room.turn_based:
            ran_out = self.timed_out(room)
            if ran_out != self.offered.get(room.id):
                self._tell_offer(room, ran_out)
            return
        deadline = self._deadline(room)
        absent = room.to_move() if deadline is not None and time.monotonic() >= deadline else None
        awaited = self.awaited.get(room.id)
        seat = room.to_move()
        if deadline is not None and absent is None and seat is not None:
            self.awaited[room.id] = (seat, deadline)
            self.waits[room.id] = asyncio.create_task(self._offer_at(room, deadline))
        else:
            self.awaited.pop(room.id, None)
        if absent != self.offered.get(room.id) or awaited != self.awaited.get(room.id):
            self._tell_offer(room, absent)

    async def _offer_at(self, room: LiveRoom, deadline: float) -> None:
        await asyncio.sleep(deadline - time.monotonic())
        async with room.lock:
            if not room.closed and room.followed:
                self._watch_absence(room)

    def _tell_offer(self, room: LiveRoom, seat: int | None) -> None:
        if seat is None:
            self.offered.pop(room.id, None)
        else:
            self.offered[room.id] = seat
            logger.info("takeover offered", extra={"room_id": room.id, "seat": seat})
        self.news.to_everyone(room, self.offer_text(room))

    def offer_text(self, room: LiveRoom) -> str:
        awaited = self.awaited.get(room.id)
        return texts.takeover_text(
            self.offered.get(room.id),
            levels(room.game.name),
            room.turn_based,
            away=None if awaited is None else (awaited[0], awaited[1] - time.monotonic()),
        )

    def open_offer(self, room: LiveRoom) -> str | None:
        """The takeover offer a socket joining the room hears, if one is open or awaited."""
        return self.offer_text(room) if room.id in self.offered or room.id in self.awaited else None

    def keep_waiting(self, room: LiveRoom, seat: int) -> None:
        """The wait for the absent seat starts again."""
        room.away_since[seat] = time.monotonic()
        self._watch_absence(room)

    # Closing

    def forget(self, room_id: str) -> None:
        """The room closed: its computer stops thinking and no offer waits."""
        task = self.moves.pop(room_id, None)
        if task is not None:
            task.cancel()
        self._drop_offer(room_id)

    def _drop_offer(self, room_id: str) -> None:
        waiting = self.waits.pop(room_id, None)
        if waiting is not None and waiting is not asyncio.current_task():
            waiting.cancel()
        self.offered.pop(room_id, None)
        self.awaited.pop(room_id, None)

    async def shutdown(self) -> None:
        tasks = [*self.moves.values(), *self.waits.values()]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self.moves.clear()
        self.waits.clear()
        self.workers.close()
