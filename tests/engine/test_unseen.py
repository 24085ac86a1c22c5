"""What a viewer may not see, by place (``Game.unseen``): the wire inspector's "not sent to
...". Its counts go out with every state message, so they may not depend on the hidden
cards; and its places must be every place ``redeal_hidden`` deals again, so that the list
misses nothing.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from engine import AnyGame, Unseen, get_game
from engine.playout import playout
from tests.engine.leaks import hidden_variants, viewers
from tests.engine.test_conformance import GAME_NAMES, option_sets

EVERY = 4  # plies between the states looked at


def cards(places: list[Unseen]) -> Counter[str]:
    return Counter(card for place in places for card in place.cards)


def unseen_mismatches(game: AnyGame, state: Any, viewer: int | None, seed: int) -> list[str]:
    """How the unseen places of ``state`` differ from those of states the viewer cannot tell
    from it: other counts (a count would leak), or other cards in them all together (a
    place redeal_hidden deals cards to or from is missing)."""
    places = game.unseen(state, viewer)
    found = []
    for other in hidden_variants(game, state, viewer, seed):
        again = game.unseen(other, viewer)
        if [p.count() for p in again] != [p.count() for p in places]:
            found.append(f"counts {[p.count() for p in again]} vs {[p.count() for p in places]}")
        if cards(again) != cards(places):
            found.append(f"cards {sorted(cards(again) - cards(places))} came from elsewhere")
    return found


def sampled_states(game: AnyGame, seed: int, options: dict[str, Any]) -> list[Any]:
    return [
        state for ply, (state, _, _) in enumerate(playout(game, seed, options)) if ply % EVERY == 0
    ]


@pytest.mark.parametrize("name", GAME_NAMES)
def test_the_unseen_places_are_what_redeal_hidden_deals_again_and_their_counts_tell_nothing(
    name: str,
) -> None:
    game = get_game(name)
    for seed, options in enumerate(option_sets(game)):
        for state in sampled_states(game, seed, options):
            for viewer in viewers(game):
                assert unseen_mismatches(game, state, viewer, seed) == [], (seed, viewer)


@pytest.mark.parametrize("name", GAME_NAMES)
def test_a_running_match_hides_something_from_every_viewer(name: str) -> None:
    """Else the check above compares nothing."""
    game = get_game(name)
    state = game.new(seed=2)
    for viewer in viewers(game):
        assert sum(len(place.cards) for place in game.unseen(state, viewer)) > 0


class Forgetful:
    """A game whose list of unseen places forgets its first one."""

    def __init__(self, name: str) -> None:
        self.game = get_game(name)

    def __getattr__(self, attribute: str) -> Any:
        return getattr(self.game, attribute)

    def unseen(self, state: Any, viewer: int | None) -> list[Unseen]:
        return self.game.unseen(state, viewer)[1:]


class Counting:
    """A game whose counts tell the top card of the draw pile (its rank as a count)."""

    def __init__(self, name: str) -> None:
        self.game = get_game(name)

    def __getattr__(self, attribute: str) -> Any:
        return getattr(self.game, attribute)

    def unseen(self, state: Any, viewer: int | None) -> list[Unseen]:
        top = state.draw_pile[0]
        return [
            *self.game.unseen(state, viewer),
            Unseen("top", (top,) * (1 + sum(map(ord, top)) % 7)),
        ]


def test_the_check_sees_a_forgotten_place() -> None:
    forgetful = Forgetful("expeditionen")
    state = forgetful.game.new(seed=4)
    assert unseen_mismatches(forgetful, state, 0, 1)  # type: ignore[arg-type]


def test_the_check_sees_a_count_that_tells_a_card() -> None:
    counting = Counting("pilzwanderung")
    state = counting.game.new(seed=4)
    assert any("counts" in found for found in unseen_mismatches(counting, state, 1, 1))  # type: ignore[arg-type]
