"""Bot figures: seeded matches between bot levels, and the Scoundrel solver over many deals.

For every two-seat game with bots, the match-ups of ``MATCHUPS`` its levels allow (easy vs
random, medium vs easy, strong vs easy, strong vs medium: the medium heuristic is the
yardstick where a game has one; ``--matchup`` for some), ``--matches`` each (default 200;
1 round of Expeditionen, ``{"rounds": 1}``; Pilzwanderung on both its tables, the default
and the Morels preset, ``--table`` for one), seats alternating, match ``i`` on seed ``i``.
Prints wins, draws, losses of the first-named bot, its win rate (a draw counts half) with
a 95% Wilson interval, the mean margin, and the strong bot's playouts per second of CPU and
CPU seconds per decision (one with a choice). The strong bot thinks ``--seconds`` of the
process's own CPU per move (default 1, so other jobs on the machine do not weaken it; it
stops sooner once the search has settled the move), or a fixed ``--playouts`` count.
``--jobs 2`` plays two matches at once, each on a core of its own; every match is seeded
alone, so the figures do not depend on it, and ``--first`` splits a long run
(``--first 100 --matches 100`` plays seeds 100 to 199). Then the Scoundrel solver on
deals 0, 1, 2, ...: CPU time and tables searched per deal and the share of winnable deals
(95% interval), so far after every hundred deals; ``--reference`` times the Python
``Solver`` on the same deals too (the same tables; the ratio of their CPU).

    .venv/bin/python bench/bots.py --jobs 2                 # everything, 1 s a move (hours)
    .venv/bin/python bench/bots.py --only expeditionen --jobs 2 --deals 0
    .venv/bin/python bench/bots.py --only expeditionen --matchup strong-medium --deals 0
    .venv/bin/python bench/bots.py --only pilzwanderung --table morels --playouts 48
    .venv/bin/python bench/bots.py --only scoundrel --deals 1000 [--reference]

The figures are in docs/performance.md; what earlier versions measured, in the commit messages.
"""

from __future__ import annotations

import argparse
import functools
import math
import multiprocessing
import os
import random
import statistics
import sys
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from engine import AnyGame, games, get_game
from engine.bots import Bot, bot_levels, get_bot
from engine.scoundrel_solver import Solver, make_solver

# The tables each game's bots are measured on: a label and the match options.
TABLES: dict[str, list[tuple[str, dict[str, Any]]]] = {
    "expeditionen": [("expeditionen", {"rounds": 1})],
    "pilzwanderung": [
        ("pilzwanderung", {}),
        ("morels", {"counts": "original", "night_cards": "hidden", "card_faces": "mushrooms"}),
    ],
}


PROGRESS = 5  # matches between the score-so-far lines on stderr

# Who plays whom, where the game has both levels: the first-named bot is counted.
MATCHUPS = (("easy", "random"), ("medium", "easy"), ("strong", "easy"), ("strong", "medium"))


@dataclass
class Tally:
    wins: int = 0
    draws: int = 0
    losses: int = 0
    playouts: int = 0
    thinking: float = 0.0
    decisions: int = 0  # the first-named bot's, with more than one legal action
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
    game: AnyGame,
    options: dict[str, Any],
    bots: list[Bot[Any, Any]],
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
            tally.decisions += len(legal) > 1
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
    game: AnyGame,
    options: dict[str, Any],
    hero: str,
    villain: str,
    seeds: range,
    budget: dict[str, Any],
    jobs: int,
) -> Tally:
    """A match on each seed, seats alternating; ``jobs`` worker processes at once, each on
    a core of its own (every match is seeded alone, so the figures do not change, and a run
    split by ``--first`` adds up to the whole)."""
    one = functools.partial(seeded_match, game.name, options, hero, villain, budget)
    if jobs == 1:
        return merged(map(one, seeds))
    with multiprocessing.Pool(jobs, initializer=pin_worker) as pool:
        return merged(pool.imap(one, seeds))


def seeded_match(
    name: str, options: dict[str, Any], hero: str, villain: str, budget: dict[str, Any], seed: int
) -> Tally:
    tally = Tally()
    bots = [make(name, hero, budget), make(name, villain, budget)]
    seat = seed % 2
    play_match(get_game(name), options, bots if seat == 0 else bots[::-1], seed, tally, seat)
    return tally


def merged(tallies: Iterable[Tally]) -> Tally:
    """The tallies summed, with the score so far on stderr every PROGRESS matches."""
    total = Tally()
    for tally in tallies:
        total.wins += tally.wins
        total.draws += tally.draws
        total.losses += tally.losses
        total.playouts += tally.playouts
        total.thinking += tally.thinking
        total.decisions += tally.decisions
        total.margins += tally.margins
        if total.matches % PROGRESS == 0:
            thinking = f", {total.thinking / total.matches:.1f} s thinking per match" * bool(
                total.playouts
            )
            margin = statistics.mean(total.margins)
            print(
                f"  ... {total.wins}-{total.draws}-{total.losses}, margin {margin:+.1f}{thinking}",
                file=sys.stderr,
                flush=True,
            )
    return total


def make(game: str, level: str, budget: dict[str, Any]) -> Bot[Any, Any]:
    return get_bot(game, level, **budget) if level == "strong" else get_bot(game, level)


def report(game: str, hero: str, villain: str, tally: Tally) -> None:
    rate = (tally.wins + tally.draws / 2) / tally.matches
    low, high = wilson(tally.wins + tally.draws / 2, tally.matches)
    speed = f"{tally.playouts / tally.thinking:>8.0f}" if tally.playouts else f"{'':>8}"
    if tally.playouts:
        speed += f"{tally.thinking / tally.decisions:>8.2f}"
    print(
        f"{game:<14}{hero + ' vs ' + villain:<18}{tally.matches:>6}{tally.wins:>6}"
        f"{tally.draws:>6}{tally.losses:>6}{100 * rate:>8.1f}%"
        f"   [{100 * low:5.1f}, {100 * high:5.1f}]{statistics.mean(tally.margins):>8.1f}{speed}",
        flush=True,
    )


def bot_figures(
    seeds: range,
    budget: dict[str, Any],
    only: str | None,
    table: str | None,
    jobs: int,
    matchups: list[str],
) -> None:
    per_move = (
        f"{budget['playouts']} playouts"
        if "playouts" in budget
        else f"{budget['seconds']} s of CPU (fewer where the search is decided sooner)"
    )
    print(f"strong bot budget per move: {per_move}")
    print(
        f"{'game':<14}{'match-up':<18}{'games':>6}{'won':>6}{'drawn':>6}{'lost':>6}"
        f"{'win rate':>9}   {'95% interval':<14}{'margin':>8}{'play/s':>8}{'s/move':>8}"
    )
    for game in games():
        levels = bot_levels(game.name)
        if game.seats != 2 or not levels or (only and game.name != only):
            continue
        for hero, villain in MATCHUPS:
            if {hero, villain} - {*levels, "random"} or (
                matchups and f"{hero}-{villain}" not in matchups
            ):
                continue
            for label, options in TABLES.get(game.name, [(game.name, {})]):
                if table and label != table:
                    continue
                tally = duel(game, options, hero, villain, seeds, budget, jobs)
                report(label, hero, villain, tally)


def solver_figures(deals: int, reference: bool) -> None:
    """Solves deals 0, 1, 2, ... with the search ``solve`` uses (the compiled one where it
    was built) and prints the figures so far after every hundred; with ``reference``, the
    Python ``Solver`` too, deal by deal in the same process, and the ratio of the two."""
    game = get_game("scoundrel")
    runs: dict[str, tuple[list[float], list[int]]] = {"solver": ([], [])}
    if reference:
        runs["reference"] = ([], [])
    scores: list[int] = []
    kinds: dict[str, str] = {}
    for seed in range(deals):
        state = game.new(seed=seed)
        for name, (times, tables) in runs.items():
            started = time.process_time()
            solver = (Solver if name == "reference" else make_solver)(state.dungeon)
            kinds[name] = type(solver).__name__
            node = solver.node_of(state)
            score = solver.best(node)
            line = solver.line(node)
            tables.append(solver.tables)
            del solver  # freeing its tables is part of the deal's cost
            times.append(time.process_time() - started)
        assert len({tables[-1] for _, tables in runs.values()}) == 1, seed
        for action in line:
            state = game.apply(state, 0, action)
        outcome = game.result(state)
        assert outcome is not None and outcome.scores[0] == score, seed
        scores.append(score)
        if len(scores) % 100 == 0 or len(scores) == deals:
            for name, (times, tables) in runs.items():
                solver_report(f"{name} ({kinds[name]})", times, tables, scores)
            if reference:
                ratio = sum(runs["reference"][0]) / sum(runs["solver"][0])
                print(f"  reference CPU / solver CPU, all deals so far: {ratio:.1f}x", flush=True)


def solver_report(name: str, times: list[float], tables: list[int], scores: list[int]) -> None:
    deals, winnable = len(scores), sum(score > 0 for score in scores)
    low, high = wilson(winnable, deals)
    slowest = max(range(deals), key=times.__getitem__)
    times, tables = sorted(times), sorted(tables)
    print(
        f"scoundrel {name}: {deals} deals, CPU s per deal mean {statistics.mean(times):.3f}, "
        f"median {statistics.median(times):.3f}, p95 {times[int(0.95 * (deals - 1))]:.3f}, "
        f"max {times[-1]:.3f} (deal {slowest}), {sum(t > 1 for t in times)} over 1 s; "
        f"tables searched median {statistics.median(tables):.0f}, "
        f"max {tables[-1]}; winnable {100 * winnable / deals:.1f}% "
        f"[{100 * low:.1f}, {100 * high:.1f}]; mean best score {statistics.mean(scores):.1f}",
        flush=True,
    )


def pin_worker() -> None:
    """Worker k of a pool on core k (counting round the machine's cores)."""
    if hasattr(os, "sched_setaffinity"):
        cores = sorted(range(os.cpu_count() or 1))
        worker = multiprocessing.current_process()._identity[0] - 1
        os.sched_setaffinity(0, {cores[worker % len(cores)]})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument(
        "--first", type=int, default=0, help="seed of the first match (to split a long run)"
    )
    budget = parser.add_mutually_exclusive_group()
    budget.add_argument("--seconds", type=float, default=1.0, help="strong bot per move")
    budget.add_argument("--playouts", type=int, help="strong bot per move, instead of seconds")
    parser.add_argument("--deals", type=int, default=1000, help="Scoundrel deals to solve")
    parser.add_argument(
        "--reference", action="store_true", help="also time the Python Solver on each deal"
    )
    parser.add_argument("--only", choices=["expeditionen", "scoundrel", *[g.name for g in games()]])
    labels = [label for tables in TABLES.values() for label, _ in tables]
    parser.add_argument("--table", choices=labels, help="only this table (a game's preset)")
    parser.add_argument(
        "--matchup",
        action="append",
        choices=[f"{hero}-{villain}" for hero, villain in MATCHUPS],
        help="only this match-up (may be repeated)",
    )
    parser.add_argument(
        "--jobs", type=int, default=1, help="matches at once, each worker on its own core"
    )
    args = parser.parse_args()
    # Seconds of the process's own CPU: other jobs on the machine do not shorten a move.
    chosen = (
        {"playouts": args.playouts}
        if args.playouts
        else {"seconds": args.seconds, "clock": time.process_time}
    )
    if args.only != "scoundrel":
        seeds = range(args.first, args.first + args.matches)
        bot_figures(seeds, chosen, args.only, args.table, args.jobs, args.matchup or [])
    if args.only in (None, "scoundrel") and args.deals:
        solver_figures(args.deals, args.reference)


if __name__ == "__main__":
    main()
