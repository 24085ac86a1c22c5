"""Dependencies as Annotated aliases, so route signatures read as declarations.

They are coroutines although they do not wait: FastAPI runs a plain function dependency
in a worker thread, a thread hop per dependency on every request and socket."""

from __future__ import annotations

import logging
from typing import Annotated, NoReturn

from fastapi import Depends, HTTPException
from starlette.requests import HTTPConnection, Request

from app.edge import origin_allowed
from app.history.daily import Dailies
from app.history.matches import MatchService
from app.history.wire import WireInspector
from app.limits import ConnectionCaps, RoomCreationLimit
from app.people.identity import COOKIE, Identity, SignedIn
from app.people.records import Records
from app.protocol import ErrorCode
from app.settings import Settings
from app.table.devices import DeviceSockets
from app.table.live import LiveRoom
from app.table.refusals import RoomNotFound
from app.table.rooms import RoomService

logger = logging.getLogger(__name__)


def fail(status_code: int, code: ErrorCode, message: str, **context: object) -> NoReturn:
    logger.info("refused: %s", message, extra={"code": code, **context})
    raise HTTPException(status_code, detail={"code": code, "message": message})


STATE_CHANGING = frozenset({"POST", "PUT", "PATCH", "DELETE"})


async def same_site(request: Request) -> None:
    """A request that changes something comes from this site's pages (or an allowed
    origin's), or from no browser at all (no Origin: curl, a bot, as for the websocket):
    another site's page cannot make a visitor's browser leave a seat or sign out. Applied
    to every route at once (app/main.py)."""
    if request.method not in STATE_CHANGING:
        return
    settings: Settings = request.app.state.settings
    unnamed_cross_site = (
        "origin" not in request.headers and request.headers.get("sec-fetch-site") == "cross-site"
    )
    if unnamed_cross_site or not origin_allowed(request, settings):
        fail(403, "forbidden_origin", "another site's page may not change anything here")


async def settings(connection: HTTPConnection) -> Settings:
    value: Settings = connection.app.state.settings
    return value


async def room_service(connection: HTTPConnection) -> RoomService:
    value: RoomService = connection.app.state.rooms
    return value


RoomsDep = Annotated[RoomService, Depends(room_service)]


async def match_service(connection: HTTPConnection) -> MatchService:
    value: MatchService = connection.app.state.matches
    return value


async def records(connection: HTTPConnection) -> Records:
    value: Records = connection.app.state.records
    return value


async def dailies(connection: HTTPConnection) -> Dailies:
    value: Dailies = connection.app.state.dailies
    return value


async def connection_caps(connection: HTTPConnection) -> ConnectionCaps:
    value: ConnectionCaps = connection.app.state.connection_caps
    return value


async def room_creation_limit(connection: HTTPConnection) -> RoomCreationLimit:
    value: RoomCreationLimit = connection.app.state.room_creation_limit
    return value


async def open_room(room_id: str, rooms: RoomsDep) -> LiveRoom:
    """The room of the path's ``room_id``, loaded here if need be; 404 when there is none."""
    try:
        return await rooms.open_room(room_id)
    except RoomNotFound:
        fail(404, "unknown_room", "no open room with this id", room_id=room_id)


async def device_sockets(connection: HTTPConnection) -> DeviceSockets:
    value: DeviceSockets = connection.app.state.devices
    return value


async def wire_inspector(connection: HTTPConnection) -> WireInspector:
    value: WireInspector = connection.app.state.wire
    return value


async def identity(connection: HTTPConnection) -> Identity:
    value: Identity = connection.app.state.identity
    return value


async def signed_in(connection: HTTPConnection) -> SignedIn | None:
    """This browser's device and player, or None without a cookie."""
    found: SignedIn | None = await connection.app.state.identity.signed_in(
        connection.cookies.get(COOKIE), connection.headers.get("user-agent", "")
    )
    return found


async def player(signed: Annotated[SignedIn | None, Depends(signed_in)]) -> str | None:
    """The id of this browser's player (the key of their seats), or None without a cookie."""
    return None if signed is None else signed.player_id


SettingsDep = Annotated[Settings, Depends(settings)]
MatchesDep = Annotated[MatchService, Depends(match_service)]
WireDep = Annotated[WireInspector, Depends(wire_inspector)]
RecordsDep = Annotated[Records, Depends(records)]
DailiesDep = Annotated[Dailies, Depends(dailies)]
RoomDep = Annotated[LiveRoom, Depends(open_room)]
PlayerDep = Annotated[str | None, Depends(player)]
SignedInDep = Annotated[SignedIn | None, Depends(signed_in)]
IdentityDep = Annotated[Identity, Depends(identity)]
CapsDep = Annotated[ConnectionCaps, Depends(connection_caps)]
CreationLimitDep = Annotated[RoomCreationLimit, Depends(room_creation_limit)]
