"""Long searches (Scoundrel's best line after a game, its hint during play) run in worker
processes, never in the server process.

The solver is pure Python: in a thread of the server it holds the GIL for its whole
search (up to seconds), and every room of the process waits up to a switch interval per
message meanwhile, as with a computer player's thinking (``bench/bot_thinking.py``); a
player asking for hints over and over held up every room (``bench/load.py --attack``).
Here each search is one job of a small process pool (app/computer/workers.py), its
workers at the lowest priority (``lower_priority``): on a busy machine the rooms' moves go
first. A second request for the same search (the same match, the same table) waits for
the first one's answer instead of searching again, and at most ``queue`` different
searches are waiting or running, and at most twice as many callers wait for them (each
holds a thread of FastAPI's pool, which every plain ``def`` route shares): beyond that
the caller is told to try again (``SearchesBusy``), so a flood of requests costs one
worker and a few threads, not the server. A search that only spares someone a wait later
(``foresee``: Scoundrel's best line as its match is dealt) starts only when none waits or
runs, and takes no place of the queue.

``run`` blocks its caller's thread (a plain ``def`` route runs in FastAPI's thread pool)
without holding the GIL while the worker searches.
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Callable, Hashable
from concurrent.futures import CancelledError, Future
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from app.computer.workers import Workers

T = TypeVar("T")
# What a search needs, read by the first caller only: the function a worker runs (see
# Workers.submit) and its arguments.
Job = Callable[[], tuple[Callable[..., T], tuple[Any, ...]]]


class SearchesBusy(Exception):
    """Too many searches are waiting; nothing was started."""


class SearchFailed(Exception):
    """The worker process died during the search (it is replaced for the next one)."""


class Searches:
    def __init__(self, processes: int, queue: int) -> None:
        self.queue = queue
        self.workers = Workers(processes, initializer=lower_priority)
        self._lock = threading.Lock()
        self._pending: dict[Hashable, Future[Any]] = {}
        self._waiting = 0  # callers in run()
        self._ahead: Hashable = None  # the key of the last search started by foresee()
        self._closed = False

    def run(self, key: Hashable, job: Job[T]) -> T:
        """What the search of ``job()`` answers, computed in a worker process; or the answer
        of the same ``key``'s search already under way, without calling ``job`` (it may
        read the database). Whatever ``job`` raises, every caller of the key gets."""
        with self._lock:
            shared = self._pending.get(key)
            first = shared is None
            queued = len(self._pending) - (self._ahead in self._pending)
            if self._waiting >= 2 * self.queue or (first and queued >= self.queue):
                raise SearchesBusy
            if shared is None:
                shared = self._pending[key] = Future()
            self._waiting += 1
        try:
            if first:
                self._start(key, job, shared)
            result: T = shared.result()  # the future of this key's job
            return result
        except BrokenProcessPool as error:  # the next search starts a new pool
            raise SearchFailed from error
        finally:
            with self._lock:
                self._waiting -= 1

    def foresee(self, key: Hashable, job: Job[T]) -> Future[T] | None:
        """Starts the search of ``job()`` now if no other search waits or runs, else nothing:
        a search that only spares someone a wait later. So at most one runs at a time, it
        takes no place of ``queue``, and a search asked for meanwhile waits for this one
        at most. Its answer is the returned future's; ``run`` with the same key joins it."""
        with self._lock:
            if self._pending or self._closed:
                return None
            shared: Future[T] = Future()
            self._pending[key] = shared
            self._ahead = key
        self._start(key, job, shared)
        return shared

    def _start(self, key: Hashable, job: Job[T], shared: Future[T]) -> None:
        try:
            search, args = job()
            searching = self.workers.submit(search, *args)
        except BaseException as error:
            self._settle(key, shared, error)
        else:
            searching.add_done_callback(lambda done: self._settle(key, shared, done))

    def _settle(self, key: Hashable, shared: Future[T], done: Future[T] | BaseException) -> None:
        """Hands the search's answer (or what failed) to everyone waiting for the key."""
        with self._lock:
            del self._pending[key]
            if key == self._ahead:
                self._ahead = None
        if isinstance(done, BaseException):
            shared.set_exception(done)
        elif done.cancelled():
            shared.set_exception(CancelledError())
        elif (error := done.exception()) is not None:
            shared.set_exception(error)
        else:
            shared.set_result(done.result())

    def close(self) -> None:
        """Drops what waits and ends a search under way (it may take a minute, and the
        server's exit would wait for it)."""
        with self._lock:
            self._closed = True  # no search foreseen from now on starts a new pool
        self.workers.close()


def lower_priority() -> None:
    """A worker's priority: it runs only when no other process wants the CPU where the
    system allows that (Linux: SCHED_IDLE), else at the lowest nice value; a sandbox that
    allows neither leaves it as it is (a worker that failed here would never start)."""
    with contextlib.suppress(AttributeError, OSError):
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
        return
    with contextlib.suppress(OSError):
        os.nice(19)
