"""Whole matches through the real websocket protocol: play, reconnect, restart, races."""

from __future__ import annotations

import random
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from app.connections import SocketConnection
from app.main import create_app
from app.settings import Settings
from app.storage.models import MATCHES
from app.table import texts
from engine import games, get_game
from tests.app.tables import Socket, Table, play


def short(game: str) -> dict[str, Any]:
    """The room body for the game's preset named "short" when it has one (a quicker match)."""
    return {"preset": "short"} if "short" in [p.name for p in get_game(game).presets] else {}


@pytest.mark.parametrize("game", [game.name for game in games()])
def test_every_game_plays_to_the_end_through_the_websocket(table: Table, game: str) -> None:
    room_id, cookies = table.seated_room(game, **short(game))
    with table.socket(room_id, cookies[0]) as first:
        sockets = [first]
        if len(cookies) > 1:
            sockets.append(stack_socket(table, room_id, cookies[1]))
        play(table, room_id, sockets, random.Random(7))
        engine_game = get_game(game)
        state = table.live_state(room_id)
        assert engine_game.is_over(state)
        for socket in sockets:
            assert socket.state["to_move"] is None
            assert socket.state["legal_actions"] == []
            assert socket.state["result"] == engine_game.result(state).to_json()
        close_all(sockets[1:])


def stack_socket(table: Table, room_id: str, cookie: str | None) -> Socket:
    """A socket whose context stays open until close_all (keeps tests flat)."""
    context = table.socket(room_id, cookie)
    socket = context.__enter__()
    socket.context = context  # type: ignore[attr-defined]
    return socket


def close_all(sockets: list[Socket]) -> None:
    for socket in sockets:
        socket.context.__exit__(None, None, None)  # type: ignore[attr-defined]


@pytest.mark.parametrize("game", [game.name for game in games()])
def test_nobody_receives_a_card_they_may_not_see(table: Table, game: str) -> None:
    room_id, cookies = table.seated_room(game, **short(game))
    sockets = [stack_socket(table, room_id, cookie) for cookie in [*cookies, None]]
    assert [socket.seat for socket in sockets] == [*range(len(cookies)), None]
    leaks = play(table, room_id, sockets, random.Random(11))
    with table.app.state.db_engine.connect() as connection:
        seed = connection.scalar(select(MATCHES.c.seed))
    assert not any(str(seed) in text for socket in sockets for text in socket.texts[:-1])
    close_all(sockets)
    assert leaks == []


def test_the_wire_leak_check_catches_a_view_with_one_hidden_card(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    room_id, cookies = table.seated_room("expeditionen", preset="short")
    game = table.app.state.rooms.room(room_id).game
    honest = game.views

    def leaky(state: Any, seats: Any) -> dict[int | None, dict[str, Any]]:
        views = honest(state, seats).items()
        return {seat: {**view, "hint": state.draw_pile[0]} for seat, view in views}

    monkeypatch.setattr(game, "views", leaky)
    sockets = [stack_socket(table, room_id, cookie) for cookie in cookies]
    leaks = play(table, room_id, sockets, random.Random(11), plies=2)
    close_all(sockets)
    assert leaks


@pytest.mark.parametrize("game", [game.name for game in games()])
@pytest.mark.parametrize("place", ["view", "last_action"])
def test_the_leak_check_finds_a_planted_leak(
    table: Table, game: str, place: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The check above fails when the server sends the whole state it keeps: in a view, or
    in the words of the last move."""
    room_id, cookies = table.seated_room(game, **short(game))
    honest = texts.dumps

    def leaky(message: dict[str, Any]) -> str:
        if message["type"] == "state":
            everything = table.live_state(room_id).to_json()
            if place == "view":
                message = {**message, "view": {**message["view"], "peek": everything}}
            elif message["last_action"] is not None:
                text = str(everything)
                message = {**message, "last_action": {**message["last_action"], "text": text}}
        return honest(message)

    monkeypatch.setattr(texts, "dumps", leaky)
    sockets = [stack_socket(table, room_id, cookie) for cookie in cookies]
    leaks = play(table, room_id, sockets, random.Random(5), plies=2)
    close_all(sockets)
    assert leaks


def test_the_seat_to_move_hears_each_new_state_first(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    """It is the one waiting: then the other seat, then the spectators."""
    heard: list[int | None] = []
    send = SocketConnection.send

    def noting(connection: SocketConnection, text: str) -> None:
        if text.startswith('{"type":"state"'):
            heard.append(connection.seat)
        send(connection, text)

    monkeypatch.setattr(SocketConnection, "send", noting)
    room_id, cookies = table.seated_room("expeditionen", preset="short")
    rng = random.Random(4)
    with (
        table.socket(room_id, cookies[0]) as ada,
        table.socket(room_id, cookies[1]) as bo,
        table.socket(room_id) as spectator,
    ):
        sockets = [ada, bo]
        for version in range(1, 7):
            mover = sockets[ada.state["to_move"]]
            heard.clear()
            mover.act(rng.choice(mover.state["legal_actions"]))
            for socket in (ada, bo, spectator):
                socket.wait_version(1, version)
            to_move = ada.state["to_move"]
            assert heard == [to_move, 1 - to_move, None]


def test_a_reconnecting_player_gets_a_full_sync_and_keeps_the_seat(table: Table) -> None:
    room_id, cookies = table.seated_room("expeditionen", preset="short")
    rng = random.Random(3)
    with table.socket(room_id, cookies[0]) as ada:
        bo = stack_socket(table, room_id, cookies[1])
        play(table, room_id, [ada, bo], rng, plies=9)
        before = bo.state
        close_all([bo])
        dropped = ada.next("presence")
        assert dropped["players"][1] == {
            "seat": 1,
            "name": "Bo",
            "connected": False,
            "computer": None,
        }
        with table.socket(room_id, cookies[1]) as bo_again:
            assert bo_again.state["version"] == before["version"] == 9
            assert bo_again.state["view"] == before["view"]
            assert bo_again.state["legal_actions"] == before["legal_actions"]
            assert ada.next("presence")["players"][1]["connected"] is True
            play(table, room_id, [ada, bo_again], rng)
            assert bo_again.state["result"] is not None


@pytest.mark.both_databases  # the match read back from storage
def test_a_restart_on_the_same_database_resumes_the_match(settings: Settings) -> None:
    rng = random.Random(5)
    with TestClient(create_app(settings)) as client:
        table = Table(client)
        room_id, cookies = table.seated_room("expeditionen", preset="short")
        with table.socket(room_id, cookies[0]) as ada, table.socket(room_id, cookies[1]) as bo:
            play(table, room_id, [ada, bo], rng, plies=12)
            before = [ada.state, bo.state]
    with TestClient(create_app(settings)) as client:
        table = Table(client)
        with table.socket(room_id, cookies[0]) as ada, table.socket(room_id, cookies[1]) as bo:
            for socket, old in zip([ada, bo], before, strict=True):
                for key in ("seat", "version", "to_move", "view", "legal_actions", "last_action"):
                    assert socket.state[key] == old[key]
            play(table, room_id, [ada, bo], rng)
            assert ada.state["result"] is not None


@pytest.mark.both_databases  # the unique ply decides
def test_of_two_actions_for_the_same_version_exactly_one_is_accepted(table: Table) -> None:
    room_id, cookies = table.seated_room("expeditionen", preset="short")
    with table.socket(room_id, cookies[0]) as one, table.socket(room_id, cookies[0]) as two:
        with table.socket(room_id, cookies[1]) as other:
            if one.state["to_move"] != 0:  # seat 1 starts: let it play a whole turn first
                play(table, room_id, [one, two, other], random.Random(1), plies=2)
            version = one.state["version"]
            sent = dict(zip(("one", "two"), one.state["legal_actions"][:2], strict=True))
            one.act(sent["one"], version)
            two.act(sent["two"], version)
            heard = {"one": one.drain(), "two": two.drain()}
            states = [m for ms in heard.values() for m in ms if m["type"] == "state"]
            errors = {
                name: m["code"] for name, ms in heard.items() for m in ms if m["type"] == "error"
            }
            assert [m["version"] for m in states] == [version + 1, version + 1]
            assert len(errors) == 1 and list(errors.values()) == ["stale"]
            (loser,) = errors
            winner = "two" if loser == "one" else "one"
            assert states[0]["last_action"]["action"] == sent[winner]
            assert [m["version"] for m in other.drain() if m["type"] == "state"] == [version + 1]


@pytest.mark.both_databases  # the unique ply decides
def test_two_server_processes_never_accept_two_actions_for_one_version(
    settings: Settings,
) -> None:
    with TestClient(create_app(settings)) as one, TestClient(create_app(settings)) as two:
        first, second = Table(one), Table(two)
        room_id, cookies = first.seated_room("scoundrel")
        with first.socket(room_id, cookies[0]) as here, second.socket(room_id, cookies[0]) as there:
            action, other = here.state["legal_actions"][:2]
            here.act(action, 0)
            assert here.next("state")["version"] == 1
            there.act(other, 0)  # that process has not heard of version 1 yet
            caught_up = there.next("state")
            assert (caught_up["version"], caught_up["last_action"]["action"]) == (1, action)
            assert there.error()["code"] == "stale"
            assert second.live_state(room_id) == first.live_state(room_id)
