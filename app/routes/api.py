"""The JSON API: games, rooms, seats, and the history of finished matches."""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from datetime import date
from typing import Annotated, Any, TypeVar

from fastapi import APIRouter, Path, Query, Request, Response, status
from pydantic import BeforeValidator

from app.computer.searches import SearchesBusy, SearchFailed
from app.history.matches import MatchService
from app.history.wire import UnknownStep
from app.people.identity import COOKIE, COOKIE_MAX_AGE, SignedIn
from app.protocol import (
    MAX_ID,
    PRINTABLE,
    AddComputer,
    ComputerAdded,
    CreateRoom,
    DailyBoard,
    DailyStarted,
    DailyToday,
    DeviceInfo,
    DeviceLink,
    ErrorResponse,
    GameInfo,
    GameSchema,
    Joined,
    JoinRoom,
    MakeDeviceLink,
    MatchAnalysis,
    MatchReplay,
    MatchSummary,
    MatchWire,
    MyDevices,
    MyGame,
    MyRoom,
    PlayerRecord,
    Rename,
    RoomChat,
    RoomCreated,
    RoomHint,
    RoomInfo,
    RoomMoves,
    StartDaily,
)
from app.routes.deps import (
    CreationLimitDep,
    DailiesDep,
    IdentityDep,
    MatchesDep,
    PlayerDep,
    RecordsDep,
    RoomDep,
    RoomsDep,
    SettingsDep,
    SignedInDep,
    WireDep,
    fail,
)
from app.settings import Settings
from app.table import schemas
from app.table.chat import ChatChoices
from app.table.refusals import Refusal
from app.table.seats import levels
from engine import games

logger = logging.getLogger(__name__)
T = TypeVar("T")
router = APIRouter(prefix="/api", tags=["api"])

NOT_FOUND: dict[int | str, dict[str, Any]] = {404: {"model": ErrorResponse}}
TOO_MANY: dict[int | str, dict[str, Any]] = {429: {"model": ErrorResponse}}
FORBIDDEN: dict[int | str, dict[str, Any]] = {403: {"model": ErrorResponse}}
CONFLICT: dict[int | str, dict[str, Any]] = {409: {"model": ErrorResponse}}
BUSY: dict[int | str, dict[str, Any]] = {503: {"model": ErrorResponse}}
# Every route with input says so: FastAPI would document its own 422 shape, not ours.
UNPROCESSABLE: dict[int | str, dict[str, Any]] = {422: {"model": ErrorResponse}}


def written_in_digits(value: object) -> object:
    """A number in a URL is digits, perhaps after a minus: int() would also take "7\\r",
    " 7" or "٧", which the API documents as no integer."""
    if isinstance(value, str) and not re.fullmatch(r"-?[0-9]+", value):
        raise ValueError("not a whole number")
    return value


WholeNumber = Annotated[int, BeforeValidator(written_in_digits)]


def room_url(settings: Settings, room_id: str) -> str:
    base = (settings.public_base_url or "").rstrip("/")
    return f"{base}/r/{room_id}"


@router.get("/games", summary="The games this server offers, with options and presets")
def list_games() -> list[GameInfo]:
    return [
        GameInfo.model_validate(
            {
                "name": game.name,
                "title": game.title,
                "seats": game.seats,
                "options": [option.describe() for option in game.options],
                "presets": [
                    {"name": p.name, "options": p.options, "label": p.label} for p in game.presets
                ],
                "computer": levels(game.name) if game.seats > 1 else [],
                "tables": game.tables,
            }
        )
        for game in games()
    ]


@router.get(
    "/games/{name}/schema",
    responses=NOT_FOUND | UNPROCESSABLE,
    summary="JSON Schema of a game's actions and of one seat's view, for client and bot authors",
)
def game_schema(name: str) -> GameSchema:
    if name not in {game.name for game in games()}:
        fail(404, "unknown_game", f"no game {name!r} here")
    return GameSchema.model_validate(schemas.game_schema(name))


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
    responses=NOT_FOUND | UNPROCESSABLE | CONFLICT | BUSY,
    summary="Scoundrel: each legal action's estimated chance of winning, for the seated player",
)
def hint(room: RoomDep, matches: MatchesDep, me: PlayerDep) -> RoomHint:
    # A plain def: FastAPI runs it in its thread pool, which waits for the worker process.
    seat = room.seat_of(me)
    if seat is None:
        fail(404, "not_seated", "only the seated player gets a hint", room_id=room.id)
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


def searched(search: Callable[..., T], *args: Any) -> T:
    """What a search answers, or 503 when the search workers are busy or one died."""
    try:
        return search(*args)
    except SearchesBusy:
        fail(503, "unavailable", "the server is busy with other searches; try again shortly")
    except SearchFailed:
        fail(503, "unavailable", "the search failed; try again")


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


@router.get("/me/rooms", summary="Open rooms in which this browser holds a seat, newest first")
async def my_rooms(rooms: RoomsDep, player: PlayerDep, settings: SettingsDep) -> list[MyRoom]:
    if player is None:
        return []
    return [
        MyRoom(
            room_id=held.room.id,
            url=room_url(settings, held.room.id),
            game=held.room.game,
            seat=held.seat,
            name=held.name,
            created_at=held.room.created_at,
            last_active_at=held.room.last_active_at,
            status=live.match.status,
            to_move=live.to_move(),
        )
        for held, live in await rooms.rooms_held_by(player)
    ]


@router.get(
    "/me/games",
    summary="Every unfinished match of this player: the ones waiting for them first, then "
    "the newest turn first",
)
async def my_games(rooms: RoomsDep, player: PlayerDep, settings: SettingsDep) -> list[MyGame]:
    if player is None:
        return []
    now = rooms.clock()
    return [
        MyGame(
            room_id=held.room.id,
            url=room_url(settings, held.room.id),
            game=held.room.game,
            match_number=live.match.number,
            status="playing" if live.match.status == "playing" else "waiting",
            seat=held.seat,
            players=[holder and holder.name for holder in live.seats],
            turn_based=live.turn_based,
            move_days=live.move_days,
            to_move=live.to_move(),
            your_turn=live.to_move() == held.seat,
            since=turn and turn.since,
            deadline=turn and turn.deadline,
            seconds_left=turn.deadline and (turn.deadline - now).total_seconds() if turn else None,
        )
        for held, live, turn in await rooms.games_of(player)
    ]


@router.get("/matches", responses=UNPROCESSABLE, summary="Finished matches, newest first")
def list_matches(
    matches: MatchesDep,
    records: RecordsDep,
    me: PlayerDep,
    settings: SettingsDep,
    game: Annotated[str | None, Query(max_length=32, pattern=PRINTABLE)] = None,
    player: Annotated[
        str | None, Query(max_length=24, pattern=PRINTABLE, description="part of a name")
    ] = None,
    mine: Annotated[
        bool, Query(description="only matches of rooms this browser holds a seat in")
    ] = False,
    limit: Annotated[WholeNumber, Query(ge=1, le=200)] = 50,
    offset: Annotated[WholeNumber, Query(ge=0, le=MAX_ID)] = 0,
) -> list[MatchSummary]:
    if mine or not settings.public_history:
        if me is None:
            return []
        found = matches.history(game, player, limit, offset, held_by=me)
    else:
        found = matches.history(game, player, limit, offset)
    holders = records.player_ids({m["room_id"] for m in found})
    return [
        MatchSummary.model_validate({**m, "player_ids": holders.get(m["room_id"], [])})
        for m in found
    ]


@router.get(
    "/players/{player_id}",
    responses=NOT_FOUND | UNPROCESSABLE,
    summary="A player's record and ratings (yours; another's after a match together, or "
    "with PUBLIC_HISTORY)",
)
def player_record(
    player_id: Annotated[str, Path(max_length=64, pattern=PRINTABLE)],
    records: RecordsDep,
    me: PlayerDep,
) -> PlayerRecord:
    # A plain def: FastAPI runs it in its thread pool (a few queries and the ratings' update).
    found = records.record(me, me if player_id == "me" and me else player_id)
    if found is None:
        fail(404, "unknown_player", "no player with this id")
    return PlayerRecord.model_validate(found)


@router.get(
    "/matches/{match_id}",
    responses=NOT_FOUND | UNPROCESSABLE,
    summary="A finished match, step by step with every card revealed",
)
def replay_match(
    match_id: WholeNumber,
    matches: MatchesDep,
    rooms: RoomsDep,
    me: PlayerDep,
    settings: SettingsDep,
) -> MatchReplay:
    replay = visible_match(match_id, matches, me, settings, matches.replay)
    chat = rooms.chat.replay_lines(match_id, me)
    return MatchReplay.model_validate({**replay, "chat": chat})


@router.get(
    "/matches/{match_id}/analysis",
    responses=NOT_FOUND | UNPROCESSABLE | BUSY,
    summary="After a Scoundrel match: the best score the deal allowed and a line reaching it",
)
def analyse_match(
    match_id: WholeNumber, matches: MatchesDep, me: PlayerDep, settings: SettingsDep
) -> MatchAnalysis:
    # A plain def: FastAPI runs it in its thread pool, which waits for the worker process.
    analysis = searched(visible_match, match_id, matches, me, settings, matches.analysis)
    return MatchAnalysis.model_validate(analysis)


@router.get(
    "/matches/{match_id}/wire",
    responses=NOT_FOUND | UNPROCESSABLE,
    summary="The wire inspector: what each seat and a spectator received at one step",
)
def match_wire(
    match_id: WholeNumber,
    matches: MatchesDep,
    wire: WireDep,
    me: PlayerDep,
    settings: SettingsDep,
    ply: Annotated[WholeNumber, Query(ge=0, le=MAX_ID)] = 0,
) -> MatchWire:
    try:
        found = visible_match(match_id, matches, me, settings, lambda m: wire.step(m, ply))
    except UnknownStep as error:
        fail(404, "unknown_step", str(error), match_id=match_id, ply=ply)
    return MatchWire.model_validate(found)


def visible_match(
    match_id: int,
    matches: MatchService,
    me: str | None,
    settings: Settings,
    read: Callable[[int], dict[str, Any] | None],
) -> dict[str, Any]:
    """What `read` answers for a finished match this browser may see; else 404 (a running
    match, or another's with PUBLIC_HISTORY=false, looks the same as none); 403 for a
    daily deal's match while its day runs (app/history/daily.py)."""
    seen = matches.may_see(match_id, me, settings.public_history)
    held = matches.held_back([match_id]).get(match_id) if seen else None
    if held is not None:  # asked before reading: an analysis would search
        fail(
            403,
            "daily_running",
            f"a daily's replay opens once its day is over, at {held.isoformat()}",
            match_id=match_id,
        )
    found = read(match_id) if seen else None
    if found is None:
        fail(404, "unknown_match", "no finished match with this id", match_id=match_id)
    return found


# The daily deal (app/history/daily.py)

DAY = r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$"


@router.get("/daily", summary="Today's daily deals: for each game, to play, running or done")
async def daily_today(dailies: DailiesDep, me: PlayerDep) -> DailyToday:
    return DailyToday.model_validate(await dailies.off_loop(dailies.overview, me))


@router.post(
    "/daily/{game}",
    responses=NOT_FOUND | UNPROCESSABLE | CONFLICT,
    summary="Play today's daily of a game: a new room, or this player's running one; "
    "refused (409 daily_played) once it ended",
)
async def start_daily(
    game: str,
    body: StartDaily,
    request: Request,
    response: Response,
    dailies: DailiesDep,
    identity: IdentityDep,
    signed: SignedInDep,
    settings: SettingsDep,
) -> DailyStarted:
    if signed is None:
        signed = await new_player(request, response, identity, settings)
    try:
        room, new = await dailies.start(game, signed.player_id, body.name)
    except Refusal as refusal:
        status_code = {"daily_played": 409, "unknown_game": 404}.get(refusal.code, 503)
        fail(status_code, refusal.code, refusal.message, game=game)
    await identity.seated_as(signed.player_id, body.name)
    return DailyStarted(room_id=room.id, url=room_url(settings, room.id), new=new)


@router.get(
    "/daily/{day}/{game}",
    responses=NOT_FOUND | UNPROCESSABLE,
    summary="A day's board of a game's daily: names and results, best first, never a line",
)
async def daily_board(
    day: Annotated[str, Path(pattern=DAY)], game: str, dailies: DailiesDep, me: PlayerDep
) -> DailyBoard:
    try:
        board = await dailies.off_loop(dailies.board, date.fromisoformat(day), game, me)
    except ValueError:
        fail(404, "unknown_daily", "no such day", day=day)
    except Refusal as refusal:
        fail(404, refusal.code, refusal.message, day=day, game=game)
    return DailyBoard.model_validate(board)


def set_player_cookie(request: Request, response: Response, settings: Settings, token: str) -> None:
    response.set_cookie(
        COOKIE,
        token,
        max_age=COOKIE_MAX_AGE,
        path="/",
        httponly=True,
        samesite="lax",
        secure=settings.environment == "production" or request.url.scheme == "https",
    )


async def new_player(
    request: Request, response: Response, identity: IdentityDep, settings: Settings
) -> SignedIn:
    """The first visit: a new player with this browser as their device."""
    token, signed = await identity.new_player(request.headers.get("user-agent", ""))
    set_player_cookie(request, response, settings, token)
    return signed


@router.get("/me/devices", summary="The browsers signed in as this player")
async def my_devices(signed: SignedInDep, identity: IdentityDep) -> MyDevices:
    if signed is None:
        return MyDevices(name=None, devices=[])
    return MyDevices(
        name=await identity.name(signed.player_id),
        devices=[
            DeviceInfo(
                id=device.id,
                label=device.label,
                last_seen_at=device.last_seen_at,
                this_device=device.id == signed.device_id,
            )
            for device in await identity.devices(signed.player_id)
        ],
    )


@router.post(
    "/me/links",
    status_code=status.HTTP_201_CREATED,
    responses=UNPROCESSABLE,
    summary="A single-use link (10 minutes) that signs another browser in as this player",
)
async def make_device_link(
    body: MakeDeviceLink,
    request: Request,
    response: Response,
    signed: SignedInDep,
    identity: IdentityDep,
    settings: SettingsDep,
) -> DeviceLink:
    if signed is None:
        signed = await new_player(request, response, identity, settings)
    token, expires = await identity.new_link(signed.player_id, body.next)
    base = settings.public_base_url.rstrip("/") if settings.public_base_url else ""
    return DeviceLink(url=f"{base}/signin/{token}", expires_at=expires)


@router.delete(
    "/me/devices/{device_id}",
    status_code=status.HTTP_204_NO_CONTENT,
    responses=NOT_FOUND | UNPROCESSABLE,
    summary="Sign one of this player's browsers out",
)
async def sign_out_device(device_id: int, signed: SignedInDep, identity: IdentityDep) -> None:
    if signed is None or not await identity.sign_out(signed.player_id, device_id):
        fail(404, "unknown_device", "no device of yours with this id")


@router.post(
    "/me/sign-out-all",
    status_code=status.HTTP_204_NO_CONTENT,
    summary="Sign every browser of this player out; this one gets a new secret",
)
async def sign_out_all(
    request: Request,
    response: Response,
    signed: SignedInDep,
    identity: IdentityDep,
    settings: SettingsDep,
) -> None:
    if signed is None:
        return
    token = await identity.sign_out_all(signed.player_id, signed.device_id)
    set_player_cookie(request, response, settings, token)


@router.put(
    "/me/name",
    status_code=status.HTTP_204_NO_CONTENT,
    responses=UNPROCESSABLE,
    summary="Rename this player, in the rooms still open too (ended matches keep their names)",
)
async def rename(
    body: Rename,
    request: Request,
    response: Response,
    signed: SignedInDep,
    identity: IdentityDep,
    rooms: RoomsDep,
    settings: SettingsDep,
) -> None:
    if signed is None:
        signed = await new_player(request, response, identity, settings)
    room_ids = await identity.rename(signed.player_id, body.name)
    await rooms.renamed(signed.player_id, body.name, room_ids)
