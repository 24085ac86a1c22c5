"""No client can hold up anyone else: a socket that never reads, and floods of junk.

Each test starts the real server (``python -m app``) on 127.0.0.1 with a fresh SQLite file
and attacks it from raw sockets, as an outside client author could. Everything is bounded
in time: every socket has a timeout, every loop a deadline.
"""

from __future__ import annotations

import base64
import json
import os
import socket
import struct
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from app.protocol import CLOSE_RATE_LIMITED, CLOSE_RESTART, CLOSE_TOO_SLOW
from tests.server import AppProcess, free_port

# Figures a healthy server meets with a wide margin on a busy 2-core machine; the defects
# took seconds (a frozen room never answered; a flood delayed other rooms 1.4 to 3.1 s).
MOVE_SECONDS = 1.0
SHUTDOWN_SECONDS = 8.0


ServerFactory = Callable[..., AppProcess]


@pytest.fixture
def start_server(tmp_path: Path) -> Iterator[ServerFactory]:
    servers: list[AppProcess] = []

    def start(**settings: str) -> AppProcess:
        port = free_port()
        env = {
            **{k: v for k, v in os.environ.items() if not k.startswith(("KR_",))},
            "DATABASE_URL": f"sqlite:///{tmp_path}/kartenrunde-{port}.db",
            "SECRET_KEY": "slow-client-tests-" + "s" * 32,
            "ENVIRONMENT": "development",
            "LOG_LEVEL": "WARNING",
            **settings,
        }
        server = AppProcess(port, env, tmp_path / f"server-{port}.log")
        servers.append(server)
        return server.start()

    yield start
    for server in servers:
        server.stop(timeout=10)


# Players


def seated_room(base_url: str, game: str = "expeditionen") -> tuple[str, list[str]]:
    room_id = httpx.post(f"{base_url}/api/rooms", json={"game": game}).json()["room_id"]
    cookies = []
    for name in ("Ada", "Bo"):
        joined = httpx.post(f"{base_url}/api/rooms/{room_id}/join", json={"name": name})
        cookies.append(joined.cookies["kr_player"])
    return room_id, cookies


class Player:
    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.state: dict[str, Any] = self.next_state(5)

    def next_state(self, timeout: float) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            message = json.loads(self.ws.recv(timeout=max(0.01, deadline - time.monotonic())))
            assert message["type"] != "error", message
            if message["type"] == "state":
                self.state = message
                return message

    def wait_version(self, version: int, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while self.state["version"] < version:
            self.next_state(deadline - time.monotonic())


def players(stack: ExitStack, server: AppProcess, room_id: str, cookies: list[str]) -> list[Player]:
    return [
        Player(
            stack.enter_context(
                connect(
                    f"ws://127.0.0.1:{server.port}/ws/rooms/{room_id}",
                    additional_headers={"Cookie": f"kr_player={cookie}"},
                    open_timeout=5,
                )
            )
        )
        for cookie in cookies
    ]


def play_moves(seated: list[Player], moves: int, timeout: float) -> list[float]:
    """Play `moves` legal moves; return each one's seconds until both players saw it."""
    seconds = []
    for _ in range(moves):
        state = seated[0].state
        if state["to_move"] is None:
            break
        mover = next(p for p in seated if p.state["seat"] == state["to_move"])
        started = time.monotonic()
        action = mover.state["legal_actions"][0]
        mover.ws.send(json.dumps({"type": "action", "version": state["version"], "action": action}))
        for player in seated:
            player.wait_version(state["version"] + 1, timeout)
        seconds.append(time.monotonic() - started)
    return seconds


# Raw attackers


def masked_frame(payload: bytes, opcode: int = 0x1) -> bytes:
    """One client frame (clients must mask; a zero mask keeps the payload as it is)."""
    assert len(payload) < 126
    return bytes([0x80 | opcode, 0x80 | len(payload)]) + b"\0\0\0\0" + payload


def raw_socket(server: AppProcess, room_id: str, receive_buffer: int = 4096) -> socket.socket:
    """A websocket opened by hand with a small receive buffer; the handshake is read, and
    after that nothing unless the test says so."""
    sock, response = handshake(server, room_id, receive_buffer)
    assert response.startswith(b"HTTP/1.1 101"), response
    return sock


def handshake(
    server: AppProcess, room_id: str, receive_buffer: int = 4096
) -> tuple[socket.socket, bytes]:
    """A socket that asked for a websocket, and the head of the server's answer."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
    sock.settimeout(5)
    sock.connect(("127.0.0.1", server.port))
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall(
        (
            f"GET /ws/rooms/{room_id} HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n"
            "Upgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
    )
    response = b""
    while b"\r\n\r\n" not in response:
        chunk = sock.recv(1)
        assert chunk, "the server closed during the handshake"
        response += chunk
    return sock, response


def flood(sock: socket.socket, until: float, frame: bytes = masked_frame(b"x")) -> None:
    """Send junk frames until `until` or until the server stops taking them."""
    batch = frame * 200
    sock.settimeout(0.5)
    while time.monotonic() < until:
        try:
            sock.sendall(batch)
        except TimeoutError:
            continue  # the server reads no more: keep trying until the deadline
        except OSError:
            return


def close_code(sock: socket.socket, timeout: float) -> int | None:
    """Read what the server sent until its close frame; the close code (None: no frame)."""
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1 << 20)  # read the backlog quickly
    sock.settimeout(timeout)
    data = b""
    deadline = time.monotonic() + timeout
    position = 0
    while time.monotonic() < deadline:
        while True:  # parse the complete frames so far
            if len(data) - position < 2:
                break
            opcode, length = data[position] & 0x0F, data[position + 1] & 0x7F
            header = 2
            if length == 126:
                if len(data) - position < 4:
                    break
                (length,) = struct.unpack("!H", data[position + 2 : position + 4])
                header = 4
            elif length == 127:
                if len(data) - position < 10:
                    break
                (length,) = struct.unpack("!Q", data[position + 2 : position + 10])
                header = 10
            if len(data) - position < header + length:
                break
            payload = data[position + header : position + header + length]
            position += header + length
            if opcode == 0x8:
                return int(struct.unpack("!H", payload[:2])[0]) if len(payload) >= 2 else None
        try:
            chunk = sock.recv(1 << 16)
        except (TimeoutError, ConnectionResetError):
            return None
        if not chunk:
            return None
        data += chunk
    return None


def start_thread(target: Callable[..., None], *args: Any) -> threading.Thread:
    thread = threading.Thread(target=target, args=args, daemon=True)
    thread.start()
    return thread


# Tests


def test_a_socket_that_never_reads_neither_freezes_its_room_nor_shutdown(
    start_server: ServerFactory,
) -> None:
    # A high rate lets the attacker fill its buffers without being closed as a flooder.
    server = start_server(MESSAGES_PER_SECOND="100000", SEND_TIMEOUT_SECONDS="1")
    room_id, cookies = seated_room(server.base_url)
    with ExitStack() as stack:
        seated = players(stack, server, room_id, cookies)
        slow_reader_is_closed_and_shutdown_is_quick(server, room_id, seated)


def slow_reader_is_closed_and_shutdown_is_quick(
    server: AppProcess, room_id: str, seated: list[Player]
) -> None:
    slow = raw_socket(server, room_id)
    flooding = start_thread(flood, slow, time.monotonic() + 4)
    time.sleep(2)  # every junk frame is answered; the replies pile up towards `slow`

    seconds = play_moves(seated, 20, timeout=5)

    assert len(seconds) == 20
    assert max(seconds) < MOVE_SECONDS, seconds
    flooding.join(10)
    assert close_code(slow, timeout=8) == CLOSE_TOO_SLOW
    # The players' own sockets were never closed.
    assert play_moves(seated, 5, timeout=5)

    # Shutdown: another reader that never reads is stalled when SIGTERM comes.
    stalled = raw_socket(server, room_id)
    start_thread(flood, stalled, time.monotonic() + 4)
    time.sleep(1.5)
    assert server.stop(timeout=30) < SHUTDOWN_SECONDS
    with pytest.raises(ConnectionClosed) as closed:  # the players were told: a restart
        seated[0].ws.recv(timeout=5)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == CLOSE_RESTART
    for sock in (slow, stalled):
        sock.close()


def test_a_flood_in_one_room_does_not_slow_down_another(start_server: ServerFactory) -> None:
    server = start_server()
    junk_room, _ = seated_room(server.base_url)
    room_id, cookies = seated_room(server.base_url)
    with ExitStack() as stack:
        seated = players(stack, server, room_id, cookies)
        flood_elsewhere_does_not_slow_down(server, junk_room, seated)


def flood_elsewhere_does_not_slow_down(
    server: AppProcess, junk_room: str, seated: list[Player]
) -> None:
    until = time.monotonic() + 4
    closed: list[int | None] = []
    refused: list[bytes] = []

    def flooder() -> None:
        while time.monotonic() < until:  # closed for flooding, it comes straight back
            sock, response = handshake(server, junk_room)
            if response.startswith(b"HTTP/1.1 101"):
                flood(sock, min(until, time.monotonic() + 1))
                closed.append(close_code(sock, timeout=2))
            else:  # its address flooded a moment ago: refused before the upgrade
                refused.append(response.split(b"\r\n", 1)[0])
                time.sleep(0.05)
            sock.close()

    flooders = [start_thread(flooder) for _ in range(3)]
    time.sleep(0.5)
    seconds = play_moves(seated, 20, timeout=5)
    for thread in flooders:
        thread.join(15)

    assert len(seconds) == 20
    assert max(seconds) < MOVE_SECONDS, seconds
    assert closed and set(closed) == {CLOSE_RATE_LIMITED}, closed
    assert refused and set(refused) == {b"HTTP/1.1 429 Too Many Requests"}, refused
    log = server.log.read_text()
    # One line per flooding connection (and its summary), not one per junk message.
    assert log.count("refused") <= 4 * len(closed) + 10, log[-2000:]
