"""The websocket of a room: one per browser tab. The service does the work."""

from __future__ import annotations

import asyncio
import logging

from fastapi import WebSocket, WebSocketDisconnect
from fastapi.responses import JSONResponse
from sqlalchemy.exc import InterfaceError, OperationalError

from app.connections import SocketConnection, force_close, paced_protocol
from app.edge import origin_allowed
from app.limits import Admission, TokenBucket
from app.observability import WS_CONNECTIONS
from app.people.identity import SignedIn
from app.protocol import (
    CLOSE_FORBIDDEN_ORIGIN,
    CLOSE_INVALID_TEXT,
    CLOSE_RATE_LIMITED,
    CLOSE_SIGNED_OUT,
    CLOSE_TRY_AGAIN,
    CLOSE_UNKNOWN_ROOM,
    ErrorCode,
)
from app.routes import deps
from app.settings import Settings
from app.table.devices import SIGNED_OUT
from app.table.live import LiveRoom
from app.table.refusals import Refusal, RoomNotFound, parse_message
from app.table.rooms import RoomService
from app.table.texts import error_text

logger = logging.getLogger(__name__)
PATH = "/ws/rooms/{room_id}"
# Refusals that a well-behaved client never causes are logged louder.
SUSPICIOUS = {"malformed", "too_large", "rate_limited", "not_seated", "forbidden_origin"}


def client_address(websocket: WebSocket) -> str:
    return websocket.client.host if websocket.client else "unknown"


async def refuse(
    websocket: WebSocket,
    room_id: str,
    code: ErrorCode,
    message: str,
    close_code: int,
) -> None:
    """Answer and close a socket that was never admitted (nothing else is queued for it).

    The server reads nothing more from it: whatever the client sent after its handshake
    is not parsed."""
    logger.warning(
        "refused: %s",
        message,
        extra={"room_id": room_id, "code": code, "address": client_address(websocket)},
    )
    try:
        async with asyncio.timeout(5):
            await websocket.send_text(error_text(code, message))
            if not force_close(websocket, close_code, message):
                await websocket.close(close_code, message)
    except (TimeoutError, OSError, RuntimeError, WebSocketDisconnect):
        pass


async def deny(websocket: WebSocket, room_id: str, refused: Admission) -> None:
    """Refuse the handshake itself (HTTP 429): an address over its caps, or one that
    flooded, costs no websocket, and nothing it sends after its request is read."""
    if refused.log:
        logger.warning(
            "refused: %s",
            refused.message,
            extra={"room_id": room_id, "code": refused.code, "address": client_address(websocket)},
        )
    body = {"detail": {"code": refused.code, "message": refused.message}}
    await websocket.send_denial_response(JSONResponse(body, status_code=429))


async def room_socket(websocket: WebSocket) -> None:
    """PATH, a plain Starlette route (app/main.py): FastAPI's dependency solving and its
    included router's layers kept some 2 KB per open socket alive for as long as it lived."""
    room_id: str = websocket.path_params["room_id"]
    rooms = await deps.room_service(websocket)
    settings = await deps.settings(websocket)
    caps = await deps.connection_caps(websocket)
    devices = await deps.device_sockets(websocket)
    heard = devices.heard  # the sign-outs heard before the cookie is read
    signed = await deps.signed_in(websocket)
    if not origin_allowed(websocket, settings):
        await websocket.accept()
        await refuse(
            websocket,
            room_id,
            "forbidden_origin",
            "this origin may not open sockets here",
            CLOSE_FORBIDDEN_ORIGIN,
        )
        return
    address = client_address(websocket)
    refused = caps.admit(address, room_id)
    if refused is not None:
        await deny(websocket, room_id, refused)
        return
    try:
        await websocket.accept()
        close_code = await serve(websocket, room_id, rooms, settings, signed, heard, address)
    finally:
        caps.release(address, room_id)
    if close_code == CLOSE_RATE_LIMITED:
        caps.penalize(address)
    elif close_code == CLOSE_INVALID_TEXT:
        caps.sent_bad_text(address)


async def serve(
    websocket: WebSocket,
    room_id: str,
    rooms: RoomService,
    settings: Settings,
    signed: SignedIn | None,
    heard: int,
    address: str,
) -> int | None:
    """Serve one admitted socket until it closes; the code if the server closed it.

    It counts among its device's sockets from the start, so that a sign-out closes it; one
    heard since its cookie was read (``heard``) is looked up in the database first."""
    connection = SocketConnection(
        websocket,
        None if signed is None else signed.player_id,
        TokenBucket(settings.messages_per_second),
        device_id=None if signed is None else signed.device_id,
        address=address,
        queue_limit=settings.send_queue_messages,
        send_timeout=settings.send_timeout_seconds,
    )
    devices = await deps.device_sockets(websocket)
    devices.add(connection)
    try:
        return await serve_room(websocket, room_id, rooms, connection, heard)
    finally:
        devices.discard(connection)


async def signed_out_meanwhile(websocket: WebSocket, device_id: int | None, heard: int) -> bool:
    """Whether the socket's device was signed out since its cookie was read (the database
    is asked only when this process heard of a sign-out meanwhile)."""
    if device_id is None or (await deps.device_sockets(websocket)).heard == heard:
        return False
    identity = await deps.identity(websocket)
    return not await identity.still_signed_in(device_id)


async def serve_room(
    websocket: WebSocket,
    room_id: str,
    rooms: RoomService,
    connection: SocketConnection,
    heard: int,
) -> int | None:
    """Serve the socket in its room until it closes; the code if the server closed it."""
    player = connection.player_id
    try:
        if await signed_out_meanwhile(websocket, connection.device_id, heard):
            connection.close(CLOSE_SIGNED_OUT, SIGNED_OUT)
            await connection.stop()
            return connection.close_code
        room = await rooms.open_room(room_id)
        if room.seat_of(player) is None and await watching_a_daily(websocket, room_id):
            await refuse(
                websocket,
                room_id,
                "daily_running",
                "nobody watches a daily deal while its day runs",
                CLOSE_UNKNOWN_ROOM,
            )
            return None
        await rooms.connect(room, connection)
    except (RoomNotFound, Refusal):
        await refuse(
            websocket, room_id, "unknown_room", "no open room with this id", CLOSE_UNKNOWN_ROOM
        )
        return None
    except (OperationalError, InterfaceError):
        await refuse(
            websocket,
            room_id,
            "unavailable",
            "the database is unreachable; try again",
            CLOSE_TRY_AGAIN,
        )
        return None
    WS_CONNECTIONS.inc()
    try:
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                if sent_invalid_text(websocket):
                    refusal = Refusal("malformed", "a text frame that is not UTF-8; closed")
                    log_refusal(room, connection, refusal)
                    return CLOSE_INVALID_TEXT
                break
            if connection.closing:
                break  # closed by the server: read no more (the writer closes the socket)
            text = message.get("text")
            await receive(rooms, room, connection, text if text is not None else message["bytes"])
            # Yield between messages: a connection with a full inbox cannot starve the others
            # (with an empty one, the next receive waits anyway).
            if connection.has_unread():
                await asyncio.sleep(0)
    finally:
        WS_CONNECTIONS.dec()
        await rooms.disconnect(room, connection)
        log_unreported(room, connection)
        await connection.stop()
    return connection.close_code


async def watching_a_daily(websocket: WebSocket, room_id: str) -> bool:
    """A daily deal's room while its day runs: its player's alone, nobody watches the line
    being played (app/history/daily.py)."""
    dailies = await deps.dailies(websocket)
    return bool(await dailies.off_loop(dailies.calendar.running_room, room_id))


async def receive(
    rooms: RoomService, room: LiveRoom, connection: SocketConnection, data: str | bytes
) -> None:
    """One message: counted against the rate (junk too) before any work, then parsed and
    handed to the room; a refusal answers this connection only. A connection over its
    rate gets one `rate_limited` error and is closed."""
    if not connection.bucket.take():
        refusal = Refusal("rate_limited", "too many messages; closing this connection")
        log_refusal(room, connection, refusal)
        connection.send(error_text(refusal.code, refusal.message))
        connection.close(CLOSE_RATE_LIMITED, "too many messages")
        return
    try:
        await rooms.handle(room, connection, parse_message(data, rooms.settings.max_message_bytes))
    except Refusal as refusal:
        log_refusal(room, connection, refusal)
        connection.send(error_text(refusal.code, refusal.message))


def sent_invalid_text(websocket: WebSocket) -> bool:
    """The transport closed the socket for a text frame that is not UTF-8 (app/transport.py)."""
    protocol = paced_protocol(websocket)
    return protocol is not None and protocol.invalid_text


def log_refusal(room: LiveRoom, connection: SocketConnection, refusal: Refusal) -> None:
    """One line per connection per interval, with the number of refusals it stands for."""
    count = connection.refusals.note()
    if count is None:
        return
    level = logging.WARNING if refusal.code in SUSPICIOUS else logging.INFO
    logger.log(
        level,
        "refused: %s",
        refusal.message,
        extra={
            "room_id": room.id,
            "match_id": room.match.id,
            "seat": connection.seat,
            "code": refusal.code,
            "count": count,
        },
    )


def log_unreported(room: LiveRoom, connection: SocketConnection) -> None:
    unlogged = connection.refusals.flush()
    if unlogged:
        logger.warning(
            "refused %d more messages before the connection ended",
            unlogged,
            extra={"room_id": room.id, "seat": connection.seat, "count": unlogged},
        )
