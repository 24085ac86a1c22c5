"""A room as this process holds it in memory: seats, the current match, presence, the tally.

Everything here is rebuilt from the database (seed + options + stored actions, replayed
through the engine), which stays the source of truth.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import astuple, dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from app.storage.models import (
    COMPUTER,
    EndingDetails,
    Match,
    StoredPause,
    StoredResult,
    TakebackRequestRow,
)
from app.storage.repositories import LoadedRoom, StoredAction
from app.table.refusals import Refusal
from app.table.timeline import timeline
from engine import AnyGame, Outcome, Reason, get_game, resolve_options

SEED_BITS = 63  # a match's seed: the matches.seed column is a signed 64-bit integer
ABORT_BEFORE_MOVES = 2  # a match may be aborted while each seat has made fewer moves


class Ending(Reason):
    """A match ended by a player's choice: no rule of the game ended it."""

    ABANDONED = "abandoned"
    """Ended for an absent opponent: nobody won, nobody lost."""
    RESIGNED = "resigned"
    """A player gave up: the other one won (a solo game is lost)."""
    ABORTED = "aborted"
    """Called off before each player had made two moves: no result at all."""


@dataclass
class Holder:
    name: str
    player_id: str
    computer: str | None = None  # the bot level playing this seat (app/computer/players.py)

    @property
    def is_computer(self) -> bool:
        """The computer's own seat (not a person's it plays while they are away)."""
        return self.player_id == COMPUTER


class ChosenOutcome(Outcome[EndingDetails]):
    """The outcome of a match a player ended; ``outcome`` says what that means: ``win`` or
    ``loss`` (solo) after a resignation, else ``abandoned`` or ``aborted``."""

    def to_json(self) -> StoredResult:
        kind = str(self.reason)
        if self.reason == Ending.RESIGNED:
            kind = "win" if self.winner is not None else "loss"
        return {**self.details, **self.fields(), "outcome": kind}


def abandoned(by: int, time_ran_out: int | None = None) -> Outcome:
    """Ended by seat ``by``; ``time_ran_out``: the seat whose time per move ran out."""
    details: EndingDetails = {"abandoned_by": by}
    if time_ran_out is not None:
        details["time_ran_out"] = time_ran_out
    return ChosenOutcome(scores=(), winner=None, reason=Ending.ABANDONED, details=details)


def resigned(by: int, seats: int) -> Outcome:
    """Seat ``by`` gave up: the other seat won; alone, the player lost."""
    others = [seat for seat in range(seats) if seat != by]
    winner = others[0] if len(others) == 1 else None
    return ChosenOutcome(
        scores=(), winner=winner, reason=Ending.RESIGNED, details={"resigned_by": by}
    )


def aborted(by: int) -> Outcome:
    return ChosenOutcome(scores=(), winner=None, reason=Ending.ABORTED, details={"aborted_by": by})


def stored_ending(result: StoredResult | None, seats: int) -> Outcome | None:
    """The outcome a player's choice stored (a match its rules ended has none)."""
    if result is None or result.get("reason") not in set(Ending):
        return None
    reason = Ending(result["reason"])
    if reason == Ending.RESIGNED:
        return resigned(result["resigned_by"], seats)
    if reason == Ending.ABORTED:
        return aborted(result["aborted_by"])
    return abandoned(result["abandoned_by"], result.get("time_ran_out"))


@dataclass
class LiveMatch:
    id: int
    number: int
    first_seat: int | None
    state: Any
    status: str  # waiting (seats free), playing, finished (or abandoned by a player)
    version: int = 0
    last_action: dict[str, Any] | None = None
    result: Outcome | None = None
    moves: Counter[int] = field(default_factory=Counter)  # per seat (``count_move``)
    # Takebacks (app/table/takebacks.py): the last move that stands as (ply, seat) when
    # it may be taken back; the ply the newest entry took back (None: it was a move); the
    # match's takeback requests, oldest first.
    undoable: tuple[int, int] | None = None
    undone: int | None = None
    requests: list[TakebackRequestRow] = field(default_factory=list)

    @classmethod
    def of(cls, row: Match, state: Any) -> LiveMatch:
        """A new match as stored in `row`, at its first state."""
        return cls(row.id, row.number, row.first_seat, state, row.status)


@dataclass
class Pause:
    """A pause of a match (app/table/pause.py): the seats that asked at the match's
    ``version``, and since when the match is paused (None: not every person asked yet)."""

    match_id: int
    version: int
    asked: set[int] = field(default_factory=set)
    since: datetime | None = None

    @classmethod
    def of(cls, stored: StoredPause) -> Pause:
        since = stored["since"]
        at = None if since is None else datetime.fromisoformat(since)
        return cls(stored["match_id"], stored["version"], set(stored["asked"]), at)

    def to_json(self) -> StoredPause:
        since = None if self.since is None else self.since.isoformat()
        asked = sorted(self.asked)
        return {"match_id": self.match_id, "version": self.version, "asked": asked, "since": since}


@dataclass
class LiveRoom:
    id: str
    game: AnyGame
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
    # Other processes' sockets per seat, by process (REDIS_URL; app/cluster/peers.py).
    remote: dict[str, list[int]] = field(default_factory=dict)
    rematch: set[int] = field(default_factory=set)
    pause: Pause | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    closed: bool = False
    # Whether this process hears of every change of the room: always with one process;
    # with several (app/cluster/peers.py) only while it has a socket of the room. A
    # room not followed is caught up from the database before anything reads it
    # (RoomCache.load, a socket joining, an action).
    followed: bool = True
    # When (time.monotonic) each seat's last socket went away, and when this turn began:
    # the later one starts the wait before the computer may take an absent seat over.
    away_since: dict[int, float] = field(default_factory=dict)
    turn_since: float = field(default_factory=time.monotonic)
    # Turn-based rooms (app/table/turns.py): the time per move in days (None: no
    # limit), and when the current turn started, from stored times (never monotonic).
    turn_based: bool = False
    move_days: int | None = None
    turn_started: datetime | None = None
    # The creator's choices for the chat (app/table/chat.py).
    spectator_chat: bool = False
    private_chat: bool = False
    # Each person's rating for the room's game by seat (app/people/records.py), read from
    # memory when the seats change; spectators see them only with ``ratings_public``.
    ratings: list[dict[str, Any] | None] = field(default_factory=list)
    ratings_public: bool = False

    def seat_ratings(self, seat: int | None) -> list[dict[str, Any] | None] | None:
        """The ratings a seat's state shows (a spectator's: only with PUBLIC_HISTORY)."""
        if seat is None and not self.ratings_public:
            return None
        return self.ratings or None

    def abortable(self) -> bool:
        """The running match may be called off: each seat has made fewer than two moves."""
        moves = self.match.moves
        return self.match.status == "playing" and all(
            moves[seat] < ABORT_BEFORE_MOVES for seat in range(len(self.seats))
        )

    def paused(self) -> bool:
        """Every person agreed to pause the running match: nobody moves, no clock runs."""
        pause = self.pause
        return (
            pause is not None
            and pause.since is not None
            and pause.match_id == self.match.id
            and self.match.status == "playing"
        )

    def seat_of(self, player_id: str | None) -> int | None:
        for seat, holder in enumerate(self.seats):
            if holder is not None and holder.player_id == player_id:
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
            {
                "seat": seat,
                "name": holder and holder.name,
                "connected": self.connected(seat),
                "computer": holder and holder.computer,
            }
            for seat, holder in enumerate(self.seats)
        ]

    def another_person(self, seat: int) -> bool:
        """A person in another seat, who could answer for ``seat`` (a spectator cannot, nor
        the computer's own seat; a solo game has nobody)."""
        return any(
            holder is not None and not holder.is_computer
            for other, holder in enumerate(self.seats)
            if other != seat
        )

    def played_by_computer(self, seat: int) -> bool:
        holder = self.seats[seat]
        return holder is not None and holder.computer is not None

    def connected(self, seat: int) -> bool:
        """A person with a socket open (on any process); the computer's own seat always."""
        holder = self.seats[seat] if seat < len(self.seats) else None
        if holder is not None and holder.is_computer:
            return True
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
            "turn_based": self.turn_based,
            "move_days": self.move_days,
            "turn": self.turn(),
            "spectator_chat": self.spectator_chat,
            "private_chat": self.private_chat,
        }

    def keeps_open(self) -> bool:
        """A turn-based room with a running match is never closed for idleness."""
        return self.turn_based and self.match.status == "playing"

    def turn(self) -> dict[str, Any] | None:
        """In a turn-based room with a running match: the seat to move, since when, and
        its deadline (None without a time limit), as ISO texts."""
        seat = self.to_move()
        if not self.turn_based or seat is None or self.turn_started is None:
            return None
        deadline = self.deadline()
        return {
            "seat": seat,
            "since": iso(self.turn_started),
            "deadline": deadline and iso(deadline),
        }

    def deadline(self) -> datetime | None:
        """When the turn's time runs out (turn-based with a limit and a running match that
        is not paused: the pause's time is added to the turn once it ends)."""
        if not self.turn_based or self.move_days is None or self.turn_started is None:
            return None
        if self.to_move() is None or self.paused():
            return None
        return self.turn_started + timedelta(days=self.move_days)


def count_move(match: LiveMatch, seat: int, before: int | None, solo: bool) -> None:
    """A move is a turn: a seat's actions in a row count once (Expeditionen plays, then
    draws); alone at the table, where no turn ever passes, each action counts."""
    if solo or seat != before:
        match.moves[seat] += 1


def room_options(game: AnyGame, options: dict[str, Any], preset: str | None) -> dict[str, Any]:
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
    game: AnyGame,
    options: dict[str, Any],
    number: int,
    status: str,
    now: datetime,
    seed: int | None = None,
) -> tuple[Match, Any]:
    """A match row to store, and its first state (the seed never leaves the row); a random
    seed unless one is given (a daily deal's)."""
    seed = secrets.randbits(SEED_BITS) if seed is None else seed
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


def last_action(
    game: AnyGame, before: Any, seat: int, action: dict[str, Any], by_computer: bool = False
) -> dict[str, Any]:
    """A move as the table saw it: who, what, and the open cards it took from ``before``."""
    return {
        "seat": seat,
        "action": action,
        "text": game.notation(action),
        "computer": by_computer,
        "took": game.took(before, action),
    }


def may_take_back(game: AnyGame, before: Any, action: dict[str, Any], by_computer: bool) -> bool:
    """A person's move that revealed nothing (the computer never asks to take one back)."""
    return not by_computer and not game.reveals(before, action)


def replayed_match(
    game: AnyGame,
    row: Match,
    stored: Sequence[StoredAction],
    requests: Sequence[TakebackRequestRow] = (),
    ended: bool = True,
) -> LiveMatch:
    """The match as it stood after the ``stored`` entries (moves and takebacks): the live
    room's after a restart, and the wire inspector's at any step of a finished match.
    ``ended``: the entries are all the match has, so its stored status and a player's
    ending (resigned, aborted, abandoned) apply; before its last entry it was running."""
    first, entries = timeline(game, row.seed, row.options, stored)
    state = entries[-1].after if entries else first
    standing = [entry for entry in entries if entry.stands]
    last = standing[-1] if standing else None
    result = game.result(state)
    status = row.status if ended else ("finished" if result is not None else "playing")
    match = LiveMatch(
        row.id,
        row.number,
        row.first_seat,
        state,
        status,
        version=len(entries),
        last_action=None
        if last is None
        else last_action(game, last.before, *astuple(last.stored)[1:4]),
        result=result,
        undone=entries[-1].undoes if entries else None,
        requests=list(requests),
    )
    if last is not None and status == "playing" and match.result is None:
        move = last.stored
        if may_take_back(game, last.before, move.action, move.by_computer):
            match.undoable = (move.ply, move.seat)
    chosen = stored_ending(row.result, game.seats) if ended and match.result is None else None
    if chosen is not None:  # ended by a player's choice
        match.status, match.result = "finished", chosen
    before = None
    for entry in standing:  # a move taken back counts for nothing
        count_move(match, entry.stored.seat, before, game.seats == 1)
        before = entry.stored.seat
    return match


def rebuild(loaded: LoadedRoom) -> LiveRoom:
    """The room as stored: its current match replayed to the last stored entry (moves and
    takebacks: app/table/timeline.py)."""
    game = get_game(loaded.room.game)
    match = replayed_match(game, loaded.match, loaded.actions, loaded.takebacks)
    state = match.state
    seats: list[Holder | None] = [None] * game.seats
    for seat in loaded.seats:
        seats[seat.seat] = Holder(seat.name, seat.player_id, seat.computer)
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
        turn_based=loaded.room.turn_based,
        move_days=loaded.room.move_days,
        spectator_chat=loaded.room.spectator_chat,
        private_chat=loaded.room.private_chat,
        turn_started=turn_started(
            loaded, game.to_move(state) if match.status == "playing" else None
        ),
    )
    for winner in loaded.finished_winners:
        room.count_finished(winner)
    room.rematch.update(loaded.rematch)
    room.pause = loaded.room.pause and Pause.of(loaded.room.pause)
    return room


def iso(at: datetime) -> str:
    """A UTC time as the HTTP answers write it (pydantic): ...Z."""
    return at.astimezone(UTC).isoformat().replace("+00:00", "Z")


def turn_started(loaded: LoadedRoom, to_move: int | None) -> datetime | None:
    """When the turn of the seat to move began: the later of the match's start, the last
    action of another seat (a seat may move several times in a turn) and an opponent's
    choice to keep waiting."""
    times = [loaded.match.started_at, loaded.room.waited_at]
    passed = [action.at for action in loaded.actions if action.seat != to_move]
    if passed:
        times.append(passed[-1])
    known = [at for at in times if at is not None]
    return max(known) if known else None


def check_open(room: LiveRoom) -> None:
    if room.closed:
        raise Refusal("unknown_room", "this room was closed")
