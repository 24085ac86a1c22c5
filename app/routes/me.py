"""This browser's player: their rooms and games, their devices and sign-in links, signing
out, their name."""

from __future__ import annotations

from fastapi import APIRouter, Request, Response, status

from app.protocol import (
    DeviceInfo,
    DeviceLink,
    MakeDeviceLink,
    MyDevices,
    MyGame,
    MyRoom,
    Rename,
)
from app.routes.common import NOT_FOUND, UNPROCESSABLE, new_player, room_url, set_player_cookie
from app.routes.deps import (
    IdentityDep,
    PlayerDep,
    RoomsDep,
    SettingsDep,
    SignedInDep,
    fail,
)

router = APIRouter(prefix="/api", tags=["api"])


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
            seconds_since=turn and (now - turn.since).total_seconds(),
        )
        for held, live, turn in await rooms.games_of(player)
    ]


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
                name=device.name,
                signed_in_at=device.signed_in_at,
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


@router.put(
    "/me/devices/{device_id}/name",
    status_code=status.HTTP_204_NO_CONTENT,
    responses=NOT_FOUND | UNPROCESSABLE,
    summary="Name one of this player's browsers (\"Anna's phone\"), to tell them apart",
)
async def name_device(
    device_id: int, body: Rename, signed: SignedInDep, identity: IdentityDep
) -> None:
    if signed is None or not await identity.name_device(signed.player_id, device_id, body.name):
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
