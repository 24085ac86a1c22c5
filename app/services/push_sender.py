"""Web Push's sending process: encrypts each notice and posts it to the push service, away
from the server's process, so that no move waits for it.

Encrypting a payload and posting it over HTTP cost the server's process about a millisecond
of CPU per push, a move's worth again (docs/performance.md). The server's ``Notifier``
starts this process at its first delivery (``SenderProcess``), hands it ``Delivery`` jobs
through a queue and hears each one's ``Outcome`` through a pipe. The process holds no
database connection and no state but the VAPID key and one HTTP session (kept-alive
connections to each push service); it sends many deliveries at once on an asyncio loop,
each with a timeout and a few tries with back-off.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import queue
import signal
import time
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from multiprocessing.queues import Queue
from typing import Literal
from urllib.parse import urlsplit

import aiohttp
from py_vapid import Vapid
from pywebpush import WebPushException, webpush_async

GONE = {404, 410}  # the push service forgot this subscription: remove it
AT_ONCE = 64  # requests in flight to the push services
NICENESS = 10  # below the server's priority (0), above batch work (19)


@dataclass(frozen=True)
class Delivery:
    """One notice for one device, its payload already in the device's language."""

    number: int
    endpoint: str
    p256dh: str
    auth: str
    payload: bytes


@dataclass(frozen=True)
class Outcome:
    number: int
    endpoint: str
    result: Literal["sent", "gone", "failed"]
    failure: str = ""  # for "failed": the last status or error


@dataclass(frozen=True)
class Terms:
    """How the sending process sends: from the settings (``PUSH_*``) and the VAPID key."""

    vapid_pem: bytes
    contact: str
    tries: int
    retry_seconds: float
    timeout_seconds: float
    ttl_seconds: int


class Sender:
    """The sending process's loop: a delivery at a time from the queue, many in flight."""

    def __init__(self, terms: Terms, outcomes: Connection) -> None:
        self.terms = terms
        self.outcomes = outcomes
        self.vapid = Vapid.from_pem(terms.vapid_pem)
        # The signed VAPID header per push service: (sign again after, header).
        self.headers: dict[str, tuple[float, dict[str, str]]] = {}
        self.in_flight = asyncio.Semaphore(AT_ONCE)

    async def run(self, jobs: Queue[Delivery | None]) -> None:
        loop = asyncio.get_running_loop()
        tasks: set[asyncio.Task[None]] = set()
        timeout = aiohttp.ClientTimeout(total=self.terms.timeout_seconds)
        async with aiohttp.ClientSession(timeout=timeout) as session:
            while (delivery := await loop.run_in_executor(None, next_job, jobs)) is not None:
                await self.in_flight.acquire()
                task = loop.create_task(self.deliver(session, delivery))
                tasks.add(task)
                task.add_done_callback(tasks.discard)
                task.add_done_callback(lambda _task: self.in_flight.release())
            if tasks:
                await asyncio.wait(tasks, timeout=self.terms.timeout_seconds)

    async def deliver(self, session: aiohttp.ClientSession, delivery: Delivery) -> None:
        failure = ""
        for attempt in range(1, self.terms.tries + 1):
            if attempt > 1:
                await asyncio.sleep(self.terms.retry_seconds * 2 ** (attempt - 2))
            try:
                await self.post(session, delivery)
                return self.tell(Outcome(delivery.number, delivery.endpoint, "sent"))
            except WebPushException as error:
                status = getattr(error.response, "status", None)
                if status in GONE:
                    return self.tell(Outcome(delivery.number, delivery.endpoint, "gone"))
                failure = str(status)
            except Exception as error:  # timeouts, refused connections
                failure = type(error).__name__
        self.tell(Outcome(delivery.number, delivery.endpoint, "failed", failure))

    async def post(self, session: aiohttp.ClientSession, delivery: Delivery) -> None:
        await webpush_async(
            {
                "endpoint": delivery.endpoint,
                "keys": {"p256dh": delivery.p256dh, "auth": delivery.auth},
            },
            data=delivery.payload.decode(),
            headers=self.signed(delivery.endpoint),
            ttl=self.terms.ttl_seconds,
            aiohttp_session=session,
        )

    def signed(self, endpoint: str) -> dict[str, str]:
        """The VAPID header for the endpoint's push service: signed once an hour per
        service (valid 12 hours), not for every push (a third of a push's CPU)."""
        parts = urlsplit(endpoint)
        audience = f"{parts.scheme}://{parts.netloc}"
        now = time.time()
        cached = self.headers.get(audience)
        if cached is None or cached[0] < now:
            claims = {"sub": self.terms.contact, "aud": audience, "exp": int(now) + 43200}
            cached = (now + 3600, dict(self.vapid.sign(claims)))
            self.headers[audience] = cached
        return dict(cached[1])

    def tell(self, outcome: Outcome) -> None:
        with contextlib.suppress(OSError):  # the server is gone: nobody to tell
            self.outcomes.send(outcome)


def next_job(jobs: Queue[Delivery | None]) -> Delivery | None:
    """The next delivery; None to stop, or when the server's process is gone."""
    parent = multiprocessing.parent_process()
    while parent is None or parent.is_alive():
        with contextlib.suppress(queue.Empty):
            return jobs.get(timeout=1)
    return None


def serve(terms: Terms, jobs: Queue[Delivery | None], outcomes: Connection) -> None:
    """The sending process's body. Ctrl-C in a terminal reaches the whole process group:
    the server stops this process itself (a None job), after its last deliveries. A notice
    may wait some milliseconds, a move should not: on a busy machine the scheduler gives
    the server's process the CPU first."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    os.nice(NICENESS)
    asyncio.run(Sender(terms, outcomes).run(jobs))


class SenderProcess:
    """The server's side: starts the sending process when first needed (again if it died),
    queues deliveries without waiting, and calls ``on_outcome`` on the event loop for each,
    a "failed" one for those the process took with it if it ended."""

    def __init__(self, terms: Terms, on_outcome: Callable[[Outcome], None]) -> None:
        self.terms = terms
        self.on_outcome = on_outcome
        self.context = multiprocessing.get_context("spawn")  # no fork of a threaded process
        self.process: BaseProcess | None = None
        self.jobs: Queue[Delivery | None] | None = None
        self.outcomes: Connection | None = None
        self.pending: dict[int, str] = {}  # the deliveries without an outcome yet

    def send(self, delivery: Delivery) -> None:
        if self.process is None:
            self._start()
        assert self.jobs is not None
        self.pending[delivery.number] = delivery.endpoint
        self.jobs.put_nowait(delivery)

    def _start(self) -> None:
        self.jobs = self.context.Queue()
        self.outcomes, outcomes_end = self.context.Pipe(duplex=False)
        self.process = self.context.Process(
            target=serve,
            args=(self.terms, self.jobs, outcomes_end),
            name="push-sender",
            daemon=True,
        )
        self.process.start()
        outcomes_end.close()  # ours closed: reading sees the end when the process ends
        asyncio.get_running_loop().add_reader(self.outcomes.fileno(), self._read)

    def _read(self) -> None:
        if self.outcomes is None:  # the end was read already
            return
        try:
            while self.outcomes.poll():
                outcome: Outcome = self.outcomes.recv()
                self.pending.pop(outcome.number, None)
                self.on_outcome(outcome)
        except (EOFError, OSError):
            self._forget()

    def _forget(self) -> None:
        """The process ended: the next delivery starts another."""
        if self.outcomes is not None:
            asyncio.get_running_loop().remove_reader(self.outcomes.fileno())
            self.outcomes.close()
        if self.jobs is not None:
            self.jobs.close()
        self.process = self.jobs = self.outcomes = None
        lost, self.pending = self.pending, {}
        for number, endpoint in lost.items():
            self.on_outcome(Outcome(number, endpoint, "failed", "the sending process ended"))

    async def stop(self) -> None:
        """The last deliveries sent (at most one timeout's wait), then the process ends."""
        process, jobs = self.process, self.jobs
        if process is None or jobs is None:
            return
        jobs.put_nowait(None)
        deadline = time.monotonic() + self.terms.timeout_seconds + 1
        while process.is_alive() and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        if process.is_alive():
            process.kill()
        process.join(1)
        self._read()  # the last outcomes, then the end
        if self.process is process:
            self._forget()
