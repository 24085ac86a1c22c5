"""Rooms: creating one, reading it, its moves, chat and hint, taking a seat, seating the
computer, leaving."""

from __future__ import annotations

from fastapi import APIRouter, Request, Response, status

from app.protocol import (
    AddComputer,
    ComputerAdded,
    CreateRoom,
    Joined,
    JoinRoom,
    RoomChat,
    RoomCreated,
    RoomHint,
    RoomInfo,
    RoomMoves,
)
from app.routes.common import (
    BUSY,
    CONFLICT,
    FORBIDDEN,
    NOT_FOUND,
    TOO_MANY,
    UNPROCESSABLE,
    new_player,
    room_url,
    searched,
)
from app.routes.deps import (
    CreationLimitDep,
    DailiesDep,
    IdentityDep,
    MatchesDep,
    PlayerDep,
    RoomDep,
    RoomsDep,
    SettingsDep,
    SignedInDep,
    fail,
)
from app.table.chat import ChatChoices
from app.table.refusals import Refusal

router = APIRouter(prefix="/api", tags=["api"])


@router.post(
    "/rooms",
    status_code=status.HTTP_201_CREATED,
    responses=UNPROCESSABLE | TOO_MANY,
    summary="Open a room for a game (nobody is seated yet)",
)
async def create_room(
    body: CreateRoom,
    request: Request,
    rooms: RoomsDep,
    settings: SettingsDep,
    creation_limit: CreationLimitDep,
) -> RoomCreated:
    address = request.client.host if request.client else "unknown"
    if not creation_limit.take(address):
        limit = settings.rooms_per_address_per_minute
        fail(429, "too_many_rooms", f"at most {limit} new rooms per minute", address=address)
    try:
        room = rooms.create_room(
            body.game,
            body.options,
            body.preset,
            body.computer,
            body.turn_based,
            body.move_days,
            ChatChoices(body.spectator_chat, body.private_chat),
        )
    except Refusal as refusal:
        fail(422, refusal.code, refusal.message, game=body.game)
    return RoomCreated(room_id=room.id, url=room_url(settings, room.id))


@router.get(
    "/rooms/{room_id}",
    responses=NOT_FOUND | UNPROCESSABLE,
    summary="A room: seats, status, tally",
)
async def get_room(room: RoomDep, dailies: DailiesDep) -> RoomInfo:
    daily = await dailies.off_loop(dailies.calendar.of_room, room.id)
    return RoomInfo.model_validate(room.describe() | {"daily": daily})


@router.get(
    "/rooms/{room_id}/moves",
    responses=NOT_FOUND | UNPROCESSABLE | FORBIDDEN,
    summary="The moves of the room's current match so far (public information only)",
)
async def room_moves(
    room: RoomDep, matches: MatchesDep, dailies: DailiesDep, me: PlayerDep
) -> RoomMoves:
    if room.seat_of(me) is None and await dailies.off_loop(dailies.calendar.running_room, room.id):
        fail(403, "daily_running", "a daily's moves are its player's while its day runs")
    match = room.match
    moves = matches.moves(room.game, match.id, match.version, room.move_days)
    return RoomMoves.model_validate(
        {
            "room_id": room.id,
            "match_id": match.id,
            "match_number": match.number,
            "version": match.version,
            "moves": moves,
        }
    )


@router.get(
    "/rooms/{room_id}/chat",
    responses=NOT_FOUND | UNPROCESSABLE,
    summary="The room's latest chat lines (a private chat's: for its players only)",
)
async def room_chat(room: RoomDep, rooms: RoomsDep, me: PlayerDep) -> RoomChat:
    return RoomChat.model_validate(
        {"room_id": room.id, "messages": await rooms.chat.room_lines(room, me)}
    )


@router.get(
    "/rooms/{room_id}/hint",
    responses=NOT_FOUND | FORBIDDEN | UNPROCESSABLE | CONFLICT | BUSY,
    summary="Scoundrel: each legal action's estimated chance of winning, for the seated player",
)
def hint(room: RoomDep, matches: MatchesDep, dailies: DailiesDep, me: PlayerDep) -> RoomHint:
    # A plain def: FastAPI runs it in its thread pool, which waits for the worker process.
    seat = room.seat_of(me)
    if seat is None:
        fail(404, "not_seated", "only the seated player gets a hint", room_id=room.id)
    if dailies.calendar.is_daily_room(room.id):  # its board compares the players alone
        fail(403, "daily_running", "a daily deal is played without hints", room_id=room.id)
    match = room.match
    try:
        found = searched(matches.hint, room.game, room.id, match.id, match.version, seat)
    except Refusal as refusal:
        fail(
            422 if refusal.code == "illegal" else 409,
            refusal.code,
            refusal.message,
            room_id=room.id,
        )
    return RoomHint.model_validate(found)


@router.post(
    "/rooms/{room_id}/join",
    responses=NOT_FOUND | UNPROCESSABLE,
    summary="Take a seat (or get the one this browser holds); null = spectator",
)
async def join_room(
    room: RoomDep,
    body: JoinRoom,
    request: Request,
    response: Response,
    rooms: RoomsDep,
    identity: IdentityDep,
    signed: SignedInDep,
    settings: SettingsDep,
) -> Joined:
    if signed is None:
        signed = await new_player(request, response, identity, settings)
    try:
        seat = await rooms.join(room, body.name, signed.player_id)
    except Refusal:  # closed meanwhile
        fail(404, "unknown_room", "no open room with this id", room_id=room.id)
    # A spectator's name too: the chat names them when the room lets them write.
    await identity.seated_as(signed.player_id, body.name)
    return Joined(seat=seat)


@router.post(
    "/rooms/{room_id}/computer",
    status_code=status.HTTP_201_CREATED,
    responses=NOT_FOUND | UNPROCESSABLE | FORBIDDEN | CONFLICT,
    summary="Seat the computer in a free seat while the room waits (players of the room only)",
)
async def add_computer(
    room: RoomDep, body: AddComputer, rooms: RoomsDep, player: PlayerDep
) -> ComputerAdded:
    try:
        seat = await rooms.add_computer(room, body.level, player)
    except Refusal as refusal:
        status_code = {"not_seated": 403, "no_free_seat": 409}.get(refusal.code, 422)
        if refusal.code == "unknown_room":
            status_code = 404
        fail(status_code, refusal.code, refusal.message, room_id=room.id)
    return ComputerAdded(seat=seat)


@router.post(
    "/rooms/{room_id}/leave",
    status_code=status.HTTP_204_NO_CONTENT,
    responses=NOT_FOUND | UNPROCESSABLE | FORBIDDEN | CONFLICT,
    summary="Give up this browser's seat while the room waits; once nobody sits, it closes",
)
async def leave_room(room: RoomDep, rooms: RoomsDep, player: PlayerDep) -> None:
    try:
        await rooms.leave(room, player)
    except Refusal as refusal:
        status_code = {"not_seated": 403, "unknown_room": 404, "unavailable": 503}
        fail(status_code.get(refusal.code, 409), refusal.code, refusal.message, room_id=room.id)
