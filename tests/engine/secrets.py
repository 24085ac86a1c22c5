"""Per game: the card codes that a viewer (a seat, or None for a spectator) may not see.

The conformance suite checks that none of them appears anywhere in that viewer's view.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

SECRETS: dict[str, Callable[[Any, int | None], set[str]]] = {}


def secret(name: str) -> Callable[[Callable[[Any, int | None], set[str]]], Any]:
    def add(func: Callable[[Any, int | None], set[str]]) -> Callable[[Any, int | None], set[str]]:
        SECRETS[name] = func
        return func

    return add


@secret("scoundrel")
def scoundrel_secrets(state: Any, viewer: int | None) -> set[str]:
    """The dungeon is face down for everyone until the game ends (then the result may name it)."""
    return set() if state.phase == "over" else set(state.dungeon)


@secret("expeditionen")
def expeditionen_secrets(state: Any, viewer: int | None) -> set[str]:
    """Other hands, the draw pile and every discard below a pile's top (even one you saw go)."""
    hidden = set(state.draw_pile)
    for pile in state.discards.values():
        hidden.update(pile[:-1])
    for seat, hand in enumerate(state.hands):
        if seat != viewer:
            hidden.update(hand)
    return hidden
