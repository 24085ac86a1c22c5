"""The games by name (OpenSpiel's registry idea): static facts apart from state."""

from __future__ import annotations

from typing import Any

from engine.base import Game

_GAMES: dict[str, Game[Any]] = {}


def register(game: Game[Any]) -> Game[Any]:
    if game.name in _GAMES:
        raise ValueError(f"game {game.name!r} is registered twice")
    _GAMES[game.name] = game
    return game


def get_game(name: str) -> Game[Any]:
    try:
        return _GAMES[name]
    except KeyError:
        raise KeyError(f"unknown game {name!r}; known: {', '.join(_GAMES)}") from None


def games() -> list[Game[Any]]:
    return list(_GAMES.values())
