"""Scoundrel's hint during play: a chance per legal action, only for the seated player,
from what that player has seen."""

from __future__ import annotations

import random
from typing import Any

import pytest

from app.computer.hints import seat_hint
from app.people.identity import COOKIE
from engine import get_game
from tests.app.tables import Table

GAME = get_game("scoundrel")


@pytest.fixture(autouse=True)
def few_samples(monkeypatch: pytest.MonkeyPatch) -> None:
    """A fixed number of sampled dungeons, whatever the machine's speed."""
    monkeypatch.setattr("app.computer.hints.SAMPLES", 3)
    monkeypatch.setattr("app.computer.hints.SECONDS", None)


def hint(table: Table, room_id: str, cookie: str | None) -> Any:
    table.client.cookies.clear()
    if cookie is not None:
        table.client.cookies.set(COOKIE, cookie)
    try:
        return table.client.get(f"/api/rooms/{room_id}/hint")
    finally:
        table.client.cookies.clear()


def test_the_seated_player_gets_a_chance_for_every_legal_action(table: Table) -> None:
    room_id, cookies = table.seated_room("scoundrel", names=("Ada",))
    with table.socket(room_id, cookies[0]) as player:
        player.act({"type": "avoid"})  # the room goes under: the hint knows where
        player.wait_version(1, 1)
        answer = hint(table, room_id, cookies[0]).json()
        assert answer["version"] == player.state["version"] == 1
        assert [c["action"] for c in answer["chances"]] == player.state["legal_actions"]
        assert answer["samples"] == 3
        assert all(0 <= c["chance"] <= 1 for c in answer["chances"])


def test_only_the_seated_player_gets_a_hint(table: Table) -> None:
    room_id, _cookies = table.seated_room("scoundrel", names=("Ada",))
    for cookie in (None, "someone else"):
        response = hint(table, room_id, cookie)
        assert response.status_code == 404
        assert response.json()["detail"]["code"] == "not_seated"


def test_a_game_without_hints_refuses(table: Table) -> None:
    room_id, cookies = table.seated_room("expeditionen")
    response = hint(table, room_id, cookies[0])
    assert response.status_code == 422


def test_the_hint_is_the_same_whatever_the_hidden_dungeon_order() -> None:
    rng = random.Random(5)
    state = GAME.new(seed=5)
    states, actions = [state], []
    for _ in range(7):
        legal = GAME.legal_actions(state, 0)
        action = rng.choice([a for a in legal if not GAME.is_over(GAME.apply(state, 0, a))])
        state = GAME.apply(state, 0, action)
        states.append(state)
        actions.append(action)
    assert not GAME.is_over(state)
    redealt = [GAME.redeal_hidden(s, 0, random.Random(i)) for i, s in enumerate(states)]
    assert [s.dungeon for s in redealt] != [s.dungeon for s in states]
    assert seat_hint(GAME, redealt, actions, 0) == seat_hint(GAME, states, actions, 0)
