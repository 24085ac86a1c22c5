"""The websocket of a room: one per browser tab. The service does the work."""

from __future__ import annotations

import contextlib
import logging
from urllib.parse import urlsplit

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from app.messaging import Audience, TokenBucket
from app.observability import WS_CONNECTIONS
from app.protocol import CLOSE_FORBIDDEN_ORIGIN, CLOSE_UNKNOWN_ROOM, ErrorCode
from app.routes.deps import PlayerDep, RoomsDep, SettingsDep
from app.services.rooms import Refusal, RoomNotFound, error_text
from app.settings import Settings

logger = logging.getLogger(__name__)
router = APIRouter()


class SocketConnection:
    def __init__(self, websocket: WebSocket, token_hash: str | None, bucket: TokenBucket) -> None:
        self.websocket = websocket
        self.token_hash = token_hash
        self.bucket = bucket
        self.seat: Audience = None

    async def send(self, text: str) -> None:
        # A socket that went away is noticed by its receive loop; the others still get theirs.
        with contextlib.suppress(WebSocketDisconnect, RuntimeError, OSError):
            await self.websocket.send_text(text)

    async def close(self, code: int, reason: str) -> None:
        await self.websocket.close(code, reason)


def origin_allowed(websocket: WebSocket, settings: Settings) -> bool:
    """The site's own origin and the configured ones; a client without Origin is no browser."""
    origin = websocket.headers.get("origin")
    if origin is None or origin in settings.allowed_origins:
        return True
    if settings.public_base_url and origin == settings.public_base_url.rstrip("/"):
        return True
    return urlsplit(origin).netloc == websocket.headers.get("host")


async def refuse(
    websocket: WebSocket, room_id: str, code: ErrorCode, message: str, close_code: int
) -> None:
    logger.warning("refused: %s", message, extra={"room_id": room_id, "code": code})
    await websocket.send_text(error_text(code, message))
    await websocket.close(close_code, message)


@router.websocket("/ws/rooms/{room_id}")
async def room_socket(
    websocket: WebSocket, room_id: str, rooms: RoomsDep, settings: SettingsDep, player: PlayerDep
) -> None:
    await websocket.accept()
    if not origin_allowed(websocket, settings):
        await refuse(
            websocket,
            room_id,
            "forbidden_origin",
            "this origin may not open sockets here",
            CLOSE_FORBIDDEN_ORIGIN,
        )
        return
    connection = SocketConnection(websocket, player, TokenBucket(settings.messages_per_second))
    try:
        room = rooms.room(room_id)
        await rooms.connect(room, connection)
    except (RoomNotFound, Refusal):
        await refuse(
            websocket, room_id, "unknown_room", "no open room with this id", CLOSE_UNKNOWN_ROOM
        )
        return
    WS_CONNECTIONS.inc()
    try:
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
            text = message.get("text")
            await rooms.receive(room, connection, text if text is not None else message["bytes"])
    finally:
        WS_CONNECTIONS.dec()
        await rooms.disconnect(room, connection)
