"""Takebacks: a seat asks to take back its last move, another seat's player accepts or
declines; alone at the table it is taken back at once. Only a move that revealed nothing,
and the stored actions stay append-only (app/table/timeline.py)."""

from __future__ import annotations

import random
from contextlib import ExitStack
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.main import create_app
from app.settings import Settings
from engine import get_game
from tests.app.tables import Socket, Table, play

EXPEDITIONEN = get_game("expeditionen")


def quiet_move(table: Table, room_id: str, socket: Socket) -> dict[str, Any]:
    """A legal action of the socket's seat that reveals nothing."""
    state = table.live_state(room_id)
    game = table.app.state.rooms.room(room_id).game
    quiet = [a for a in socket.state["legal_actions"] if not game.reveals(state, a)]
    assert quiet, "no quiet move here"
    return quiet[0]


def revealing_move(table: Table, room_id: str, socket: Socket) -> dict[str, Any] | None:
    state = table.live_state(room_id)
    game = table.app.state.rooms.room(room_id).game
    telling = [a for a in socket.state["legal_actions"] if game.reveals(state, a)]
    return telling[0] if telling else None


def move(socket: Socket, others: list[Socket], action: dict[str, Any]) -> None:
    version = socket.state["version"]
    socket.act(action)
    for each in [socket, *others]:
        each.wait_version(socket.state["match_number"], version + 1)


def ada_to_move(table: Table, room_id: str, ada: Socket, bo: Socket) -> None:
    """Play until Ada (seat 0) is to play a card."""
    rng = random.Random(3)
    while ada.state["to_move"] != 0 or ada.state["view"].get("phase") != "play":
        play(table, room_id, [ada, bo], rng, plies=1)


def set_clock(table: Table, at: datetime) -> None:
    table.app.state.rooms.clock.now = lambda: at


@pytest.fixture
def expeditionen(table: Table) -> tuple[str, list[str]]:
    return table.seated_room("expeditionen", preset="short")


def test_a_solo_move_that_revealed_nothing_is_taken_back_at_once(table: Table) -> None:
    room_id, (cookie,) = table.seated_room("scoundrel")
    with table.socket(room_id, cookie) as ada:
        before = ada.state
        move(ada, [], quiet_move(table, room_id, ada))
        assert ada.state["takeback"] == {"seat": 0, "requested": False, "undone": None}
        ada.send({"type": "takeback"})
        assert ada.next("takeback") == {"type": "takeback", "seat": 0, "answer": "accepted"}
        after = ada.next("state")
        assert after["version"] == before["version"] + 2
        assert after["view"] == before["view"]
        assert after["legal_actions"] == before["legal_actions"]
        assert after["takeback"]["undone"] == 1


def test_an_accepted_request_takes_the_move_back(table: Table, expeditionen: Any) -> None:
    room_id, cookies = expeditionen
    with table.socket(room_id, cookies[0]) as ada, table.socket(room_id, cookies[1]) as bo:
        ada_to_move(table, room_id, ada, bo)
        before = ada.state
        move(ada, [bo], quiet_move(table, room_id, ada))
        ada.send({"type": "takeback"})
        for socket in (ada, bo):
            assert socket.next("takeback")["answer"] == "asked"
            asked = socket.next("state")["takeback"]
            assert asked == {"seat": 0, "requested": True, "undone": None}
        bo.send({"type": "takeback_answer", "accept": True})
        for socket in (ada, bo):
            assert socket.next("takeback")["answer"] == "accepted"
        after = ada.next("state")
        assert after["version"] == before["version"] + 2
        assert (after["view"], after["to_move"]) == (before["view"], 0)
        assert after["legal_actions"] == before["legal_actions"]


def test_a_declined_request_keeps_the_move_and_blocks_the_next_for_a_minute(
    table: Table, expeditionen: Any
) -> None:
    room_id, cookies = expeditionen
    with table.socket(room_id, cookies[0]) as ada, table.socket(room_id, cookies[1]) as bo:
        ada_to_move(table, room_id, ada, bo)
        move(ada, [bo], quiet_move(table, room_id, ada))
        played = ada.state
        now = datetime.now(UTC)
        set_clock(table, now)
        ada.send({"type": "takeback"})
        bo.next("takeback")
        bo.send({"type": "takeback_answer", "accept": False})
        assert ada.next("takeback")["answer"] == "asked"
        assert ada.next("takeback") == {"type": "takeback", "seat": 0, "answer": "declined"}
        assert ada.next("state")["view"] == played["view"]
        ada.send({"type": "takeback"})
        assert ada.error()["code"] == "takeback_declined"
        assert bo.next("takeback")["answer"] == "declined"
        set_clock(table, now + timedelta(seconds=61))
        ada.send({"type": "takeback"})
        assert bo.next("takeback")["answer"] == "asked"


def test_one_request_at_a_time(table: Table, expeditionen: Any) -> None:
    room_id, cookies = expeditionen
    with table.socket(room_id, cookies[0]) as ada, table.socket(room_id, cookies[1]) as bo:
        ada_to_move(table, room_id, ada, bo)
        move(ada, [bo], quiet_move(table, room_id, ada))
        ada.send({"type": "takeback"})
        ada.next("takeback")
        ada.send({"type": "takeback"})
        assert ada.error()["code"] == "takeback_open"


def test_at_most_three_requests_a_minute(table: Table, expeditionen: Any) -> None:
    room_id, cookies = expeditionen
    with table.socket(room_id, cookies[0]) as ada, table.socket(room_id, cookies[1]) as bo:
        ada_to_move(table, room_id, ada, bo)
        for _ in range(3):
            move(ada, [bo], quiet_move(table, room_id, ada))
            ada.send({"type": "takeback"})
            bo.next("takeback")
            bo.send({"type": "takeback_answer", "accept": True})
            ada.wait_version(1, ada.state["version"] + 1)
        move(ada, [bo], quiet_move(table, room_id, ada))
        ada.send({"type": "takeback"})
        assert ada.error()["code"] == "too_many_takebacks"


@pytest.mark.parametrize("game", ["scoundrel", "expeditionen", "pilzwanderung"])
def test_a_move_that_revealed_a_card_cannot_be_taken_back(table: Table, game: str) -> None:
    room_id, cookies = table.seated_room(game)
    with ExitStack() as stack:
        players = [stack.enter_context(table.socket(room_id, cookie)) for cookie in cookies]
        rng = random.Random(1)
        while True:
            mover = players[players[0].state["to_move"]]
            telling = revealing_move(table, room_id, mover)
            if telling is not None:
                break
            play(table, room_id, players, rng, plies=1)
        move(mover, [p for p in players if p is not mover], telling)
        assert mover.state["takeback"]["seat"] is None
        mover.send({"type": "takeback"})
        assert mover.error()["code"] == "revealed"
        assert mover.quiet()


def test_only_the_seat_that_made_the_last_move_may_ask(table: Table, expeditionen: Any) -> None:
    room_id, cookies = expeditionen
    with table.socket(room_id, cookies[0]) as ada, table.socket(room_id, cookies[1]) as bo:
        ada.send({"type": "takeback"})
        assert ada.error()["code"] == "nothing_to_take_back"
        ada_to_move(table, room_id, ada, bo)
        move(ada, [bo], quiet_move(table, room_id, ada))
        bo.send({"type": "takeback"})
        assert bo.error()["code"] == "not_your_move"
        with table.socket(room_id) as spectator:
            spectator.send({"type": "takeback"})
            assert spectator.error()["code"] == "not_seated"
            spectator.send({"type": "takeback_answer", "accept": True})
            assert spectator.error()["code"] == "not_seated"


def test_an_answer_needs_a_request_of_another_seat(table: Table, expeditionen: Any) -> None:
    room_id, cookies = expeditionen
    with table.socket(room_id, cookies[0]) as ada, table.socket(room_id, cookies[1]) as bo:
        ada_to_move(table, room_id, ada, bo)
        move(ada, [bo], quiet_move(table, room_id, ada))
        bo.send({"type": "takeback_answer", "accept": True})
        assert bo.error()["code"] == "not_offered"
        ada.send({"type": "takeback"})
        bo.next("takeback")
        ada.send({"type": "takeback_answer", "accept": True})
        assert ada.error()["code"] == "not_offered"


def test_a_move_closes_the_open_request(table: Table, expeditionen: Any) -> None:
    room_id, cookies = expeditionen
    with table.socket(room_id, cookies[0]) as ada, table.socket(room_id, cookies[1]) as bo:
        ada_to_move(table, room_id, ada, bo)
        move(ada, [bo], quiet_move(table, room_id, ada))
        ada.send({"type": "takeback"})
        bo.next("takeback")
        move(ada, [bo], ada.state["legal_actions"][0])  # Ada draws after all
        assert bo.state["takeback"]["requested"] is False
        bo.send({"type": "takeback_answer", "accept": True})
        assert bo.error()["code"] == "not_offered"


def test_against_the_computer_a_move_is_taken_back_at_once(table: Table) -> None:
    room_id = table.create_room(
        "expeditionen", preset="short", computer="random", options={"first": 0}
    )
    _seat, cookie = table.join(room_id, "Ada")
    with table.socket(room_id, cookie) as ada:
        move(ada, [], quiet_move(table, room_id, ada))
        ada.send({"type": "takeback"})
        assert ada.next("takeback")["answer"] == "accepted"
        assert ada.next("state")["version"] == 2


@pytest.mark.both_databases  # read back from storage
def test_a_restart_during_an_open_request_loses_nothing(settings: Settings) -> None:
    with TestClient(create_app(settings)) as client:
        table = Table(client)
        room_id, cookies = table.seated_room("expeditionen", preset="short")
        with table.socket(room_id, cookies[0]) as ada, table.socket(room_id, cookies[1]) as bo:
            ada_to_move(table, room_id, ada, bo)
            before = ada.state
            move(ada, [bo], quiet_move(table, room_id, ada))
            ada.send({"type": "takeback"})
            bo.next("takeback")
            asked = bo.next("state")
    with TestClient(create_app(settings)) as client:  # a new server process
        table = Table(client)
        with table.socket(room_id, cookies[0]) as ada, table.socket(room_id, cookies[1]) as bo:
            assert {**bo.state, "players": None} == {**asked, "players": None}
            bo.send({"type": "takeback_answer", "accept": True})
            after = ada.wait_version(1, before["version"] + 2)
            assert (after["view"], after["legal_actions"]) == (
                before["view"],
                before["legal_actions"],
            )


def test_the_replay_after_takebacks_equals_the_live_table_at_every_step(
    table: Table, expeditionen: Any
) -> None:
    """Random play with every quiet move of Ada's taken back once (a minute apart, as the
    limit asks): each replay step shows
    the table as it was live after that entry, and marks what was taken back."""
    room_id, cookies = expeditionen
    game = EXPEDITIONEN
    live: list[Any] = [game.view(table.live_state(room_id), None, reveal=True)]
    rng = random.Random(8)
    undone: list[int] = []
    redone = False  # the last move was made again after a takeback: it stays
    with table.socket(room_id, cookies[0]) as ada, table.socket(room_id, cookies[1]) as bo:
        while ada.state["to_move"] is not None:
            takeback = ada.state["takeback"]
            if takeback["seat"] == 0 and takeback["undone"] is None and not redone:
                set_clock(table, datetime.now(UTC) + timedelta(minutes=len(undone)))
                undone.append(ada.state["version"])
                ada.send({"type": "takeback"})
                bo.next("takeback")
                bo.send({"type": "takeback_answer", "accept": True})
            else:
                redone = takeback["undone"] is not None
                play(table, room_id, [ada, bo], rng, plies=1)
            ada.wait_version(1, len(live))
            live.append(game.view(table.live_state(room_id), None, reveal=True))
        match_id = ada.state["match_id"]
    table.client.cookies.set("kr_player", cookies[0])
    steps = table.client.get(f"/api/matches/{match_id}").json()["steps"]
    assert undone, "no move was taken back"
    assert [step["view"] for step in steps] == live
    assert [s["ply"] for s in steps if s["taken_back"]] == undone
    assert [s["undoes"] for s in steps if s["undoes"] is not None] == undone
