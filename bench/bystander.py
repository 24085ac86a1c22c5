"""What a server process pays for the rooms it serves no socket of: a bystander.

Three of our processes on PostgreSQL + Redis, nginx in front of the first two only, and
`bench/load.py`'s clients playing Expeditionen through it. The third process serves nobody:
whatever CPU it spends beyond its idle cost is what the moves of other processes' rooms
cost it. Prints its idle CPU per second (measured first, with no clients), then the CPU
per move of the two serving processes and of the bystander (over the same window).

    .venv/bin/python -m bench.bystander --rooms 100

Needs what `bench.cluster` needs: PostgreSQL, Redis and nginx (`make services proxy`).
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

import uvloop

from bench import load
from bench.cluster import REDIS_URL, fresh_database
from tests.app.processes import start_apps, start_nginx

IDLE_SECONDS = 20.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    load.add_play_arguments(parser)
    args = load.drive_arguments(parser.parse_args())
    with tempfile.TemporaryDirectory() as tmp, fresh_database() as database:
        apps = start_apps(
            Path(tmp),
            database,
            REDIS_URL,
            count=3,
            LOG_LEVEL="WARNING",
            **load.UNCAPPED,
        )
        nginx = start_nginx(Path(tmp), apps[:2])
        try:
            pids = [app.process.pid for app in apps if app.process is not None]
            before = sum(load.cpu_seconds(pids[2]))
            time.sleep(IDLE_SECONDS)
            idle = (sum(load.cpu_seconds(pids[2])) - before) / IDLE_SECONDS
            print(f"the bystander, idle: {idle * 1000:.2f} ms of CPU a second")
            serving = uvloop.run(load.drive(args, nginx.base_url, pids[:2]))
            print(
                f"the two serving processes: {serving['server_cpu_ms_per_move']:.3f} ms of CPU"
                f" a move ({serving['moves_per_s']:.0f} moves/s)"
            )
            bystander = uvloop.run(load.drive(args, nginx.base_url, pids[2:]))
            print(
                f"the bystander: {bystander['server_cpu_ms_per_move']:.3f} ms of CPU a move"
                f" ({bystander['moves_per_s']:.0f} moves/s; idle alone"
                f" {idle * 1000 / bystander['moves_per_s']:.3f})"
            )
        finally:
            nginx.stop()
            for app in apps:
                app.stop()


if __name__ == "__main__":
    main()
