"""The application: `create_app(settings)` builds it; `app` is what uvicorn serves."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import Depends, FastAPI, Request
from fastapi.exception_handlers import http_exception_handler
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from sqlalchemy.exc import InterfaceError, OperationalError
from starlette.exceptions import HTTPException
from starlette.responses import Response

from app import observability
from app.computer.searches import Searches
from app.edge import Edge
from app.headers import SecurityHeaders
from app.history.daily import Dailies
from app.history.matches import MatchService
from app.history.wire import WireInspector
from app.limits import ConnectionCaps, RoomCreationLimit
from app.messaging import LocalBroadcaster
from app.people.identity import Identity
from app.people.push import Notifier, PushStore
from app.people.records import Records
from app.routes import api, deps, pages, push, ws
from app.settings import Settings, get_settings
from app.storage.dailies import DailyStore
from app.storage.db import create_db_engine, ensure_migrated, start_checkpoints
from app.storage.players import PlayerStore
from app.storage.records import RecordStore
from app.storage.repositories import Store
from app.table.rooms import RoomService, utc_now
from app.table.turns import ClockFile

ROOT = Path(__file__).resolve().parents[1]

logger = logging.getLogger(__name__)


async def close_idle_rooms_every(rooms: RoomService, seconds: float) -> None:
    while True:
        await asyncio.sleep(seconds)
        try:
            await rooms.close_idle_rooms()
        except Exception:  # the next round tries again (the database may be back by then)
            logger.exception("closing idle rooms failed")


async def watch_turns_every(rooms: RoomService, seconds: float) -> None:
    """Turn-based rooms: a seat whose time ran out is offered; a quarter left reminds."""
    while True:
        await asyncio.sleep(seconds)
        try:
            await rooms.sweep_turns()
        except Exception:  # the next round tries again
            logger.exception("watching turn-based rooms failed")


async def validation_error(_request: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, RequestValidationError)
    first = error.errors()[0] if error.errors() else {"loc": (), "msg": "invalid request"}
    where = ".".join(str(part) for part in first["loc"])
    message = f"{where}: {first['msg']}" if where else str(first["msg"])
    return malformed(message)


async def http_error(request: Request, error: Exception) -> Response:
    assert isinstance(error, HTTPException)
    if error.status_code == 400:  # FastAPI's bare answer to a body that is no UTF-8 text
        return malformed("body: not UTF-8 JSON")
    return await http_exception_handler(request, error)


async def database_away(request: Request, error: Exception) -> JSONResponse:
    """The database could not be reached (restarting, a dropped connection, SQLite busy):
    the request changed nothing that was stored and may simply be sent again."""
    path = observability.loggable_path(request.url.path)
    logger.warning("database unreachable: %s", error, extra={"path": path})
    return JSONResponse(
        {"detail": {"code": "unavailable", "message": "the database is unreachable; try again"}},
        status_code=503,
    )


def test_clock(settings: Settings) -> ClockFile | None:
    """TEST_CLOCK_FILE: a test server's clock, moved on by the file's seconds (never in
    production: the settings refuse it there)."""
    if settings.test_clock_file is None:
        return None
    logger.warning("the clock is moved on by %s (tests only)", settings.test_clock_file)
    return ClockFile(settings.test_clock_file, utc_now)


def malformed(message: str) -> JSONResponse:
    return JSONResponse({"detail": {"code": "malformed", "message": message}}, status_code=422)


def create_app(
    settings: Settings | None = None,
    *,
    idle_check_seconds: float | None = None,
    turn_check_seconds: float | None = None,
) -> FastAPI:
    settings = settings or get_settings()
    every = idle_check_seconds or settings.idle_check_seconds
    turns_every = turn_check_seconds or settings.turn_check_seconds
    # Now, not in the lifespan: uvicorn logs its start before the lifespan runs.
    observability.configure_logging(settings)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        ensure_migrated(settings.database_url)
        db_engine = create_db_engine(settings.database_url)
        stop_checkpoints = start_checkpoints(db_engine)
        stop_metrics = (
            observability.serve_metrics(settings.metrics_port) if settings.metrics_port else None
        )
        store = Store(db_engine)
        # Several processes share rooms through Redis; one process needs none.
        relay = None
        if settings.redis_url:
            from app.cluster.relay import RedisRelay  # imported only when used: it costs memory

            relay = RedisRelay(settings.redis_url)
        searches = Searches(settings.search_processes, settings.search_queue)
        matches = MatchService(store, searches)
        notifier = Notifier(settings, PushStore(db_engine), store.off_loop)
        rooms = RoomService(
            settings,
            store,
            LocalBroadcaster(),
            clock=test_clock(settings) or utc_now,
            relay=relay,
            on_deal=matches.foresee if settings.analysis_ahead else None,
            notifier=notifier,
        )
        # Every rating replayed from the database once (app/people/records.py).
        await asyncio.to_thread(rooms.ratings.refresh)
        dailies = Dailies(
            DailyStore(db_engine),
            searches,
            settings.secret_key,
            settings.daily_time_zone,
            lambda: rooms.clock(),  # a test may move the room service's clock
            rooms.create_room,
            rooms.open_room,
            rooms.join,
            store.off_loop,
        )
        matches.holds_back = dailies.held_back
        rooms.rematches.one_match_only = dailies.is_daily_room
        cluster = rooms.cluster
        if relay is not None and cluster is not None:
            relay.start(cluster.on_event, cluster.resync, cluster.heartbeat)
        app.state.db_engine = db_engine
        app.state.relay = relay
        app.state.rooms = rooms
        app.state.identity = Identity(
            PlayerStore(db_engine),
            settings.secret_key,
            store.off_loop,
            on_signed_out=rooms.devices.signed_out,
        )
        app.state.matches = matches
        app.state.wire = WireInspector(store)
        app.state.records = Records(RecordStore(db_engine), rooms.ratings, settings.public_history)
        app.state.dailies = dailies
        app.state.notifier = notifier
        app.state.connection_caps = ConnectionCaps(settings)
        app.state.room_creation_limit = RoomCreationLimit(settings.rooms_per_address_per_minute)
        sweepers = [
            asyncio.create_task(close_idle_rooms_every(rooms, every)),
            asyncio.create_task(watch_turns_every(rooms, turns_every)),
        ]
        try:
            yield
        finally:
            for sweeper in sweepers:
                sweeper.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await sweeper
            if relay is not None:
                await relay.stop()
            await rooms.shutdown()
            searches.close()
            store.close()
            stop_checkpoints()
            if stop_metrics is not None:
                stop_metrics()
            db_engine.dispose()

    app = FastAPI(
        title="Kartenrunde",
        summary="A self-hosted table for card games with friends",
        description="The websocket protocol is described in docs/protocol.md.",
        lifespan=lifespan,
        dependencies=[Depends(deps.same_site)],
        # No /docs or /redoc: they run Swagger UI and ReDoc from a CDN on the site's own
        # origin, which its Content-Security-Policy refuses (app/headers.py).
        docs_url=None,
        redoc_url=None,
    )
    app.state.settings = settings
    app.add_middleware(Edge, max_body_bytes=settings.max_body_bytes)
    # Outermost: the edge's own refusals carry the headers too.
    app.add_middleware(SecurityHeaders)
    app.add_exception_handler(RequestValidationError, validation_error)
    app.add_exception_handler(HTTPException, http_error)
    for away in (OperationalError, InterfaceError):
        app.add_exception_handler(away, database_away)
    app.mount("/static", StaticFiles(directory=ROOT / "static"), name="static")
    app.include_router(api.router)
    app.include_router(push.router)
    app.include_router(push.site)
    app.router.add_websocket_route(ws.PATH, ws.room_socket)
    app.include_router(observability.router)
    if settings.metrics_port is None:
        app.include_router(observability.metrics_router)
    app.include_router(pages.router)
    return app


app = create_app()
