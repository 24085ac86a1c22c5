"""The leak check catches a view that shows one hidden card (a check that cannot fail is
a defect)."""

from __future__ import annotations

from typing import Any

from engine import games, get_game
from engine.playout import playout
from tests.engine.leaks import leaks, viewers


class Leaky:
    """A game whose view adds one thing its viewer may not see."""

    def __init__(self, name: str, leak: Any) -> None:
        self.game = get_game(name)
        self.leak = leak

    def __getattr__(self, attribute: str) -> Any:
        return getattr(self.game, attribute)

    def view(self, state: Any, seat: int | None, **kwargs: Any) -> dict[str, Any]:
        return {**self.game.view(state, seat, **kwargs), "hint": self.leak(state, seat)}


def some_running_state(name: str, plies: int = 1) -> Any:
    for ply, (state, _, _) in enumerate(playout(get_game(name), seed=5)):
        if ply == plies:
            return state
    raise AssertionError("the game ended too early")


def test_the_leak_check_passes_the_real_views() -> None:
    for game in games():
        state = some_running_state(game.name)
        for viewer in viewers(game):
            assert leaks(game, state, viewer) == []


def test_the_leak_check_catches_the_top_of_the_scoundrel_dungeon() -> None:
    leaky = Leaky("scoundrel", lambda state, seat: state.dungeon[0])
    assert leaks(leaky, some_running_state("scoundrel"), 0)  # type: ignore[arg-type]


def test_the_leak_check_catches_one_card_of_the_opponents_hand() -> None:
    leaky = Leaky("expeditionen", lambda state, seat: min(state.hands[1 - seat]))
    assert leaks(leaky, some_running_state("expeditionen", plies=6), 0)  # type: ignore[arg-type]


def test_the_leak_check_catches_a_hand_shown_to_a_spectator() -> None:
    leaky = Leaky("expeditionen", lambda state, seat: sorted(state.hands[0]))
    assert leaks(leaky, some_running_state("expeditionen", plies=6), None)  # type: ignore[arg-type]


def test_the_leak_check_catches_the_bottom_of_the_draw_pile() -> None:
    leaky = Leaky("expeditionen", lambda state, seat: state.draw_pile[-1])
    assert leaks(leaky, some_running_state("expeditionen", plies=6), 1)  # type: ignore[arg-type]


def test_the_leak_check_catches_the_night_deck_order() -> None:
    """Night cards are no standard codes, and Pilzwanderung repeats codes: a search for
    known codes would miss this; comparing views does not."""
    leaky = Leaky("pilzwanderung", lambda state, seat: state.night_deck)
    assert leaks(leaky, some_running_state("pilzwanderung", plies=2), 0)  # type: ignore[arg-type]
