"""Dependencies as Annotated aliases, so route signatures read as declarations.

They are coroutines although they do not wait: FastAPI runs a plain function dependency
in a worker thread, a thread hop per dependency on every request and socket."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends
from starlette.requests import HTTPConnection

from app.limits import ConnectionCaps, RoomCreationLimit
from app.services.identity import COOKIE, token_hash
from app.services.matches import MatchService
from app.services.rooms import RoomService
from app.settings import Settings


async def settings(connection: HTTPConnection) -> Settings:
    value: Settings = connection.app.state.settings
    return value


async def room_service(connection: HTTPConnection) -> RoomService:
    value: RoomService = connection.app.state.rooms
    return value


async def match_service(connection: HTTPConnection) -> MatchService:
    value: MatchService = connection.app.state.matches
    return value


async def connection_caps(connection: HTTPConnection) -> ConnectionCaps:
    value: ConnectionCaps = connection.app.state.connection_caps
    return value


async def room_creation_limit(connection: HTTPConnection) -> RoomCreationLimit:
    value: RoomCreationLimit = connection.app.state.room_creation_limit
    return value


async def player(connection: HTTPConnection) -> str | None:
    """The HMAC of this browser's player token, or None without a cookie."""
    token = connection.cookies.get(COOKIE)
    if not token:
        return None
    return token_hash(connection.app.state.settings.secret_key, token)


SettingsDep = Annotated[Settings, Depends(settings)]
RoomsDep = Annotated[RoomService, Depends(room_service)]
MatchesDep = Annotated[MatchService, Depends(match_service)]
PlayerDep = Annotated[str | None, Depends(player)]
CapsDep = Annotated[ConnectionCaps, Depends(connection_caps)]
CreationLimitDep = Annotated[RoomCreationLimit, Depends(room_creation_limit)]
