"""The Scoundrel solver against brute force, on small stacked dungeons built by hand.

Brute force walks every legal action through the engine itself (no memo, no bounds), so
it shares nothing with the solver but the rules.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine import get_game
from engine.scoundrel import DECK, ScoundrelState
from engine.scoundrel_solver import Solver, node_of, solve

GAME = get_game("scoundrel")


def table(room: list[str], dungeon: list[str], **fields: Any) -> ScoundrelState:
    return ScoundrelState(dungeon=dungeon, room=room, **fields)


def brute_force(state: ScoundrelState) -> int:
    outcome = GAME.result(state)
    if outcome is not None:
        return int(outcome.scores[0])
    return max(brute_force(GAME.apply(state, 0, a)) for a in GAME.legal_actions(state, 0))


def replayed(state: ScoundrelState, line: list[dict[str, Any]]) -> int:
    for action in line:
        state = GAME.apply(state, 0, action)
    outcome = GAME.result(state)
    assert outcome is not None, "the best line ends the game"
    return int(outcome.scores[0])


def small_dungeon(seed: int, cards: int) -> ScoundrelState:
    rng = random.Random(seed)
    deck = rng.sample(DECK, cards)
    health = rng.randint(3, 20)
    return table(deck[:4], deck[4:], health=health, strict_weapons=seed % 3 == 0)


@pytest.mark.parametrize("seed", range(30))
def test_solver_agrees_with_brute_force_on_small_dungeons(seed: int) -> None:
    state = small_dungeon(seed, cards=8 + seed % 3)
    solution = solve(state)
    assert solution.score == brute_force(state)
    assert replayed(state, solution.line) == solution.score
    assert solution.winnable == (solution.score > 0)


def test_a_dead_end_dungeon_is_not_winnable_and_the_score_counts_the_monsters_left() -> None:
    state = table(["AC", "AS", "KC", "KS"], ["QC", "QS"], health=5)
    solution = solve(state)
    assert not solution.winnable
    assert solution.score == brute_force(state) < 0


def test_the_best_line_drinks_last_for_the_potion_bonus() -> None:
    # Last room: 2C hurts 2, then the 5H heals to 20 and, taken last, adds its 5.
    state = table(["2C", "5H"], [], health=20, last_room=True)
    solution = solve(state)
    assert solution.score == 20 + 5
    assert [a["card"] for a in solution.line] == ["2C", "5H"]


def test_the_solver_uses_the_weapon_only_where_it_may() -> None:
    state = table(["9C", "10S", "2H", "3H"], [], health=12, weapon="8D", stack=["9S"],
                  last_room=True)
    solution = solve(state)
    assert solution.score == brute_force(state)
    assert replayed(state, solution.line) == solution.score


def test_the_solver_reads_the_table_it_is_given() -> None:
    state = table(["5D", "7C", "3H", "JS"], ["2C", "4S", "9H", "6D"], health=9)
    node = node_of(state)
    assert node.weapon == 0 and node.health == 9 and node.room == ("5D", "7C", "3H", "JS")
    assert Solver().value(node, -(10**6)) == brute_force(state)
