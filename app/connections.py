"""One websocket's outgoing side: a bounded queue and, while something waits in it, a
writer task of its own.

A text goes out at once when nothing waits before it and the socket takes it without
waiting (``PacedWebSocketProtocol.send_now``); otherwise it queues, and a writer task
drains the queue and ends (most sockets never need one: a task for every socket cost
some 2 KB each, 1.9 MB of the server's peak at 500 rooms in bench/load.py).

The action path never awaits a socket: ``send`` only appends to the queue. The writer
drains it. A connection that cannot keep up is closed rather than waited for (as lila-ws
and Colyseus do), with ``CLOSE_TOO_SLOW``; its client reconnects and gets a full sync:

- its queue holds ``SEND_QUEUE_MESSAGES`` texts and another one arrives, or
- a write makes no progress for ``SEND_TIMEOUT_SECONDS``.

A stalled socket cannot take a close frame through ASGI (uvicorn's ``send`` first waits
until the transport is writable again), so ``force_close`` puts the close frame behind
what is buffered, half-closes the transport, and aborts it if the peer still does not read.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from typing import Any

from fastapi import WebSocket, WebSocketDisconnect

from app.limits import RefusalLog, TokenBucket
from app.messaging import Audience
from app.protocol import CLOSE_RATE_LIMITED, CLOSE_SIGNED_OUT, CLOSE_TOO_SLOW
from app.transport import PacedWebSocketProtocol

logger = logging.getLogger(__name__)

# After a forced close the peer gets this long to read what is buffered (the close frame
# last); then the transport is aborted.
ABORT_AFTER_SECONDS = 10.0
TOO_SLOW = "too far behind; reconnect for the current state"
# Closes after which the server stops reading the socket at once: misbehaviour (parsing a
# flood's backlog after the close would cost as much as answering it), and a device signed
# out (whatever it sent is no longer its player's).
HARD_CLOSES = {CLOSE_TOO_SLOW, CLOSE_RATE_LIMITED, CLOSE_SIGNED_OUT}
# Closes that drop what waits to be sent: a signed-out device gets nothing more.
DROPPING_CLOSES = {CLOSE_SIGNED_OUT}


class SocketConnection:
    """A websocket of a room as the services see it: ``send`` and ``close`` never wait."""

    def __init__(
        self,
        websocket: WebSocket,
        player_id: str | None,
        bucket: TokenBucket,
        *,
        device_id: int | None = None,
        address: str,
        queue_limit: int,
        send_timeout: float,
    ) -> None:
        self.websocket = websocket
        self.player_id = player_id
        self.device_id = device_id  # the signed-in browser it came from (signing out closes it)
        self.bucket = bucket
        self.address = address
        self.seat: Audience = None
        self.visible = True
        self.refusals = RefusalLog()
        self.queue_limit = queue_limit
        self.send_timeout = send_timeout
        # Created with the first text that has to wait (a deque is some 600 bytes, and
        # most sockets never queue anything).
        self._queue: deque[str] | None = None
        self._close: tuple[int, str] | None = None
        self._writer: asyncio.Task[None] | None = None
        self._protocol = paced_protocol(websocket)

    @property
    def closing(self) -> bool:
        return self._close is not None

    @property
    def close_code(self) -> int | None:
        """The code the server closed (or is closing) this socket with, if it did."""
        return self._close[0] if self._close else None

    def has_unread(self) -> bool:
        """Whether messages wait to be read (unknown off ``python -m app``: assume so)."""
        return self._protocol is None or not self._protocol.queue.empty()

    async def stop(self) -> None:
        """The socket is gone (or about to be): end the writer, bounded in time."""
        writer = self._writer
        if writer is None or writer.done():
            return
        if self._close is None:
            writer.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await asyncio.wait_for(writer, self.send_timeout + 1)

    def send(self, text: str) -> None:
        if self._close is not None:
            return
        queue = self._queue
        if queue is not None and len(queue) >= self.queue_limit:
            logger.warning(
                "closing a connection that fell behind",
                extra={"address": self.address, "seat": self.seat, "queued": len(queue)},
            )
            queue.clear()
            self.close(CLOSE_TOO_SLOW, TOO_SLOW)
            return
        if not queue and self._protocol is not None and self._protocol.send_now(text):
            return
        if queue is None:
            queue = self._queue = deque()
        queue.append(text)
        self._start_writer()

    def close(self, code: int, reason: str) -> None:
        """Close after what is queued (a too-slow or signed-out close drops the queue first)."""
        if self._close is None:
            self._close = (code, reason)
            if code in DROPPING_CLOSES and self._queue:
                self._queue.clear()
            self._start_writer()

    def _start_writer(self) -> None:
        if self._writer is None or self._writer.done():
            self._writer = asyncio.get_running_loop().create_task(self._write())

    async def _write(self) -> None:
        """Write what is queued, then the close if one is due, and end."""
        websocket = self.websocket
        if self._queue is None:
            self._queue = deque()
        queue = self._queue
        loop = asyncio.get_running_loop()
        try:
            # The deadline is for progress: each completed write moves it on.
            async with asyncio.timeout(self.send_timeout) as deadline:
                while queue:
                    # Queued until written: a text sent now may not overtake this one.
                    await websocket.send_text(queue[0])
                    if queue:  # (a too-slow close empties it meanwhile)
                        queue.popleft()
                    deadline.reschedule(loop.time() + self.send_timeout)
                if self._close is not None:
                    if self._close[0] in HARD_CLOSES and force_close(websocket, *self._close):
                        return
                    await websocket.close(*self._close)
        except TimeoutError:
            queue.clear()
            code, reason = self._close or (CLOSE_TOO_SLOW, TOO_SLOW)
            if code == CLOSE_TOO_SLOW:
                logger.warning(
                    "closing a connection whose writes stalled",
                    extra={"address": self.address, "seat": self.seat},
                )
            self._close = (code, reason)
            force_close(websocket, code, reason)
        except (WebSocketDisconnect, OSError, RuntimeError):  # gone; its receive loop notices
            self._close = self._close or (1006, "gone")
            queue.clear()


def paced_protocol(websocket: WebSocket) -> PacedWebSocketProtocol | None:
    """The uvicorn protocol under the socket, when it is ours (``python -m app``)."""
    protocol = getattr(getattr(websocket, "_receive", None), "__self__", None)
    return protocol if isinstance(protocol, PacedWebSocketProtocol) else None


def force_close(websocket: WebSocket, code: int, reason: str) -> bool:
    """Close a socket now, without waiting for it to become writable.

    The close frame goes behind what is buffered, then a FIN (a half-close). Reading stops
    at once: whatever else the peer sends is neither parsed nor answered. The file stays
    open until ABORT_AFTER_SECONDS, so that a peer that reads late still finds everything
    up to the close frame (closing it with unread input would send a reset instead).

    Works on uvicorn's websockets-sansio protocol (``python -m app`` runs it, paced); returns
    False elsewhere, where the socket ends when its peer goes away.
    """
    protocol: Any = getattr(getattr(websocket, "_receive", None), "__self__", None)
    transport: asyncio.Transport | None = getattr(protocol, "transport", None)
    conn = getattr(protocol, "conn", None)
    if transport is None or conn is None or not hasattr(protocol, "close_timer"):
        return False
    if transport.is_closing():
        return True
    with contextlib.suppress(Exception):
        protocol.stop_keepalive()
        if not protocol.close_sent:
            conn.send_close(code, reason)
            transport.write(b"".join(conn.data_to_send()))
            protocol.close_sent = True
            protocol.queue.put_nowait({"type": "websocket.disconnect", "code": code})
        transport.pause_reading()
        protocol.read_paused = False  # so that uvicorn's receive() does not resume reading
        if isinstance(protocol, PacedWebSocketProtocol):
            protocol.discard_unparsed()
        transport.write_eof()
    if protocol.close_timer is not None:
        protocol.close_timer.cancel()
    protocol.close_timer = asyncio.get_running_loop().call_later(
        ABORT_AFTER_SECONDS, transport.abort
    )
    return True
