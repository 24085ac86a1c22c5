"""A player's record and ratings."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path

from app.protocol import (
    PRINTABLE,
    PlayerRecord,
)
from app.routes.common import NOT_FOUND, UNPROCESSABLE
from app.routes.deps import (
    PlayerDep,
    RecordsDep,
    fail,
)

router = APIRouter(prefix="/api", tags=["api"])


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
