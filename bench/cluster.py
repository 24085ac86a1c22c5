"""The full load table: one process on SQLite, several on PostgreSQL + Redis, the bare server.

For each room count, in one run on one machine: `bench/load.py`'s clients play Expeditionen
(1 s think time by default) against

- one server process with a fresh SQLite file (the default setup),
- `--processes` server processes on a fresh PostgreSQL database with Redis fan-out, behind
  Debian's nginx (round robin, no stickiness; the pieces of `tests/app/processes.py`); with
  several counts (`--processes 2 3`) a row for each,
- the bare FastAPI/uvicorn websocket server (`bench/bare_server.py`), the floor,
- the bare server storing each action (`--store`) in SQLite, and `--processes` of them
  storing in PostgreSQL and fanning out over Redis (`--relay`) behind the same nginx (a
  row for each count of `--processes`): the floor with nothing but the pieces issue 14
  prescribes, which shows how much of the budget those pieces alone take,
- each of those floors again with the engine applying each action and making each move's
  views (`--rules`): what the rules alone cost, nothing of ours,

and prints moves/s, p50/p99 from an action to the opponent's new view, errors, the server
CPU per move (summed over all server processes; nginx, PostgreSQL and Redis not counted)
and the peak memory of the largest process, each also as a ratio to the bare server.
After the table a line per room count gives issue 36's ratios: one process to the SQLite
floor (CPU, p99), each count of processes to its floor (CPU), and each further count's CPU
to the first count's, ours and the floor's; beside each, in brackets, what the floor with
the engine's rules (`--rules`: the rules alone, nothing of ours) comes to in its place.

    .venv/bin/python -m bench.cluster --rooms 100 500 1000 --processes 2 3
    .venv/bin/python -m bench.cluster --rooms 500 --window 30 --processes 3
    .venv/bin/python -m bench.cluster --rooms 100 --processes 2 3 --repeat 3

``--repeat N`` runs every setup N times, the setups taking turns, and prints for each the
median of every column (on a shared machine one run's CPU per move moved by up to 1.5x
between runs of the same code, so a single run's ratios say little).

Needs PostgreSQL on 127.0.0.1:5432 (database `test` reachable, trust auth; a database of
its own is created and dropped), Redis on 127.0.0.1:6379 and nginx: `make services proxy`.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import psycopg
import uvloop

from bench import load
from tests.app.processes import start_apps, start_nginx
from tests.server import AppProcess

ADMIN = os.environ.get("BENCH_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test")
REDIS_URL = os.environ.get("BENCH_REDIS", "redis://127.0.0.1:6379/0")
COLUMNS = ("moves_per_s", "p50_ms", "p99_ms", "errors", "server_cpu_ms_per_move", "server_peak_mib")


@contextmanager
def fresh_database() -> Iterator[str]:
    name = f"kr_bench_{os.getpid()}"
    with psycopg.connect(ADMIN, autocommit=True) as admin:
        admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        admin.execute(f"CREATE DATABASE {name}")
    try:
        yield ADMIN.replace("postgresql://", "postgresql+psycopg://").rsplit("/", 1)[0] + "/" + name
    finally:
        with psycopg.connect(ADMIN, autocommit=True) as admin:
            admin.execute(f"DROP DATABASE {name} WITH (FORCE)")


def several(
    args: argparse.Namespace, count: int, bare: bool = False, rules: bool = False
) -> dict[str, float]:
    """`count` servers on PostgreSQL + Redis behind nginx: ours, or with `bare` the bare
    server storing and relaying (with `rules`, the engine's rules too)."""
    with tempfile.TemporaryDirectory() as tmp, fresh_database() as database:
        if bare:
            apps = [bare_app(database, rules) for _ in range(count)]
        else:
            apps = start_apps(
                Path(tmp),
                database,
                REDIS_URL,
                count=count,
                LOG_LEVEL="WARNING",
                **load.UNCAPPED,
            )
        nginx = start_nginx(Path(tmp), apps)
        try:
            pids = [app.process.pid for app in apps if app.process is not None]
            return uvloop.run(load.drive(args, nginx.base_url, pids))
        finally:
            nginx.stop()
            for app in apps:
                app.stop()


def bare_app(database: str, rules: bool) -> AppProcess:
    """A bare server that stores in `database` and relays over Redis (with `rules`, the
    engine applies each action), once it answers."""
    port = load.free_port()
    app = AppProcess(port, {}, Path("/dev/null"))
    options = ["--store", database, "--relay", REDIS_URL, *(["--rules"] if rules else [])]
    app.process = load.start_bare(port, *options)
    uvloop.run(load.wait_ready(app.base_url))
    return app


def row(label: str, figures: dict[str, float], bare: dict[str, float]) -> str:
    cells = []
    for key in COLUMNS:
        value = figures[key]
        ratio = f" ({value / bare[key]:.2f}x)" if key not in ("errors", "moves_per_s") else ""
        cells.append(f"{value:.3g}{ratio}" if key != "errors" else f"{value:.0f}")
    return f"| {figures['rooms']:.0f} | {label} | " + " | ".join(cells) + " |"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rooms", type=int, nargs="+", default=[100, 500, 1000])
    parser.add_argument("--think", type=float, default=1.0)
    parser.add_argument("--warmup", type=float, default=5.0)
    parser.add_argument("--window", type=float, default=20.0)
    parser.add_argument("--processes", type=int, nargs="+", default=[2])
    parser.add_argument("--repeat", type=int, default=1)
    options = parser.parse_args()
    print("| rooms | setup | moves/s | p50 ms | p99 ms | errors | CPU ms/move | peak MiB |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    ratios = []
    for rooms in options.rooms:
        play = {"think": options.think, "warmup": options.warmup, "window": options.window}
        args = load.drive_arguments(argparse.Namespace(rooms=rooms, **play))
        runs = [one_of_each(args, options.processes) for _ in range(options.repeat)]
        bare, stored, ruled, one = (
            median([run[key] for run in runs]) for key in ("bare", "SQLite", "rules", 1)
        )
        floors = {n: median([run[f"bare {n}"] for run in runs]) for n in options.processes}
        rules = {n: median([run[f"rules {n}"] for run in runs]) for n in options.processes}
        many = {n: median([run[n] for run in runs]) for n in options.processes}
        print(row("bare", bare, bare), flush=True)
        print(row("bare, SQLite", stored, bare), flush=True)
        print(row("bare, SQLite, the engine's rules", ruled, bare), flush=True)
        print(row("1 process, SQLite", one, bare), flush=True)
        for count in options.processes:
            setup = f"{count} processes, PostgreSQL + Redis"
            print(row(f"bare, {setup}", floors[count], bare), flush=True)
            print(row(f"bare, {setup}, the engine's rules", rules[count], bare), flush=True)
            print(row(setup, many[count], bare), flush=True)
        ratios.append(targets(rooms, one, stored, ruled, many, floors, rules))
    medians = f" (medians of {options.repeat} runs)" if options.repeat > 1 else ""
    print(f"\nIssue 36's ratios, each to its floor in the same run{medians}:\n")
    print("\n".join(ratios))


def one_of_each(args: argparse.Namespace, processes: list[int]) -> dict[Any, dict[str, float]]:
    """Every setup once: the bare server, its SQLite floor with and without the rules, ours
    on SQLite, then for each count of processes the floor with and without the rules, and
    ours."""
    return {
        "bare": uvloop.run(load.run(args, bare=True)),
        "SQLite": uvloop.run(load.run(args, bare=True, stored=True)),
        "rules": uvloop.run(load.run(args, bare=True, stored=True, rules=True)),
        1: uvloop.run(load.run(args)),
        **{f"bare {count}": several(args, count, bare=True) for count in processes},
        **{f"rules {count}": several(args, count, bare=True, rules=True) for count in processes},
        **{count: several(args, count) for count in processes},
    }


def median(runs: list[dict[str, float]]) -> dict[str, float]:
    """Each figure's median over the runs."""
    return {key: statistics.median(run[key] for run in runs) for key in runs[0]}


def targets(
    rooms: int,
    one: dict[str, float],
    stored: dict[str, float],
    ruled: dict[str, float],
    many: dict[int, dict[str, float]],
    floors: dict[int, dict[str, float]],
    rules: dict[int, dict[str, float]],
) -> str:
    """Issue 36's ratios, each to its floor in this run, and in brackets what the rules
    alone (the floor with the engine's rules) come to against the same floor."""
    cpu = "server_cpu_ms_per_move"
    first, *more = many
    ratios = [
        f"1 process / SQLite floor: CPU {one[cpu] / stored[cpu]:.2f}x "
        f"(the rules alone {ruled[cpu] / stored[cpu]:.2f}x), "
        f"p99 {one['p99_ms'] / stored['p99_ms']:.2f}x",
        *(
            f"{count} processes / their floor: CPU {many[count][cpu] / floors[count][cpu]:.2f}x "
            f"(the rules alone {rules[count][cpu] / floors[count][cpu]:.2f}x)"
            for count in many
        ),
        *(
            f"{count} / {first} processes: CPU {many[count][cpu] / many[first][cpu]:.2f}x "
            f"(the floor's {floors[count][cpu] / floors[first][cpu]:.2f}x, "
            f"the rules alone {rules[count][cpu] / rules[first][cpu]:.2f}x)"
            for count in more
        ),
    ]
    return f"- {rooms} rooms: " + "; ".join(ratios)


if __name__ == "__main__":
    main()
