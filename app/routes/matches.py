"""Finished matches: the history, a replay, its analysis and its wire inspector."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any

from fastapi import APIRouter, Query

from app.history.matches import MatchService
from app.history.wire import UnknownStep
from app.protocol import (
    MAX_ID,
    PRINTABLE,
    MatchAnalysis,
    MatchReplay,
    MatchSummary,
    MatchWire,
)
from app.routes.common import BUSY, NOT_FOUND, UNPROCESSABLE, WholeNumber, searched
from app.routes.deps import (
    MatchesDep,
    PlayerDep,
    RecordsDep,
    RoomsDep,
    SettingsDep,
    WireDep,
    fail,
)
from app.settings import Settings

router = APIRouter(prefix="/api", tags=["api"])


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
