"""The security headers of every HTTP answer: pages, the API, static files and errors.

A pure ASGI middleware (not Starlette's BaseHTTPMiddleware, which costs every request a
task and buffers streamed bodies): it adds the headers to the answer's start and passes
everything else, websockets included, straight through.

The page runs only the site's own scripts and styles (no inline script, no style
attribute: static/js sets styles through CSSOM), talks only to its own origin (fetch and
the room's websocket: 'self' covers ws: and wss: of the same host), and is never framed.
``img-src data:`` is the table's favicon with its turn badge (static/js/pages/table.js).
The referrer stays on the site: room links and sign-in links are secrets in URLs, and
``same-origin`` (not ``no-referrer``) keeps the ``Origin`` of the site's own POSTs.
"""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

CONTENT_SECURITY_POLICY = "; ".join(
    (
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
        "manifest-src 'self'",
        "worker-src 'self'",
    )
)
# Powerful features the site never uses; the ones it does (notifications, the clipboard,
# sharing a link) keep their defaults.
UNUSED_FEATURES = (
    "accelerometer",
    "camera",
    "display-capture",
    "geolocation",
    "gyroscope",
    "hid",
    "magnetometer",
    "microphone",
    "midi",
    "payment",
    "serial",
    "usb",
    "xr-spatial-tracking",
)
SECURITY_HEADERS: list[tuple[bytes, bytes]] = [
    (name.encode("latin-1"), value.encode("latin-1"))
    for name, value in (
        ("content-security-policy", CONTENT_SECURITY_POLICY),
        ("x-content-type-options", "nosniff"),
        ("referrer-policy", "same-origin"),
        ("x-frame-options", "DENY"),
        ("cross-origin-opener-policy", "same-origin"),
        ("permissions-policy", ", ".join(f"{feature}=()" for feature in UNUSED_FEATURES)),
    )
]


class SecurityHeaders:
    """Adds SECURITY_HEADERS to every HTTP answer (a header the route set itself stays)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", ()))
                present = {name.lower() for name, _ in headers}
                headers.extend(pair for pair in SECURITY_HEADERS if pair[0] not in present)
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, send_with_headers)
