"""Caps that keep one client from crowding out the others, all counted per process.

- ``ConnectionCaps``: open websockets per client address and per room; an address whose
  socket was closed for flooding, or BAD_TEXT_SOCKETS of whose sockets were closed for
  text that is not UTF-8 within BAD_TEXT_WINDOW_SECONDS, opens none for
  FLOOD_PENALTY_SECONDS. A refused socket is refused in its handshake (HTTP 429), before
  it costs a websocket.
- ``RoomCreationLimit``: rooms one client address may create per minute.
- ``RefusalLog``: a connection's refusals are logged once per interval, with a count.
- ``TokenBucket``: the messages one connection may send per second.
- ``TokenBuckets``: a rate per key (the chat's lines per player), idle keys forgotten.

The client address is what uvicorn reports (``websocket.client.host``).
"""

from __future__ import annotations

import time
from collections import Counter, deque
from collections.abc import Callable
from dataclasses import dataclass

from app.protocol import ErrorCode
from app.settings import Settings

# A connection's refusals are logged at most once per this many seconds.
REFUSAL_LOG_SECONDS = 10.0
# After a socket was closed for flooding, its address opens no socket for this long (each
# new socket of a flood would cost the server a websocket and a rate's worth of junk).
FLOOD_PENALTY_SECONDS = 10.0
# A text frame that is not UTF-8 comes from a broken client more often than from an attack,
# and many people may share an address (a household's NAT): one such socket costs the
# address nothing, this many within the window cost it the flood's penalty.
BAD_TEXT_SOCKETS = 3
BAD_TEXT_WINDOW_SECONDS = 60.0
# Addresses remembered before the ones whose time is over are forgotten.
REMEMBERED_ADDRESSES = 10_000


@dataclass(frozen=True)
class Admission:
    """Why a socket is refused (in its handshake): its error, and whether to log it."""

    code: ErrorCode
    message: str
    log: bool = True


class ConnectionCaps:
    """Open websockets per client address and per room."""

    def __init__(self, settings: Settings, clock: Callable[[], float] = time.monotonic) -> None:
        self.per_address = settings.max_connections_per_address
        self.per_room = settings.max_connections_per_room
        self.clock = clock
        self.addresses: Counter[str] = Counter()
        self.rooms: Counter[str] = Counter()
        self.penalized: dict[str, tuple[float, str]] = {}  # address → until when, and why
        self.refused_while_penalized: Counter[str] = Counter()
        self.bad_text: dict[str, deque[float]] = {}  # address → when its sockets sent it

    def admit(self, address: str, room_id: str) -> Admission | None:
        """Count the connection in; or say why not."""
        penalty = self.penalized.get(address)
        if penalty is not None:
            until, why = penalty
            if self.clock() < until:
                self.refused_while_penalized[address] += 1
                message = f"a socket from here {why}; wait {FLOOD_PENALTY_SECONDS:.0f} s"
                # Logged once per penalty, not once per attempt.
                log = self.refused_while_penalized[address] == 1
                return Admission("rate_limited", message, log)
            del self.penalized[address]
            self.refused_while_penalized.pop(address, None)
        if self.addresses[address] >= self.per_address:
            message = f"at most {self.per_address} open sockets per address"
            return Admission("too_many_connections", message)
        if self.rooms[room_id] >= self.per_room:
            message = f"at most {self.per_room} open sockets per room"
            return Admission("too_many_connections", message)
        self.addresses[address] += 1
        self.rooms[room_id] += 1
        return None

    def penalize(self, address: str, why: str = "sent too fast") -> None:
        """This address flooded: it opens no socket for FLOOD_PENALTY_SECONDS."""
        now = self.clock()
        if len(self.penalized) > REMEMBERED_ADDRESSES:
            self.penalized = {a: p for a, p in self.penalized.items() if p[0] > now}
            self.refused_while_penalized = Counter(
                {a: n for a, n in self.refused_while_penalized.items() if a in self.penalized}
            )
        self.penalized[address] = (now + FLOOD_PENALTY_SECONDS, why)
        self.refused_while_penalized.pop(address, None)

    def sent_bad_text(self, address: str) -> None:
        """A socket of this address was closed for text that is not UTF-8: the address is
        penalized once BAD_TEXT_SOCKETS of them came within BAD_TEXT_WINDOW_SECONDS."""
        now = self.clock()
        if len(self.bad_text) > REMEMBERED_ADDRESSES:
            self.bad_text = {
                a: t for a, t in self.bad_text.items() if t[-1] > now - BAD_TEXT_WINDOW_SECONDS
            }
        times = self.bad_text.setdefault(address, deque())
        while times and times[0] <= now - BAD_TEXT_WINDOW_SECONDS:
            times.popleft()
        times.append(now)
        if len(times) >= BAD_TEXT_SOCKETS:
            del self.bad_text[address]
            self.penalize(address, "sent text that is not UTF-8 again and again")

    def release(self, address: str, room_id: str) -> None:
        for counter, key in ((self.addresses, address), (self.rooms, room_id)):
            counter[key] -= 1
            if counter[key] <= 0:
                del counter[key]


class RoomCreationLimit:
    """At most ``per_minute`` rooms per client address in any 60 seconds."""

    def __init__(self, per_minute: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.per_minute = per_minute
        self.clock = clock
        self.created: dict[str, deque[float]] = {}

    def take(self, address: str) -> bool:
        now = self.clock()
        times = self.created.setdefault(address, deque())
        while times and times[0] <= now - 60.0:
            times.popleft()
        if len(times) >= self.per_minute:
            return False
        times.append(now)
        if len(self.created) > 10_000:  # forget addresses that created nothing for a minute
            for key in [k for k, v in self.created.items() if not v or v[-1] <= now - 60.0]:
                del self.created[key]
        return True


class RefusalLog:
    """Whether to log a connection's refusal now: the first one, then one per interval with
    the number of refusals since the last line (a flood writes one line, not thousands)."""

    def __init__(
        self, seconds: float = REFUSAL_LOG_SECONDS, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.seconds = seconds
        self.clock = clock
        self.logged_at: float | None = None
        self.unlogged = 0

    def note(self) -> int | None:
        """Count one refusal; return how many to report now, or None to stay quiet."""
        self.unlogged += 1
        now = self.clock()
        if self.logged_at is not None and now - self.logged_at < self.seconds:
            return None
        count, self.unlogged, self.logged_at = self.unlogged, 0, now
        return count

    def flush(self) -> int:
        """Refusals not reported yet (when the connection ends)."""
        count, self.unlogged = self.unlogged, 0
        return count


class TokenBucket:
    """A per-connection message rate: ``rate`` per second, bursts up to one second's worth
    (or ``burst``)."""

    def __init__(
        self,
        rate: float,
        clock: Callable[[], float] = time.monotonic,
        burst: float | None = None,
    ) -> None:
        self.rate = rate
        self.capacity = burst if burst is not None else max(rate, 1.0)
        self.tokens = self.capacity
        self.clock = clock
        self.updated = clock()

    def take(self) -> bool:
        now = self.clock()
        self.tokens = min(self.capacity, self.tokens + (now - self.updated) * self.rate)
        self.updated = now
        if self.tokens < 1.0:
            return False
        self.tokens -= 1.0
        return True


class TokenBuckets:
    """A TokenBucket per key, made at the key's first message. A bucket idle long enough
    to be full again holds nothing a new one would not: such buckets are forgotten (once
    per refill time), so only the keys heard from lately take memory."""

    def __init__(
        self, rate: float, burst: float, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.rate = rate
        self.burst = burst
        self.clock = clock
        self.refill_seconds = burst / rate  # an empty bucket is full again after this
        self.buckets: dict[str, TokenBucket] = {}
        self.swept = clock()

    def take(self, key: str) -> bool:
        now = self.clock()
        if now - self.swept >= self.refill_seconds:
            self._forget_full(now)
        bucket = self.buckets.get(key)
        if bucket is None:
            bucket = self.buckets[key] = TokenBucket(self.rate, self.clock, self.burst)
        return bucket.take()

    def _forget_full(self, now: float) -> None:
        self.buckets = {
            key: bucket
            for key, bucket in self.buckets.items()
            if now - bucket.updated < self.refill_seconds
        }
        self.swept = now
