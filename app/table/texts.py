"""What the server sends: each text built once per change, then queued for its readers."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import orjson

from app.messaging import Audience
from app.protocol import ErrorCode
from app.table.features import Features
from app.table.live import LiveRoom


def dumps(message: dict[str, Any]) -> str:
    # orjson: the per-seat texts of every move are the server's largest CPU cost after the engine.
    return orjson.dumps(message).decode()


PONG = dumps({"type": "pong"})


def error_text(code: ErrorCode, message: str) -> str:
    return dumps({"type": "error", "code": code, "message": message})


def presence_text(room: LiveRoom) -> str:
    return dumps({"type": "presence", "players": room.players()})


def rematch_text(room: LiveRoom) -> str:
    return dumps({"type": "rematch", "requested_by": sorted(room.rematch)})


def takeback_text(seat: int, answer: str) -> str:
    """``seat``'s takeback request: ``asked``, ``accepted`` (taken back) or ``declined``."""
    return dumps({"type": "takeback", "seat": seat, "answer": answer})


def takeover_text(
    seat: int | None,
    levels: list[str],
    time_ran_out: bool = False,
    away: tuple[int, float] | None = None,
) -> str:
    """The seat the others may let the computer play or end the match for (None: no one);
    ``time_ran_out``: its time per move ran out (a turn-based room), not a live absence;
    ``away``: the absent mover no offer stands for yet, and the seconds until it comes."""
    message: dict[str, Any] = {"type": "takeover", "seat": seat, "levels": levels}
    if time_ran_out and seat is not None:
        message["time_ran_out"] = True
    if away is not None and seat is None:
        message["away"] = away[0]
        message["offer_in"] = round(max(away[1], 0.0), 1)
    return dumps(message)


# The fields of a state message that tell of the room at the moment it went out, not of the
# match's step: who is at the table, the room's tally, rematch requests, a turn's deadline,
# an open takeback request, a pause and the players' ratings. The wire inspector
# (app/history/wire.py) shows them as ``state_texts`` makes them for a room nobody sits
# in now.
PER_CONNECTION = (
    "players",
    "tally",
    "rematch",
    "turn",
    "takeback.requested",
    "pause",
    "ratings",
)


def state_texts(
    room: LiveRoom, audiences: Iterable[Audience], features: Features
) -> dict[Audience, str]:
    """One `state` text per audience: each seat's own view, one shared by spectators; the
    seat to move first (it is the one waiting: texts are sent in this order). The table's
    features add their keys; while one of them vetoes the mover's actions, it has none."""
    game, match = room.game, room.match
    to_move = room.to_move()
    audiences = sorted(audiences, key=lambda audience: audience != to_move)
    common = {
        "room_id": room.id,
        "match_id": match.id,
        "match_number": match.number,
        "version": match.version,
        "to_move": to_move,
        "last_action": match.last_action,
        "result": match.result and match.result.to_json(),
        "players": room.players(),
        "tally": room.tally(),
        **features.state(room),
    }
    # Only the seat to move has legal actions (a spectator, seat None, never does), and none
    # while a feature vetoes them.
    acting = None if to_move is None or features.veto(room, to_move) else to_move
    views = game.views(match.state, audiences)
    texts = {}
    for seat, view in views.items():
        legal = game.legal_actions(match.state, seat) if seat is not None and seat == acting else []
        texts[seat] = dumps(
            {
                "type": "state",
                "seat": seat,
                **common,
                "view": view,
                "legal_actions": legal,
                # How many cards of each place this viewer may not see, never which
                # (Game.unseen; the table's developer panel shows them).
                "unseen": [place.count() for place in game.unseen(match.state, seat)],
                "ratings": room.seat_ratings(seat),
            }
        )
    return texts
