"""Room changes between server processes, over Redis publish/subscribe (``REDIS_URL``).

The database stays the source of truth: a process stores first, then announces what it
stored here. Announcing never waits: events go on a bounded outbox that a publisher task
drains in order, everything that queued during the previous publish in one message (so a
busy process pays one round trip for many moves), on a connection of its own: redis-py's
client takes a pooled connection per command, which cost more CPU than the publish itself
(bench/relay.py). Every process subscribes to one channel, also on a connection of its
own that it reads directly, and hands each event of another process to the room service
(``app/services/cluster.py``), which delivers to its own sockets.

When Redis goes away, events are dropped (they are only news of what is stored); once it
is back, ``on_resync`` runs so that every process catches its rooms up from the database
and re-announces its presence. A heartbeat per process lets the others forget the
presence of a process that died, and a subscriber that hears no heartbeat at all (its own
included) for five beats takes Redis as gone, even when its socket stays open.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import uuid
from collections.abc import Awaitable, Callable
from typing import Any

import orjson
import redis.asyncio as redis
from redis.exceptions import RedisError

logger = logging.getLogger(__name__)

CHANNEL = "kartenrunde:rooms"
HEARTBEAT_SECONDS = 1.0
OUTBOX_EVENTS = 10_000
RETRY_SECONDS = 0.5

Event = dict[str, Any]


class RedisRelay:
    def __init__(self, url: str) -> None:
        self.url = url
        self.process = uuid.uuid4().hex[:12]
        # How this process's messages begin: its own echoes are skipped unparsed.
        self._own = b'[{"proc":"' + self.process.encode() + b'"'
        self.client: redis.Redis = redis.Redis.from_url(
            url, socket_connect_timeout=2, socket_timeout=None, health_check_interval=5
        )
        # redis-py leaves make_connection unannotated.
        self._publisher = self.client.connection_pool.make_connection()  # type: ignore[no-untyped-call]
        self._outbox: asyncio.Queue[Event] = asyncio.Queue(OUTBOX_EVENTS)
        self._tasks: list[asyncio.Task[None]] = []
        self.connected = False

    def announce(self, event: Event) -> None:
        """Queue an event for the other processes; never waits."""
        try:
            self._outbox.put_nowait({"proc": self.process, **event})
        except asyncio.QueueFull:
            logger.warning("redis outbox full; dropping an event", extra={"event": event["t"]})

    def start(
        self,
        on_event: Callable[[Event], Awaitable[None]],
        on_resync: Callable[[], Awaitable[None]],
        on_heartbeat: Callable[[], Awaitable[None]],
    ) -> None:
        loop = asyncio.get_running_loop()
        self._tasks = [
            loop.create_task(self._publish()),
            loop.create_task(self._subscribe(on_event, on_resync)),
            loop.create_task(self._beat(on_heartbeat)),
        ]

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        with contextlib.suppress(Exception):
            await self._publisher.disconnect()
        with contextlib.suppress(Exception):
            await self.client.aclose()

    async def _publish(self) -> None:
        while True:
            events = [await self._outbox.get()]
            while not self._outbox.empty():
                events.append(self._outbox.get_nowait())
            try:
                await self._publisher.send_command("PUBLISH", CHANNEL, orjson.dumps(events))
                await self._publisher.read_response()
            except (RedisError, OSError) as error:
                # Drop what waits: it is news of stored changes, and the others catch up
                # from the database once Redis is back. (redis-py has dropped a broken
                # connection already; the next publish connects afresh.)
                dropped = self._outbox.qsize() + len(events)
                while not self._outbox.empty():
                    self._outbox.get_nowait()
                logger.warning("publishing to redis failed (%s); dropped %d events", error, dropped)
                await asyncio.sleep(RETRY_SECONDS)

    async def _subscribe(
        self,
        on_event: Callable[[Event], Awaitable[None]],
        on_resync: Callable[[], Awaitable[None]],
    ) -> None:
        first = True
        while True:
            # A connection of its own, read directly: PubSub.get_message's layers (health
            # check, retry and timing wrappers per read) cost more CPU than the event.
            listener = self.client.connection_pool.make_connection()  # type: ignore[no-untyped-call]
            try:
                await listener.send_command("SUBSCRIBE", CHANNEL)
                await listener.read_response(push_request=True)  # the confirmation
                if not first:
                    logger.info("redis is back; catching up every room from the database")
                    await on_resync()
                    self.announce({"t": "resync"})
                first = False
                self.connected = True
                while True:
                    # Every process (this one too) beats each HEARTBEAT_SECONDS: silence
                    # this long means the connection is gone.
                    message = await listener.read_response(
                        timeout=HEARTBEAT_SECONDS * 5, push_request=True
                    )
                    if message is None:
                        raise TimeoutError("no heartbeat on the channel")
                    if message[0] != b"message" or message[2].startswith(self._own):
                        continue  # a (un)subscribe confirmation, or this process's own
                    await handle(events_of(message[2]), on_event)
            except (RedisError, OSError) as error:
                if self.connected:
                    logger.warning("redis subscription lost (%s); retrying", error)
                self.connected = False
                await asyncio.sleep(RETRY_SECONDS)
            finally:
                with contextlib.suppress(Exception):
                    await listener.disconnect()

    async def _beat(self, on_heartbeat: Callable[[], Awaitable[None]]) -> None:
        while True:
            self.announce({"t": "alive"})
            try:
                await on_heartbeat()
            except Exception:
                logger.exception("presence heartbeat failed")
            await asyncio.sleep(HEARTBEAT_SECONDS)


def events_of(data: bytes) -> list[Event]:
    """The events of a message on the channel, each with its type; none (and a warning)
    for anything else: a stray publish must not end the subscription."""
    try:
        events = orjson.loads(data)
    except orjson.JSONDecodeError:
        events = None
    if isinstance(events, dict):  # from a process of the previous release
        events = [events]
    if not isinstance(events, list) or not all(
        isinstance(event, dict) and "t" in event for event in events
    ):
        logger.warning("ignored a message on %s that is not a list of events", CHANNEL)
        return []
    return events


async def handle(events: list[Event], on_event: Callable[[Event], Awaitable[None]]) -> None:
    for event in events:
        try:
            await on_event(event)
        except Exception:
            logger.exception("handling a redis event failed", extra={"event": event})
