"""A real Web Push endpoint on loopback for the tests and the bench: a browser's push
service as far as the server can tell. It checks each request's VAPID signature (the ES256
JWT in ``Authorization: vapid t=...,k=...``: signed by k, ``aud`` the endpoint's origin,
``exp`` in the future) and decrypts its aes128gcm payload with the private key of the
subscription it made (as a browser would), keeping each notice it could read.

``answers`` sets what the next connections are answered (a status, after a delay, a
redirect, or a stall: the connection accepted and never answered); then ``otherwise`` (201).
``push_service(tls=True)`` serves HTTPS with a self-signed certificate made for the test.
"""

from __future__ import annotations

import base64
import datetime
import ipaddress
import json
import os
import ssl
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import http_ece
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from cryptography.x509.oid import NameOID


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
    location: str = ""  # for a redirect
    stall: bool = False  # accept the connection, then neither read nor answer until the end


@dataclass
class PushService:
    origin: str
    devices: dict[str, Device] = field(default_factory=dict)
    notices: list[dict[str, Any]] = field(default_factory=list)  # (device path, notice)
    requests: list[str] = field(default_factory=list)  # the device path of every request
    refused: list[str] = field(default_factory=list)  # why a request was not accepted
    answers: list[Answer] = field(default_factory=list)
    otherwise: Answer = field(default_factory=Answer)  # once ``answers`` are used up
    connections: int = 0  # every connection accepted, also one that sent no request
    lock: threading.Lock = field(default_factory=threading.Lock)
    closing: threading.Event = field(default_factory=threading.Event)

    @property
    def port(self) -> int:
        return int(self.origin.rsplit(":", 1)[1])

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
        answer = Answer()

        def handle(self) -> None:
            """The answer is chosen as the connection comes (one request per connection),
            before a TLS handshake: a stall holds even that."""
            with service.lock:
                service.connections += 1
                self.answer = service.answers.pop(0) if service.answers else service.otherwise
            if self.answer.stall:
                service.closing.wait()
                return
            if isinstance(self.connection, ssl.SSLSocket):
                try:
                    self.connection.do_handshake()
                except (ssl.SSLError, OSError):  # a client that did not trust the certificate
                    return
            super().handle()

        def do_POST(self) -> None:  # noqa: N802 (http.server's name)
            body = self.rfile.read(int(self.headers["Content-Length"]))
            with service.lock:
                service.requests.append(self.path)
            answer = self.answer
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
            if answer.location:
                self.send_header("Location", answer.location)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
            pass

    return Handler


@contextmanager
def push_service(tls: bool = False) -> Iterator[PushService]:
    """The service on a port of its own on 127.0.0.1 while the block runs; with ``tls``,
    over HTTPS with a self-signed certificate for 127.0.0.1."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler(PushService("")))
    host, port = server.server_address[:2]
    service = PushService(f"{'https' if tls else 'http'}://{host!s}:{port}")
    server.RequestHandlerClass = handler(service)
    if tls:
        # The handshake in the connection's own thread (Handler.handle), not in accept().
        server.socket = tls_context(str(host)).wrap_socket(
            server.socket, server_side=True, do_handshake_on_connect=False
        )
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield service
    finally:
        service.closing.set()
        server.shutdown()
        server.server_close()


def tls_context(address: str) -> ssl.SSLContext:
    """A server context with a new self-signed certificate for ``address``."""
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, address)])
    now = datetime.datetime.now(datetime.UTC)
    certificate = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(hours=1))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(
            x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address(address))]),
            critical=False,
        )
        .sign(key, hashes.SHA256())
    )
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    with tempfile.TemporaryDirectory() as folder:
        chain = Path(folder) / "chain.pem"
        chain.write_bytes(
            certificate.public_bytes(serialization.Encoding.PEM)
            + key.private_bytes(
                serialization.Encoding.PEM,
                serialization.PrivateFormat.PKCS8,
                serialization.NoEncryption(),
            )
        )
        context.load_cert_chain(chain)
    return context
