"""Computer players at the table: when they move.

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

An absent person's seat is offered to the others by app/table/takeover.py; once they let
the computer play it, it moves here like the computer's own seat.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from app.computer import thinking
from app.computer.workers import Workers
from app.settings import Settings
from app.storage.repositories import Store
from app.table.events import (
    Acted,
    Closed,
    Connected,
    Event,
    PauseChanged,
    RematchStarted,
    RoomListener,
    Seated,
    SeatsChanged,
)
from app.table.live import LiveRoom
from app.table.refusals import Refusal
from app.table.timeline import standing_moves

logger = logging.getLogger(__name__)


# The action path (``Actions.play``): room, seat, version, action, by_computer.
Play = Callable[[LiveRoom, int, int, dict[str, Any], bool], Awaitable[None]]


class ComputerPlayers(RoomListener):
    """A subscriber of the room-events hub: after a change made in this process, the
    computer moves if it is its turn (a change heard from another process is that
    process's to answer, so that several processes do not think twice)."""

    def __init__(self, settings: Settings, store: Store, play: Play) -> None:
        self.settings = settings
        self.store = store
        self.play = play
        self.moves: dict[str, asyncio.Task[None]] = {}  # room id: its computer's next move
        self.workers = Workers(settings.bot_processes)

    # After every change of a room (the hub's events, under the room's lock)

    def hear(self, event: Event) -> None:
        match event:
            # (Connected: after a restart too, the computer to move thinks; PauseChanged:
            # once a paused match goes on)
            case (
                Acted()
                | Seated()
                | SeatsChanged()
                | Connected()
                | RematchStarted()
                | PauseChanged()
            ):
                self.update(event.room)
            case Closed(room_id):  # its computer stops thinking
                if (task := self.moves.pop(room_id, None)) is not None:
                    task.cancel()

    def update(self, room: LiveRoom) -> None:
        """Start the computer's move when it is its turn (a paused match: it waits)."""
        seat = room.to_move()
        if seat is not None and room.played_by_computer(seat) and not room.paused():
            moving = self.moves.get(room.id)
            if moving is None or moving.done():
                self.moves[room.id] = asyncio.create_task(self._move(room, seat))

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

    async def shutdown(self) -> None:
        moves = list(self.moves.values())
        for task in moves:
            task.cancel()
        for task in moves:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self.moves.clear()
        self.workers.close()
