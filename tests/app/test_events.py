"""The room-events hub: a change of a room is stored first, then published once to every
subscriber; subscribing is one line."""

from __future__ import annotations

from typing import Any

from app.table.events import RoomListener
from app.table.live import LiveRoom
from tests.app.tables import Table


class Recorder(RoomListener):
    """Notes each action it hears of, with what the database held at that moment."""

    def __init__(self, table: Table) -> None:
        self.store = table.app.state.rooms.store
        self.heard: list[tuple[int, dict[str, Any], int]] = []

    def acted(self, room: LiveRoom, seat: int, action: dict[str, Any], by_computer: bool) -> None:
        stored = len(self.store.match_actions(room.match.id))
        self.heard.append((seat, action, stored))


def test_a_subscriber_hears_each_action_once_after_it_is_stored(table: Table) -> None:
    room_id, cookies = table.seated_room("expeditionen", preset="short")
    recorder = Recorder(table)
    table.app.state.rooms.events.subscribe(recorder)
    with table.socket(room_id, cookies[0]) as ada, table.socket(room_id, cookies[1]) as bo:
        mover = [ada, bo][ada.state["to_move"]]
        action = mover.state["legal_actions"][0]
        mover.act(action)
        mover.wait_version(mover.state["match_number"], mover.state["version"] + 1)
    assert recorder.heard == [(mover.seat, action, 1)]


def test_a_refused_action_is_heard_by_nobody(table: Table) -> None:
    room_id, cookies = table.seated_room("expeditionen", preset="short")
    recorder = Recorder(table)
    table.app.state.rooms.events.subscribe(recorder)
    with table.socket(room_id, cookies[0]) as ada, table.socket(room_id, cookies[1]) as bo:
        mover = [ada, bo][ada.state["to_move"]]
        waiting = bo if mover is ada else ada
        waiting.act(mover.state["legal_actions"][0])
        assert waiting.error()["code"] == "not_your_turn"
    assert recorder.heard == []
