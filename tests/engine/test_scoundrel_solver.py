"""The Scoundrel solver against brute force, on small stacked dungeons built by hand.

Brute force walks every legal action through the engine itself (no memo, no bounds), so
it shares nothing with the solver but the rules. Every test runs twice: with the compiled
search (engine/scoundrel_search.pyx, what ``solve`` uses) and with the reference
``Solver`` in Python. Both are checked against the same answer: brute force walks each
table once per test process (the module is one xdist group), about 0.4x the module's CPU.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from engine import Takeback, get_game, scoundrel_solver
from engine.scoundrel import DECK, ScoundrelState
from engine.scoundrel_search import FastSolver
from engine.scoundrel_solver import (
    BEST_LINE_BUDGET,
    HINT_BUDGET,
    OutOfBudget,
    Solution,
    Solver,
    Unseen,
    first_slip,
    solve,
    win_chances,
    worth,
)
from tests.sampling import some

# One worker runs the module, so both searches are checked against one walk (``walked``).
pytestmark = pytest.mark.xdist_group("scoundrel_solver")
GAME = get_game("scoundrel")
SolverClass = type[Solver] | type[FastSolver]


@pytest.fixture(autouse=True, params=[FastSolver, Solver], ids=["compiled", "reference"])
def solver_class(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> SolverClass:
    """The search every test here runs on, through ``solve`` too."""
    chosen: SolverClass = request.param
    monkeypatch.setattr(scoundrel_solver, "make_solver", chosen)
    return chosen


def start(*top: str) -> ScoundrelState:
    deck = [*top, *(card for card in DECK if card not in top)]
    state: ScoundrelState = GAME.new(seed=0, deck=deck)
    return state


def table(room: list[str], dungeon: list[str], **fields: Any) -> ScoundrelState:
    return ScoundrelState(dungeon=dungeon, room=room, **fields)


walked: dict[str, int] = {}  # brute force's score of each table walked, by its JSON


def brute_force(state: ScoundrelState) -> int:
    table = json.dumps(state.to_json(), sort_keys=True)
    if table not in walked:
        walked[table] = walk(state)
    return walked[table]


def walk(state: ScoundrelState) -> int:
    outcome = GAME.result(state)
    if outcome is not None:
        return int(outcome.scores[0])
    return max(walk(GAME.apply(state, 0, a)) for a in GAME.legal_actions(state, 0))


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


@pytest.mark.parametrize("seed", some(range(24)))
def test_solver_agrees_with_brute_force_on_small_dungeons(seed: int) -> None:
    state = small_dungeon(seed, cards=7 + seed % 3)
    solution = solve(state)
    assert solution.score == brute_force(state)
    assert replayed(state, solution.line) == solution.score
    assert solution.winnable == (solution.score > 0)


def mid_room(seed: int, cards: int) -> ScoundrelState:
    """A small dungeon some random takes into its first room (a potion may have healed)."""
    state = small_dungeon(seed, cards)
    rng = random.Random(seed)
    for _ in range(rng.randint(1, 2)):
        takes = [a for a in GAME.legal_actions(state, 0) if a["type"] == "take"]
        after = GAME.apply(state, 0, rng.choice(takes))
        if not GAME.is_over(after):
            state = after
    return state


@pytest.mark.parametrize("seed", some(range(12)))
def test_solver_agrees_with_brute_force_in_the_middle_of_a_room(seed: int) -> None:
    state = mid_room(seed, cards=8)
    solution = solve(state)
    assert solution.score == brute_force(state)
    assert replayed(state, solution.line) == solution.score


@pytest.mark.parametrize("seed", some(range(8)))
def test_solver_agrees_with_brute_force_after_an_avoided_room(seed: int) -> None:
    state = GAME.apply(small_dungeon(seed, cards=9), 0, {"type": "avoid"})
    assert state.avoided_last_room
    assert solve(state).score == brute_force(state)


@pytest.mark.parametrize("seed", some(range(16)))
def test_early_turns_of_one_table_each_agree_with_brute_force(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Turns this short pause and resume the search at nearly every table.
    monkeypatch.setattr(scoundrel_solver, "FIRST_TURN", 1)
    monkeypatch.setattr(scoundrel_solver, "AVOID_TURN", 1)
    state = small_dungeon(seed, cards=8 + seed % 2)
    solution = solve(state)
    assert solution.score == brute_force(state)
    assert replayed(state, solution.line) == solution.score


@pytest.mark.parametrize("seed", some(range(30)))
def test_the_best_line_reaches_the_score_it_claims(seed: int) -> None:
    state = small_dungeon(seed, cards=13 + seed % 6)
    solution = solve(state)
    assert replayed(state, solution.line) == solution.score


@pytest.mark.parametrize("seed", [16, 18])  # two quick ones: bench/bots.py does a thousand
def test_the_best_line_of_a_whole_deal_reaches_the_score_it_claims(seed: int) -> None:
    state: ScoundrelState = GAME.new(seed=seed)
    solution = solve(state)
    assert replayed(state, solution.line) == solution.score
    assert solution.winnable


def test_a_search_beyond_its_budget_stops() -> None:
    with pytest.raises(OutOfBudget):
        solve(GAME.new(seed=1), budget=10)


def test_a_finished_game_is_its_own_best_line() -> None:
    state = table(["2C"], [], health=1, last_room=True)
    state = GAME.apply(state, 0, {"type": "take", "card": "2C", "weapon": False})
    assert solve(state) == Solution(score=-1, line=[], winnable=False)


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
    state = table(
        ["9C", "10S", "2H", "3H"], [], health=12, weapon="8D", stack=["9S"], last_room=True
    )
    solution = solve(state)
    assert solution.score == brute_force(state)
    assert replayed(state, solution.line) == solution.score


@pytest.mark.parametrize("health", [6, 9, 14])
def test_twin_monsters_are_walked_once_and_the_score_is_unchanged(health: int) -> None:
    # 7C and 7S differ only in suit: the solver takes the first-named before its twin.
    state = table(["7C", "5D", "7S", "2H"], ["9S", "7H", "9C", "4D", "QS"], health=health)
    solution = solve(state)
    assert solution.score == brute_force(state)
    assert replayed(state, solution.line) == solution.score


def test_a_weapon_counts_only_against_the_monsters_left() -> None:
    left = 1 << 5 | 1 << 9  # a 5 and a 9 are the monsters left
    assert worth(8, 99, left) == (8, 9), "fresh: reaches the 9"
    assert worth(10, 99, left) == (9, 9), "a 10 hurts the 9 no less than a 9 does"
    assert worth(8, 7, left) == (5, 5), "worn to 7: only the 5 is within reach"
    assert worth(8, 4, left) == (0, 0), "reaches no monster left: as good as none"


@pytest.mark.parametrize("seed", range(8))
def test_the_solver_agrees_with_brute_force_with_a_worn_weapon(seed: int) -> None:
    state = small_dungeon(seed, cards=8)
    unseen = [card for card in DECK if card not in state.room + state.dungeon]
    state.weapon = next(card for card in unseen if card in ("6D", "7D", "8D"))
    state.stack = [random.Random(seed).choice([card for card in unseen if card[-1] in "CS"])]
    assert solve(state).score == brute_force(state)


def tables_on_a_random_line(state: ScoundrelState, seed: int) -> list[ScoundrelState]:
    rng = random.Random(seed)
    tables = []
    while not GAME.is_over(state):
        tables.append(state)
        state = GAME.apply(state, 0, rng.choice(GAME.legal_actions(state, 0)))
    return tables


@pytest.mark.parametrize("seed", some(range(40)))
def test_no_line_scores_above_the_ceiling(seed: int, solver_class: SolverClass) -> None:
    state = small_dungeon(seed, cards=7 + seed % 3)
    if seed % 2:  # with a worn weapon
        unseen = [card for card in DECK if card not in state.room + state.dungeon]
        state.weapon = next(card for card in unseen if card[-1] == "D")
        state.stack = [random.Random(seed).choice([c for c in unseen if c[-1] in "CS"])]
    for table_now in tables_on_a_random_line(state, seed):
        solver = solver_class(table_now.dungeon, table_now.strict_weapons)
        assert solver.ceiling(solver.node_of(table_now)) >= brute_force(table_now)


@pytest.mark.parametrize("seed", some(range(24)))
def test_a_failed_search_answers_a_bound_no_line_beats(
    seed: int, solver_class: SolverClass
) -> None:
    # One solver asked for every target from its ceiling down, as ``best`` does: each
    # failed search answers a bound below its target and at or above the best score, also
    # where it reuses what the searches before learned of the tables beneath.
    state = small_dungeon(seed, cards=8 + seed % 2)  # 10 cards: seconds of brute force each
    for table_now in tables_on_a_random_line(state, seed)[:2]:
        solver = solver_class(table_now.dungeon, table_now.strict_weapons)
        node, best = solver.node_of(table_now), brute_force(table_now)
        for target in range(solver.ceiling(node), best, -1):
            assert best <= solver.search(node, target) < target
        assert solver.search(node, best) == best


def test_a_room_that_must_be_entered_meets_its_monsters_with_the_weapon_at_hand(
    solver_class: SolverClass,
) -> None:
    # The 10D comes too late for both monsters, one of them must be fought bare-handed
    # now, and only one potion heals: 10 is the best score, and the ceiling sees it.
    state = table(["KS", "QC", "5H", "4H"], ["10D"], avoided_last_room=True)
    solver = solver_class(state.dungeon, state.strict_weapons)
    assert brute_force(state) == 10
    assert solver.ceiling(solver.node_of(state)) == 10


def test_the_solver_reads_the_table_it_is_given(solver_class: SolverClass) -> None:
    state = table(["5D", "7C", "3H", "JS"], ["2C", "4S", "9H", "6D"], health=9)
    solver = solver_class(state.dungeon)
    assert solver.best(solver.node_of(state)) == brute_force(state)


# Hints during play


def seen_game(seed: int, plies: int) -> tuple[ScoundrelState, list[Any], list[Any]]:
    """A seeded game of random choices that avoids whenever it may and never dies: the
    real state, the player's views before each action and now, and the actions."""
    rng = random.Random(seed)
    state: ScoundrelState = GAME.new(seed=seed)
    views, actions = [GAME.view(state, 0)], []
    for _ in range(plies):
        legal = GAME.legal_actions(state, 0)
        living = [a for a in legal if not GAME.is_over(GAME.apply(state, 0, a))]
        if not living:
            break
        action = living[0] if living[0]["type"] == "avoid" else rng.choice(living)
        state = GAME.apply(state, 0, action)
        views.append(GAME.view(state, 0))
        actions.append(action)
    return state, views, actions


@pytest.mark.parametrize("seed", range(6))
def test_a_sampled_dungeon_keeps_what_the_player_saw(seed: int) -> None:
    state, views, actions = seen_game(seed, plies=12)
    unseen = Unseen(views, actions)
    known = [card for card in unseen.table.dungeon if card[0] != "?"]
    assert known == state.dungeon[len(state.dungeon) - len(known) :], "avoided rooms below"
    assert "avoid" in [a["type"] for a in actions] and known
    for copy in range(3):
        world = unseen.sample(random.Random(copy))
        assert GAME.view(world, 0) == GAME.view(state, 0)
        assert sorted(world.dungeon) == sorted(state.dungeon)
        assert world.dungeon[len(world.dungeon) - len(known) :] == known


def test_hints_give_one_chance_per_legal_action_and_none_to_a_deadly_one() -> None:
    state = start("AC", "AS", "KC", "KS")
    views, actions = [GAME.view(state, 0)], [GAME.parse_notation("take AC")]
    state = GAME.apply(state, 0, actions[0])
    views.append(GAME.view(state, 0))
    hint = win_chances(views, actions, samples=4)
    assert hint.samples == 4
    assert [a for a, _ in hint.chances] == GAME.legal_actions(state, 0)
    assert all(chance == 0 for _, chance in hint.chances), "every choice left is fatal"


def test_hints_see_a_winnable_first_room() -> None:
    state, views, actions = seen_game(1, plies=0)
    hint = win_chances(views, actions, samples=5, seconds=0.0)
    assert hint.samples == 1, "out of time after the one sample always solved"
    chances = {GAME.notation(a): p for a, p in hint.chances}
    assert set(chances) == {GAME.notation(a) for a in GAME.legal_actions(state, 0)}
    assert max(chances.values()) > 0


def test_hints_leave_out_a_sample_beyond_the_budget() -> None:
    state, views, actions = seen_game(1, plies=0)
    hint = win_chances(views, actions, samples=2, budget=1)
    assert hint.samples == 0
    assert [a for a, _ in hint.chances] == GAME.legal_actions(state, 0)
    assert all(chance == 0 for _, chance in hint.chances)


def after(state: ScoundrelState, line: list[Any]) -> ScoundrelState:
    for action in line:
        state = GAME.apply(state, 0, action)
    return state


@pytest.mark.parametrize("seed", range(8))
def test_a_line_slips_at_the_first_action_after_which_the_best_is_out_of_reach(
    seed: int,
) -> None:
    """The best line, one other choice somewhere, then the best from there."""
    state = small_dungeon(seed, cards=14)
    best = solve(state)
    rng = random.Random(seed)
    kept = rng.randrange(len(best.line))
    turned = after(state, best.line[:kept])
    line = [*best.line[:kept], rng.choice(GAME.legal_actions(turned, 0))]
    line += solve(after(state, line)).line
    slip = first_slip(state, line, best.score)
    if slip is None:
        assert replayed(state, line) == best.score
    else:
        assert solve(after(state, line[: slip - 1])).score == best.score
        assert solve(after(state, line[:slip])).score < best.score


def test_the_best_line_never_slips() -> None:
    state = small_dungeon(3, cards=16)
    best = solve(state)
    assert first_slip(state, best.line, best.score) is None


def test_a_line_that_dies_at_once_slips_at_its_first_step() -> None:
    state = table(["KC", "2H", "3D", "4H"], ["5C", "6S"], health=10)
    line = [{"type": "take", "card": "KC", "weapon": False}]
    assert first_slip(state, line, solve(state).score) == 1


def test_scoundrel_offers_its_solver_as_the_hint_and_the_best_line() -> None:
    state = small_dungeon(5, cards=8)
    best_line, hint = GAME.best_line_search(), GAME.hint_search()
    assert best_line is not None and hint is not None
    assert best_line(state) == solve(state, BEST_LINE_BUDGET)
    assert GAME.slip_search() is first_slip
    state, views, actions = seen_game(1, plies=2)
    asked = hint(views, actions, samples=1, rng=random.Random(1), seconds=None)
    assert asked == win_chances(views, actions, 1, random.Random(1), None, budget=HINT_BUDGET)


def test_scoundrel_alone_at_the_table_may_take_back_freely() -> None:
    assert GAME.takeback is Takeback.FREE
