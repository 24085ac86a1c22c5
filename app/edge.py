"""The HTTP edge: what every request passes before a route sees it.

- A body over MAX_BODY_BYTES is refused with 413 before it is read: at once by its
  Content-Length, and a chunked one as soon as the bytes read pass the limit (uvicorn sets
  no limit of its own: it hands the app the body as it arrives, and Starlette would read
  all of it into memory). The connection is closed after the answer.
- No id, name or field of ours holds a control character, and PostgreSQL's text cannot
  hold a NUL: a path with a control character names nothing (404), a query string with
  one is malformed (422), and so is a body with a NUL (raw, or JSON's escape ``\\u0000``).
- Websockets pass straight through (their frames have limits of their own,
  TRANSPORT_MAX_BYTES and MAX_MESSAGE_BYTES), and so does a request without a body.

``origin_allowed`` is the one rule of which sites may send a browser's requests here, for
the websocket's handshake and every state-changing route.
"""

from __future__ import annotations

import re
from urllib.parse import unquote_to_bytes, urlsplit

from starlette.requests import HTTPConnection
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.protocol import ErrorCode
from app.settings import Settings

CONTROL = re.compile(r"[\x00-\x1f\x7f]")
CONTROL_BYTE = re.compile(rb"[\x00-\x1f\x7f]")
# A raw NUL, or JSON's escape of one (after an even run of backslashes, which escape each
# other: "\\u0000" is a backslash and the text u0000).
NUL_IN_BODY = re.compile(rb"\x00|(?<!\\)(?:\\\\)*\\u0000")


def origin_allowed(connection: HTTPConnection, settings: Settings) -> bool:
    """The site's own origin and the configured ones; a client without Origin is no browser."""
    origin = connection.headers.get("origin")
    if origin is None or origin in settings.allowed_origins:
        return True
    if settings.public_base_url and origin == settings.public_base_url.rstrip("/"):
        return True
    return urlsplit(origin).netloc == connection.headers.get("host")


class Edge:
    """The pure ASGI middleware of the checks above (no BaseHTTPMiddleware: it would run
    every request in a task of its own)."""

    def __init__(self, app: ASGIApp, max_body_bytes: int) -> None:
        self.app = app
        self.max_body_bytes = max_body_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        refused = self.refused_head(scope)
        if refused is None and body_follows(scope):
            body = await self.read_body(receive)
            if body is None:
                return  # the client went away
            refused = self.refused_body(body)
            receive = replay(body, receive)
        if refused is not None:
            await refused(scope, receive, send)
            return
        await self.app(scope, receive, send)

    def refused_head(self, scope: Scope) -> JSONResponse | None:
        if CONTROL.search(scope["path"]):
            return error_response(404, "unknown_path", "no such path: it holds a control character")
        query: bytes = scope["query_string"]
        if b"%" in query and CONTROL_BYTE.search(unquote_to_bytes(query)):
            return error_response(422, "malformed", "query: a control character")
        length = content_length(scope)
        if length is not None and length > self.max_body_bytes:
            return self.too_large()
        return None

    def refused_body(self, body: bytes) -> JSONResponse | None:
        if len(body) > self.max_body_bytes:
            return self.too_large()
        if NUL_IN_BODY.search(body):
            return error_response(422, "malformed", "body: a NUL character")
        return None

    def too_large(self) -> JSONResponse:
        message = f"a request body may hold at most {self.max_body_bytes} bytes"
        # Closed after the answer: the rest of the body is not worth reading.
        return error_response(413, "too_large", message, {"connection": "close"})

    async def read_body(self, receive: Receive) -> bytes | None:
        """The body, read until its end or until it passes the limit (then what was read);
        None when the client disconnected."""
        body = bytearray()
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return None
            body += message.get("body", b"")
            if len(body) > self.max_body_bytes or not message.get("more_body", False):
                return bytes(body)


def body_follows(scope: Scope) -> bool:
    """A Content-Length above 0 or a Transfer-Encoding: HTTP/1.1's only ways to send one."""
    for name, value in scope["headers"]:
        if name == b"transfer-encoding" or (name == b"content-length" and value != b"0"):
            return True
    return False


def content_length(scope: Scope) -> int | None:
    for name, value in scope["headers"]:
        if name == b"content-length" and value.isdigit():
            return int(value)
    return None


def replay(body: bytes, receive: Receive) -> Receive:
    """A receive that hands the app the body already read, then the client's own messages
    (a disconnect)."""
    pending = [{"type": "http.request", "body": body, "more_body": False}]

    async def replayed() -> Message:
        return pending.pop() if pending else await receive()

    return replayed


def error_response(
    status: int, code: ErrorCode, message: str, headers: dict[str, str] | None = None
) -> JSONResponse:
    body = {"detail": {"code": code, "message": message}}
    return JSONResponse(body, status_code=status, headers=headers)
