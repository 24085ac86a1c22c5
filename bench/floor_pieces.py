"""What `bench/bare_server.py --store/--relay` adds to the bare server: storing each
action and fanning out over Redis, with the libraries issue 14 prescribes and nothing
else. Imported only with those options, so that the plain bare server's memory stays
the floor it was.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import sqlite3
import threading
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Any

import orjson
import psycopg
import redis.asyncio as redis
from psycopg.types.json import Json

CHANNEL = b"bare:rooms"
# The columns of our actions table (app/storage/models.py), in each database's types; the
# room's id stands for the match's.
TABLE = (
    "CREATE TABLE IF NOT EXISTS actions (match_id TEXT, ply INTEGER, seat INTEGER,"
    " action {json} NOT NULL, created_at {time} NOT NULL, PRIMARY KEY (match_id, ply))"
)

OnMove = Callable[[str, int, int, Any], Awaitable[None]]


def json_text(value: Any) -> str:
    return orjson.dumps(value).decode()


class SqliteStore:
    """On the loop, WAL and synchronous=NORMAL, the log checkpointed from a thread each
    second (as ours: app/storage/db.py), so that no checkpoint stalls a move."""

    def __init__(self, path: str) -> None:
        self.db = sqlite3.connect(path, check_same_thread=False)
        for pragma in ("journal_mode=WAL", "synchronous=NORMAL", "wal_autocheckpoint=0"):
            self.db.execute(f"PRAGMA {pragma}")
        self.db.execute(TABLE.format(json="TEXT", time="TEXT"))
        self.path = path

    async def open(self) -> None:
        threading.Thread(target=self.checkpoint, daemon=True).start()

    def checkpoint(self) -> None:
        with contextlib.closing(sqlite3.connect(self.path)) as own:
            while True:
                time.sleep(1.0)
                own.execute("PRAGMA wal_checkpoint(PASSIVE)")

    async def insert(self, room_id: str, ply: int, seat: int, action: Any) -> None:
        row = (room_id, ply, seat, json_text(action), datetime.now(UTC).isoformat())
        with self.db:
            self.db.execute("INSERT INTO actions VALUES (?, ?, ?, ?, ?)", row)


class PostgresStore:
    """psycopg's async connection in autocommit: one round trip per move."""

    def __init__(self, url: str) -> None:
        self.url = url.replace("postgresql+psycopg://", "postgresql://")
        self.db: psycopg.AsyncConnection[Any] | None = None

    async def open(self) -> None:
        self.db = await psycopg.AsyncConnection.connect(self.url, autocommit=True)
        await self.db.execute(TABLE.format(json="JSON", time="TIMESTAMPTZ"))

    async def insert(self, room_id: str, ply: int, seat: int, action: Any) -> None:
        assert self.db is not None
        row = (room_id, ply, seat, Json(action, dumps=json_text), datetime.now(UTC))
        await self.db.execute("INSERT INTO actions VALUES (%s, %s, %s, %s, %s)", row)


def raise_why_it_stopped(task: asyncio.Task[None]) -> None:
    """A relay task ends only by an error, which stops every room: the loop logs it."""
    if not task.cancelled():
        task.result()


def open_store(url: str) -> SqliteStore | PostgresStore:
    if url.startswith("sqlite:///"):
        return SqliteStore(url.removeprefix("sqlite:///"))
    return PostgresStore(url)


class Relay:
    """One channel for all processes, a connection each to publish (everything that
    queued meanwhile in one message, as app/cluster/relay.py) and to listen; each message starts
    with its process's name, so that a process skips its own without parsing them."""

    def __init__(self, url: str) -> None:
        # No read timeout: the channel is silent while the rooms are seated.
        self.client = redis.Redis.from_url(url, socket_timeout=None)
        self.me = secrets.token_hex(6).encode()
        self.outbox: asyncio.Queue[bytes] = asyncio.Queue()
        self.tasks: list[asyncio.Task[None]] = []

    def start(self, on_move: OnMove) -> None:
        loop = asyncio.get_running_loop()
        self.tasks = [loop.create_task(self.publish()), loop.create_task(self.listen(on_move))]
        for task in self.tasks:
            task.add_done_callback(raise_why_it_stopped)

    async def seat(self, room_id: str) -> int:
        """The next seat of the room, whichever process its players join through."""
        key = f"bare:{room_id}"
        seat = int(await self.client.incr(key)) - 1
        await self.client.expire(key, 3600)  # the machine's Redis outlives the benchmark
        return seat

    def announce(self, room_id: str, seat: int, version: int, action: Any) -> None:
        """The move of `seat` that made `version` (its action with --rules, else None)."""
        self.outbox.put_nowait(orjson.dumps([room_id, seat, version, action]))

    async def publish(self) -> None:
        connection = self.client.connection_pool.make_connection()  # type: ignore[no-untyped-call]
        while True:
            events = [await self.outbox.get()]
            while not self.outbox.empty():
                events.append(self.outbox.get_nowait())
            message = self.me + b"[" + b",".join(events) + b"]"
            await connection.send_command("PUBLISH", CHANNEL, message)
            await connection.read_response()

    async def listen(self, on_move: OnMove) -> None:
        connection = self.client.connection_pool.make_connection()  # type: ignore[no-untyped-call]
        await connection.send_command("SUBSCRIBE", CHANNEL)
        while True:
            message = await connection.read_response(push_request=True)
            if message[0] != b"message" or message[2].startswith(self.me):
                continue
            for room_id, seat, version, action in orjson.loads(message[2][len(self.me) :]):
                await on_move(room_id, seat, version, action)
