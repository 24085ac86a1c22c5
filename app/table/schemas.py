"""Each game's action and view shapes as JSON Schema, from the engine's own types."""

from __future__ import annotations

from functools import cache
from typing import Any

from pydantic import TypeAdapter

from engine import get_game


@cache
def action_adapter(game_name: str) -> TypeAdapter[Any]:
    return TypeAdapter(get_game(game_name).action_type)


@cache
def game_schema(game_name: str) -> dict[str, Any]:
    """``action``: one action a seat may send; ``view``: what one seat (or a spectator) sees."""
    game = get_game(game_name)
    return {
        "game": game.name,
        "action": action_adapter(game.name).json_schema(),
        "view": TypeAdapter(game.view_type).json_schema(),
    }
