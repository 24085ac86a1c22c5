"""A match between two bots, step by step, for the bot tests of every game."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from engine.base import AnyGame
from engine.bots import Bot

History = list[tuple[int, dict[str, Any]]]


def bot_match(
    game: AnyGame, bots: list[Bot[Any, Any]], seed: int, options: dict[str, Any], max_plies: int
) -> Iterator[tuple[Any, int, History]]:
    """Yield (state, seat, history) before each decision; every answer must be legal."""
    state = game.new(seed=seed, options=options)
    history: History = []
    rng = random.Random(seed)
    while (seat := game.to_move(state)) is not None:
        yield state, seat, history
        legal = game.legal_actions(state, seat)
        action = bots[seat].choose(game.view(state, seat), legal, history, seat, rng)
        assert action in legal, f"{action} is not legal here"
        history = [*history, (seat, action)]
        state = game.apply(state, seat, action)
    assert len(history) < max_plies
