"""`make test` walks every example the property and fuzz tests name; `make check` a quarter."""

from __future__ import annotations

import pytest

from tests import sampling


def test_the_whole_suite_draws_every_example_and_every_seed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(sampling, "QUICK", False)
    assert sampling.examples(600) == 600
    assert list(sampling.some(range(40))) == list(range(40))


def test_the_quick_loop_draws_a_quarter_and_at_least_one(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sampling, "QUICK", True)
    assert sampling.examples(600) == 150
    assert sampling.examples(3) == 1
    assert list(sampling.some([0, 2, 4, 5, 8, 15])) == [0]
