"""What runs in the worker processes where computer players think: plain data in, one
action out. Kept apart so that a worker imports the engine's bots and nothing of the server.

A worker keeps the bot of each recent (room, match, seat, level): a bot may remember what
its seat saw at earlier turns (the Pilzwanderung bot's notebook of views tells it which
cards the opponent took), and a new bot per move would forget it. With several workers a
move may land on another worker, whose new bot plays legally but knows less.
"""

from __future__ import annotations

import random
from collections import OrderedDict
from typing import Any

from engine.bots import Bot, get_bot

KEPT_BOTS = 512
_bots: OrderedDict[tuple[Any, ...], Bot[Any, Any]] = OrderedDict()


def bot_for(key: tuple[Any, ...], game: str, level: str, seconds: float) -> Bot[Any, Any]:
    bot = _bots.pop(key, None) or get_bot(game, level, seconds=seconds)
    _bots[key] = bot
    while len(_bots) > KEPT_BOTS:
        _bots.popitem(last=False)
    return bot


def choose(
    player: tuple[str, int, int],
    game: str,
    level: str,
    seconds: float,
    view: dict[str, Any],
    legal: list[dict[str, Any]],
    history: list[tuple[int, dict[str, Any]]],
    seed: int,
) -> dict[str, Any]:
    """The action of the bot of `player` (room id, match id, seat), from what that seat may
    know (never the state)."""
    seat = player[2]
    bot = bot_for((*player, level), game, level, seconds)
    action: dict[str, Any] = bot.choose(view, legal, history, seat, random.Random(seed))
    return action
