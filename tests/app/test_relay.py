"""The relay between server processes (app/relay.py) on the machine's Redis, each test on a
channel of its own."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Awaitable, Callable

import orjson
import pytest
import redis.asyncio as redis

from app import relay
from app.relay import Event, RedisRelay
from tests.app.processes import SHARED_REDIS


async def until(condition: Callable[[], object], seconds: float = 10) -> None:
    async with asyncio.timeout(seconds):
        while not condition():
            await asyncio.sleep(0.02)


def test_a_stray_message_on_the_channel_reaches_no_room_and_ends_no_subscription(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(relay, "CHANNEL", f"kartenrunde:test:{uuid.uuid4().hex}")
    heard: list[Event] = []

    async def on_event(event: Event) -> None:
        heard.append(event)

    async def nothing() -> None:
        pass

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


def test_a_process_hears_the_events_of_the_others_and_never_its_own(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(relay, "CHANNEL", f"kartenrunde:test:{uuid.uuid4().hex}")
    heard: dict[str, list[Event]] = {"first": [], "second": []}

    def hearing(name: str) -> Callable[[Event], Awaitable[None]]:
        async def on_event(event: Event) -> None:
            if event["t"] == "chat":
                heard[name].append(event)

        return on_event

    async def nothing() -> None:
        pass

    async def scenario() -> None:
        first, second = RedisRelay(SHARED_REDIS), RedisRelay(SHARED_REDIS)
        first.start(hearing("first"), nothing, nothing)
        second.start(hearing("second"), nothing, nothing)
        try:
            await until(lambda: first.connected and second.connected)
            first.announce({"t": "chat", "room": "r", "line": {"text": "from the first"}})
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
