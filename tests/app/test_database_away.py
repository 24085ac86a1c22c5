"""An HTTP request while the database cannot be reached (restarting, a dropped
connection, SQLite busy) gets 503 `unavailable` in our error shape, changes nothing, and
the same request works once the database is back. (A whole restart of PostgreSQL under
two processes: tests/app/test_faults.py.)"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from sqlalchemy.exc import OperationalError
from starlette.websockets import WebSocketDisconnect

from app.protocol import CLOSE_TRY_AGAIN
from app.storage.repositories import Store
from tests.app.tables import Table

# What a request gets when the store fails, and that it changed nothing stored.
pytestmark = pytest.mark.both_databases


def unreachable(*_args: Any, **_kwargs: Any) -> None:
    raise OperationalError("INSERT", {}, ConnectionRefusedError("connection refused"))


def away(monkeypatch: pytest.MonkeyPatch, method: str) -> Callable[[], None]:
    """The store's `method` fails as with the database down, until the returned call."""
    monkeypatch.setattr(Store, method, unreachable)
    return monkeypatch.undo


def test_creating_a_room_while_the_database_is_away_is_unavailable_and_leaves_no_room(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    back = away(monkeypatch, "create_room")
    response = table.client.post("/api/rooms", json={"game": "expeditionen"})
    assert response.status_code == 503
    assert response.json()["detail"]["code"] == "unavailable"
    assert table.app.state.rooms.cache.rooms == {}
    back()
    assert table.client.post("/api/rooms", json={"game": "expeditionen"}).status_code == 201


def test_joining_while_the_database_is_away_is_unavailable_and_takes_no_seat(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    room_id = table.create_room("expeditionen")
    back = away(monkeypatch, "take_seat")
    response = table.client.post(f"/api/rooms/{room_id}/join", json={"name": "Ada"})
    assert response.status_code == 503
    assert response.json()["detail"]["code"] == "unavailable"
    assert table.client.get(f"/api/rooms/{room_id}").json()["seats"][0]["name"] is None
    back()
    assert table.join(room_id, "Ada")[0] == 0


@pytest.mark.public_history
def test_the_history_while_the_database_is_away_is_unavailable(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    away(monkeypatch, "finished_matches")
    response = table.client.get("/api/matches")
    assert response.status_code == 503
    assert response.json()["detail"]["code"] == "unavailable"


def test_a_socket_opened_while_the_database_is_away_is_told_to_try_again(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    room_id, cookies = table.seated_room("expeditionen")
    del table.app.state.rooms.cache.rooms[room_id]  # as after a restart: loaded on demand
    back = away(monkeypatch, "load_room")
    with table.client.websocket_connect(f"/ws/rooms/{room_id}") as ws:
        assert ws.receive_json()["code"] == "unavailable"
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
    assert closed.value.code == CLOSE_TRY_AGAIN
    back()
    with table.socket(room_id, cookies[0]) as ada:
        assert ada.state["seat"] == 0
