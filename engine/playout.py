"""Random seeded playouts: the conformance suite, the property tests, bench/ and bots use them."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any, TypeVar

from engine.base import Game, GameState

S = TypeVar("S", bound=GameState)
A = TypeVar("A")


def playout(
    game: Game[S, A, Any],
    seed: int,
    options: dict[str, Any] | None = None,
    max_plies: int = 10_000,
) -> Iterator[tuple[S, int | None, A | None]]:
    """Yield (state, seat, action) for each ply of one random game, then (final, None, None)."""
    rng = random.Random(seed)
    state = game.new(seed=seed, options=options)
    for _ in range(max_plies):
        seat = game.to_move(state)
        if seat is None:
            yield state, None, None
            return
        action = rng.choice(game.legal_actions(state, seat))
        yield state, seat, action
        state = game.apply(state, seat, action)
    raise RuntimeError(f"{game.name} seed {seed} did not end within {max_plies} plies")
