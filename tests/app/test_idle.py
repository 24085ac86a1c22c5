"""Rooms without activity for room_idle_minutes close; their finished matches stay in history."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from app.main import create_app
from app.protocol import CLOSE_ROOM_CLOSED
from app.settings import Settings
from app.table.refusals import RoomNotFound
from tests.app.tables import Table, play

# Rooms closed by their stored last activity (timestamps, which the dialects store apart).
pytestmark = pytest.mark.both_databases


def later(settings: Settings, extra_minutes: float) -> datetime:
    return datetime.now(UTC) + timedelta(minutes=settings.room_idle_minutes + extra_minutes)


@pytest.mark.public_history
def test_an_idle_room_closes_and_its_sockets_hear_why(settings: Settings) -> None:
    with TestClient(create_app(settings, idle_check_seconds=0.01)) as client:
        table = Table(client)
        room_id, cookies = table.seated_room("scoundrel")
        with table.socket(room_id, cookies[0]) as player, table.socket(room_id) as watcher:
            play(table, room_id, [player, watcher], random.Random(2))
            moment = later(settings, 1)
            table.app.state.rooms.clock.now = lambda: moment
            for socket in (player, watcher):
                with pytest.raises(WebSocketDisconnect) as closed:
                    while True:
                        socket.receive()
                assert closed.value.code == CLOSE_ROOM_CLOSED
                assert "without activity" in closed.value.reason
        assert client.get(f"/api/rooms/{room_id}").status_code == 404
        (finished,) = client.get("/api/matches").json()
        assert finished["room_id"] == room_id
        assert client.get(f"/api/matches/{finished['match_id']}").status_code == 200


def test_a_room_not_loaded_since_a_restart_is_closed_from_the_database(
    settings: Settings,
) -> None:
    with TestClient(create_app(settings)) as client:
        room_id = Table(client).create_room("expeditionen")
    with TestClient(create_app(settings)) as client:
        rooms = client.app.state.rooms  # type: ignore[attr-defined]
        rooms.clock.now = lambda: later(settings, 1)
        assert client.portal.call(rooms.close_idle_rooms) == [room_id]  # type: ignore[union-attr]
        assert client.get(f"/api/rooms/{room_id}").status_code == 404
        with client.websocket_connect(f"/ws/rooms/{room_id}") as ws:
            assert ws.receive_json()["code"] == "unknown_room"


def test_a_room_with_recent_activity_stays_open(table: Table) -> None:
    settings = table.app.state.settings
    room_id = table.create_room("scoundrel")
    rooms = table.app.state.rooms
    rooms.clock.now = lambda: later(settings, -1)
    assert table.client.portal.call(rooms.close_idle_rooms) == []  # type: ignore[union-attr]
    assert table.client.get(f"/api/rooms/{room_id}").status_code == 200


def test_a_room_closed_while_it_was_being_loaded_stays_closed(settings: Settings) -> None:
    """A load that read the room before an idle close finished it does not bring it back."""
    with TestClient(create_app(settings)) as client:
        room_id = Table(client).create_room("expeditionen")
    with TestClient(create_app(settings)) as client:
        rooms = client.app.state.rooms  # type: ignore[attr-defined]
        store, read, answer = rooms.cache.store, asyncio.Event(), asyncio.Event()

        async def read_then_wait(query: Callable[..., Any], *args: Any) -> Any:
            found = query(*args)
            read.set()
            await answer.wait()  # the database's answer is still on its way
            return found

        async def load_overtaken_by_close() -> None:
            store.off_loop = read_then_wait
            loading = asyncio.ensure_future(rooms.cache.load(room_id))
            await read.wait()
            rooms.clock.now = lambda: later(settings, 1)
            assert await rooms.close_idle_rooms() == [room_id]
            answer.set()
            with pytest.raises(RoomNotFound):
                await loading
            assert room_id not in rooms.cache.rooms

        client.portal.call(load_overtaken_by_close)
        assert client.get(f"/api/rooms/{room_id}").status_code == 404
