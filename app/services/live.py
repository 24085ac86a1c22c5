"""A room as this process holds it in memory: seats, the current match, presence, the tally.

Everything here is rebuilt from the database (seed + options + stored actions, replayed
through the engine), which stays the source of truth.
"""

from __future__ import annotations

import asyncio
import secrets
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from app.services.refusals import Refusal
from app.storage.models import Match
from app.storage.repositories import LoadedRoom
from engine import Game, Outcome, get_game, replay, resolve_options


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
    online: Counter[int] = field(default_factory=Counter)  # this process's sockets per seat
    # Other processes' sockets per seat, by process (REDIS_URL; app/services/cluster.py).
    remote: dict[str, list[int]] = field(default_factory=dict)
    rematch: set[int] = field(default_factory=set)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    closed: bool = False

    def seat_of(self, token_hash: str | None) -> int | None:
        for seat, holder in enumerate(self.seats):
            if holder is not None and holder.token_hash == token_hash:
                return seat
        return None

    def free_seats(self) -> list[int]:
        return [seat for seat, holder in enumerate(self.seats) if holder is None]

    def to_move(self) -> int | None:
        if self.match.status != "playing":
            return None
        return self.game.to_move(self.match.state)

    def players(self) -> list[dict[str, Any]]:
        return [
            {"seat": seat, "name": holder and holder.name, "connected": self.connected(seat)}
            for seat, holder in enumerate(self.seats)
        ]

    def connected(self, seat: int) -> bool:
        return self.online[seat] > 0 or any(
            counts[seat] > 0 for counts in self.remote.values() if seat < len(counts)
        )

    def local_online(self) -> list[int]:
        return [self.online[seat] for seat in range(len(self.seats))]

    def tally(self) -> dict[str, Any]:
        return {"wins": list(self.wins), "draws": self.draws, "matches": self.finished}

    def count_finished(self, winner: int | None) -> None:
        """A lost solo game counts as a match, neither a win nor a draw."""
        self.finished += 1
        if winner is not None:
            self.wins[winner] += 1
        elif self.game.seats > 1:
            self.draws += 1

    def describe(self) -> dict[str, Any]:
        return {
            "room_id": self.id,
            "game": self.game.name,
            "options": self.options,
            "preset": self.preset,
            "seats": self.players(),
            "status": self.match.status,
            "match_id": self.match.id,
            "tally": self.tally(),
        }


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


def new_match(
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


def last_action(game: Game[Any], seat: int, action: dict[str, Any]) -> dict[str, Any]:
    return {"seat": seat, "action": action, "text": game.notation(action)}


def rebuild(loaded: LoadedRoom) -> LiveRoom:
    """The room as stored: its current match replayed to the last stored action."""
    game = get_game(loaded.room.game)
    row = loaded.match
    moves = [(stored.seat, stored.action) for stored in loaded.actions]
    *_, state = replay(game, row.seed, row.options, moves)
    match = LiveMatch(
        row.id,
        row.number,
        row.first_seat,
        state,
        row.status,
        version=len(moves),
        last_action=last_action(game, *moves[-1]) if moves else None,
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
