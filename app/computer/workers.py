"""Worker processes for pure-Python work that would hold the GIL for seconds: a computer
player's thinking (app/computer/players.py) and Scoundrel's searches
(app/computer/searches.py).

A pool is started on first use (a server that never needs one spends nothing), with
spawn, so a worker imports only the module of the function it runs. A pool one of whose
workers died (killed, out of memory) takes no more work: the next ``submit`` starts a new
one, whatever fails on the old one fails with ``BrokenProcessPool``. ``close`` ends the
workers at once: work under way may take seconds, and the process would wait for it at
exit.

After each piece of work a worker runs a full garbage collection: that empties CPython's
free lists, whose few thousand tuples, scattered over a search's emptied memory arenas,
otherwise keep them all (a worker stayed at 120 MB after Scoundrel deal 781, and 38 MB
with the collection).
"""

from __future__ import annotations

import gc
import multiprocessing
import threading
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

T = TypeVar("T")


class Workers:
    def __init__(self, processes: int, initializer: Callable[[], object] | None = None) -> None:
        self.processes = processes
        self.initializer = initializer
        self._pool: ProcessPoolExecutor | None = None
        self._lock = threading.Lock()

    def submit(self, work: Callable[..., T], *args: Any) -> Future[T]:
        """``work(*args)`` in a worker; ``work`` is pickled (a module-level function, or a
        functools.partial of one)."""
        with self._lock:
            if self._pool is not None:
                try:
                    return self._pool.submit(collected, work, *args)
                except BrokenProcessPool:
                    self._pool.shutdown(wait=False)
            self._pool = ProcessPoolExecutor(
                self.processes,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=self.initializer,
            )
            return self._pool.submit(collected, work, *args)

    def close(self) -> None:
        """Drops what waits and ends the workers."""
        with self._lock:
            if self._pool is not None:
                workers = list(self._pool._processes.values())  # public only from Python 3.14
                for worker in workers:
                    worker.terminate()
                # Waits for the pool's own thread to see them gone and let go of its queues:
                # their named semaphores are unlinked when collected or at exit, and uvicorn
                # ends the process by raising the SIGTERM it caught again, which runs no exit
                # cleanup (the resource tracker then warns of leaked semaphores).
                self._pool.shutdown(wait=True, cancel_futures=True)
                self._pool = None


def collected(work: Callable[..., T], *args: Any) -> T:
    """``work(*args)``, then the memory it left behind back to the system."""
    try:
        return work(*args)
    finally:
        gc.collect()
