"""The room-events hub: a change of a room is stored first, then published once to every
subscriber; subscribing is one line."""

from __future__ import annotations

import json
from dataclasses import fields
from datetime import UTC, datetime
from types import SimpleNamespace
from typing import Any

import orjson
import pytest

from app.cluster import relay
from app.table import events
from app.table.events import Acted, Event, RoomEvent, RoomListener
from tests.app.tables import Table


class Recorder(RoomListener):
    """Notes each action it hears of, with what the database held at that moment."""

    def __init__(self, table: Table) -> None:
        self.store = table.app.state.rooms.store
        self.heard: list[tuple[int, dict[str, Any], int]] = []

    def hear(self, event: Event) -> None:
        if isinstance(event, Acted):
            stored = len(self.store.match_actions(event.room.match.id))
            self.heard.append((event.seat, event.action, stored))


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


SAMPLES: dict[str, Any] = {
    "int": 7,
    "bool": True,
    "dict[str, Any]": {"type": "play", "card": "R7", "cards": ["B2", "Y10"]},
    "datetime | None": datetime(2026, 12, 7, 18, 30, 5, 123456, tzinfo=UTC),
}


def sample(kind: type[RoomEvent], room: Any) -> RoomEvent:
    """An event of ``kind`` with a value of its type in each field (as written in
    app/table/events.py)."""
    return kind(room, *(SAMPLES[str(field.type)] for field in fields(kind)[1:]))


@pytest.mark.parametrize("kind", list(events.RELAYED.values()), ids=list(events.RELAYED))
def test_every_relayed_event_survives_the_relay_round_trip(kind: type[RoomEvent]) -> None:
    room = SimpleNamespace(id="room-1")
    sent = sample(kind, room)
    written = sent.write()
    assert json.loads(json.dumps(written)) == written  # plain JSON data, as the relay sends
    (message,) = relay.events_of(orjson.dumps([written]))
    assert events.read(message, room) == sent


def test_each_event_the_other_processes_act_on_is_relayed() -> None:
    """The events app/cluster/peers.py takes over from another process."""
    assert set(events.RELAYED) == {
        "Acted",
        "Seated",
        "SeatsChanged",
        "SeatTakenBack",
        "RematchAsked",
        "RematchStarted",
        "TakebackAsked",
        "TakebackDeclined",
        "MoveTakenBack",
        "PauseChanged",
        "Chatted",
    }


def test_a_message_of_no_room_event_reads_as_none() -> None:
    room = SimpleNamespace(id="room-1")
    assert events.read({"t": "online", "room": "room-1", "seats": [1, 0]}, room) is None
    assert events.read({"t": "Connected", "room": "room-1", "first": True}, room) is None
