"""Several servers at the same time, each under its own share of one load: CPU per move of
each, as a ratio to the first.

On a shared machine one server's CPU per move moves by up to 1.5x between runs a few
minutes apart, more than most changes; servers measured at the same time share the
machine's state, so their ratios hold to about 1 % from run to run (two copies of the same
code: 0.995x and 1.003x). Each server gets `--rooms` rooms of `bench/load.py`'s clients
(1 s think time), all driven from this one process, with a fresh SQLite file of its own.
A server is one of

- ``floor``: the bare server storing each action in SQLite (`bench/bare_server.py --store`),
- ``rules``: the same with the engine's rules (``--rules``),
- ``ours``: ``python -m app`` from this checkout,
- a folder: ``python -m app`` from another checkout (``git worktree add``), to compare
  commits.

Rounds alternate the order in which the servers start.

    .venv/bin/python -m bench.side_by_side floor rules ours
    .venv/bin/python -m bench.side_by_side ours /work/wt/before --rounds 3
"""

from __future__ import annotations

import argparse
import asyncio
import subprocess
import tempfile
from contextlib import ExitStack
from pathlib import Path

import uvloop

from bench import load


def start(server: str, folder: str, port: int) -> subprocess.Popen[bytes]:
    database = f"sqlite:///{folder}/side_by_side.db"
    if server in ("floor", "rules"):
        return load.start_bare(port, "--store", database, *(["--rules"] * (server == "rules")))
    checkout = load.ROOT if server == "ours" else Path(server).resolve()
    return load.start_server(port, database, defaults=False, checkout=checkout)


async def side_by_side(args: argparse.Namespace, servers: list[str]) -> list[dict[str, float]]:
    """Every server started, then all of them played at once; each one's figures."""
    with ExitStack() as stack:
        running = []
        for server in servers:
            folder = stack.enter_context(tempfile.TemporaryDirectory())
            port = load.free_port()
            process = start(server, folder, port)
            stack.callback(load.stop_server, process)
            running.append((f"http://127.0.0.1:{port}", process.pid))
        for base, _ in running:
            await load.wait_ready(base)
        return await asyncio.gather(*(load.drive(args, base, [pid]) for base, pid in running))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("servers", nargs="+", help="floor, rules, ours or a checkout's folder")
    load.add_play_arguments(parser)
    parser.add_argument("--rounds", type=int, default=2)
    options = parser.parse_args()
    args = load.drive_arguments(options)
    servers = options.servers
    for number in range(options.rounds):
        order = list(range(len(servers)))[:: 1 if number % 2 == 0 else -1]
        measured = uvloop.run(side_by_side(args, [servers[at] for at in order]))
        figures = [measured[order.index(at)] for at in range(len(servers))]
        first = figures[0]["server_cpu_ms_per_move"]
        cells = [
            f"{server} {run['server_cpu_ms_per_move']:.3f} ms "
            f"({run['server_cpu_ms_per_move'] / first:.3f}x, p99 {run['p99_ms']:.2f} ms, "
            f"{run['errors']:.0f} errors)"
            for server, run in zip(servers, figures, strict=True)
        ]
        print(f"round {number + 1}: " + "; ".join(cells), flush=True)


if __name__ == "__main__":
    main()
