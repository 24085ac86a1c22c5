"""The wire inspector (GET /api/matches/{id}/wire): for every step of a finished match, the
state message each seat and a spectator received, exactly as their sockets received it,
and what was not sent to them."""

from __future__ import annotations

import random
from typing import Any

import pytest

from app.table.texts import PER_CONNECTION
from engine import games, get_game
from tests.app.tables import Socket, Table, play
from tests.app.test_takeback import move, quiet_move

pytestmark = pytest.mark.public_history

SHORT = {"expeditionen": {"preset": "short"}}


def from_the_match(message: dict[str, Any]) -> dict[str, Any]:
    """A state message without the fields that tell of the room when it went out."""
    kept = {key: value for key, value in message.items() if key not in PER_CONNECTION}
    for field in PER_CONNECTION:
        outer, _, inner = field.partition(".")
        if inner and outer in kept:
            kept[outer] = {k: v for k, v in kept[outer].items() if k != inner}
    return kept


def states_by_version(socket: Socket) -> dict[int, dict[str, Any]]:
    """The last state each version brought this socket (a resync repeats one)."""
    return {m["version"]: m for m in socket.received if m["type"] == "state"}


def finished_match(table: Table, game: str, seed: int) -> tuple[str, int, list[Socket]]:
    """A match played to its end through real sockets: its seats, then a spectator."""
    room_id, cookies = table.seated_room(game, **SHORT.get(game, {}))
    with (
        table.socket(room_id, cookies[0]) as first,
        table.socket(room_id, cookies[-1]) as last,
        table.socket(room_id) as spectator,
    ):
        seats = [first, last][: get_game(game).seats]
        sockets = [*seats, spectator]
        assert play(table, room_id, sockets, random.Random(seed)) == []
        match_id = spectator.state["match_id"]
    return room_id, match_id, sockets


def same_as_received(table: Table, match_id: int, sockets: list[Socket]) -> None:
    """Every step's message of every viewer is the one its socket received, but for the
    fields that tell of the room when it went out."""
    received = {socket.seat: states_by_version(socket) for socket in sockets}
    steps = len(received[None])
    for ply in range(steps):
        response = table.client.get(f"/api/matches/{match_id}/wire", params={"ply": ply})
        assert response.status_code == 200, response.text
        wire = response.json()
        assert wire["steps"] == steps
        shown = {viewer["seat"]: viewer["message"] for viewer in wire["viewers"]}
        assert set(shown) == set(received)
        for seat, message in shown.items():
            assert from_the_match(message) == from_the_match(received[seat][ply]), (ply, seat)


@pytest.mark.parametrize("game", [game.name for game in games()])
def test_every_step_shows_what_each_socket_received(table: Table, game: str) -> None:
    _room_id, match_id, sockets = finished_match(table, game, seed=3)
    same_as_received(table, match_id, sockets)


def test_a_move_taken_back_and_the_takeback_are_steps_as_received(table: Table) -> None:
    room_id, (cookie,) = table.seated_room("scoundrel")
    with table.socket(room_id, cookie) as ada, table.socket(room_id) as spectator:
        move(ada, [spectator], quiet_move(table, room_id, ada))
        ada.send({"type": "takeback"})
        for socket in (ada, spectator):
            socket.wait_version(1, 2)
        assert play(table, room_id, [ada, spectator], random.Random(6)) == []
        match_id = ada.state["match_id"]
    same_as_received(table, match_id, [ada, spectator])


def test_the_not_sent_lists_name_the_cards_of_the_deal(table: Table) -> None:
    _room_id, match_id, _sockets = finished_match(table, "expeditionen", seed=4)
    game = get_game("expeditionen")
    seed, options, _played = table.app.state.matches.store.match_played(match_id)
    dealt = game.new(seed=seed, options=options)
    wire = table.client.get(f"/api/matches/{match_id}/wire", params={"ply": 0}).json()

    def hand(seat: int) -> dict[str, Any]:
        cards = dealt.hands[seat]
        return {"zone": "hand", "seat": seat, "count": len(cards), "cards": cards}

    not_sent = {viewer["viewer"]: viewer["not_sent"] for viewer in wire["viewers"]}
    assert not_sent == {"seat 0": [hand(1)], "seat 1": [hand(0)], "spectator": [hand(0), hand(1)]}
    pile = dealt.draw_pile
    assert wire["not_sent_to_anyone"] == [
        {"zone": "draw_pile", "seat": None, "count": len(pile), "cards": pile}
    ]
    seat_0 = wire["viewers"][0]["message"]
    assert seat_0["unseen"] == [
        {"zone": "hand", "seat": 1, "count": 8},
        {"zone": "draw_pile", "seat": None, "count": len(pile)},
        {"zone": "discards", "seat": None, "count": 0},
    ]


def test_a_running_match_has_no_wire_to_inspect(table: Table) -> None:
    room_id, cookies = table.seated_room("expeditionen")
    with table.socket(room_id, cookies[0]) as ada:
        match_id = ada.state["match_id"]
        response = table.client.get(f"/api/matches/{match_id}/wire", params={"ply": 0})
    assert response.status_code == 404
    assert response.json()["detail"]["code"] == "unknown_match"


def test_a_step_beyond_the_end_is_unknown(table: Table) -> None:
    _room_id, match_id, sockets = finished_match(table, "scoundrel", seed=5)
    last = sockets[0].state["version"]
    ok = table.client.get(f"/api/matches/{match_id}/wire", params={"ply": last})
    beyond = table.client.get(f"/api/matches/{match_id}/wire", params={"ply": last + 1})
    assert ok.status_code == 200
    assert beyond.status_code == 404
    assert beyond.json()["detail"]["code"] == "unknown_step"
