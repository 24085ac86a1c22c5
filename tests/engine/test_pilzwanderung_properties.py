"""Pilzwanderung properties over thousands of random games (random legal actions, ``playout``).

Sized for well under a minute on one shared core: the cheap checks (every card kept, the
table's invariants) run on thousands of games, the expensive ones (every listed action
applied, views compared after dealing the hidden cards again) on fewer.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import TypeAdapter

from engine import IllegalAction, get_game
from engine.pilzwanderung import (
    START_PAN,
    PilzwanderungState,
    can_act,
    deck_for,
    dish_breakdown,
    hand_limit,
    night_deck,
    split_dishes,
)
from engine.playout import playout
from tests.engine.leaks import leaks
from tests.sampling import examples

GAME = get_game("pilzwanderung")
VIEW = TypeAdapter(GAME.view_type)
ACTION = TypeAdapter(GAME.action_type)

seeds = st.integers(min_value=0, max_value=2**32)
options = st.fixed_dictionaries(
    {
        "counts": st.sampled_from(["standard", "original"]),
        "night_cards": st.sampled_from(["open", "hidden"]),
        "first": st.sampled_from([None, 0, 1]),
    }
)
GAMES_PER_EXAMPLE = 5


def games(count: int) -> settings:
    return settings(
        max_examples=examples(count), deadline=None, suppress_health_check=[HealthCheck.too_slow]
    )


def plies(seed: int, chosen: dict[str, Any]) -> Iterator[tuple[PilzwanderungState, int | None]]:
    for state, seat, _ in playout(GAME, seed, chosen):
        yield state, seat


def all_cards(state: PilzwanderungState) -> list[str]:
    places = [state.forest, state.decay, state.draw_pile, state.night_deck, state.discard]
    for side in (state.hands, state.pans, state.dishes, state.baskets, state.poison):
        places += side
    return sorted(card for place in places for card in place)


def check_table(state: PilzwanderungState, everything: list[str]) -> None:
    assert all_cards(state) == everything, "every card, each once, in one place"
    assert len(state.decay) <= 4
    assert len(state.forest) <= 8
    over = GAME.is_over(state)
    if not over:
        assert state.forest, "the game ends at once when the forest is empty"
        if state.draw_pile:
            taken = 1 if state.phase == "discard" else 0  # a take, before the turn ends
            assert len(state.forest) >= 8 - taken, "refilled while the draw pile lasts"
    for seat in (0, 1):
        assert state.sticks[seat] >= 0
        assert len(state.poison_turns[seat]) == len(state.poison[seat])
        asked = state.phase == "discard" and state.to_move == seat
        if not asked and not over:  # the last card may be a poison: no discard then
            assert len(state.hands[seat]) <= hand_limit(state, seat)
            assert set(state.poison_turns[seat]) <= {1}, "a poison lasts to its next turn-end"
        assert set(state.poison_turns[seat]) <= {1, 2}
    if state.phase == "discard":
        assert len(state.hands[state.to_move]) > hand_limit(state, state.to_move)


def check_result(state: PilzwanderungState) -> None:
    result = GAME.result(state)
    assert result is not None
    dishes = [[dish_breakdown(dish) for dish in split_dishes(state, seat)] for seat in (0, 1)]
    scores = tuple(sum(dish["score"] for dish in side) for side in dishes)
    cooked = [sum(dish["mushrooms"] for dish in side) for side in dishes]
    assert result.scores == scores and result.details["mushrooms_cooked"] == cooked
    if scores[0] != scores[1]:
        assert result.winner == scores.index(max(scores))
    elif cooked[0] != cooked[1]:
        assert result.winner == cooked.index(max(cooked))
    else:
        assert result.winner is None
    for dish in (dish for side in dishes for dish in side):
        assert dish["mushrooms"] >= 3
        assert 4 * dish["butter"] + 5 * dish["cider"] <= dish["mushrooms"]


@games(400)
@given(seed=seeds, chosen=options)
def test_every_game_ends_and_keeps_every_card(seed: int, chosen: dict[str, Any]) -> None:
    everything = sorted([*deck_for(chosen["counts"]), *night_deck(), START_PAN, START_PAN])
    for game_seed in range(seed, seed + GAMES_PER_EXAMPLE):
        for state, seat in plies(game_seed, chosen):
            check_table(state, everything)
            if seat is None:
                check_result(state)
            else:
                assert GAME.legal_actions(state, seat), "a seat to move can always act"


def candidates(state: PilzwanderungState, seat: int, rng: random.Random) -> list[dict[str, Any]]:
    """Well-formed actions of every kind, most of them illegal here."""
    found: list[dict[str, Any]] = [{"type": "take", "position": p} for p in range(1, 9)]
    found += [{"type": "take_decay"}, {"type": "place_pan"}]
    for rank in range(2, 11):
        for day in range(5):
            for night in (0, 1):
                found.append({"type": "sell", "rank": rank, "day": day, "night": night})
                butter, cider = rng.randrange(3), rng.randrange(3)
                pan = rng.choice(["display", "hand"])
                found.append(
                    {
                        "type": "cook",
                        "rank": rank,
                        "day": day,
                        "night": night,
                        "pan": pan,
                        "butter": butter,
                        "cider": cider,
                    }
                )
    hand = state.hands[seat]
    for size in range(len(hand) + 1):
        found.append({"type": "discard", "cards": rng.sample(hand, size)})
    return found


def canonical(action: dict[str, Any]) -> dict[str, Any]:
    """The cards of a discard are a set: any order names the same action."""
    if action["type"] == "discard":
        return {**action, "cards": sorted(action["cards"])}
    return action


@games(100)
@given(seed=seeds, chosen=options)
def test_legal_actions_agree_with_apply(seed: int, chosen: dict[str, Any]) -> None:
    rng = random.Random(seed)
    for state, seat in plies(seed, chosen):
        if seat is None:
            break
        before = json.dumps(state.to_json())
        listed = GAME.legal_actions(state, seat)
        for action in listed:
            ACTION.validate_python(action, strict=True)
            GAME.apply(state, seat, action)
        known = [canonical(action) for action in listed]
        unlisted = [a for a in candidates(state, seat, rng) if canonical(a) not in known]
        for action in rng.sample(unlisted, 8):
            try:
                GAME.apply(state, seat, action)
            except IllegalAction as refusal:
                assert refusal.code == "illegal"
            else:
                raise AssertionError(f"{action} was not listed but applied")
        assert json.dumps(state.to_json()) == before


@games(100)
@given(seed=seeds, chosen=options)
def test_a_seat_is_skipped_exactly_when_it_has_no_legal_action(
    seed: int, chosen: dict[str, Any]
) -> None:
    """``can_act`` decides the skips: it must agree with legal_actions for either seat."""
    for state, seat in plies(seed, chosen):
        if seat is None:
            break
        if state.phase != "turn":
            continue
        for other in (0, 1):
            probe = state.clone()
            probe.to_move = other
            assert can_act(probe, other) == bool(GAME.legal_actions(probe, other))


@games(100)
@given(seed=seeds, chosen=options)
def test_views_are_typed_and_show_nothing_hidden(seed: int, chosen: dict[str, Any]) -> None:
    for ply, (state, _) in enumerate(plies(seed, chosen)):
        if ply % 3:
            continue
        for viewer in (None, 0, 1):
            VIEW.validate_python(GAME.view(state, viewer), strict=True)
            assert not leaks(GAME, state, viewer, seed)
