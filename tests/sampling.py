"""How much of a random space the property and fuzz tests walk.

`make test` (CI) walks all of it. `make check`, the quick loop, sets KARTENRUNDE_TESTS=quick:
every test still runs, but draws a quarter of its examples (at least one), and a test
parametrized over seeds takes the first quarter of them. Hypothesis draws new examples
on every run, so the quick loops walk new ground each time; the seeds of `make test` are
the ones CI holds every commit to.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import TypeVar

QUICK = os.environ.get("KARTENRUNDE_TESTS") == "quick"
SHARE = 4

T = TypeVar("T")


def examples(count: int) -> int:
    return max(1, count // SHARE) if QUICK else count


def some(values: Sequence[T]) -> Sequence[T]:
    return values[: examples(len(values))]
