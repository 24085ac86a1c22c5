"""Rematch: when every seat asked, a new match starts in the same room and seats."""

from __future__ import annotations

import random
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Connection
from sqlalchemy.exc import OperationalError

from app.main import create_app
from app.settings import Settings
from app.storage import repositories
from app.storage.models import Base, Match
from engine import Outcome, get_game
from tests.app.tables import Socket, Table, play

# A rematch is stored with its last request in one commit, and read back after a restart.
pytestmark = pytest.mark.both_databases

FIXED_SEED = 424242  # a deal in which the random play below has a winner
stored_insert = repositories._insert


@pytest.fixture
def fixed_deals(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("app.table.live.secrets.randbits", lambda _bits: FIXED_SEED)


def finished(table: Table, sockets: list[Socket], room_id: str) -> dict[str, Any]:
    """Random legal play to the end; the last state."""
    play(table, room_id, sockets, random.Random(21))
    return sockets[0].state


def test_a_rematch_starts_when_every_seat_asked(table: Table, fixed_deals: None) -> None:
    room_id, cookies = table.seated_room("expeditionen", preset="short")
    with table.socket(room_id, cookies[0]) as ada, table.socket(room_id, cookies[1]) as bo:
        over = finished(table, [ada, bo], room_id)
        assert over["rematch"] == {"requested_by": []}
        ada.send({"type": "rematch"})
        assert ada.next("rematch")["requested_by"] == [0]
        assert bo.next("rematch")["requested_by"] == [0]
        bo.send({"type": "rematch"})
        for socket in (ada, bo):
            new = socket.next("state")
            assert (new["match_number"], new["version"]) == (2, 0)
            assert new["match_id"] != over["match_id"]
            assert new["rematch"] is None and new["result"] is None
            assert new["players"] == over["players"]
            assert new["tally"]["matches"] == 1


def test_in_expeditionen_the_loser_starts_the_rematch(table: Table, fixed_deals: None) -> None:
    room_id, cookies = table.seated_room("expeditionen", preset="short")
    with table.socket(room_id, cookies[0]) as ada, table.socket(room_id, cookies[1]) as bo:
        winner = finished(table, [ada, bo], room_id)["result"]["winner"]
        assert winner in (0, 1)
        ada.send({"type": "rematch"})
        bo.send({"type": "rematch"})
        assert ada.wait_version(2, 0)["to_move"] == 1 - winner
        room = table.client.get(f"/api/rooms/{room_id}").json()
        assert room["options"]["first"] is None  # the room's own options stay as chosen


def test_the_tally_counts_wins_draws_and_matches(table: Table, fixed_deals: None) -> None:
    room_id, cookies = table.seated_room("expeditionen", preset="short")
    with table.socket(room_id, cookies[0]) as ada, table.socket(room_id, cookies[1]) as bo:
        winner = finished(table, [ada, bo], room_id)["result"]["winner"]
        wins = [0, 0]
        wins[winner] = 1
        assert ada.state["tally"] == {"wins": wins, "draws": 0, "matches": 1}
    assert table.client.get(f"/api/rooms/{room_id}").json()["tally"]["wins"] == wins


def test_a_single_player_rematch_starts_at_once(table: Table) -> None:
    room_id, cookies = table.seated_room("scoundrel")
    with table.socket(room_id, cookies[0]) as player:
        play(table, room_id, [player], random.Random(1))
        won = player.state["result"]["winner"] == 0
        player.send({"type": "rematch"})
        new = player.wait_version(2, 0)
        assert new["to_move"] == 0
        assert new["tally"] == {"wins": [int(won)], "draws": 0, "matches": 1}


def expeditionen_starter(first_seat: int, winner: int | None) -> int:
    previous = Outcome((10, 10) if winner is None else (10, 0), winner, "higher_total")
    options = get_game("expeditionen").rematch_options({"first": None}, previous, first_seat)
    return int(options["first"])


def test_the_expeditionen_rule_names_the_loser_as_next_starter() -> None:
    assert expeditionen_starter(first_seat=1, winner=1) == 0
    assert expeditionen_starter(first_seat=0, winner=0) == 1


def test_after_a_draw_the_starting_seat_alternates() -> None:
    assert expeditionen_starter(first_seat=1, winner=None) == 0
    assert expeditionen_starter(first_seat=0, winner=None) == 1


def test_scoundrel_keeps_its_options_for_a_rematch() -> None:
    options = {"strict_weapons": True, "open_discard": False}
    lost = Outcome((-10,), None, "slain")
    assert get_game("scoundrel").rematch_options(options, lost, 0) == options


def test_a_rematch_request_survives_a_restart(settings: Settings, fixed_deals: None) -> None:
    with TestClient(create_app(settings)) as client:
        table = Table(client)
        room_id, cookies = table.seated_room("expeditionen", preset="short")
        with table.socket(room_id, cookies[0]) as ada, table.socket(room_id, cookies[1]) as bo:
            finished(table, [ada, bo], room_id)
            ada.send({"type": "rematch"})
            assert bo.next("rematch")["requested_by"] == [0]
    with TestClient(create_app(settings)) as client:  # a new server process
        table = Table(client)
        with table.socket(room_id, cookies[1]) as bo:
            assert bo.state["rematch"] == {"requested_by": [0]}
            bo.send({"type": "rematch"})
            assert bo.wait_version(2, 0)["match_number"] == 2


def test_the_last_request_and_the_rematch_are_stored_together(
    settings: Settings, fixed_deals: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A failure in storing the next match (or a crash before it) keeps the last request
    too: no restart finds every seat asking and no match started."""
    with TestClient(create_app(settings)) as client:
        table = Table(client)
        room_id, cookies = table.seated_room("expeditionen", preset="short")
        with table.socket(room_id, cookies[0]) as ada, table.socket(room_id, cookies[1]) as bo:
            finished(table, [ada, bo], room_id)
            ada.send({"type": "rematch"})
            assert bo.next("rematch")["requested_by"] == [0]
            with monkeypatch.context() as failing:
                failing.setattr(repositories, "_insert", insert_failing_for_matches)
                bo.send({"type": "rematch"})
                assert bo.error()["code"] == "unavailable"
    with TestClient(create_app(settings)) as client:  # a new server process
        table = Table(client)
        with table.socket(room_id, cookies[1]) as bo:
            assert (bo.state["match_number"], bo.state["rematch"]) == (1, {"requested_by": [0]})
            bo.send({"type": "rematch"})
            assert bo.wait_version(2, 0)["match_number"] == 2


def insert_failing_for_matches(connection: Connection, row: Base) -> None:
    if isinstance(row, Match):
        raise OperationalError("INSERT INTO matches", {}, Exception("the database went away"))
    stored_insert(connection, row)
