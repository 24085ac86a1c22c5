"""Finished matches: the history list, step-by-step replays (everything revealed), and
for a game that offers one (``best_line_search``) the best line the deal allowed."""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Callable
from concurrent.futures import CancelledError, Future
from concurrent.futures.process import BrokenProcessPool
from dataclasses import astuple
from datetime import datetime, timedelta
from functools import partial
from typing import Any, TypeVar

from app.computer.hints import room_hint
from app.computer.searches import Searches
from app.protocol import MAX_ID
from app.storage.repositories import Store, StoredAction
from app.table.live import last_action
from app.table.timeline import Entry, standing_moves, timeline
from engine import AnyGame, BestLine, BestLineSearch, OutOfBudget, get_game, replay

KEPT_ANALYSES = 256
V = TypeVar("V")


class MatchService:
    def __init__(
        self,
        store: Store,
        searches: Searches,
        holds_back: Callable[[list[int]], dict[int, datetime]],
    ) -> None:
        self.store = store
        self.searches = searches
        self.analyses: dict[int, dict[str, Any]] = {}
        self.foreseen: dict[int, Future[BestLine[Any]]] = {}
        self._foreseen_lock = threading.Lock()
        # Of these matches, those whose replay is held back, and until when: a daily deal's
        # until its day ends (DailyCalendar.held_back).
        self.holds_back = holds_back

    def foresee(self, match_id: int, game: str, dealt: Any) -> None:
        """Starts a new match's analysis as it is dealt, when the search workers are idle:
        the deal alone decides the best line, so its search (up to seconds) is over before
        the match is, and the end screen need not wait. The answer stays in this process
        until ``analysis`` asks, which it does only once the match has ended. Called on the
        event loop: the start (a worker process may have to be spawned) runs on a thread."""
        search = get_game(game).best_line_search()
        if search is not None:
            loop = asyncio.get_running_loop()
            loop.run_in_executor(None, self._foresee, match_id, search, dealt)

    def _foresee(self, match_id: int, search: BestLineSearch[Any, Any], dealt: Any) -> None:
        started = self.searches.foresee(("analysis", match_id), lambda: (search, (dealt,)))
        if started is not None:
            with self._foreseen_lock:
                keep(self.foreseen, match_id, started)

    def _solution(
        self, match_id: int, search: BestLineSearch[Any, Any], dealt: Any
    ) -> BestLine[Any]:
        """The deal's best line: from the search started as it was dealt, if there was one."""
        with self._foreseen_lock:
            foreseen = self.foreseen.pop(match_id, None)
        if foreseen is not None:
            with contextlib.suppress(BrokenProcessPool, CancelledError):  # search again
                return foreseen.result()
        return self.searches.run(("analysis", match_id), lambda: (search, (dealt,)))

    def _slip(
        self,
        match_id: int,
        game: AnyGame,
        dealt: Any,
        moves: list[tuple[int, dict[str, Any]]],
        best: int,
    ) -> int | None:
        """The step after which the line played could no longer reach the best score, in
        a worker process; None if it reached it, or the search gave up."""
        search = game.slip_search()
        if search is None:
            return None
        actions = [action for _seat, action in moves]
        try:
            return self.searches.run(("slip", match_id), lambda: (search, (dealt, actions, best)))
        except OutOfBudget:
            return None

    def history(
        self,
        game: str | None,
        player: str | None,
        limit: int,
        offset: int,
        held_by: str | None = None,
    ) -> list[dict[str, Any]]:
        """Finished matches, newest first: all of them, or (held_by) those of one player."""
        found = self.store.finished_matches(game, player, limit, offset, held_by)
        held = self.held_back([match.id for match, _players in found])
        return [
            {
                "match_id": match.id,
                "room_id": match.room_id,
                "game": match.game,
                "options": match.options,
                "players": players,
                "result": match.result,
                "finished_at": match.finished_at,
                "replay_from": held.get(match.id),
            }
            for match, players in found
        ]

    def held_back(self, match_ids: list[int]) -> dict[int, datetime]:
        """Of these matches, those whose replay is held back (a daily's while its day runs),
        with the time it opens; ids no match can have are none of them."""
        return self.holds_back([i for i in match_ids if 0 < i <= MAX_ID])

    def may_see(self, match_id: int, player: str | None, public: bool) -> bool:
        """With a public history anyone may review a finished match, else only its players."""
        if public:
            return True
        if player is None or not 0 < match_id <= MAX_ID:
            return False
        return self.store.match_held_by(match_id, player)

    def moves(
        self, game: AnyGame, match_id: int, upto: int, move_days: int | None = None
    ) -> list[dict[str, Any]]:
        """The first ``upto`` moves of a match, for the table's move log after a reload: each
        as the table saw it (actions are public, and so are the open cards each took);
        with a time per move (turn-based), whether the mover's time ran out before it."""
        seed, options, played = self.store.match_played(match_id)
        _first, entries = timeline(game, seed, options, played[:upto])
        moves = [entry for entry in entries if entry.undoes is None]
        late = self._late(match_id, [entry.stored for entry in moves], move_days)
        return [
            {"ply": move.stored.ply}
            | last_action(game, move.before, *astuple(move.stored)[1:4])
            | ({"taken_back": True} if move.taken_back else {})
            | ({"time_ran_out": True} if ran_out else {})
            for move, ran_out in zip(moves, late, strict=True)
        ]

    def _late(self, match_id: int, stored: list[StoredAction], move_days: int | None) -> list[bool]:
        """For each move that begins a seat's turn: made after the turn's time per move ran
        out (from stored times; a later move of the same turn is never marked)."""
        if move_days is None or not stored:
            return [False] * len(stored)
        limit = timedelta(days=move_days)
        began = self.store.match_started_at(match_id)
        late, before = [], None
        for move in stored:
            first = before is None or before.seat != move.seat
            if first and before is not None:
                began = before.at
            ran_out = began is not None and move.at is not None and move.at - began > limit
            late.append(first and ran_out)
            before = move
        return late

    def hint(
        self, game: AnyGame, room_id: str, match_id: int, version: int, seat: int
    ) -> dict[str, Any]:
        """A seated player's hint at the match's current version (slow: off the event
        loop; ``hints.room_hint``)."""
        return room_hint(self.store, self.searches, game, room_id, match_id, version, seat)

    def is_finished(self, match_id: int) -> bool:
        """Finished, or abandoned by a player's choice: either has a result to review."""
        return 0 < match_id <= MAX_ID and self.store.match_ended(match_id)

    def replay(self, match_id: int) -> dict[str, Any] | None:
        """Every step of a finished match, from the deal to the end; None if not finished."""
        found = self.store.finished_match(match_id) if self.is_finished(match_id) else None
        if found is None:
            return None
        match, players, actions = found
        game = get_game(match.game)
        first, entries = timeline(game, match.seed, match.options, actions)
        result = game.result(entries[-1].after if entries else first)
        return {
            "match_id": match.id,
            "game": match.game,
            "options": match.options,
            "players": players,
            # An abandoned match has no result in the rules; its stored one says so.
            "result": result.to_json() if result is not None else match.result,
            "steps": [start_step(game, first), *map(partial(entry_step, game), entries)],
        }

    def analysis(self, match_id: int) -> dict[str, Any] | None:
        """The best line a finished match's deal allowed, step by step, beside the score
        played, and the step of the line played after which that best was out of reach;
        None if the match is not finished or its game has no analysis. The search
        started as the match was dealt (``foresee``) answers if there was one, else one runs
        now in a worker process (up to seconds; raises ``SearchesBusy`` when too many wait):
        call it off the event loop. Kept per match."""
        known = self.analyses.get(match_id)
        if known is not None:
            return known
        found = self.store.finished_match(match_id) if self.is_finished(match_id) else None
        if found is None:
            return None
        match, _players, actions = found
        game = get_game(match.game)
        search = game.best_line_search()
        if search is None:
            return None
        standing = standing_moves(actions)
        moves = [(stored.seat, stored.action) for stored in standing]
        states = list(replay(game, match.seed, match.options, moves))
        played = game.result(states[-1])
        answer: dict[str, Any] = {
            "match_id": match.id,
            "game": match.game,
            "your_score": played and played.scores[0],
        }
        try:
            solution = self._solution(match.id, search, states[0])
        except OutOfBudget:
            answer |= {
                "solved": False,
                "best_score": None,
                "winnable": None,
                "result": None,
                "steps": [],
                "slip": None,
            }
        else:
            best_line = [(0, action) for action in solution.line]
            best_states = list(replay(game, match.seed, match.options, best_line))
            best = game.result(best_states[-1])
            answer |= {
                "solved": True,
                "best_score": solution.score,
                "winnable": solution.winnable,
                "result": best and best.to_json(),
                "steps": revealed_steps(game, best_line, best_states),
                "slip": replay_step(
                    actions, standing, self._slip(match.id, game, states[0], moves, solution.score)
                ),
            }
        keep(self.analyses, match_id, answer)
        return answer


def keep(kept: dict[int, V], match_id: int, value: V) -> None:
    """Keeps a match's value, dropping the oldest one kept beyond KEPT_ANALYSES."""
    if len(kept) >= KEPT_ANALYSES:
        del kept[next(iter(kept))]
    kept[match_id] = value


def replay_step(
    actions: list[StoredAction], standing: list[StoredAction], moves: int | None
) -> int | None:
    """The replay's step after the first ``moves`` moves that stand (its steps are every
    stored entry, taken back or not)."""
    if not moves:
        return moves
    return actions.index(standing[moves - 1]) + 1


def start_step(game: AnyGame, first: Any) -> dict[str, Any]:
    return {
        "ply": 0,
        "seat": None,
        "action": None,
        "text": None,
        "view": game.view(first, None, reveal=True),
        "computer": False,
        "took": None,
    }


def entry_step(game: AnyGame, entry: Entry) -> dict[str, Any]:
    """A replay's step: a move (marked when a later takeback undid it), or a takeback with
    the table as before the move it undid; everything revealed."""
    stored = entry.stored
    move = entry.undoes is None
    return {
        "ply": stored.ply,
        "seat": stored.seat,
        "action": stored.action if move else None,
        "text": game.notation(stored.action) if move else None,
        "view": game.view(entry.after, None, reveal=True),
        "computer": stored.by_computer,
        "took": game.took(entry.before, stored.action) if move else None,
        "taken_back": entry.taken_back,
        "undoes": entry.undoes,
    }


def revealed_steps(
    game: AnyGame,
    moves: list[tuple[int, dict[str, Any]]],
    states: list[Any],
    by_computer: list[bool] | None = None,
) -> list[dict[str, Any]]:
    """Each step of a line: the deal, then every action with the table after it, revealed,
    whether the computer made it and the open cards it took."""
    computer = by_computer or [False] * len(states)
    return [
        {
            "ply": ply,
            "seat": seat,
            "action": action,
            "text": action and game.notation(action),
            "view": game.view(state, None, reveal=True),
            "computer": by,
            "took": action and game.took(before, action),
        }
        for ply, ((seat, action), before, state, by) in enumerate(
            zip([(None, None), *moves], [None, *states], states, computer, strict=False)
        )
    ]
