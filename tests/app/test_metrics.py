"""The server keeps the operator's metrics (defined in app/observability.py) up to date."""

from __future__ import annotations

import random

from app.observability import REGISTRY
from tests.app.tables import Table, play


def value(name: str, **labels: str) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


def test_metrics_follow_rooms_matches_connections_and_actions(table: Table) -> None:
    rooms, matches = value("kartenrunde_rooms_open"), value("kartenrunde_matches_in_progress")
    sockets = value("kartenrunde_ws_connections")
    actions = value("kartenrunde_actions_total", game="scoundrel")
    timed = value("kartenrunde_action_latency_seconds_count")
    room_id = table.create_room("scoundrel")
    assert value("kartenrunde_rooms_open") == rooms + 1
    _seat, cookie = table.join(room_id, "Ada")
    assert value("kartenrunde_matches_in_progress") == matches + 1
    with table.socket(room_id, cookie) as player:
        player.drain()
        assert value("kartenrunde_ws_connections") == sockets + 1
        play(table, room_id, [player], random.Random(6))
        played = player.state["version"]
    assert value("kartenrunde_actions_total", game="scoundrel") == actions + played
    assert value("kartenrunde_action_latency_seconds_count") == timed + played
    assert value("kartenrunde_matches_in_progress") == matches
