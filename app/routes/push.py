"""Web Push: the server's VAPID public key, and storing or removing a device's
subscription for this browser's player (app/people/push.py sends the notices)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Response, status
from fastapi.responses import FileResponse
from starlette.requests import HTTPConnection

from app.people.identity import SignedIn
from app.people.push import Notifier, subscription_row
from app.protocol import ErrorResponse, PushKey, PushSubscription, PushUnsubscribe
from app.push_guard import RefusedEndpoint
from app.routes.deps import PlayerDep, SignedInDep, fail

router = APIRouter(prefix="/api/push", tags=["push"])

REFUSED: dict[int | str, dict[str, Any]] = {
    403: {"model": ErrorResponse},
    422: {"model": ErrorResponse},
}


async def notifier(connection: HTTPConnection) -> Notifier:
    value: Notifier = connection.app.state.notifier
    return value


NotifierDep = Annotated[Notifier, Depends(notifier)]


NO_PLAYER = "no player cookie: join a table first"


def player_key(player: str | None) -> str:
    if player is None:
        fail(403, "not_seated", NO_PLAYER)
    return player


def subscriber(signed: SignedIn | None) -> SignedIn:
    """The subscribing browser's player and device."""
    if signed is None:
        fail(403, "not_seated", NO_PLAYER)
    return signed


@router.get("/key", summary="The server's VAPID public key (applicationServerKey)")
async def public_key(push: NotifierDep) -> PushKey:
    return PushKey(public_key=push.public_key)


@router.post(
    "/subscriptions",
    status_code=status.HTTP_204_NO_CONTENT,
    responses=REFUSED,
    summary="Store this device's push subscription for this browser's player",
)
async def subscribe(body: PushSubscription, signed: SignedInDep, push: NotifierDep) -> Response:
    # Only a known push service's https URL: the server posts to it (app/push_guard.py).
    try:
        push.endpoints.checked(body.endpoint)
    except RefusedEndpoint as refused:
        fail(422, "malformed", str(refused))
    device = subscriber(signed)
    row = subscription_row(
        device.player_id,
        device.device_id,
        body.endpoint,
        body.keys.p256dh,
        body.keys.auth,
        body.lang,
    )
    if not await push.off_loop(push.store.subscribe, row):
        fail(403, "not_seated", "this device was signed out")
    return Response(status_code=status.HTTP_204_NO_CONTENT)


@router.post(
    "/subscriptions/remove",
    status_code=status.HTTP_204_NO_CONTENT,
    responses=REFUSED,
    summary="Remove this device's push subscription (no more notices on it)",
)
async def unsubscribe(body: PushUnsubscribe, player: PlayerDep, push: NotifierDep) -> Response:
    await push.off_loop(push.store.unsubscribe, body.endpoint, player_key(player))
    return Response(status_code=status.HTTP_204_NO_CONTENT)


# The installable web app: served at the site's root, so the service worker's scope is the
# whole site.

site = APIRouter(include_in_schema=False)
STATIC = Path(__file__).resolve().parents[2] / "static"


@site.get("/sw.js")
async def service_worker() -> FileResponse:
    return FileResponse(
        STATIC / "sw.js",
        media_type="text/javascript",
        headers={"Service-Worker-Allowed": "/", "Cache-Control": "no-cache"},
    )


@site.get("/manifest.webmanifest")
async def manifest() -> FileResponse:
    return FileResponse(STATIC / "manifest.webmanifest", media_type="application/manifest+json")
