"""The seam of the table's features: the requests and choices beside the moves (rematch,
endings, takebacks, chat, turns, the absent-player offer) each implement ``Feature``, and
``app/wiring.py`` lists them. A feature is one module that says:

- ``messages``: the client messages it handles (``handle``), models of app/protocol.py;
- ``state``: its keys of the state message, the same for every audience of a change;
- ``veto``: why a seat may not act now (while one stands, nobody has legal actions);
- ``stores``: the tables it writes (app/storage/models.py), read back with the room.

The room service hands each client message to the feature that handles its type, the state
texts carry every feature's keys, and the action path asks every veto before the engine.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from sqlalchemy import Table

from app.messaging import Connection
from app.protocol import Strict
from app.table.live import LiveRoom
from app.table.refusals import Refusal


class Feature:
    """A table feature; it overrides what it has."""

    messages: ClassVar[tuple[type[Strict], ...]] = ()
    stores: ClassVar[tuple[Table, ...]] = ()

    async def handle(self, room: LiveRoom, connection: Connection, message: Any) -> None:
        """One of ``messages``, from a socket of the room (a Refusal: nothing changed)."""
        raise NotImplementedError(type(message).__name__)

    def state(self, room: LiveRoom) -> dict[str, Any]:
        """Its keys of each state message."""
        return {}

    def veto(self, room: LiveRoom, seat: int) -> Refusal | None:
        """Why ``seat`` may not act now (None: the feature lets it)."""
        return None


class Features:
    """The features of the table, as the room service, the action path and the state texts
    use them."""

    def __init__(self, features: Sequence[Feature]) -> None:
        self.features = list(features)
        self.handlers = {kind: f for f in features for kind in f.messages}
        self.slices = [f for f in features if overrides(f, "state")]
        self.vetoes = [f for f in features if overrides(f, "veto")]

    def handler(self, message: Strict) -> Feature | None:
        return self.handlers.get(type(message))

    def state(self, room: LiveRoom) -> dict[str, Any]:
        keys: dict[str, Any] = {}
        for feature in self.slices:
            keys.update(feature.state(room))
        return keys

    def veto(self, room: LiveRoom, seat: int) -> Refusal | None:
        for feature in self.vetoes:
            if (refusal := feature.veto(room, seat)) is not None:
                return refusal
        return None


def overrides(feature: Feature, method: str) -> bool:
    return getattr(type(feature), method) is not getattr(Feature, method)


def seat_of(connection: Connection, doing: str) -> int:
    """The seat of the socket a request came from; a spectator cannot `doing`."""
    if connection.seat is None:
        raise Refusal("not_seated", f"spectators cannot {doing}")
    return connection.seat
