"""Where a computer player should think: the event loop's lag while the strong bot thinks
in a thread of the server process, and while it thinks in a worker process.

A ticker on the loop sleeps 1 ms at a time and records how late each wake-up is (every
room's messages wait that long too). Three runs of ``--seconds`` each: nothing thinking
(the baseline), the strong Expeditionen bot thinking back to back in a thread
(``run_in_executor`` with a ThreadPoolExecutor), and in a ProcessPoolExecutor (spawn) as
app/computer/players.py does. Prints p50 / p99 / max lateness and each p99 over the
baseline's (compare within one run).

    .venv/bin/python bench/bot_thinking.py --seconds 5 --think 1.0
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import statistics
import time
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any

from app.computer.thinking import choose
from engine import get_game
from engine.playout import playout


def position() -> tuple[dict[str, Any], list[dict[str, Any]], list[tuple[int, Any]], int]:
    """A seat's view, legal actions and the public history 20 plies into a seeded match."""
    game = get_game("expeditionen")
    history: list[tuple[int, Any]] = []
    for state, seat, action in playout(game, seed=1, options={"rounds": 1}):
        if seat is None:
            break
        if len(history) == 20:
            return game.view(state, seat), game.legal_actions(state, seat), history, seat
        history.append((seat, action))
    raise RuntimeError("the match ended too soon")


async def lateness(seconds: float, think: Callable[[], Any] | None) -> list[float]:
    """Milliseconds each 1 ms sleep overslept, while `think` runs back to back."""
    late: list[float] = []
    stop = time.monotonic() + seconds

    async def thinker() -> None:
        while time.monotonic() < stop and think is not None:
            await think()

    task = asyncio.create_task(thinker())
    while time.monotonic() < stop:
        before = time.perf_counter()
        await asyncio.sleep(0.001)
        late.append((time.perf_counter() - before - 0.001) * 1000)
    await task
    return late


def report(name: str, late: list[float], baseline: float | None) -> float:
    cuts = statistics.quantiles(late, n=100)
    p99 = cuts[98]
    ratio = f"  p99 x{p99 / baseline:.1f} of nothing thinking" if baseline else ""
    print(f"{name:<22} p50 {cuts[49]:7.2f} ms  p99 {p99:7.2f} ms  max {max(late):7.1f} ms{ratio}")
    return p99


async def main(seconds: float, think_seconds: float) -> None:
    view, legal, history, seat = position()
    args = (("bench", 1, seat), "expeditionen", "strong", think_seconds, view, legal, history, 7)

    def thinking_in(executor: Executor) -> Callable[[], Any]:
        loop = asyncio.get_running_loop()
        return lambda: loop.run_in_executor(executor, choose, *args)

    baseline = report("nothing thinking", await lateness(seconds, None), None)
    with ThreadPoolExecutor(1) as threads:
        report("thread", await lateness(seconds, thinking_in(threads)), baseline)
    spawn = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(1, mp_context=spawn) as processes:
        await asyncio.get_running_loop().run_in_executor(processes, choose, *args)  # started
        report("worker process", await lateness(seconds, thinking_in(processes)), baseline)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="length of each run")
    parser.add_argument("--think", type=float, default=1.0, help="the strong bot's budget")
    options = parser.parse_args()
    asyncio.run(main(options.seconds, options.think))
