"""What an operator sees: /healthz, /readyz, /metrics, and structured log lines."""

from __future__ import annotations

import json
import logging
import socket
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from prometheus_client.parser import text_string_to_metric_families
from pydantic import ValidationError
from sqlalchemy import create_engine

from app.main import create_app
from app.observability import JsonFormatter, TextFormatter, configure_logging, wants_json
from app.settings import Settings
from tests.server import free_port

UVICORN_LOGGERS = ("uvicorn", "uvicorn.error", "uvicorn.access")


@pytest.fixture(autouse=True)
def restore_logging() -> Iterator[None]:
    """configure_logging changes process-wide loggers; put them back after each test."""
    root = logging.getLogger()
    ours_before = [h for h in root.handlers if h.get_name() == "kartenrunde"]
    root_level = root.level
    uvicorn = [logging.getLogger(name) for name in UVICORN_LOGGERS]
    saved = [(lg, lg.handlers[:], lg.level, lg.propagate) for lg in uvicorn]
    yield
    for handler in root.handlers[:]:
        if handler.get_name() == "kartenrunde":
            root.removeHandler(handler)
    for handler in ours_before:
        root.addHandler(handler)
    root.setLevel(root_level)
    for lg, handlers, level, propagate in saved:
        lg.handlers[:] = handlers
        lg.setLevel(level)
        lg.propagate = propagate


def app_settings(tmp_path: Path, **values: Any) -> Settings:
    return Settings(_env_file=None, database_url=f"sqlite:///{tmp_path / 'kr.db'}", **values)


# A scraper on this machine: /metrics answers it without METRICS_PORT.
LOOPBACK = ("127.0.0.1", 50000)


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(app_settings(tmp_path)), client=LOOPBACK) as client:
        yield client


def metric(client: TestClient, name: str, **labels: str) -> float:
    """One sample as /metrics shows it (0 when the labelled series does not exist yet)."""
    for family in text_string_to_metric_families(client.get("/metrics").text):
        for sample in family.samples:
            if sample.name == name and sample.labels == labels:
                return sample.value
    return 0.0


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def open_scoundrel_room(client: TestClient) -> str:
    room_id: str = client.post("/api/rooms", json={"game": "scoundrel"}).json()["room_id"]
    assert client.post(f"/api/rooms/{room_id}/join", json={"name": "Ada"}).json() == {"seat": 0}
    return room_id


def receive_state(socket: Any) -> dict[str, Any]:
    while (message := socket.receive_json())["type"] != "state":
        pass
    return message


# --- health ---


def test_healthz_says_the_process_lives(client: TestClient) -> None:
    answer = client.get("/healthz")
    assert (answer.status_code, answer.json()) == (200, {"status": "ok"})


def test_readyz_is_ready_when_the_database_answers(settings: Settings) -> None:
    """On both databases: `settings` comes once with SQLite and once with PostgreSQL."""
    with TestClient(create_app(settings)) as client:
        answer = client.get("/readyz")
    assert (answer.status_code, answer.json()) == (200, {"status": "ready"})


def test_readyz_is_unavailable_when_the_database_is_unreachable(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    gone = create_engine(f"postgresql+psycopg://postgres@127.0.0.1:{closed_port()}/kartenrunde")
    monkeypatch.setattr(client.app.state, "db_engine", gone)  # type: ignore[attr-defined]
    answer = client.get("/readyz")
    gone.dispose()
    assert answer.status_code == 503
    assert answer.json() == {"status": "unavailable", "detail": "database unreachable"}
    assert "database unreachable" in caplog.text
    assert "refused" in caplog.text.lower()


# --- metrics ---


def test_metrics_are_prometheus_text_with_the_kartenrunde_metrics(client: TestClient) -> None:
    answer = client.get("/metrics")
    assert answer.headers["content-type"] == "text/plain; version=0.0.4; charset=utf-8"
    kinds = {f.name: f.type for f in text_string_to_metric_families(answer.text)}
    assert kinds["kartenrunde_rooms_open"] == "gauge"
    assert kinds["kartenrunde_matches_in_progress"] == "gauge"
    assert kinds["kartenrunde_ws_connections"] == "gauge"
    assert kinds["kartenrunde_actions"] == "counter"
    assert kinds["kartenrunde_action_latency_seconds"] == "histogram"


def test_metrics_speak_openmetrics_to_a_scraper_that_asks_for_it(client: TestClient) -> None:
    answer = client.get("/metrics", headers={"accept": "application/openmetrics-text"})
    assert answer.headers["content-type"].startswith("application/openmetrics-text")
    assert answer.text.endswith("# EOF\n")


def test_creating_another_app_in_the_same_process_keeps_the_metrics(
    client: TestClient, tmp_path: Path
) -> None:
    another = create_app(app_settings(tmp_path))
    assert "kartenrunde_rooms_open" in TestClient(another, client=LOOPBACK).get("/metrics").text
    assert "kartenrunde_rooms_open" in client.get("/metrics").text


def test_with_a_metrics_port_metrics_are_served_there_and_not_on_the_site(
    tmp_path: Path,
) -> None:
    port = free_port()
    with TestClient(create_app(app_settings(tmp_path, metrics_port=port))) as client:
        assert client.get("/metrics").status_code == 404
        assert client.get("/healthz").status_code == 200
        answer = httpx.get(f"http://127.0.0.1:{port}/metrics", timeout=5)
        assert answer.status_code == 200
        assert "kartenrunde_rooms_open" in answer.text
    with pytest.raises(httpx.ConnectError):
        httpx.get(f"http://127.0.0.1:{port}/metrics", timeout=5)


@pytest.mark.parametrize(
    ("peer", "headers", "status"),
    [
        ("127.0.0.1", {}, 200),  # a scraper on this machine
        ("::1", {}, 200),
        ("127.0.0.2", {}, 200),
        ("::ffff:127.0.0.1", {}, 200),  # IPv4 on a socket listening on IPv6
        ("203.0.113.7", {}, 404),  # anyone else
        ("192.168.1.20", {}, 404),
        ("testclient", {}, 404),
        # A proxy on this machine relaying someone: never taken for the machine itself.
        ("127.0.0.1", {"x-forwarded-for": "127.0.0.1"}, 404),
        ("127.0.0.1", {"forwarded": "for=203.0.113.7"}, 404),
        ("127.0.0.1", {"x-real-ip": "203.0.113.7"}, 404),
        ("127.0.0.1", {"via": "1.1 proxy"}, 404),
    ],
)
def test_without_a_metrics_port_metrics_answer_only_this_machine(
    tmp_path: Path, peer: str, headers: dict[str, str], status: int
) -> None:
    with TestClient(create_app(app_settings(tmp_path)), client=(peer, 50000)) as client:
        answer = client.get("/metrics", headers=headers)
    assert answer.status_code == status
    if status == 404:
        assert answer.json()["detail"]["code"] == "unknown_path"
        assert "kartenrunde" not in answer.text


@pytest.mark.parametrize("port", ["0", "65536", "nine"])
def test_a_metrics_port_outside_1_to_65535_is_refused(
    port: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("METRICS_PORT", port)
    with pytest.raises(ValidationError, match="metrics_port"):
        Settings(_env_file=None)


def test_latency_buckets_reach_from_a_tenth_of_a_millisecond_to_past_100_ms(
    client: TestClient,
) -> None:
    text = client.get("/metrics").text
    assert 'kartenrunde_action_latency_seconds_bucket{le="0.0001"}' in text
    assert 'kartenrunde_action_latency_seconds_bucket{le="0.1"}' in text


def test_an_open_room_with_its_seat_taken_counts_a_room_and_a_match(client: TestClient) -> None:
    rooms, matches = (metric(client, "kartenrunde_rooms_open"),
                      metric(client, "kartenrunde_matches_in_progress"))  # fmt: skip
    open_scoundrel_room(client)
    assert metric(client, "kartenrunde_rooms_open") == rooms + 1
    assert metric(client, "kartenrunde_matches_in_progress") == matches + 1


def test_an_open_websocket_counts_as_a_connection(client: TestClient) -> None:
    room_id = open_scoundrel_room(client)
    before = metric(client, "kartenrunde_ws_connections")
    with client.websocket_connect(f"/ws/rooms/{room_id}") as socket:
        receive_state(socket)
        # The pong proves the server's receive loop runs, so the connection is counted.
        socket.send_json({"type": "ping"})
        while socket.receive_json()["type"] != "pong":
            pass
        assert metric(client, "kartenrunde_ws_connections") == before + 1


def test_a_move_over_the_websocket_counts_an_action_and_its_latency(client: TestClient) -> None:
    room_id = open_scoundrel_room(client)
    actions = metric(client, "kartenrunde_actions_total", game="scoundrel")
    timed = metric(client, "kartenrunde_action_latency_seconds_count")
    with client.websocket_connect(f"/ws/rooms/{room_id}") as socket:
        state = receive_state(socket)
        move = state["legal_actions"][0]
        socket.send_json({"type": "action", "version": state["version"], "action": move})
        assert receive_state(socket)["version"] == state["version"] + 1
    assert metric(client, "kartenrunde_actions_total", game="scoundrel") == actions + 1
    assert metric(client, "kartenrunde_action_latency_seconds_count") == timed + 1


# --- log lines ---


def test_a_room_event_is_a_json_line_with_its_room_id(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with TestClient(create_app(app_settings(tmp_path, log_format="json"))) as client:
        capsys.readouterr()
        room_id = client.post("/api/rooms", json={"game": "scoundrel"}).json()["room_id"]
        lines = capsys.readouterr().err.splitlines()
    entries = [json.loads(line) for line in lines]
    (created,) = [entry for entry in entries if entry["message"] == "room created"]
    assert created["room_id"] == room_id
    assert created["logger"] == "app.table.rooms"


def record(message: str, **extra: object) -> logging.LogRecord:
    entry = logging.makeLogRecord({"name": "app.table.rooms", "levelname": "INFO"})
    entry.msg = message
    entry.__dict__.update(extra)
    return entry


def test_json_line_has_time_level_logger_message_and_the_extra_fields() -> None:
    line = JsonFormatter().format(record("room created", room_id="Ab3x", seat=0, game="scoundrel"))
    entry = json.loads(line)
    assert entry.keys() == {"time", "level", "logger", "message", "room_id", "seat", "game"}
    assert entry["level"] == "INFO"
    assert entry["logger"] == "app.table.rooms"
    assert entry["message"] == "room created"
    assert entry["room_id"] == "Ab3x"
    assert entry["seat"] == 0
    assert entry["time"].endswith("+00:00")


def test_json_line_keeps_a_traceback_on_one_line() -> None:
    failure = record("storing an action failed", room_id="R")
    try:
        raise RuntimeError("disk full")
    except RuntimeError:
        failure.exc_info = sys.exc_info()
    line = JsonFormatter().format(failure)
    assert "\n" not in line
    assert "RuntimeError: disk full" in json.loads(line)["exception"]


def test_json_line_writes_values_json_cannot_as_text() -> None:
    entry = json.loads(JsonFormatter().format(record("odd", seats={1})))
    assert entry["seats"] == "{1}"


def test_uvicorn_colour_copy_of_the_message_is_left_out() -> None:
    entry = json.loads(JsonFormatter().format(record("Started", color_message="\x1b[1mStarted")))
    assert "color_message" not in entry


def test_text_line_is_readable_with_the_extra_fields_as_key_value() -> None:
    line = TextFormatter().format(record("seat taken", room_id="Ab3x", seat=1))
    assert line.endswith("INFO    app.table.rooms: seat taken [room_id=Ab3x seat=1]")


@pytest.mark.parametrize(
    ("environment", "log_format", "json_lines"),
    [
        ("production", "auto", True),
        ("development", "auto", False),
        ("development", "json", True),
        ("production", "text", False),
    ],
)
def test_log_format_auto_means_json_in_production(
    environment: str, log_format: str, json_lines: bool
) -> None:
    settings = Settings(
        _env_file=None,
        environment=environment,
        log_format=log_format,
        secret_key="k" * 32,
    )
    assert wants_json(settings) is json_lines


def our_handlers() -> list[logging.Handler]:
    return [h for h in logging.getLogger().handlers if h.get_name() == "kartenrunde"]


def test_configuring_twice_leaves_one_handler_with_the_last_format() -> None:
    configure_logging(Settings(_env_file=None, log_format="text"))
    configure_logging(Settings(_env_file=None, log_format="json"))
    (handler,) = our_handlers()
    assert isinstance(handler.formatter, JsonFormatter)


def test_log_level_comes_from_the_settings() -> None:
    configure_logging(Settings(_env_file=None, log_level="warning"))
    assert logging.getLogger().level == logging.WARNING


def test_uvicorn_logs_through_the_same_handler() -> None:
    logging.getLogger("uvicorn.access").addHandler(logging.StreamHandler())
    configure_logging(Settings(_env_file=None, log_format="json"))
    for name in UVICORN_LOGGERS:
        uvicorn_logger = logging.getLogger(name)
        assert uvicorn_logger.handlers == []
        assert uvicorn_logger.propagate
        assert uvicorn_logger.getEffectiveLevel() == logging.getLogger().level
