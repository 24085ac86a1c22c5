"""The server process the Docker image runs, against PostgreSQL: what `docker compose up` does.

Each test starts the real server (uvicorn, production settings) as a subprocess on its own
fresh database, the way the container starts it, and looks at it from outside over HTTP.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import psycopg
import pytest
import yaml
from sqlalchemy.engine import make_url

from app.settings import INSECURE_SECRET, Settings
from tests.server import STARTUP_SECONDS, AppProcess, free_port

pytestmark = pytest.mark.services  # PostgreSQL, as in the image
ROOT = Path(__file__).resolve().parents[2]
POSTGRES_URL = make_url(
    os.environ.get("TEST_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test")
)
SECRET = "5e1f" * 16


def admin() -> psycopg.Connection[tuple[object, ...]]:
    conninfo = POSTGRES_URL.set(drivername="postgresql").render_as_string(hide_password=False)
    return psycopg.connect(conninfo, autocommit=True)


@contextmanager
def empty_database(purpose: str = "") -> Iterator[str]:
    """An empty database of its own while the block runs, as a new container gets; its
    name is this process's (runs on one machine never meet) and ``purpose``."""
    name = f"kr_selfhost_{os.getpid()}{purpose and '_' + purpose}"
    with admin() as connection:
        connection.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        connection.execute(f"CREATE DATABASE {name}")
    try:
        yield POSTGRES_URL.set(database=name).render_as_string(hide_password=False)
    finally:
        with admin() as connection:
            connection.execute(f"DROP DATABASE {name} WITH (FORCE)")


@pytest.fixture
def fresh_database() -> Iterator[str]:
    with empty_database() as url:
        yield url


def production_environment(database_url: str, secret: str | None = SECRET) -> dict[str, str]:
    """The environment the image gives the server, and nothing of this machine's settings."""
    environment = {
        name: value
        for name, value in os.environ.items()
        if name.lower() not in Settings.model_fields
    }
    environment.update(ENVIRONMENT="production", DATABASE_URL=database_url)
    if secret is not None:
        environment["SECRET_KEY"] = secret
    return environment


def start_server(environment: dict[str, str], workdir: Path) -> AppProcess:
    """The image's CMD, run from an empty directory so that no local .env is read."""
    port = free_port()
    return AppProcess(port, environment, workdir / f"server-{port}.log", cwd=workdir)


StartServer = Callable[[], AppProcess]


@pytest.fixture
def start(fresh_database: str, tmp_path: Path) -> Iterator[StartServer]:
    """Starts a production server on the test's database and waits until it is ready."""
    servers: list[AppProcess] = []

    def start_ready() -> AppProcess:
        server = start_server(production_environment(fresh_database), tmp_path)
        servers.append(server)
        return server.start()

    yield start_ready
    for server in servers:
        server.stop()


def create_room(server: AppProcess) -> str:
    answer = httpx.post(f"{server.base_url}/api/rooms", json={"game": "scoundrel"})
    assert answer.status_code == 201, answer.text
    room_id: str = answer.json()["room_id"]
    return room_id


def test_rooms_survive_a_restart_on_the_same_database(start: StartServer) -> None:
    first = start()
    room_id = create_room(first)
    first.stop()

    second = start()
    answer = httpx.get(f"{second.base_url}/api/rooms/{room_id}")
    assert answer.status_code == 200
    assert answer.json()["game"] == "scoundrel"


def json_object(line: str) -> dict[str, object] | None:
    try:
        entry = json.loads(line)
    except ValueError:
        return None
    return entry if isinstance(entry, dict) else None


def test_production_logs_are_json_lines_uvicorn_included(start: StartServer) -> None:
    server = start()
    room_id = create_room(server)
    server.stop()
    lines = server.log_lines()
    not_json = [line for line in lines if json_object(line) is None]
    # uvicorn logs its start before the app's lifespan runs: logging must be configured
    # when the app is created, or these lines keep uvicorn's own text format.
    assert not_json == []
    entries = [entry for entry in map(json_object, lines) if entry is not None]
    assert all({"time", "level", "logger", "message"} <= entry.keys() for entry in entries)
    assert {"uvicorn.error", "uvicorn.access"} <= {entry["logger"] for entry in entries}
    assert any(entry.get("room_id") == room_id for entry in entries)


def health_checks() -> dict[str, list[str]]:
    """The image's and compose's health check commands, as the container would run them."""
    dockerfile = (ROOT / "Dockerfile").read_text().replace("\\\n", " ")
    image_check = re.search(r"^HEALTHCHECK .*?CMD (\[.*\])$", dockerfile, flags=re.MULTILINE)
    assert image_check
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    return {
        "image": json.loads(image_check.group(1)),
        "compose": compose["services"]["app"]["healthcheck"]["test"][1:],
    }


@pytest.fixture(scope="module")
def running_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[AppProcess]:
    """One production server for the health checks, which only look at it, on a database of
    its own (`fresh_database` is one name per process)."""
    with empty_database("checked") as url:
        server = start_server(production_environment(url), tmp_path_factory.mktemp("checked"))
        try:
            yield server.start()
        finally:
            server.stop()


@pytest.mark.parametrize("owner", ["image", "compose"])
def test_container_health_check_passes_against_the_running_server(
    running_server: AppProcess, owner: str
) -> None:
    server = running_server
    command = [
        part.replace("127.0.0.1:8000", f"127.0.0.1:{server.port}")
        for part in health_checks()[owner]
    ]
    assert command[0] == "python"
    subprocess.run([sys.executable, *command[1:]], check=True)


def test_production_refuses_to_start_with_the_default_secret(
    fresh_database: str, tmp_path: Path
) -> None:
    for secret in (None, INSECURE_SECRET):
        server = start_server(production_environment(fresh_database, secret), tmp_path).launch()
        assert server.process is not None
        assert server.process.wait(timeout=STARTUP_SECONDS) != 0
        assert "SECRET_KEY must be set" in server.log.read_text()
