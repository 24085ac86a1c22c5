"""The worker processes of computer players and searches (app/services/workers.py)."""

from __future__ import annotations

from app.services.workers import Workers


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
