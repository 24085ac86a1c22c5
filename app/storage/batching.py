"""Group commit for the action path, off the event loop, for a database over the network
(PostgreSQL; SQLite's local commit runs on the loop: app/storage/repositories.py).

One thread of its own writes every action the event loop hands it: what queued while the
previous commit was on its way goes into the next transaction together, so a busy
process pays one round trip (PostgreSQL) and one commit for many moves instead of one
each, and the loop serves other rooms while the driver writes (it lets go of the GIL). Each
write's future is answered only after its commit (stored, then published). The queue
needs no bound of its own: a room's lock lets each room wait for at most one write.
"""

from __future__ import annotations

import asyncio
import contextlib
import queue
import threading
from collections.abc import Callable, Sequence
from typing import Generic, TypeVar

W = TypeVar("W")

MAX_BATCH = 64  # writes per transaction

# Writes a batch in one transaction; for each write, None (stored) or the exception its
# caller gets (for example the ply was taken). Raising fails the whole batch.
WriteBatch = Callable[[Sequence[W]], list[Exception | None]]
Waiting = tuple[W, asyncio.Future[None], asyncio.AbstractEventLoop]
Settled = list[tuple[asyncio.Future[None], Exception | None]]


class BatchWriter(Generic[W]):
    def __init__(self, write_batch: WriteBatch[W], name: str = "action-writer") -> None:
        self._write_batch = write_batch
        self._queue: queue.SimpleQueue[Waiting[W] | None] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()

    async def write(self, item: W) -> None:
        """Returns once the item is committed; raises what its write raised."""
        loop = asyncio.get_running_loop()
        done = loop.create_future()
        self._queue.put((item, done, loop))
        await done

    def close(self) -> None:
        """Write what is queued, then stop the thread."""
        self._queue.put(None)
        self._thread.join()

    def _run(self) -> None:
        while (first := self._queue.get()) is not None:
            batch = [first]
            stop = False
            while len(batch) < MAX_BATCH and not self._queue.empty():
                waiting = self._queue.get_nowait()
                if waiting is None:
                    stop = True
                    break
                batch.append(waiting)
            self._answer(batch)
            if stop:
                return

    def _answer(self, batch: list[Waiting[W]]) -> None:
        try:
            outcomes = self._write_batch([item for item, _, _ in batch])
        except Exception as error:
            outcomes = [error] * len(batch)
        by_loop: dict[asyncio.AbstractEventLoop, Settled] = {}
        for (_, done, loop), outcome in zip(batch, outcomes, strict=True):
            by_loop.setdefault(loop, []).append((done, outcome))
        for loop, settled in by_loop.items():
            with contextlib.suppress(RuntimeError):  # that loop is closed: nobody waits
                loop.call_soon_threadsafe(_settle, settled)


def _settle(settled: Settled) -> None:
    for done, outcome in settled:
        if done.cancelled():
            continue
        if outcome is None:
            done.set_result(None)
        else:
            done.set_exception(outcome)
