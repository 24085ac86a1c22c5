"""What an operator sees from outside: structured logs, health checks and Prometheus metrics."""

from __future__ import annotations

import functools
import ipaddress
import json
import logging
import re
import sys
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from fastapi import APIRouter, Request, Response
from fastapi.responses import JSONResponse, PlainTextResponse
from prometheus_client import (
    CollectorRegistry,
    Counter,
    Gauge,
    GCCollector,
    Histogram,
    PlatformCollector,
    ProcessCollector,
    start_http_server,
)
from prometheus_client.exposition import choose_encoder
from sqlalchemy import Engine, text
from sqlalchemy.exc import SQLAlchemyError

from app.edge import error_response
from app.settings import Settings

logger = logging.getLogger(__name__)

# Metrics live in one registry per process, created at import: building several apps in
# one process (tests) shares them instead of registering the same names twice.
REGISTRY = CollectorRegistry()
ProcessCollector(registry=REGISTRY)
PlatformCollector(registry=REGISTRY)
GCCollector(registry=REGISTRY)

ROOMS_OPEN = Gauge("kartenrunde_rooms_open", "Rooms open now", registry=REGISTRY)
MATCHES_IN_PROGRESS = Gauge(
    "kartenrunde_matches_in_progress", "Matches started and not yet over", registry=REGISTRY
)
WS_CONNECTIONS = Gauge(
    "kartenrunde_ws_connections", "Open websocket connections", registry=REGISTRY
)
ACTIONS = Counter(
    "kartenrunde_actions", "Accepted game actions", labelnames=["game"], registry=REGISTRY
)


@functools.cache
def actions_of(game: str) -> Counter:
    """The game's child of ACTIONS, looked up once (``labels`` takes a lock every call)."""
    return ACTIONS.labels(game)


ACTION_LATENCY = Histogram(
    "kartenrunde_action_latency_seconds",
    "Time from receiving an action to fanning out the new state",
    buckets=(0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25),
    registry=REGISTRY,
)

router = APIRouter(tags=["operations"])


@router.get("/healthz")
def healthz() -> dict[str, str]:
    return {"status": "ok"}


# A plain def: FastAPI runs it in a worker thread, so a slow database never blocks the loop.
@router.get(
    "/readyz",
    responses={503: {"description": "the database, or Redis for several processes, is away"}},
)
def readyz(request: Request) -> JSONResponse:
    # With several processes, a process is ready once it hears the others (REDIS_URL):
    # news sent before it subscribed would be lost to its sockets.
    relay = getattr(request.app.state, "relay", None)
    if relay is not None and not relay.connected:
        return JSONResponse(
            {"status": "unavailable", "detail": "redis unreachable"}, status_code=503
        )
    engine: Engine = request.app.state.db_engine
    try:
        with engine.connect() as connection:
            connection.execute(text("SELECT 1"))
    except SQLAlchemyError as error:
        # The reason goes to the log only: /readyz is public and the error names hosts.
        logger.warning("database unreachable: %s", error)
        return JSONResponse(
            {"status": "unavailable", "detail": "database unreachable"}, status_code=503
        )
    return JSONResponse({"status": "ready"})


# /metrics on the site's port when no METRICS_PORT is set (app/main.py), to this machine only.
metrics_router = APIRouter(tags=["operations"])
# The API's error body (app/protocol.py), which the other routes put among the schemas.
_ERROR_RESPONSE = "#/components/schemas/ErrorResponse"
# Headers a proxy adds to a request it relays (a direct scraper sends none of them).
_RELAYED = ("forwarded", "x-forwarded-for", "x-forwarded-host", "x-real-ip", "via")


@metrics_router.get(
    "/metrics",
    response_class=PlainTextResponse,
    responses={
        200: {"content": {"application/openmetrics-text": {}}},
        404: {
            "description": "asked from another machine",
            "content": {"application/json": {"schema": {"$ref": _ERROR_RESPONSE}}},
        },
    },
)
def metrics(request: Request) -> Response:
    if not from_this_machine(request):
        return error_response(404, "unknown_path", "no such path")
    # The scraper's Accept header picks the format (Prometheus text or OpenMetrics).
    encode, content_type = choose_encoder(request.headers.get("accept", ""))
    return Response(encode(REGISTRY), headers={"content-type": content_type})


def from_this_machine(request: Request) -> bool:
    """The request's peer is a loopback address and no proxy relayed it. uvicorn puts the
    address of a trusted proxy's X-Forwarded-For in ``request.client``, so a request
    carrying one is refused whatever address it names, and so is one with another header
    a proxy adds (a proxy that adds none looks like a scraper on this machine: the README
    has it block /metrics)."""
    if request.client is None or any(name in request.headers for name in _RELAYED):
        return False
    try:
        peer = ipaddress.ip_address(request.client.host)
    except ValueError:  # no address at all (a test client's name)
        return False
    if isinstance(peer, ipaddress.IPv6Address) and peer.ipv4_mapped is not None:
        peer = peer.ipv4_mapped  # an IPv4 peer of a socket listening on IPv6
    return peer.is_loopback


def serve_metrics(port: int) -> Callable[[], None]:
    """/metrics on a port of its own (any path there answers the same), in a thread of
    this process; returns what stops it."""
    server, thread = start_http_server(port, registry=REGISTRY)
    logger.info("metrics served on port %d only", port, extra={"metrics_port": port})

    def stop() -> None:
        server.shutdown()
        server.server_close()
        thread.join()

    return stop


# Everything a LogRecord carries by itself; any other attribute came from `extra=`.
_RECORD_FIELDS = set(logging.makeLogRecord({}).__dict__) | {"message", "asctime", "taskName"}
# uvicorn passes a coloured copy of its message as an extra; it is noise in a log file.
_IGNORED_EXTRAS = {"color_message"}


def _extras(record: logging.LogRecord) -> dict[str, Any]:
    return {
        key: value
        for key, value in record.__dict__.items()
        if key not in _RECORD_FIELDS and key not in _IGNORED_EXTRAS
    }


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time, level, logger, message, then the `extra=` fields."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            **_extras(record),
        }
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        if record.stack_info:
            entry["stack"] = self.formatStack(record.stack_info)
        return json.dumps(entry, default=str)


class TextFormatter(logging.Formatter):
    """A line a developer reads in a terminal, with the `extra=` fields as key=value."""

    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)-7s %(name)s: %(message)s")

    def format(self, record: logging.LogRecord) -> str:
        line = super().format(record)
        extras = " ".join(f"{key}={value}" for key, value in _extras(record).items())
        if not extras:
            return line
        head, newline, trace = line.partition("\n")
        return f"{head} [{extras}]{newline}{trace}"


# A device link's secret signs a browser in for ten minutes: whoever reads it in a log could
# use it. The paths that carry one are logged with the secret left out.
_SECRET_PATH = re.compile(r"^/signin/[^/?]+")


def loggable_path(path: str) -> str:
    """The path as a log may show it: a device link's secret replaced by ``<link>``."""
    return _SECRET_PATH.sub("/signin/<link>", path)


class HideSecrets(logging.Filter):
    """uvicorn's access log line without a device link's secret (its path is the third of
    the record's arguments: client, method, path, HTTP version, status)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.name == "uvicorn.access" and isinstance(record.args, tuple):
            args = list(record.args)
            if len(args) > 2 and isinstance(args[2], str):
                args[2] = loggable_path(args[2])
                record.args = tuple(args)
        return True


_HANDLER_NAME = "kartenrunde"
_UVICORN_LOGGERS = ("uvicorn", "uvicorn.error", "uvicorn.access")


def wants_json(settings: Settings) -> bool:
    if settings.log_format == "auto":
        return settings.environment == "production"
    return settings.log_format == "json"


def configure_logging(settings: Settings) -> None:
    """Send every log record, uvicorn's included, through one handler on the root logger.

    Safe to call again (each app created in a test does): it replaces its own handler and
    leaves other handlers on the root logger (pytest's caplog) alone.
    """
    handler = logging.StreamHandler(sys.stderr)
    handler.set_name(_HANDLER_NAME)
    handler.setFormatter(JsonFormatter() if wants_json(settings) else TextFormatter())
    handler.addFilter(HideSecrets())
    root = logging.getLogger()
    for old in [h for h in root.handlers if h.get_name() == _HANDLER_NAME]:
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(settings.log_level.upper())
    # uvicorn configures its own handlers before it imports the app; hand them to the root.
    for name in _UVICORN_LOGGERS:
        uvicorn_logger = logging.getLogger(name)
        uvicorn_logger.handlers.clear()
        uvicorn_logger.setLevel(logging.NOTSET)
        uvicorn_logger.propagate = True
