"""Test clients for the game server: players with their own cookie and socket.

One TestClient serves every player of a test (its cookie jar is emptied after each join, and
each socket carries its player's cookie explicitly). Every message a socket receives is
validated against the protocol models and kept, so tests can inspect all of them.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from fastapi import FastAPI
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from app.people.identity import COOKIE
from app.protocol import SERVER_MESSAGE
from app.table import texts
from app.table.features import Features
from app.table.live import LiveRoom
from engine import get_game
from tests.engine.leaks import hidden_variants


@dataclass
class Socket:
    """One websocket, remembering everything it received and the newest state."""

    ws: WebSocketTestSession
    seat: int | None = None
    received: list[dict[str, Any]] = field(default_factory=list)
    texts: list[str] = field(default_factory=list)
    state: dict[str, Any] = field(default_factory=dict)
    checked: int = 0  # messages already checked for hidden information

    def receive(self) -> dict[str, Any]:
        text = self.ws.receive_text()
        message = json.loads(text)
        SERVER_MESSAGE.validate_python(message)
        self.texts.append(text)
        self.received.append(message)
        if message["type"] == "state":
            self.state = message
            self.seat = message["seat"]
        return message

    def next(self, kind: str) -> dict[str, Any]:
        while True:
            message = self.receive()
            if message["type"] == kind:
                return message
            assert message["type"] != "error", f"waiting for {kind}, got {message}"

    def send(self, message: Any) -> None:
        self.ws.send_text(message if isinstance(message, str) else json.dumps(message))

    def act(self, action: dict[str, Any], version: int | None = None) -> None:
        self.send(
            {
                "type": "action",
                "version": self.state["version"] if version is None else version,
                "action": action,
            }
        )

    def wait_version(self, match_number: int, version: int) -> dict[str, Any]:
        while (self.state.get("match_number"), self.state.get("version")) != (
            match_number,
            version,
        ):
            self.next("state")
        return self.state

    def error(self) -> dict[str, Any]:
        return self.next("error")

    def drain(self) -> list[dict[str, Any]]:
        """Everything that arrives before the answer to a ping sent now."""
        self.send({"type": "ping"})
        start = len(self.received)
        while self.receive()["type"] != "pong":
            pass
        return self.received[start:-1]

    def quiet(self) -> bool:
        """True when nothing arrived since the last message."""
        return self.drain() == []


@dataclass
class Table:
    client: TestClient

    @property
    def app(self) -> FastAPI:
        app: FastAPI = self.client.app  # type: ignore[assignment]
        return app

    def create_room(self, game: str, **body: Any) -> str:
        response = self.client.post("/api/rooms", json={"game": game, **body})
        assert response.status_code == 201, response.text
        room_id: str = response.json()["room_id"]
        return room_id

    def join(self, room_id: str, name: str, cookie: str | None = None) -> tuple[int | None, str]:
        """Join as a browser (a new one without `cookie`); return the seat and the cookie."""
        self.client.cookies.clear()
        if cookie is not None:
            self.client.cookies.set(COOKIE, cookie)
        response = self.client.post(f"/api/rooms/{room_id}/join", json={"name": name})
        assert response.status_code == 200, response.text
        cookie = response.cookies.get(COOKIE) or cookie
        self.client.cookies.clear()
        assert cookie is not None
        return response.json()["seat"], cookie

    @contextmanager
    def socket(self, room_id: str, cookie: str | None = None, **headers: str) -> Iterator[Socket]:
        if cookie is not None:
            headers["cookie"] = f"{COOKIE}={cookie}"
        with self.client.websocket_connect(f"/ws/rooms/{room_id}", headers=headers) as ws:
            socket = Socket(ws)
            socket.next("state")
            yield socket

    def player_id(self, cookie: str) -> str:
        """The player a browser's cookie signs in as."""
        identity = self.app.state.identity
        device = identity.store.device(identity.hash(cookie))
        assert device is not None, "a cookie the server never gave"
        player_id: str = device.player_id
        return player_id

    def live_state(self, room_id: str) -> Any:
        return self.app.state.rooms.room(room_id).match.state

    def seated_room(
        self, game: str, names: tuple[str, ...] = ("Ada", "Bo"), **body: Any
    ) -> tuple[str, list[str]]:
        room_id = self.create_room(game, **body)
        seats = get_game(game).seats
        cookies = []
        for name in names[:seats]:
            _, cookie = self.join(room_id, name)
            cookies.append(cookie)
        return room_id, cookies


def hidden_cards_seen(table: Table, room_id: str, sockets: list[Socket]) -> list[str]:
    """States received since the last check that change when what their reader may not see
    is dealt again (the information-set leak check, on what came over the wire). Presence
    and the ratings (taken up again once a match ends) may have changed since a state was
    sent; neither is a card, so both are taken as received."""
    room = table.app.state.rooms.room(room_id)
    features = table.app.state.rooms.features
    match = room.match
    leaks = []
    for socket in sockets:
        received = socket.received[socket.checked :]
        socket.checked = len(socket.received)
        for message in received:
            if message["type"] != "state" or (message["match_id"], message["version"]) != (
                match.id,
                match.version,
            ):
                continue
            for other in hidden_variants(room.game, match.state, socket.seat, match.version):
                again = json.loads(rendered(room, other, socket.seat, features))
                received = {"players": message["players"], "ratings": message["ratings"]}
                if {**again, **received} != message:
                    leaks.append(f"seat {socket.seat} at version {match.version}")
    return leaks


def rendered(room: LiveRoom, state: Any, seat: int | None, features: Features) -> str:
    """The text the server sends `seat` when the room's match is in `state`."""
    live = room.match.state
    room.match.state = state
    try:
        return texts.state_texts(room, [seat], features)[seat]
    finally:
        room.match.state = live


def play(
    table: Table,
    room_id: str,
    sockets: list[Socket],
    rng: random.Random,
    plies: int | None = None,
) -> list[str]:
    """Play random legal actions until the match ends (or for `plies`); return any leaks.

    Every socket must see every new version; the seat to move sends its action.
    """
    by_seat = {socket.seat: socket for socket in sockets if socket.seat is not None}
    leaks = hidden_cards_seen(table, room_id, sockets)
    played = 0
    while plies is None or played < plies:
        state = sockets[0].state
        if state["to_move"] is None:
            break
        mover = by_seat[state["to_move"]]
        mover.act(rng.choice(mover.state["legal_actions"]))
        for socket in sockets:
            socket.wait_version(state["match_number"], state["version"] + 1)
        leaks += hidden_cards_seen(table, room_id, sockets)
        played += 1
    return leaks
