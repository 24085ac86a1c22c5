"""Scoundrel properties over thousands of random games.

Random play dies in the first rooms, so a second property starts from endgames: a
shuffled deck of which the first cards already lie on the discard pile. That reaches the
last room, wins and the potion bonus.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import IllegalAction, get_game
from engine.cards import value
from engine.playout import playout
from engine.scoundrel import DECK, ScoundrelState, deal_room, is_monster, is_potion
from tests.sampling import examples

GAME = get_game("scoundrel")
OPTIONS = st.sampled_from([{}, {"strict_weapons": True}])
GAMES_PER_EXAMPLE = 10
REFUSALS_PER_STATE = 4
CANDIDATES: list[Any] = [{"type": "avoid"}] + [
    {"type": "take", "card": card, "weapon": weapon} for card in DECK for weapon in (False, True)
]


def all_cards(state: ScoundrelState) -> list[str]:
    weapon = [state.weapon] if state.weapon else []
    return state.dungeon + state.room + weapon + state.stack + state.discard


def check_table(state: ScoundrelState) -> None:
    assert sorted(all_cards(state)) == sorted(DECK), "all 44 cards, each once"
    assert state.health <= 20
    if state.stack:
        assert state.weapon is not None
    slain = [value(card) for card in state.stack]
    if state.strict_weapons:
        assert slain == sorted(set(slain), reverse=True)
    else:
        assert slain == sorted(slain, reverse=True)
    if state.last_room:
        assert state.dungeon == []
    elif not GAME.is_over(state):
        assert len(state.room) + state.taken == 4
        assert state.taken < 3


def check_actions(state: ScoundrelState, rng: random.Random) -> None:
    """Every listed action applies; a sample of unlisted ones is refused, leaving the state."""
    before = state.clone()
    legal = GAME.legal_actions(state, 0)
    for action in legal:
        GAME.apply(state, 0, action)
    unlisted = [action for action in CANDIDATES if action not in legal]
    for action in rng.sample(unlisted, REFUSALS_PER_STATE):
        with pytest.raises(IllegalAction):
            GAME.apply(state, 0, action)
    assert state == before


def check_result(state: ScoundrelState) -> None:
    result = GAME.result(state)
    assert result is not None
    (score,) = result.scores
    if state.health > 0:
        assert state.dungeon == state.room == []
        assert result.winner == 0
        last = state.last_card
        assert last is not None
        potion_bonus = value(last) if state.health == 20 and is_potion(last) else 0
        assert score == state.health + potion_bonus
    else:
        left = sum(value(card) for card in state.dungeon + state.room if is_monster(card))
        assert result.winner is None
        assert score == state.health - left


@settings(max_examples=examples(300), deadline=None)
@given(seed=st.integers(0, 2**32 - 1), options=OPTIONS)
def test_random_games_end_conserve_cards_and_list_exactly_the_legal_actions(
    seed: int, options: dict[str, Any]
) -> None:
    rng = random.Random(seed)
    for game_seed in range(seed, seed + GAMES_PER_EXAMPLE):
        for state, seat, _ in playout(GAME, game_seed, options):
            check_table(state)
            if seat is None:
                check_result(state)
            else:
                check_actions(state, rng)


@settings(max_examples=examples(300), deadline=None)
@given(
    deck=st.permutations(DECK),
    discarded=st.integers(30, 42),
    seed=st.integers(0, 2**32 - 1),
    options=OPTIONS,
)
def test_endgames_reach_the_last_room_and_end_by_the_rules(
    deck: list[str], discarded: int, seed: int, options: dict[str, Any]
) -> None:
    rng = random.Random(seed)
    for _ in range(GAMES_PER_EXAMPLE):
        state = ScoundrelState(
            dungeon=deck[discarded:], discard=deck[:discarded], strict_weapons=bool(options)
        )
        deal_room(state)
        while GAME.to_move(state) is not None:
            check_table(state)
            check_actions(state, rng)
            state = GAME.apply(state, 0, rng.choice(GAME.legal_actions(state, 0)))
        check_table(state)
        check_result(state)
