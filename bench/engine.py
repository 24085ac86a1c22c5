"""Engine benchmark: random full games per second for every registered game, on one core.

Each game plays random legal actions (default options) on the fixed seeds 0, 1, 2, ...,
so two runs play the same games. Prints one row per game: games played, plies, games/s,
plies/s and the mean microseconds spent in ``apply``.

    .venv/bin/python bench/engine.py               # 3 s per game
    .venv/bin/python bench/engine.py --seconds 10
    .venv/bin/python bench/engine.py --games 500   # a fixed amount of work instead
"""

from __future__ import annotations

import argparse
import os
import random
import sys
from dataclasses import dataclass
from pathlib import Path
from time import perf_counter
from typing import Any

# Run as a script, this file's folder comes first on sys.path, and this file's name
# would shadow the engine package.
sys.path[0] = str(Path(__file__).resolve().parent.parent)

from engine import Game, games  # noqa: E402

MAX_PLIES = 10_000


@dataclass
class Tally:
    games: int = 0
    plies: int = 0
    seconds: float = 0.0
    apply_seconds: float = 0.0


def play_one(game: Game[Any], seed: int, tally: Tally) -> None:
    rng = random.Random(seed)
    state = game.new(seed=seed)
    for _ in range(MAX_PLIES):
        seat = game.to_move(state)
        if seat is None:
            tally.games += 1
            return
        action = rng.choice(game.legal_actions(state, seat))
        before = perf_counter()
        state = game.apply(state, seat, action)
        tally.apply_seconds += perf_counter() - before
        tally.plies += 1
    raise RuntimeError(f"{game.name} seed {seed} did not end within {MAX_PLIES} plies")


def measure(game: Game[Any], seconds: float, game_count: int | None) -> Tally:
    """Play seeds 0, 1, ... until ``game_count`` games, or else until ``seconds`` have passed."""
    tally = Tally()
    start = perf_counter()
    seed = 0
    while (tally.games < game_count) if game_count else (tally.seconds < seconds):
        play_one(game, seed, tally)
        seed += 1
        tally.seconds = perf_counter() - start
    return tally


def pin_to_one_core() -> None:
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    budget = parser.add_mutually_exclusive_group()
    budget.add_argument("--seconds", type=float, default=3.0, help="time per game (default 3)")
    budget.add_argument("--games", type=int, help="play this many games per game instead")
    args = parser.parse_args()
    pin_to_one_core()
    print(f"{'game':<14}{'games':>8}{'plies':>10}{'games/s':>10}{'plies/s':>11}{'µs/apply':>10}")
    for game in games():
        tally = measure(game, args.seconds, args.games)
        print(
            f"{game.name:<14}{tally.games:>8}{tally.plies:>10}"
            f"{tally.games / tally.seconds:>10.0f}{tally.plies / tally.seconds:>11.0f}"
            f"{1e6 * tally.apply_seconds / tally.plies:>10.1f}"
        )


if __name__ == "__main__":
    main()
