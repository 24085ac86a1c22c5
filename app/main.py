"""The application: `create_app(settings)` builds it; `app` is what uvicorn serves."""

from __future__ import annotations

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

from app import observability, wiring
from app.edge import Edge
from app.headers import SecurityHeaders
from app.routes import api, deps, pages, push, ws
from app.settings import Settings, get_settings
from app.storage.db import create_db_engine, ensure_migrated, start_checkpoints

ROOT = Path(__file__).resolve().parents[1]

logger = logging.getLogger(__name__)


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
        server = wiring.build(settings, db_engine)
        for name, part in server.parts().items():
            setattr(app.state, name, part)
        await server.start(every, turns_every)
        try:
            yield
        finally:
            await server.stop()
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
    for router in api.ROUTERS:
        app.include_router(router)
    app.include_router(push.router)
    app.include_router(push.site)
    app.router.add_websocket_route(ws.PATH, ws.room_socket)
    app.include_router(observability.router)
    if settings.metrics_port is None:
        app.include_router(observability.metrics_router)
    app.include_router(pages.router)
    return app


app = create_app()
