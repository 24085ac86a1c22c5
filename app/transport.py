"""uvicorn's websockets-sansio protocol, reading a socket no further ahead than the app.

uvicorn parses every frame of a read as it arrives: one read of a flood of one-byte
frames (up to 256 KiB) is some 37,000 frames parsed in one go, holding up every other
room for a tenth of a second, though the app takes only its rate's worth of them before
closing the socket. Here the bytes wait unparsed (with reading paused) until the app has
taken every message parsed so far, and are then parsed a slice at a time: a flood costs
the messages the app reads, plus one slice.

A text frame that is no UTF-8 closes the socket with 1007, as uvicorn would, but without
uvicorn's ERROR and traceback (one client could write one per socket it opens): the app
logs it as a refusal and counts it against the address (``invalid_text``; app/limits.py).

It also takes a refused handshake (an HTTP response instead of the upgrade) as complete,
and lets a connection write a text frame at once when the socket takes it without waiting
(``send_now``), without a task switch and the ASGI layers of every send.
"""

from __future__ import annotations

from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.exceptions import InvalidState

from app.protocol import CLOSE_INVALID_TEXT

# Bytes parsed per step: a whole action message, or some 70 one-byte junk frames.
SLICE_BYTES = 512


class PacedWebSocketProtocol(WebSocketsSansIOProtocol):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.unparsed = bytearray()
        self.invalid_text = False

    def data_received(self, data: bytes) -> None:
        self.unparsed += data
        self.parse_ahead()

    def parse_ahead(self) -> None:
        """Parse slices until the app has a message waiting, then stop reading if bytes are left."""
        while self.unparsed and self.queue.empty() and not self.transport.is_closing():
            piece = bytes(self.unparsed[:SLICE_BYTES])
            del self.unparsed[:SLICE_BYTES]
            super().data_received(piece)
        if self.unparsed and not self.read_paused:
            self.read_paused = True
            self.transport.pause_reading()

    def send_receive_event_to_app(self) -> None:
        if self.curr_msg_data_type == "text" and not self.close_sent and not utf8(self.frames):
            self.frames = []
            self.invalid_text = True
            self.conn.send_close(CLOSE_INVALID_TEXT, "a text frame that is not UTF-8")
            self.handle_parser_exception()  # the app hears of the close, the socket ends
            return
        super().send_receive_event_to_app()

    def discard_unparsed(self) -> None:
        """The socket is being closed for misbehaviour: what it sent is never parsed."""
        self.unparsed.clear()

    def send_now(self, text: str) -> bool:
        """Write a text frame now, as uvicorn's ``send`` would, if the transport is below its
        high-water mark; False (nothing written) when the caller must wait for it."""
        if not self.writable.is_set() or self.close_sent or not self.handshake_complete:
            return False
        if self.disconnected or self.initial_response is not None or self.transport.is_closing():
            return False
        try:
            self.conn.send_text(text.encode())
        except InvalidState:
            return False
        self.transport.write(b"".join(self.conn.data_to_send()))
        return True

    async def send(self, message: Any) -> None:
        await super().send(message)
        if message["type"] == "websocket.http.response.body" and not message.get("more_body"):
            # A refused handshake (HTTP 429) is complete: uvicorn would log an error for it.
            self.handshake_complete = True

    async def receive(self) -> Any:
        message = await super().receive()
        if self.unparsed:
            self.parse_ahead()
        return message


def utf8(frames: list[bytes]) -> bool:
    data = frames[0] if len(frames) == 1 else b"".join(frames)
    if data.isascii():  # most messages: no second decoding
        return True
    try:
        data.decode()
    except UnicodeDecodeError:
        return False
    return True
