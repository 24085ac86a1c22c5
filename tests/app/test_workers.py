"""The worker processes of computer players and searches (app/computer/workers.py)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from app.computer.workers import Workers


def resident_mib() -> float:
    with open("/proc/self/status") as status:
        line = next(line for line in status if line.startswith("VmRSS:"))
    return int(line.split()[1]) / 1024


def leave_scattered_tuples() -> None:
    """What a long search leaves: a million small tuples freed, the last few thousand of
    them (the size of CPython's free list) spread over all the memory they took."""
    many = [(i, i, i) for i in range(1_000_000)]
    spread = many[::500]
    del many
    drain = [(i, i, i) for i in range(2000)]  # empties the free list
    del spread  # these fill it again
    del drain


def test_a_worker_gives_back_the_memory_its_work_left_behind() -> None:
    workers = Workers(1)
    try:
        before = workers.submit(resident_mib).result()
        workers.submit(leave_scattered_tuples).result()
        after = workers.submit(resident_mib).result()
    finally:
        workers.close()
    assert after < before + 20, f"{before:.0f} MiB before, {after:.0f} MiB after"


def pool_semaphores(workers: Workers) -> set[Path]:
    """The named semaphores (/dev/shm) of this pool's queues, and no other's: tests in other
    xdist workers make and drop pools of their own meanwhile. (Private attributes of
    concurrent.futures and multiprocessing: a test may look inside.)"""
    pool = workers._pool
    assert pool is not None
    queues: tuple[Any, ...] = (pool._call_queue, pool._result_queue)  # type: ignore[attr-defined]
    locks = [
        lock
        for queue in queues
        for lock in (queue._rlock, queue._wlock, getattr(queue, "_sem", None))
    ]
    return {Path("/dev/shm/sem." + lock._semlock.name.lstrip("/")) for lock in locks if lock}


def test_closing_the_workers_unlinks_their_pools_semaphores() -> None:
    """The server's process ends by the SIGTERM that uvicorn raises again after shutting
    down, which runs no exit cleanup: what close() leaves stays (and the log gets a
    resource tracker's warning, test_self_hosting)."""
    workers = Workers(1)
    workers.submit(os.getpid).result()
    names = pool_semaphores(workers)
    assert names and all(name.exists() for name in names), "a pool holds named semaphores"
    workers.close()
    assert {name for name in names if name.exists()} == set()
