"""Pausing a running match (app/table/pause.py): both players agree, then nobody moves, the
computer waits and no clock runs, until either player resumes."""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select
from starlette.websockets import WebSocketDisconnect

from app.main import create_app
from app.protocol import CLOSE_RATE_LIMITED, PauseRequest, Resume
from app.settings import Settings
from app.storage.models import ROOMS
from app.table.live import LiveRoom
from app.table.refusals import Refusal
from tests.app.tables import Socket, Table
from tests.app.test_cluster_rooms import Process, run, seated_here
from tests.app.test_cluster_rooms import Socket as ClusterSocket

TAKEOVER = 0.3
THINKING = 0.5  # the computer's delay before its move
PAUSED = {"asked_by": [0, 1], "paused": True}
RUNNING = {"asked_by": [], "paused": False}


@pytest.fixture
def table(settings: Settings) -> Iterator[Table]:
    quick = settings.model_copy(update={"takeover_seconds": TAKEOVER})
    with TestClient(create_app(quick)) as client:
        yield Table(client)


def live(table: Table, room_id: str) -> LiveRoom:
    room: LiveRoom = table.app.state.rooms.room(room_id)
    return room


def pause(socket: Socket) -> dict[str, Any]:
    """Ask for (or agree to) a pause; the state after it."""
    socket.send({"type": "pause"})
    return socket.next("state")


def both_pause(ada: Socket, bo: Socket) -> None:
    pause(ada)
    bo.next("state")
    pause(bo)
    ada.next("state")


def alone_against_the_computer(table: Table) -> tuple[str, str]:
    """A room of Ada's against the random computer; its id and Ada's cookie."""
    room_id = table.create_room("expeditionen", preset="short", computer="random")
    _, cookie = table.join(room_id, "Ada")
    return room_id, cookie


def move_clock(table: Table, to: datetime) -> None:
    table.app.state.rooms.clock.now = lambda: to


@pytest.fixture
def duel(table: Table) -> Iterator[tuple[str, Socket, Socket]]:
    room_id, cookies = table.seated_room("expeditionen", preset="short")
    with table.socket(room_id, cookies[0]) as ada, table.socket(room_id, cookies[1]) as bo:
        yield room_id, ada, bo


def test_both_players_must_agree_to_pause(duel: tuple[str, Socket, Socket]) -> None:
    _, ada, bo = duel
    assert ada.state["pause"] == RUNNING
    assert pause(ada)["pause"] == {"asked_by": [0], "paused": False}
    assert bo.next("state")["pause"] == {"asked_by": [0], "paused": False}
    assert pause(bo)["pause"] == PAUSED
    assert ada.next("state")["pause"] == PAUSED


def test_a_paused_match_refuses_a_move_and_leaves_no_legal_actions(
    table: Table, duel: tuple[str, Socket, Socket]
) -> None:
    room_id, ada, bo = duel
    mover = [ada, bo][ada.state["to_move"]]
    action = mover.state["legal_actions"][0]
    both_pause(ada, bo)
    assert mover.drain() == []
    assert mover.state["legal_actions"] == []
    mover.act(action)
    assert mover.error()["code"] == "paused"
    assert live(table, room_id).match.version == 0


def test_asking_twice_while_paused_is_refused(duel: tuple[str, Socket, Socket]) -> None:
    _, ada, bo = duel
    both_pause(ada, bo)
    ada.send({"type": "pause"})
    assert ada.error()["code"] == "paused"


def test_either_player_resumes_and_the_mover_acts_again(
    table: Table, duel: tuple[str, Socket, Socket]
) -> None:
    room_id, ada, bo = duel
    both_pause(ada, bo)
    other = [ada, bo][1 - ada.state["to_move"]]
    other.send({"type": "resume"})
    assert other.next("state")["pause"] == RUNNING
    mover = [ada, bo][ada.state["to_move"]]
    mover.next("state")
    assert mover.state["legal_actions"]
    mover.act(mover.state["legal_actions"][0])
    mover.wait_version(1, 1)
    assert live(table, room_id).match.version == 1


def test_resuming_a_match_that_is_not_paused_is_refused(duel: tuple[str, Socket, Socket]) -> None:
    _, ada, _ = duel
    ada.send({"type": "resume"})
    assert ada.error()["code"] == "not_paused"
    pause(ada)
    ada.send({"type": "resume"})  # only asked: nothing to resume
    assert ada.error()["code"] == "not_paused"


def test_a_move_closes_an_open_request(duel: tuple[str, Socket, Socket]) -> None:
    _, ada, bo = duel
    mover = [ada, bo][ada.state["to_move"]]
    other = [ada, bo][1 - ada.state["to_move"]]
    pause(other)
    mover.next("state")
    mover.act(mover.state["legal_actions"][0])
    assert mover.wait_version(1, 1)["pause"] == RUNNING
    other.wait_version(1, 1)
    assert pause(mover)["pause"] == {"asked_by": [mover.seat], "paused": False}


def test_spectators_cannot_pause_or_resume(table: Table, duel: tuple[str, Socket, Socket]) -> None:
    room_id, _, _ = duel
    with table.socket(room_id) as spectator:
        for kind in ("pause", "resume"):
            spectator.send({"type": kind})
            assert spectator.error()["code"] == "not_seated"


def test_only_a_running_match_can_be_paused(table: Table) -> None:
    room_id = table.create_room("expeditionen", preset="short")
    _, cookie = table.join(room_id, "Ada")
    with table.socket(room_id, cookie) as ada:  # waiting for a second player
        assert ada.state["pause"] is None
        ada.send({"type": "pause"})
        assert ada.error()["code"] == "illegal"


def test_a_finished_match_has_no_pause(duel: tuple[str, Socket, Socket]) -> None:
    _, ada, bo = duel
    ada.send({"type": "resign"})
    assert ada.next("state")["pause"] is None
    ada.send({"type": "pause"})
    assert ada.error()["code"] == "illegal"


# The computer waits


def test_against_the_computer_the_person_alone_pauses(table: Table) -> None:
    room_id, cookie = alone_against_the_computer(table)
    with table.socket(room_id, cookie) as ada:
        assert pause(ada)["pause"] == {"asked_by": [0], "paused": True}


def test_the_computer_waits_while_paused_and_moves_after_resume(settings: Settings) -> None:
    slow = settings.model_copy(update={"bot_move_delay_seconds": THINKING})
    with TestClient(create_app(slow)) as client:
        table = Table(client)
        room_id, cookie = alone_against_the_computer(table)
        with table.socket(room_id, cookie) as ada:
            while ada.state["to_move"] == 0:  # Ada plays until the computer is to move
                ada.act(ada.state["legal_actions"][0])
                ada.wait_version(1, ada.state["version"] + 1)
            version = ada.state["version"]
            pause(ada)  # while the computer thinks
            time.sleep(THINKING * 2)
            assert ada.drain() == []
            assert live(table, room_id).match.version == version  # it did not move
            ada.send({"type": "resume"})
            state = ada.wait_version(1, version + 1)
        assert state["last_action"]["seat"] == 1
        assert state["last_action"]["computer"] is True


# The clocks wait


def turn_room(table: Table) -> tuple[str, list[str]]:
    return table.seated_room("expeditionen", preset="short", turn_based=True, move_days=2)


@pytest.mark.both_databases
def test_the_turn_clock_stands_while_paused_and_the_turn_gets_the_time_back(
    table: Table,
) -> None:
    room_id, cookies = turn_room(table)
    start = datetime.now(UTC)
    move_clock(table, start)
    with table.socket(room_id, cookies[0]) as ada, table.socket(room_id, cookies[1]) as bo:
        deadline = datetime.fromisoformat(ada.state["turn"]["deadline"])
        both_pause(ada, bo)
        assert ada.state["turn"]["deadline"] is None  # no time runs out while paused
        move_clock(table, start + timedelta(days=5))
        table.client.portal.call(table.app.state.rooms.sweep_turns)  # type: ignore[union-attr]
        assert [m for m in ada.drain() if m["type"] == "takeover"] == []
        ada.send({"type": "resume"})
        turn = ada.next("state")["turn"]
    assert datetime.fromisoformat(turn["deadline"]) == deadline + timedelta(days=5)
    with table.app.state.db_engine.connect() as connection:  # a restart finds it
        waited_at = connection.scalar(select(ROOMS.c.waited_at).where(ROOMS.c.id == room_id))
    assert waited_at == datetime.fromisoformat(turn["since"])


def test_no_absent_player_is_offered_while_paused(
    table: Table, duel: tuple[str, Socket, Socket]
) -> None:
    room_id, ada, bo = duel
    both_pause(ada, bo)
    present = [ada, bo][1 - ada.state["to_move"]]
    absent = [ada, bo][ada.state["to_move"]]
    absent.ws.close()
    time.sleep(TAKEOVER * 3)
    offers = [m for m in present.drain() if m["type"] == "takeover"]
    assert all(m["seat"] is None for m in offers)
    assert table.app.state.takeovers.absent_seat(live(table, room_id)) is None


# What it stores


@pytest.mark.both_databases
def test_a_pause_survives_a_restart(settings: Settings) -> None:
    with TestClient(create_app(settings)) as client:
        table = Table(client)
        room_id, cookies = table.seated_room("expeditionen", preset="short")
        with table.socket(room_id, cookies[0]) as ada, table.socket(room_id, cookies[1]) as bo:
            both_pause(ada, bo)
    with TestClient(create_app(settings)) as client:
        table = Table(client)
        with table.socket(room_id, cookies[0]) as ada, table.socket(room_id, cookies[1]) as bo:
            assert ada.state["pause"] == PAUSED
            mover = [ada, bo][ada.state["to_move"]]
            assert mover.state["legal_actions"] == []
            bo.send({"type": "resume"})
            assert bo.next("state")["pause"] == RUNNING
        assert live(table, room_id).pause is None


def test_another_process_hears_the_pause_and_refuses_a_move_while_it_holds(
    settings: Settings,
) -> None:
    async def scenario(first: Process, second: Process) -> None:
        room, sockets = await seated_here(first)
        held = await second.rooms.open_room(room.id)
        bo = ClusterSocket(sockets[1].player_id)
        await second.rooms.connect(held, bo)  # type: ignore[arg-type]
        await second.hear(first)
        await first.rooms.handle(room, sockets[0], PauseRequest(type="pause"))  # type: ignore[arg-type]
        await second.hear(first)
        assert (bo.last("state") or {})["pause"] == {"asked_by": [0], "paused": False}
        await second.rooms.handle(held, bo, PauseRequest(type="pause"))  # type: ignore[arg-type]
        await first.hear(second)
        assert room.paused()
        seat = room.to_move()
        assert seat is not None
        with pytest.raises(Refusal) as refused:
            await first.rooms.actions.play(room, seat, room.match.version, {"type": "x"})
        assert refused.value.code == "paused"
        await first.rooms.handle(room, sockets[0], Resume(type="resume"))  # type: ignore[arg-type]
        await second.hear(first)
        assert not held.paused()
        assert (bo.last("state") or {})["pause"] == RUNNING

    run(settings, scenario)


def test_a_flood_of_pauses_and_resumes_is_cut_at_the_sockets_rate(settings: Settings) -> None:
    """Each toggle is a write and a state to every socket of the room: a player alone
    against the computer toggles at once, so only the rate of one socket bounds it. Beyond
    its burst the flooder gets one error and is closed; what its last toggle left is stored,
    and the match plays on."""
    burst = 5
    quick = settings.model_copy(update={"messages_per_second": burst})
    with TestClient(create_app(quick)) as client:
        table = Table(client)
        room_id, cookie = alone_against_the_computer(table)
        with table.socket(room_id, cookie) as ada:
            for toggle in range(4 * burst):
                ada.send({"type": "pause" if toggle % 2 == 0 else "resume"})
            states = []
            while (message := ada.receive())["type"] != "error":
                states.append(message)
            assert message["code"] == "rate_limited"
            with pytest.raises(WebSocketDisconnect) as closed:
                ada.receive()
    assert closed.value.code == CLOSE_RATE_LIMITED
    assert 0 < len(states) <= burst + 1  # the state on connecting, then one per toggle
    left = states[-1]["pause"]
    with TestClient(create_app(quick)) as client:  # what was stored
        table = Table(client)
        with table.socket(room_id, cookie) as ada:
            assert ada.state["pause"] == left  # not null: the match runs
            if left["paused"]:
                ada.send({"type": "resume"})
                assert ada.next("state")["pause"] == {"asked_by": [], "paused": False}
