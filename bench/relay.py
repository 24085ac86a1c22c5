"""What a room event costs a server process in Redis, per message, in CPU.

The relay (``app/cluster/relay.py``) publishes one message per batch of room events and every
process hears it. Under play a process is woken for almost every message, so this paces
them (``--rate`` a second, as 100 rooms with a second's thought make them) and counts the
CPU a message adds to a process that otherwise only waits: for a publish, the same paced
loop without Redis taken off; a subscriber only waits between messages, so all of its CPU
counts. Both ways, alternating twice in one run:

- redis-py: a connection of its own, PUBLISH then its reply; the subscriber reading each
  message with a timeout (the relay before 5 December 2026);
- the relay's ``Link``: hiredis on a plain asyncio protocol, the publisher asking for no
  replies (``CLIENT REPLY OFF``), the subscriber handed each message as it is parsed.

The messages heard are published by a child process. Needs Redis on 127.0.0.1:6379
(``make services``).

    .venv/bin/python bench/relay.py --messages 1000
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import time
from collections.abc import Awaitable, Callable

import orjson
import redis.asyncio as redis
import uvloop

from app.cluster.relay import Link, connect

URL = "redis://127.0.0.1:6379/0"
CHANNEL = "kartenrunde:bench"
# An action event as the relay sends it.
EVENT = orjson.dumps(
    [
        {
            "t": "Acted",
            "room": "x" * 22,
            "seat": 0,
            "action": {"type": "play", "card": "R7"},
            "by_computer": False,
            "match_id": 123456,
            "version": 17,
            "at": None,
            "proc": "z" * 12,
        }
    ]
)
END = b"end"


async def paced(step: Callable[[], Awaitable[object] | None], count: int, rate: float) -> float:
    """CPU microseconds of `count` paced rounds of `step` (None: the waiting alone)."""
    started = time.process_time()
    for _ in range(count):
        done = step()
        if done is not None:
            await done
        await asyncio.sleep(1 / rate)
    return (time.process_time() - started) / count * 1e6


async def publish_figures(count: int, rate: float) -> dict[str, float]:
    client = redis.Redis.from_url(URL)
    own = client.connection_pool.make_connection()  # type: ignore[no-untyped-call]
    await own.connect()

    async def redis_py() -> None:
        await own.send_command("PUBLISH", CHANNEL, EVENT)
        await own.read_response()

    link = await connect(URL, Link(lambda _reply: None, lambda _link: None))
    link.send("CLIENT", "REPLY", "OFF")
    waiting = await paced(lambda: None, count, rate)
    figures = {
        "redis-py": await paced(redis_py, count, rate) - waiting,
        "Link": await paced(lambda: link.send("PUBLISH", CHANNEL, EVENT), count, rate) - waiting,
    }
    link.close()
    await own.disconnect()
    await client.aclose()
    return figures


def publisher(count: int, rate: float) -> None:
    """The child: `count` messages at `rate`, then END."""

    async def publish() -> None:
        client = redis.Redis.from_url(URL)
        await asyncio.sleep(0.5)  # the parent subscribes meanwhile
        for _ in range(count):
            await client.publish(CHANNEL, EVENT)
            await asyncio.sleep(1 / rate)
        await client.publish(CHANNEL, END)
        await client.aclose()

    uvloop.run(publish())


async def hear(count: int, rate: float, reader: str) -> float:
    """CPU microseconds per message heard the `reader` way (the process only waits between
    them, so all of it is the message's)."""
    child = multiprocessing.get_context("spawn").Process(target=publisher, args=(count, rate))
    child.start()
    if reader == "redis-py":
        client = redis.Redis.from_url(URL)
        own = client.connection_pool.make_connection()  # type: ignore[no-untyped-call]
        await own.send_command("SUBSCRIBE", CHANNEL)
        await own.read_response(push_request=True)
        started = time.process_time()
        while (await own.read_response(timeout=5, push_request=True))[2] != END:
            pass
        await own.disconnect()
        await client.aclose()
    else:
        ended = asyncio.get_running_loop().create_future()

        def heard(reply: list[bytes]) -> None:
            if reply[0] == b"message" and reply[2] == END:
                ended.set_result(None)

        link = await connect(URL, Link(heard, lambda _link: None))
        link.send("SUBSCRIBE", CHANNEL)
        started = time.process_time()
        await ended
        link.close()
    cpu = time.process_time() - started
    child.join()
    return cpu / count * 1e6


async def main(count: int, rate: float) -> None:
    for round_ in (1, 2):
        publish = await publish_figures(count, rate)
        heard = {way: await hear(count, rate, way) for way in ("redis-py", "Link")}
        sent = "  ".join(f"{name} {us:.1f} us" for name, us in publish.items())
        got = "  ".join(f"{name} {us:.1f} us" for name, us in heard.items())
        print(f"round {round_}: PUBLISH {sent}  |  hear {got}", flush=True)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--messages", type=int, default=1000)
    parser.add_argument("--rate", type=float, default=100.0, help="messages a second")
    arguments = parser.parse_args()
    uvloop.run(main(arguments.messages, arguments.rate))
