"""The games by name (OpenSpiel's registry idea): static facts apart from state."""

from __future__ import annotations

from typing import TypeVar

from engine.base import AnyGame

G = TypeVar("G", bound=AnyGame)

_GAMES: dict[str, AnyGame] = {}


def register(game: G) -> G:
    if game.name in _GAMES:
        raise ValueError(f"game {game.name!r} is registered twice")
    _GAMES[game.name] = game
    return game


def get_game(name: str) -> AnyGame:
    try:
        return _GAMES[name]
    except KeyError:
        raise KeyError(f"unknown game {name!r}; known: {', '.join(_GAMES)}") from None


def games() -> list[AnyGame]:
    return list(_GAMES.values())
