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
  channel (redis.asyncio, a connection of its own, batched like app/cluster/relay.py) and every
  process sends the new views to its own sockets of that room when it hears it.

A third adds what the rules cost by themselves, so that the benchmarks can tell which part
of our CPU no server of these rules can shed:

- ``--rules``: each action goes through the engine's ``Game.apply`` (one it refuses is
  ignored), and each move's texts carry the views of the seats whose sockets the process
  holds (``Game.views``) and, where the mover's socket is, its legal actions, as ours
  do; nothing else of ours. With ``--relay`` the action goes over Redis too, and each
  process with a socket of the room applies it to its own copy of the room's match (the
  same deal everywhere, seeded by the room), as ours replays it.

    .venv/bin/python -m bench.bare_server --port 8001
    .venv/bin/python -m bench.bare_server --port 8001 --store sqlite:////tmp/floor.db
    .venv/bin/python -m bench.bare_server --port 8001 --store sqlite:////tmp/floor.db --rules
"""

from __future__ import annotations

import argparse
import secrets
import zlib
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any

import orjson
import uvicorn
from fastapi import FastAPI, Request, Response, WebSocket, WebSocketDisconnect

from engine import IllegalAction, get_game

if TYPE_CHECKING:
    from bench.floor_pieces import PostgresStore, Relay, SqliteStore

GAME = get_game("expeditionen")
STATE = GAME.new(seed=1, options={})
VIEWS = [GAME.view(STATE, seat) for seat in range(2)]
FIRST = GAME.to_move(STATE)
assert FIRST is not None, "a new match has a seat to move"
LEGAL = GAME.legal_actions(STATE, FIRST)
PLAYERS = [{"seat": s, "name": n, "connected": True} for s, n in enumerate(("Ada", "Bo"))]


@asynccontextmanager
async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
    if store is not None:
        await store.open()
    if relay is not None:
        relay.start(on_move)
    yield


app = FastAPI(lifespan=lifespan)
rooms: dict[str, dict[str, Any]] = {}


def room_of(room_id: str) -> dict[str, Any]:
    if room_id not in rooms:
        rooms[room_id] = {"version": 0, "to_move": 0, "seats": 0, "sockets": [None, None]}
        if rules:
            deal(room_id, rooms[room_id], 1)
    return rooms[room_id]


def deal(room_id: str, room: dict[str, Any], number: int) -> None:
    """--rules: the room's match `number` (the same in every process), and its first views."""
    room["match"] = number
    room["state"] = GAME.new(seed=zlib.crc32(f"{room_id} {number}".encode()), options={})
    room["to_move"] = GAME.to_move(room["state"])
    see(room)


def see(room: dict[str, Any]) -> None:
    """--rules: the views of the seats with a socket here, and the mover's legal actions
    if the mover's socket is here (as ours: a process builds only its own sockets' texts)."""
    state, to_move = room["state"], room["to_move"]
    here = [seat for seat, peer in enumerate(room["sockets"]) if peer is not None]
    room["views"] = GAME.views(state, here)
    room["legal"] = GAME.legal_actions(state, to_move) if to_move in here else []


def ruled(room_id: str, room: dict[str, Any], seat: int, action: Any) -> bool:
    """--rules: the engine applies the action (False: it refused it)."""
    try:
        state = GAME.apply(room["state"], seat, action)
    except IllegalAction:
        return False
    room["state"] = state
    if GAME.is_over(state):
        deal(room_id, room, room["match"] + 1)
    else:
        room["to_move"] = GAME.to_move(state)
        see(room)
    return True


rules = False  # --rules
store: SqliteStore | PostgresStore | None = None  # --store
relay: Relay | None = None  # --relay


@app.get("/healthz")
async def healthz() -> dict[str, str]:
    return {"status": "ok"}


@app.post("/api/rooms", status_code=201)
async def create_room() -> dict[str, str]:
    room_id = secrets.token_urlsafe(18)
    room_of(room_id)
    return {"room_id": room_id, "url": f"/rooms/{room_id}"}


@app.post("/api/rooms/{room_id}/join")
async def join(room_id: str, request: Request, response: Response) -> dict[str, int]:
    room = room_of(room_id)
    if relay is None:
        seat = room["seats"]
        room["seats"] += 1
    else:
        seat = await relay.seat(room_id)
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
            "view": room["views"][seat] if rules else VIEWS[seat],
            "legal_actions": (room["legal"] if rules else LEGAL) if seat == to_move else [],
        }
    ).decode()


async def moved(room_id: str, room: dict[str, Any], seat: int, version: int) -> None:
    """The action of `seat` made `version`: every local socket of the room its new view."""
    room["version"] = version
    if not rules:
        room["to_move"] = 1 - seat
    for other, peer in enumerate(room["sockets"]):
        if peer is not None:
            await peer.send_text(state_text(room_id, room, other, seat))


async def on_move(room_id: str, seat: int, version: int, action: Any) -> None:
    """Another process's move: our sockets of that room, if any, their new views (with
    --rules, once this process's copy of the match has taken the action too; a process
    with no socket of the room does nothing for it, as ours)."""
    room = rooms.get(room_id)
    if room is None or (rules and not any(room["sockets"])):
        return
    if not rules or ruled(room_id, room, seat, action):
        await moved(room_id, room, seat, version)


@app.websocket("/ws/rooms/{room_id}")
async def socket(websocket: WebSocket, room_id: str) -> None:
    await websocket.accept()
    room = room_of(room_id)
    seat = int(websocket.cookies["kr_player"].split("-", 1)[0])
    room["sockets"][seat] = websocket
    if rules:
        see(room)
    await websocket.send_text(state_text(room_id, room, seat, None))
    try:
        while True:
            message = orjson.loads(await websocket.receive_text())
            if message.get("type") != "action" or room["to_move"] != seat:
                continue
            if rules and not ruled(room_id, room, seat, message["action"]):
                continue
            version = room["version"] + 1
            if store is not None:
                await store.insert(room_id, version, seat, message["action"])
            if relay is not None:
                relay.announce(room_id, seat, version, message["action"] if rules else None)
            await moved(room_id, room, seat, version)
    except WebSocketDisconnect:
        room["sockets"][seat] = None


def main() -> None:
    global rules, store, relay
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8001)
    parser.add_argument("--store", help="sqlite:///PATH or postgresql://...: store each action")
    parser.add_argument("--relay", help="redis://...: one server of several, over Redis")
    parser.add_argument("--rules", action="store_true", help="the engine applies each action")
    args = parser.parse_args()
    rules = args.rules
    if args.store:
        from bench.floor_pieces import open_store

        store = open_store(args.store)
    if args.relay:
        from bench.floor_pieces import Relay

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
