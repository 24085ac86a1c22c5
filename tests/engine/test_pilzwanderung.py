"""Pilzwanderung, rule by rule (``shared/rules/pilzwanderung.md``), on stacked decks.

``start`` deals a stacked deck with ``first=0`` (setup tests). Most tests start in the
middle of a game: ``table`` builds a state directly through the dataclass (states are plain
data) with the named forest, hands, piles and displays; every other card of the deck lies
on the draw pile (or, when ``draw`` is given, on the discard pile), so every card is there.
``PLAIN`` is a forest of eight single mushrooms, one of each kind 2..9.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import pytest

from engine import IllegalAction, get_game
from engine.pilzwanderung import (
    START_PAN,
    PilzwanderungState,
    deck_for,
    night_deck,
    role_key,
)

GAME = get_game("pilzwanderung")
XX = START_PAN
PLAIN = ["2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S"]
SINGLES = ["2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H"]  # a full hand with nothing to do


def without(cards: Sequence[str], named: Sequence[str]) -> list[str]:
    """``cards`` less one card of the same role (the same code if there) for each named one."""
    rest = list(cards)
    for card in named:
        if card in rest:
            rest.remove(card)
        else:
            rest.remove(next(other for other in rest if role_key(other) == role_key(card)))
    return rest


def stacked(
    forest: Sequence[str] = (),
    deal0: Sequence[str] = (),
    deal1: Sequence[str] = (),
    draw: Sequence[str] = (),
    counts: str = "standard",
) -> list[str]:
    """A full forest deck: positions 1..8, the deal (seat 0 first), ``draw``, the rest."""
    rest = without(deck_for(counts), [*forest, *deal0, *deal1, *draw])
    parts = [list(forest), list(deal0), list(deal1)]
    for part, size in zip(parts, (8, 3, 3), strict=True):
        while len(part) < size:
            part.append(rest.pop(0))
    dealt = [card for pair in zip(parts[1], parts[2], strict=True) for card in pair]
    return [*parts[0], *dealt, *draw, *rest]


def start(
    forest: Sequence[str] = (),
    deal0: Sequence[str] = (),
    deal1: Sequence[str] = (),
    draw: Sequence[str] = (),
    night: list[str] | None = None,
    **options: Any,
) -> PilzwanderungState:
    deck = stacked(forest, deal0, deal1, draw, options.get("counts", "standard"))
    state: PilzwanderungState = GAME.new(
        seed=1, options={"first": 0, **options}, deck=deck, night=night
    )
    return state


def table(
    forest: Sequence[str] = PLAIN,
    hand0: Sequence[str] = (),
    hand1: Sequence[str] = (),
    *,
    draw: Sequence[str] | None = None,
    decay: Sequence[str] = (),
    night: Sequence[str] | None = None,
    to_move: int = 0,
    sticks: tuple[int, int] = (0, 0),
    pans: Sequence[Sequence[str]] = ((XX,), (XX,)),
    baskets: Sequence[Sequence[str]] = ((), ()),
    poison: Sequence[Sequence[str]] = ((), ()),
    dishes: Sequence[Sequence[str]] = ((), ()),
    counts: str = "standard",
    night_cards: str = "open",
) -> PilzwanderungState:
    """A game in progress, seat ``to_move`` to act. Poison mushrooms named here were taken
    in their owner's previous turn (they last one more turn-end)."""
    named = [*forest, *hand0, *hand1, *(draw or ()), *decay]
    for side in (*pans, *baskets, *poison, *dishes):
        named += side
    named = [card for card in named if card != XX and not card.startswith("N")]
    rest = without(deck_for(counts), named)
    nights_out = [card for card in [*hand0, *hand1, *dishes[0], *dishes[1]] if card[0] == "N"]
    return PilzwanderungState(
        seed=1,
        counts=counts,
        night_cards=night_cards,
        card_faces="playing_cards",
        first=0,
        to_move=to_move,
        phase="turn",
        forest=list(forest),
        decay=list(decay),
        draw_pile=rest if draw is None else list(draw),
        night_deck=list(night) if night is not None else without(night_deck(), nights_out),
        discard=[] if draw is None else rest,
        hands=[list(hand0), list(hand1)],
        pans=[list(side) for side in pans],
        dishes=[list(side) for side in dishes],
        baskets=[list(side) for side in baskets],
        poison=[list(side) for side in poison],
        poison_turns=[[1] * len(side) for side in poison],
        sticks=list(sticks),
        skipped=[],
    )


def act(state: PilzwanderungState, *moves: str) -> PilzwanderungState:
    """Each move by the seat to move, in notation: ``act(state, "take 1", "decay")``."""
    for move in moves:
        seat = GAME.to_move(state)
        assert seat is not None, f"{move}: the game is over"
        state = GAME.apply(state, seat, GAME.parse_notation(move))
    return state


def refused(state: PilzwanderungState, move: str, code: str = "illegal", seat: int = -1) -> str:
    """Apply must refuse the move with this code and leave the state as it was."""
    before = json.dumps(state.to_json())
    mover = state.to_move if seat < 0 else seat
    with pytest.raises(IllegalAction) as refusal:
        GAME.apply(state, mover, GAME.parse_notation(move))
    assert refusal.value.code == code
    assert json.dumps(state.to_json()) == before
    return refusal.value.message


def listed(state: PilzwanderungState) -> list[str]:
    return [GAME.notation(action) for action in GAME.legal_actions(state, state.to_move)]


def shown(state: PilzwanderungState, seat: int | None = 0) -> dict[str, Any]:
    view: dict[str, Any] = GAME.view(state, seat)
    return view


def cooks(state: PilzwanderungState, rank: int, day: int, night: int) -> set[tuple[int, int]]:
    """The (butter, cider) pairs listed for cooking these mushrooms into the display's pan."""
    return {
        (action["butter"], action["cider"])
        for action in GAME.legal_actions(state, state.to_move)
        if action["type"] == "cook"
        and (action["rank"], action["day"], action["night"], action["pan"])
        == (rank, day, night, "display")
    }


# Cards


def test_forest_deck_has_81_cards_by_the_table() -> None:
    deck = deck_for("standard")
    assert len(deck) == 81
    kinds = {kind: sum(1 for card in deck if role_key(card) == kind) for kind in range(2, 11)}
    assert kinds == {2: 7, 3: 7, 4: 6, 5: 5, 6: 5, 7: 4, 8: 4, 9: 4, 10: 3}
    roles = {role: sum(1 for card in deck if role_key(card) == role) for role in
             ("butter", "cider", "basket", "poison", "moon", "pan")}
    assert roles == {"butter": 4, "cider": 4, "basket": 4, "poison": 4, "moon": 8, "pan": 12}
    assert {card for card in deck if role_key(card) == "butter"} == {"QH", "QD"}
    assert {card for card in deck if role_key(card) == "cider"} == {"KH", "KD"}
    assert {card for card in deck if role_key(card) == "basket"} == {"QS", "QC"}
    assert {card for card in deck if role_key(card) == "poison"} == {"KS", "KC"}
    assert {card for card in deck if role_key(card) == "pan"} == {"JS", "JH", "JD", "JC", "JK"}


def test_original_counts_build_the_84_cards_of_morels() -> None:
    deck = deck_for("original")
    assert len(deck) == 84
    counts = {key: sum(1 for card in deck if role_key(card) == key) for key in
              (2, 3, "butter", "cider", "basket", "poison", "moon", "pan")}
    assert counts == {2: 10, 3: 8, "butter": 3, "cider": 3, "basket": 5, "poison": 5,
                      "moon": 8, "pan": 11}
    state = GAME.new(seed=4, options={"counts": "original"})
    everything = state.forest + state.draw_pile + state.discard
    everything += [card for hand in state.hands for card in hand if card[0] != "N"]
    everything += [card for side in state.baskets for card in side]
    assert sorted(everything) == sorted(deck)


def test_night_deck_is_one_card_of_each_kind_2_to_9() -> None:
    assert night_deck() == ["N2", "N3", "N4", "N5", "N6", "N7", "N8", "N9"]
    state = start(night=["N9", "N8", "N7", "N6", "N5", "N4", "N3", "N2"])
    assert state.night_deck == ["N9", "N8", "N7", "N6", "N5", "N4", "N3", "N2"]
    assert sorted(GAME.new(seed=3).night_deck) == sorted(night_deck())


def test_each_player_starts_with_one_pan_in_the_display_and_no_sticks() -> None:
    view = shown(start(), None)
    assert [side["pans"] for side in view["displays"]] == [[XX], [XX]]
    assert [side["sticks"] for side in view["displays"]] == [0, 0]
    assert [side["dishes"] for side in view["displays"]] == [[], []]


@pytest.mark.parametrize(
    "deck",
    [
        deck_for("standard")[:-1],
        deck_for("standard") + ["2S"],
        [*deck_for("standard")[:-1], "QS"],  # a thirteenth pan missing, a fifth basket
        [*deck_for("standard")[1:], "3S"],  # one 2 too few, one 3 too many
        [*deck_for("standard")[:-1], "N5"],
        [*deck_for("standard")[:-1], XX],
        deck_for("original"),
    ],
    ids=["80 cards", "82 cards", "a role swapped", "a kind swapped", "a night card",
         "a starting pan", "original counts"],
)
def test_stacked_deck_must_hold_the_cards_of_each_role(deck: list[str]) -> None:
    with pytest.raises(ValueError, match="81 cards"):
        GAME.new(seed=1, deck=deck)


def test_stacked_deck_suits_and_pan_cards_are_free() -> None:
    deck = [card.replace("S", "C") if card[0].isdigit() else card for card in deck_for("standard")]
    deck = ["JK" if card.startswith("J") else card for card in deck]
    assert GAME.new(seed=1, deck=deck).forest == deck[:8]
    assert len(GAME.new(seed=1, options={"counts": "original"}, deck=deck_for("original"))
               .draw_pile) == 84 - 8 - 6


@pytest.mark.parametrize(
    "night", [["N2", "N3"], [*night_deck()[:-1], "N10"], [*night_deck()[:-1], "N2"]]
)
def test_stacked_night_deck_holds_n2_to_n9(night: list[str]) -> None:
    with pytest.raises(ValueError, match="N2"):
        GAME.new(seed=1, night=night)


def test_cooking_points_and_stick_values_are_the_table_s() -> None:
    points = {}
    sticks = {}
    for kind in range(2, 11):
        cook = table(hand0=[f"{kind}S", f"{kind}H", f"{kind}D"])
        cook = act(cook, f"cook {kind} day3 night0 pan:display butter0 cider0")
        points[kind] = shown(cook)["displays"][0]["score"] // 3
        sell = act(table(hand0=[f"{kind}S", f"{kind}H"]), f"sell {kind} day2 night0")
        sticks[kind] = sell.sticks[0] // 2
    assert points == {2: 1, 3: 1, 4: 2, 5: 2, 6: 3, 7: 3, 8: 3, 9: 4, 10: 6}
    assert sticks == {2: 1, 3: 2, 4: 1, 5: 2, 6: 1, 7: 2, 8: 3, 9: 2, 10: 4}


# Setup


def test_deck_0_to_7_become_forest_positions_1_to_8() -> None:
    forest = ["10S", "9S", "QS", "AS", "KS", "JK", "QH", "2S"]
    state = start(forest)
    assert state.forest == forest
    assert [(spot["position"], spot["card"]) for spot in shown(state)["forest"]] == list(
        enumerate(forest, start=1)
    )


def test_deal_is_three_each_alternately_from_the_starting_player() -> None:
    deck = stacked(PLAIN, ["2H", "3H", "4H"], ["5H", "6H", "7H"], draw=["10S"])
    assert deck[8:14] == ["2H", "5H", "3H", "6H", "4H", "7H"]
    state = GAME.new(seed=1, options={"first": 0}, deck=deck)
    assert state.hands == [["2H", "3H", "4H"], ["5H", "6H", "7H"]]
    assert state.draw_pile[0] == "10S" and len(state.draw_pile) == 81 - 8 - 6
    second = GAME.new(seed=1, options={"first": 1}, deck=deck)
    assert second.hands == [["5H", "6H", "7H"], ["2H", "3H", "4H"]]
    assert GAME.to_move(second) == 1


def test_basket_dealt_goes_to_the_display_without_replacement() -> None:
    state = start(PLAIN, ["QS", "2H", "3H"])
    assert state.baskets[0] == ["QS"] and state.hands[0] == ["2H", "3H"]
    assert shown(state, 1)["displays"][0]["hand_limit"] == 10


def test_moon_dealt_is_discarded_for_the_top_night_card() -> None:
    night = ["N7", "N3", *without(night_deck(), ["N7", "N3"])]
    state = start(PLAIN, ["AS", "2H", "AH"], night=night)
    assert state.hands[0] == ["N7", "2H", "N3"]
    assert state.discard == ["AS", "AH"]
    assert len(state.night_deck) == 6


def test_poison_dealt_is_discarded_without_replacement() -> None:
    state = start(PLAIN, deal1=["KS", "2H", "KC"])
    assert state.hands[1] == ["2H"] and state.poison == [[], []]
    assert state.discard == ["KS", "KC"]


def test_first_option_fixes_the_starting_player() -> None:
    for first in (0, 1):
        for seed in range(5):
            state = GAME.new(seed=seed, options={"first": first})
            assert GAME.to_move(state) == first and shown(state)["first"] == first


def test_seed_draws_the_starting_player_by_default() -> None:
    assert {GAME.to_move(GAME.new(seed=seed)) for seed in range(20)} == {0, 1}
    assert GAME.new(seed=7) == GAME.new(seed=7)


# A turn: take one card from the forest


def test_positions_1_and_2_are_free() -> None:
    state = table()
    assert [move for move in listed(state) if move.startswith("take")] == ["take 1", "take 2"]
    state = act(state, "take 2")
    assert state.hands[0] == ["3S"] and state.sticks[0] == 0


def test_deep_forest_costs_1_to_6_sticks() -> None:
    assert [spot["cost"] for spot in shown(table())["forest"]] == [0, 0, 1, 2, 3, 4, 5, 6]
    for position in range(3, 9):
        state = act(table(sticks=(6, 0)), f"take {position}")
        assert state.sticks[0] == 6 - (position - 2)
        assert state.hands[0] == [PLAIN[position - 1]]


def test_sticks_must_cover_the_cost() -> None:
    state = table(sticks=(2, 0))
    assert "take 4" in listed(state) and "take 5" not in listed(state)
    assert refused(state, "take 5") == "Position 5 costs 3 sticks; you have 2."


def test_taken_basket_goes_to_the_display_and_the_limit_grows_by_2_at_once() -> None:
    state = table(["QS", *PLAIN[1:]], SINGLES)
    assert "take 1" in listed(state) and "take 2" not in listed(state)
    state = act(state, "take 1")
    assert state.baskets[0] == ["QS"] and len(state.hands[0]) == 8
    assert shown(state)["displays"][0]["hand_limit"] == 10


def test_taken_moon_is_discarded_for_the_top_night_card() -> None:
    state = act(table(["AS", *PLAIN[1:]], night=["N6", "N2"]), "take 1")
    assert state.hands[0] == ["N6"] and state.night_deck == ["N2"]
    assert state.discard == ["AS"]


def test_moon_needs_room_for_its_night_card() -> None:
    state = table(["AS", *PLAIN[1:]], SINGLES)
    assert "take 1" not in listed(state)
    assert "does not fit" in refused(state, "take 1")


def test_moon_with_the_night_deck_empty_just_goes_to_the_discard_pile() -> None:
    state = table(["AS", *PLAIN[1:]], SINGLES, night=[])
    assert "take 1" in listed(state)
    state = act(state, "take 1")
    assert state.hands[0] == SINGLES and state.discard == ["AS"]


def test_hand_limit_is_8_plus_2_per_basket() -> None:
    assert shown(table())["displays"][0]["hand_limit"] == 8
    assert shown(table(baskets=(("QS", "QC"), ())))["displays"][0]["hand_limit"] == 12
    state = table(hand0=[*SINGLES, "10H", "10D"], baskets=(("QS",), ()))
    assert "does not fit" in refused(state, "take 1")
    assert "take 1" in listed(table(hand0=[*SINGLES, "10H"], baskets=(("QS",), ())))


def test_a_card_that_does_not_fit_cannot_be_taken() -> None:
    state = table(hand0=SINGLES)
    assert not [move for move in listed(state) if move.startswith("take")]
    assert refused(state, "take 1") == "Your hand is full (8 cards): that card does not fit."


def test_night_cards_count_as_hand_cards() -> None:
    state = table(hand0=[*SINGLES[:7], "N5"])
    assert shown(state, 1)["displays"][0]["hand_count"] == 8
    assert "does not fit" in refused(state, "take 1")


def test_baskets_poison_and_sticks_never_count_as_hand_cards() -> None:
    state = table(["KS", "QS", *PLAIN[2:]], SINGLES, baskets=(("QC",), ()), sticks=(5, 0))
    assert shown(state)["displays"][0]["hand_count"] == 8
    assert listed(state)[:2] == ["take 1", "take 2"]


# After every turn


def test_the_card_at_the_feet_falls_to_the_decay_pile_the_forest_closes_and_refills() -> None:
    state = act(table(draw=["10H", "10D", "2H"]), "take 2")
    assert state.decay == ["2S"]
    assert state.forest == ["4S", "5S", "6S", "7S", "8S", "9S", "10H", "10D"]
    assert state.draw_pile == ["2H"]


def test_taking_position_1_lets_position_2_fall() -> None:
    state = act(table(draw=["10H", "10D"]), "take 1")
    assert state.decay == ["3S"] and state.hands[0] == ["2S"]
    assert state.forest == [*PLAIN[2:], "10H", "10D"]


@pytest.mark.parametrize(
    ("hand", "move"),
    [(["2H", "2D"], "sell 2 day2 night0"), (["JH"], "pan"), (["3H", "3D", "3C"],
      "cook 3 day3 night0 pan:display butter0 cider0")],
    ids=["sell", "place a pan", "cook"],
)
def test_end_of_turn_steps_follow_every_action(hand: list[str], move: str) -> None:
    state = act(table(hand0=hand), move)
    assert state.decay == ["2S"] and state.forest[0] == "3S" and len(state.forest) == 8
    assert GAME.to_move(state) == 1


def test_decay_pile_holds_at_most_4_a_fifth_card_flushes_the_old_four() -> None:
    state = table(decay=["2H", "3H", "4H", "5H"])
    assert state.discard == []
    state = act(state, "take 1")
    assert state.decay == ["3S"]
    assert state.discard == ["2H", "3H", "4H", "5H"]
    assert shown(state)["discard"] == {"top": "5H", "size": 4}


def test_decay_pile_grows_to_4_cards() -> None:
    state = act(table(), "take 1", "take 1", "take 1")
    assert state.decay == ["3S", "5S", "7S"]
    state = act(state, "take 1")
    assert state.decay == ["3S", "5S", "7S", "9S"]


def test_forest_shrinks_when_the_draw_pile_is_empty() -> None:
    state = act(table(draw=["10H"]), "take 1")
    assert len(state.forest) == 7 and state.draw_pile == []
    state = act(state, "take 1")
    assert len(state.forest) == 5
    assert [spot["cost"] for spot in shown(state)["forest"]] == [0, 0, 1, 2, 3]


def test_game_ends_at_once_when_the_last_forest_card_is_taken() -> None:
    state = act(table(["9S"], draw=[], decay=["2H"]), "take 1")
    assert GAME.is_over(state) and GAME.to_move(state) is None
    assert state.decay == ["2H"] and state.hands[0] == ["9S"]


def test_game_ends_when_the_last_forest_card_falls_onto_the_decay_pile() -> None:
    state = act(table(["9S"], ["2H", "2D"], draw=[]), "sell 2 day2 night0")
    assert GAME.is_over(state) and state.decay == ["9S"] and state.forest == []
    assert shown(state)["phase"] == "over" and shown(state)["to_move"] is None


# A turn: take the whole decay pile


def test_take_the_whole_decay_pile() -> None:
    state = act(table(hand0=["2H"], decay=["9H", "JK", "QD"]), "decay")
    assert state.hands[0] == ["2H", "9H", "JK", "QD"]
    assert state.decay == ["2S"], "the forest card falls onto the emptied decay pile"


def test_empty_decay_pile_cannot_be_taken() -> None:
    state = table()
    assert "decay" not in listed(state)
    assert refused(state, "decay") == "The decay pile is empty."


def test_decay_pile_baskets_moons_and_poison_are_handled_as_from_the_forest() -> None:
    state = table(hand0=["2H", "3H"], decay=["AS", "QS", "KS", "9H"], night=["N4", "N8"])
    state = act(state, "decay")
    assert state.baskets[0] == ["QS"] and state.poison[0] == ["KS"]
    assert state.hands[0] == ["2H", "3H", "N4", "9H"]
    assert state.discard == ["AS"] and state.night_deck == ["N8"]
    assert GAME.to_move(state) == 1, "4 cards: within 4 + 2 for the basket, nothing to discard"


def test_decay_pile_only_if_everything_fits() -> None:
    state = table(hand0=SINGLES[:7], decay=["9H", "9D"])
    assert "decay" not in listed(state)
    assert "does not fit" in refused(state, "decay")
    assert "decay" in listed(table(hand0=SINGLES[:6], decay=["9H", "9D"]))


def test_baskets_in_the_decay_pile_count_first() -> None:
    assert "decay" in listed(table(hand0=SINGLES, decay=["9D", "QS", "10D"]))
    assert "decay" not in listed(table(hand0=SINGLES, decay=["9D", "QS", "10D", "10H"]))
    state = act(table(hand0=SINGLES, decay=["9D", "QS", "QC", "10H"]), "decay")
    assert len(state.hands[0]) == 10 and state.baskets[0] == ["QS", "QC"]


def test_decay_pile_moon_needs_room_only_while_the_night_deck_has_a_card() -> None:
    assert "decay" not in listed(table(hand0=SINGLES, decay=["AS"]))
    assert "decay" in listed(table(hand0=SINGLES, decay=["AS"], night=[]))
    two_moons = ["AS", "AH"]
    assert "decay" not in listed(table(hand0=SINGLES[:7], decay=two_moons, night=["N2", "N3"]))
    state = act(table(hand0=SINGLES[:7], decay=two_moons, night=["N2"]), "decay")
    assert state.hands[0] == [*SINGLES[:7], "N2"] and state.discard == ["AS", "AH"]


def test_decay_pile_poison_in_it_does_not_lower_the_limit_of_the_take() -> None:
    state = table(hand0=SINGLES[:6], decay=["KS", "9D", "10D"])
    assert "decay" in listed(state)
    state = act(state, "decay")
    assert shown(state)["phase"] == "discard" and shown(state)["must_discard"] == 4


# A turn: cook


def test_seed_example_four_9s_with_one_butter_score_19() -> None:
    state = table(hand0=["9S", "9H", "N9", "QH", "JH"])
    state = act(state, "cook 9 day2 night1 pan:hand butter1 cider0")
    dish = {"pan": "JH", "rank": 9, "cards": ["9S", "9H", "N9", "QH"], "mushrooms": 4,
            "points": 16, "butter": 1, "cider": 0, "score": 19}
    assert shown(state, 1)["displays"][0]["dishes"] == [dish]
    assert shown(state, 1)["displays"][0]["score"] == 19
    assert state.hands[0] == [] and state.pans[0] == [XX]


def test_cook_needs_3_mushrooms_of_one_kind() -> None:
    state = table(hand0=["9S", "9H", "8S"])
    assert not [move for move in listed(state) if move.startswith("cook")]
    assert "at least 3" in refused(state, "cook 9 day2 night0 pan:display butter0 cider0")
    assert "only 2" in refused(state, "cook 9 day3 night0 pan:display butter0 cider0")


def test_a_night_card_counts_2_for_cooking() -> None:
    state = table(hand0=["9S", "N9"])
    assert [move for move in listed(state) if move.startswith("cook")] == [
        "cook 9 day1 night1 pan:display butter0 cider0"
    ]
    state = act(state, "cook 9 day1 night1 pan:display butter0 cider0")
    assert shown(state)["displays"][0]["dishes"][0]["mushrooms"] == 3


def test_cook_into_an_empty_pan_of_the_display() -> None:
    state = act(table(hand0=["4S", "4H", "4D"], pans=((XX, "JD"), (XX,))),
                "cook 4 day3 night0 pan:display butter0 cider0")
    assert state.pans[0] == ["JD"], "the pan placed first is filled first"
    assert state.dishes[0] == [XX, "4S", "4H", "4D"]


def test_cook_with_a_pan_card_played_from_the_hand() -> None:
    state = act(table(hand0=["4S", "JK", "4H", "4D"]), "cook 4 day3 night0 pan:hand butter0 cider0")
    assert state.pans[0] == [XX] and state.dishes[0] == ["JK", "4S", "4H", "4D"]
    assert state.hands[0] == []


def test_cook_needs_a_pan() -> None:
    state = table(hand0=["4S", "4H", "4D"], pans=((), ()))
    assert not [move for move in listed(state) if move.startswith("cook")]
    assert "no empty pan" in refused(state, "cook 4 day3 night0 pan:display butter0 cider0")
    assert "no pan card" in refused(state, "cook 4 day3 night0 pan:hand butter0 cider0")


@pytest.mark.parametrize(
    ("day", "night", "allowed"),
    [
        (3, 0, {(0, 0)}),
        (2, 1, {(0, 0), (1, 0)}),
        (3, 1, {(0, 0), (1, 0), (0, 1)}),
        (6, 1, {(0, 0), (1, 0), (2, 0), (0, 1)}),
        (7, 1, {(0, 0), (1, 0), (2, 0), (0, 1), (1, 1)}),
        (8, 1, {(0, 0), (1, 0), (2, 0), (0, 1), (1, 1), (0, 2)}),
    ],
    ids=["3", "4", "5", "8", "9", "10"],
)
def test_one_butter_per_4_and_one_cider_per_5_mushrooms(
    day: int, night: int, allowed: set[tuple[int, int]]
) -> None:
    twos = ["2S", "2H", "2D", "2C", "2S", "2H", "2D", "2C"][:day]
    hand = [*twos, "N2", "QH", "QD", "KH", "KD"]
    state = table(hand0=hand, baskets=(("QS", "QC", "QS"), ()), counts="original")
    assert cooks(state, 2, day, night) == allowed


def test_butter_and_cider_share_the_mushrooms() -> None:
    state = table(hand0=["2S", "2H", "2D", "N2", "QH", "KH"], baskets=(("QS",), ()))
    message = refused(state, "cook 2 day3 night1 pan:display butter1 cider1")
    assert "4 x butter + 5 x cider <= 5" in message
    state = act(state, "cook 2 day3 night1 pan:display butter0 cider1")
    assert shown(state)["displays"][0]["dishes"][0]["score"] == 5 + 5


def test_butter_and_cider_come_from_the_hand() -> None:
    state = table(hand0=["2S", "2H", "2D", "2C", "QH"])
    assert "You hold 1 butter and 0 cider." == refused(
        state, "cook 2 day4 night0 pan:display butter0 cider1"
    )
    assert "You hold 1 butter" in refused(state, "cook 2 day4 night0 pan:display butter2 cider0")


def test_cook_only_some_mushrooms_of_a_kind() -> None:
    state = act(table(hand0=["5S", "5H", "5D", "5C", "N5"]),
                "cook 5 day3 night0 pan:display butter0 cider0")
    assert state.hands[0] == ["5C", "N5"]


def test_cook_uses_the_first_cards_of_the_kind_in_the_hand() -> None:
    forest = [*PLAIN[:7], "10S"]
    state = act(table(forest, ["9C", "QD", "9S", "QH", "9H", "9D"]),
                "cook 9 day3 night0 pan:display butter0 cider0")
    assert state.dishes[0] == [XX, "9C", "9S", "9H"] and state.hands[0] == ["QD", "QH", "9D"]


def test_a_dish_stays_and_uses_up_its_pan() -> None:
    state = act(table(hand0=["4S", "4H", "4D", "4C", "5S", "5H", "5D"]),
                "cook 4 day3 night0 pan:display butter0 cider0", "take 1")
    assert state.pans[0] == [] and state.dishes[0] == [XX, "4S", "4H", "4D"]
    assert not [move for move in listed(state) if move.startswith("cook")], "no pan left"


# A turn: sell


def test_seed_example_three_8s_sell_for_9_sticks() -> None:
    state = act(table(hand0=["8S", "8H", "8D"]), "sell 8 day3 night0")
    assert state.sticks[0] == 9 and shown(state, 1)["displays"][0]["sticks"] == 9
    assert state.discard == ["8S", "8H", "8D"] and state.hands[0] == []


def test_a_3_sells_for_2_sticks_and_an_8_for_3() -> None:
    assert act(table(hand0=["3S", "3H"]), "sell 3 day2 night0").sticks[0] == 4
    assert act(table(hand0=["8S", "8H"]), "sell 8 day2 night0").sticks[0] == 6


def test_sell_needs_2_mushrooms_of_one_kind_or_a_single_night_card() -> None:
    state = table(hand0=["8S", "7S", "N5"])
    sells = [move for move in listed(state) if move.startswith("sell")]
    assert sells == ["sell 5 day0 night1"]
    assert "at least 2" in refused(state, "sell 8 day1 night0")
    assert act(state, "sell 5 day0 night1").sticks[0] == 4


def test_a_night_card_sells_double_shiitake_and_night_shiitake_give_6() -> None:
    assert act(table(hand0=["5S", "N5"]), "sell 5 day1 night1").sticks[0] == 6


def test_there_is_no_night_morel() -> None:
    state = table(hand0=["10S", "N9"])
    assert "no night card" in refused(state, "sell 10 day0 night1")
    assert "no night card" in refused(state, "sell 8 day0 night1")


def test_sell_may_keep_some_of_the_kind() -> None:
    state = act(table(hand0=["2S", "2H", "2D"], sticks=(1, 0)), "sell 2 day2 night0")
    assert state.hands[0] == ["2D"] and state.sticks[0] == 3


# A turn: place a pan


def test_place_a_pan_from_the_hand_empty_into_the_display() -> None:
    state = act(table(hand0=["2S", "JK", "JH"]), "pan")
    assert state.pans[0] == [XX, "JK"] and state.hands[0] == ["2S", "JH"]
    assert shown(state, 1)["displays"][0]["pans"] == [XX, "JK"]


def test_place_a_pan_needs_a_pan_card() -> None:
    state = table(hand0=["2S"])
    assert "pan" not in listed(state)
    assert refused(state, "pan") == "You hold no pan card."
