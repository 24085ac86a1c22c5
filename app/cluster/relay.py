"""Room changes between server processes, over Redis publish/subscribe (``REDIS_URL``).

The database stays the source of truth: a process stores first, then announces what it
stored here. Announcing never waits: events collect on an outbox that is published once
per turn of the event loop, everything announced meanwhile for one channel in one message
(so a busy room's moves share a publish). A room's events go to a channel of its
own, which a process follows only while it has a socket of the room (``follow``); what every
process must hear (heartbeats, resyncs, closed rooms, ended matches) goes to one channel that
all follow. Each event of another process is handed to the room service
(``app/cluster/peers.py``), which delivers to its own sockets. So a move wakes only the
processes that have a socket of its room: a process serving none of 100 rooms spent about
0.1 ms of CPU on each of their moves when it heard them all (``bench/bystander.py``).

Both connections are plain asyncio protocols speaking Redis's protocol through hiredis
(which packs the commands and parses the replies): through redis-py's layers a message
cost a process woken for it 70 to 88 us of CPU to publish and 80 to 101 us to hear, this
way at most 17 and 26 to 41 (bench/relay.py). The publishing connection asks Redis for
no replies (``CLIENT REPLY OFF``), so a publish is one write and never wakes the process
again.

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
import time
import uuid
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any, cast
from urllib.parse import unquote, urlsplit

import hiredis
import orjson

logger = logging.getLogger(__name__)

CHANNEL = "kartenrunde:rooms"  # every process; each room's channel begins with it
HEARTBEAT_SECONDS = 1.0
OUTBOX_EVENTS = 10_000
RETRY_SECONDS = 0.5
CONNECT_SECONDS = 2.0
# Unsent bytes beyond which a publish is dropped: Redis is frozen or far behind.
PUBLISH_BUFFER_BYTES = 1 << 20

Event = dict[str, Any]
# hiredis's stub types a command as a tuple of exactly one part (redis/hiredis-py#195):
# typed here as what it packs, any number of parts.
pack_command = cast(Callable[[tuple[str | bytes, ...]], bytes], hiredis.pack_command)


class Link(asyncio.Protocol):
    """One connection to Redis: commands packed and replies parsed by hiredis, each reply
    handed to ``on_reply`` as soon as it is parsed."""

    def __init__(self, on_reply: Callable[[Any], None], on_lost: Callable[[Link], None]) -> None:
        self.on_reply = on_reply
        self.on_lost = on_lost
        self.parser = hiredis.Reader()
        self.transport: asyncio.Transport | None = None
        self.heard = time.monotonic()  # when Redis last sent anything

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)  # (uvloop's is no subclass)

    def data_received(self, data: bytes) -> None:
        self.heard = time.monotonic()
        self.parser.feed(data)
        try:
            while (reply := self.parser.gets()) is not False:
                self.on_reply(reply)
        except hiredis.ProtocolError:
            logger.warning("redis sent what is not its protocol; reconnecting")
            self.close()

    def connection_lost(self, exc: Exception | None) -> None:
        self.on_lost(self)

    @property
    def open(self) -> bool:
        return self.transport is not None and not self.transport.is_closing()

    @property
    def unsent(self) -> int:
        """Bytes written but not yet taken by the socket."""
        return 0 if self.transport is None else self.transport.get_write_buffer_size()

    def send(self, *command: str | bytes) -> None:
        if not self.open:
            raise ConnectionError("the connection to redis is closed")
        assert self.transport is not None
        self.transport.write(pack_command(command))

    def close(self) -> None:
        if self.transport is not None:
            self.transport.close()


async def connect(url: str, link: Link) -> Link:
    """``link`` connected to the Redis of ``url`` (redis:// or rediss://, with a password or a
    user and password if given: the channel is the same in every database); OSError or
    TimeoutError when it cannot be reached."""
    parts = urlsplit(url)
    loop = asyncio.get_running_loop()
    async with asyncio.timeout(CONNECT_SECONDS):
        await loop.create_connection(
            lambda: link,
            parts.hostname or "localhost",
            parts.port or 6379,
            ssl=parts.scheme == "rediss" or None,
        )
    if parts.password is not None:
        user = [unquote(parts.username)] if parts.username else []
        link.send("AUTH", *user, unquote(parts.password))
    return link


class RedisRelay:
    def __init__(self, url: str) -> None:
        scheme = urlsplit(url).scheme
        if scheme not in ("redis", "rediss"):
            raise ValueError(f"REDIS_URL must start with redis:// or rediss://, not {scheme}://")
        self.url = url
        self.process = uuid.uuid4().hex[:12]
        # How this process's messages begin: its own echoes are skipped unparsed.
        self._own = b'[{"proc":"' + self.process.encode() + b'"'
        self._outbox: dict[str, list[Event]] = {}  # by channel
        self._queued = 0
        self._following: set[str] = set()  # the rooms whose channels this process hears
        # Per channel, the subscriptions Redis has still to confirm, in the order sent.
        self._confirming: dict[bytes, deque[asyncio.Future[None]]] = {}
        self._publisher: Link | None = None
        self._connecting: asyncio.Task[None] | None = None  # a publisher that connects anew
        self._warned = 0.0  # when a dropped publish was last logged
        self._inbox: deque[bytes] = deque()
        self._listener: Link | None = None
        self._waiting: asyncio.Future[None] | None = None
        self._tasks: list[asyncio.Task[None]] = []
        self._loop: asyncio.AbstractEventLoop | None = None
        self.connected = False

    def announce(self, event: Event, everyone: bool = False) -> None:
        """Queue an event for the other processes that follow its room (``everyone``, or
        no room: for all of them); never waits. From a thread, the event loop queues it."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            if self._loop is not None:
                self._loop.call_soon_threadsafe(self.announce, event, everyone)
            return
        if self._queued >= OUTBOX_EVENTS:
            logger.warning("redis outbox full; dropping an event", extra={"event": event["t"]})
            return
        if not self._queued:
            loop.call_soon(self._publish)
        self._queued += 1
        channel = CHANNEL if everyone or "room" not in event else room_channel(event["room"])
        self._outbox.setdefault(channel, []).append({"proc": self.process, **event})

    async def follow(self, room_id: str) -> None:
        """Hear the room's events from now on: back once Redis has confirmed, so that what
        is read from the database after it misses nothing (at once while Redis is away:
        the resync once it is back catches the room up)."""
        self._following.add(room_id)
        listener = self._listener
        if listener is None or not listener.open:  # the next subscription takes it in
            return
        confirmed = self._subscribe_to(listener, [room_channel(room_id)])[0]
        try:
            async with asyncio.timeout(HEARTBEAT_SECONDS * 5):
                await asyncio.shield(confirmed)
        except TimeoutError:  # a silent Redis: the silence check reconnects and resyncs
            logger.warning("redis did not confirm a subscription", extra={"room_id": room_id})

    def unfollow(self, room_id: str) -> None:
        """Hear the room's events no more."""
        self._following.discard(room_id)
        listener = self._listener
        if listener is not None and listener.open:
            listener.send("UNSUBSCRIBE", room_channel(room_id))

    def follows(self, room_id: str) -> bool:
        return room_id in self._following

    def start(
        self,
        on_event: Callable[[Event], Awaitable[None]],
        on_resync: Callable[[], Awaitable[None]],
        on_heartbeat: Callable[[], Awaitable[None]],
    ) -> None:
        loop = self._loop = asyncio.get_running_loop()
        self._tasks = [
            loop.create_task(self._subscribe(on_event, on_resync)),
            loop.create_task(self._beat(on_heartbeat)),
        ]

    async def stop(self) -> None:
        tasks = [*self._tasks, *([self._connecting] if self._connecting else [])]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self.connected = False  # (so that no lost connection is replaced)
        links, self._publisher, self._listener = (self._publisher, self._listener), None, None
        for link in links:
            if link is not None:
                link.close()

    # Publishing

    def _publish(self) -> None:
        """Everything announced since the last publish, one message per channel."""
        outbox, self._outbox, queued, self._queued = self._outbox, {}, self._queued, 0
        link = self._publisher
        if link is None or not link.open:
            self._drop(queued, "not connected")
        elif link.unsent > PUBLISH_BUFFER_BYTES:
            self._drop(queued, "redis takes no writes")  # frozen: its news would be stale
        else:
            for channel, events in outbox.items():
                link.send("PUBLISH", channel, orjson.dumps(events))

    def _drop(self, events: int, why: str) -> None:
        """They are news of stored changes: the others catch up from the database once
        Redis is back. One warning a second at most."""
        now = time.monotonic()
        # Without a subscription, its loss was logged already.
        if self.connected and now - self._warned >= 1:
            self._warned = now
            logger.warning("publishing to redis failed (%s); dropped %d events", why, events)

    async def _connect_publisher(self) -> None:
        """A new publishing connection, retried until Redis answers."""
        old, self._publisher = self._publisher, None
        if old is not None:
            old.close()
        while True:
            link = Link(self._publisher_replied, self._publisher_lost)
            try:
                await connect(self.url, link)
            except (OSError, TimeoutError) as error:
                logger.warning("connecting to redis to publish failed (%s); retrying", error)
                link.close()
                await asyncio.sleep(RETRY_SECONDS)
                continue
            # Redis sends nothing back from now on (but an error about the AUTH before).
            link.send("CLIENT", "REPLY", "OFF")
            self._publisher = link
            return

    def _publisher_replied(self, reply: Any) -> None:
        if isinstance(reply, hiredis.ReplyError):
            logger.warning("redis refused the publishing connection: %s", reply)
            if self._publisher is not None:
                self._publisher.close()

    def _publisher_lost(self, link: Link) -> None:
        """The publishing connection dropped while the subscription stands: connect anew.
        (Without a subscription the next one connects the publisher too.)"""
        if link is self._publisher and self.connected and not self._reconnecting():
            self._connecting = asyncio.get_running_loop().create_task(self._connect_publisher())

    def _reconnecting(self) -> bool:
        return self._connecting is not None and not self._connecting.done()

    # Listening

    async def _subscribe(
        self,
        on_event: Callable[[Event], Awaitable[None]],
        on_resync: Callable[[], Awaitable[None]],
    ) -> None:
        first = True
        while True:
            try:
                await self._listen()
                if not first:
                    logger.info("redis is back; catching up every room from the database")
                if not first or self._following:  # (rooms followed before it first answered)
                    await on_resync()
                if not first:
                    self.announce({"t": "resync"})
                first = False
                self.connected = True
                await self._deliver(on_event)
            except (OSError, TimeoutError) as error:
                if self.connected:
                    logger.warning("redis subscription lost (%s); retrying", error)
                self.connected = False
                if self._listener is not None:
                    self._listener.close()
                await asyncio.sleep(RETRY_SECONDS)

    async def _listen(self) -> None:
        """Connected and subscribed (to every process's channel and the followed rooms'),
        and the publishing connection anew."""
        self._inbox.clear()
        self._confirming.clear()
        listener = await connect(self.url, Link(self._heard, self._listener_lost))
        self._listener = listener
        channels = [CHANNEL, *map(room_channel, sorted(self._following))]
        async with asyncio.timeout(HEARTBEAT_SECONDS * 5):
            await asyncio.gather(*self._subscribe_to(listener, channels))
        if not listener.open:
            raise ConnectionError("redis closed the connection")
        if self._reconnecting():
            assert self._connecting is not None
            self._connecting.cancel()
        await self._connect_publisher()

    def _subscribe_to(self, listener: Link, channels: list[str]) -> list[asyncio.Future[None]]:
        """Subscribe; a future per channel, done when Redis confirmed it."""
        loop = asyncio.get_running_loop()
        confirmations = []
        for channel in channels:
            confirmed = loop.create_future()
            self._confirming.setdefault(channel.encode(), deque()).append(confirmed)
            confirmations.append(confirmed)
        listener.send("SUBSCRIBE", *channels)
        return confirmations

    def _heard(self, reply: Any) -> None:
        if isinstance(reply, list) and len(reply) == 3 and reply[0] == b"message":
            if not reply[2].startswith(self._own):
                self._inbox.append(reply[2])
                self._wake()
        elif isinstance(reply, list) and len(reply) == 3 and reply[0] == b"subscribe":
            waiting = self._confirming.get(reply[1])
            if waiting:
                confirmed = waiting.popleft()
                if not confirmed.done():
                    confirmed.set_result(None)
        elif isinstance(reply, hiredis.ReplyError):
            logger.warning("redis refused the subscription: %s", reply)
            assert self._listener is not None
            self._listener.close()

    def _listener_lost(self, link: Link) -> None:
        if link is not self._listener:
            return
        for waiting in self._confirming.values():  # (their waiters see the link closed)
            for confirmed in waiting:
                if not confirmed.done():
                    confirmed.set_result(None)
        self._confirming.clear()
        self._wake()

    def _wake(self) -> None:
        if self._waiting is not None and not self._waiting.done():
            self._waiting.set_result(None)

    async def _deliver(self, on_event: Callable[[Event], Awaitable[None]]) -> None:
        """Hand over what arrives until the connection is lost or silent (then raise)."""
        listener = self._listener
        assert listener is not None
        loop = asyncio.get_running_loop()
        while True:
            while self._inbox:
                await handle(events_of(self._inbox.popleft()), on_event)
            if not listener.open:
                raise ConnectionError("redis closed the connection")
            # Every process (this one too) beats each HEARTBEAT_SECONDS: silence this long
            # means the connection is gone. (The beat wakes this loop to look.)
            if time.monotonic() - listener.heard > HEARTBEAT_SECONDS * 5:
                raise TimeoutError("no heartbeat on the channel")
            self._waiting = loop.create_future()
            await self._waiting

    async def _beat(self, on_heartbeat: Callable[[], Awaitable[None]]) -> None:
        while True:
            self.announce({"t": "alive"})
            self._wake()
            try:
                await on_heartbeat()
            except Exception:
                logger.exception("presence heartbeat failed")
            await asyncio.sleep(HEARTBEAT_SECONDS)


def room_channel(room_id: str) -> str:
    return f"{CHANNEL}:{room_id}"


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
