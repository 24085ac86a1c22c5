"""The floor for bench/load.py: a bare FastAPI/uvicorn websocket server, no rules, no storage.

It speaks just enough of the protocol for the load clients (create a room, join it with a
cookie, a socket per seat) and answers each action with a fixed per-seat JSON `state` of
the size of a real Expeditionen view (taken once from the engine at start), the turn
passing to the other seat. It checks nothing. uvicorn runs with the same flags as
`python -m app`.

Two options add the pieces that issue 14 prescribes, and nothing else, so that the
benchmarks can tell how much of our cost those pieces alone take:

- ``--store URL`` stores each action before anyone hears of it: one INSERT of the row our
  server stores (match, ply, seat, the action as JSON, the time), committed; SQLite through
  the stdlib driver on the loop (WAL, synchronous=NORMAL, as ours), PostgreSQL through
  psycopg's async connection in autocommit (one round trip per move).
- ``--relay URL`` makes several such processes one server, as ours over Redis: a seat
  comes from a Redis counter per room, the process that got an action publishes it on one
  channel (redis.asyncio, a connection of its own, batched like app/relay.py) and every
  process sends the new views to its own sockets of that room when it hears it.

    .venv/bin/python bench/bare_server.py --port 8001
    .venv/bin/python bench/bare_server.py --port 8001 --store sqlite:////tmp/floor.db
"""

from __future__ import annotations

import argparse
import asyncio
import secrets
import sqlite3
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from typing import Any

import orjson
import psycopg
import redis.asyncio as redis
import uvicorn
from fastapi import FastAPI, Request, Response, WebSocket, WebSocketDisconnect
from psycopg.types.json import Json

from engine import get_game

GAME = get_game("expeditionen")
STATE = GAME.new(seed=1, options={})
VIEWS = [GAME.view(STATE, seat) for seat in range(2)]
LEGAL = GAME.legal_actions(STATE, GAME.to_move(STATE))
PLAYERS = [{"seat": s, "name": n, "connected": True} for s, n in enumerate(("Ada", "Bo"))]
CHANNEL = b"bare:rooms"
# The columns of our actions table (app/storage/models.py), in each database's types.
TABLE = (
    "CREATE TABLE IF NOT EXISTS actions (match_id TEXT, ply INTEGER, seat INTEGER,"
    " action {json} NOT NULL, created_at {time} NOT NULL, PRIMARY KEY (match_id, ply))"
)


@asynccontextmanager
async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
    if relay is not None:
        relay.start()
    yield


app = FastAPI(lifespan=lifespan)
rooms: dict[str, dict[str, Any]] = {}


def new_room() -> dict[str, Any]:
    return {"version": 0, "to_move": 0, "seats": 0, "sockets": [None, None]}


def json_text(value: Any) -> str:
    return orjson.dumps(value).decode()


class SqliteStore:
    def __init__(self, path: str) -> None:
        self.db = sqlite3.connect(path, check_same_thread=False)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.execute(TABLE.format(json="TEXT", time="TEXT"))

    async def insert(self, room_id: str, ply: int, seat: int, action: Any) -> None:
        row = (room_id, ply, seat, json_text(action), datetime.now(UTC).isoformat())
        with self.db:
            self.db.execute("INSERT INTO actions VALUES (?, ?, ?, ?, ?)", row)


class PostgresStore:
    def __init__(self, url: str) -> None:
        self.url = url
        self.db: psycopg.AsyncConnection[Any] | None = None

    async def insert(self, room_id: str, ply: int, seat: int, action: Any) -> None:
        if self.db is None:
            self.db = await psycopg.AsyncConnection.connect(self.url, autocommit=True)
            await self.db.execute(TABLE.format(json="JSON", time="TIMESTAMPTZ"))
        row = (room_id, ply, seat, Json(action, dumps=json_text), datetime.now(UTC))
        await self.db.execute("INSERT INTO actions VALUES (%s, %s, %s, %s, %s)", row)


class Relay:
    """One channel for all processes; each event is prefixed with its process's name, so
    that a process skips its own without parsing them."""

    def __init__(self, url: str) -> None:
        self.client = redis.Redis.from_url(url)
        self.me = secrets.token_hex(6).encode()
        self.outbox: asyncio.Queue[bytes] = asyncio.Queue()
        self.tasks: list[asyncio.Task[None]] = []

    def start(self) -> None:
        loop = asyncio.get_running_loop()
        self.tasks = [loop.create_task(self.publish()), loop.create_task(self.listen())]

    def announce(self, room_id: str, seat: int, version: int) -> None:
        self.outbox.put_nowait(orjson.dumps([room_id, seat, version]))

    async def publish(self) -> None:
        connection = self.client.connection_pool.make_connection()
        while True:
            events = [await self.outbox.get()]
            while not self.outbox.empty():
                events.append(self.outbox.get_nowait())
            message = self.me + b"[" + b",".join(events) + b"]"
            await connection.send_command("PUBLISH", CHANNEL, message)
            await connection.read_response()

    async def listen(self) -> None:
        connection = self.client.connection_pool.make_connection()
        await connection.send_command("SUBSCRIBE", CHANNEL)
        while True:
            message = await connection.read_response(push_request=True)
            if message[0] != b"message" or message[2].startswith(self.me):
                continue
            for room_id, seat, version in orjson.loads(message[2][len(self.me) :]):
                room = rooms.get(room_id)
                if room is not None:
                    await moved(room_id, room, seat, version)


store: SqliteStore | PostgresStore | None = None
relay: Relay | None = None


@app.get("/healthz")
async def healthz() -> dict[str, str]:
    return {"status": "ok"}


@app.post("/api/rooms", status_code=201)
async def create_room() -> dict[str, str]:
    room_id = secrets.token_urlsafe(18)
    rooms[room_id] = new_room()
    return {"room_id": room_id, "url": f"/rooms/{room_id}"}


@app.post("/api/rooms/{room_id}/join")
async def join(room_id: str, request: Request, response: Response) -> dict[str, int]:
    room = rooms.setdefault(room_id, new_room())
    if relay is None:
        seat = room["seats"]
        room["seats"] += 1
    else:  # the other seat may have joined through another process
        seat = await relay.client.incr(f"bare:{room_id}") - 1
    response.set_cookie("kr_player", f"{seat}-{secrets.token_urlsafe(16)}")
    return {"seat": seat}


def state_text(room_id: str, room: dict[str, Any], seat: int, mover: int | None) -> str:
    to_move = room["to_move"]
    return orjson.dumps(
        {
            "type": "state",
            "seat": seat,
            "room_id": room_id,
            "match_id": 1,
            "match_number": 1,
            "version": room["version"],
            "to_move": to_move,
            "last_action": None if mover is None else {"seat": mover, "action": LEGAL[0]},
            "result": None,
            "players": PLAYERS,
            "tally": {"wins": [0, 0], "draws": 0, "matches": 0},
            "rematch": None,
            "view": VIEWS[seat],
            "legal_actions": LEGAL if seat == to_move else [],
        }
    ).decode()


async def moved(room_id: str, room: dict[str, Any], seat: int, version: int) -> None:
    """The action of `seat` made `version`: every local socket of the room its new view."""
    room["version"] = version
    room["to_move"] = 1 - seat
    for other, peer in enumerate(room["sockets"]):
        if peer is not None:
            await peer.send_text(state_text(room_id, room, other, seat))


@app.websocket("/ws/rooms/{room_id}")
async def socket(websocket: WebSocket, room_id: str) -> None:
    await websocket.accept()
    room = rooms.setdefault(room_id, new_room())
    seat = int(websocket.cookies["kr_player"].split("-", 1)[0])
    room["sockets"][seat] = websocket
    await websocket.send_text(state_text(room_id, room, seat, None))
    try:
        while True:
            message = orjson.loads(await websocket.receive_text())
            if message.get("type") != "action" or room["to_move"] != seat:
                continue
            version = room["version"] + 1
            if store is not None:
                await store.insert(room_id, version, seat, message["action"])
            if relay is not None:
                relay.announce(room_id, seat, version)
            await moved(room_id, room, seat, version)
    except WebSocketDisconnect:
        room["sockets"][seat] = None


def main() -> None:
    global store, relay
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8001)
    parser.add_argument("--store", help="sqlite:///PATH or postgresql://...: store each action")
    parser.add_argument("--relay", help="redis://...: one server of several, over Redis")
    args = parser.parse_args()
    if args.store:
        if args.store.startswith("sqlite:///"):
            store = SqliteStore(args.store.removeprefix("sqlite:///"))
        else:
            store = PostgresStore(args.store.replace("postgresql+psycopg://", "postgresql://"))
    if args.relay:
        relay = Relay(args.relay)
    uvicorn.run(
        app,
        host=args.host,
        port=args.port,
        log_level="warning",
        proxy_headers=True,
        ws_per_message_deflate=False,
        ws="websockets-sansio",
        ws_max_size=64 * 1024,
        timeout_graceful_shutdown=3,
    )


if __name__ == "__main__":
    main()
