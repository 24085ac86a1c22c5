"""The hint during play, for a game that offers one (``hint_search``): each legal
choice's chance of winning, estimated from what the seat has seen (its own views), never
from what is hidden from it. The search runs in a worker process
(app/computer/searches.py)."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

from app.computer.searches import Searches
from app.storage.repositories import Store
from app.table.refusals import Refusal
from app.table.timeline import standing_moves
from engine import AnyGame, Hint, HintSearch, replay

# Sampled worlds per hint, and the time it may take (at least one sample is always tried):
# what they cost is measured beside the game's search.
SAMPLES = 64
SECONDS = 1.0


def seat_hint(
    game: AnyGame, states: Sequence[Any], actions: Sequence[dict[str, Any]], seat: int
) -> dict[str, Any]:
    """The hint from the seat's views of these states (before each action, and now) only:
    whatever the states hide from the seat cannot change it."""
    hint_search, args = seat_search(game, states, actions, seat)
    return answer(game, hint_search(*args))


def seat_search(
    game: AnyGame, states: Sequence[Any], actions: Sequence[dict[str, Any]], seat: int
) -> tuple[Callable[..., Hint[Any]], tuple[Any, ...]]:
    """The hint's search and what it is given: the seat's views and the actions."""
    views = [game.view(state, seat) for state in states]
    return search(hint_search_of(game), actions), (views, actions)


def hint_search_of(game: AnyGame) -> HintSearch[Any, Any]:
    hint_search = game.hint_search()
    if hint_search is None:
        raise Refusal("illegal", "this game offers no hint")
    return hint_search


def search(hint_search: HintSearch[Any, Any], actions: Sequence[Any]) -> Callable[..., Hint[Any]]:
    """The search behind a hint, given the views and the actions: what a worker process
    runs. Only the engine's function travels to it, so the worker imports nothing but the
    engine (a worker of 35 MB instead of 60 with this module's imports)."""
    return partial(hint_search, samples=SAMPLES, rng=random.Random(len(actions)), seconds=SECONDS)


def answer(game: AnyGame, hint: Hint[Any]) -> dict[str, Any]:
    return {
        "samples": hint.samples,
        "chances": [
            {"action": action, "text": game.notation(action), "chance": chance}
            for action, chance in hint.chances
        ],
    }


def room_hint(
    store: Store,
    searches: Searches,
    game: AnyGame,
    room_id: str,
    match_id: int,
    version: int,
    seat: int,
) -> dict[str, Any]:
    """The hint for a seat at the room's current match and version, rebuilt from storage.
    Slow (a search per sampled dungeon, about a second, in a worker process; raises
    ``SearchesBusy`` when too many wait): call it off the event loop."""
    hint_search_of(game)  # refuses a game without hints before anything is queued
    key = ("hint", room_id, match_id, version, seat)
    hint = searches.run(key, lambda: hint_job(store, game, room_id, match_id, version, seat))
    return {"match_id": match_id, "version": version, **answer(game, hint)}


def hint_job(
    store: Store, game: AnyGame, room_id: str, match_id: int, version: int, seat: int
) -> tuple[Callable[..., Hint[Any]], tuple[Any, ...]]:
    """The hint's search and what it needs, from storage (once for many asking at once)."""
    loaded = store.load_room(room_id)
    if loaded is None or loaded.match.id != match_id or len(loaded.actions) != version:
        raise Refusal("stale", "the table changed; ask again")
    moves = [(stored.seat, stored.action) for stored in standing_moves(loaded.actions)]
    states = list(replay(game, loaded.match.seed, loaded.match.options, moves))
    if game.is_over(states[-1]):
        raise Refusal("game_over", "the match is over")
    return seat_search(game, states, [action for _, action in moves], seat)
