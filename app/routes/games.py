"""The games this server offers, and the JSON Schema of each one's actions and views."""

from __future__ import annotations

from fastapi import APIRouter

from app.protocol import (
    GameInfo,
    GameSchema,
)
from app.routes.common import NOT_FOUND, UNPROCESSABLE
from app.routes.deps import (
    fail,
)
from app.table import schemas
from app.table.seats import levels
from engine import games

router = APIRouter(prefix="/api", tags=["api"])


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
