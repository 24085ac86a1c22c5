"""What a move took: the open cards it takes from the table that the action does not name
(``Game.took``), for a move log that outlives the state before the move."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from engine import games, get_game
from engine.playout import playout
from tests.engine.leaks import hidden_variants

SEEDS = range(4)


def moves(name: str, seeds: range = SEEDS) -> Iterator[tuple[Any, dict[str, Any]]]:
    """(state before, action) of every move of a few random games."""
    for seed in seeds:
        for state, _seat, action in playout(get_game(name), seed=seed):
            if action is not None:
                yield state, action


def test_a_take_from_the_forest_names_the_card_its_position_held() -> None:
    game = get_game("pilzwanderung")
    takes = [(s, a) for s, a in moves("pilzwanderung") if a["type"] == "take"]
    assert takes
    for state, action in takes:
        assert game.took(state, action) == [state.forest[action["position"] - 1]]


def test_taking_the_decay_pile_names_its_cards_in_order() -> None:
    game = get_game("pilzwanderung")
    takes = [(s, a) for s, a in moves("pilzwanderung") if a["type"] == "take_decay"]
    assert takes
    for state, action in takes:
        assert game.took(state, action) == state.decay


def test_a_draw_from_a_discard_pile_names_its_top_card_and_the_deck_none() -> None:
    game = get_game("expeditionen")
    draws = [(s, a) for s, a in moves("expeditionen", range(1)) if a["type"] == "draw"]
    from_piles = [(s, a) for s, a in draws if a["source"] != "deck"]
    assert from_piles and len(from_piles) < len(draws)
    for state, action in draws:
        pile = state.discards.get(action["source"], [])
        assert game.took(state, action) == pile[-1:]


def test_moves_that_take_nothing_open_or_name_their_card_took_nothing() -> None:
    named_or_none = {
        "pilzwanderung": {"cook", "sell", "place_pan", "discard"},
        "expeditionen": {"play", "discard"},
        "scoundrel": {"take", "avoid"},
    }
    for name, kinds in named_or_none.items():
        game = get_game(name)
        for state, action in moves(name, range(1)):
            if action["type"] in kinds:
                assert game.took(state, action) == [], (name, action)


def told_apart(game: Any, state: Any, action: dict[str, Any], seed: int) -> bool:
    """Whether what the move took differs in a state with every hidden card dealt again."""
    took = game.took(state, action)
    return any(
        game.took(other, action) != took for other in hidden_variants(game, state, None, seed)
    )


def test_what_a_move_took_is_the_same_whatever_lies_hidden() -> None:
    """A spectator cannot tell a state from one with every hidden card dealt again, so what
    a move took, which everyone hears, may not tell them apart either."""
    for game in games():
        for index, (state, action) in enumerate(moves(game.name, range(1))):
            assert not told_apart(game, state, action, seed=index), (game.name, action)


class NamesTheDrawPile:
    """Expeditionen, but a draw from the deck names the card it drew (hidden till then)."""

    def __init__(self) -> None:
        self.game = get_game("expeditionen")

    def __getattr__(self, attribute: str) -> Any:
        return getattr(self.game, attribute)

    def took(self, state: Any, action: dict[str, Any]) -> list[str]:
        return [state.draw_pile[0]] if action.get("source") == "deck" else []


def test_the_hidden_check_catches_a_move_that_names_the_card_drawn_from_the_deck() -> None:
    leaky = NamesTheDrawPile()
    state, action = next((s, a) for s, a in moves("expeditionen") if a.get("source") == "deck")
    assert told_apart(leaky, state, action, seed=0)
