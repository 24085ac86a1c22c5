"""A match as it happened, from its stored actions: the one rule that the live room, a
restart and the replay all read a match by.

The actions stay append-only. A takeback is stored as an entry of its own, under the next
ply like any action, holding ``{"event": "takeback", "ply": n}``: it undoes the move stored
under ply ``n``, always the last move still standing. A game action always has a ``type``,
so no action of any game is read as an event. The table after each entry is then a pure
function of seed, options and the entries: replay the game actions, and at a takeback go
back to the table before the move it undid.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from app.storage.repositories import StoredAction
from engine import AnyGame

TAKEBACK = "takeback"


def takeback_event(ply: int) -> dict[str, Any]:
    """The entry that takes back the move stored under ``ply``."""
    return {"event": TAKEBACK, "ply": ply}


def undone_ply(action: dict[str, Any]) -> int | None:
    """The ply a takeback entry undid; None for a game action."""
    if action.get("event") != TAKEBACK:
        return None
    ply: int = action["ply"]
    return ply


@dataclass(frozen=True)
class Entry:
    """One stored entry as the table saw it: the table before and after it."""

    stored: StoredAction
    before: Any
    after: Any
    undoes: int | None = None  # a takeback: the ply of the move it took back
    taken_back: bool = False  # a move that a later takeback undid

    @property
    def stands(self) -> bool:
        """A game move that no takeback undid."""
        return self.undoes is None and not self.taken_back


def timeline(
    game: AnyGame, seed: int, options: dict[str, Any], stored: Sequence[StoredAction]
) -> tuple[Any, list[Entry]]:
    """The first state, and every stored entry with the tables around it."""
    undone = {ply for entry in stored if (ply := undone_ply(entry.action)) is not None}
    first = state = game.new(seed=seed, options=options)
    standing: list[tuple[int, Any]] = []  # (ply, state before) of each move that stands
    entries = []
    for entry in stored:
        ply = undone_ply(entry.action)
        if ply is None:
            after = game.apply(state, entry.seat, entry.action)
            standing.append((entry.ply, state))
            entries.append(Entry(entry, state, after, taken_back=entry.ply in undone))
        else:
            last, after = standing.pop()
            if last != ply:
                raise ValueError(f"ply {entry.ply} takes back {ply}, not the last move {last}")
            entries.append(Entry(entry, state, after, undoes=ply))
        state = after
    return first, entries


def standing_moves(stored: Sequence[StoredAction]) -> list[StoredAction]:
    """The game moves that stand: every stored action that no takeback undid."""
    undone = {ply for entry in stored if (ply := undone_ply(entry.action)) is not None}
    return [e for e in stored if undone_ply(e.action) is None and e.ply not in undone]
