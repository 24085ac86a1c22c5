"""The seam of the table's features (app/table/features.py): each client message beside the
moves reaches the one feature that handles it, every feature's keys are in each state, and
a feature's veto stops every action before the engine sees it."""

from __future__ import annotations

from typing import Any, get_args

from app.protocol import ActionMessage, AnyClientMessage, Ping, Visibility
from app.storage.models import METADATA
from app.table.features import Feature, Features
from app.table.live import LiveRoom
from app.table.refusals import Refusal
from tests.app.tables import Table

# What the room service answers itself: a move goes down the action path.
NO_FEATURE = {ActionMessage, Ping, Visibility}


def features_of(table: Table) -> Features:
    features: Features = table.app.state.rooms.features
    return features


def test_each_client_message_beside_the_moves_has_one_feature(table: Table) -> None:
    features = features_of(table).features
    handled = [kind for feature in features for kind in feature.messages]
    assert sorted(handled, key=str) == sorted(set(handled), key=str)  # no message twice
    assert set(handled) == set(get_args(AnyClientMessage)) - NO_FEATURE


def test_each_feature_names_tables_that_exist(table: Table) -> None:
    tables = set(METADATA.tables.values())
    for feature in features_of(table).features:
        assert feature.stores, type(feature).__name__
        assert set(feature.stores) <= tables


def test_a_state_carries_every_feature_keys(table: Table) -> None:
    room_id, cookies = table.seated_room("expeditionen", preset="short")
    with table.socket(room_id, cookies[0]) as ada:
        keys = set(ada.state)
    room = table.app.state.rooms.room(room_id)
    for feature in features_of(table).features:
        assert set(feature.state(room)) <= keys, type(feature).__name__


class Paused(Feature):
    """A feature that stops every action (as a pause would)."""

    def veto(self, room: LiveRoom, seat: int) -> Refusal | None:
        return Refusal("illegal", "the match is paused")


def vetoed(table: Table) -> None:
    """Every part that asks the vetoes hears the one of ``Paused`` too."""
    rooms = table.app.state.rooms
    with_pause = Features([*rooms.features.features, Paused()])
    rooms.actions.features = with_pause
    rooms.players.features = with_pause
    for listener in rooms.events.listeners:
        if hasattr(listener, "features"):
            listener.features = with_pause


def test_a_vetoed_action_is_refused_and_nothing_is_stored(table: Table) -> None:
    room_id, cookies = table.seated_room("expeditionen", preset="short")
    store = table.app.state.rooms.store
    with table.socket(room_id, cookies[0]) as ada, table.socket(room_id, cookies[1]) as bo:
        mover = [ada, bo][ada.state["to_move"]]
        action = mover.state["legal_actions"][0]
        vetoed(table)
        mover.act(action)
        error: dict[str, Any] = mover.error()
    assert error["message"] == "the match is paused"
    match_id = table.app.state.rooms.room(room_id).match.id
    assert store.match_actions(match_id) == []


def test_while_a_veto_stands_nobody_has_legal_actions(table: Table) -> None:
    room_id, cookies = table.seated_room("expeditionen", preset="short")
    vetoed(table)
    with table.socket(room_id, cookies[0]) as ada, table.socket(room_id, cookies[1]) as bo:
        assert ada.state["to_move"] is not None
        assert ada.state["legal_actions"] == bo.state["legal_actions"] == []
