"""The composition root: every part of the server is built, subscribed to the room-events
hub and hooked to the others here, in ``build``, and nowhere else; ``Server`` starts and
stops them together. A part is given what it uses when it is made, never afterwards.

Who hears a room's change, in this order (``events.subscribe``): the ratings beside the
names (so that the texts of a change carry them), this process's sockets, the other
processes (REDIS_URL), the absent players' offers, the computer players, Web Push.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, fields
from typing import Any

from sqlalchemy.engine import Engine

from app.cluster.news import RelayNews
from app.cluster.peers import Cluster
from app.cluster.relay import RedisRelay
from app.computer.players import ComputerPlayers
from app.computer.searches import Searches
from app.history.daily import Dailies, DailyCalendar
from app.history.matches import MatchService
from app.history.wire import WireInspector
from app.limits import ConnectionCaps, RoomCreationLimit
from app.messaging import Broadcaster, LocalBroadcaster
from app.people.identity import Identity
from app.people.push import Notifier, PushListener
from app.people.records import Ratings, RatingsListener, Records
from app.settings import Settings
from app.storage.dailies import DailyStore
from app.storage.players import PlayerStore
from app.storage.push import PushStore
from app.storage.records import RecordStore
from app.storage.repositories import Store
from app.table.actions import Actions
from app.table.cache import RoomCache
from app.table.chat import Chat
from app.table.clock import Clock, ClockFile, utc_now
from app.table.devices import DeviceSockets
from app.table.endings import Endings
from app.table.events import RoomEvents
from app.table.features import Features
from app.table.news import RoomNews
from app.table.pause import Pauses
from app.table.players import Players
from app.table.rematch import Rematches
from app.table.rooms import RoomService, TableParts
from app.table.seats import ComputerSeats
from app.table.takebacks import Takebacks
from app.table.takeover import Takeovers
from app.table.turns import Turns

logger = logging.getLogger(__name__)


@dataclass
class Server:
    """Every part the routes and the sweeps use; ``app.state`` holds each by its name."""

    settings: Settings
    db_engine: Engine
    store: Store
    clock: Clock
    relay: RedisRelay | None
    events: RoomEvents
    rooms: RoomService
    devices: DeviceSockets
    takeovers: Takeovers
    computer: ComputerPlayers
    cluster: Cluster | None
    searches: Searches
    matches: MatchService
    calendar: DailyCalendar
    dailies: Dailies
    wire: WireInspector
    identity: Identity
    ratings: Ratings
    seat_ratings: RatingsListener
    records: Records
    notifier: Notifier
    connection_caps: ConnectionCaps
    room_creation_limit: RoomCreationLimit
    sweeps: list[asyncio.Task[None]] = field(default_factory=list)

    def parts(self) -> dict[str, Any]:
        """Each part by its name (for ``app.state``)."""
        return {f.name: getattr(self, f.name) for f in fields(self) if f.name != "sweeps"}

    async def start(self, idle_every: float, turns_every: float) -> None:
        """Every rating replayed from the database once; the relay listening; the sweeps of
        idle rooms and turn-based deadlines running."""
        await asyncio.to_thread(self.ratings.refresh)
        if self.relay is not None and self.cluster is not None:
            self.relay.start(self.cluster.on_event, self.cluster.resync, self.cluster.heartbeat)
        self.sweeps = [
            asyncio.create_task(every(idle_every, self.rooms.close_idle_rooms, "closing idle")),
            asyncio.create_task(every(turns_every, self.rooms.sweep_turns, "watching turns")),
        ]

    async def stop(self) -> None:
        for sweep in self.sweeps:
            sweep.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await sweep
        if self.relay is not None:
            await self.relay.stop()
        await self.computer.shutdown()
        await self.rooms.shutdown()
        await self.seat_ratings.stop()
        await self.notifier.shutdown()
        self.searches.close()
        self.store.close()


async def every(seconds: float, sweep: Callable[[], Awaitable[Any]], what: str) -> None:
    while True:
        await asyncio.sleep(seconds)
        try:
            await sweep()
        except Exception:  # the next round tries again (the database may be back by then)
            logger.exception("%s rooms failed", what)


def wall_clock(settings: Settings) -> Clock:
    """The real time; with TEST_CLOCK_FILE (tests only: the settings refuse it in
    production) moved on by the file's seconds."""
    if settings.test_clock_file is None:
        return Clock()
    logger.warning("the clock is moved on by %s (tests only)", settings.test_clock_file)
    return Clock(ClockFile(settings.test_clock_file, utc_now))


def build(
    settings: Settings,
    db_engine: Engine,
    *,
    relay: RedisRelay | None = None,
    broadcaster: Broadcaster | None = None,
) -> Server:
    """The server's parts on ``db_engine``. Several processes share rooms through Redis
    (REDIS_URL; a test may hand in a ``relay`` of its own); one process needs none."""
    if relay is None and settings.redis_url:
        relay = RedisRelay(settings.redis_url)
    broadcaster = broadcaster or LocalBroadcaster()
    store = Store(db_engine)
    clock = wall_clock(settings)
    shared = relay is not None

    calendar = DailyCalendar(DailyStore(db_engine), settings.daily_time_zone, clock)
    searches = Searches(settings.search_processes, settings.search_queue)
    matches = MatchService(store, searches, holds_back=calendar.held_back)
    on_deal = matches.foresee if settings.analysis_ahead else (lambda match_id, game, state: None)

    events = RoomEvents()
    cache = RoomCache(store, broadcaster, events, settings.room_idle_minutes)
    devices = DeviceSockets(relay, PlayerStore(db_engine).signed_in, store.off_loop)
    endings = Endings(store, cache, events, clock, shared)
    takeovers = Takeovers(settings, store, broadcaster, events, endings, clock)
    chat = Chat(store, events, clock)
    turns = Turns(store, cache, events, takeovers, clock)
    # The table's features: each handles its client messages, adds its keys to the state
    # message, and may veto actions (app/table/features.py).
    features = Features(
        [
            Rematches(store, cache, events, clock, on_deal, calendar.is_daily_room),
            turns,
            endings,
            Takebacks(store, cache, events, clock),
            takeovers,
            chat,
            Pauses(store, events, clock),
        ]
    )
    news = RoomNews(broadcaster, features)
    actions = Actions(store, cache, events, features, clock, shared)
    ratings = Ratings(RecordStore(db_engine))
    seat_ratings = RatingsListener(
        ratings, store.off_loop, cache.held_rooms, settings.public_history
    )
    relay_news = RelayNews(relay) if relay is not None else None
    cluster = (
        Cluster(cache, news, relay_news, events, seat_ratings.ended, devices)
        if relay_news is not None
        else None
    )
    parts = TableParts(
        cache=cache,
        events=events,
        actions=actions,
        players=Players(
            store, cache, broadcaster, events, clock, features, takeovers.open_offer, cluster
        ),
        seats=ComputerSeats(store, cache, events, clock, shared),
        features=features,
        takeovers=takeovers,
        chat=chat,
        turns=turns,
    )
    rooms = RoomService(settings, store, clock, parts, on_deal, relay)
    computer = ComputerPlayers(settings, store, actions.play)
    notifier = Notifier(settings, PushStore(db_engine), store.off_loop)

    # The order is the order in which they hear of a change.
    events.subscribe(seat_ratings)
    events.subscribe(news)
    if cluster is not None and relay_news is not None:
        events.subscribe(relay_news)
        events.subscribe(cluster)
    events.subscribe(takeovers)
    events.subscribe(computer)
    events.subscribe(PushListener(notifier, broadcaster, settings.public_base_url or ""))

    dailies = Dailies(
        calendar,
        searches,
        settings.secret_key,
        rooms.create_room,
        rooms.open_room,
        rooms.join,
        store.off_loop,
    )
    return Server(
        settings=settings,
        db_engine=db_engine,
        store=store,
        clock=clock,
        relay=relay,
        events=events,
        rooms=rooms,
        devices=devices,
        takeovers=takeovers,
        computer=computer,
        cluster=cluster,
        searches=searches,
        matches=matches,
        calendar=calendar,
        dailies=dailies,
        wire=WireInspector(store, features),
        identity=Identity(
            PlayerStore(db_engine),
            settings.secret_key,
            store.off_loop,
            on_signed_out=devices.signed_out,
        ),
        ratings=ratings,
        seat_ratings=seat_ratings,
        records=Records(RecordStore(db_engine), ratings, settings.public_history),
        notifier=notifier,
        connection_caps=ConnectionCaps(settings),
        room_creation_limit=RoomCreationLimit(settings.rooms_per_address_per_minute),
    )
