"""Bad input never crashes and changes nothing: each gets its error, the others hear nothing."""

from __future__ import annotations

import json
import logging
import os
import random
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import ClientConnection
from websockets.sync.client import connect as ws_connect

from app.limits import BAD_TEXT_SOCKETS
from app.main import create_app
from app.protocol import (
    CLOSE_FORBIDDEN_ORIGIN,
    CLOSE_INVALID_TEXT,
    CLOSE_RATE_LIMITED,
    CLOSE_UNKNOWN_ROOM,
)
from app.settings import Settings
from engine import AnyGame, games, get_game
from tests.app.processes import SECRET, create_room
from tests.app.tables import Socket, Table, play
from tests.server import AppProcess, free_port


@pytest.fixture
def seated(table: Table) -> Iterator[tuple[Table, str, Socket, Socket]]:
    """An Expeditionen match under way: the socket of the seat to move, then the other's."""
    room_id, cookies = table.seated_room("expeditionen", preset="short")
    with table.socket(room_id, cookies[0]) as ada, table.socket(room_id, cookies[1]) as bo:
        mover, waiter = (ada, bo) if ada.state["to_move"] == 0 else (bo, ada)
        ada.drain(), bo.drain()  # the presence messages of connecting
        yield table, room_id, mover, waiter


def refused(socket: Socket, others: list[Socket], message: object) -> str:
    """Send a bad message; return its error code after checking that nothing changed."""
    version = socket.state["version"]
    socket.send(message)
    code: str = socket.error()["code"]
    assert socket.quiet()
    for other in others:
        assert other.quiet()
        assert other.state["version"] == version
    return code


@pytest.mark.parametrize(
    "message",
    [
        "{not json",
        "[1, 2]",
        '"action"',
        json.dumps({"type": "dance"}),
        json.dumps({"version": 0, "action": {}}),
        json.dumps({"type": "action", "action": {"type": "draw", "source": "deck"}}),
        json.dumps({"type": "action", "version": "0", "action": {"type": "draw"}}),
        json.dumps({"type": "action", "version": 0, "action": "play 7H"}),
        json.dumps({"type": "ping", "extra": 1}),
    ],
)
def test_malformed_messages_are_refused(
    seated: tuple[Table, str, Socket, Socket], message: str
) -> None:
    _table, _room, mover, waiter = seated
    assert refused(mover, [waiter], message) == "malformed"


def test_binary_frames_are_read_as_json_text(seated: tuple[Table, str, Socket, Socket]) -> None:
    _table, _room, mover, waiter = seated
    mover.ws.send_bytes(b"\xff\xfe junk")
    assert mover.error()["code"] == "malformed"
    mover.ws.send_bytes(b'{"type": "ping"}')
    assert mover.next("pong")
    assert waiter.quiet()


def test_an_oversized_message_is_refused(seated: tuple[Table, str, Socket, Socket]) -> None:
    table, _room, mover, waiter = seated
    limit = table.app.state.settings.max_message_bytes
    padding = "x" * limit
    message = json.dumps({"type": "ping", "padding": padding})
    assert refused(mover, [waiter], message) == "too_large"


def test_an_action_the_rules_forbid_is_illegal(seated: tuple[Table, str, Socket, Socket]) -> None:
    _table, _room, mover, waiter = seated
    action = {"type": "draw", "source": "deck"}  # step 1 is playing or discarding
    message = {"type": "action", "version": 0, "action": action}
    assert refused(mover, [waiter], message) == "illegal"


def test_an_action_that_is_no_action_of_the_game_is_malformed(
    seated: tuple[Table, str, Socket, Socket],
) -> None:
    _table, _room, mover, waiter = seated
    message = {"type": "action", "version": 0, "action": {"type": "juggle", "card": "7H"}}
    assert refused(mover, [waiter], message) == "malformed"


def test_acting_out_of_turn_is_refused(seated: tuple[Table, str, Socket, Socket]) -> None:
    _table, _room, mover, waiter = seated
    action = mover.state["legal_actions"][0]
    message = {"type": "action", "version": 0, "action": action}
    assert refused(waiter, [mover], message) == "not_your_turn"


def test_an_old_version_is_stale(seated: tuple[Table, str, Socket, Socket]) -> None:
    table, room_id, mover, waiter = seated
    play(table, room_id, [mover, waiter], random.Random(2), plies=1)
    message = {"type": "action", "version": 0, "action": mover.state["legal_actions"][0]}
    assert refused(mover, [waiter], message) == "stale"


def test_a_spectator_cannot_act(seated: tuple[Table, str, Socket, Socket]) -> None:
    table, room_id, mover, waiter = seated
    with table.socket(room_id) as spectator:
        spectator.drain()
        assert spectator.state["seat"] is None
        assert spectator.state["legal_actions"] == []
        message = {"type": "action", "version": 0, "action": mover.state["legal_actions"][0]}
        assert refused(spectator, [mover, waiter], message) == "not_seated"


def test_a_forged_token_watches_as_a_spectator(seated: tuple[Table, str, Socket, Socket]) -> None:
    table, room_id, mover, waiter = seated
    with table.socket(room_id, "forged-" + "A" * 36) as forger:
        forger.drain()
        assert forger.state["seat"] is None
        public = get_game("expeditionen").view(table.live_state(room_id), None)
        assert forger.state["view"] == public
        message = {"type": "action", "version": 0, "action": mover.state["legal_actions"][0]}
        assert refused(forger, [mover, waiter], message) == "not_seated"
        assert refused(forger, [mover, waiter], {"type": "rematch"}) == "not_seated"


def test_actions_wait_until_every_seat_is_taken(table: Table) -> None:
    room_id = table.create_room("expeditionen")
    _seat, cookie = table.join(room_id, "Ada")
    with table.socket(room_id, cookie) as ada:
        assert ada.state["to_move"] is None
        assert ada.state["legal_actions"] == []
        message = {"type": "action", "version": 0, "action": {"type": "draw", "source": "deck"}}
        assert refused(ada, [], message) == "waiting"


def test_acting_after_the_match_ended_is_game_over(table: Table) -> None:
    room_id, cookies = table.seated_room("scoundrel")
    with table.socket(room_id, cookies[0]) as player:
        play(table, room_id, [player], random.Random(4))
        version = player.state["version"]
        message = {"type": "action", "version": version, "action": {"type": "avoid"}}
        assert refused(player, [], message) == "game_over"


def test_a_rematch_before_the_end_is_refused(seated: tuple[Table, str, Socket, Socket]) -> None:
    _table, _room, mover, waiter = seated
    assert refused(mover, [waiter], {"type": "rematch"}) == "illegal"


@contextmanager
def watcher_allowed_one_message(settings: Settings) -> Iterator[Socket]:
    slow = settings.model_copy(update={"messages_per_second": 0.001})  # a burst of one
    with TestClient(create_app(slow)) as client:
        table = Table(client)
        with table.socket(table.create_room("scoundrel")) as watcher:
            yield watcher


def test_a_connection_over_its_rate_gets_one_error_and_is_closed(settings: Settings) -> None:
    with watcher_allowed_one_message(settings) as watcher:
        watcher.send({"type": "ping"})
        assert watcher.next("pong")
        watcher.send({"type": "ping"})
        assert watcher.error()["code"] == "rate_limited"
        with pytest.raises(WebSocketDisconnect) as closed:
            watcher.receive()
    assert closed.value.code == CLOSE_RATE_LIMITED


def test_malformed_messages_count_against_the_rate_too(settings: Settings) -> None:
    with watcher_allowed_one_message(settings) as watcher:
        watcher.send({"type": "no-such-message"})
        assert watcher.error()["code"] == "malformed"
        watcher.send({"type": "no-such-message"})
        assert watcher.error()["code"] == "rate_limited"


def test_an_unknown_room_is_refused_everywhere(table: Table) -> None:
    for response in (
        table.client.get("/api/rooms/no-such-room"),
        table.client.post("/api/rooms/no-such-room/join", json={"name": "Ada"}),
    ):
        assert response.status_code == 404
        assert response.json()["detail"]["code"] == "unknown_room"
        assert response.json()["detail"]["message"]
    with table.client.websocket_connect("/ws/rooms/no-such-room") as ws:
        assert ws.receive_json()["code"] == "unknown_room"
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
    assert closed.value.code == CLOSE_UNKNOWN_ROOM


def test_a_socket_from_a_foreign_origin_is_refused(table: Table) -> None:
    room_id = table.create_room("scoundrel")
    url = f"/ws/rooms/{room_id}"
    with table.client.websocket_connect(url, headers={"origin": "https://evil.example"}) as ws:
        assert ws.receive_json()["code"] == "forbidden_origin"
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
    assert closed.value.code == CLOSE_FORBIDDEN_ORIGIN
    with table.socket(room_id, origin="http://testserver") as own:
        assert own.state["room_id"] == room_id


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"game": "chess"}, "unknown_game"),
        ({"game": "expeditionen", "preset": "marathon"}, "unknown_preset"),
        ({"game": "expeditionen", "options": {"rounds": 7}}, "bad_option"),
        ({"game": "expeditionen", "options": {"jokers": True}}, "bad_option"),
        ({"game": "expeditionen", "colour": "red"}, "malformed"),
        ({}, "malformed"),
    ],
)
def test_a_room_with_an_unknown_game_preset_or_option_is_refused(
    table: Table, body: dict[str, object], code: str
) -> None:
    response = table.client.post("/api/rooms", json=body)
    assert response.status_code == 422
    assert response.json()["detail"]["code"] == code


@pytest.mark.parametrize(
    "game", [game for game in games() if game.options], ids=lambda game: game.name
)
def test_a_room_with_a_bad_option_is_refused_before_a_game_is_dealt(
    table: Table, game: AnyGame, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_deal(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("a game was dealt for a room that is refused")

    monkeypatch.setattr(game, "new", no_deal)
    for option in game.options:
        body = {"game": game.name, "options": {option.name: "not-a-value"}}
        response = table.client.post("/api/rooms", json=body)
        assert response.status_code == 422
        assert response.json()["detail"]["code"] == "bad_option"
        assert option.name in response.json()["detail"]["message"]


@pytest.mark.parametrize("name", ["", "   ", "x" * 25])
def test_a_player_name_must_have_1_to_24_characters(table: Table, name: str) -> None:
    room_id = table.create_room("scoundrel")
    response = table.client.post(f"/api/rooms/{room_id}/join", json={"name": name})
    assert response.status_code == 422
    assert response.json()["detail"]["code"] == "malformed"


@pytest.mark.parametrize("name", ["a\x00b", "tab\there", "line\nbreak", "c1\x85control"])
def test_a_player_name_is_printable_text(table: Table, name: str) -> None:
    room_id = table.create_room("scoundrel")
    response = table.client.post(f"/api/rooms/{room_id}/join", json={"name": name})
    assert response.status_code == 422
    assert response.json()["detail"]["code"] == "malformed"
    assert table.client.get(f"/api/rooms/{room_id}").json()["seats"][0]["name"] is None


def test_a_player_name_is_no_lone_surrogate(table: Table) -> None:
    room_id = table.create_room("scoundrel")
    response = table.client.post(
        f"/api/rooms/{room_id}/join",
        content=b'{"name": "ab\\ud800"}',  # valid JSON, but no UTF-8 text
        headers={"content-type": "application/json"},
    )
    assert response.status_code == 422
    assert response.json()["detail"]["code"] == "malformed"


@pytest.mark.both_databases
@pytest.mark.parametrize("query", ["player=a%00b", "game=a%00", "offset=99999999999999999999"])
def test_history_filters_refuse_what_no_database_could_match(table: Table, query: str) -> None:
    response = table.client.get(f"/api/matches?{query}")
    assert response.status_code == 422
    assert response.json()["detail"]["code"] == "malformed"


def test_each_refusal_is_logged_with_room_match_seat_and_code(
    seated: tuple[Table, str, Socket, Socket], caplog: pytest.LogCaptureFixture
) -> None:
    _table, room_id, mover, waiter = seated
    with caplog.at_level(logging.INFO, logger="app.routes.ws"):
        refused(waiter, [mover], {"type": "action", "version": 0, "action": {"type": "x"}})
    (entry,) = [r for r in caplog.records if getattr(r, "code", None) == "not_your_turn"]
    assert entry.room_id == room_id  # type: ignore[attr-defined]
    assert entry.match_id == mover.state["match_id"]  # type: ignore[attr-defined]
    assert entry.seat == waiter.state["seat"]  # type: ignore[attr-defined]


@pytest.fixture
def one_socket_per_address(tmp_path: Path) -> Iterator[str]:
    """``python -m app`` (the real transport) taking one socket per address, so that a
    socket opens only once the one before it has ended, penalty included: a websocket URL
    of a room of its own."""
    env = server_env(tmp_path) | {"MAX_CONNECTIONS_PER_ADDRESS": "1"}
    server = AppProcess(free_port(), env, tmp_path / "app.log").start()
    try:
        url = server.base_url.replace("http://", "ws://") + "/ws/rooms/"
        yield url + create_room(server.base_url, "scoundrel")
    finally:
        server.stop()


def test_one_text_frame_that_is_no_utf8_closes_its_socket_only(
    one_socket_per_address: str,
) -> None:
    """Behind a shared address (a household's NAT) one broken tab locks nobody out."""
    assert no_utf8_text(one_socket_per_address) == CLOSE_INVALID_TEXT
    assert opened(one_socket_per_address) == "open"


def test_repeated_text_that_is_no_utf8_refuses_the_address_for_a_while(
    one_socket_per_address: str, tmp_path: Path
) -> None:
    """On the real transport: no ERROR with a traceback per socket, as uvicorn writes; each
    refusal is logged once, and after BAD_TEXT_SOCKETS of them within a minute the address
    waits like a flooder (its handshakes refused with 429)."""
    url = one_socket_per_address
    for _ in range(BAD_TEXT_SOCKETS - 1):
        assert no_utf8_text(url) == CLOSE_INVALID_TEXT
        assert opened(url) == "open"
    assert no_utf8_text(url) == CLOSE_INVALID_TEXT
    assert [opened(url) for _ in range(3)] == ["rate_limited"] * 3
    log = (tmp_path / "app.log").read_text()
    assert "UnicodeDecodeError" not in log and "Invalid UTF-8" not in log
    assert log.count("a text frame that is not UTF-8; closed") == BAD_TEXT_SOCKETS
    assert log.count("wait 10 s") == 1  # once per penalty, not per refused socket


@contextmanager
def admitted(url: str) -> Iterator[ClientConnection | str]:
    """A socket opened once the address's socket before it has ended (its state read), or
    the code of its refusal in the handshake."""
    deadline = time.monotonic() + 10
    while True:
        try:
            with ws_connect(url, open_timeout=5, close_timeout=2) as socket:
                socket.recv(timeout=5)  # the state
                yield socket
                return
        except InvalidStatus as refused:
            code: str = json.loads(refused.response.body or b"{}")["detail"]["code"]
            if code != "too_many_connections" or time.monotonic() > deadline:
                yield code
                return
        time.sleep(0.01)  # the socket before it is still ending on the server


def opened(url: str) -> str:
    """ "open", or the code of the socket's refusal in the handshake."""
    with admitted(url) as socket:
        return socket if isinstance(socket, str) else "open"


def no_utf8_text(url: str) -> int:
    """Open a socket and send a text frame that is no UTF-8: the close code."""
    with admitted(url) as socket:
        assert not isinstance(socket, str), f"refused: {socket}"
        socket.send(b'{"type": "ping\xff"}', text=True)
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                socket.recv(timeout=5)
    assert closed.value.rcvd is not None
    return closed.value.rcvd.code


def server_env(tmp_path: Path) -> dict[str, str]:
    return {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{tmp_path}/kartenrunde.db",
        "SECRET_KEY": SECRET,
        "ENVIRONMENT": "development",
        "LOG_LEVEL": "INFO",
    }
