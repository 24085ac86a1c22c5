"""Turn-based rooms: moves over days, the time per move, and "Your games"."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from app.main import create_app
from app.settings import Settings
from app.storage.models import ROOMS
from app.table.events import Event, ReminderDue, RoomListener
from app.table.live import LiveRoom, iso
from app.table.rooms import RoomService
from tests.app.tables import Socket, Table, play

# Deadlines and the idle sweep read stored timestamps, which the dialects store apart:
# the tests of those (both_databases) run on PostgreSQL too.

DAY = timedelta(days=1)
TAKEOVER = 0.3


@pytest.fixture
def turn_settings(settings: Settings) -> Settings:
    return settings.model_copy(update={"bot_move_delay_seconds": 0.1, "takeover_seconds": TAKEOVER})


@pytest.fixture
def table(turn_settings: Settings) -> Iterator[Table]:
    with TestClient(create_app(turn_settings)) as client:
        yield Table(client)


def rooms_of(table: Table) -> RoomService:
    rooms: RoomService = table.app.state.rooms
    return rooms


def turn_room(
    table: Table, days: int | None = 2, game: str = "expeditionen"
) -> tuple[str, list[str]]:
    body: dict[str, Any] = {"turn_based": True, "move_days": days}
    if game == "expeditionen":
        body["preset"] = "short"
    return table.seated_room(game, **body)


def live(table: Table, room_id: str) -> LiveRoom:
    return rooms_of(table).room(room_id)


def move_clock(table: Table, to: datetime) -> None:
    rooms_of(table).clock.now = lambda: to


def sweep(table: Table) -> None:
    table.client.portal.call(rooms_of(table).sweep_turns)  # type: ignore[union-attr]


def takeovers(socket: Socket) -> list[dict[str, Any]]:
    return [m for m in socket.drain() if m["type"] == "takeover"]


def room_count(table: Table) -> int:
    with table.app.state.db_engine.connect() as connection:
        count: int = connection.scalar(select(func.count()).select_from(ROOMS))
        return count


# Creating a turn-based room


@pytest.mark.both_databases
@pytest.mark.parametrize("days", [1, 2, 3, 7, None])
def test_a_turn_based_room_takes_each_allowed_time_per_move(table: Table, days: int | None) -> None:
    room_id = table.create_room("expeditionen", turn_based=True, move_days=days)
    info = table.client.get(f"/api/rooms/{room_id}").json()
    assert (info["turn_based"], info["move_days"]) == (True, days)
    with table.app.state.db_engine.connect() as connection:
        stored = connection.execute(select(ROOMS.c.turn_based, ROOMS.c.move_days)).one()
    assert tuple(stored) == (True, days)


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"turn_based": True, "move_days": 0}, "malformed"),
        ({"turn_based": True, "move_days": 4}, "malformed"),
        ({"turn_based": True, "move_days": 30}, "malformed"),
        ({"turn_based": True, "move_days": "2"}, "malformed"),
        ({"turn_based": True, "move_days": 1.5}, "malformed"),
        ({"move_days": 2}, "bad_option"),
    ],
)
def test_another_time_per_move_is_refused_and_no_room_is_made(
    table: Table, body: dict[str, Any], code: str
) -> None:
    response = table.client.post("/api/rooms", json={"game": "expeditionen", **body})
    assert response.status_code == 422
    assert response.json()["detail"]["code"] == code
    assert room_count(table) == 0


def test_scoundrel_played_alone_cannot_be_turn_based(table: Table) -> None:
    response = table.client.post("/api/rooms", json={"game": "scoundrel", "turn_based": True})
    assert response.status_code == 422
    assert response.json()["detail"]["code"] == "bad_option"
    assert room_count(table) == 0


# The idle sweep


def later_than_idle(table: Table) -> datetime:
    minutes = table.app.state.settings.room_idle_minutes
    return datetime.now(UTC) + timedelta(minutes=minutes + 1)


@pytest.mark.both_databases
def test_the_idle_sweep_leaves_a_running_turn_based_room_open_and_closes_the_others(
    table: Table,
) -> None:
    running, _ = turn_room(table)
    live_room, _ = table.seated_room("expeditionen", preset="short")
    finished, cookies = turn_room(table)
    with table.socket(finished, cookies[0]) as ada, table.socket(finished, cookies[1]) as bo:
        play(table, finished, [ada, bo], random.Random(3))
    assert live(table, finished).match.status == "finished"
    move_clock(table, later_than_idle(table))
    closed = table.client.portal.call(rooms_of(table).close_idle_rooms)  # type: ignore[union-attr]
    assert sorted(closed) == sorted([live_room, finished])
    assert table.client.get(f"/api/rooms/{running}").status_code == 200


@pytest.mark.both_databases
def test_after_a_restart_the_database_keeps_a_running_turn_based_room_open(
    turn_settings: Settings,
) -> None:
    with TestClient(create_app(turn_settings)) as client:
        running, _ = turn_room(Table(client))
        waiting = Table(client).create_room("expeditionen", turn_based=True)
    with TestClient(create_app(turn_settings)) as client:
        table = Table(client)
        move_clock(table, later_than_idle(table))
        closed = client.portal.call(rooms_of(table).close_idle_rooms)  # type: ignore[union-attr]
        assert closed == [waiting]  # a room still waiting for its players is not running
        assert client.get(f"/api/rooms/{running}").status_code == 200


# Being away, and the time per move


@pytest.fixture
def away(table: Table) -> Iterator[tuple[str, list[str], Socket, int]]:
    """A turn-based room with two days per move whose player to move has left. Yields
    the room, the cookies, the socket of the one who stayed, and the absent seat."""
    room_id, cookies = turn_room(table, days=2)
    absent = live(table, room_id).to_move()
    assert absent is not None
    with table.socket(room_id, cookies[1 - absent]) as present:
        with table.socket(room_id, cookies[absent]):
            pass
        yield room_id, cookies, present, absent


def run_out(table: Table, room_id: str, extra: timedelta = timedelta(minutes=1)) -> datetime:
    """Move the clock past the turn's deadline and let the sweep look."""
    deadline = live(table, room_id).deadline()
    assert deadline is not None
    move_clock(table, deadline + extra)
    sweep(table)
    return deadline + extra


def test_absence_during_ones_turn_offers_nothing_in_a_turn_based_room(
    table: Table, away: tuple[str, list[str], Socket, int]
) -> None:
    room_id, _, present, _ = away
    time.sleep(TAKEOVER * 3)
    sweep(table)
    assert takeovers(present) == []
    assert table.app.state.takeovers.absent_seat(live(table, room_id)) is None


def test_the_table_says_whose_turn_since_when_and_until_when(
    table: Table, away: tuple[str, list[str], Socket, int]
) -> None:
    room_id, _, present, absent = away
    turn = present.state["turn"]
    since = datetime.fromisoformat(turn["since"])
    assert turn["seat"] == absent
    assert datetime.fromisoformat(turn["deadline"]) == since + 2 * DAY
    info = table.client.get(f"/api/rooms/{room_id}").json()["turn"]
    assert info == {**turn, "now": None}  # the server's clock: in a state message only


def test_the_time_running_out_offers_the_three_choices_to_the_other_player(
    table: Table, away: tuple[str, list[str], Socket, int]
) -> None:
    room_id, _, present, absent = away
    run_out(table, room_id, extra=-timedelta(minutes=1))
    assert takeovers(present) == []
    run_out(table, room_id)
    assert takeovers(present) == [
        {
            "type": "takeover",
            "seat": absent,
            "levels": ["easy", "medium", "strong", "random"],
            "time_ran_out": True,
        }
    ]


def test_a_socket_connecting_after_the_deadline_hears_the_offer_without_a_sweep(
    table: Table,
) -> None:
    room_id, cookies = turn_room(table, days=1)
    absent = live(table, room_id).to_move()
    assert absent is not None
    move_clock(table, datetime.now(UTC) + 2 * DAY)
    with table.socket(room_id, cookies[1 - absent]) as present:
        assert takeovers(present)[-1]["seat"] == absent


@pytest.mark.both_databases
def test_keeping_waiting_gives_the_seat_its_whole_time_again(
    table: Table, away: tuple[str, list[str], Socket, int]
) -> None:
    room_id, _, present, absent = away
    now = run_out(table, room_id)
    present.drain()
    present.send({"type": "takeover", "choice": "wait"})
    answered = present.drain()
    assert [m["seat"] for m in answered if m["type"] == "takeover"] == [None]
    turn = present.state["turn"]
    assert datetime.fromisoformat(turn["since"]) == now
    assert datetime.fromisoformat(turn["deadline"]) == now + 2 * DAY
    sweep(table)
    assert takeovers(present) == []
    with table.app.state.db_engine.connect() as connection:
        assert connection.scalar(select(ROOMS.c.waited_at)) == now


def test_the_computer_plays_the_seat_whose_time_ran_out(
    table: Table, away: tuple[str, list[str], Socket, int]
) -> None:
    room_id, _, present, absent = away
    run_out(table, room_id)
    present.send({"type": "takeover", "choice": "computer", "level": "random"})
    while present.state["to_move"] == absent or present.state["last_action"] is None:
        present.next("state")
    assert present.state["players"][absent]["computer"] == "random"
    assert present.state["last_action"]["computer"] is True
    moves = table.client.get(f"/api/rooms/{room_id}/moves").json()["moves"]
    assert moves[0]["time_ran_out"] is True
    assert all(not move["time_ran_out"] for move in moves[1:])


@pytest.mark.public_history
def test_ending_the_match_for_a_run_out_time_says_so_in_the_history(
    table: Table, away: tuple[str, list[str], Socket, int]
) -> None:
    room_id, _, present, absent = away
    run_out(table, room_id)
    present.send({"type": "takeover", "choice": "end"})
    while present.state["result"] is None:
        present.next("state")
    result = present.state["result"]
    assert (result["reason"], result["time_ran_out"]) == ("abandoned", absent)
    (listed,) = table.client.get("/api/matches").json()
    assert listed["result"]["time_ran_out"] == absent
    assert table.client.get(f"/api/rooms/{room_id}").json()["turn"] is None


def test_no_time_limit_never_offers(table: Table) -> None:
    room_id, cookies = turn_room(table, days=None)
    absent = live(table, room_id).to_move()
    assert absent is not None
    with table.socket(room_id, cookies[1 - absent]) as present:
        assert present.state["turn"]["deadline"] is None
        move_clock(table, datetime.now(UTC) + 365 * DAY)
        sweep(table)
        assert takeovers(present) == []


def test_an_answer_before_the_time_ran_out_is_refused(
    table: Table, away: tuple[str, list[str], Socket, int]
) -> None:
    room_id, _, present, _ = away
    present.send({"type": "takeover", "choice": "end"})
    assert present.error()["code"] == "not_offered"
    assert live(table, room_id).match.status == "playing"


# The reminder at a quarter left


class Reminders(RoomListener):
    """Hears the room-events hub's reminders (as Web Push does)."""

    def __init__(self, heard: Callable[[LiveRoom, int], object]) -> None:
        self.heard = heard

    def hear(self, event: Event) -> None:
        if isinstance(event, ReminderDue):
            self.heard(event.room, event.seat)


@pytest.mark.both_databases
def test_the_reminder_fires_once_when_a_quarter_of_the_time_is_left(
    turn_settings: Settings,
) -> None:
    reminded: list[tuple[str, int]] = []
    with TestClient(create_app(turn_settings)) as client:
        table = Table(client)
        table.app.state.events.subscribe(
            Reminders(lambda room, seat: reminded.append((room.id, seat)))
        )
        room_id, _ = turn_room(table, days=1)
        seat = live(table, room_id).to_move()
        deadline = live(table, room_id).deadline()
        assert deadline is not None
        move_clock(table, deadline - DAY / 4 - timedelta(minutes=1))
        sweep(table)
        assert reminded == []
        move_clock(table, deadline - DAY / 4 + timedelta(minutes=1))
        sweep(table)
        sweep(table)
        assert reminded == [(room_id, seat)]
    with TestClient(create_app(turn_settings)) as client:  # a restart does not remind again
        table = Table(client)
        table.app.state.events.subscribe(
            Reminders(lambda room, seat: reminded.append((room.id, seat)))
        )
        move_clock(table, deadline - timedelta(hours=1))
        sweep(table)
        assert reminded == [(room_id, seat)]


@pytest.mark.both_databases
def test_of_two_processes_sweeping_the_same_turn_only_one_reminds(
    turn_settings: Settings,
) -> None:
    reminded: list[str] = []
    with (
        TestClient(create_app(turn_settings)) as first,
        TestClient(create_app(turn_settings)) as second,
    ):
        tables = [Table(first), Table(second)]
        room_id, _ = turn_room(tables[0], days=2)
        deadline = live(tables[0], room_id).deadline()
        assert deadline is not None
        for table in tables:
            table.app.state.events.subscribe(Reminders(lambda room, seat: reminded.append(room.id)))
            move_clock(table, deadline - timedelta(hours=1))
            sweep(table)
    assert reminded == [room_id]


def test_the_push_helper_learns_the_seat_to_move_and_its_deadline(table: Table) -> None:
    room_id, _ = turn_room(table, days=3)
    room = live(table, room_id)
    turn = table.client.portal.call(rooms_of(table).turns.turn, room_id)  # type: ignore[union-attr]
    assert turn is not None
    assert (turn.seat, turn.deadline) == (room.to_move(), turn.since + 3 * DAY)


# Time left after a restart


@pytest.mark.both_databases
def test_time_left_is_computed_from_stored_data_after_a_restart(
    turn_settings: Settings,
) -> None:
    moved_at = datetime.now(UTC) + timedelta(hours=1)
    with TestClient(create_app(turn_settings)) as client:
        table = Table(client)
        room_id, cookies = turn_room(table, days=3)
        mover = live(table, room_id).to_move()
        assert mover is not None
        move_clock(table, moved_at)
        with table.socket(room_id, cookies[mover]) as socket:
            socket.act(socket.state["legal_actions"][0])  # Expeditionen: play, then draw
            socket.wait_version(1, 1)
            assert socket.state["turn"]["since"] != iso(moved_at)  # the same turn goes on
            socket.act(socket.state["legal_actions"][0])
            socket.wait_version(1, 2)
            assert socket.state["turn"] == {
                "seat": 1 - mover,
                "since": iso(moved_at),
                "deadline": iso(moved_at + 3 * DAY),
                "now": iso(moved_at),  # the server's clock: a device's may be off (issue 53)
            }
    with TestClient(create_app(turn_settings)) as client:
        table = Table(client)
        move_clock(table, moved_at + timedelta(hours=5))
        turn = client.get(f"/api/rooms/{room_id}").json()["turn"]
        assert datetime.fromisoformat(turn["since"]) == moved_at
        assert datetime.fromisoformat(turn["deadline"]) == moved_at + 3 * DAY
        client.cookies.set("kr_player", cookies[mover])
        (game,) = client.get("/api/me/games").json()
        assert game["seconds_left"] == (3 * DAY - timedelta(hours=5)).total_seconds()
        assert game["seconds_since"] == timedelta(hours=5).total_seconds()


# Your games


def games_of(table: Table, cookie: str) -> list[dict[str, Any]]:
    table.client.cookies.set("kr_player", cookie)
    try:
        found: list[dict[str, Any]] = table.client.get("/api/me/games").json()
        return found
    finally:
        table.client.cookies.clear()


@pytest.mark.both_databases
def test_your_games_lists_only_the_players_unfinished_matches_waiting_for_them_first(
    table: Table,
) -> None:
    start = datetime(2026, 12, 1, 8, 0, tzinfo=UTC)
    move_clock(table, start)
    older, (ada, bo) = turn_room(table, days=1)
    rooms = [older]
    for hour in (1, 2):
        move_clock(table, start + timedelta(hours=hour))
        room_id = table.create_room("expeditionen", turn_based=True, move_days=7)
        table.join(room_id, "Ada", ada)
        table.join(room_id, "Bo", bo)
        rooms.append(room_id)
    others, (cy, _) = table.seated_room("expeditionen", ("Cy", "Dan"))

    mine = games_of(table, ada)
    ada_seats = {game["room_id"]: game["seat"] for game in mine}
    assert set(ada_seats) == set(rooms)
    waiting_for_ada = [g["room_id"] for g in mine if g["your_turn"]]
    assert [g["room_id"] for g in mine[: len(waiting_for_ada)]] == waiting_for_ada
    for part in (mine[: len(waiting_for_ada)], mine[len(waiting_for_ada) :]):
        assert [g["since"] for g in part] == sorted((g["since"] for g in part), reverse=True)
    first = mine[0]
    assert first["players"] == ["Ada", "Bo"]
    assert first["to_move"] == live(table, first["room_id"]).to_move()
    assert first["your_turn"] == (first["to_move"] == first["seat"])
    assert [g["room_id"] for g in games_of(table, cy)] == [others]
    assert all(g["room_id"] != others for g in mine)


def test_your_games_leave_out_a_finished_match(table: Table) -> None:
    room_id, cookies = turn_room(table)
    with table.socket(room_id, cookies[0]) as ada, table.socket(room_id, cookies[1]) as bo:
        play(table, room_id, [ada, bo], random.Random(4))
    assert games_of(table, cookies[0]) == []


def test_your_games_without_a_cookie_are_none(table: Table) -> None:
    turn_room(table)
    assert table.client.get("/api/me/games").json() == []
