"""Expeditionen properties over random matches (random legal actions, ``playout``).

Sized for about fifteen seconds on one shared core (the conformance suite plays forty more
matches with every view checked): cheap checks run on many matches, the expensive ones
(every listed action applied, every view searched) on fewer.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import IllegalAction, get_game
from engine.cards import SUITS
from engine.expeditionen import ALL_CODES, ExpeditionenState, deck_for
from engine.playout import playout
from tests.sampling import examples

GAME = get_game("expeditionen")

seeds = st.integers(min_value=0, max_value=2**32)
options = st.fixed_dictionaries(
    {
        "with_aces": st.booleans(),
        "rounds": st.sampled_from([1, 3]),
        "first": st.sampled_from([None, 0, 1]),
    }
)


def matches(count: int) -> settings:
    return settings(
        max_examples=examples(count), deadline=None, suppress_health_check=[HealthCheck.too_slow]
    )


EVERY_ACTION = [
    *({"type": kind, "card": card} for kind in ("play", "discard") for card in sorted(ALL_CODES)),
    *({"type": "draw", "source": source} for source in ("deck", *SUITS)),
]


def plies(seed: int, chosen: dict[str, Any]) -> Iterator[tuple[ExpeditionenState, int | None]]:
    for state, seat, _ in playout(GAME, seed, chosen):
        yield state, seat


def all_cards(state: ExpeditionenState) -> list[str]:
    places = [*state.hands, state.draw_pile, *state.discards.values()]
    places += [row for side in state.expeditions for row in side.values()]
    return sorted(card for place in places for card in place)


@matches(600)
@given(seed=seeds, chosen=options)
def test_every_match_ends_and_keeps_every_card(seed: int, chosen: dict[str, Any]) -> None:
    deck = sorted(deck_for(chosen["with_aces"]))
    for state, seat in plies(seed, chosen):
        assert all_cards(state) == deck
        if seat is None:
            assert GAME.is_over(state)
            played = len(state.finished)
            assert state.rounds <= played <= state.rounds + 3


@matches(120)
@given(seed=seeds, chosen=options)
def test_legal_actions_agree_with_apply(seed: int, chosen: dict[str, Any]) -> None:
    rng = random.Random(seed)
    for state, seat in plies(seed, chosen):
        if seat is None:
            break
        listed = GAME.legal_actions(state, seat)
        for action in listed:
            GAME.apply(state, seat, action)
        unlisted = [action for action in EVERY_ACTION if action not in listed]
        for action in rng.sample(unlisted, 4):
            try:
                GAME.apply(state, seat, action)
            except IllegalAction as refusal:
                assert refusal.code == "illegal"
            else:
                raise AssertionError(f"{action} was not listed but applied")


@matches(120)
@given(seed=seeds, chosen=options)
def test_no_view_shows_the_other_hand_or_the_draw_pile(seed: int, chosen: dict[str, Any]) -> None:
    for state, _ in plies(seed, chosen):
        for viewer in (0, 1):
            text = json.dumps(GAME.view(state, viewer))
            hidden = [*state.hands[1 - viewer], *state.draw_pile]
            assert not [card for card in hidden if f'"{card}"' in text]
