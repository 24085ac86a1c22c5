"""The daily deal: every day one deal per game, the same for everyone on the server, each
player's one attempt at it, the day's board, the player's streak and a text to share.

- **The day** is the date in ``DAILY_TIME_ZONE`` (default UTC); its number "#N" counts days
  from a fixed epoch, 2026-01-01 = #1, so a day has the same number on every server.
- **The deal**: its seed is HMAC-SHA256(SECRET_KEY, "YYYY-MM-DD:game"), truncated to the
  engine's seed size (``SEED_BITS``): the same for everyone on a day, another the next
  day, and nobody without the secret can compute tomorrow's. Every game is dealt with its
  default options; in a game for two the strong computer holds the second seat and the
  player always moves first (the option ``first``).
- **An attempt** is a room like any other (the same action path, views and storage),
  stored with a ``dailies`` row keyed by (day, game, player) in the same commit: of two
  requests at once, one makes the room and the other gets it. Starting again while the
  attempt runs leads back to its room (from any device of the player); once it ended
  (won, lost, resigned, aborted or abandoned) a new attempt is refused (``daily_played``).
- **The board** of a day and game lists the finished attempts by result: Scoundrel's score
  beside its par (the best score the deal allowed, searched once a day in a worker
  process and stored), a game for two's points against the computer's and win, draw or
  loss. It shows no line; replays of a daily open once its day has ended, for everyone
  (``held_back``, which the history and the replay ask).
- **The streak**: consecutive days up to today (or yesterday, before today's first
  daily) with at least one daily finished; per game too.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import threading
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from app.computer.searches import Searches, SearchesBusy, SearchFailed
from app.storage.dailies import Attempt, DailyStore
from app.storage.models import DailyRow
from app.storage.repositories import DailyTaken
from app.table.live import SEED_BITS, LiveRoom
from app.table.refusals import Refusal
from engine import AnyGame, OutOfBudget, games, get_game

logger = logging.getLogger(__name__)

EPOCH = date(2026, 1, 1)  # daily #1, on every server
LEVEL = "strong"  # the computer's level in a daily for two
RUNNING = ("waiting", "playing")
OUTCOME_ORDER = {"win": 0, "draw": 1, "loss": 2, "resigned": 3, "aborted": 4, "abandoned": 5}
MARKS = {"win": "✓", "draw": "=", "loss": "✗"}

CreateRoom = Callable[..., LiveRoom]
Join = Callable[[LiveRoom, str, str], Awaitable[int | None]]
OpenRoom = Callable[[str], Awaitable[LiveRoom]]


def daily_number(day: date) -> int:
    """A day's number, the same on every server: 2026-01-01 is #1."""
    return (day - EPOCH).days + 1


def daily_seed(secret_key: str, day: date, game: str) -> int:
    """The seed of a day's deal of a game: HMAC-SHA256(SECRET_KEY, "day:game"), truncated
    to the engine's seed size."""
    digest = hmac.new(secret_key.encode(), f"{day.isoformat()}:{game}".encode(), hashlib.sha256)
    return int.from_bytes(digest.digest()[:8], "big") >> (64 - SEED_BITS)


def daily_options(game: AnyGame) -> dict[str, Any]:
    """The default options, and in a game for two the player (seat 0) moves first."""
    if game.seats > 1 and any(option.name == "first" for option in game.options):
        return {"first": 0}
    return {}


def has_par(game: AnyGame) -> bool:
    return game.best_line_search() is not None


@dataclass(frozen=True)
class Result:
    """How a finished attempt ended for its player: ``outcome`` (win, draw, loss, or
    resigned, aborted, abandoned), the player's points and the computer's."""

    outcome: str
    score: int | None
    opponent_score: int | None

    @classmethod
    def of(cls, attempt: Attempt) -> Result:
        result = attempt.result
        scores = result["scores"] if result else []
        reason = result["reason"] if result else None
        winner = result["winner"] if result else None
        if attempt.status == "abandoned" or reason == "abandoned":
            outcome = "abandoned"
        elif attempt.status == "aborted" or reason == "aborted":
            outcome = "aborted"
        elif reason == "resigned":
            outcome = "resigned"
        elif winner == 0:
            outcome = "win"
        elif winner is None and len(scores) > 1:
            outcome = "draw"
        else:
            outcome = "loss"
        return cls(
            outcome,
            scores[0] if scores else None,
            scores[1] if len(scores) > 1 else None,
        )

    def order(self) -> tuple[Any, ...]:
        """Best first: a score before none; by outcome, then by the margin (alone: the score)."""
        margin = (self.score or 0) - (self.opponent_score or 0)
        return (self.score is None, OUTCOME_ORDER[self.outcome], -margin, -(self.score or 0))

    def to_json(self) -> dict[str, Any]:
        return {
            "outcome": self.outcome,
            "score": self.score,
            "opponent_score": self.opponent_score,
        }


def finished(attempt: Attempt) -> bool:
    """Won, lost, resigned, aborted or abandoned (also when its room closed while it ran)."""
    return attempt.status not in RUNNING or not attempt.room_open


def share_text(game: AnyGame, day: date, result: Result, par: int | None) -> dict[str, str]:
    """The text a player shares, per language: the game, the day's number, the score and
    par, no card and no line ("Scoundrel #214: 27/30", "Expeditionen #214: 61:48 ✓")."""
    if result.score is None:
        told = "✗"
    elif game.seats == 1:
        told = f"{signed(result.score)}/{signed(par)}" if par is not None else signed(result.score)
    else:
        scores = f"{signed(result.score)}:{signed(result.opponent_score)}"
        told = f"{scores} {MARKS.get(result.outcome, '✗')}"
    return {lang: f"{title} #{daily_number(day)}: {told}" for lang, title in game.title.items()}


def signed(score: int | None) -> str:
    """A score as the board writes it: a negative one with the minus sign (U+2212)."""
    return f"−{abs(score)}" if score is not None and score < 0 else str(score)


def streak(days: set[date], today: date) -> int:
    """Consecutive days with a finished daily, up to today (or to yesterday while today has
    none yet)."""
    day = today if today in days else today - timedelta(days=1)
    count = 0
    while day in days:
        count += 1
        day -= timedelta(days=1)
    return count


class DailyCalendar:
    """The days of the daily deal in DAILY_TIME_ZONE, and which rooms and matches are a
    running day's: its replays are held back, and nobody but its player watches it."""

    def __init__(self, store: DailyStore, time_zone: str, clock: Callable[[], datetime]) -> None:
        self.store = store
        self.zone = ZoneInfo(time_zone)
        self.clock = clock

    def today(self) -> date:
        return self.clock().astimezone(self.zone).date()

    def ends_at(self, day: date) -> datetime:
        """The end of a day in DAILY_TIME_ZONE, in UTC."""
        midnight = datetime.combine(day + timedelta(days=1), time(), tzinfo=self.zone)
        return midnight.astimezone(UTC)

    def over(self, day: date) -> bool:
        return self.clock() >= self.ends_at(day)

    def held_back(self, match_ids: list[int]) -> dict[int, datetime]:
        """For each of these matches that is a daily of a day still running: when its replay
        opens (the day's end)."""
        days = self.store.days_of_matches(match_ids)
        ends = {match_id: self.ends_at(date.fromisoformat(day)) for match_id, day in days.items()}
        now = self.clock()
        return {match_id: end for match_id, end in ends.items() if now < end}

    def running_room(self, room_id: str) -> bool:
        """A daily's room whose day still runs: nobody but its player may watch it."""
        found = self.store.of_room(room_id)
        return found is not None and not self.over(date.fromisoformat(found[0]))

    def is_daily_room(self, room_id: str) -> bool:
        """A daily's room, which holds its one match and no rematch."""
        return self.store.of_room(room_id) is not None

    def of_room(self, room_id: str) -> dict[str, Any] | None:
        """A daily's room: its day, number, game and the daily's match; None for any other
        room."""
        found = self.store.of_room(room_id)
        if found is None:
            return None
        day, game, match_id = found
        number = daily_number(date.fromisoformat(day))
        return {"day": day, "number": number, "game": game, "match_id": match_id}


class Dailies:
    def __init__(
        self,
        calendar: DailyCalendar,
        searches: Searches,
        secret_key: str,
        create_room: CreateRoom,
        open_room: OpenRoom,
        join: Join,
        off_loop: Callable[..., Awaitable[Any]],
    ) -> None:
        self.calendar = calendar
        self.store = calendar.store
        self.searches = searches
        self.secret_key = secret_key
        self.create_room = create_room
        self.open_room = open_room
        self.join = join
        self.off_loop = off_loop  # the store's: a query off the event loop on PostgreSQL
        self._searching: set[tuple[str, str]] = set()
        self._searching_lock = threading.Lock()

    # Playing

    async def start(self, game_name: str, player_id: str, name: str) -> tuple[LiveRoom, bool]:
        """This player's attempt at today's daily of the game: its room, and whether it is a
        new one (False: back to the running one). Refused once it ended."""
        game = self._game(game_name)
        day = self.calendar.today()
        for _race in range(2):
            found = await self.off_loop(self._attempt, day, game.name, player_id)
            if found is not None:
                if finished(found):
                    raise Refusal("daily_played", "you played this daily today; see its board")
                room = await self._seat(found.room_id, name, player_id)
                return room, False
            try:
                room = self.create_room(
                    game.name,
                    daily_options(game),
                    None,
                    LEVEL if game.seats > 1 else None,
                    seed=daily_seed(self.secret_key, day, game.name),
                    daily=DailyRow(
                        day=day.isoformat(),
                        game=game.name,
                        player_id=player_id,
                        created_at=self.calendar.clock(),
                    ),
                )
            except DailyTaken:  # another request of this player was first: its room
                continue
            if has_par(game):
                self.foresee_par(day, game)
            await self.join(room, name, player_id)
            logger.info("daily started", extra={"room_id": room.id, "game": game.name})
            return room, True
        raise Refusal("unavailable", "try again")

    async def _seat(self, room_id: str, name: str, player_id: str) -> LiveRoom:
        """The running attempt's room, with the player seated (a crash between the room and
        the seat leaves it waiting for them)."""
        room = await self.open_room(room_id)
        await self.join(room, name, player_id)
        return room

    def _attempt(self, day: date, game: str, player_id: str) -> Attempt | None:
        for attempt in self.store.attempts_of(player_id, day.isoformat()):
            if attempt.game == game:
                return attempt
        return None

    @staticmethod
    def _game(name: str) -> AnyGame:
        try:
            return get_game(name)
        except KeyError:
            raise Refusal("unknown_game", f"no game {name!r} here") from None

    # What a player sees

    def overview(self, player_id: str | None) -> dict[str, Any]:
        """Today's dailies for this player: per game, to play, running (its room) or done
        (the result and the text to share); and the streak."""
        day = self.calendar.today()
        mine = (
            {a.game: a for a in self.store.attempts_of(player_id, day.isoformat())}
            if (player_id)
            else {}
        )
        entries = []
        for game in games():
            attempt = mine.get(game.name)
            entry: dict[str, Any] = {"game": game.name, "status": "new", "room_id": None}
            if attempt is not None and not finished(attempt):
                entry |= {"status": "running", "room_id": attempt.room_id}
            elif attempt is not None:
                result = Result.of(attempt)
                par = self.par(day, game)
                entry |= {
                    "status": "done",
                    "result": result.to_json(),
                    "share": share_text(game, day, result, par),
                }
            entries.append(entry)
        return {
            "day": day.isoformat(),
            "number": daily_number(day),
            "ends_at": self.calendar.ends_at(day),
            "time_zone": str(self.calendar.zone),
            "streak": self.streaks(player_id, day)[0],
            "games": entries,
        }

    def board(self, day: date, game_name: str, player_id: str | None) -> dict[str, Any]:
        """A day's board of a game: the finished attempts, best first, without any line;
        the par; and this player's result, share text and streaks."""
        game = self._game(game_name)
        if day > self.calendar.today() or day < EPOCH:
            raise Refusal("unknown_daily", "no daily of this day")
        attempts = [a for a in self.store.attempts_at(day.isoformat(), game.name) if finished(a)]
        results = sorted(
            ((Result.of(a), a) for a in attempts),
            key=lambda found: (found[0].order(), found[1].name or ""),
        )
        par = self.par(day, game)
        you = None
        for result, attempt in results:
            if attempt.player_id == player_id:
                overall, per_game = self.streaks(player_id, self.calendar.today(), game.name)
                you = {
                    "result": result.to_json(),
                    "share": share_text(game, day, result, par),
                    "streak": overall,
                    "game_streak": per_game,
                }
        return {
            "day": day.isoformat(),
            "number": daily_number(day),
            "game": game.name,
            "over": self.calendar.over(day),
            "ends_at": self.calendar.ends_at(day),
            "par": par,
            "entries": [
                {"name": a.name or "", "you": a.player_id == player_id} | r.to_json()
                for r, a in results
            ],
            "you": you,
        }

    def streaks(
        self, player_id: str | None, today: date, game: str | None = None
    ) -> tuple[int, int]:
        """The player's streak over every game, and over ``game`` alone (0 without one)."""
        if player_id is None:
            return 0, 0
        done = [a for a in self.store.attempts_of(player_id) if finished(a)]
        every = {date.fromisoformat(a.day) for a in done}
        alone = {date.fromisoformat(a.day) for a in done if a.game == game}
        return streak(every, today), streak(alone, today) if game else 0

    # Par: the best score a day's deal allowed (a game with a best line: Scoundrel)

    def par(self, day: date, game: AnyGame) -> int | None:
        """The stored par; None while it is searched (started here if need be), or when the
        search gave up, or for a game without one."""
        if not has_par(game):
            return None
        searched, best = self.store.par(day.isoformat(), game.name)
        if not searched:
            self.foresee_par(day, game)
        return best

    def foresee_par(self, day: date, game: AnyGame) -> None:
        """Searches a day's par in a worker process, off the request path (a thread waits
        for it and stores it); once per day and game in this process at a time."""
        key = (day.isoformat(), game.name)
        with self._searching_lock:
            if key in self._searching:
                return
            self._searching.add(key)
        thread = threading.Thread(target=self._search_par, args=(day, game), daemon=True)
        thread.start()

    def _search_par(self, day: date, game: AnyGame) -> None:
        key = (day.isoformat(), game.name)
        try:
            search = game.best_line_search()
            assert search is not None
            state = game.new(
                seed=daily_seed(self.secret_key, day, game.name), options=daily_options(game)
            )
            try:
                best: int | None = self.searches.run(
                    ("par", *key), lambda: (search, (state,))
                ).score
            except OutOfBudget:
                best = None
            self.store.store_par(*key, best)
        except (SearchesBusy, SearchFailed):  # the next look at the board tries again
            logger.info("daily par not searched now", extra={"day": key[0], "game": game.name})
        except Exception:
            logger.exception("searching a daily's par failed")
        finally:
            with self._searching_lock:
                self._searching.discard(key)
