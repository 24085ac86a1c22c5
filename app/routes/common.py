"""What the API's routers share: the refusals they document, whole numbers in URLs,
a room's link, and the player cookie a first action sets."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Annotated, Any, TypeVar

from fastapi import Request, Response
from pydantic import BeforeValidator

from app.computer.searches import SearchesBusy, SearchFailed
from app.people.identity import COOKIE, COOKIE_MAX_AGE, SignedIn
from app.protocol import (
    ErrorResponse,
)
from app.routes.deps import (
    IdentityDep,
    fail,
)
from app.settings import Settings

T = TypeVar("T")


NOT_FOUND: dict[int | str, dict[str, Any]] = {404: {"model": ErrorResponse}}


TOO_MANY: dict[int | str, dict[str, Any]] = {429: {"model": ErrorResponse}}


FORBIDDEN: dict[int | str, dict[str, Any]] = {403: {"model": ErrorResponse}}


CONFLICT: dict[int | str, dict[str, Any]] = {409: {"model": ErrorResponse}}


BUSY: dict[int | str, dict[str, Any]] = {503: {"model": ErrorResponse}}


# Every route with input says so: FastAPI would document its own 422 shape, not ours.
UNPROCESSABLE: dict[int | str, dict[str, Any]] = {422: {"model": ErrorResponse}}


def written_in_digits(value: object) -> object:
    """A number in a URL is digits, perhaps after a minus: int() would also take "7\\r",
    " 7" or "٧", which the API documents as no integer."""
    if isinstance(value, str) and not re.fullmatch(r"-?[0-9]+", value):
        raise ValueError("not a whole number")
    return value


WholeNumber = Annotated[int, BeforeValidator(written_in_digits)]


def room_url(settings: Settings, room_id: str) -> str:
    base = (settings.public_base_url or "").rstrip("/")
    return f"{base}/r/{room_id}"


def searched(search: Callable[..., T], *args: Any) -> T:
    """What a search answers, or 503 when the search workers are busy or one died."""
    try:
        return search(*args)
    except SearchesBusy:
        fail(503, "unavailable", "the server is busy with other searches; try again shortly")
    except SearchFailed:
        fail(503, "unavailable", "the search failed; try again")


def set_player_cookie(request: Request, response: Response, settings: Settings, token: str) -> None:
    response.set_cookie(
        COOKIE,
        token,
        max_age=COOKIE_MAX_AGE,
        path="/",
        httponly=True,
        samesite="lax",
        secure=settings.environment == "production" or request.url.scheme == "https",
    )


async def new_player(
    request: Request, response: Response, identity: IdentityDep, settings: Settings
) -> SignedIn:
    """The first visit: a new player with this browser as their device."""
    token, signed = await identity.new_player(request.headers.get("user-agent", ""))
    set_player_cookie(request, response, settings, token)
    return signed
