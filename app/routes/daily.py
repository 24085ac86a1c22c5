"""The daily deal (app/history/daily.py): today's, starting one, a day's board."""

from __future__ import annotations

from datetime import date
from typing import Annotated

from fastapi import APIRouter, Path, Request, Response

from app.protocol import (
    DailyBoard,
    DailyStarted,
    DailyToday,
    StartDaily,
)
from app.routes.common import CONFLICT, NOT_FOUND, UNPROCESSABLE, new_player, room_url
from app.routes.deps import (
    DailiesDep,
    IdentityDep,
    PlayerDep,
    SettingsDep,
    SignedInDep,
    fail,
)
from app.table.refusals import Refusal

router = APIRouter(prefix="/api", tags=["api"])


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
