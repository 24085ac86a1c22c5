"""The relay between server processes (app/cluster/relay.py) on the machine's Redis, each test on a
channel of its own."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Awaitable, Callable
from pathlib import Path

import orjson
import pytest
import redis.asyncio as redis

from app.cluster import relay
from app.cluster.relay import Event, RedisRelay
from tests.app.processes import SHARED_REDIS, Redis


async def until(condition: Callable[[], object], seconds: float = 10) -> None:
    async with asyncio.timeout(seconds):
        while not condition():
            await asyncio.sleep(0.02)


async def nothing() -> None:
    """A resync or heartbeat callback with nothing to do."""


async def ignore(_event: Event) -> None:
    """An event callback that keeps nothing."""


def chats_into(lines: list[Event]) -> Callable[[Event], Awaitable[None]]:
    """An event callback that keeps the chat events it hears in ``lines``."""

    async def on_event(event: Event) -> None:
        if event["t"] == "chat":
            lines.append(event)

    return on_event


async def speaker_and_listener(
    url: str, heard: list[Event], on_resync: Callable[[], Awaitable[None]] = nothing
) -> tuple[RedisRelay, RedisRelay]:
    """Two relays, connected: one to announce, one that keeps the chats it hears."""
    speaker, listener = RedisRelay(url), RedisRelay(url)
    speaker.start(ignore, nothing, nothing)
    listener.start(chats_into(heard), on_resync, nothing)
    await until(lambda: speaker.connected and listener.connected)
    return speaker, listener


@pytest.mark.services
def test_a_stray_message_on_the_channel_reaches_no_room_and_ends_no_subscription(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(relay, "CHANNEL", f"kartenrunde:test:{uuid.uuid4().hex}")
    heard: list[Event] = []

    async def on_event(event: Event) -> None:
        heard.append(event)

    async def scenario() -> None:
        listener = RedisRelay(SHARED_REDIS)
        listener.start(on_event, nothing, nothing)
        sender = redis.Redis.from_url(SHARED_REDIS)
        try:
            await until(lambda: listener.connected)
            for stray in (b"hello", b"[]", b"[1]", b"{}", b'[{"t": "x"}, 2]', b"\xff"):
                await sender.publish(relay.CHANNEL, stray)
            event = {"t": "online", "room": "r", "seats": [1, 0], "proc": "another"}
            await sender.publish(relay.CHANNEL, orjson.dumps([event]))
            await until(lambda: heard)
            assert heard == [event]
            assert listener.connected
        finally:
            await sender.aclose()
            await listener.stop()

    asyncio.run(scenario())


@pytest.mark.services
def test_a_process_hears_the_events_of_the_others_and_never_its_own(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(relay, "CHANNEL", f"kartenrunde:test:{uuid.uuid4().hex}")
    heard: dict[str, list[Event]] = {"first": [], "second": []}

    async def scenario() -> None:
        first, second = RedisRelay(SHARED_REDIS), RedisRelay(SHARED_REDIS)
        first.start(chats_into(heard["first"]), nothing, nothing)
        second.start(chats_into(heard["second"]), nothing, nothing)
        try:
            await until(lambda: first.connected and second.connected)
            await first.follow("r")
            await second.follow("r")
            # From a thread too (announcing never needs the event loop's thread).
            line = {"t": "chat", "room": "r", "line": {"text": "from the first"}}
            await asyncio.to_thread(first.announce, line)
            second.announce({"t": "chat", "room": "r", "line": {"text": "from the second"}})
            await until(lambda: heard["first"] and heard["second"])
            await asyncio.sleep(0.2)  # time for an echo to arrive, if one did
            assert [event["line"]["text"] for event in heard["first"]] == ["from the second"]
            assert [event["line"]["text"] for event in heard["second"]] == ["from the first"]
            assert heard["first"][0]["proc"] == second.process
        finally:
            await first.stop()
            await second.stop()

    asyncio.run(scenario())


@pytest.mark.services
def test_a_process_hears_a_rooms_events_only_while_it_follows_the_room(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """What it hears once ``follow`` is back is heard (Redis confirmed the subscription);
    events for every process are heard all the time."""
    monkeypatch.setattr(relay, "CHANNEL", f"kartenrunde:test:{uuid.uuid4().hex}")
    heard: list[Event] = []

    def chat(room: str, text: str) -> Event:
        return {"t": "chat", "room": room, "line": {"text": text}}

    async def scenario() -> None:
        speaker, listener = await speaker_and_listener(SHARED_REDIS, heard)
        try:
            await listener.follow("a")
            assert listener.follows("a")
            speaker.announce(chat("a", "followed"))
            speaker.announce(chat("b", "another room"))
            speaker.announce(chat("b", "to everyone"), everyone=True)
            await until(lambda: len(heard) == 2)
            listener.unfollow("a")
            await asyncio.sleep(0.1)  # (the unsubscription reaches Redis)
            speaker.announce(chat("a", "after"))
            speaker.announce(chat("a", "the last"), everyone=True)
            await until(lambda: len(heard) == 3)
            await asyncio.sleep(0.2)  # time for a stray one to arrive, if one did
            assert [event["line"]["text"] for event in heard] == [
                "followed",
                "to everyone",
                "the last",
            ]
        finally:
            await speaker.stop()
            await listener.stop()

    asyncio.run(scenario())


@pytest.mark.services
def test_the_followed_rooms_are_subscribed_again_when_redis_is_back(tmp_path: Path) -> None:
    """Redis restarted: the rooms followed before, and one followed while it was away, are
    heard again, after the resync (which catches the rooms up) has run."""
    server = Redis(tmp_path)
    server.start()
    url = server.url
    heard: list[Event] = []
    resyncs: list[bool] = []

    async def resync() -> None:
        resyncs.append(True)

    async def scenario() -> None:
        speaker, listener = await speaker_and_listener(url, heard, resync)
        try:
            await listener.follow("before")
            server.stop()
            await until(lambda: not listener.connected)
            await listener.follow("meanwhile")  # back at once: Redis is away
            server.start()
            await until(lambda: speaker.connected and listener.connected and resyncs)
            for room in ("before", "meanwhile"):
                speaker.announce({"t": "chat", "room": room, "line": {"text": room}})
            await until(lambda: len(heard) == 2)
            assert sorted(event["room"] for event in heard) == ["before", "meanwhile"]
        finally:
            await speaker.stop()
            await listener.stop()

    try:
        asyncio.run(scenario())
    finally:
        server.stop()


@pytest.mark.services
def test_a_redis_with_a_password_is_reached_with_the_one_in_the_url(tmp_path: Path) -> None:
    """The password (and a user, if any) of REDIS_URL is sent before anything else; with a
    wrong one the relay never counts as connected, so the process never counts as ready."""
    server = Redis(tmp_path, "--requirepass", "s3cret/+")
    server.start()
    heard: dict[str, list[Event]] = {"right": [], "wrong": []}

    async def scenario() -> None:
        right = RedisRelay(f"redis://:s3cret%2F%2B@127.0.0.1:{server.port}/0")
        other = RedisRelay(f"redis://default:s3cret%2F%2B@127.0.0.1:{server.port}/0")
        wrong = RedisRelay(f"redis://:guess@127.0.0.1:{server.port}/0")
        right.start(chats_into(heard["right"]), nothing, nothing)
        other.start(ignore, nothing, nothing)
        wrong.start(chats_into(heard["wrong"]), nothing, nothing)
        try:
            await until(lambda: right.connected and other.connected)
            await right.follow("r")
            other.announce({"t": "chat", "room": "r", "line": {"text": "hello"}})
            wrong.announce({"t": "chat", "room": "r", "line": {"text": "from outside"}})
            await until(lambda: heard["right"])
            await asyncio.sleep(0.3)
            assert [event["line"]["text"] for event in heard["right"]] == ["hello"]
            assert not wrong.connected
            assert heard["wrong"] == []
        finally:
            for each in (right, other, wrong):
                await each.stop()

    try:
        asyncio.run(scenario())
    finally:
        server.stop()


def test_a_redis_url_of_another_kind_is_refused_at_start() -> None:
    with pytest.raises(ValueError, match="redis:// or rediss://"):
        RedisRelay("unix:///run/redis.sock")


@pytest.mark.services
def test_a_stopped_relay_leaves_no_connection_to_redis(tmp_path: Path) -> None:
    server = Redis(tmp_path)
    server.start()

    async def scenario() -> None:
        url = f"redis://127.0.0.1:{server.port}/0"
        stopped = RedisRelay(url)
        stopped.start(ignore, nothing, nothing)
        await until(lambda: stopped.connected)
        await stopped.stop()
        await asyncio.sleep(0.3)  # time for a closed connection to be replaced, if one were
        async with redis.Redis.from_url(url) as probe:
            assert (await probe.info("clients"))["connected_clients"] == 1  # the probe itself

    try:
        asyncio.run(scenario())
    finally:
        server.stop()
