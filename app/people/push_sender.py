"""Web Push's sending process: encrypts each notice and posts it to the push service, away
from the server's process, so that no move waits for it.

Encrypting a payload and posting it over HTTP cost the server's process about a millisecond
of CPU per push, a move's worth again (docs/performance.md). The server's ``Notifier``
starts this process at its first delivery (``SenderProcess``), hands it ``Delivery`` jobs
through a queue and hears each one's ``Outcome`` through a pipe. The process holds no
database connection and no state but the VAPID key and one HTTP session (kept-alive
connections to each push service); it sends many deliveries at once on an asyncio loop,
each with a few tries with back-off.

An endpoint is a URL a client gave us (app/push_guard.py): each request first
checks it again, connects only to public addresses (``GuardedResolver``), follows no
redirect, reads no answer's body, and ends by ``PUSH_TIMEOUT_SECONDS`` whatever the push
service does. ``Slots`` keeps what one player or one push service holds in flight to a
share, so that a slow or hostile endpoint delays only its own notices.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import multiprocessing
import os
import queue
import signal
import socket
import time
from collections import Counter, deque
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from multiprocessing.queues import Queue
from typing import Literal
from urllib.parse import urlsplit

import aiohttp
from aiohttp.abc import AbstractResolver, ResolveResult
from py_vapid import Vapid
from pywebpush import WebPusher
from yarl import URL

from app.push_guard import PushEndpoints, RefusedEndpoint, is_public

GONE = {404, 410}  # the push service forgot this subscription: remove it
AT_ONCE = 64  # requests in flight to the push services
# A push service that stalls holds at most three quarters of them: the others keep a
# quarter. FCM carries most notices, and answers in some 100 ms.
PER_SERVICE = 48
# One player holds at most a notice to each of their ten devices (DEVICES_PER_PLAYER), twice.
PER_PLAYER = 20
NICENESS = 10  # below the server's priority (0), above batch work (19)
REFUSED_ADDRESS = "refused address"


@dataclass(frozen=True)
class Delivery:
    """One notice for one device of a player, its payload already in the device's language."""

    number: int
    player: str
    endpoint: str
    p256dh: str
    auth: str
    payload: bytes

    @property
    def service(self) -> str:
        return service_of(self.endpoint)


def service_of(endpoint: str) -> str:
    """The push service of an endpoint, for its share of the slots: scheme, host and port."""
    parts = urlsplit(endpoint)
    return f"{parts.scheme}://{parts.netloc}"


Result = Literal["sent", "gone", "failed"]


@dataclass(frozen=True)
class Outcome:
    number: int
    endpoint: str
    result: Result
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
    endpoints: PushEndpoints


class Refused(Exception):
    """A delivery the sender will not make, or not try again: the message says why."""


class Shares:
    """What each player and each push service holds of some deliveries (those in flight, or
    those not yet answered), against a cap for each."""

    def __init__(self, per_player: int, per_service: int) -> None:
        self.per_player = per_player
        self.per_service = per_service
        self.players: Counter[str] = Counter()
        self.services: Counter[str] = Counter()

    def full(self, player: str, service: str) -> bool:
        return self.players[player] >= self.per_player or self.services[service] >= self.per_service

    def take(self, player: str, service: str) -> None:
        self.players[player] += 1
        self.services[service] += 1

    def give_back(self, player: str, service: str) -> None:
        for counter, key in ((self.players, player), (self.services, service)):
            counter[key] -= 1
            if not counter[key]:
                del counter[key]


class Slots:
    """Which deliveries go now: at most AT_ONCE in flight, PER_SERVICE to one push service
    and PER_PLAYER of one player. A delivery over a cap waits in its own line (one per
    player and push service) while the others' go; the lines take turns."""

    def __init__(self) -> None:
        self.lines: dict[tuple[str, str], deque[Delivery]] = {}  # in their turns' order
        self.in_flight = 0
        self.shares = Shares(PER_PLAYER, PER_SERVICE)

    def wait(self, delivery: Delivery) -> None:
        self.lines.setdefault((delivery.player, delivery.service), deque()).append(delivery)

    def ready(self) -> list[Delivery]:
        """The deliveries to start now (and counted in flight): the first of each line
        whose player and push service have room, line after line, again while any went."""
        going: list[Delivery] = []
        went = True
        while went and self.in_flight < AT_ONCE:
            went = False
            for key in list(self.lines):
                if self.shares.full(*key) or self.in_flight >= AT_ONCE:
                    continue
                line = self.lines.pop(key)
                going.append(line.popleft())
                if line:
                    self.lines[key] = line  # its next waits for the other lines' turns
                self.in_flight += 1
                self.shares.take(*key)
                went = True
        return going

    def done(self, delivery: Delivery) -> None:
        self.in_flight -= 1
        self.shares.give_back(delivery.player, delivery.service)


class RefusedAddress(OSError):
    """A name whose every address is one the sender may not connect to."""


class GuardedResolver(AbstractResolver):
    """The sending process's DNS: ``resolver``'s answers without the addresses that are not
    on the public internet (``is_public``; all are kept for a test origin's host). aiohttp
    connects only to what this returns, so the address connected to is the one checked. An
    IP address in an endpoint never gets here: ``PushEndpoints.checked`` refuses it first."""

    def __init__(self, endpoints: PushEndpoints, resolver: AbstractResolver) -> None:
        self.endpoints = endpoints
        self.resolver = resolver

    async def resolve(
        self, host: str, port: int = 0, family: socket.AddressFamily = socket.AF_INET
    ) -> list[ResolveResult]:
        found = await self.resolver.resolve(host, port, family)
        if self.endpoints.exempt_host(host, port):
            return found
        public = [address for address in found if is_public(address["host"])]
        if not public:
            raise RefusedAddress(f"{REFUSED_ADDRESS}: {host} has no public address")
        return public

    async def close(self) -> None:
        await self.resolver.close()


class Sender:
    """The sending process's loop: reads every delivery from the queue as it comes, and
    starts each once ``Slots`` has room for it. ``resolver`` answers for names beneath the
    guard (aiohttp's own when None; the tests' own DNS)."""

    def __init__(
        self, terms: Terms, outcomes: Connection, resolver: AbstractResolver | None = None
    ) -> None:
        self.terms = terms
        self.outcomes = outcomes
        self.resolver = resolver
        self.vapid = Vapid.from_pem(terms.vapid_pem)
        # The signed VAPID header per push service: (sign again after, header).
        self.headers: dict[str, tuple[float, dict[str, str]]] = {}
        self.slots = Slots()
        self.tasks: set[asyncio.Task[None]] = set()

    async def run(self, jobs: Queue[Delivery | None]) -> None:
        loop = asyncio.get_running_loop()
        resolver = GuardedResolver(self.terms.endpoints, self.resolver or aiohttp.DefaultResolver())
        connector = aiohttp.TCPConnector(resolver=resolver)
        async with aiohttp.ClientSession(connector=connector) as session:
            while (delivery := await loop.run_in_executor(None, next_job, jobs)) is not None:
                self.slots.wait(delivery)
                self.start(session)
            deadline = loop.time() + self.terms.timeout_seconds
            while self.tasks and (left := deadline - loop.time()) > 0:
                await asyncio.wait(self.tasks, timeout=left)
        await resolver.close()  # the connector leaves a resolver it was given open

    def start(self, session: aiohttp.ClientSession) -> None:
        for delivery in self.slots.ready():
            task = asyncio.get_running_loop().create_task(self.deliver(session, delivery))
            self.tasks.add(task)
            task.add_done_callback(functools.partial(self.finished, session, delivery))

    def finished(
        self, session: aiohttp.ClientSession, delivery: Delivery, task: asyncio.Task[None]
    ) -> None:
        self.tasks.discard(task)
        self.slots.done(delivery)
        if not session.closed:
            self.start(session)

    async def deliver(self, session: aiohttp.ClientSession, delivery: Delivery) -> None:
        result, failure = await self.tries(session, delivery)
        self.tell(Outcome(delivery.number, delivery.endpoint, result, failure))

    async def tries(self, session: aiohttp.ClientSession, delivery: Delivery) -> tuple[Result, str]:
        """The delivery's result after as many tries as it takes, and for "failed" why."""
        failure = ""
        for attempt in range(1, self.terms.tries + 1):
            if attempt > 1:
                await asyncio.sleep(self.terms.retry_seconds * 2 ** (attempt - 2))
            try:
                status = await self.post(session, delivery)
            except Refused as refused:
                return "failed", str(refused)
            except Exception as error:  # timeouts, refused connections, broken keys
                failure = type(error).__name__
                continue
            if status < 300:
                return "sent", ""
            if status in GONE:
                return "gone", ""
            if status < 400:
                return "failed", f"{status}: a redirect, not followed"
            failure = str(status)
        return "failed", failure

    async def post(self, session: aiohttp.ClientSession, delivery: Delivery) -> int:
        """The push service's status for one request, by ``timeout_seconds`` from the
        connection's start to the answer's head (its body is never read)."""
        try:
            url = self.terms.endpoints.checked(delivery.endpoint)
        except RefusedEndpoint as refused:
            raise Refused(str(refused)) from None
        keys = {"p256dh": delivery.p256dh, "auth": delivery.auth}
        body = WebPusher({"endpoint": delivery.endpoint, "keys": keys}).encode(delivery.payload)
        headers = {
            **self.signed(url),
            "TTL": str(self.terms.ttl_seconds),
            "Content-Encoding": "aes128gcm",
        }
        exempt = self.terms.endpoints.exempt(url)  # a test's, its certificate self-signed
        try:
            async with (
                asyncio.timeout(self.terms.timeout_seconds),
                session.post(
                    url, data=body["body"], headers=headers, allow_redirects=False, ssl=not exempt
                ) as answer,
            ):
                return answer.status
        except aiohttp.ClientConnectorError as error:
            if isinstance(error.__cause__, RefusedAddress):
                raise Refused(str(error.__cause__)) from None
            raise

    def signed(self, url: URL) -> dict[str, str]:
        """The VAPID header for the endpoint's push service: signed once an hour per
        service (valid 12 hours), not for every push (a third of a push's CPU)."""
        audience = str(url.origin())
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
