"""Limits per client: sockets per address and per room, rooms per minute, refusals logged
once per interval, and the outgoing queue that never lets a slow reader hold anyone up."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Iterator
from contextlib import ExitStack
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketDenialResponse
from starlette.websockets import WebSocket, WebSocketDisconnect
from uvicorn.config import Config
from uvicorn.server import ServerState

from app.connections import SocketConnection
from app.limits import (
    FLOOD_PENALTY_SECONDS,
    ConnectionCaps,
    RefusalLog,
    RoomCreationLimit,
    TokenBucket,
    TokenBuckets,
)
from app.main import create_app
from app.messaging import LocalBroadcaster
from app.protocol import CLOSE_RATE_LIMITED, CLOSE_TOO_SLOW
from app.settings import Settings
from app.transport import SLICE_BYTES, PacedWebSocketProtocol
from tests.app.tables import Table


@pytest.fixture
def capped(settings: Settings) -> Iterator[Table]:
    limited = settings.model_copy(
        update={
            "max_connections_per_address": 3,
            "max_connections_per_room": 2,
            "rooms_per_address_per_minute": 3,
        }
    )
    with TestClient(create_app(limited)) as client:
        yield Table(client)


def refused_socket(table: Table, room_id: str) -> tuple[int, str]:
    """A socket refused in its handshake: the HTTP status and the error code."""
    with (
        pytest.raises(WebSocketDenialResponse) as refused,
        table.client.websocket_connect(f"/ws/rooms/{room_id}"),
    ):
        pass
    return refused.value.status_code, refused.value.json()["detail"]["code"]


def test_a_room_takes_only_so_many_sockets_spectators_included(capped: Table) -> None:
    room_id, other_room = capped.create_room("scoundrel"), capped.create_room("scoundrel")
    with ExitStack() as stack:
        for _ in range(2):
            stack.enter_context(capped.socket(room_id))
        assert refused_socket(capped, room_id) == (429, "too_many_connections")
        with capped.socket(other_room) as elsewhere:  # other rooms are not affected
            assert elsewhere.state["room_id"] == other_room
    with capped.socket(room_id) as again:  # closed sockets count no more
        assert again.state["room_id"] == room_id


def test_one_address_opens_only_so_many_sockets(capped: Table) -> None:
    rooms = [capped.create_room("scoundrel") for _ in range(3)]
    with ExitStack() as stack:
        for room_id in rooms:  # TestClient's sockets all come from one address
            stack.enter_context(capped.socket(room_id))
        assert refused_socket(capped, rooms[0]) == (429, "too_many_connections")


def test_one_address_creates_only_so_many_rooms_per_minute(capped: Table) -> None:
    for _ in range(3):
        capped.create_room("scoundrel")
    response = capped.client.post("/api/rooms", json={"game": "scoundrel"})
    assert response.status_code == 429
    assert response.json()["detail"]["code"] == "too_many_rooms"


def test_room_creation_is_counted_over_a_sliding_minute() -> None:
    now = [0.0]
    limit = RoomCreationLimit(2, clock=lambda: now[0])
    assert limit.take("a") and limit.take("a") and not limit.take("a")
    assert limit.take("b")
    now[0] = 59.0
    assert not limit.take("a")
    now[0] = 60.5
    assert limit.take("a")


def test_a_rate_per_key_forgets_the_keys_idle_long_enough_to_be_full_again() -> None:
    """The chat's rate per player: a thousand writers take a thousand buckets only while
    they write; a bucket still filling up is kept (forgetting it would restore the flood)."""
    now = [0.0]
    rates = TokenBuckets(0.5, burst=5, clock=lambda: now[0])  # full again after 10 s
    for writer in range(1000):
        assert rates.take(f"player {writer}")
    now[0] = 5.0
    assert [rates.take("flooder") for _ in range(6)] == [True] * 5 + [False]
    now[0] = 10.0
    rates.take("late")
    assert set(rates.buckets) == {"flooder", "late"}
    # Kept with what it refilled (2.5 lines), not a fresh allowance of 5:
    assert [rates.take("flooder") for _ in range(3)] == [True, True, False]
    now[0] = 30.0
    rates.take("new")
    assert set(rates.buckets) == {"new"}


def test_refusals_are_logged_once_per_interval_with_a_count(
    table: Table, caplog: pytest.LogCaptureFixture
) -> None:
    room_id = table.create_room("scoundrel")
    with caplog.at_level(logging.INFO, logger="app.routes.ws"):
        with table.socket(room_id) as watcher:
            for _ in range(30):
                watcher.send("junk")
            for _ in range(30):
                assert watcher.error()["code"] == "malformed"
    lines = [r for r in caplog.records if getattr(r, "code", None) == "malformed"]
    assert [line.count for line in lines] == [1]  # type: ignore[attr-defined]
    (summary,) = [r for r in caplog.records if "more messages" in r.getMessage()]
    assert summary.count == 29  # type: ignore[attr-defined]


def test_a_refusal_log_reports_the_count_of_each_interval() -> None:
    now = [0.0]
    log = RefusalLog(seconds=10, clock=lambda: now[0])
    assert log.note() == 1
    assert [log.note() for _ in range(5)] == [None] * 5
    now[0] = 10.0
    assert log.note() == 6
    assert log.flush() == 0
    log.note()
    assert log.flush() == 1


class StuckSocket:
    """A websocket whose writes never complete (a peer that stopped reading)."""

    def __init__(self) -> None:
        self.sent: list[str] = []
        self.closed: tuple[int, str] | None = None

    async def send_text(self, text: str) -> None:
        self.sent.append(text)
        await asyncio.Event().wait()

    async def close(self, code: int, reason: str) -> None:
        self.closed = (code, reason)


def stuck_connection(queue_limit: int = 8, send_timeout: float = 0.2) -> SocketConnection:
    return SocketConnection(
        StuckSocket(),  # type: ignore[arg-type]
        None,
        TokenBucket(10),
        address="127.0.0.1",
        queue_limit=queue_limit,
        send_timeout=send_timeout,
    )


def test_fan_out_to_a_stuck_socket_returns_at_once_and_closes_it() -> None:
    async def scenario() -> None:
        broadcaster = LocalBroadcaster()
        stuck = stuck_connection()
        broadcaster.subscribe("room", stuck)
        loop = asyncio.get_running_loop()
        started = loop.time()
        for number in range(5):
            broadcaster.publish("room", {None: f"state {number}"})  # no await: it queues
        assert loop.time() - started < 0.01
        await asyncio.sleep(0.5)  # the writer's deadline passes
        assert stuck.closing
        await stuck.stop()

    asyncio.run(scenario())


def test_a_connection_whose_queue_overflows_is_closed_as_too_slow() -> None:
    async def scenario() -> None:
        connection = stuck_connection(queue_limit=8, send_timeout=60)
        for number in range(9):
            connection.send(f"message {number}")
        assert connection.closing
        await asyncio.sleep(0.05)
        socket: StuckSocket = connection.websocket  # type: ignore[assignment]
        assert socket.sent == [] and socket.closed == (CLOSE_TOO_SLOW, socket.closed[1])
        await connection.stop()

    asyncio.run(scenario())


def test_an_address_that_flooded_waits_before_its_next_socket(settings: Settings) -> None:
    slow = settings.model_copy(update={"messages_per_second": 0.001})  # a burst of one
    with TestClient(create_app(slow)) as client:
        table = Table(client)
        room_id = table.create_room("scoundrel")
        with table.socket(room_id) as flooder:
            flooder.send({"type": "ping"})
            flooder.send({"type": "ping"})
            assert flooder.next("pong") and flooder.error()["code"] == "rate_limited"
            with pytest.raises(WebSocketDisconnect) as closed:
                flooder.receive()
        assert closed.value.code == CLOSE_RATE_LIMITED
        deadline = time.monotonic() + 5
        refused = None
        while refused is None and time.monotonic() < deadline:  # once its handler has ended
            try:
                with client.websocket_connect(f"/ws/rooms/{room_id}"):
                    time.sleep(0.05)
            except WebSocketDenialResponse as denied:  # refused in the handshake
                refused = denied
        assert refused is not None and refused.status_code == 429
        assert refused.json()["detail"]["code"] == "rate_limited"


def test_a_penalty_ends_after_its_time() -> None:
    now = [0.0]
    caps = ConnectionCaps(Settings(_env_file=None), clock=lambda: now[0])  # type: ignore[call-arg]
    caps.penalize("a")
    refused = caps.admit("a", "room")
    assert refused is not None and (refused.code, refused.log) == ("rate_limited", True)
    again = caps.admit("a", "room")
    assert again is not None and not again.log  # logged once per penalty
    assert caps.admit("b", "room") is None
    now[0] = FLOOD_PENALTY_SECONDS + 0.1
    assert caps.admit("a", "room") is None


def test_text_that_is_no_utf8_refuses_an_address_only_when_repeated_within_a_minute() -> None:
    now = [0.0]
    caps = ConnectionCaps(Settings(_env_file=None), clock=lambda: now[0])  # type: ignore[call-arg]
    for second in (0.0, 30.0, 61.0):  # the first is out of the window by the third
        now[0] = second
        caps.sent_bad_text("a")
        assert caps.admit("a", "room") is None
        caps.release("a", "room")
    now[0] = 62.0
    caps.sent_bad_text("a")  # the third within a minute
    refused = caps.admit("a", "room")
    assert refused is not None and refused.code == "rate_limited"
    assert "not UTF-8" in refused.message
    assert caps.admit("b", "room") is None
    now[0] = 62.0 + FLOOD_PENALTY_SECONDS + 0.1
    assert caps.admit("a", "room") is None


class Transport(asyncio.Transport):
    """A socket's transport as uvicorn's protocol uses it, recording what it is told."""

    def __init__(self) -> None:
        super().__init__()
        self.reading, self.written, self.closing = True, b"", False

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return {"sockname": ("127.0.0.1", 8000), "peername": ("127.0.0.1", 5000)}.get(name)

    def write(self, data: Any) -> None:
        self.written += bytes(data)

    def pause_reading(self) -> None:
        self.reading = False

    def resume_reading(self) -> None:
        self.reading = True

    def is_closing(self) -> bool:
        return self.closing

    def close(self) -> None:
        self.closing = True


def test_a_flood_is_parsed_only_as_fast_as_the_server_reads_it() -> None:
    async def never_reads(scope: Any, receive: Any, send: Any) -> None:
        await receive()
        await send({"type": "websocket.accept"})
        await asyncio.sleep(60)

    async def scenario() -> None:
        config = Config(app=never_reads, ws=PacedWebSocketProtocol, proxy_headers=False)
        config.load()
        protocol = PacedWebSocketProtocol(config, ServerState(), {})
        transport = Transport()
        protocol.connection_made(transport)
        request = (
            b"GET /ws/rooms/r HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n"
            b"Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
            b"Sec-WebSocket-Version: 13\r\n\r\n"
        )
        protocol.data_received(request)
        await asyncio.sleep(0.01)  # the app accepts
        assert transport.written.startswith(b"HTTP/1.1 101")
        junk = b"\x81\x81\0\0\0\0x" * 20_000  # one read of a flood: 20,000 one-byte frames
        protocol.data_received(junk)
        waiting = protocol.queue.qsize()
        assert 0 < waiting <= SLICE_BYTES // 7 and not transport.reading
        for _ in range(waiting):  # the app reads them: the next slice is parsed, no more
            assert (await protocol.receive())["text"] == "x"
        assert 0 < protocol.queue.qsize() <= SLICE_BYTES // 7 and not transport.reading
        protocol.connection_lost(None)
        for task in protocol.tasks:
            task.cancel()

    asyncio.run(scenario())


def test_a_text_goes_out_at_once_unless_an_earlier_one_waits() -> None:
    async def scenario() -> None:
        accepted: asyncio.Future[WebSocket] = asyncio.get_running_loop().create_future()

        async def app(scope: Any, receive: Any, send: Any) -> None:
            websocket = WebSocket(scope, receive, send)
            await websocket.accept()
            accepted.set_result(websocket)
            await asyncio.sleep(60)

        config = Config(app=app, ws=PacedWebSocketProtocol, proxy_headers=False)
        config.load()
        protocol = PacedWebSocketProtocol(config, ServerState(), {})
        transport = Transport()
        protocol.connection_made(transport)
        protocol.data_received(
            b"GET /ws/rooms/r HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n"
            b"Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
            b"Sec-WebSocket-Version: 13\r\n\r\n"
        )
        connection = SocketConnection(
            await asyncio.wait_for(accepted, 1),
            None,
            TokenBucket(10),
            address="127.0.0.1",
            queue_limit=8,
            send_timeout=5,
        )
        transport.written = b""
        connection.send("a")
        assert transport.written == b"\x81\x01a"  # written before anything awaited
        protocol.pause_writing()  # the peer reads slowly: the transport's buffer is full
        connection.send("b")
        connection.send("c")
        protocol.resume_writing()
        connection.send("d")  # writable again, but b and c wait: d may not overtake them
        assert transport.written == b"\x81\x01a"
        await asyncio.sleep(0.01)
        assert transport.written == b"\x81\x01a\x81\x01b\x81\x01c\x81\x01d"
        connection.close(1000, "done")
        await connection.stop()
        protocol.connection_lost(None)
        for task in protocol.tasks:
            task.cancel()

    asyncio.run(scenario())
