"""Finished matches: the history list and step-by-step replays (everything revealed)."""

from __future__ import annotations

from typing import Any

from app.storage.repositories import Store
from engine import get_game

MAX_MATCH_ID = 2**31 - 1  # the id column is a 32-bit integer on PostgreSQL


class MatchService:
    def __init__(self, store: Store) -> None:
        self.store = store

    def history(
        self, game: str | None, player: str | None, limit: int, offset: int
    ) -> list[dict[str, Any]]:
        return [
            {
                "match_id": match.id,
                "room_id": match.room_id,
                "game": match.game,
                "options": match.options,
                "players": players,
                "result": match.result,
                "finished_at": match.finished_at,
            }
            for match, players in self.store.finished_matches(game, player, limit, offset)
        ]

    def is_finished(self, match_id: int) -> bool:
        return 0 < match_id <= MAX_MATCH_ID and self.store.match_status(match_id) == "finished"

    def replay(self, match_id: int) -> dict[str, Any] | None:
        """Every step of a finished match, from the deal to the end; None if not finished."""
        found = self.store.finished_match(match_id) if self.is_finished(match_id) else None
        if found is None:
            return None
        match, players, actions = found
        game = get_game(match.game)
        state = game.new(seed=match.seed, options=match.options)
        steps: list[dict[str, Any]] = [
            {
                "ply": 0,
                "seat": None,
                "action": None,
                "text": None,
                "view": game.view(state, None, reveal=True),
            }
        ]
        for stored in actions:
            state = game.apply(state, stored.seat, stored.action)
            steps.append(
                {
                    "ply": stored.ply,
                    "seat": stored.seat,
                    "action": stored.action,
                    "text": game.notation(stored.action),
                    "view": game.view(state, None, reveal=True),
                }
            )
        return {
            "match_id": match.id,
            "game": match.game,
            "options": match.options,
            "players": players,
            "result": game.result(state),
            "steps": steps,
        }
