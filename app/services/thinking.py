"""What runs in the worker processes where computer players think: plain data in, one
action out. Kept apart so that a worker imports the engine's bots and nothing of the server."""

from __future__ import annotations

import random
from typing import Any

from engine.bots import get_bot


def choose(
    game: str,
    level: str,
    seconds: float,
    view: dict[str, Any],
    legal: list[dict[str, Any]],
    history: list[tuple[int, dict[str, Any]]],
    seat: int,
    seed: int,
) -> dict[str, Any]:
    """The bot's action for its seat, from what that seat may know (never the state)."""
    bot = get_bot(game, level, seconds=seconds)
    return bot.choose(view, legal, history, seat, random.Random(seed))
