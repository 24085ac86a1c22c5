"""The information-set leak check: a view may not depend on anything its viewer cannot know.

For a state and a viewer, the game deals everything hidden from that viewer again
(``redeal_hidden``); the two views must be identical. This compares views, so it needs no
list of card codes and works for any codes and for two decks with repeated codes.
"""

from __future__ import annotations

import json
import random
from typing import Any

from engine import AnyGame

VARIANTS = 3


def viewers(game: AnyGame) -> list[int | None]:
    return [None, *range(game.seats)]


def hidden_variants(game: AnyGame, state: Any, viewer: int | None, seed: int) -> list[Any]:
    rng = random.Random(seed)
    return [game.redeal_hidden(state, viewer, rng) for _ in range(VARIANTS)]


def leaks(game: AnyGame, state: Any, viewer: int | None, seed: int = 0) -> list[str]:
    """How the viewer's view changes when its hidden cards are dealt again (empty: no leak).
    Views are compared as data (stricter than their JSON: a tuple is no list); only a
    difference is written out, which spares the JSON of every view that matches."""
    seen = game.view(state, viewer)
    found = []
    for other in hidden_variants(game, state, viewer, seed):
        shown = game.view(other, viewer)
        if shown != seen or type(shown) is not type(seen):
            found.append(first_difference(text(seen), text(shown)))
    return found


def text(view: Any) -> str:
    return json.dumps(view, sort_keys=True)


def first_difference(one: str, two: str) -> str:
    at = next((i for i, (a, b) in enumerate(zip(one, two, strict=False)) if a != b), 0)
    return f"...{one[max(0, at - 60) : at + 40]}... vs ...{two[max(0, at - 60) : at + 40]}..."
