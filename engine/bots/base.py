"""What a bot is, the registry of bots by game and level, and the random bot every game has.

A bot plays one seat. It is handed only what that seat may know: its view, the legal
actions, and the public history of the match (every ``(seat, action)`` since the start,
the same list the server stores). It never sees the state. It answers one of the legal
actions; its only randomness is the ``rng`` it is given, so a seeded caller gets the same
decision again.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, Protocol, TypeVar

A = TypeVar("A")
V_contra = TypeVar("V_contra", contravariant=True)

History = Sequence[tuple[int, A]]


class Bot(Protocol[V_contra, A]):
    """A player for one seat of one game: its view ``V``, its actions ``A``."""

    def choose(
        self,
        view: V_contra,
        legal: list[A],
        history: History[A],
        seat: int,
        rng: random.Random,
    ) -> A: ...


BotFactory = Callable[..., Bot[Any, Any]]

_BOTS: dict[tuple[str, str], BotFactory] = {}


def register_bot(game: str, level: str, factory: BotFactory) -> BotFactory:
    if (game, level) in _BOTS:
        raise ValueError(f"bot {level!r} for {game!r} is registered twice")
    _BOTS[(game, level)] = factory
    return factory


def get_bot(game: str, level: str, **settings: Any) -> Bot[Any, Any]:
    """A new bot; ``settings`` go to its factory (the strong bot: ``seconds``, ``playouts``)."""
    if level == "random":
        return RandomBot()
    try:
        factory = _BOTS[(game, level)]
    except KeyError:
        known = ", ".join(["random", *bot_levels(game)])
        raise KeyError(f"no bot {level!r} for game {game!r}; known: {known}") from None
    return factory(**settings)


def bot_levels(game: str) -> list[str]:
    """The levels a game offers besides ``random`` (which every game has)."""
    return [level for name, level in _BOTS if name == game]


class RandomBot:
    """A uniformly random legal action: the baseline of the figures."""

    def choose(
        self, view: object, legal: list[A], history: History[A], seat: int, rng: random.Random
    ) -> A:
        return rng.choice(legal)
