"""Bot figures: seeded matches between bot levels, and the Scoundrel solver over many deals.

For every two-seat game with bots: easy vs random and strong vs easy, ``--matches`` each
(default 200; 1 round of Expeditionen, ``{"rounds": 1}``; Pilzwanderung on both its
tables, the default and the Morels preset, ``--table`` for one), seats alternating, match
``i`` on seed ``i``. Prints wins, draws, losses of the first-named bot, its win rate (a draw
counts half) with a 95% Wilson interval, and the strong bot's playouts per second of CPU.
Then the Scoundrel solver on deals 0, 1, 2, ...: CPU time and tables searched per deal
and the share of winnable deals (95% interval), so far after every hundred deals.

    .venv/bin/python bench/bots.py                       # strong bot: 1 s per move (slow!)
    .venv/bin/python bench/bots.py --playouts 100        # a fixed budget per move instead
    .venv/bin/python bench/bots.py --matches 50 --deals 100 --only expeditionen
    .venv/bin/python bench/bots.py --only pilzwanderung --table morels --playouts 48

Figures of 2026-11-30 (a 2-core machine shared with four other jobs, load 4 to 6; CPU
seconds are what the process itself used, pinned to one core):

    bench/bots.py --matches 200 --playouts 200 --only expeditionen
    expeditionen  easy vs random     200 matches  199-0-1   99.5%  [97.2, 99.9]  margin +79.5
    expeditionen  strong vs easy     200 matches  125-0-75  62.5%  [55.6, 68.9]  margin  +9.8
                  strong bot: 3760 playouts per CPU second (so 1 s per move is ~3700)
    bench/bots.py --matches 200 --playouts 400 --only expeditionen
    expeditionen  easy vs random     200 matches  199-0-1   99.5%  [97.2, 99.9]  margin +79.5
    expeditionen  strong vs easy     200 matches  145-0-55  72.5%  [65.9, 78.2]  margin +13.9
                  strong bot: 3841 playouts per CPU second

Scoundrel solver, 2026-12-01 (the same machine, load 2 to 3), after the ceiling counts
what the room must cost now (entered, or avoided and the next one entered: its monsters
met with the weapon at hand, one of its potions healing):

    bench/bots.py --only scoundrel --deals 1000
    scoundrel solver: 1000 deals, CPU s per deal mean 0.302, median 0.113, p95 1.236,
                      max 5.220; tables searched median 1328, max 144239;
                      winnable 98.9% [98.0, 99.4]; mean best score 27.7

The same best score on each of the 1000 deals as before. Both solvers in one process
(load 2 to 3): deals 0 to 199, CPU per deal mean 0.355 s against 0.281, median 0.130
against 0.089, p95 1.55 against 1.19, max 3.17 against 2.57: 1.26x in total, 1.11x per
deal at the median, tables searched 1.70x fewer; the ten slowest deals before, 1.22x in
total (deal 781 still 4.7 s). A sharper ceiling that also looks one room further is
1.2x slower again: it refutes 12% fewer tables at a higher price each.

Before: after twin monsters are walked once, a weapon counts only against the monsters
left, and an avoid is tried after entries that keep up to 8 points less (load 4 to 6):

    bench/bots.py --only scoundrel --deals 1000
    scoundrel solver: 1000 deals, CPU s per deal mean 0.405, median 0.157, p95 1.631,
                      max 5.377; tables searched median 2396, max 181538;
                      winnable 98.9% [98.0, 99.4]; mean best score 27.7

Before (commit dcaaf19; load 8 to 14, so its seconds are not comparable):

    scoundrel solver: 1000 deals, CPU s per deal mean 0.912, median 0.439, p95 3.417,
                      max 15.282; tables searched median 4261, max 355686;
                      winnable 98.9% [98.0, 99.4]; mean best score 27.7

and the same dcaaf19 again at load 2 to 5, just before: mean 0.516, median 0.237, p95
1.957, max 9.345 (deal 781, 355686 tables). The same best score on each of the 1000
deals. Both solvers in one process on deals 0 to 199 (load 3 to 5): CPU per deal mean
0.480 s against 0.389, median 0.205 against 0.137, p95 1.86 against 1.79, max 3.93
against 3.46: 1.23x in total, 1.39x per deal at the median. Still not "well under a
second" on every deal: most of the time goes to deals that reach the ceiling (20 plus
the best potion), where the search refutes tens of thousands of tables that the ceiling
misses by a few points (it sees neither weapon wear nor the dungeon's order).

The solver before that (commit 4d330ec: 100 deals, mean 5.67 s, median 2.36, p95 25.2,
max 71.9), run beside dcaaf19's in one process on deals 0 to 19: 7.4x in total, 8.5x at
the median.

Figures of 2026-12-01 (the same machine, load 7 to 12; the two tables ran at once, each
pinned to its own core; a Pilzwanderung playout is at most 24 plies of the easy policy):

    bench/bots.py --only pilzwanderung --table pilzwanderung --matches 200 --playouts 48
    pilzwanderung easy vs random     200 matches  200-0-0  100.0%  [98.1, 100]   margin +39.0
    pilzwanderung strong vs easy     200 matches  167-1-32  83.8%  [78.0, 88.2]  margin +13.9
                  strong bot: 745 playouts per CPU second (so 1 s per move is ~740)
    bench/bots.py --only pilzwanderung --table morels --matches 200 --playouts 48
    morels        easy vs random     200 matches  200-0-0  100.0%  [98.1, 100]   margin +42.1
    morels        strong vs easy     200 matches  165-1-34  82.8%  [76.9, 87.4]  margin +11.3
                  strong bot: 731 playouts per CPU second
    (a second run of both on the final code: the same games, 742 playouts per CPU second)

Not run here: strong vs easy at 1 s per move over 200 matches (about four hours on this
machine for Expeditionen, about two per Pilzwanderung table).
"""

from __future__ import annotations

import argparse
import functools
import math
import multiprocessing
import os
import random
import statistics
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from engine import Game, games, get_game
from engine.bots import Bot, bot_levels, get_bot
from engine.scoundrel_solver import Solver

# The tables each game's bots are measured on: a label and the match options.
TABLES: dict[str, list[tuple[str, dict[str, Any]]]] = {
    "expeditionen": [("expeditionen", {"rounds": 1})],
    "pilzwanderung": [
        ("pilzwanderung", {}),
        ("morels", {"counts": "original", "night_cards": "hidden", "card_faces": "mushrooms"}),
    ],
}


@dataclass
class Tally:
    wins: int = 0
    draws: int = 0
    losses: int = 0
    playouts: int = 0
    thinking: float = 0.0
    margins: list[int] = field(default_factory=list)

    @property
    def matches(self) -> int:
        return self.wins + self.draws + self.losses


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def play_match(
    game: Game[Any],
    options: dict[str, Any],
    bots: list[Bot],
    seed: int,
    tally: Tally,
    hero: int,
) -> None:
    state = game.new(seed=seed, options=options)
    history: list[tuple[int, dict[str, Any]]] = []
    rng = random.Random(seed)
    while (seat := game.to_move(state)) is not None:
        legal = game.legal_actions(state, seat)
        started = time.process_time()
        action = bots[seat].choose(game.view(state, seat), legal, history, seat, rng)
        if seat == hero:
            tally.thinking += time.process_time() - started
            tally.playouts += getattr(bots[seat], "last_playouts", 0)
        history.append((seat, action))
        state = game.apply(state, seat, action)
    outcome = game.result(state)
    assert outcome is not None
    tally.margins.append(outcome.scores[hero] - outcome.scores[1 - hero])
    if outcome.winner is None:
        tally.draws += 1
    elif outcome.winner == hero:
        tally.wins += 1
    else:
        tally.losses += 1


def duel(
    game: Game[Any],
    options: dict[str, Any],
    hero: str,
    villain: str,
    matches: int,
    budget: dict[str, Any],
    jobs: int,
) -> Tally:
    """Match ``i`` on seed ``i``, seats alternating; ``jobs`` worker processes at once, each
    on a core of its own (every match is seeded alone, so the figures do not change)."""
    one = functools.partial(seeded_match, game.name, options, hero, villain, budget)
    if jobs == 1:
        return merged(map(one, range(matches)))
    with multiprocessing.Pool(jobs, initializer=pin_worker) as pool:
        return merged(pool.imap(one, range(matches)))


def seeded_match(
    name: str, options: dict[str, Any], hero: str, villain: str, budget: dict[str, Any], seed: int
) -> Tally:
    tally = Tally()
    bots = [make(name, hero, budget), make(name, villain, budget)]
    seat = seed % 2
    play_match(get_game(name), options, bots if seat == 0 else bots[::-1], seed, tally, seat)
    return tally


def merged(tallies: Iterable[Tally]) -> Tally:
    total = Tally()
    for tally in tallies:
        total.wins += tally.wins
        total.draws += tally.draws
        total.losses += tally.losses
        total.playouts += tally.playouts
        total.thinking += tally.thinking
        total.margins += tally.margins
    return total


def make(game: str, level: str, budget: dict[str, Any]) -> Bot:
    return get_bot(game, level, **budget) if level == "strong" else get_bot(game, level)


def report(game: str, hero: str, villain: str, tally: Tally) -> None:
    rate = (tally.wins + tally.draws / 2) / tally.matches
    low, high = wilson(tally.wins + tally.draws / 2, tally.matches)
    speed = f"{tally.playouts / tally.thinking:>8.0f}" if tally.playouts else f"{'':>8}"
    print(
        f"{game:<14}{hero + ' vs ' + villain:<18}{tally.matches:>6}{tally.wins:>6}"
        f"{tally.draws:>6}{tally.losses:>6}{100 * rate:>8.1f}%"
        f"   [{100 * low:5.1f}, {100 * high:5.1f}]{statistics.mean(tally.margins):>8.1f}{speed}",
        flush=True,
    )


def bot_figures(
    matches: int, budget: dict[str, Any], only: str | None, table: str | None, jobs: int
) -> None:
    per_move = (
        f"{budget['playouts']} playouts"
        if "playouts" in budget
        else f"{budget['seconds']} s of CPU (fewer where the search is decided sooner)"
    )
    print(f"strong bot budget per move: {per_move}")
    print(
        f"{'game':<14}{'match-up':<18}{'games':>6}{'won':>6}{'drawn':>6}{'lost':>6}"
        f"{'win rate':>9}   {'95% interval':<14}{'margin':>8}{'play/s':>8}"
    )
    for game in games():
        levels = bot_levels(game.name)
        if game.seats != 2 or not levels or (only and game.name != only):
            continue
        for hero, villain in (("easy", "random"), ("strong", "easy")):
            if hero not in levels:
                continue
            for label, options in TABLES.get(game.name, [(game.name, {})]):
                if table and label != table:
                    continue
                tally = duel(game, options, hero, villain, matches, budget, jobs)
                report(label, hero, villain, tally)


def solver_figures(deals: int) -> None:
    """Solves deals 0, 1, 2, ... and prints the figures so far after every hundred."""
    game = get_game("scoundrel")
    times: list[float] = []
    tables: list[int] = []
    scores: list[int] = []
    for seed in range(deals):
        state = game.new(seed=seed)
        started = time.process_time()
        solver = Solver(state.dungeon, state.strict_weapons)
        node = solver.node_of(state)
        score = solver.best(node)
        line = solver.line(node)
        times.append(time.process_time() - started)
        tables.append(solver.tables)
        for action in line:
            state = game.apply(state, 0, action)
        outcome = game.result(state)
        assert outcome is not None and outcome.scores[0] == score, seed
        scores.append(score)
        if len(scores) % 100 == 0 or len(scores) == deals:
            solver_report(times, tables, scores)


def solver_report(times: list[float], tables: list[int], scores: list[int]) -> None:
    deals, winnable = len(scores), sum(score > 0 for score in scores)
    low, high = wilson(winnable, deals)
    times, tables = sorted(times), sorted(tables)
    print(
        f"scoundrel solver: {deals} deals, CPU s per deal mean {statistics.mean(times):.3f}, "
        f"median {statistics.median(times):.3f}, p95 {times[int(0.95 * (deals - 1))]:.3f}, "
        f"max {times[-1]:.3f}; tables searched median {statistics.median(tables):.0f}, "
        f"max {tables[-1]}; winnable {100 * winnable / deals:.1f}% "
        f"[{100 * low:.1f}, {100 * high:.1f}]; mean best score {statistics.mean(scores):.1f}",
        flush=True,
    )


def pin_to_one_core() -> None:
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})


def pin_worker() -> None:
    """Worker k of a pool on core k (counting round the machine's cores)."""
    if hasattr(os, "sched_setaffinity"):
        cores = sorted(range(os.cpu_count() or 1))
        worker = multiprocessing.current_process()._identity[0] - 1
        os.sched_setaffinity(0, {cores[worker % len(cores)]})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=200)
    budget = parser.add_mutually_exclusive_group()
    budget.add_argument("--seconds", type=float, default=1.0, help="strong bot per move")
    budget.add_argument("--playouts", type=int, help="strong bot per move, instead of seconds")
    parser.add_argument("--deals", type=int, default=1000, help="Scoundrel deals to solve")
    parser.add_argument("--only", choices=["expeditionen", "scoundrel", *[g.name for g in games()]])
    labels = [label for tables in TABLES.values() for label, _ in tables]
    parser.add_argument("--table", choices=labels, help="only this table (a game's preset)")
    parser.add_argument(
        "--jobs", type=int, default=1, help="matches at once, each worker on its own core"
    )
    args = parser.parse_args()
    pin_to_one_core()
    # Seconds of the process's own CPU: other jobs on the machine do not shorten a move.
    chosen = (
        {"playouts": args.playouts}
        if args.playouts
        else {"seconds": args.seconds, "clock": time.process_time}
    )
    if args.only != "scoundrel":
        bot_figures(args.matches, chosen, args.only, args.table, args.jobs)
    if args.only in (None, "scoundrel") and args.deals:
        solver_figures(args.deals)


if __name__ == "__main__":
    main()
