"""The compiled search (engine/scoundrel_search.pyx) against the reference ``Solver``.

The reference is checked against brute force in test_scoundrel_solver.py (so is the
compiled search, through the same tests); here the two walk whole deals side by side.
"""

from __future__ import annotations

import pytest

from engine import get_game
from engine.scoundrel import DECK, ScoundrelState
from engine.scoundrel_search import FastSolver
from engine.scoundrel_solver import Lines, OutOfBudget, Solver, make_solver
from tests.engine.test_scoundrel_solver import tables_on_a_random_line
from tests.sampling import some

GAME = get_game("scoundrel")


def test_solve_uses_the_compiled_search() -> None:
    # Where the build failed, make_solver falls back to the reference: it fails here.
    assert isinstance(make_solver(DECK), FastSolver)


# Deals whose reference search takes under half a second, with and without strict weapons.
@pytest.mark.parametrize("seed", some([0, 2, 4, 5, 8, 15]))
def test_the_compiled_search_walks_the_same_tables_as_the_reference(seed: int) -> None:
    # From the start and a few plies in: the same best score, the same count of tables
    # searched (in the same order, with the same early turns), the same line.
    state: ScoundrelState = GAME.new(seed=seed, options={"strict_weapons": seed % 2 == 1})
    for table_now in tables_on_a_random_line(state, seed)[:9:4]:
        solvers: list[Lines] = [
            Solver(table_now.dungeon, table_now.strict_weapons),
            FastSolver(table_now.dungeon, table_now.strict_weapons),
        ]
        walked = []
        for solver in solvers:
            node = solver.node_of(table_now)
            walked.append((solver.best(node), solver.tables, solver.line(node)))
        assert walked[0] == walked[1]


def test_the_compiled_search_stops_beyond_its_budget_like_the_reference() -> None:
    state: ScoundrelState = GAME.new(seed=1)
    for solver_class in (Solver, FastSolver):
        solver = solver_class(state.dungeon, budget=100)
        with pytest.raises(OutOfBudget):
            solver.best(solver.node_of(state))
        assert solver.tables == 101
