"""Ending a match by a player's choice: resigning, aborting early, leaving a waiting room."""

from __future__ import annotations

import random
from typing import Any

import pytest
from sqlalchemy import select
from starlette.websockets import WebSocketDisconnect

from app.protocol import CLOSE_ROOM_CLOSED
from app.storage.models import MATCHES
from tests.app.tables import Socket, Table


def ended(socket: Socket) -> dict:
    while socket.state["result"] is None:
        socket.next("state")
    return socket.state


def stored_status(table: Table) -> str:
    with table.app.state.db_engine.connect() as connection:
        status: str = connection.scalar(select(MATCHES.c.status).order_by(MATCHES.c.id.desc()))
        return status


def play_turn(socket: Socket, rng: random.Random) -> None:
    """One action of the seat to move, seen by ``socket`` (that seat's)."""
    play(socket, rng.choice(socket.state["legal_actions"]))


def play(socket: Socket, action: dict[str, Any]) -> None:
    number, version = socket.state["match_number"], socket.state["version"]
    socket.act(action)
    socket.wait_version(number, version + 1)


def test_resigning_gives_the_match_to_the_other_seat_and_counts_in_the_tally(
    table: Table,
) -> None:
    room_id, cookies = table.seated_room("expeditionen", preset="short")
    with table.socket(room_id, cookies[0]) as ada, table.socket(room_id, cookies[1]) as bo:
        ada.send({"type": "resign"})
        for socket in (ada, bo):
            state = ended(socket)
            assert state["result"]["reason"] == "resigned"
            assert state["result"]["resigned_by"] == 0
            assert state["result"]["winner"] == 1
            assert state["result"]["outcome"] == "win"
            assert state["tally"] == {"wins": [0, 1], "draws": 0, "matches": 1}
            assert state["to_move"] is None
            assert state["legal_actions"] == []
    assert stored_status(table) == "finished"


@pytest.mark.public_history
@pytest.mark.both_databases
def test_a_resigned_match_stays_resigned_in_the_history_and_after_a_restart(
    table: Table,
) -> None:
    room_id, cookies = table.seated_room("expeditionen", preset="short")
    with table.socket(room_id, cookies[0]) as ada:
        ada.send({"type": "resign"})
        result = ended(ada)["result"]
    (listed,) = table.client.get("/api/matches").json()
    assert listed["result"] == result
    assert table.client.get(f"/api/matches/{listed['match_id']}").json()["result"] == result
    table.app.state.rooms.cache.clear()  # as after a restart: rebuilt from the database
    with table.socket(room_id, cookies[1]) as bo:
        assert bo.state["result"] == result
        assert bo.state["tally"] == {"wins": [0, 1], "draws": 0, "matches": 1}


def test_resigning_alone_loses_the_solo_game(table: Table) -> None:
    room_id, cookies = table.seated_room("scoundrel")
    with table.socket(room_id, cookies[0]) as ada:
        ada.send({"type": "resign"})
        state = ended(ada)
    assert state["result"]["winner"] is None
    assert state["result"]["outcome"] == "loss"
    assert state["tally"] == {"wins": [0], "draws": 0, "matches": 1}


def test_the_resigner_starts_the_rematch_as_the_loser(table: Table) -> None:
    room_id, cookies = table.seated_room("expeditionen", preset="short")
    with table.socket(room_id, cookies[0]) as ada, table.socket(room_id, cookies[1]) as bo:
        resigner = ada if ada.state["to_move"] == 1 else bo  # not the one who started
        resigner.send({"type": "resign"})
        ended(ada)
        ended(bo)
        ada.send({"type": "rematch"})
        bo.send({"type": "rematch"})
        state = ada.wait_version(2, 0)
    assert state["to_move"] == resigner.seat


@pytest.mark.public_history
def test_aborting_early_ends_the_match_without_a_result_and_counts_for_nothing(
    table: Table,
) -> None:
    room_id, cookies = table.seated_room("expeditionen", preset="short")
    with table.socket(room_id, cookies[0]) as ada, table.socket(room_id, cookies[1]) as bo:
        assert ada.state["abortable"] is True
        bo.send({"type": "abort"})
        for socket in (ada, bo):
            state = ended(socket)
            assert state["result"]["reason"] == "aborted"
            assert state["result"]["outcome"] == "aborted"
            assert state["result"]["aborted_by"] == 1
            assert state["result"]["winner"] is None
            assert state["tally"] == {"wins": [0, 0], "draws": 0, "matches": 0}
            assert state["abortable"] is False
    assert stored_status(table) == "aborted"
    (listed,) = table.client.get("/api/matches").json()
    assert listed["result"]["reason"] == "aborted"
    table.app.state.rooms.cache.clear()
    with table.socket(room_id, cookies[0]) as again:
        assert again.state["result"] == state["result"]
        assert again.state["tally"]["matches"] == 0


def test_a_turn_of_several_actions_is_one_move_for_aborting(table: Table) -> None:
    """Expeditionen's turn is a play, then a draw: each player's first turn is their first
    move, and the match may be aborted until a player begins a second turn."""
    rng = random.Random(3)
    room_id, cookies = table.seated_room("expeditionen", preset="short")
    with table.socket(room_id, cookies[0]) as ada, table.socket(room_id, cookies[1]) as bo:
        by_seat = {ada.seat: ada, bo.seat: bo}
        first = ada.state["to_move"]
        for _turn in range(2):
            mover = by_seat[ada.state["to_move"]]
            play_turn(mover, rng)  # play
            play_turn(mover, rng)  # draw
            for socket in (ada, bo):
                socket.wait_version(1, mover.state["version"])
        assert ada.state["version"] == 4
        assert ada.state["to_move"] == first
        assert ada.state["abortable"] is True
        play_turn(by_seat[first], rng)
        assert ada.wait_version(1, 5)["abortable"] is False


def test_alone_each_action_is_a_move_for_aborting(table: Table) -> None:
    rng = random.Random(4)
    room_id, cookies = table.seated_room("scoundrel")
    with table.socket(room_id, cookies[0]) as ada:
        play_turn(ada, rng)
        assert ada.state["abortable"] is True
        play_turn(ada, rng)
        assert ada.state["abortable"] is False


def test_aborting_too_late_is_refused_and_changes_nothing(table: Table) -> None:
    room_id, cookies = table.seated_room("scoundrel")
    with table.socket(room_id, cookies[0]) as ada:
        # The deal is random, and two fights in a row may kill; one card never does.
        play(ada, {"type": "avoid"})
        play(ada, ada.state["legal_actions"][0])
        before = ada.state
        ada.send({"type": "abort"})
        error = ada.error()
        assert error["code"] == "illegal"
        assert "resign" in error["message"]
        assert ada.drain() == []
        assert ada.state == before
    assert stored_status(table) == "playing"


@pytest.mark.parametrize("choice", ["resign", "abort"])
def test_a_spectator_can_neither_resign_nor_abort(table: Table, choice: str) -> None:
    room_id, cookies = table.seated_room("expeditionen", preset="short")
    with table.socket(room_id) as watcher, table.socket(room_id, cookies[0]) as ada:
        ada.drain()  # its own presence
        watcher.send({"type": choice})
        assert watcher.error()["code"] == "not_seated"
        assert ada.quiet()
    assert stored_status(table) == "playing"


@pytest.mark.parametrize("choice", ["resign", "abort"])
def test_a_finished_match_can_be_neither_resigned_nor_aborted(table: Table, choice: str) -> None:
    room_id, cookies = table.seated_room("expeditionen", preset="short")
    with table.socket(room_id, cookies[0]) as ada, table.socket(room_id, cookies[1]) as bo:
        ada.send({"type": "resign"})
        ended(ada)
        result = ended(bo)["result"]
        bo.send({"type": choice})
        assert bo.error()["code"] == "game_over"
        assert ada.quiet()
        assert bo.state["result"] == result
        assert bo.state["tally"]["matches"] == 1


def test_resigning_before_the_match_starts_is_refused_as_waiting(table: Table) -> None:
    room_id = table.create_room("expeditionen")
    _, cookie = table.join(room_id, "Ada")
    with table.socket(room_id, cookie) as ada:
        ada.send({"type": "resign"})
        error = ada.error()
        assert error["code"] == "waiting"
        assert "leave" in error["message"]
    assert stored_status(table) == "waiting"


def leave(table: Table, room_id: str, cookie: str | None) -> tuple[int, dict]:
    table.client.cookies.clear()
    if cookie is not None:
        table.client.cookies.set("kr_player", cookie)
    response = table.client.post(f"/api/rooms/{room_id}/leave")
    table.client.cookies.clear()
    return response.status_code, response.json() if response.content else {}


def test_leaving_a_waiting_room_that_leaves_nobody_seated_closes_it(table: Table) -> None:
    room_id = table.create_room("expeditionen")
    _, cookie = table.join(room_id, "Ada")
    with table.socket(room_id, cookie) as ada, table.socket(room_id) as watcher:
        assert leave(table, room_id, cookie) == (204, {})
        for socket in (ada, watcher):
            with pytest.raises(WebSocketDisconnect) as closed:
                while True:
                    socket.receive()
            assert closed.value.code == CLOSE_ROOM_CLOSED
            assert closed.value.reason == "everyone left the room"
    assert table.client.get(f"/api/rooms/{room_id}").status_code == 404
    table.client.cookies.set("kr_player", cookie)
    assert table.client.get("/api/me/games").json() == []


def test_leaving_once_the_match_started_is_refused(table: Table) -> None:
    room_id, cookies = table.seated_room("expeditionen", preset="short")
    status, body = leave(table, room_id, cookies[0])
    assert (status, body["detail"]["code"]) == (409, "illegal")
    seats = table.client.get(f"/api/rooms/{room_id}").json()["seats"]
    assert [seat["name"] for seat in seats] == ["Ada", "Bo"]


def test_leaving_without_a_seat_is_refused(table: Table) -> None:
    room_id = table.create_room("expeditionen")
    _, cookie = table.join(room_id, "Ada")
    for stranger in (None, table.join(table.create_room("expeditionen"), "Cy")[1]):
        status, body = leave(table, room_id, stranger)
        assert (status, body["detail"]["code"]) == (403, "not_seated")
    assert table.client.get(f"/api/rooms/{room_id}").json()["seats"][0]["name"] == "Ada"
