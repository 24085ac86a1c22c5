"""Engine benchmark: random full games per second for every registered game, on one core.

Each game plays random legal actions (default options, ``engine.playout``) on the fixed
seeds 0, 1, 2, ..., so two runs play the same games. Prints one row per game: games
played, plies, games/s, plies/s and the mean microseconds per ply (legal actions, the
random choice and ``apply``).

    .venv/bin/python bench/playouts.py               # 3 s per game
    .venv/bin/python bench/playouts.py --seconds 10
    .venv/bin/python bench/playouts.py --games 500   # a fixed amount of work instead
"""

from __future__ import annotations

import argparse
import os
from dataclasses import dataclass
from time import perf_counter

from engine import AnyGame, games
from engine.playout import playout


@dataclass
class Tally:
    games: int = 0
    plies: int = 0
    seconds: float = 0.0


def measure(game: AnyGame, seconds: float, game_count: int | None) -> Tally:
    """Play seeds 0, 1, ... until ``game_count`` games, or else until ``seconds`` have passed."""
    tally = Tally()
    start = perf_counter()
    seed = 0
    while (tally.games < game_count) if game_count else (tally.seconds < seconds):
        tally.plies += sum(1 for _, seat, _ in playout(game, seed) if seat is not None)
        tally.games += 1
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
    print(f"{'game':<14}{'games':>8}{'plies':>10}{'games/s':>10}{'plies/s':>11}{'µs/ply':>9}")
    for game in games():
        tally = measure(game, args.seconds, args.games)
        print(
            f"{game.name:<14}{tally.games:>8}{tally.plies:>10}"
            f"{tally.games / tally.seconds:>10.0f}{tally.plies / tally.seconds:>11.0f}"
            f"{1e6 * tally.seconds / tally.plies:>9.1f}"
        )


if __name__ == "__main__":
    main()
