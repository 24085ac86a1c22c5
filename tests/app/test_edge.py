"""The HTTP edge, tried as an attacker would: bodies too large to read, requests from
another site, a device link's secret in the log. Where the real transport matters, against
``python -m app`` in production mode (tests/server.py)."""

from __future__ import annotations

import json
import os
import re
import select
import shutil
import socket
from collections.abc import Iterable, Iterator
from pathlib import Path

import httpx
import pytest
import sqlalchemy
from fastapi.testclient import TestClient

from app.main import create_app
from app.settings import Settings
from app.storage.models import METADATA
from tests.app.processes import SECRET, start_nginx
from tests.app.tables import Table
from tests.app.walk import every_route, example_body, fill, walker
from tests.server import AppProcess, free_port, migrated_sqlite


def production_server(tmp: Path, **settings: str) -> AppProcess:
    """``python -m app`` as the image runs it (production, JSON logs), on a SQLite copy."""
    database = tmp / "kartenrunde.db"
    shutil.copyfile(migrated_sqlite(), database)
    env = {
        **os.environ,
        "ENVIRONMENT": "production",
        "SECRET_KEY": SECRET,
        "DATABASE_URL": f"sqlite:///{database}",
        "LOG_LEVEL": "INFO",
        **settings,
    }
    return AppProcess(free_port(), env, tmp / "server.log").start()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[AppProcess]:
    started = production_server(tmp_path_factory.mktemp("edge"))
    try:
        yield started
    finally:
        started.stop()


# --- /metrics ---


def test_metrics_answer_this_machine_and_nobody_a_proxy_relays(server: AppProcess) -> None:
    """uvicorn believes X-Forwarded-For from loopback (FORWARDED_ALLOW_IPS): a proxy on this
    machine relaying a client is not this machine, whatever address the header names."""
    url = f"{server.base_url}/metrics"
    assert "kartenrunde_rooms_open" in httpx.get(url).text
    for relayed in ("203.0.113.7", "127.0.0.1", "203.0.113.7, 127.0.0.1"):
        answer = httpx.get(url, headers={"x-forwarded-for": relayed})
        assert answer.status_code == 404, relayed
        assert answer.json()["detail"]["code"] == "unknown_path"


# --- bodies ---


def peak_memory_kib(server: AppProcess) -> int:
    """The server process's peak resident memory so far (VmHWM), in KiB."""
    assert server.process is not None
    status = Path(f"/proc/{server.process.pid}/status").read_text()
    found = re.search(r"^VmHWM:\s+(\d+) kB$", status, re.M)
    assert found, status
    return int(found.group(1))


def exchange(server: AppProcess, head: bytes, body: Iterable[bytes]) -> tuple[int, bytes]:
    """Send a request's head, then its body piece by piece as a client that reads an answer
    as soon as one comes (as curl does); the answer's status and body."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=60) as sock:
        sock.sendall(head)
        for piece in body:
            if select.select([sock], [], [], 0)[0]:
                break  # answered before the body was sent: stop sending
            try:
                sock.sendall(piece)
            except (BrokenPipeError, ConnectionResetError):
                break
        return read_answer(sock)


def read_answer(sock: socket.socket) -> tuple[int, bytes]:
    received = b""
    while b"\r\n\r\n" not in received:
        chunk = sock.recv(65536)
        assert chunk, f"closed without an answer: {received!r}"
        received += chunk
    head, _, body = received.partition(b"\r\n\r\n")
    found = re.search(rb"^content-length: *(\d+)", head, re.M | re.I)
    assert found, head
    while len(body) < int(found.group(1)):
        chunk = sock.recv(65536)
        assert chunk, "closed in the middle of the answer"
        body += chunk
    return int(head.split(b" ", 2)[1]), body


def room_request(server: AppProcess, framing: str) -> bytes:
    return (
        f"POST /api/rooms HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n"
        f"Content-Type: application/json\r\n{framing}\r\n\r\n"
    ).encode()


PIECE = 65536
HUGE_PIECES = 1024  # 64 MiB


def huge_game_name() -> Iterator[bytes]:
    """A room's body whose game name is 64 MiB long, in pieces of 64 KiB."""
    yield b'{"game": "'
    for _ in range(HUGE_PIECES):
        yield b"x" * PIECE
    yield b'"}'


def chunked(pieces: Iterable[bytes]) -> Iterator[bytes]:
    for piece in pieces:
        yield b"%x\r\n%s\r\n" % (len(piece), piece)
    yield b"0\r\n\r\n"


def test_a_huge_body_is_refused_before_it_is_read(server: AppProcess) -> None:
    size = sum(map(len, huge_game_name()))
    before = peak_memory_kib(server)
    for framing, body in (
        (f"Content-Length: {size}", huge_game_name()),
        ("Transfer-Encoding: chunked", chunked(huge_game_name())),
    ):
        status, answer = exchange(server, room_request(server, framing), body)
        assert status == 413, (framing, answer)
        assert json.loads(answer)["detail"]["code"] == "too_large"
    assert peak_memory_kib(server) - before < 4 * 1024


def join_body(size: int) -> bytes:
    """A join's body of exactly ``size`` bytes (its name too long, so nothing is stored)."""
    head, tail = b'{"name": "', b'"}'
    return head + b"x" * (size - len(head) - len(tail)) + tail


def test_a_body_up_to_the_limit_is_read_and_one_byte_more_is_too_large(table: Table) -> None:
    limit = table.app.state.settings.max_body_bytes
    room_id = table.create_room("scoundrel")
    url = f"/api/rooms/{room_id}/join"
    for send in (lambda body: body, lambda body: iter([body[:100], body[100:]])):  # chunked
        read = table.client.post(url, content=send(join_body(limit)))
        assert read.status_code == 422 and read.json()["detail"]["code"] == "malformed"
        refused = table.client.post(url, content=send(join_body(limit + 1)))
        assert refused.status_code == 413 and refused.json()["detail"]["code"] == "too_large"
        assert refused.headers["connection"] == "close"


@pytest.mark.parametrize(
    ("escaped", "status"),
    [
        (r"a\u0000b", 422),  # a NUL
        (r"a\\\u0000b", 422),  # a backslash, then a NUL
        (r"a\\u0000b", 200),  # a backslash, then the text u0000
        (r"a\\\\u0000b", 200),  # two backslashes, then the text
    ],
)
def test_a_nul_in_a_json_body_is_malformed_and_its_look_alike_is_text(
    table: Table, escaped: str, status: int
) -> None:
    room_id = table.create_room("scoundrel")
    body = f'{{"name": "{escaped}"}}'.encode()
    response = table.client.post(
        f"/api/rooms/{room_id}/join", content=body, headers={"content-type": "application/json"}
    )
    assert response.status_code == status, response.text
    seated = table.client.get(f"/api/rooms/{room_id}").json()["seats"][0]["name"]
    assert seated == (json.loads(body)["name"] if status == 200 else None)


@pytest.mark.parametrize("control", ["%00", "%09", "%1F", "%7F"])
def test_a_control_character_in_a_path_names_nothing_and_in_a_query_is_malformed(
    table: Table, control: str
) -> None:
    for path in (f"/r/a{control}", f"/api/players/{control}", f"/static/{control}.css"):
        response = table.client.get(path)
        assert response.status_code == 404
        assert response.json()["detail"]["code"] == "unknown_path"
    response = table.client.get(f"/api/matches?player=a{control}b")
    assert response.status_code == 422
    assert response.json()["detail"]["code"] == "malformed"


# --- requests from another site ---

STATE_CHANGING = {"POST", "PUT", "PATCH", "DELETE"}


def stored(table: Table) -> dict[str, list[str]]:
    """Every row of every table, as text."""
    with table.app.state.db_engine.connect() as connection:
        return {
            name: sorted(repr(tuple(row)) for row in connection.execute(sqlalchemy.select(model)))
            for name, model in METADATA.tables.items()
        }


@pytest.mark.parametrize(
    "headers",
    [
        {"origin": "https://evil.example"},
        {"origin": "null"},  # a sandboxed frame, or a page opened from a file
        {"origin": "http://testserver.evil.example"},
        {"sec-fetch-site": "cross-site"},  # a browser that sent no Origin
    ],
)
def test_every_state_changing_route_refuses_another_site_and_changes_nothing(
    table: Table, headers: dict[str, str]
) -> None:
    walk = walker(table)
    before = stored(table)
    answers = {}
    for route in every_route(table.app.routes):
        for method in route.methods & STATE_CHANGING:
            path = fill(route, walk.real)
            response = walk.send(method, path, {}, example_body(route), **headers)
            refused = response.status_code == 403 and response.json()["detail"]["code"]
            answers[f"{method} {route.path}"] = refused or response.status_code
    assert answers and set(answers.values()) == {"forbidden_origin"}, answers
    assert stored(table) == before
    devices = walk.send("GET", "/api/me/devices", {}, None).json()["devices"]
    assert len(devices) == 2  # sign-out-all and DELETE signed none out
    seats = table.client.get(f"/api/rooms/{walk.real['room_id']}").json()["seats"]
    assert seats[0]["name"] == "Ada"  # leave kept the seat


@pytest.mark.parametrize(
    "headers",
    [
        {},  # no browser: curl, a bot
        {"origin": "http://testserver"},  # the site's own page
        {"origin": "https://cards.example.org"},  # PUBLIC_BASE_URL
        {"origin": "https://friends.example.org"},  # one of ALLOWED_ORIGINS
        {"origin": "https://friends.example.org", "sec-fetch-site": "cross-site"},
        {"sec-fetch-site": "same-origin"},
    ],
)
def test_the_sites_own_pages_and_clients_without_origin_change_things(
    settings: Settings, headers: dict[str, str]
) -> None:
    hosted = settings.model_copy(
        update={
            "public_base_url": "https://cards.example.org/",
            "allowed_origins": ["https://friends.example.org"],
        }
    )
    with TestClient(create_app(hosted)) as client:
        table = Table(client)
        room_id = table.create_room("scoundrel")
        response = client.post(f"/api/rooms/{room_id}/join", json={"name": "Ada"}, headers=headers)
        assert response.status_code == 200, response.text
        assert response.json()["seat"] == 0


# --- the log ---


@pytest.mark.parametrize("log_format", ["json", "text"])
def test_a_device_links_secret_never_reaches_the_log(tmp_path: Path, log_format: str) -> None:
    server = production_server(tmp_path, LOG_FORMAT=log_format)
    try:
        with httpx.Client(base_url=server.base_url) as ada, httpx.Client() as phone:
            link = ada.post("/api/me/links", json={}).json()["url"]
            opened = phone.get(f"{server.base_url}{link}")
            used = phone.post(f"{server.base_url}{link}", follow_redirects=False)
            again = phone.post(f"{server.base_url}{link}")
            forged = phone.post(
                f"{server.base_url}{link}", headers={"origin": "https://evil.example"}
            )
    finally:
        server.stop()
    assert [opened.status_code, used.status_code, again.status_code] == [200, 303, 404]
    assert forged.status_code == 403
    secret = link.removeprefix("/signin/")
    log = server.log.read_text()
    assert log.count("/signin/") >= 4  # each request is logged, without the secret
    assert secret not in log


@pytest.mark.services  # nginx
def test_the_shipped_proxy_logs_a_device_links_path_and_referer_without_its_secret(
    tmp_path: Path,
) -> None:
    """deploy/nginx.conf, the scaled profile's proxy, logs every request it passes on."""
    server = production_server(tmp_path)
    try:
        nginx = start_nginx(tmp_path, [server])
        try:
            with httpx.Client(base_url=nginx.base_url) as browser:
                link = browser.post("/api/me/links", json={}).json()["url"]
                page = {"referer": f"{nginx.base_url}{link}"}
                assert browser.get(link).status_code == 200
                assert browser.get("/static/css/app.css", headers=page).status_code == 200
                assert browser.post(link, headers=page).status_code == 303
        finally:
            nginx.stop()
    finally:
        server.stop()
    log = (tmp_path / "nginx" / "access.log").read_text()
    assert link.removeprefix("/signin/") not in log
    assert log.count("/signin/<link>") == 4  # two requests, two pages they came from
