"""A record between friends: each player's results per game, head to head, against the
computer per level, streaks, and a rating per game.

What counts: finished matches only (app/storage/records.py). Aborted and abandoned
matches count for nothing; a resigned match is a loss for the player who resigned and a
win for the other (``resigned`` in app/table/live.py stores it so). A draw (two seats,
no winner) is a tie.

The record per game: matches, wins, draws, losses; the average margin (one's points less
the other's, over the matches whose result has both scores: a resigned match has none);
head to head per opponent, across every room and game and per game; against the computer
per level; the current streak of wins and the best one. Scoundrel is played alone: its
record is plays, survived (a win), the best and the average score, and its streaks count
games survived in a row; it has no rating.

The rating: openskill's PlackettLuce model with its default parameters (mu 25, sigma
25/3), one rating per game and player, from the finished matches between two people only
(a match against the computer counts in the record, per level, never in the rating). It is
shown on the scale players know from lichess and BGA, where a newcomer starts at 1500:
1500 + 48 x (mu - 3 sigma), openskill's conservative ordinal, rounded, with the number of
matches it rests on. The 48: openskill's beta (25/6) is the skill one player needs over
another to win about 76 % of their matches, as 200 Elo points do; 200 / (25/6) = 48.

The ratings are one deterministic replay of every finished match in the order of their
ends (``finished_at``, then the match id): each process computes them itself from the
database and keeps them in memory (``Ratings``), taking in the matches that ended since
(a query on the indexed ``finished_at``) when a match ended or a page asks. A match that
ends before one already taken in (another process's, committed late) sends the whole
replay round again, so the numbers are always those a rebuild from the database gives.
No table holds them.

Rooms show each person's rating for the room's game beside their name
(``RatingsListener``): read from memory when a seat is taken, the seats change, a rematch
starts or the room is loaded; never on the path of a move.

Privacy: another player's record, name and rating are shown only to those who shared a
finished or running match with them, or to anyone with ``PUBLIC_HISTORY=true``; anyone
else is answered as if there were no such player. A visible player's opponents whom the
viewer never played with are counted together, without names.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from collections import defaultdict
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from app.storage.records import Order, PlayedMatch, RecordStore
from app.table.events import (
    Acted,
    CaughtUp,
    ChangedElsewhere,
    Event,
    Held,
    Read,
    RematchStarted,
    RoomListener,
    Seated,
    SeatsChanged,
    SeatTakenBack,
)
from app.table.live import Ending, LiveRoom
from engine import games, get_game

if TYPE_CHECKING:
    from openskill.models import PlackettLuce, PlackettLuceRating

logger = logging.getLogger(__name__)


def model() -> PlackettLuce:
    """openskill's PlackettLuce with its default parameters (imported when first used)."""
    from openskill.models import PlackettLuce

    return PlackettLuce()


NEWCOMER = 1500  # the shown rating of a conservative ordinal of 0 (mu 25, sigma 25/3)
POINTS_PER_MU = 48  # 200 Elo points per openskill beta (25/6): see the module's words


def shown_rating(mu: float, sigma: float) -> int:
    return round(NEWCOMER + POINTS_PER_MU * (mu - 3 * sigma))


@dataclass(frozen=True)
class Rating:
    mu: float
    sigma: float
    matches: int

    @property
    def shown(self) -> int:
        """openskill's conservative ordinal, mu - 3 sigma, on the 1500 scale, rounded."""
        return shown_rating(self.mu, self.sigma)

    def to_json(self) -> dict[str, Any]:
        return {
            "rating": self.shown,
            "mu": round(self.mu, 3),
            "sigma": round(self.sigma, 3),
            "matches": self.matches,
        }


def rated_people(people: list[str | None]) -> list[str] | None:
    """The people of a match that counts in the ratings, by seat: two or more seats, each
    held by a different person; else None (a solo game, a match against the computer)."""
    if len(people) < 2 or None in people or len(set(people)) != len(people):
        return None
    return [person for person in people if person is not None]


def ranks(winner: int | None, seats: int) -> list[float]:
    """openskill's ranks by seat (lower is better): the winner first, the others after it;
    without a winner a tie."""
    return [1.0 if winner in (None, seat) else 2.0 for seat in range(seats)]


@dataclass(frozen=True)
class Ended:
    """A match between people that has just ended in a way that counts in the ratings."""

    match_id: int
    winner: int | None


class RatingReplay:
    """Every rating, taking in finished matches one at a time in the order of their ends."""

    def __init__(self) -> None:
        # openskill (some 3 MB and 0.1 s to import) once a match between two people counts.
        self.model: PlackettLuce | None = None
        self.ratings: dict[tuple[str, str], PlackettLuceRating] = {}
        self.counts: dict[tuple[str, str], int] = defaultdict(int)
        self.last: Order | None = None
        self.taken = 0  # matches taken in, rated or not
        self.rated: set[int] = set()  # the ids of the rated matches taken in

    def take(self, match: PlayedMatch) -> None:
        self.last = match.order
        self.taken += 1
        people = rated_people([seat.player_id for seat in match.seats])
        if people is None:
            return
        for key, rating in self.rate(match.game, people, match.winner):
            self.ratings[key] = rating
            self.counts[key] += 1
        self.rated.add(match.id)

    def rate(
        self, game: str, people: list[str], winner: int | None
    ) -> list[tuple[tuple[str, str], PlackettLuceRating]]:
        """The ratings of ``people`` (by seat) after a match ``winner`` won; nothing kept."""
        if self.model is None:
            self.model = model()
        keys = [(game, person) for person in people]
        teams = [[self.ratings.get(key) or self.model.rating()] for key in keys]
        rated = self.model.rate(teams, ranks=ranks(winner, len(people)))
        return [(key, rating) for key, (rating,) in zip(keys, rated, strict=True)]

    def get(self, game: str, player_id: str) -> Rating | None:
        key = (game, player_id)
        found = self.ratings.get(key)
        if found is None:
            return None
        return Rating(found.mu, found.sigma, self.counts[key])

    def after(self, game: str, people: list[str], ended: Ended) -> list[Rating]:
        """The ratings of ``people`` with the match ``ended`` taken in (nothing kept)."""
        return [
            Rating(rating.mu, rating.sigma, self.counts[key] + 1)
            for key, rating in self.rate(game, people, ended.winner)
        ]


class Ratings:
    """This process's ratings, kept in memory, brought up to date from the database by
    ``refresh`` (under a lock: pages ask from the thread pool)."""

    def __init__(self, store: RecordStore) -> None:
        self.store = store
        self._replay: RatingReplay | None = None
        self._lock = threading.Lock()

    def refresh(self) -> None:
        """Take in the matches that ended since the last refresh; replay all of them
        again when one ended meanwhile before the last one taken in (then fewer matches
        end up to that one than were taken in)."""
        with self._lock:
            replay = self._replay
            if replay is not None and replay.last is not None:
                if self.store.finished_upto(replay.last) != replay.taken:
                    replay = None
            if replay is None:
                replay = RatingReplay()
            for match in self.store.finished_after(replay.last):
                replay.take(match)
            self._replay = replay

    def rebuild(self) -> None:
        """Every rating replayed from the database from scratch."""
        with self._lock:
            self._replay = None
        self.refresh()

    def get(self, game: str, player_id: str) -> Rating | None:
        """The rating as kept in memory (None: no rated match yet, or none taken in)."""
        replay = self._replay
        return None if replay is None else replay.get(game, player_id)

    def of_seats(
        self, game: str, people: list[str | None], ended: Ended | None
    ) -> list[Rating | None]:
        """Each seat's rating (None: no person, or no rated match yet). With ``ended``, the
        match of these people that has just ended counts already: the room's last state
        shows the ratings it made before the refresh from the database takes it in, which
        then gives the same numbers (unless another match ended first)."""
        replay = self._replay
        rated = rated_people(people)
        if replay is None or ended is None or rated is None or ended.match_id in replay.rated:
            return [None if person is None else self.get(game, person) for person in people]
        after: list[Rating | None] = [*replay.after(game, rated, ended)]
        return after


# A record's tally: matches, wins, draws, losses.
@dataclass
class Tally:
    matches: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0

    def add(self, kind: str) -> None:
        self.matches += 1
        if kind == "win":
            self.wins += 1
        elif kind == "draw":
            self.draws += 1
        else:
            self.losses += 1

    def to_json(self) -> dict[str, int]:
        return {
            "matches": self.matches,
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
        }


@dataclass
class GameRecord:
    game: str
    tally: Tally = field(default_factory=Tally)
    margins: list[int] = field(default_factory=list)
    scores: list[int] = field(default_factory=list)  # a solo game's scores
    computer: dict[str, Tally] = field(default_factory=lambda: defaultdict(Tally))
    streak: int = 0
    best_streak: int = 0

    def add(self, kind: str) -> None:
        self.tally.add(kind)
        self.streak = self.streak + 1 if kind == "win" else 0
        self.best_streak = max(self.best_streak, self.streak)


@dataclass
class Opponent:
    name: str | None
    tally: Tally = field(default_factory=Tally)
    games: dict[str, Tally] = field(default_factory=lambda: defaultdict(Tally))


def outcome_for(match: PlayedMatch, seat: int) -> str:
    """``win``, ``draw`` or ``loss`` for the player of ``seat``."""
    if match.winner == seat:
        return "win"
    if match.winner is None and len(match.seats) > 1:
        return "draw"
    return "loss"


def seat_of(match: PlayedMatch, player_id: str) -> int | None:
    for seat, held in enumerate(match.seats):
        if held.player_id == player_id:
            return seat
    return None


def player_record(
    player_id: str,
    matches: Iterable[PlayedMatch],
    rating: Callable[[str, str], Rating | None],
    names: dict[str, str],
    visible: Callable[[str], bool],
) -> dict[str, Any]:
    """The record of a player from their finished matches (oldest first): per game, and
    head to head; ``visible`` says which opponents the viewer may see by name (the others
    are counted together under a null id)."""
    per_game: dict[str, GameRecord] = {}
    opponents: dict[str | None, Opponent] = {}
    for match in matches:
        seat = seat_of(match, player_id)
        if seat is None:
            continue
        kind = outcome_for(match, seat)
        record = per_game.setdefault(match.game, GameRecord(match.game))
        record.add(kind)
        scores = match.result.get("scores") or []
        if len(match.seats) == 1:
            if scores:
                record.scores.append(int(scores[0]))
            continue
        if len(scores) == 2 == len(match.seats):
            record.margins.append(int(scores[seat]) - int(scores[1 - seat]))
        for other, held in enumerate(match.seats):
            if other == seat:
                continue
            if held.player_id is None:
                record.computer[held.level or "?"].add(kind)
                continue
            key = held.player_id if visible(held.player_id) else None
            name = None if key is None else names.get(held.player_id, held.name)
            opponent = opponents.setdefault(key, Opponent(name))
            opponent.name = name  # the newest name they played under, or their own
            opponent.tally.add(kind)
            opponent.games[match.game].add(kind)
    order = [game.name for game in games()]
    return {
        "games": [
            game_json(per_game[name], rating(name, player_id)) for name in order if name in per_game
        ],
        "opponents": [
            {
                "player_id": key,
                "name": opponent.name,
                **opponent.tally.to_json(),
                "games": [
                    {"game": name, **opponent.games[name].to_json()}
                    for name in order
                    if name in opponent.games
                ],
            }
            for key, opponent in sorted(
                opponents.items(), key=lambda item: (item[0] is None, -item[1].tally.matches)
            )
        ],
    }


def game_json(record: GameRecord, rating: Rating | None) -> dict[str, Any]:
    solo = get_game(record.game).seats == 1
    margins, scores = record.margins, record.scores
    return {
        "game": record.game,
        "solo": solo,
        **record.tally.to_json(),
        "average_margin": round(sum(margins) / len(margins), 1) if margins else None,
        "best_score": max(scores) if scores else None,
        "average_score": round(sum(scores) / len(scores), 1) if scores else None,
        "streak": record.streak,
        "best_streak": record.best_streak,
        "computer": [
            {"level": level, **tally.to_json()} for level, tally in sorted(record.computer.items())
        ],
        "rating": None if solo or rating is None else rating.to_json(),
    }


class Records:
    """The players' pages: a player's record as one viewer may see it."""

    def __init__(self, store: RecordStore, ratings: Ratings, public: bool) -> None:
        self.store = store
        self.ratings = ratings
        self.public = public  # PUBLIC_HISTORY

    def may_see(self, viewer: str | None, player_id: str) -> bool:
        """One's own record always; another's with PUBLIC_HISTORY, or after a finished or
        running match together."""
        if viewer == player_id or self.public:
            return True
        return viewer is not None and self.store.played_together(viewer, player_id)

    def player_ids(self, room_ids: set[str]) -> dict[str, list[str | None]]:
        """Per room, who holds each seat (None: the computer's own), for links to records."""
        return self.store.seat_holders(room_ids)

    def exists(self, viewer: str | None, player_id: str) -> bool:
        """A player this viewer may see (``record`` would answer)."""
        if len(player_id) > 64 or not self.may_see(viewer, player_id):
            return False
        return self.store.name_of(player_id) is not None

    def record(self, viewer: str | None, player_id: str) -> dict[str, Any] | None:
        """The player's record for this viewer; None when there is no such player or the
        viewer may not see them (the same answer)."""
        if len(player_id) > 64 or not self.may_see(viewer, player_id):
            return None
        name = self.store.name_of(player_id)
        if name is None:
            return None
        self.ratings.refresh()
        matches = self.store.finished_of(player_id)
        people = {
            held.player_id
            for match in matches
            for held in match.seats
            if held.player_id is not None and held.player_id != player_id
        }
        names = self.store.names_of(people)
        known: dict[str, bool] = {}

        def visible(other: str) -> bool:
            if other not in known:
                known[other] = other == viewer or self.may_see(viewer, other)
            return known[other]

        return {
            "player_id": player_id,
            "name": name,
            "you": viewer == player_id,
            **player_record(player_id, matches, self.ratings.get, names, visible),
        }


class RatingsListener(RoomListener):
    """Each person's rating for the room's game beside their name (``LiveRoom.ratings``),
    read from memory when the seats change; after a match ends the ratings are brought up
    to date in a task of their own (off the event loop on PostgreSQL), never on the path
    of a move, and the rooms held here show them from then on."""

    def __init__(
        self,
        ratings: Ratings,
        off_loop: Callable[[Callable[[], None]], Awaitable[None]],
        held_rooms: Callable[[], list[LiveRoom]],
        public: bool,
    ) -> None:
        self.ratings = ratings
        self.off_loop = off_loop
        self.held_rooms = held_rooms
        self.public = public  # PUBLIC_HISTORY: spectators see the ratings too
        self._refreshing: asyncio.Task[None] | None = None
        self._again = False

    def show(self, room: LiveRoom) -> None:
        people = [
            None
            if holder is None or holder.is_computer or room.game.seats < 2
            else holder.player_id
            for holder in room.seats
        ]
        shown = self.ratings.of_seats(room.game.name, people, rated_end(room))
        room.ratings = [
            None if person is None else seat_rating(rating, person)
            for person, rating in zip(people, shown, strict=True)
        ]
        room.ratings_public = self.public

    def ended(self) -> None:
        """A match ended: the ratings are taken up again soon, once at a time."""
        if self._refreshing is not None and not self._refreshing.done():
            self._again = True
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no event loop here (a script, a test's thread): at once
            self.ratings.refresh()
            return
        self._refreshing = loop.create_task(self.refresh())

    async def stop(self) -> None:
        """Wait for a refresh under way (the server stops)."""
        if self._refreshing is not None:
            with contextlib.suppress(Exception):
                await self._refreshing

    async def refresh(self) -> None:
        self._again = True
        while self._again:
            self._again = False
            try:
                await self.off_loop(self.ratings.refresh)
            except Exception:  # the next match's end tries again
                logger.exception("the ratings could not be brought up to date")
                return
        for room in self.held_rooms():
            self.show(room)

    def hear(self, event: Event) -> None:
        match event:
            case Acted(room):  # (a match's last move)
                if room.match.status == "finished":
                    self.ended()
                    self.show(room)
            case SeatsChanged(room) | CaughtUp(room) | ChangedElsewhere(room):
                if room.match.status == "finished":  # (a resignation, another process's end)
                    self.ended()
                self.show(room)
            case (
                Held(room) | Read(room) | Seated(room) | SeatTakenBack(room) | RematchStarted(room)
            ):
                self.show(room)


def rated_end(room: LiveRoom) -> Ended | None:
    """The room's match, if it has just ended in a way that counts (not aborted nor
    abandoned; whether its seats are people's, ``rated_people`` says)."""
    result = room.match.result
    if room.match.status != "finished" or result is None:
        return None
    if result.reason in (Ending.ABORTED, Ending.ABANDONED):
        return None
    return Ended(room.match.id, result.winner)


def seat_rating(rating: Rating | None, player_id: str) -> dict[str, Any]:
    """What a room says of a person's rating: the shown number and the matches it rests on
    (a person without a rated match yet: null and 0), and whose record to link to."""
    return {
        "player_id": player_id,
        "rating": None if rating is None else rating.shown,
        "matches": 0 if rating is None else rating.matches,
    }
