"""The real pieces of a scaled setup on loopback, for tests: server processes
(``python -m app``, started by tests/server.py) on their own ports, nginx from Debian's
package in front of them with the shipped site (round robin, no stickiness), PostgreSQL
and Redis. Everything bounded in time.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import socket
import subprocess
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from tests.server import ROOT, AppProcess, free_port

SHARED_REDIS = "redis://127.0.0.1:6379/0"  # the machine's Redis (scripts/ensure-services)
SECRET = "cluster-tests-" + "c" * 32


class Redis:
    """A redis-server of the test's own; ``options`` are more of its command line."""

    def __init__(self, tmp: Path, *options: str) -> None:
        self.port = free_port()
        self.tmp = tmp
        self.options = options
        self.process: subprocess.Popen[bytes] | None = None
        self.started = False

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        """Start redis-server and wait until it answers. At the first start, a port that
        another process took after free_port found it free (redis-server then exits) is
        swapped for a new one; a restart keeps its port, which the apps know."""
        binary = shutil.which("redis-server")
        assert binary, "redis-server is missing (scripts/ensure-services needs it too)"
        for _attempt in range(3):
            self.process = subprocess.Popen(
                [binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
                 "--appendonly", "no", "--dir", str(self.tmp), *self.options],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.STDOUT,
            )  # fmt: skip
            if self._answers_within(10):
                self.started = True
                return
            if self.started:
                break  # a restart keeps its port
            self.port = free_port()
        raise AssertionError(f"redis-server on {self.port} did not answer within 10 s")

    def _answers_within(self, seconds: float) -> bool:
        """Whether it answers before ``seconds`` pass (at least one try) or it exits."""
        assert self.process is not None
        deadline = time.monotonic() + seconds
        while True:
            with contextlib.suppress(OSError):
                if _redis_answers(self.port):
                    return True
            if self.process.poll() is not None or time.monotonic() >= deadline:
                return False
            time.sleep(0.1)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)


def _redis_answers(port: int) -> bool:
    with socket.create_connection(("127.0.0.1", port), timeout=1) as probe:
        probe.sendall(b"PING\r\n")
        return probe.recv(16).startswith((b"+PONG", b"-NOAUTH"))  # (with a password)


def wait_for(check: Callable[[], bool], seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if check():
                return
        except Exception:
            pass
        time.sleep(0.1)
    raise AssertionError(f"not within {seconds} s: {what}")


def start_apps(
    tmp: Path, database_url: str, redis_url: str, count: int = 2, **settings: str
) -> list[AppProcess]:
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "REDIS_URL": redis_url,
        "SECRET_KEY": SECRET,
        "ENVIRONMENT": "development",
        "LOG_LEVEL": "INFO",
        **settings,
    }
    apps: list[AppProcess] = []
    try:
        for _ in range(count):
            port = free_port()
            apps.append(AppProcess(port, env, tmp / f"app-{port}.log").start())
    except BaseException:
        for app in apps:  # the test never gets them to stop
            app.stop(timeout=5)
        raise
    return apps


# The shipped proxy (deploy/nginx.conf) on loopback: round robin over these processes (on
# ports of their own, which one name in DNS cannot give) where it asks Docker's DNS for
# the replicas, a port of its own, its files in the test's folder.
SHIPPED_PROXY = ROOT / "deploy" / "nginx.conf"
NGINX_CONF = """
daemon off;
worker_processes 1;
pid {tmp}/nginx.pid;
error_log {tmp}/nginx-error.log warn;
worker_rlimit_nofile 16384;
events {{ worker_connections 8192; }}
http {{
    access_log off;
    client_body_temp_path {tmp}/nginx-body;
    proxy_temp_path {tmp}/nginx-proxy;
    fastcgi_temp_path {tmp}/nginx-fastcgi;
    uwsgi_temp_path {tmp}/nginx-uwsgi;
    scgi_temp_path {tmp}/nginx-scgi;
{site}
}}
"""


def proxy_site(apps: list[AppProcess], port: int, access_log: Path) -> str:
    servers = "".join(f"    server 127.0.0.1:{app.port} max_fails=0;\n" for app in apps)
    site, passes = re.subn(
        r"proxy_pass http://\$replicas:8000;",
        "proxy_pass http://replicas;",
        SHIPPED_PROXY.read_text(),
    )
    site, listens = re.subn(r"listen 80;", f"listen 127.0.0.1:{port};", site)
    site, logs = re.subn(
        r"access_log /var/log/nginx/access.log ", f"access_log {access_log} ", site
    )
    assert passes == listens == logs == 1, f"{SHIPPED_PROXY} changed its proxy_pass, port or log"
    return "upstream replicas {\n" + servers + "}\n" + site


@dataclass
class Nginx:
    port: int
    process: subprocess.Popen[bytes]

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def nginx_binary() -> str:
    found = shutil.which("nginx") or (
        "/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None
    )
    assert found, "nginx is missing: `make test` installs Debian's package (make proxy)"
    return found


def start_nginx(tmp: Path, apps: list[AppProcess]) -> Nginx:
    port = free_port()
    directory = tmp / "nginx"
    directory.mkdir(exist_ok=True)
    conf = directory / "nginx.conf"
    site = proxy_site(apps, port, directory / "access.log")
    conf.write_text(NGINX_CONF.format(tmp=directory, site=site))
    process = subprocess.Popen(
        [
            nginx_binary(),
            "-c",
            str(conf),
            "-p",
            str(directory),
            "-e",
            str(directory / "nginx-error.log"),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.STDOUT,
    )
    nginx = Nginx(port, process)
    wait_for(
        lambda: httpx.get(f"{nginx.base_url}/healthz", timeout=1).status_code == 200,
        15,
        "nginx answers",
    )
    return nginx


@contextmanager
def behind_nginx(
    tmp: Path, database_url: str, redis_url: str = SHARED_REDIS, **settings: str
) -> Iterator[tuple[list[AppProcess], Nginx]]:
    """Two app processes with these settings, and nginx in front of them, while the block
    runs."""
    apps = start_apps(tmp, database_url, redis_url, **settings)
    try:
        nginx = start_nginx(tmp, apps)
        try:
            yield apps, nginx
        finally:
            nginx.stop()
    finally:
        for app in apps:
            app.stop()


def served_sockets(base_url: str) -> float:
    """The websockets the server process at ``base_url`` has open (its metrics)."""
    for line in httpx.get(f"{base_url}/metrics", timeout=2).text.splitlines():
        if line.startswith("kartenrunde_ws_connections "):
            return float(line.split()[1])
    return 0.0


# Players


def create_room(base_url: str, game: str = "expeditionen", **options: Any) -> str:
    answer = httpx.post(f"{base_url}/api/rooms", json={"game": game, "options": options})
    assert answer.status_code in (200, 201), answer.text
    room_id: str = answer.json()["room_id"]
    return room_id


def join(base_url: str, room_id: str, name: str) -> tuple[int | None, str]:
    answer = httpx.post(f"{base_url}/api/rooms/{room_id}/join", json={"name": name})
    assert answer.status_code == 200, answer.text
    return answer.json()["seat"], answer.cookies["kr_player"]


@dataclass
class Client:
    """A websocket of a room (a player with a cookie, or a spectator) and what it heard."""

    base_url: str
    room_id: str
    cookie: str | None = None
    ws: ClientConnection | None = None
    state: dict[str, Any] = field(default_factory=dict)
    presence: list[dict[str, Any]] = field(default_factory=list)
    rematch: list[int] = field(default_factory=list)
    errors: list[dict[str, Any]] = field(default_factory=list)
    closed: int | None = None
    takeover: dict[str, Any] | None = None  # the latest takeover offer heard
    chat: list[dict[str, Any]] = field(default_factory=list)  # the chat lines heard

    def open(self, base_url: str | None = None) -> Client:
        self.base_url = base_url or self.base_url
        url = self.base_url.replace("http://", "ws://") + f"/ws/rooms/{self.room_id}"
        headers = {"Cookie": f"kr_player={self.cookie}"} if self.cookie else {}
        self.ws = connect(url, additional_headers=headers, open_timeout=5, close_timeout=2)
        self.closed = None
        self.until(lambda: bool(self.state), 5, "the first state")
        return self

    def close(self) -> None:
        if self.ws is not None:
            self.ws.close()

    def receive(self, timeout: float) -> dict[str, Any] | None:
        assert self.ws is not None
        try:
            message: dict[str, Any] = json.loads(self.ws.recv(timeout=timeout))
        except TimeoutError:
            return None
        except ConnectionClosed as closed:
            self.closed = closed.rcvd.code if closed.rcvd else 1006
            raise
        if message["type"] == "state":
            self.state = message
            self.presence = message["players"]
        elif message["type"] == "presence":
            self.presence = message["players"]
        elif message["type"] == "rematch":
            self.rematch = message["requested_by"]
        elif message["type"] == "error":
            self.errors.append(message)
        elif message["type"] == "takeover":
            self.takeover = message
        elif message["type"] == "chat":
            self.chat.append(message)
        return message

    def until(self, done: Callable[[], bool], seconds: float, what: str) -> None:
        deadline = time.monotonic() + seconds
        while not done():
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(
                    f"{what}: not within {seconds} s; errors {self.errors}; last state {self.state}"
                )
            self.receive(min(left, 0.5))

    def at(self, match_number: int, version: int) -> bool:
        return (self.state.get("match_number"), self.state.get("version")) == (
            match_number,
            version,
        )

    def act(self, action: dict[str, Any]) -> None:
        assert self.ws is not None
        self.ws.send(
            json.dumps({"type": "action", "version": self.state["version"], "action": action})
        )

    def send(self, message: dict[str, Any]) -> None:
        assert self.ws is not None
        self.ws.send(json.dumps(message))

    def connected(self, seat: int) -> bool:
        return bool(self.presence and self.presence[seat]["connected"])
