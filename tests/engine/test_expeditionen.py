"""Expeditionen, rule by rule (``templates/rules/expeditionen.html``), on stacked decks.

``start`` deals a stacked deck with ``first=0``: seat 0 is the non-dealer and moves first.
Hands not named in full are filled, and the draw pile continued, in ``deck_for`` order.

Round ends are reached without 30 turns by hand: ``last_draw`` builds a state directly
through the dataclass (states are plain data), with the draw pile down to one card and
the seat to move in its draw step; drawing that card ends the round.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from typing import Any

import pytest

from engine import IllegalAction, InvalidAction, Outcome, get_game
from engine.cards import SUITS, suit
from engine.expeditionen import (
    ALL_CODES,
    ExpeditionenState,
    breakdown,
    deck_for,
    expedition_score,
    may_play,
    play_refusal,
    shuffled,
)

GAME = get_game("expeditionen")


def stacked(
    hand0: Sequence[str] = (),
    hand1: Sequence[str] = (),
    draw: Sequence[str] = (),
    aces: bool = False,
) -> list[str]:
    """A full deck: seat 0 (non-dealer) gets deck[0], deck[2], ..., seat 1 the odd places."""
    named = {*hand0, *hand1, *draw}
    rest = [card for card in deck_for(aces) if card not in named]
    hands = [list(hand0), list(hand1)]
    for hand in hands:
        while len(hand) < 8:
            hand.append(rest.pop(0))
    dealt = [card for pair in zip(hands[0], hands[1], strict=True) for card in pair]
    return [*dealt, *draw, *rest]


def start(
    hand0: Sequence[str] = (), hand1: Sequence[str] = (), draw: Sequence[str] = (), **options: Any
) -> ExpeditionenState:
    deck = stacked(hand0, hand1, draw, aces=options.get("with_aces", False))
    state: ExpeditionenState = GAME.new(seed=1, options={"first": 0, **options}, deck=deck)
    return state


def act(state: ExpeditionenState, *moves: str) -> ExpeditionenState:
    """Each move by the seat to move, in notation: ``act(state, "play 7H", "draw deck")``."""
    for move in moves:
        state = GAME.apply(state, GAME.to_move(state), GAME.parse_notation(move))
    return state


def refused(state: ExpeditionenState, move: str, code: str = "illegal", seat: int = -1) -> str:
    """Apply must refuse the move with this code and leave the state as it was."""
    before = json.dumps(state.to_json())
    mover = GAME.to_move(state) if seat < 0 else seat
    action = GAME.parse_notation(move)
    with pytest.raises(IllegalAction) as refusal:
        GAME.apply(state, mover, action)
    assert refusal.value.code == code
    assert json.dumps(state.to_json()) == before
    return refusal.value.message


def listed(state: ExpeditionenState) -> list[str]:
    return [GAME.notation(action) for action in GAME.legal_actions(state, GAME.to_move(state))]


def by_suit(cards: Sequence[str]) -> dict[str, list[str]]:
    return {s: [card for card in cards if suit(card) == s] for s in SUITS}


def past(scores: Sequence[tuple[int, int]]) -> list[dict[str, Any]]:
    """Finished rounds with these scores (empty expeditions: only the scores matter here)."""
    empty = {s: breakdown([]) for s in SUITS}
    return [
        {"round": n, "dealer": 1, "scores": list(pair), "expeditions": [empty, empty]}
        for n, pair in enumerate(scores, start=1)
    ]


def last_draw(
    table0: Sequence[str] = (),
    table1: Sequence[str] = (),
    *,
    dealer: int = 1,
    finished: Sequence[tuple[int, int]] = (),
    rounds: int = 3,
) -> ExpeditionenState:
    """The non-dealer has played and must draw the last card of the draw pile.

    ``table0``/``table1`` are the expeditions of seat 0/1 in play order; every other card
    is in a hand, on the draw pile (one card) or discarded, so all 48 are there.
    """
    rest = [card for card in deck_for(False) if card not in {*table0, *table1}]
    mover = 1 - dealer
    hands = [rest[0:8], rest[8:16]]
    played = hands[mover].pop()
    return ExpeditionenState(
        seed=1,
        with_aces=False,
        rounds=rounds,
        round=len(finished) + 1,
        dealer=dealer,
        to_move=mover,
        phase="draw",
        hands=hands,
        expeditions=[by_suit(table0), by_suit(table1)],
        discards=by_suit([played, *rest[17:]]),
        draw_pile=[rest[16]],
        discarded=None,
        finished=past(finished),
    )


def end_round(state: ExpeditionenState) -> ExpeditionenState:
    return act(state, "draw deck")


WIN = ["6H", "7H", "8H", "9H"]  # a side of a round that scores 30 - 20 = 10


# Cards


def test_deck_has_48_cards_two_to_ten_and_three_wagers_per_suit() -> None:
    deck = deck_for(False)
    assert len(deck) == len(set(deck)) == 48
    for s in SUITS:
        assert sorted(c[:-1] for c in deck if suit(c) == s) == sorted(
            [*map(str, range(2, 11)), "J", "Q", "K"]
        )


def test_with_aces_adds_the_four_aces_for_52_cards() -> None:
    deck = deck_for(True)
    assert len(deck) == len(set(deck)) == 52
    assert set(deck) - set(deck_for(False)) == {"AS", "AH", "AD", "AC"}
    state = GAME.new(seed=3, options={"with_aces": True})
    assert len(state.draw_pile) == 52 - 16


# Setup of a round


def test_deal_is_eight_each_alternately_starting_with_the_non_dealer() -> None:
    deck = deck_for(False)
    random.Random(5).shuffle(deck)
    state = GAME.new(seed=1, options={"first": 0}, deck=deck)
    assert state.dealer == 1
    assert GAME.view(state, 0)["hand"] == sorted(deck[0:16:2], key=deck_for(False).index)
    assert GAME.view(state, 1)["hand"] == sorted(deck[1:16:2], key=deck_for(False).index)
    assert state.draw_pile == deck[16:]


def test_deck_16_is_the_top_of_the_draw_pile() -> None:
    state = start(["7H"], draw=["2C"])
    state = act(state, "discard 7H", "draw deck")
    assert "2C" in GAME.view(state, 0)["hand"]
    assert GAME.view(state, 0)["draw_pile"] == 48 - 16 - 1


def test_non_dealer_moves_first() -> None:
    state = start()
    assert GAME.to_move(state) == 0 and state.dealer == 1
    assert GAME.view(state, 0)["phase"] == "play"


def test_discard_piles_start_empty() -> None:
    view = GAME.view(start(), 0)
    assert all(pile == {"top": None, "size": 0} for pile in view["discards"].values())


@pytest.mark.parametrize(
    "deck",
    [
        deck_for(False)[:-1],
        deck_for(False)[:-1] + ["2S"],
        deck_for(False)[:-1] + ["AS"],
        deck_for(True),
    ],
    ids=["47 cards", "a duplicate", "an ace without aces", "52 cards without aces"],
)
def test_stacked_deck_must_hold_exactly_the_cards_of_the_game(deck: list[str]) -> None:
    with pytest.raises(ValueError, match="48 cards"):
        GAME.new(seed=1, deck=deck)


def test_stacked_deck_with_aces_holds_52_cards() -> None:
    with pytest.raises(ValueError, match="52 cards"):
        GAME.new(seed=1, options={"with_aces": True}, deck=deck_for(False))
    assert len(GAME.new(seed=1, options={"with_aces": True}, deck=deck_for(True)).hands[0]) == 8


def test_first_option_fixes_starting_player() -> None:
    for first in (0, 1):
        for seed in range(5):
            state = GAME.new(seed=seed, options={"first": first})
            assert GAME.to_move(state) == first
            assert state.dealer == 1 - first


def test_seed_draws_the_dealer_of_round_one_by_default() -> None:
    starters = {GAME.to_move(GAME.new(seed=seed)) for seed in range(20)}
    assert starters == {0, 1}
    assert GAME.new(seed=7) == GAME.new(seed=7)
    for seed in range(20):
        state = GAME.new(seed=seed)
        assert state.dealer == 1 - GAME.to_move(state)


# A turn: play to your expedition


def test_first_card_of_a_suit_starts_the_expedition() -> None:
    state = act(start(["9H"]), "play 9H")
    assert GAME.view(state, 0)["expeditions"][0]["H"]["cards"] == ["9H"]


def test_expedition_must_be_strictly_ascending() -> None:
    state = start(["5H", "7H", "4H", "8H"], ["3C", "4C"])
    state = act(state, "play 5H", "draw deck", "discard 3C", "draw deck", "play 7H", "draw deck")
    state = act(state, "discard 4C", "draw deck")
    message = refused(state, "play 4H")
    assert "higher than 7H" in message
    assert "play 4H" not in listed(state)
    assert "play 8H" in listed(state)


def test_gaps_are_allowed() -> None:
    state = act(start(["2H", "10H"], ["3C"]), "play 2H", "draw deck", "discard 3C", "draw deck")
    state = act(state, "play 10H")
    assert state.expeditions[0]["H"] == ["2H", "10H"]


def test_wager_only_before_first_number_card() -> None:
    state = act(start(["4H", "JH"], ["3C"]), "play 4H", "draw deck", "discard 3C", "draw deck")
    assert "play JH" not in listed(state)
    assert "wager" in refused(state, "play JH")


def test_several_wagers_may_follow_each_other() -> None:
    state = start(["KH", "JH", "QH", "2H"])
    for card in ("KH", "JH", "QH", "2H"):
        state = act(state, f"play {card}", "draw deck", "discard " + state.hands[1][0], "draw deck")
    assert state.expeditions[0]["H"] == ["KH", "JH", "QH", "2H"]


def test_wagers_are_interchangeable() -> None:
    for first, then in (("JH", "KH"), ("KH", "JH"), ("QH", "JH")):
        state = act(
            start([first, then], ["2C"]), f"play {first}", "draw deck", "discard 2C", "draw deck"
        )
        assert f"play {then}" in listed(state)


def test_any_number_card_may_follow_the_wagers() -> None:
    state = act(start(["KH", "2H"], ["3C"]), "play KH", "draw deck", "discard 3C", "draw deck")
    assert "play 2H" in listed(state)


def test_expeditions_of_the_two_players_are_independent() -> None:
    state = act(start(["9H"], ["2H"]), "play 9H", "draw deck")
    assert "play 2H" in listed(state)
    state = act(state, "play 2H")
    assert state.expeditions == [by_suit(["9H"]), by_suit(["2H"])]


# A turn: or discard


def test_discard_goes_face_up_onto_its_suits_pile() -> None:
    state = act(start(["9H", "4H"], ["2C"]), "discard 9H", "draw deck", "discard 2C", "draw deck")
    state = act(state, "discard 4H")
    pile = GAME.view(state, 1)["discards"]["H"]
    assert pile == {"top": "4H", "size": 2}


def test_any_card_may_be_discarded() -> None:
    state = start()
    discards = [move for move in listed(state) if move.startswith("discard")]
    assert sorted(move.split()[1] for move in discards) == sorted(state.hands[0])


# A turn: two steps in order, then draw


def test_turn_is_play_then_draw() -> None:
    state = start(["9H"])
    assert "First play or discard" in refused(state, "draw deck")
    state = act(state, "play 9H")
    assert GAME.view(state, 0)["phase"] == "draw" and GAME.to_move(state) == 0
    assert "Draw a card first" in refused(state, "discard " + state.hands[0][0])
    assert all(move.startswith("draw") for move in listed(state))


def test_draw_from_a_discard_pile_takes_its_top_card() -> None:
    state = act(start(["9H", "2C"], ["4H"]), "discard 9H", "draw deck", "discard 4H", "draw deck")
    state = act(state, "discard 2C", "draw H")
    assert "4H" in state.hands[0]
    assert GAME.view(state, 0)["discards"]["H"] == {"top": "9H", "size": 1}


def test_cannot_draw_the_card_just_discarded() -> None:
    state = act(start(["9H"]), "discard 9H")
    assert GAME.view(state, 0)["discarded"] == "9H"
    assert listed(state) == ["draw deck"]
    assert "just discarded 9H" in refused(state, "draw H")


def test_cannot_draw_from_a_pile_whose_top_was_just_discarded() -> None:
    state = act(start(["9H"], ["4H"]), "discard 9H", "draw deck")
    state = act(state, "discard 4H")
    assert "draw H" not in listed(state)
    refused(state, "draw H")


def test_card_discarded_in_an_earlier_turn_may_be_drawn() -> None:
    state = act(start(["9H"], ["2C"]), "discard 9H", "draw deck", "discard 2C")
    assert "draw H" in listed(state)


def test_cannot_draw_from_an_empty_discard_pile() -> None:
    state = act(start(["9H"]), "play 9H")
    assert "empty" in refused(state, "draw S")


def test_hand_holds_eight_cards_after_every_turn() -> None:
    state = act(start(["9H"], ["2C"]), "play 9H", "draw deck", "discard 2C", "draw deck")
    assert GAME.view(state, 0)["hand_counts"] == [8, 8]


def test_turn_passes_after_the_draw() -> None:
    state = act(start(["9H"]), "play 9H")
    assert GAME.to_move(state) == 0
    assert GAME.to_move(act(state, "draw deck")) == 1


# End of a round


def test_round_ends_when_last_card_drawn() -> None:
    state = start()
    turns = 0
    while state.round == 1:
        state = act(state, "discard " + state.hands[state.to_move][0], "draw deck")
        turns += 1
    assert turns == 48 - 16
    assert state.finished[0]["scores"] == [0, 0]


def test_nobody_plays_after_the_last_draw() -> None:
    state = end_round(last_draw(["9H"], []))
    assert state.round == 2
    assert state.expeditions == [by_suit([]), by_suit([])]
    assert state.finished[0]["expeditions"][0]["H"]["ranks"] == ["9"]


def test_cards_in_hand_count_for_nothing() -> None:
    state = end_round(last_draw(["9H", "10H"], []))
    assert state.finished[0]["scores"] == [-1, 0]


# Scoring a round


def test_seed_example_scores_35() -> None:
    spades = ["JS", "3S", "6S"]
    hearts = ["KH", "QH", "4H", "7H", "9H", "10H"]
    diamonds = ["2D", "5D", "6D", "7D", "8D", "9D", "10D"]
    assert [expedition_score(x) for x in (spades, hearts, diamonds, [])] == [-22, 30, 27, 0]
    state = end_round(last_draw([*spades, *hearts, *diamonds], []))
    assert state.finished[0]["scores"] == [35, 0]


def test_expedition_is_sum_minus_20() -> None:
    assert expedition_score(["7C", "9C"]) == 16 - 20


def test_each_wager_multiplies_once_more() -> None:
    numbers = ["8C", "9C", "10C"]  # 27 - 20 = 7
    assert [expedition_score([*w, *numbers]) for w in ([], ["JC"], ["JC", "QC"])] == [7, 14, 21]
    assert expedition_score(["JC", "QC", "KC", *numbers]) == 28


def test_expedition_of_wagers_only_scores_minus_20_multiplied() -> None:
    assert expedition_score(["JC", "KC"]) == -60


def test_unstarted_suits_score_zero() -> None:
    assert expedition_score([]) == 0
    assert end_round(last_draw([], [])).finished[0]["scores"] == [0, 0]


def test_round_score_may_be_negative() -> None:
    assert end_round(last_draw(["JS", "2S"], ["3D"])).finished[0]["scores"] == [-36, -17]


def test_eight_card_bonus_is_not_multiplied() -> None:
    eight = ["JD", "2D", "3D", "4D", "5D", "6D", "7D", "8D"]  # 35 - 20 = 15, x2, + 20
    assert expedition_score(eight) == 50
    assert breakdown(eight)["bonus"] == 20
    assert expedition_score(eight[:-1]) == (27 - 20) * 2


def test_eight_card_bonus_counts_the_wagers() -> None:
    assert expedition_score(["JD", "QD", "KD", "2D", "3D", "4D", "5D", "6D"]) == 0 * 4 + 20


# The match


def test_round_winner_deals_next() -> None:
    for winner in (0, 1):
        tables = [WIN, []] if winner == 0 else [[], WIN]
        state = end_round(last_draw(*tables, dealer=1))
        assert state.dealer == winner
        assert GAME.to_move(state) == 1 - winner, "the loser starts"


def test_tied_round_alternates_the_deal() -> None:
    for dealer in (0, 1):
        state = end_round(last_draw([], [], dealer=dealer))
        assert state.finished[-1]["scores"] == [0, 0]
        assert state.dealer == 1 - dealer


def test_later_rounds_are_shuffled_from_the_seed_and_round_number() -> None:
    state = end_round(last_draw(WIN, []))
    deck = shuffled(1, 2, False)
    assert state.hands[1] == deck[0:16:2] and state.hands[0] == deck[1:16:2]
    assert state.draw_pile == deck[16:]
    assert shuffled(1, 3, False) != deck


def test_match_has_three_rounds_and_higher_total_wins() -> None:
    state = end_round(last_draw([], WIN, finished=[(10, 0)]))
    assert not GAME.is_over(state) and state.round == 3
    state = end_round(last_draw(WIN, [], finished=[(10, 0), (0, 10)]))
    assert GAME.is_over(state)
    result = GAME.result(state)
    assert result.scores == (20, 10) and result.winner == 0
    assert [done["scores"] for done in result.details["rounds"]] == [[10, 0], [0, 10], [10, 0]]


def test_short_game_has_one_round() -> None:
    assert GAME.new(seed=1, options={"rounds": 1}).rounds == 1
    state = end_round(last_draw([], WIN, rounds=1))
    assert GAME.result(state) == Outcome((0, 10), 1, "higher_total", {"rounds": state.finished})


def test_tie_after_last_round_plays_tiebreak_rounds() -> None:
    state = end_round(last_draw([], [], finished=[(10, 0), (0, 10)]))
    assert not GAME.is_over(state)
    assert state.round == 4
    assert GAME.view(state, 0)["tiebreak"] == 1


def test_tiebreak_round_winner_wins_the_match() -> None:
    state = end_round(last_draw([], WIN, finished=[(10, 0), (0, 10), (5, 5)]))
    assert GAME.result(state).winner == 1


def test_tied_tiebreak_round_plays_another_up_to_three() -> None:
    state = end_round(last_draw([], [], finished=[(10, 10), (0, 0), (0, 0), (0, 0)]))
    assert not GAME.is_over(state) and state.round == 6
    assert GAME.view(state, 1)["tiebreak"] == 3


def test_three_tied_tiebreaks_is_a_draw() -> None:
    state = end_round(last_draw([], [], finished=[(10, 10), (0, 0), (0, 0), (0, 0), (3, 3)]))
    assert GAME.is_over(state)
    assert GAME.result(state).winner is None
    assert GAME.result(state).scores == (13, 13)
    assert GAME.result(state).to_json()["outcome"] == "draw"  # not a loss, as in a solo game


def test_short_game_tie_plays_the_same_tiebreak_rounds() -> None:
    state = end_round(last_draw([], [], rounds=1))
    assert not GAME.is_over(state) and state.round == 2
    state = end_round(last_draw([], [], rounds=1, finished=[(0, 0), (0, 0), (0, 0)]))
    assert GAME.is_over(state) and GAME.result(state).winner is None


# Options


def test_with_aces_ace_is_below_two() -> None:
    state = act(start(["AH", "2H"], ["3C"], with_aces=True), "play AH", "draw deck", "discard 3C")
    state = act(state, "draw deck")
    assert "play 2H" in listed(state)
    state = act(start(["AH", "2H"], ["3C"], with_aces=True), "play 2H", "draw deck", "discard 3C")
    state = act(state, "draw deck")
    assert "play AH" not in listed(state)


def test_with_aces_ace_is_above_the_wagers_and_counts_one() -> None:
    state = act(start(["JH", "AH"], ["3C"], with_aces=True), "play JH", "draw deck", "discard 3C")
    state = act(state, "draw deck")
    assert "play AH" in listed(state)
    state = act(start(["JH", "AH"], ["3C"], with_aces=True), "play AH", "draw deck", "discard 3C")
    state = act(state, "draw deck")
    assert "play JH" not in listed(state)
    assert expedition_score(["JH", "AH", "9H", "10H"]) == (20 - 20) * 2
    assert expedition_score(["AH"]) == -19


def test_options_are_with_aces_rounds_and_first() -> None:
    described = {option.name: option.describe() for option in GAME.options}
    assert described["with_aces"]["default"] is False
    assert described["rounds"]["choices"] == [1, 3] and described["rounds"]["default"] == 3
    assert described["first"]["choices"] == [None, 0, 1] and described["first"]["default"] is None
    assert all(set(d["label"]) == set(d["help"]) == {"de", "en"} for d in described.values())


def test_presets_short_game_and_with_aces() -> None:
    assert {preset.name: preset.options for preset in GAME.presets} == {
        "short": {"rounds": 1},
        "aces": {"with_aces": True},
    }


# What each seat sees


def test_view_hides_opponent_hand() -> None:
    state = start()
    view = GAME.view(state, 0)
    text = json.dumps(view)
    assert view["hand"] == sorted(state.hands[0], key=deck_for(False).index)
    assert view["hand_counts"] == [8, 8]
    assert not [card for card in state.hands[1] if f'"{card}"' in text]
    assert not [card for card in state.draw_pile if f'"{card}"' in text]


def test_view_shows_only_the_top_of_each_discard_pile() -> None:
    state = act(start(["9H", "4H"], ["2C"]), "discard 9H", "draw deck", "discard 2C", "draw deck")
    state = act(state, "discard 4H", "draw deck")
    for seat in (0, 1, None):
        view = GAME.view(state, seat)
        assert view["discards"]["H"] == {"top": "4H", "size": 2}
        assert '"9H"' not in json.dumps(view)


def test_spectator_sees_no_hand() -> None:
    state = start()
    view = GAME.view(state, None)
    assert view["hand"] is None and view["hand_counts"] == [8, 8]
    text = json.dumps(view)
    assert not [card for hand in state.hands for card in hand if f'"{card}"' in text]


def test_view_shows_expeditions_in_play_order_with_their_scores() -> None:
    state = act(start(["KH", "9H"], ["2C"]), "play KH", "draw deck", "discard 2C", "draw deck")
    state = act(state, "play 9H", "draw deck")
    for seat in (0, 1, None):
        assert GAME.view(state, seat)["expeditions"][0]["H"] == {
            "cards": ["KH", "9H"],
            "score": -22,
            "multiplier": 2,  # (9 - 20) x (1 + one wager)
        }
        empty = {"cards": [], "score": 0, "multiplier": 1}
        assert GAME.view(state, seat)["expeditions"][0]["S"] == empty


def test_view_shows_round_turn_step_and_dealer() -> None:
    view = GAME.view(act(start(["9H"]), "play 9H"), 1)
    assert (view["round"], view["rounds"], view["tiebreak"]) == (1, 3, 0)
    assert (view["dealer"], view["to_move"], view["phase"]) == (1, 0, "draw")
    assert view["draw_pile"] == 32 and view["discarded"] is None


def test_view_keeps_the_finished_rounds_breakdown() -> None:
    state = end_round(last_draw(["JS", "3S", "6S"], ["2D"], dealer=0))
    done = GAME.view(state, 1)["finished"][0]
    assert done["scores"] == [-22, -18] and done["dealer"] == 0
    assert done["expeditions"][0]["S"] == {
        "ranks": ["J", "3", "6"],
        "sum": 9,
        "wagers": 1,
        "multiplier": 2,
        "bonus": 0,
        "score": -22,
    }
    assert GAME.view(state, 1)["totals"] == [-22, -18]


def test_view_never_contains_the_seed() -> None:
    state = GAME.new(seed=424242)
    for seat in (0, 1, None):
        for reveal in (False, True):
            view = GAME.view(state, seat, reveal=reveal)
            assert "seed" not in json.dumps(view) and "424242" not in json.dumps(view)


def test_reveal_shows_both_hands_the_full_piles_and_the_draw_pile() -> None:
    state = act(start(["9H", "4H"], ["2C"]), "discard 9H", "draw deck", "discard 2C", "draw deck")
    state = act(state, "discard 4H", "draw deck")
    view = GAME.view(state, None, reveal=True)
    assert view["hands"] == [sorted(h, key=deck_for(False).index) for h in state.hands]
    assert view["discards"]["H"]["cards"] == ["9H", "4H"]
    assert view["draw_pile_cards"] == state.draw_pile


def test_result_is_none_while_running() -> None:
    state = start()
    assert GAME.result(state) is None and GAME.view(state, 0)["result"] is None
    over = end_round(last_draw(WIN, [], rounds=1))
    assert GAME.view(over, 0)["result"] == GAME.result(over).to_json()
    assert GAME.to_move(over) is None and GAME.view(over, 0)["to_move"] is None


# What a move reveals: only a move that reveals nothing may be taken back


def reveals(state: ExpeditionenState, move: str) -> bool:
    return GAME.reveals(state, GAME.parse_notation(move))


def test_playing_a_card_before_drawing_can_be_taken_back() -> None:
    assert not reveals(start(["9H"]), "play 9H")


def test_discarding_a_card_before_drawing_can_be_taken_back() -> None:
    state = act(start(["9H", "5H"], ["4H"]), "discard 9H", "draw deck", "discard 4H", "draw deck")
    assert not reveals(start(["9H"]), "discard 9H")
    assert not reveals(state, "discard 5H"), "covering a pile's top hides, it shows nothing"


def test_a_draw_from_the_draw_pile_cannot_be_taken_back() -> None:
    assert reveals(act(start(["9H"]), "play 9H"), "draw deck")


def test_a_draw_from_a_discard_pile_uncovers_the_card_beneath_and_cannot_be_taken_back() -> None:
    state = act(start(["9H", "2C"], ["4H"]), "discard 9H", "draw deck", "discard 4H", "draw deck")
    state = act(state, "discard 2C")
    assert GAME.view(state, 0)["discards"]["H"] == {"top": "4H", "size": 2}
    assert reveals(state, "draw H")


def test_a_draw_of_a_discard_pile_s_only_card_can_be_taken_back() -> None:
    state = act(start(["9H"]), "discard 9H", "draw deck")
    state = act(state, "discard " + state.hands[1][0])
    assert GAME.view(state, 1)["discards"]["H"] == {"top": "9H", "size": 1}
    assert not reveals(state, "draw H")


def test_the_last_draw_that_ends_the_match_cannot_be_taken_back() -> None:
    last = last_draw(WIN, [], rounds=1)
    assert GAME.is_over(end_round(last))
    assert reveals(last, "draw deck")


# Actions and their refusals


@pytest.mark.parametrize(
    "action",
    [
        None,
        "play 9H",
        {},
        {"type": "pass"},
        {"type": "play"},
        {"type": "play", "card": "1H"},
        {"type": "play", "card": 9},
        {"type": "play", "card": "JK"},
        {"type": "play", "card": "9H", "extra": 1},
        {"type": "discard", "source": "H"},
        {"type": "draw", "source": "X"},
        {"type": "draw", "card": "9H"},
    ],
)
def test_action_of_the_wrong_shape_is_malformed(action: Any) -> None:
    with pytest.raises(InvalidAction) as refusal:
        GAME.apply(start(), 0, action)
    assert refusal.value.code == "malformed"


def test_only_the_seat_to_move_may_act() -> None:
    state = start(["9H"], ["4H"])
    assert GAME.legal_actions(state, 1) == []
    refused(state, "play 4H", "not_your_turn", seat=1)


def test_no_action_after_the_match_is_over() -> None:
    over = end_round(last_draw(WIN, [], rounds=1))
    assert GAME.legal_actions(over, over.to_move) == []
    refused(over, "discard " + over.hands[0][0], "game_over", seat=0)


def test_card_must_be_in_your_hand() -> None:
    state = start(["9H"], ["4H"])
    assert refused(state, "play 4H") == "You do not hold 4H."
    refused(state, "discard 4H")


def test_apply_does_not_mutate_its_input() -> None:
    state = start(["9H"])
    before = state.to_json()
    after = act(state, "play 9H", "draw deck")
    assert state.to_json() == before and after != state
    ended = last_draw(WIN, [])
    before = ended.to_json()
    end_round(ended)
    assert ended.to_json() == before


def test_state_round_trips_through_json() -> None:
    state = end_round(last_draw(WIN, []))
    state = act(state, "discard " + state.hands[1][0])
    assert GAME.state_from_json(json.loads(json.dumps(state.to_json()))) == state
    assert state.clone() == state


def test_notation_round_trips() -> None:
    for text in ("play 7H", "discard QS", "draw deck", "draw H", "play 10C", "play AD"):
        assert GAME.notation(GAME.parse_notation(text)) == text
    assert GAME.parse_notation("draw H") == {"type": "draw", "source": "H"}
    assert GAME.parse_notation("play 7H") == {"type": "play", "card": "7H"}


@pytest.mark.parametrize("text", ["", "play", "play 7H now", "draw X", "take 7H", "play 11H"])
def test_parse_notation_refuses_junk(text: str) -> None:
    with pytest.raises(InvalidAction):
        GAME.parse_notation(text)


def test_registered_with_title_and_two_seats() -> None:
    assert GAME.title == {"de": "Expeditionen", "en": "Expeditions"}
    assert GAME.seats == 2


def test_a_card_may_be_played_exactly_when_no_refusal_gives_a_reason() -> None:
    """``may_play``, which the legal actions ask, says what ``play_refusal`` says."""
    for card in ALL_CODES:
        for below in [[], *([last] for last in ALL_CODES if suit(last) == suit(card))]:
            assert may_play(below, card) == (play_refusal(below, card) is None), (below, card)
