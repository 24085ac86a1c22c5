"""Computer players in rooms: playing against one, and the computer taking an absent seat."""

from __future__ import annotations

import multiprocessing
import random
import time
from collections.abc import Iterator
from contextlib import ExitStack
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from app.main import create_app
from app.settings import Settings
from app.storage.models import ACTIONS, MATCHES
from engine import get_game
from tests.app.tables import Socket, Table

PAUSE = 0.3
TAKEOVER = 0.4


@pytest.fixture
def computer_settings(settings: Settings) -> Settings:
    return settings.model_copy(
        update={"bot_move_delay_seconds": PAUSE, "takeover_seconds": TAKEOVER}
    )


@pytest.fixture
def table(computer_settings: Settings) -> Iterator[Table]:
    with TestClient(create_app(computer_settings)) as client:
        yield Table(client)


def room_against(table: Table, level: str = "easy") -> tuple[str, str]:
    room_id = table.create_room("expeditionen", preset="short", computer=level)
    seat, cookie = table.join(room_id, "Ada")
    assert seat == 0
    return room_id, cookie


def play_until_computer_moves(
    table: Table, room_id: str, ada: Socket, rng: random.Random, since: float = 0.0
) -> float:
    """Ada plays until it is the computer's turn (it may be already). Returns the time
    (time.monotonic) just before the change that made it its turn: Ada's last action, else
    `since`."""
    while ada.state["to_move"] == 0:
        since = time.monotonic()
        ada.act(rng.choice(ada.state["legal_actions"]))
        ada.wait_version(ada.state["match_number"], ada.state["version"] + 1)
    return since


def next_computer_move(ada: Socket) -> dict[str, Any]:
    while True:
        state = ada.next("state")
        if state["last_action"] and state["last_action"]["seat"] == 1:
            return state


def stored_actions(table: Table) -> list[tuple[int, bool]]:
    with table.app.state.db_engine.connect() as connection:
        rows = connection.execute(
            select(ACTIONS.c.seat, ACTIONS.c.by_computer).order_by(ACTIONS.c.ply)
        )
        return [(seat, by_computer) for seat, by_computer in rows]


# Playing against the computer


def test_a_room_against_the_computer_starts_when_its_player_joins(table: Table) -> None:
    room_id, cookie = room_against(table)
    room = table.client.get(f"/api/rooms/{room_id}").json()
    assert room["status"] == "playing"
    assert room["seats"][1] == {
        "seat": 1,
        "name": "Computer",
        "connected": True,
        "computer": "easy",
    }
    with table.socket(room_id, cookie) as ada:
        assert ada.state["players"][1]["computer"] == "easy"


def test_the_computer_answers_after_the_pause_with_a_legal_move(table: Table) -> None:
    """The pause counts from the change that gave the computer its turn (Ada's action, or
    her joining when the computer starts), so the time is taken before that change."""
    joining = time.monotonic()
    room_id, cookie = room_against(table)
    game = get_game("expeditionen")
    with table.socket(room_id, cookie) as ada:
        asked = play_until_computer_moves(table, room_id, ada, random.Random(1), joining)
        before = table.live_state(room_id)
        state = next_computer_move(ada)
        assert time.monotonic() - asked >= PAUSE * 0.9
        assert state["last_action"]["computer"] is True
        assert state["last_action"]["action"] in game.legal_actions(before, 1)


@pytest.mark.public_history
@pytest.mark.both_databases
def test_a_whole_match_against_the_computer_is_stored_with_its_moves_marked(
    table: Table,
    computer_settings: Settings,
) -> None:
    table.app.state.settings.bot_move_delay_seconds = 0
    room_id, cookie = room_against(table)
    rng = random.Random(2)
    with table.socket(room_id, cookie) as ada:
        while ada.state["result"] is None:
            if ada.state["to_move"] == 0:
                ada.act(rng.choice(ada.state["legal_actions"]))
            ada.next("state")
    stored = stored_actions(table)
    assert {seat for seat, by_computer in stored if by_computer} == {1}
    assert all(by_computer == (seat == 1) for seat, by_computer in stored)
    moves = table.client.get(f"/api/rooms/{room_id}/moves").json()["moves"]
    assert [(m["seat"], m["computer"]) for m in moves] == stored
    (finished,) = table.client.get("/api/matches").json()
    assert finished["players"] == ["Ada", "Computer"]
    steps = table.client.get(f"/api/matches/{finished['match_id']}").json()["steps"]
    assert [(s["seat"], s["computer"]) for s in steps[1:]] == stored


def test_the_computer_agrees_to_a_rematch_at_once(table: Table) -> None:
    table.app.state.settings.bot_move_delay_seconds = 0
    room_id, cookie = room_against(table)
    rng = random.Random(8)
    with table.socket(room_id, cookie) as ada:
        while ada.state["result"] is None:
            if ada.state["to_move"] == 0:
                ada.act(rng.choice(ada.state["legal_actions"]))
            ada.next("state")
        ada.send({"type": "rematch"})
        while ada.state["match_number"] != 2:
            ada.next("state")
        assert ada.state["result"] is None
        assert ada.state["players"][1]["computer"] == "easy"


def test_the_computers_thinking_does_not_hold_up_another_room(table: Table) -> None:
    think = 3.0
    table.app.state.settings.bot_think_seconds = think
    table.app.state.settings.bot_move_delay_seconds = 0
    room_id, cookie = room_against(table, "strong")
    other_id, cookies = table.seated_room("expeditionen", preset="short")
    with (
        table.socket(room_id, cookie) as ada,
        table.socket(other_id, cookies[0]) as cleo,
        table.socket(other_id, cookies[1]) as dan,
    ):
        play_until_computer_moves(table, room_id, ada, random.Random(3))
        time.sleep(0.5)  # the computer thinks
        mover = [cleo, dan][cleo.state["to_move"]]
        started = time.monotonic()
        mover.act(mover.state["legal_actions"][0])
        cleo.wait_version(1, 1)
        # Well within the computer's thinking (a busy machine may take a while), ...
        assert time.monotonic() - started < think / 2
        # ... while the computer has not answered yet
        assert table.app.state.rooms.room(room_id).match.version == ada.state["version"]
        assert next_computer_move(ada)["last_action"]["computer"] is True


def test_a_worker_killed_while_the_computer_thinks_is_replaced_and_the_computer_moves(
    table: Table,
) -> None:
    table.app.state.settings.bot_think_seconds = 0.5
    room_id, cookie = room_against(table, "strong")
    rooms = table.app.state.rooms
    with table.socket(room_id, cookie) as ada:
        play_until_computer_moves(table, room_id, ada, random.Random(5))
        version = ada.state["version"]
        time.sleep(0.2)  # the computer thinks (or its worker starts)
        workers = multiprocessing.active_children()
        assert workers
        for worker in workers:
            worker.kill()
        deadline = time.monotonic() + 30
        while rooms.room(room_id).match.version == version and time.monotonic() < deadline:
            time.sleep(0.1)
        assert rooms.room(room_id).match.version == version + 1
        assert stored_actions(table)[-1] == (1, True)


def test_closing_the_room_stops_the_computers_thinking(table: Table) -> None:
    table.app.state.settings.bot_think_seconds = 1.0
    room_id, cookie = room_against(table, "strong")
    rooms = table.app.state.rooms
    with table.socket(room_id, cookie) as ada:
        play_until_computer_moves(table, room_id, ada, random.Random(4))
        version = ada.state["version"]
        assert room_id in table.app.state.computer.moves
        table.client.portal.call(rooms.cache.close_here, room_id)  # type: ignore[union-attr]
    assert room_id not in table.app.state.computer.moves
    time.sleep(1.0 + PAUSE)
    assert len(stored_actions(table)) == version


def test_a_shutdown_stops_the_computers_thinking(computer_settings: Settings) -> None:
    computer_settings.bot_think_seconds = 1.0
    with TestClient(create_app(computer_settings)) as client:
        table = Table(client)
        room_id, cookie = room_against(table, "strong")
        with table.socket(room_id, cookie) as ada:
            play_until_computer_moves(table, room_id, ada, random.Random(9))
            version = ada.state["version"]
            thinking = table.app.state.computer.moves[room_id]
    assert thinking.cancelled()
    time.sleep(1.0 + PAUSE)
    with TestClient(create_app(computer_settings)) as client:
        assert len(stored_actions(Table(client))) == version


@pytest.mark.both_databases
def test_a_room_with_a_computer_is_rebuilt_after_a_restart(computer_settings: Settings) -> None:
    computer_settings.bot_move_delay_seconds = 0
    with TestClient(create_app(computer_settings)) as client:
        room_id, cookie = room_against(Table(client))
    with TestClient(create_app(computer_settings)) as client:
        table = Table(client)
        with table.socket(room_id, cookie) as ada:
            assert ada.state["players"][1]["computer"] == "easy"
            play_until_computer_moves(table, room_id, ada, random.Random(5))
            assert next_computer_move(ada)["last_action"]["computer"] is True


# Adding a computer to a waiting room


def test_a_player_seats_the_computer_in_the_free_seat_and_the_match_starts(table: Table) -> None:
    room_id = table.create_room("expeditionen", preset="short")
    _, cookie = table.join(room_id, "Ada")
    table.client.cookies.set("kr_player", cookie)
    response = table.client.post(f"/api/rooms/{room_id}/computer", json={"level": "easy"})
    table.client.cookies.clear()
    assert response.status_code == 201
    assert response.json() == {"seat": 1}
    room = table.client.get(f"/api/rooms/{room_id}").json()
    assert room["status"] == "playing"
    assert room["seats"][1]["computer"] == "easy"


@pytest.mark.parametrize(
    ("setup", "level", "status", "code"),
    [
        ("full", "easy", 409, "no_free_seat"),
        ("waiting", "genius", 422, "unknown_level"),
        ("spectator", "easy", 403, "not_seated"),
    ],
)
def test_a_computer_that_cannot_be_seated_is_refused_and_nothing_changes(
    table: Table, setup: str, level: str, status: int, code: str
) -> None:
    if setup == "full":
        room_id, cookies = table.seated_room("expeditionen")
    else:
        room_id = table.create_room("expeditionen")
        cookies = [table.join(room_id, "Ada")[1]]
    if setup != "spectator":
        table.client.cookies.set("kr_player", cookies[0])
    before = table.client.get(f"/api/rooms/{room_id}").json()
    response = table.client.post(f"/api/rooms/{room_id}/computer", json={"level": level})
    table.client.cookies.clear()
    assert response.status_code == status
    assert response.json()["detail"]["code"] == code
    assert table.client.get(f"/api/rooms/{room_id}").json() == before


def test_a_solo_game_has_no_computer_seat(table: Table) -> None:
    response = table.client.post("/api/rooms", json={"game": "scoundrel", "computer": "easy"})
    assert response.status_code == 422
    assert response.json()["detail"]["code"] == "no_free_seat"
    (scoundrel,) = [g for g in table.client.get("/api/games").json() if g["name"] == "scoundrel"]
    assert scoundrel["computer"] == []


# An absent player


LEFT_AT: dict[str, float] = {}  # when the absent player's socket closed, by room


@pytest.fixture
def duel(table: Table) -> Iterator[tuple[str, list[str], Socket, int]]:
    """Two players; the one to move has just left (``LEFT_AT``). Yields the room, the
    cookies, the socket of the one who stayed, and the absent seat.

    The one who leaves comes first: a seat is away from its seating on, so on a busy
    machine the one who stays could otherwise hear an offer before the other arrives."""
    room_id, cookies = table.seated_room("expeditionen", preset="short")
    absent = table.app.state.rooms.room(room_id).to_move()
    with ExitStack() as leaving:
        leaving.enter_context(table.socket(room_id, cookies[absent]))
        with table.socket(room_id, cookies[1 - absent]) as present:
            leaving.close()
            LEFT_AT[room_id] = time.monotonic()
            yield room_id, cookies, present, absent


def offer(socket: Socket) -> dict[str, Any]:
    """The next offer (past the news of when one comes, or that none is to come)."""
    while (message := socket.next("takeover"))["seat"] is None:
        pass
    return message


def test_the_others_hear_when_the_offer_for_an_absent_mover_comes(
    duel: tuple[str, list[str], Socket, int],
) -> None:
    _, _, present, absent = duel
    news = present.next("takeover")
    assert news == {
        "type": "takeover",
        "seat": None,
        "levels": ["easy", "medium", "strong", "random"],
        "away": absent,
        "offer_in": news["offer_in"],
    }
    assert 0 < news["offer_in"] <= TAKEOVER


def test_the_takeover_is_offered_once_the_player_was_away_long_enough(
    duel: tuple[str, list[str], Socket, int],
) -> None:
    # Timed from the leave, not from the test's start: on a busy machine the offer may
    # come before this body runs (TAKEOVER is 0.4 s here).
    room_id, _, present, absent = duel
    assert offer(present) == {
        "type": "takeover",
        "seat": absent,
        "levels": ["easy", "medium", "strong", "random"],
    }
    assert time.monotonic() - LEFT_AT[room_id] >= TAKEOVER * 0.9


def test_no_takeover_is_offered_while_the_absent_player_is_not_to_move(table: Table) -> None:
    room_id, cookies = table.seated_room("expeditionen", preset="short")
    to_move = table.app.state.rooms.room(room_id).to_move()
    with table.socket(room_id, cookies[to_move]) as mover:
        with table.socket(room_id, cookies[1 - to_move]):
            pass
        time.sleep(TAKEOVER * 2)
        assert {m["seat"] for m in mover.drain() if m["type"] == "takeover"} <= {None}


def test_a_solo_game_offers_no_takeover(table: Table) -> None:
    room_id, (cookie,) = table.seated_room("scoundrel")
    with table.socket(room_id) as spectator:
        with table.socket(room_id, cookie):
            pass
        time.sleep(TAKEOVER * 2)
        assert "takeover" not in [m["type"] for m in spectator.drain()]
        rooms = table.app.state.rooms
        assert table.app.state.takeovers.absent_seat(rooms.room(room_id)) is None


def test_a_person_away_from_a_game_against_the_computer_is_offered_to_nobody(
    table: Table,
) -> None:
    room_id, cookie = room_against(table)
    with table.socket(room_id) as spectator:
        with table.socket(room_id, cookie) as ada:
            while ada.state["to_move"] != 0:  # the computer may start
                ada.next("state")
        time.sleep(TAKEOVER * 2)
        assert "takeover" not in [m["type"] for m in spectator.drain()]


def test_keep_waiting_starts_the_wait_again(duel: tuple[str, list[str], Socket, int]) -> None:
    _, _, present, absent = duel
    offer(present)
    present.send({"type": "takeover", "choice": "wait"})
    withdrawn = present.next("takeover")
    assert (withdrawn["seat"], withdrawn["away"]) == (None, absent)
    waited = time.monotonic()
    assert offer(present)["seat"] == absent
    assert time.monotonic() - waited >= TAKEOVER * 0.9


def test_the_computer_plays_the_absent_seat_until_its_player_returns(
    table: Table, duel: tuple[str, list[str], Socket, int]
) -> None:
    room_id, cookies, present, absent = duel
    offer(present)
    present.send({"type": "takeover", "choice": "computer", "level": "easy"})
    assert present.next("takeover")["seat"] is None
    while present.state["players"][absent]["computer"] != "easy":
        present.next("state")
    while present.state["to_move"] == absent:
        state = present.next("state")
        assert state["last_action"]["computer"] is True
    assert (absent, True) in stored_actions(table)
    rng = random.Random(6)
    present.act(rng.choice(present.state["legal_actions"]))
    with table.socket(room_id, cookies[absent]) as back:
        assert back.state["players"][absent]["computer"] is None
        computer_moves = stored_actions(table).count((absent, True))
        time.sleep(PAUSE * 2)
        assert stored_actions(table).count((absent, True)) == computer_moves
        assert table.app.state.rooms.room(room_id).seats[absent].computer is None


@pytest.mark.public_history
@pytest.mark.both_databases
def test_ending_the_match_for_an_absent_player_stores_it_as_abandoned(
    table: Table, duel: tuple[str, list[str], Socket, int]
) -> None:
    room_id, _, present, absent = duel
    offer(present)
    present.send({"type": "takeover", "choice": "end"})
    while present.state["result"] is None:
        present.next("state")
    result = present.state["result"]
    assert result["reason"] == "abandoned"
    assert result["outcome"] == "abandoned"
    assert result["winner"] is None
    assert result["abandoned_by"] == 1 - absent
    assert present.state["tally"] == {"wins": [0, 0], "draws": 0, "matches": 0}
    with table.app.state.db_engine.connect() as connection:
        assert connection.scalar(select(MATCHES.c.status)) == "abandoned"
    (listed,) = table.client.get("/api/matches").json()
    assert listed["result"]["reason"] == "abandoned"
    assert table.client.get(f"/api/matches/{listed['match_id']}").json()["result"] == result


def test_a_takeover_answer_without_an_offer_is_refused_and_changes_nothing(table: Table) -> None:
    room_id, cookies = table.seated_room("expeditionen", preset="short")
    with table.socket(room_id, cookies[0]) as ada, table.socket(room_id, cookies[1]):
        before = ada.state
        ada.send({"type": "takeover", "choice": "end"})
        assert ada.error()["code"] == "not_offered"
        assert table.app.state.rooms.room(room_id).match.status == "playing"
        assert ada.drain() == []
        assert ada.state == before
