"""The strong Expeditionen bot's rollout: both seats play medium to the round's end, in
compiled code (engine/expeditionen_rollout.pyx) that plays as the Python reference
(``medium_round`` in engine/bots/expeditionen.py), and the search that uses it."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine import get_game
from engine.bots import expeditionen as bots
from engine.bots.expeditionen import determinize, medium_round, round_player
from engine.expeditionen import ExpeditionenState, deck_for
from engine.expeditionen_rollout import medium_round as compiled_round
from engine.playout import playout

GAME = get_game("expeditionen")


def test_the_strong_bot_uses_the_compiled_rollout() -> None:
    # Where the build failed, round_player falls back to the reference: it fails here.
    assert round_player() is compiled_round


@pytest.mark.parametrize("options", [{"rounds": 1}, {"rounds": 1, "with_aces": True}])
def test_the_compiled_round_plays_as_the_reference(options: dict[str, Any]) -> None:
    # Random tables in both phases: the same points for both seats, card for card.
    checked = 0
    for ply, (state, seat, _) in enumerate(playout(GAME, 21, options)):
        if seat is not None and ply % 3 == 0:
            assert compiled_round(state) == medium_round(state), ply
            checked += 1
    assert checked > 15


def world_where_a_card_goes_to_and_fro() -> ExpeditionenState:
    """A world of the search (seed 0's first decision, the 242nd sample) in which, after
    the first seat discards KD, the two seats keep passing a card between them."""
    state: ExpeditionenState = GAME.new(seed=0, options={"rounds": 1})
    seat = state.to_move
    world = determinize(GAME.view(state, seat), [], seat, random.Random(242))
    return GAME.apply(world, seat, {"type": "discard", "card": "KD"})


def test_seats_that_pass_a_card_to_and_fro_take_the_deck_after_a_while(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    table = world_where_a_card_goes_to_and_fro()
    chosen = []
    medium_draw = bots.medium_draw
    monkeypatch.setattr(bots, "medium_draw", lambda sight: chosen.append(1) or medium_draw(sight))
    points = bots.medium_round(table)
    assert len(chosen) == bots.ROLLOUT_TURNS, "the seats chose their draws until the cap"
    assert compiled_round(table) == points


def test_the_strong_bot_lays_its_high_card_at_its_last_play() -> None:
    # Two cards left in the pile: this is the seat's last play. 10H on 4H..9H brings the
    # expedition from 19 to 29 points; every other card brings nothing or costs.
    state: ExpeditionenState = GAME.new(seed=1, options={"rounds": 1})
    seat = state.to_move
    laid = ["4H", "5H", "6H", "7H", "8H", "9H"]
    pool = [card for card in deck_for(False) if card not in {*laid, "10H"}]
    random.Random(3).shuffle(pool)
    hand = ["10H", *[card for card in pool if card[-1] != "H"][:7]]
    rest = [card for card in pool if card not in hand]
    state.hands[seat], state.hands[1 - seat] = hand, rest[:8]
    state.expeditions[seat]["H"], state.draw_pile = laid, rest[8:10]
    state.discards = {s: [card for card in rest[10:] if card[-1] == s] for s in "SHDC"}
    # A history that leads to these discard piles (the seat's own discards, in order).
    history = [
        (seat, {"type": "discard", "card": card})
        for pile in state.discards.values()
        for card in pile
    ]
    bot = bots.strong_bot(playouts=64)
    legal = GAME.legal_actions(state, seat)
    action = bot.choose(GAME.view(state, seat), legal, history, seat, random.Random(0))
    assert action == {"type": "play", "card": "10H"}
