"""The wire inspector (issue 37): what each seat and a spectator received at a step of a
finished match, and what was not sent to them.

The messages come from the socket path's own function (``texts.state_texts``) over the
match as it stood at that step (``live.replayed_match``, the rule a restart rebuilds a room
by), never from a second description of the wire. The fields that depend on the room at
the moment a message went out rather than on the match's step (``texts.PER_CONNECTION``)
are shown as that function makes them for a room nobody sits in now. What was not sent
comes from the game's own list of what each viewer may not see (``Game.unseen``), with the
cards named: the replay shows every hand anyway.
"""

from __future__ import annotations

from typing import Any

import orjson

from app.storage.repositories import Store
from app.table import texts
from app.table.features import Features
from app.table.live import Holder, LiveRoom, replayed_match
from engine import Unseen, get_game


class UnknownStep(LookupError):
    """A step beyond the match's last one."""


class WireInspector:
    def __init__(self, store: Store, features: Features) -> None:
        self.store = store
        self.features = features  # their keys in each state

    def step(self, match_id: int, ply: int) -> dict[str, Any] | None:
        """What every viewer received after the first ``ply`` stored entries of a finished
        match (0: the deal); None if the match is not finished, ``UnknownStep`` beyond its
        last step."""
        found = self.store.finished_match(match_id)
        if found is None or found[0].finished_at is None:
            return None
        row, names, actions = found
        finished = found[0].finished_at
        if ply > len(actions):
            raise UnknownStep(f"the match has {len(actions) + 1} steps")
        game = get_game(row.game)
        match = replayed_match(game, row, actions[:ply], ended=ply == len(actions))
        room = LiveRoom(
            id=row.room_id,
            game=game,
            options=row.options,
            preset=None,
            seats=[Holder(name or "", player_id="") for name in names],
            match=match,
            last_active=finished,
            stored_active=finished,
            wins=[0] * game.seats,
        )
        audiences: list[int | None] = [*range(game.seats), None]
        sent = texts.state_texts(room, audiences, self.features)
        unseen = {viewer: game.unseen(match.state, viewer) for viewer in audiences}
        everyone = [p for p in unseen[None] if all(p in unseen[v] for v in audiences)]
        return {
            "match_id": row.id,
            "game": row.game,
            "ply": ply,
            "steps": len(actions) + 1,
            "per_connection": list(texts.PER_CONNECTION),
            "viewers": [
                {
                    "viewer": "spectator" if viewer is None else f"seat {viewer}",
                    "seat": viewer,
                    "name": None if viewer is None else names[viewer],
                    "message": orjson.loads(sent[viewer]),
                    "not_sent": described([p for p in unseen[viewer] if p not in everyone]),
                }
                for viewer in audiences
            ],
            "not_sent_to_anyone": described(everyone),
        }


def described(places: list[Unseen]) -> list[dict[str, Any]]:
    """The places that hold cards, each with its count and, the match being over, the cards."""
    return [place.count() | {"cards": list(place.cards)} for place in places if place.cards]
