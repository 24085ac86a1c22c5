"""Pilzwanderung, rule by rule (``templates/rules/pilzwanderung.html``), on stacked decks.

``start`` deals a stacked deck with ``first=0`` (setup tests). Most tests start in the
middle of a game: ``table`` builds a state directly through the dataclass (states are plain
data) with the named forest, hands, piles and displays; every other card of the deck lies
on the draw pile (or, when ``draw`` is given, on the discard pile), so every card is there.
``PLAIN`` is a forest of eight single mushrooms, one of each kind 2..9.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from typing import Any

import pytest

from engine import IllegalAction, InvalidAction, Outcome, games
from engine.pilzwanderung import (
    GAME,
    START_PAN,
    PilzwanderungState,
    deck_for,
    night_deck,
    role_key,
)
from engine.playout import playout
from tests.engine.leaks import leaks

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
    roles = {
        role: sum(1 for card in deck if role_key(card) == role)
        for role in ("butter", "cider", "basket", "poison", "moon", "pan")
    }
    assert roles == {"butter": 4, "cider": 4, "basket": 4, "poison": 4, "moon": 8, "pan": 12}
    assert {card for card in deck if role_key(card) == "butter"} == {"QH", "QD"}
    assert {card for card in deck if role_key(card) == "cider"} == {"KH", "KD"}
    assert {card for card in deck if role_key(card) == "basket"} == {"QS", "QC"}
    assert {card for card in deck if role_key(card) == "poison"} == {"KS", "KC"}
    assert {card for card in deck if role_key(card) == "pan"} == {"JS", "JH", "JD", "JC", "JK"}


def test_original_counts_build_the_84_cards_of_morels() -> None:
    deck = deck_for("original")
    assert len(deck) == 84
    counts = {
        key: sum(1 for card in deck if role_key(card) == key)
        for key in (2, 3, "butter", "cider", "basket", "poison", "moon", "pan")
    }
    assert counts == {
        2: 10,
        3: 8,
        "butter": 3,
        "cider": 3,
        "basket": 5,
        "poison": 5,
        "moon": 8,
        "pan": 11,
    }
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
    ids=[
        "80 cards",
        "82 cards",
        "a role swapped",
        "a kind swapped",
        "a night card",
        "a starting pan",
        "original counts",
    ],
)
def test_stacked_deck_must_hold_the_cards_of_each_role(deck: list[str]) -> None:
    with pytest.raises(ValueError, match="81 cards"):
        GAME.new(seed=1, deck=deck)


def test_stacked_deck_suits_and_pan_cards_are_free() -> None:
    deck = [card.replace("S", "C") if card[0].isdigit() else card for card in deck_for("standard")]
    deck = ["JK" if card.startswith("J") else card for card in deck]
    assert GAME.new(seed=1, deck=deck).forest == deck[:8]
    assert (
        len(GAME.new(seed=1, options={"counts": "original"}, deck=deck_for("original")).draw_pile)
        == 84 - 8 - 6
    )


def test_stacked_deck_of_original_counts_must_hold_the_84_cards() -> None:
    with pytest.raises(ValueError, match="84 cards"):
        GAME.new(seed=1, options={"counts": "original"}, deck=deck_for("standard"))


@pytest.mark.parametrize(
    "night", [["N2", "N3"], [*night_deck()[:-1], "N10"], [*night_deck()[:-1], "N2"]]
)
def test_stacked_night_deck_holds_n2_to_n9(night: list[str]) -> None:
    with pytest.raises(ValueError, match="N2"):
        GAME.new(seed=1, night=night)


def test_a_stacked_night_deck_is_this_game_s_own_keyword() -> None:
    order = night_deck()[::-1]
    state = GAME.new(seed=1, night=order)
    assert state.night_deck == order[len(order) - len(state.night_deck) :]
    for other in games():
        if other is not GAME:
            with pytest.raises(TypeError):
                other.new(seed=1, night=order)  # type: ignore[call-arg]


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


def test_sticks_are_unlimited() -> None:
    state = act(table(hand0=["10S", "10H", "10D"], sticks=(30, 0)), "sell 10 day3 night0")
    assert state.sticks[0] == 42 and shown(state, 1)["displays"][0]["sticks"] == 42


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


def test_hand_limit_counts_night_cards_and_grows_with_baskets_together() -> None:
    state = table(hand0=[*SINGLES, "10H", "N5"], baskets=(("QS",), ()))
    assert shown(state, 1)["displays"][0]["hand_count"] == 10
    assert shown(state, 1)["displays"][0]["hand_limit"] == 10
    assert "Your hand is full (10 cards)" in refused(state, "take 1")
    state = act(table(hand0=[*SINGLES, "N5"], baskets=(("QS",), ())), "take 1")
    assert len(state.hands[0]) == 10


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
    [
        (["2H", "2D"], "sell 2 day2 night0"),
        (["JH"], "pan"),
        (["3H", "3D", "3C"], "cook 3 day3 night0 pan:display butter0 cider0"),
    ],
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
    dish = {
        "pan": "JH",
        "rank": 9,
        "cards": ["9S", "9H", "N9", "QH"],
        "mushrooms": 4,
        "points": 16,
        "butter": 1,
        "cider": 0,
        "score": 19,
    }
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
    state = act(
        table(hand0=["4S", "4H", "4D"], pans=((XX, "JD"), (XX,))),
        "cook 4 day3 night0 pan:display butter0 cider0",
    )
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
    state = act(
        table(hand0=["5S", "5H", "5D", "5C", "N5"]), "cook 5 day3 night0 pan:display butter0 cider0"
    )
    assert state.hands[0] == ["5C", "N5"]


def test_cook_uses_the_first_cards_of_the_kind_in_the_hand() -> None:
    forest = [*PLAIN[:7], "10S"]
    state = act(
        table(forest, ["9C", "QD", "9S", "QH", "9H", "9D"]),
        "cook 9 day3 night0 pan:display butter0 cider0",
    )
    assert state.dishes[0] == [XX, "9C", "9S", "9H"] and state.hands[0] == ["QD", "QH", "9D"]


def test_cook_uses_the_first_butter_cider_and_pan_card_of_the_hand() -> None:
    hand = ["QD", "KD", "JK", "9S", "9H", "9D", "9C", "N9", "QH", "KH", "JH"]
    forest, baskets = [*PLAIN[:7], "10S"], (("QS", "QC"), ())
    state = act(table(forest, hand, baskets=baskets), "cook 9 day4 night1 pan:hand butter1 cider0")
    assert state.dishes[0] == ["JK", "9S", "9H", "9D", "9C", "N9", "QD"]
    assert state.hands[0] == ["KD", "QH", "KH", "JH"]
    state = act(table(forest, hand, baskets=baskets), "cook 9 day4 night1 pan:hand butter0 cider1")
    assert state.dishes[0] == ["JK", "9S", "9H", "9D", "9C", "N9", "KD"]
    assert state.hands[0] == ["QD", "QH", "KH", "JH"]


def test_a_dish_stays_and_uses_up_its_pan() -> None:
    state = act(
        table(hand0=["4S", "4H", "4D", "4C", "5S", "5H", "5D"]),
        "cook 4 day3 night0 pan:display butter0 cider0",
        "take 1",
    )
    assert state.pans[0] == [] and state.dishes[0] == [XX, "4S", "4H", "4D"]
    assert not [move for move in listed(state) if move.startswith("cook")], "no pan left"


def test_the_mover_s_view_offers_each_cook_and_sale_with_what_it_gives() -> None:
    state = table(hand0=["9S", "9H", "N9", "QH", "JD"])
    offered = shown(state)["offers"]
    assert {"type": "sell", "rank": 9, "day": 2, "night": 1, "sticks": 4 * 2} in offered
    cook = {"type": "cook", "rank": 9, "day": 2, "night": 1, "butter": 1, "cider": 0}
    assert {**cook, "score": 4 * 4 + 3} in offered
    assert len([o for o in offered if o.items() >= cook.items()]) == 1, "once, not per pan"
    state = act(state, "cook 9 day2 night1 pan:hand butter1 cider0")
    assert shown(state, 0)["displays"][0]["score"] == 19


def test_only_the_mover_s_own_view_holds_offers() -> None:
    state = table(hand0=["10S", "10H", "10D"])
    assert shown(state, 0)["offers"] and shown(state, 1)["offers"] == []
    assert shown(state, None)["offers"] == []


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


def test_one_kind_per_turn() -> None:
    state = table(hand0=["2S", "2H", "3H", "3D", "3C"])
    state = act(state, "sell 2 day2 night0")
    assert GAME.to_move(state) == 1 and state.hands[0] == ["3H", "3D", "3C"]


# A turn: place a pan


def test_place_a_pan_from_the_hand_empty_into_the_display() -> None:
    state = act(table(hand0=["2S", "JK", "JH"]), "pan")
    assert state.pans[0] == [XX, "JK"] and state.hands[0] == ["2S", "JH"]
    assert shown(state, 1)["displays"][0]["pans"] == [XX, "JK"]


def test_place_a_pan_needs_a_pan_card() -> None:
    state = table(hand0=["2S"])
    assert "pan" not in listed(state)
    assert refused(state, "pan") == "You hold no pan card."


# The poison mushroom


def test_poison_goes_to_the_display_and_asks_to_discard_down_to_4() -> None:
    state = act(table(["KS", *PLAIN[1:]], SINGLES), "take 1")
    view = shown(state)
    assert (view["phase"], view["must_discard"], view["to_move"]) == ("discard", 4, 0)
    assert view["displays"][0]["poison"] == [{"card": "KS", "turns": 2}]
    assert view["displays"][0]["hand_limit"] == 4
    moves = listed(state)
    assert len(moves) == 70 and all(len(move.split()) == 5 for move in moves)
    assert all(move.startswith("discard ") for move in moves)
    assert state.decay == [], "the end-of-turn steps come after the discard"
    state = act(state, "discard 2H 3H 4H 5H")
    assert state.hands[0] == ["6H", "7H", "8H", "9H"]
    assert state.discard == ["2H", "3H", "4H", "5H"]
    assert state.decay == ["3S"] and GAME.to_move(state) == 1
    assert shown(state, 1)["displays"][0]["poison"] == [{"card": "KS", "turns": 1}]


def test_poison_limit_is_4_plus_2_per_basket() -> None:
    state = act(table(["KS", *PLAIN[1:]], SINGLES, baskets=(("QS",), ())), "take 1")
    assert shown(state)["must_discard"] == 2


def test_with_that_few_cards_nothing_may_be_discarded() -> None:
    state = act(table(["KS", *PLAIN[1:]], ["2H", "3H", "4H", "5H"]), "take 1")
    assert GAME.to_move(state) == 1 and shown(state)["phase"] == "turn"
    assert state.hands[0] == ["2H", "3H", "4H", "5H"]
    assert "Discard only" in refused(state, "discard 2H")


def test_discard_exactly_the_cards_over_the_limit_from_the_hand() -> None:
    state = act(table(["KS", *PLAIN[1:]], SINGLES), "take 1")
    assert "exactly 4" in refused(state, "discard 2H 3H 4H")
    assert "exactly 4" in refused(state, "discard 2H 3H 4H 5H 6H")
    assert refused(state, "discard 2H 3H 4H 10H") == "You do not hold 10H."
    assert refused(state, "discard 2H 2H 3H 4H") == "You do not hold 2H."


def test_while_asked_to_discard_nothing_else_may_be_done() -> None:
    state = act(table(["KS", *PLAIN[1:]], [*SINGLES[:6], "JH", "JK"]), "take 1")
    assert refused(state, "take 1") == "First discard 4 cards for the poison mushroom."
    refused(state, "pan")
    assert GAME.legal_actions(state, 1) == []
    refused(state, "discard 2H 3H 4H 5H", "not_your_turn", seat=1)


def test_night_cards_count_and_may_be_discarded_for_the_poison() -> None:
    state = act(table(["KS", *PLAIN[1:]], [*SINGLES[:7], "N5"]), "take 1")
    assert shown(state)["must_discard"] == 4
    state = act(state, "discard N5 2H 3H 4H")
    assert state.hands[0] == ["5H", "6H", "7H", "8H"]
    assert state.discard == ["N5", "2H", "3H", "4H"]


def test_poison_from_the_decay_pile_asks_for_the_discard_too() -> None:
    state = act(table(hand0=SINGLES[:5], decay=["9D", "KC"]), "decay")
    assert state.poison[0] == ["KC"] and shown(state)["must_discard"] == 2


def test_the_poison_limit_holds_for_what_may_be_taken_the_decay_pile_and_a_moon_too() -> None:
    hand = ["2H", "2D", "4H", "5H"]
    state = table(["AS", *PLAIN[1:]], hand, poison=(("KS",), ()), decay=["9D"])
    assert listed(state) == ["sell 2 day2 night0"]
    assert refused(state, "take 1") == "Your hand is full (4 cards): the night card does not fit."
    assert "limit 4" in refused(state, "decay")
    assert "decay" in listed(table(hand0=hand, poison=(("KS",), ()), decay=["QS", "9D"]))
    assert "decay" not in listed(
        table(hand0=hand, poison=(("KS",), ()), decay=["QS", "9D", "9C", "9H"])
    )


def test_an_expired_poison_goes_to_the_discard_pile_after_the_forest_steps() -> None:
    state = table(hand0=["2H", "2D"], decay=["3H", "4H", "5H", "6H"], poison=(("KS",), ()))
    state = act(state, "sell 2 day2 night0")
    assert state.decay == ["2S"] and state.poison[0] == []
    assert state.discard == ["2H", "2D", "3H", "4H", "5H", "6H", "KS"]


def test_the_smaller_limit_lasts_to_the_end_of_the_next_turn_then_the_poison_is_discarded() -> None:
    state = table(["KS", *PLAIN[1:]], ["2H", "2D", "3H", "4H", "5H", "6H"], ["7H", "7D"])
    state = act(state, "take 1", "discard 5H 6H", "sell 7 day2 night0")
    assert GAME.to_move(state) == 0 and shown(state)["displays"][0]["hand_limit"] == 4
    assert refused(state, "take 1") == "Your hand is full (4 cards): that card does not fit."
    state = act(state, "sell 2 day2 night0")
    assert state.poison[0] == [] and state.discard[-1] == "KS"
    assert shown(state)["displays"][0]["hand_limit"] == 8


def test_each_poison_mushroom_counts_its_own_two_turn_ends() -> None:
    forest = ["KS", "2S", "3S", "KC", *PLAIN[3:7]]
    hand = ["2H", "2D", "3H", "4H", "5H", "6H"]
    state = table(forest, hand, ["7H", "7D", "8H", "8D"])
    state = act(state, "take 1", "discard 5H 6H", "sell 7 day2 night0")
    assert state.forest[0] == "KC"
    state = act(state, "take 1")
    assert GAME.to_move(state) == 1, "4 cards: nothing to discard"
    assert shown(state)["displays"][0]["poison"] == [{"card": "KC", "turns": 1}]
    assert shown(state)["displays"][0]["hand_limit"] == 4 and "KS" in state.discard
    state = act(state, "sell 8 day2 night0", "sell 2 day2 night0")
    assert state.poison[0] == [] and shown(state)["displays"][0]["hand_limit"] == 8


def test_a_skipped_turn_counts_for_the_poison() -> None:
    state = table(
        hand0=["2H", "3H", "4H", "5H"], hand1=["7H", "7D"], to_move=1, poison=(("KS",), ())
    )
    state = act(state, "sell 7 day2 night0")
    assert state.skipped == [0] and GAME.to_move(state) == 1
    assert state.poison[0] == [] and state.discard[-1] == "KS"
    state = act(state, "take 1")
    assert GAME.to_move(state) == 0, "the normal limit again: seat 0 can act"


def test_the_game_ends_at_once_when_the_last_card_is_a_poison_mushroom() -> None:
    state = act(table(["KS"], SINGLES, draw=[]), "take 1")
    assert GAME.is_over(state) and state.hands[0] == SINGLES


# No action possible


STUCK = ["2H", "3D", "4D", "5D", "6D", "7D", "8D", "10H"]  # full, nothing to sell, cook or place


def test_a_player_who_cannot_act_is_skipped_and_the_opponent_plays_on() -> None:
    state = act(table(hand1=STUCK), "take 1")
    assert GAME.to_move(state) == 0 and state.skipped == [1]
    assert shown(state, 1)["skipped"] == [1] and GAME.legal_actions(state, 1) == []
    assert state.decay == ["3S"], "a skipped turn has no end-of-turn steps"
    state = act(state, "take 1")
    assert state.skipped == [1] and state.decay == ["3S", "5S"]
    assert GAME.to_move(state) == 0


def test_skipped_list_is_cleared_by_the_next_action() -> None:
    state = act(table(hand0=["JH"], hand1=STUCK), "take 1")
    state = act(state, "pan")
    assert state.skipped == [1]
    state = table(hand0=["JH"], hand1=STUCK[:7])
    assert act(state, "take 1").skipped == []


def test_both_players_stuck_run_the_end_of_turn_steps_once_and_the_first_skipped_plays() -> None:
    forest = ["2S", "3S", "4S", "5S", "QS", "6S", "7S", "8S"]
    state = table(forest, SINGLES[1:], STUCK, draw=["9S", "10S", "9D", "10D"])
    state = act(state, "take 1")
    assert state.skipped == [1, 0]
    assert state.decay == ["3S", "4S"]
    assert state.forest[:2] == ["5S", "QS"] and len(state.forest) == 8
    assert GAME.to_move(state) == 1 and "take 2" in listed(state)


def test_both_players_stuck_may_end_the_game() -> None:
    state = act(table(["2S", "3S", "4S"], SINGLES[1:], STUCK, draw=[]), "take 1")
    assert GAME.is_over(state) and state.decay == ["3S", "4S"]
    assert GAME.result(state) == Outcome(
        (0, 0), None, "tied", {"dishes": [[], []], "mushrooms_cooked": [0, 0]}
    )


# End and score


def ended(dish0: Sequence[str], dish1: Sequence[str], **given: Any) -> PilzwanderungState:
    """The last forest card is taken at once: the game is over with these dishes."""
    state = act(table(["9S"], draw=[], dishes=(dish0, dish1), **given), "take 1")
    assert GAME.is_over(state)
    return state


def test_dishes_score_cooking_points_night_double_butter_3_cider_5() -> None:
    state = ended(["JK", "2S", "2H", "2D", "2C", "N2", "KH"], [XX, "6S", "6H", "6D", "6C", "QD"])
    result = GAME.result(state)
    assert result is not None
    assert result.scores == (6 + 5, 12 + 3) and result.winner == 1
    assert result.reason == "higher_score" and result.kind == "win"
    assert result.details["mushrooms_cooked"] == [6, 4]
    assert result.details["dishes"][0] == [
        {
            "pan": "JK",
            "rank": 2,
            "cards": ["2S", "2H", "2D", "2C", "N2", "KH"],
            "mushrooms": 6,
            "points": 6,
            "butter": 0,
            "cider": 1,
            "score": 11,
        }
    ]
    assert shown(state)["result"] == result.to_json()


def test_cards_in_hand_sticks_and_empty_pans_score_nothing() -> None:
    state = ended([], [], hand0=["10S", "10H", "10D"], sticks=(20, 0), pans=((XX, "JH"), (XX,)))
    assert GAME.result(state) == Outcome(
        (0, 0), None, "tied", {"dishes": [[], []], "mushrooms_cooked": [0, 0]}
    )


def test_a_tie_is_won_by_more_mushrooms_cooked_night_cards_counting_2() -> None:
    state = ended([XX, "4S", "4H", "4D"], [XX, "2S", "2H", "2D", "2C", "N2"])
    result = GAME.result(state)
    assert result is not None and result.scores == (6, 6)
    assert (result.winner, result.reason) == (1, "more_mushrooms_cooked")


def test_still_tied_is_a_draw() -> None:
    result = GAME.result(ended([XX, "4S", "4H", "4D"], [XX, "5S", "5H", "5D"]))
    assert result is not None and result.scores == (6, 6)
    assert (result.winner, result.reason, result.kind) == (None, "tied", "draw")


def test_result_is_none_while_the_game_runs() -> None:
    state = table()
    assert GAME.result(state) is None and shown(state)["result"] is None


# Options and presets


def test_options_are_counts_night_cards_card_faces_and_first() -> None:
    described = {option.name: option.describe() for option in GAME.options}
    assert {name: (d["default"], d["choices"]) for name, d in described.items()} == {
        "counts": ("standard", ["standard", "original"]),
        "night_cards": ("open", ["open", "hidden"]),
        "card_faces": ("playing_cards", ["playing_cards", "mushrooms"]),
        "first": (None, [None, 0, 1]),
    }
    assert all(set(d["label"]) == set(d["help"]) == {"de", "en"} for d in described.values())


def test_presets_pilzwanderung_and_morels_original_rules() -> None:
    presets = {preset.name: preset for preset in GAME.presets}
    assert presets["pilzwanderung"].options == {}
    assert presets["morels"].options == {
        "counts": "original",
        "night_cards": "hidden",
        "card_faces": "mushrooms",
    }
    assert presets["morels"].label == {
        "de": "Morels (Originalregeln)",
        "en": "Morels (original rules)",
    }
    state = GAME.new(seed=2, options=presets["morels"].options)
    view = shown(state)
    assert (view["counts"], view["night_cards"], view["card_faces"]) == (
        "original",
        "hidden",
        "mushrooms",
    )


def test_open_night_cards_lie_face_up_in_the_display() -> None:
    state = table(hand0=["2H", "N5", "N9"])
    for viewer in (0, 1, None):
        assert shown(state, viewer)["displays"][0]["night"] == ["N5", "N9"]
        assert shown(state, viewer)["displays"][0]["night_count"] == 2
        assert shown(state, viewer)["displays"][0]["hand_count"] == 3
    assert shown(state, 0)["hand"] == ["2H"]


def test_hidden_night_cards_are_held_in_the_hand_the_opponent_sees_a_count() -> None:
    state = table(hand0=["2H", "N5", "N9"], night_cards="hidden")
    assert shown(state, 0)["hand"] == ["2H", "N5", "N9"]
    for viewer in (1, None):
        view = shown(state, viewer)
        assert "night" not in view["displays"][0]
        assert view["displays"][0]["night_count"] == 2
        assert view["displays"][0]["hand_count"] == 3
        assert '"N5"' not in json.dumps(view) and '"N9"' not in json.dumps(view)


def test_hidden_night_cards_play_as_open_ones() -> None:
    state = table(hand0=["5S", "N5"], night_cards="hidden")
    assert act(state, "sell 5 day1 night1").sticks[0] == 6


def test_card_faces_is_passed_to_the_view() -> None:
    for faces in ("playing_cards", "mushrooms"):
        state = GAME.new(seed=1, options={"card_faces": faces})
        assert all(GAME.view(state, seat)["card_faces"] == faces for seat in (0, 1, None))


def test_rematch_is_started_by_the_loser() -> None:
    won = Outcome((10, 20), 1, "higher_score")
    assert GAME.rematch_options({"counts": "original"}, won, 1) == {
        "counts": "original",
        "first": 0,
    }
    assert GAME.rematch_options({}, Outcome((5, 5), None, "tied"), 0) == {"first": 1}


# What a move reveals: only a move that reveals nothing may be taken back


def reveals(state: PilzwanderungState, move: str) -> bool:
    return GAME.reveals(state, GAME.parse_notation(move))


TURN_ENDS = [
    (["2H"], "take 1"),
    (["2H"], "decay"),
    (["2H", "2D"], "sell 2 day2 night0"),
    (["JH"], "pan"),
    (["3H", "3D", "3C"], "cook 3 day3 night0 pan:display butter0 cider0"),
]
TURN_END_IDS = ["take", "take the decay pile", "sell", "place a pan", "cook"]


@pytest.mark.parametrize(("hand", "move"), TURN_ENDS, ids=TURN_END_IDS)
def test_every_turn_ends_by_refilling_the_forest_from_the_draw_pile_so_it_cannot_be_taken_back(
    hand: list[str], move: str
) -> None:
    """Cooking, selling and placing a pan too: the end-of-turn steps follow every action."""
    assert reveals(table(hand0=hand, decay=["9H"]), move)


@pytest.mark.parametrize(("hand", "move"), TURN_ENDS, ids=TURN_END_IDS)
def test_once_the_draw_pile_is_empty_a_move_can_be_taken_back(hand: list[str], move: str) -> None:
    assert not reveals(table(hand0=hand, decay=["9H"], draw=[]), move)


def test_a_moon_brings_a_night_card_and_cannot_be_taken_back() -> None:
    state = table(["AS", *PLAIN[1:]], draw=[], night=["N6"])
    assert reveals(state, "take 1")
    assert not reveals(table(["AS", *PLAIN[1:]], draw=[], night=[]), "take 1"), "no night card"
    assert reveals(table(decay=["AS"], draw=[], night=["N6"]), "decay")


def test_a_poison_mushroom_that_asks_for_a_discard_can_be_taken_back_but_not_the_discard() -> None:
    state = table(["KS", *PLAIN[1:]], SINGLES)
    assert not reveals(state, "take 1"), "the turn ends with the discard"
    assert reveals(act(state, "take 1"), "discard 2H 3H 4H 5H")


def test_a_move_that_ends_the_game_cannot_be_taken_back() -> None:
    assert reveals(table(["9S"], draw=[], decay=["2H"]), "take 1"), "the last forest card"
    assert reveals(table(["9S"], ["2H", "2D"], draw=[]), "sell 2 day2 night0"), "it falls"


# What each seat sees


def test_view_shows_the_forest_with_costs_the_decay_pile_and_the_pile_sizes() -> None:
    state = table(decay=["QH", "AS"], night=["N2", "N3"], draw=["10S", "10H"])
    view = shown(state, 1)
    assert view["forest"][2] == {"position": 3, "card": "4S", "cost": 1}
    assert view["decay"] == ["QH", "AS"]
    assert view["draw_pile"] == 2 and view["night_deck"] == 2
    assert view["discard"] == {"top": state.discard[-1], "size": len(state.discard)}
    assert view["to_move"] == 0 and view["phase"] == "turn" and view["must_discard"] == 0


def test_view_shows_both_displays() -> None:
    state = table(
        hand0=["2H"],
        baskets=(("QS",), ()),
        poison=((), ("KC",)),
        sticks=(3, 5),
        pans=((XX, "JD"), ()),
        dishes=([], ["JK", "8S", "8H", "8D"]),
    )
    displays = shown(state, None)["displays"]
    assert displays[0] == {
        "hand_count": 1,
        "hand_limit": 10,
        "night_count": 0,
        "night": [],
        "sticks": 3,
        "pans": [XX, "JD"],
        "dishes": [],
        "baskets": ["QS"],
        "poison": [],
        "score": 0,
        "mushrooms_cooked": 0,
    }
    assert displays[1]["poison"] == [{"card": "KC", "turns": 1}]
    assert displays[1]["hand_limit"] == 4 and displays[1]["score"] == 9
    assert displays[1]["dishes"][0]["cards"] == ["8S", "8H", "8D"]


def test_view_hides_the_opponent_hand_the_draw_pile_and_the_night_deck() -> None:
    state = table(hand0=["10S", "JH"], hand1=["10D", "QD"], night=["N7", "N8"], draw=["KD", "JC"])
    for seat, other in ((0, ["10D", "QD"]), (1, ["10S", "JH"]), (None, ["10S", "10D"])):
        text = json.dumps(GAME.view(state, seat))
        for card in [*other, "N7", "N8", "KD", "JC"]:
            assert f'"{card}"' not in text
    assert shown(state, 1)["hand"] == ["10D", "QD"] and shown(state, None)["hand"] is None


def test_view_never_contains_the_seed() -> None:
    state = GAME.new(seed=424242)
    for seat in (0, 1, None):
        for reveal in (False, True):
            text = json.dumps(GAME.view(state, seat, reveal=reveal))
            assert "seed" not in text and "424242" not in text


def test_reveal_shows_both_hands_the_draw_pile_the_night_deck_and_the_discard_pile() -> None:
    state = table(hand0=["10S", "N3"], hand1=["10D"], night=["N7", "N8"], draw=["KD"])
    view = GAME.view(state, None, reveal=True)
    assert view["hands"] == [["N3", "10S"], ["10D"]]
    assert view["draw_pile_cards"] == ["KD"] and view["night_deck_cards"] == ["N7", "N8"]
    assert view["discard"]["cards"] == state.discard


def test_hand_is_sorted_by_kind_then_butter_cider_and_pans() -> None:
    state = table(hand0=["JK", "KH", "QD", "9S", "N2", "2D", "10H"], night_cards="hidden")
    assert shown(state)["hand"] == ["2D", "N2", "9S", "10H", "QD", "KH", "JK"]


# Actions and their refusals


@pytest.mark.parametrize(
    "action",
    [
        None,
        "take 1",
        {},
        {"type": "pass"},
        {"type": "take"},
        {"type": "take", "position": 0},
        {"type": "take", "position": 9},
        {"type": "take", "position": "1"},
        {"type": "take", "position": True},
        {"type": "take", "position": 1, "extra": 1},
        {"type": "take_decay", "position": 1},
        {"type": "cook", "rank": 9, "day": 2, "night": 1, "pan": "display", "butter": 0},
        {
            "type": "cook",
            "rank": 11,
            "day": 3,
            "night": 0,
            "pan": "display",
            "butter": 0,
            "cider": 0,
        },
        {"type": "cook", "rank": 9, "day": 3, "night": 0, "pan": "table", "butter": 0, "cider": 0},
        {"type": "cook", "rank": 9, "day": -1, "night": 0, "pan": "hand", "butter": 0, "cider": 0},
        {"type": "sell", "rank": 9, "day": 2, "night": 2},
        {"type": "sell", "rank": "9", "day": 2, "night": 0},
        {"type": "place_pan", "card": "JH"},
        {"type": "discard", "cards": "2H"},
        {"type": "discard", "cards": ["2H", "XX"]},
        {"type": "discard", "cards": ["N10"]},
        {"type": "discard", "cards": ["KS"]},
    ],
)
def test_action_of_the_wrong_shape_is_malformed(action: Any) -> None:
    with pytest.raises(InvalidAction) as refusal:
        GAME.apply(table(), 0, action)
    assert refusal.value.code == "malformed"


def test_only_the_seat_to_move_may_act() -> None:
    state = table(hand1=["2H", "2D"])
    assert GAME.legal_actions(state, 1) == []
    assert refused(state, "sell 2 day2 night0", "not_your_turn", seat=1) == "It is not your turn."


def test_no_action_after_the_game_is_over() -> None:
    over = ended([], [])
    assert GAME.legal_actions(over, 0) == [] and GAME.legal_actions(over, 1) == []
    refused(over, "take 1", "game_over", seat=1)


def test_a_position_beyond_the_forest_is_illegal() -> None:
    state = table(PLAIN[:3], draw=[], sticks=(9, 0))
    assert refused(state, "take 4") == "The forest has only 3 cards: there is no position 4."


def test_apply_does_not_mutate_its_input() -> None:
    for state, move in [
        (table(["KS", *PLAIN[1:]], SINGLES), "take 1"),
        (table(hand0=["9S", "9H", "N9", "QH", "JH"]), "cook 9 day2 night1 pan:hand butter1 cider0"),
        (table(hand0=SINGLES[:3], decay=["QS", "AS", "KC", "2D"]), "decay"),
        (table(hand1=STUCK, decay=["2D", "3C", "4C", "5C"]), "take 1"),
    ]:
        before = state.to_json()
        after = act(state, move)
        assert state.to_json() == before and after != state


def test_state_round_trips_through_json() -> None:
    state = act(table(["KS", *PLAIN[1:]], SINGLES, dishes=([XX, "4S", "4H", "4D"], [])), "take 1")
    assert GAME.state_from_json(json.loads(json.dumps(state.to_json()))) == state
    assert state.clone() == state


def test_notation_round_trips() -> None:
    texts = [
        "take 5",
        "decay",
        "cook 9 day2 night1 pan:display butter1 cider0",
        "cook 10 day3 night0 pan:hand butter0 cider0",
        "sell 8 day3 night0",
        "pan",
        "discard 2H QD N5",
    ]
    for text in texts:
        assert GAME.notation(GAME.parse_notation(text)) == text
    assert GAME.parse_notation("take 5") == {"type": "take", "position": 5}
    assert GAME.parse_notation("cook 9 day2 night1 pan:display butter1 cider0") == {
        "type": "cook",
        "rank": 9,
        "day": 2,
        "night": 1,
        "pan": "display",
        "butter": 1,
        "cider": 0,
    }
    assert GAME.parse_notation("discard 2H QD N5") == {
        "type": "discard",
        "cards": ["2H", "QD", "N5"],
    }


@pytest.mark.parametrize(
    "text",
    [
        "",
        "take",
        "take 9",
        "take x",
        "decay now",
        "cook 9 day2 night1",
        "sell 8 3 0",
        "sell 8 day3 night2",
        "cook 9 day2 night1 pan:box butter1 cider0",
        "discard",
        "discard 2H 1Z",
        "pan JH",
        "sell 11 day2 night0",
    ],
)
def test_parse_notation_refuses_junk(text: str) -> None:
    with pytest.raises(InvalidAction):
        GAME.parse_notation(text)


def test_registered_with_title_and_two_seats() -> None:
    assert GAME.title == {"de": "Pilzwanderung", "en": "Pilzwanderung"}
    assert GAME.seats == 2 and GAME.name == "pilzwanderung"


# Hidden information: what a viewer cannot know is dealt again (tests/engine/leaks.py)


class Leaky:
    """Pilzwanderung with a view that adds one thing (``hint``) for its viewer."""

    def __init__(self, hint: Any) -> None:
        self.hint = hint

    def __getattr__(self, attribute: str) -> Any:
        return getattr(GAME, attribute)

    def view(self, state: Any, seat: int | None, **kwargs: Any) -> dict[str, Any]:
        return {**GAME.view(state, seat, **kwargs), "hint": self.hint(state, seat)}


def running(plies: int, **options: Any) -> PilzwanderungState:
    for ply, (state, _, _) in enumerate(playout(GAME, seed=5, options=options)):
        if ply == plies:
            return state
    raise AssertionError("the game ended too early")


NIGHT_HELD = {"hand0": ["2H", "N5"], "hand1": ["3H", "N7", "JH"], "night": ["N2", "N3", "N4"]}


def test_the_leak_check_passes_the_real_views() -> None:
    for night_cards in ("open", "hidden"):
        for state in (
            running(9, night_cards=night_cards),
            table(**NIGHT_HELD, night_cards=night_cards),
        ):
            for viewer in (None, 0, 1):
                assert leaks(GAME, state, viewer) == []


@pytest.mark.parametrize(
    ("hint", "viewer"),
    [
        (lambda state, seat: sorted(state.hands[1 - seat]), 0),
        (lambda state, seat: sorted(state.hands[0]), None),
        (lambda state, seat: state.draw_pile[0], 1),
        (lambda state, seat: state.draw_pile[-1], None),
        (lambda state, seat: state.night_deck[0], 0),
        (lambda state, seat: [card for card in state.hands[1] if card[0] == "N"], None),
    ],
    ids=[
        "opponent hand",
        "a hand to a spectator",
        "top of the draw pile",
        "its bottom",
        "top of the night deck",
        "hidden night cards to a spectator",
    ],
)
def test_the_leak_check_catches_a_planted_leak(hint: Any, viewer: int | None) -> None:
    state = table(**NIGHT_HELD, night_cards="hidden")
    assert leaks(Leaky(hint), state, viewer)  # type: ignore[arg-type]


def test_open_night_cards_are_not_hidden_but_hidden_ones_are() -> None:
    def hint(state: PilzwanderungState, seat: int | None) -> list[str]:
        return sorted(card for card in state.hands[1] if card[0] == "N")

    assert not leaks(Leaky(hint), table(**NIGHT_HELD), 0)  # type: ignore[arg-type]
    assert leaks(Leaky(hint), table(**NIGHT_HELD, night_cards="hidden"), 0)  # type: ignore[arg-type]


def test_redeal_keeps_every_count_and_deals_only_hand_cards_into_hands() -> None:
    rng = random.Random(1)
    for night_cards in ("open", "hidden"):
        state = table(**NIGHT_HELD, night_cards=night_cards)
        for viewer in (0, 1, None):
            for _ in range(30):
                other = GAME.redeal_hidden(state, viewer, rng)
                assert other.seed != state.seed
                assert sorted(other.draw_pile + other.night_deck + sum(other.hands, [])) == sorted(
                    state.draw_pile + state.night_deck + sum(state.hands, [])
                )
                assert len(other.draw_pile) == len(state.draw_pile)
                assert len(other.night_deck) == len(state.night_deck)
                for seat in (0, 1):
                    assert len(other.hands[seat]) == len(state.hands[seat])
                    nights = [card for card in other.hands[seat] if card[0] == "N"]
                    assert len(nights) == len([c for c in state.hands[seat] if c[0] == "N"])
                    assert all(
                        role_key(card) not in ("basket", "poison", "moon")
                        for card in other.hands[seat]
                    )
                    if seat == viewer or night_cards == "open":
                        assert sorted(nights) == sorted(
                            card for card in state.hands[seat] if card[0] == "N"
                        )
                    if seat == viewer:
                        assert other.hands[seat] == state.hands[seat]


def test_redeal_varies_the_opponent_hand_and_both_piles() -> None:
    state = table(**NIGHT_HELD, night_cards="hidden")
    rng = random.Random(2)
    others = [GAME.redeal_hidden(state, 0, rng) for _ in range(20)]
    assert len({tuple(other.hands[1]) for other in others}) > 1
    assert len({tuple(other.draw_pile) for other in others}) > 1
    assert len({tuple(other.night_deck) for other in others}) > 1
