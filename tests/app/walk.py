"""Every route of the app, with real values for its parameters and a valid body: for the
tests that try each route (tests/app/test_fuzz_http.py, tests/app/test_edge.py)."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from fastapi.routing import APIRoute

from app.people.identity import COOKIE
from tests.app.tables import Table, play

EXAMPLE_BODIES: dict[str, dict[str, Any]] = {
    "CreateRoom": {
        "game": "expeditionen",
        "options": {"rounds": 1},
        "preset": "short",
        "computer": "easy",
        "turn_based": True,
        "move_days": 1,
        "spectator_chat": False,
        "private_chat": False,
    },
    "JoinRoom": {"name": "Eve"},
    "AddComputer": {"level": "easy"},
    "StartDaily": {"name": "Eve"},
    "MakeDeviceLink": {"next": "/games"},
    "Rename": {"name": "Eve"},
    "PushSubscription": {
        "endpoint": "https://push.example.org/send/abc",
        "expirationTime": 1,
        "keys": {"p256dh": "B" * 87, "auth": "A" * 22},
        "lang": "en",
    },
    "PushUnsubscribe": {"endpoint": "https://push.example.org/send/abc"},
}


def every_route(routes: list[Any]) -> Iterator[APIRoute]:
    """The app's routes, through the routers it includes (pages too: they are no API)."""
    for route in routes:
        if isinstance(route, APIRoute):
            yield route
        elif hasattr(route, "original_router"):
            yield from every_route(route.original_router.routes)


@dataclass
class Walker:
    """A player of a room with a free seat and a finished match, with a second device:
    the real values of each parameter."""

    table: Table
    cookie: str
    real: dict[str, str]

    def send(self, method: str, path: str, query: dict[str, str], body: Any, **headers: str) -> Any:
        """The request as this player's browser (its cookie alone) sends it."""
        self.table.client.cookies.clear()
        self.table.client.cookies.set(COOKIE, self.cookie)
        url = path + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")
        content = None if body is None else json.dumps(body).encode()
        headers["content-type"] = "application/json"
        response = self.table.client.request(
            method, url, content=content, headers=headers, follow_redirects=False
        )
        self.table.client.cookies.clear()
        return response


def walker(table: Table) -> Walker:
    solo_id, (cookie,) = table.seated_room("scoundrel")
    with table.socket(solo_id, cookie) as player:
        play(table, solo_id, [player], random.Random(1))
        match_id = player.state["match_id"]
    room_id = table.create_room("expeditionen", preset="short")
    table.join(room_id, "Ada", cookie)
    walk = Walker(table, cookie, {})
    phone_link = walk.send("POST", "/api/me/links", {}, {}).json()["url"]
    table.client.cookies.clear()
    assert table.client.post(phone_link, follow_redirects=False).status_code == 303
    devices = walk.send("GET", "/api/me/devices", {}, None).json()["devices"]
    (other,) = [device["id"] for device in devices if not device["this_device"]]
    unused_link = walk.send("POST", "/api/me/links", {}, {}).json()["url"]
    real = {
        "room_id": room_id,
        "match_id": str(match_id),
        "device_id": str(other),
        "player_id": table.player_id(cookie),
        "name": "scoundrel",
        "game": "scoundrel",
        "day": "2026-01-01",
        "link": unused_link.rsplit("/", 1)[1],
        "player": "Ada",
        "mine": "true",
        "limit": "50",
        "offset": "0",
        "ply": "0",
    }
    walk.real.update(real)
    return walk


def fill(route: APIRoute, real: dict[str, str]) -> str:
    """The route's path with the real values of its parameters."""
    return route.path.format(**{name: real[name] for name in route.param_convertors})


def example_body(route: APIRoute) -> dict[str, Any] | None:
    """A valid body for the route, if it takes one."""
    if route.body_field is None:
        return None
    model = route.body_field.field_info.annotation
    assert model.__name__ in EXAMPLE_BODIES, f"an example body for {route.path}"
    return EXAMPLE_BODIES[model.__name__]
