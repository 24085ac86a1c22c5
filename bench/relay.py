"""What a room event costs a server process in Redis, per message, in CPU.

The relay (``app/relay.py``) publishes one message per batch of room events and every
other process receives it. This prints the CPU of one PUBLISH through redis-py's client
(a pooled connection per command) and through one connection of its own (what the relay
does), and of receiving one message through a ``PubSub`` and straight off a connection of
its own (what the relay does), each alternating twice in one run. Needs Redis on
127.0.0.1:6379 (``make services``).

    .venv/bin/python bench/relay.py --messages 10000
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Awaitable, Callable

import orjson
import redis.asyncio as redis
import uvloop

URL = "redis://127.0.0.1:6379/0"
CHANNEL = "kartenrunde:bench"
# An action event as the relay sends it.
EVENT = orjson.dumps(
    [
        {
            "t": "action",
            "room": "x" * 22,
            "match": "y" * 22,
            "v": 17,
            "seat": 0,
            "action": {"type": "play", "card": "R7"},
            "proc": "z" * 12,
        }
    ]
)


async def cpu_per_call(call: Callable[[], Awaitable[object]], count: int) -> float:
    await call()
    started = time.process_time()
    for _ in range(count):
        await call()
    return (time.process_time() - started) / count * 1e6


async def publish_figures(count: int) -> dict[str, float]:
    client = redis.Redis.from_url(URL)
    own = client.connection_pool.make_connection()  # type: ignore[no-untyped-call]

    async def on_own_connection() -> None:
        await own.send_command("PUBLISH", CHANNEL, EVENT)
        await own.read_response()

    figures = {
        "client.publish": await cpu_per_call(lambda: client.publish(CHANNEL, EVENT), count),
        "own connection": await cpu_per_call(on_own_connection, count),
    }
    await own.disconnect()
    await client.aclose()
    return figures


async def receive_figures(count: int) -> dict[str, float]:
    """CPU of receiving one message, the messages published beforehand (unmeasured):
    through a ``PubSub``, and read straight off a connection of its own (the relay's way)."""
    listener, sender = redis.Redis.from_url(URL), redis.Redis.from_url(URL)
    pubsub = listener.pubsub(ignore_subscribe_messages=True)
    await pubsub.subscribe(CHANNEL)
    while await pubsub.get_message(timeout=1) is not None:
        pass
    own = listener.connection_pool.make_connection()  # type: ignore[no-untyped-call]
    await own.send_command("SUBSCRIBE", CHANNEL)
    await own.read_response(push_request=True)

    async def via_pubsub() -> None:
        while await pubsub.get_message(timeout=1) is None:
            pass

    async def on_own_connection() -> None:
        await own.read_response(timeout=1, push_request=True)

    figures = {}
    for name, receive, other in (
        ("PubSub", via_pubsub, on_own_connection),
        ("own connection", on_own_connection, via_pubsub),
    ):
        async with sender.pipeline(transaction=False) as pipe:
            for _ in range(count):
                pipe.publish(CHANNEL, EVENT)
            await pipe.execute()
        started = time.process_time()
        for _ in range(count):
            await receive()
        figures[name] = (time.process_time() - started) / count * 1e6
        for _ in range(count):  # the other reader's copies, unmeasured
            await other()
    await own.disconnect()
    await pubsub.aclose()  # type: ignore[no-untyped-call]
    await listener.aclose()
    await sender.aclose()
    return figures


async def main(count: int) -> None:
    for round_ in (1, 2):
        publish = await publish_figures(count)
        receive = await receive_figures(count)
        sent = "  ".join(f"{name} {us:.1f} us" for name, us in publish.items())
        heard = "  ".join(f"{name} {us:.1f} us" for name, us in receive.items())
        print(f"round {round_}: PUBLISH {sent}  |  receive {heard}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--messages", type=int, default=10_000)
    uvloop.run(main(parser.parse_args().messages))
