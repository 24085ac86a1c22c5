"""The HTML pages. They stay thin: each page fetches its data from the JSON API in the browser."""

from __future__ import annotations

import functools
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from app.routes.common import set_player_cookie
from app.routes.daily import DAY
from app.routes.deps import (
    IdentityDep,
    MatchesDep,
    PlayerDep,
    RecordsDep,
    RoomsDep,
    SettingsDep,
)
from app.table.refusals import RoomNotFound
from engine import games

if TYPE_CHECKING:
    from fastapi.templating import Jinja2Templates

TEMPLATE_DIR = Path(__file__).resolve().parents[2] / "templates"

router = APIRouter(include_in_schema=False)


def rule_games() -> list[dict[str, Any]]:
    """The registered games that have a rules page, in registration order: name and title."""
    return [
        {"name": g.name, "title": g.title}
        for g in games()
        if (TEMPLATE_DIR / "rules" / f"{g.name}.html").exists()
    ]


@functools.cache
def templates() -> Jinja2Templates:
    """Jinja2, loaded with the first page: a process that only plays (websockets and the
    API) never needs its 2 MB."""
    from fastapi.templating import Jinja2Templates

    loaded = Jinja2Templates(directory=TEMPLATE_DIR)
    loaded.env.globals["rule_games"] = rule_games
    return loaded


def page(request: Request, template: str, status_code: int = 200, **context: Any) -> HTMLResponse:
    return templates().TemplateResponse(request, template, context, status_code=status_code)


def not_found(request: Request, what: str) -> HTMLResponse:
    """The friendly 404 page; ``what`` is room, match, game or page."""
    return page(request, "not_found.html", status_code=404, what=what, page_name="not_found")


@router.get("/", response_class=HTMLResponse)
def home(request: Request) -> HTMLResponse:
    return page(request, "home.html", page_name="home")


@router.get("/offline", response_class=HTMLResponse)
def offline(request: Request) -> HTMLResponse:
    """What the service worker shows when a page cannot be loaded (static/sw.js)."""
    return page(request, "offline.html", page_name="offline")


@router.get("/r/{room_id}", response_class=HTMLResponse)
async def table(request: Request, room_id: str, rooms: RoomsDep) -> HTMLResponse:
    try:
        await rooms.open_room(room_id)  # async: the room service lives on the event loop
    except RoomNotFound:
        return not_found(request, "room")
    return page(request, "table.html", page_name="table", room_id=room_id)


@router.get("/games", response_class=HTMLResponse)
def your_games(request: Request) -> HTMLResponse:
    return page(request, "games.html", page_name="games")


@router.get("/me", response_class=HTMLResponse)
def me(request: Request) -> HTMLResponse:
    return page(request, "me.html", page_name="me")


@router.get("/signin/{link}", response_class=HTMLResponse)
async def sign_in_page(request: Request, link: str, identity: IdentityDep) -> HTMLResponse:
    """Asks before it uses the link: a messenger's link preview must not use it up. A link
    that can sign no one in any more is a 404 page at once, not a button that fails."""
    if not await identity.link_open(link):
        return not_found(request, "link")
    return page(request, "signin.html", page_name="signin", link=link)


@router.post("/signin/{link}", response_model=None)
async def sign_in(
    request: Request, link: str, identity: IdentityDep, settings: SettingsDep
) -> Response:
    """Another device of a player: the link's browser becomes it, then goes on. Never from
    another site's form, which would sign the browser in as someone else (refused, as on
    every route that changes something, by deps.same_site)."""
    used = await identity.use_link(link, request.headers.get("user-agent", ""))
    if used is None:
        return not_found(request, "link")
    token, next_path = used
    response = RedirectResponse(next_path or "/", status_code=303)
    set_player_cookie(request, response, settings, token)
    return response


@router.get("/history", response_class=HTMLResponse)
def history(request: Request, settings: SettingsDep) -> HTMLResponse:
    return page(
        request, "history.html", page_name="history", public_history=settings.public_history
    )


@router.get("/matches/{match_id}", response_class=HTMLResponse)
def replay(
    request: Request, match_id: str, matches: MatchesDep, me: PlayerDep, settings: SettingsDep
) -> HTMLResponse:
    # isdigit() alone takes "²", which int() refuses.
    if not (match_id.isascii() and match_id.isdigit() and matches.is_finished(int(match_id))):
        return not_found(request, "match")
    if not matches.may_see(int(match_id), me, settings.public_history):
        return not_found(request, "match")
    held = matches.held_back([int(match_id)]).get(int(match_id))
    if held is not None:  # a daily's replay opens once its day is over
        return page(
            request,
            "not_found.html",
            status_code=403,
            what="daily",
            page_name="not_found",
            opens=held.isoformat(),
        )
    return page(request, "replay.html", page_name="replay", match_id=match_id)


@router.get("/players/{player_id}", response_class=HTMLResponse, response_model=None)
def player_page(
    request: Request, player_id: str, records: RecordsDep, me: PlayerDep
) -> HTMLResponse | RedirectResponse:
    """A player's record (app/people/records.py); ``/players/me`` is one's own. Another
    player one may not see is answered like an unknown one."""
    if player_id == "me" and me is not None:
        return RedirectResponse(f"/players/{me}", status_code=303)
    if len(player_id) > 64 or not records.exists(me, player_id):
        return not_found(request, "player")
    return page(request, "players.html", page_name="players", player_id=player_id)


@router.get("/daily", response_class=HTMLResponse)
def daily_today(request: Request) -> HTMLResponse:
    return page(request, "daily.html", page_name="daily", day=None, game=None)


@router.get("/daily/{day}/{game}", response_class=HTMLResponse)
def daily_board(request: Request, day: str, game: str) -> HTMLResponse:
    """A day's board of a game (its data from /api/daily/{day}/{game})."""
    if game not in {known.name for known in games()} or not re.fullmatch(DAY, day):
        return not_found(request, "page")
    return page(request, "daily.html", page_name="daily", day=day, game=game)


@router.get("/rules/{game}", response_class=HTMLResponse)
def rules(request: Request, game: str) -> HTMLResponse:
    if game not in [known["name"] for known in rule_games()]:
        return not_found(request, "game")
    return page(request, f"rules/{game}.html", page_name="rules", game=game)
