"""What an operator sees: /healthz, /readyz, /metrics, and structured log lines."""

from __future__ import annotations

import json
import logging
import sys
from collections.abc import Iterator

import pytest

from app.observability import JsonFormatter, TextFormatter, configure_logging, wants_json
from app.settings import Settings

UVICORN_LOGGERS = ("uvicorn", "uvicorn.error", "uvicorn.access")


@pytest.fixture(autouse=True)
def restore_logging() -> Iterator[None]:
    """configure_logging changes process-wide loggers; put them back after each test."""
    loggers = [logging.getLogger(), *map(logging.getLogger, UVICORN_LOGGERS)]
    saved = [(lg, lg.handlers[:], lg.level, lg.propagate) for lg in loggers]
    yield
    for lg, handlers, level, propagate in saved:
        lg.handlers[:] = handlers
        lg.setLevel(level)
        lg.propagate = propagate


def record(message: str, **extra: object) -> logging.LogRecord:
    entry = logging.makeLogRecord({"name": "app.services.rooms", "levelname": "INFO"})
    entry.msg = message
    entry.__dict__.update(extra)
    return entry


# --- log lines ---


def test_json_line_has_time_level_logger_message_and_the_extra_fields() -> None:
    line = JsonFormatter().format(record("room created", room_id="Ab3x", seat=0, game="scoundrel"))
    entry = json.loads(line)
    assert entry.keys() == {"time", "level", "logger", "message", "room_id", "seat", "game"}
    assert entry["level"] == "INFO"
    assert entry["logger"] == "app.services.rooms"
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
    assert line.endswith("INFO    app.services.rooms: seat taken [room_id=Ab3x seat=1]")


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
