"""What a move reveals (``Game.reveals``), over every registered game: a move that reveals
nothing may be taken back, by replaying the match without it.

The check is by invariance, as the leak check (``tests/engine/leaks.py``): for a move said
to reveal nothing, each viewer's view after it must be the same in every state that viewer
could not tell from the one before (its hidden cards dealt again, ``redeal_hidden``) and in
which the move is legal too (the move itself is public: it rules out the states where it
was not possible).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from engine import AnyGame, IllegalAction, games, get_game, replay
from engine.pilzwanderung import ROLE, role_key
from engine.playout import playout
from tests.engine.leaks import viewers
from tests.sampling import some

GAME_NAMES = [game.name for game in games()]
SEEDS = some(range(6))
VARIANTS = 3  # states a viewer cannot tell apart, per move and viewer
TRIES = 40  # redeals to find them in (most deal the mover's named cards away)


def suitless(view: Any) -> Any:
    """A Pilzwanderung view with each card as what the rules know of it: suits never matter,
    and a cook or a sale puts the first cards of a kind from the hand, whichever suit."""
    if isinstance(view, dict):
        return {key: suitless(value) for key, value in view.items()}
    if isinstance(view, list):
        return [suitless(value) for value in view]
    if isinstance(view, str) and view in ROLE:
        return view if view.startswith("N") else str(role_key(view))
    return view


# How views are compared where a game's cards carry more than its rules read.
ALIKE: dict[str, Callable[[Any], Any]] = {"pilzwanderung": suitless}


def alike(game: AnyGame, view: Any) -> str:
    return json.dumps(ALIKE.get(game.name, lambda same: same)(view), sort_keys=True)


def options_for(game: AnyGame, seed: int) -> dict[str, Any]:
    """The defaults or one of the presets, by the seed."""
    option_sets = [{}, *(dict(preset.options) for preset in game.presets)]
    return option_sets[seed % len(option_sets)]


def moves(game: AnyGame, seed: int) -> Iterator[tuple[Any, int, Any]]:
    """(state before, seat, action) of each move of a random game."""
    for state, seat, action in playout(game, seed, options_for(game, seed)):
        if seat is not None:
            yield state, seat, action


def told(
    game: AnyGame, state: Any, seat: int, action: Any, rng: random.Random
) -> tuple[list[int | None], int]:
    """The viewers whose view after the move tells apart states they could not tell apart
    before it, and how many viewers found such states to compare."""
    telling: list[int | None] = []
    compared_by = 0
    after = game.apply(state, seat, action)
    for viewer in viewers(game):
        seen = alike(game, game.view(after, viewer))
        compared = 0
        for _ in range(TRIES):
            other = game.redeal_hidden(state, viewer, rng)
            try:
                other_after = game.apply(other, seat, action)
            except IllegalAction:
                continue
            compared += 1
            if alike(game, game.view(other_after, viewer)) != seen:
                telling.append(viewer)
            if viewer in telling or compared == VARIANTS:
                break
        compared_by += compared > 0
    return telling, compared_by


def hidden_moves(
    game: AnyGame, seeds: range = SEEDS
) -> Iterator[tuple[str, list[int | None], int]]:
    """For each move said to reveal nothing: its notation and what ``told`` found."""
    for seed in seeds:
        rng = random.Random(seed)
        for state, seat, action in moves(game, seed):
            if not game.reveals(state, action):
                yield game.notation(action), *told(game, state, seat, action, rng)


@pytest.mark.parametrize("name", GAME_NAMES)
def test_a_move_that_reveals_nothing_tells_no_viewer_anything_hidden(name: str) -> None:
    game = get_game(name)
    compared = 0
    for move, telling, compared_by in hidden_moves(game):
        assert not telling, f"{move} told viewers {telling} something hidden"
        compared += compared_by
    assert compared, "no move that reveals nothing was compared"


class RevealsNothing:
    """A game that says no move reveals anything: a planted leak."""

    def __init__(self, name: str) -> None:
        self.game = get_game(name)

    def __getattr__(self, attribute: str) -> Any:
        return getattr(self.game, attribute)

    def reveals(self, state: Any, action: Any) -> bool:
        return False


@pytest.mark.parametrize("name", GAME_NAMES)
def test_the_check_catches_a_game_that_says_no_move_reveals_anything(name: str) -> None:
    leaky: Any = RevealsNothing(name)
    assert any(telling for _, telling, _ in hidden_moves(leaky, range(1)))


@pytest.mark.parametrize("name", GAME_NAMES)
def test_a_taken_back_move_is_the_match_replayed_without_it(name: str) -> None:
    """The server stores a takeback as an event and replays the actions without the move:
    that gives the state before the move, and the match goes on from there."""
    game = get_game(name)
    played: list[tuple[int, Any]] = []
    taken_back = 0
    for state, seat, action in moves(game, seed=1):
        played.append((seat, action))
        if game.reveals(state, action) or taken_back == 5:
            continue
        *_, after = replay(game, 1, options_for(game, 1), played)
        assert after == game.apply(state, seat, action)
        *_, before = replay(game, 1, options_for(game, 1), played[:-1])
        assert before == state
        assert game.views(before, viewers(game)) == game.views(state, viewers(game))
        taken_back += 1
    assert taken_back
