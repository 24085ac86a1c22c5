"""A real Web Push endpoint on loopback for the tests and the bench: a browser's push
service as far as the server can tell. It checks each request's VAPID signature (the ES256
JWT in ``Authorization: vapid t=...,k=...``: signed by k, ``aud`` the endpoint's origin,
``exp`` in the future) and decrypts its aes128gcm payload with the private key of the
subscription it made (as a browser would), keeping each notice it could read.

``answers`` sets what the next requests are answered (a status, after a delay); then 201.
"""

from __future__ import annotations

import base64
import json
import os
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import http_ece
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Device:
    """A browser's subscription: its endpoint, its P-256 key pair and auth secret."""

    endpoint: str
    key: ec.EllipticCurvePrivateKey
    auth: bytes

    def subscription(self, lang: str = "en") -> dict[str, Any]:
        public = self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return {
            "endpoint": self.endpoint,
            "keys": {"p256dh": b64url(public), "auth": b64url(self.auth)},
            "lang": lang,
        }


@dataclass
class Answer:
    status: int = 201
    delay: float = 0.0


@dataclass
class PushService:
    origin: str
    devices: dict[str, Device] = field(default_factory=dict)
    notices: list[dict[str, Any]] = field(default_factory=list)  # (device path, notice)
    requests: list[str] = field(default_factory=list)  # the device path of every request
    refused: list[str] = field(default_factory=list)  # why a request was not accepted
    answers: list[Answer] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def device(self) -> Device:
        path = f"/push/{b64url(os.urandom(9))}"
        device = Device(self.origin + path, ec.generate_private_key(ec.SECP256R1()), os.urandom(16))
        self.devices[path] = device
        return device

    def received(self, device: Device) -> list[dict[str, Any]]:
        path = device.endpoint.removeprefix(self.origin)
        with self.lock:
            return [notice for notice in self.notices if notice["device"] == path]

    def wait_for(self, count: int, timeout: float = 5.0) -> list[dict[str, Any]]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self.lock:
                if len(self.notices) >= count:
                    return list(self.notices)
            time.sleep(0.01)
        raise AssertionError(f"{len(self.notices)} notices, not {count}: {self.refused}")

    def check(self, headers: Any, path: str, body: bytes) -> dict[str, Any]:
        """The notice in a request; AssertionError when it is no valid Web Push request."""
        scheme, _, params = headers["Authorization"].partition(" ")
        assert scheme == "vapid", scheme
        fields = dict(part.strip().split("=", 1) for part in params.split(","))
        token, public = fields["t"], fields["k"]
        head, claims, signature = token.split(".")
        assert json.loads(unb64url(head))["alg"] == "ES256"
        raw = unb64url(signature)
        vapid = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(public))
        der = encode_dss_signature(int.from_bytes(raw[:32]), int.from_bytes(raw[32:]))
        vapid.verify(der, f"{head}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))
        claim = json.loads(unb64url(claims))
        assert claim["aud"] == self.origin, claim
        assert claim["exp"] > time.time(), claim
        assert headers["Content-Encoding"] == "aes128gcm"
        assert int(headers["TTL"]) >= 0
        device = self.devices[path]
        plain = http_ece.decrypt(
            body, private_key=device.key, auth_secret=device.auth, version="aes128gcm"
        )
        notice: dict[str, Any] = json.loads(plain)
        return notice


def handler(service: PushService) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 (http.server's name)
            body = self.rfile.read(int(self.headers["Content-Length"]))
            with service.lock:
                service.requests.append(self.path)
                answer = service.answers.pop(0) if service.answers else Answer()
            if answer.delay:
                time.sleep(answer.delay)
            if answer.status < 300:
                try:
                    notice = service.check(self.headers, self.path, body)
                except Exception as error:  # noqa: BLE001 (the test reads why)
                    with service.lock:
                        service.refused.append(repr(error))
                    answer = Answer(400)
                else:
                    with service.lock:
                        service.notices.append({**notice, "device": self.path})
            self.send_response(answer.status)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
            pass

    return Handler


@contextmanager
def push_service() -> Iterator[PushService]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler(PushService("")))
    host, port = server.server_address[:2]
    service = PushService(f"http://{host!s}:{port}")
    server.RequestHandlerClass = handler(service)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield service
    finally:
        server.shutdown()
        server.server_close()
