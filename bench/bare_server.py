"""The floor for bench/load.py: a bare FastAPI/uvicorn websocket server, no rules, no storage.

It speaks just enough of the protocol for the load clients (create a room, join it with a
cookie, a socket per seat) and answers each action with a fixed per-seat JSON `state` of
the size of a real Expeditionen view (taken once from the engine at start), the turn
passing to the other seat. It stores nothing and checks nothing. uvicorn runs with the
same flags as `python -m app`.

    .venv/bin/python bench/bare_server.py --port 8001
"""

from __future__ import annotations

import argparse
import secrets
from typing import Any

import orjson
import uvicorn
from fastapi import FastAPI, Request, Response, WebSocket, WebSocketDisconnect

from engine import get_game

GAME = get_game("expeditionen")
STATE = GAME.new(seed=1, options={})
VIEWS = [GAME.view(STATE, seat) for seat in range(2)]
LEGAL = GAME.legal_actions(STATE, GAME.to_move(STATE))
PLAYERS = [{"seat": s, "name": n, "connected": True} for s, n in enumerate(("Ada", "Bo"))]

app = FastAPI()
rooms: dict[str, dict[str, Any]] = {}


@app.get("/healthz")
async def healthz() -> dict[str, str]:
    return {"status": "ok"}


@app.post("/api/rooms", status_code=201)
async def create_room() -> dict[str, str]:
    room_id = secrets.token_urlsafe(18)
    rooms[room_id] = {"version": 0, "to_move": 0, "tokens": {}, "sockets": [None, None]}
    return {"room_id": room_id, "url": f"/rooms/{room_id}"}


@app.post("/api/rooms/{room_id}/join")
async def join(room_id: str, request: Request, response: Response) -> dict[str, int]:
    room = rooms[room_id]
    token = secrets.token_urlsafe(16)
    seat = len(room["tokens"])
    room["tokens"][token] = seat
    response.set_cookie("kr_player", token)
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


@app.websocket("/ws/rooms/{room_id}")
async def socket(websocket: WebSocket, room_id: str) -> None:
    await websocket.accept()
    room = rooms[room_id]
    seat = room["tokens"][websocket.cookies["kr_player"]]
    room["sockets"][seat] = websocket
    await websocket.send_text(state_text(room_id, room, seat, None))
    try:
        while True:
            message = orjson.loads(await websocket.receive_text())
            if message.get("type") != "action" or room["to_move"] != seat:
                continue
            room["version"] += 1
            room["to_move"] = 1 - seat
            for other, peer in enumerate(room["sockets"]):
                if peer is not None:
                    await peer.send_text(state_text(room_id, room, other, seat))
    except WebSocketDisconnect:
        room["sockets"][seat] = None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8001)
    args = parser.parse_args()
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
