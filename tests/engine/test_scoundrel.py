"""Scoundrel, rule by rule (``templates/rules/scoundrel.html``), on stacked decks.

A stacked deck names its top cards; the rest follow in ``DECK`` order (clubs 2..A first).
Tests of the end game set the table directly: states are plain data.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from engine import IllegalAction, Outcome, get_game
from engine.scoundrel import DECK, ScoundrelState

GAME = get_game("scoundrel")


def stacked(*top: str) -> list[str]:
    return [*top, *(card for card in DECK if card not in top)]


def start(*top: str, **options: Any) -> ScoundrelState:
    state: ScoundrelState = GAME.new(seed=0, options=options, deck=stacked(*top))
    return state


def play(state: ScoundrelState, *moves: str) -> ScoundrelState:
    for move in moves:
        state = GAME.apply(state, 0, GAME.parse_notation(move))
    return state


def table(room: list[str], dungeon: list[str], **fields: Any) -> ScoundrelState:
    return ScoundrelState(dungeon=dungeon, room=room, **fields)


def refused(state: ScoundrelState, move: str, code: str = "illegal") -> str:
    """Apply must refuse the move with this code and leave the state as it was."""
    before = json.dumps(state.to_json())
    with pytest.raises(IllegalAction) as refusal:
        GAME.apply(state, 0, GAME.parse_notation(move))
    assert refusal.value.code == code
    assert json.dumps(state.to_json()) == before
    return refusal.value.message


def listed(state: ScoundrelState) -> list[str]:
    return [GAME.notation(action) for action in GAME.legal_actions(state, 0)]


# Cards and setup


def test_deck_is_44_cards_26_monsters_9_weapons_9_potions() -> None:
    assert len(DECK) == len(set(DECK)) == 44
    assert sum(card[-1] in "CS" for card in DECK) == 26
    assert sorted(card for card in DECK if card[-1] == "D") == sorted(
        f"{rank}D" for rank in range(2, 11)
    )
    assert sorted(card for card in DECK if card[-1] == "H") == sorted(
        f"{rank}H" for rank in range(2, 11)
    )


def test_new_game_reveals_a_room_of_four_from_the_top_of_the_dungeon() -> None:
    deck = stacked("5D", "JC", "6C", "QS", "9H")
    state: ScoundrelState = GAME.new(seed=0, deck=deck)
    assert state.room == ["5D", "JC", "6C", "QS"]
    assert state.dungeon == deck[4:]
    assert state.health == 20


def test_shuffle_comes_from_the_seed() -> None:
    assert GAME.new(seed=5) == GAME.new(seed=5)
    assert GAME.new(seed=5).dungeon != GAME.new(seed=6).dungeon


@pytest.mark.parametrize(
    "deck",
    [
        DECK[:-1],
        [*DECK, "2C"],
        [*DECK[:-1], "KH"],
        [*DECK[:-1], "JK"],
        [*DECK[:-1], 7],
        [*DECK[:-1], DECK[0]],
    ],
    ids=["43 cards", "45 cards", "red face card", "joker", "not a code", "duplicate"],
)
def test_stacked_deck_must_be_exactly_the_44_scoundrel_cards(deck: list[Any]) -> None:
    with pytest.raises(ValueError, match="44"):
        GAME.new(seed=0, deck=deck)


def test_unknown_options_and_values_are_refused() -> None:
    with pytest.raises(ValueError, match="torches"):
        GAME.new(seed=0, options={"torches": 3})
    with pytest.raises(ValueError, match="strict_weapons"):
        GAME.new(seed=0, options={"strict_weapons": 1})


def test_strict_preset_turns_on_strict_weapons() -> None:
    (preset,) = GAME.presets
    assert GAME.new(seed=0, options=preset.options).strict_weapons
    assert not GAME.new(seed=0).strict_weapons


# Avoiding a room


def test_avoid_puts_room_under_dungeon_in_room_order() -> None:
    state = play(start("2H", "3D", "4C", "5S", "6H", "7D", "8C", "9S"), "avoid")
    assert state.dungeon[-4:] == ["2H", "3D", "4C", "5S"]
    assert len(state.dungeon) == 40


def test_avoid_deals_a_new_room_from_the_top() -> None:
    state = play(start("2H", "3D", "4C", "5S", "6H", "7D", "8C", "9S"), "avoid")
    assert state.room == ["6H", "7D", "8C", "9S"]
    assert state.taken == 0


def test_avoided_leftover_card_goes_under_first() -> None:
    state = play(start("2H", "3H", "4H", "5S"), "take 2H", "take 3H", "take 4H")
    assert state.room == ["5S", "2C", "3C", "4C"]
    state = play(state, "avoid")
    assert state.dungeon[-4:] == ["5S", "2C", "3C", "4C"]


def test_cannot_avoid_two_rooms_in_a_row() -> None:
    state = play(start(), "avoid")
    assert "avoid" not in listed(state)
    assert "two rooms in a row" in refused(state, "avoid")


def test_may_avoid_again_after_entering_a_room() -> None:
    state = play(start("2H", "3H", "4H", "5H"), "avoid", "take 2C bare", "take 3C bare")
    state = play(state, "take 4C bare")
    assert "avoid" in listed(state)


def test_avoid_only_before_a_card_is_taken() -> None:
    state = play(start("2H", "3H", "4H", "5H"), "take 2H")
    assert "avoid" not in listed(state)
    assert "before taking a card" in refused(state, "avoid")


def test_avoid_is_allowed_as_often_as_every_other_room() -> None:
    state = start("2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H")
    state = play(state, "avoid", "take 6H", "take 7H", "take 8H", "avoid")
    assert state.room == ["5C", "6C", "7C", "8C"]


# Entering a room


def test_entering_takes_three_cards_and_the_fourth_carries_over() -> None:
    state = play(start("2H", "3H", "4H", "5S", "9D"), "take 2H", "take 3H")
    assert state.room == ["4H", "5S"]
    state = play(state, "take 4H")
    assert state.room == ["5S", "9D", "2C", "3C"]
    assert state.taken == 0


def test_room_cards_are_taken_one_at_a_time_in_any_order() -> None:
    state = start("2H", "3D", "4C", "5S")
    assert listed(state) == ["avoid", "take 2H", "take 3D", "take 4C bare", "take 5S bare"]
    state = play(state, "take 5S bare")
    assert state.room == ["2H", "3D", "4C"]


def test_taking_a_card_not_in_the_room_is_illegal() -> None:
    assert "not in this room" in refused(start("2H", "3D", "4C", "5S"), "take 9S bare")


# Weapons


def test_weapon_must_be_equipped() -> None:
    state = play(start("5D", "JC", "6C", "QS"), "take 5D")
    assert state.weapon == "5D"
    assert state.stack == []
    assert "5D" not in state.discard


def test_new_weapon_discards_old_weapon_and_its_monsters() -> None:
    state = play(start("5D", "3C", "2S", "8D"), "take 5D", "take 3C weapon", "take 2S weapon")
    state = play(state, "take 8D")
    assert state.weapon == "8D"
    assert state.stack == []
    assert state.discard == ["5D", "3C", "2S"]


def test_weapon_or_potion_is_taken_with_weapon_false_only() -> None:
    state = start("5D", "9H", "6C", "QS")
    assert "take 5D weapon" not in listed(state)
    assert "Only a monster" in refused(state, "take 5D weapon")
    assert "Only a monster" in refused(state, "take 9H weapon")


# Health potions


def test_potion_heals_its_value_and_is_discarded() -> None:
    state = play(start("9C", "4H", "2S", "3S"), "take 9C bare", "take 4H")
    assert state.health == 15
    assert state.discard == ["9C", "4H"]


def test_health_never_above_20() -> None:
    state = play(start("2C", "9H", "3S", "4S"), "take 2C bare", "take 9H")
    assert state.health == 20


def test_second_potion_in_a_room_does_not_heal() -> None:
    state = play(start("KC", "2H", "3H", "4S"), "take KC bare", "take 2H", "take 3H")
    assert state.health == 9
    assert state.discard == ["KC", "2H", "3H"]


def test_first_potion_of_the_next_room_heals_again() -> None:
    state = play(start("9C", "2H", "3H", "4H"), "take 9C bare", "take 2H", "take 3H")
    assert state.health == 13
    state = play(state, "take 4H")
    assert state.health == 17


# Monsters


def test_bare_handed_fight_loses_full_value_and_discards() -> None:
    state = play(start("JS", "2H", "3H", "4H"), "take JS bare")
    assert state.health == 9
    assert state.discard == ["JS"]


def test_weapon_fight_loses_the_difference_and_stacks_the_monster() -> None:
    state = play(start("5D", "9C", "2H", "3H"), "take 5D", "take 9C weapon")
    assert state.health == 16
    assert state.stack == ["9C"]
    assert state.discard == []


def test_weapon_at_least_as_strong_loses_nothing() -> None:
    state = play(start("8D", "8C", "3S", "2H"), "take 8D", "take 8C weapon", "take 3S weapon")
    assert state.health == 20


def test_no_weapon_means_bare_hands_only() -> None:
    state = start("9C", "2H", "3H", "4H")
    assert "take 9C weapon" not in listed(state)
    assert "no weapon" in refused(state, "take 9C weapon")


def test_fresh_weapon_may_be_used_on_any_monster() -> None:
    state = play(start("2D", "AS", "2H", "3H"), "take 2D")
    assert "take AS weapon" in listed(state)
    assert play(state, "take AS weapon").health == 8


def test_used_weapon_may_be_used_on_an_equal_monster() -> None:
    state = play(start("5D", "9C", "9S", "2H"), "take 5D", "take 9C weapon")
    assert "take 9S weapon" in listed(state)
    assert play(state, "take 9S weapon").stack == ["9C", "9S"]


def test_used_weapon_refuses_a_stronger_monster() -> None:
    state = play(start("5D", "9C", "10S", "2H"), "take 5D", "take 9C weapon")
    assert listed(state) == ["take 10S bare", "take 2H"]
    assert "at most 9C" in refused(state, "take 10S weapon")


def test_weapon_wear_follows_the_last_monster_stacked() -> None:
    state = play(start("9D", "QC", "4S", "6C"), "take 9D", "take QC weapon", "take 4S weapon")
    assert state.room == ["6C", "2C", "3C", "4C"]
    assert "take 6C weapon" not in listed(state)
    assert "take 3C weapon" in listed(state)


def test_strict_weapons_refuses_equal_monster() -> None:
    state = play(start("5D", "9C", "9S", "2H", strict_weapons=True), "take 5D", "take 9C weapon")
    assert "take 9S weapon" not in listed(state)
    assert "lower than 9C" in refused(state, "take 9S weapon")


def test_strict_weapons_allows_strictly_lower_monster() -> None:
    state = play(start("5D", "9C", "8S", "2H", strict_weapons=True), "take 5D", "take 9C weapon")
    assert play(state, "take 8S weapon").stack == ["9C", "8S"]


def test_bare_hands_are_always_allowed_even_with_a_usable_weapon() -> None:
    state = play(start("5D", "9C", "2H", "3H"), "take 5D")
    assert {"take 9C bare", "take 9C weapon"} <= set(listed(state))
    state = play(state, "take 9C bare")
    assert state.health == 11
    assert state.stack == []


def test_seed_example_five_of_diamonds_against_jack_six_then_queen() -> None:
    state = play(start("5D", "JC", "6C", "QS", "9D"), "take 5D", "take JC weapon")
    assert state.health == 14
    state = play(state, "take 6C weapon")
    assert state.health == 13
    assert state.room == ["QS", "9D", "2C", "3C"]
    assert "take QS weapon" not in listed(state)
    refused(state, "take QS weapon")
    assert play(state, "take QS bare").health == 1
    assert play(state, "take 9D", "take QS weapon").health == 10


# The last room


def test_last_room_reveals_everything_left_when_the_dungeon_cannot_fill_it() -> None:
    state = table(["2H", "3H", "4H", "5S"], ["6S", "7D"])
    state = play(state, "take 2H", "take 3H", "take 4H")
    assert state.room == ["5S", "6S", "7D"]
    assert state.dungeon == []
    assert state.last_room


def test_exactly_enough_cards_fill_a_normal_room() -> None:
    state = table(["2H", "3H", "4H", "5S"], ["6S", "7D", "8D"])
    state = play(state, "take 2H", "take 3H", "take 4H")
    assert state.room == ["5S", "6S", "7D", "8D"]
    assert not state.last_room
    assert "avoid" in listed(state)


def test_last_room_cannot_be_avoided() -> None:
    state = table(["5S", "6S", "7D"], [], last_room=True)
    assert "avoid" not in listed(state)
    assert "last room" in refused(state, "avoid")


def test_all_cards_of_the_last_room_must_be_taken() -> None:
    state = table(["2S", "3S", "7D", "4H"], [], last_room=True)
    state = play(state, "take 2S bare", "take 3S bare", "take 7D")
    assert not GAME.is_over(state)
    assert listed(state) == ["take 4H"]
    assert GAME.is_over(play(state, "take 4H"))


def test_one_potion_per_room_still_applies_in_the_last_room() -> None:
    state = table(["2H", "3H", "4S"], [], last_room=True, health=10)
    state = play(state, "take 2H", "take 3H")
    assert state.health == 12


def test_leftover_card_starts_the_last_room_with_a_fresh_potion() -> None:
    state = table(["2H", "3S", "4S", "5H"], ["6H"], health=10)
    state = play(state, "take 2H", "take 3S bare", "take 4S bare")
    assert state.last_room
    state = play(state, "take 5H")
    assert state.health == 10


# The end


def test_game_ends_at_once_at_zero_health() -> None:
    state = play(start("KC", "7S", "2H", "3H"), "take KC bare", "take 7S bare")
    assert state.health == 0
    assert GAME.is_over(state)
    assert GAME.to_move(state) is None
    assert GAME.legal_actions(state, 0) == []
    assert state.room == ["2H", "3H"]


def test_actions_after_the_end_are_refused_with_game_over() -> None:
    state = play(start("KC", "7S", "2H", "3H"), "take KC bare", "take 7S bare")
    refused(state, "take 2H", code="game_over")


def test_empty_dungeon_and_room_is_a_win() -> None:
    state = play(table(["2S", "3D"], [], last_room=True), "take 2S bare", "take 3D")
    assert GAME.is_over(state)
    assert GAME.result(state) == Outcome(
        scores=(18,),
        winner=0,
        reason="survived",
        details={"health": 18, "potion_bonus": 0, "monsters_left": [], "last_card": "3D"},
    )


def test_only_seat_zero_may_act() -> None:
    state = start()
    assert GAME.legal_actions(state, 1) == []
    with pytest.raises(IllegalAction) as refusal:
        GAME.apply(state, 1, {"type": "avoid"})
    assert refusal.value.code == "not_your_turn"


# Score


def test_result_is_none_while_running() -> None:
    assert GAME.result(start()) is None


def test_win_scores_the_remaining_health() -> None:
    state = play(table(["2S", "4H"], [], last_room=True, health=9), "take 4H", "take 2S bare")
    assert GAME.result(state).scores == (11,)


def test_potion_bonus_when_health_is_exactly_20_and_the_last_card_was_a_potion() -> None:
    state = play(table(["2D", "8H"], [], last_room=True), "take 2D", "take 8H")
    result = GAME.result(state)
    assert result.scores == (28,)
    assert result.details["potion_bonus"] == 8


def test_potion_bonus_counts_a_second_potion_that_could_not_heal() -> None:
    state = play(table(["2H", "8H"], [], last_room=True, health=18), "take 2H", "take 8H")
    assert GAME.result(state).scores == (28,)


def test_no_potion_bonus_below_20() -> None:
    state = play(table(["2D", "8H"], [], last_room=True, health=5), "take 2D", "take 8H")
    assert GAME.result(state).scores == (13,)


def test_no_potion_bonus_when_the_last_card_was_not_a_potion() -> None:
    state = play(table(["8H", "2D"], [], last_room=True), "take 8H", "take 2D")
    assert GAME.result(state).scores == (20,)


def test_loss_subtracts_every_monster_not_yet_fought_in_dungeon_and_room() -> None:
    state = play(table(["JC", "4S", "2H", "3D"], ["5C", "6H"], health=5), "take JC bare")
    result = GAME.result(state)
    assert result.kind == "loss"
    assert result.to_json()["outcome"] == "loss"  # not a draw: one seat plays
    assert result.winner is None
    assert result.details["monsters_left"] == ["4S", "5C"]
    assert result.scores == (-6 - 4 - 5,)


def test_seed_example_minus_32() -> None:
    state = play(table(["KS", "2H", "3D", "4H"], ["9S", "KC"], health=3), "take KS bare")
    result = GAME.result(state)
    assert result.details["health"] == -10
    assert result.scores == (-32,)


# What a move reveals: only a move that reveals nothing may be taken back


def reveals(state: ScoundrelState, move: str) -> bool:
    return GAME.reveals(state, GAME.parse_notation(move))


def test_avoiding_a_room_deals_a_new_one_and_cannot_be_taken_back() -> None:
    assert reveals(start(), "avoid")


def test_choices_inside_a_room_that_deal_nothing_can_be_taken_back() -> None:
    state = start("5D", "9C", "2H", "3S")
    assert not any(reveals(state, move) for move in listed(state) if move != "avoid")
    state = play(state, "take 5D")
    assert not any(reveals(state, move) for move in listed(state)), "a weapon, a potion, a fight"


def test_the_take_that_ends_a_room_deals_the_next_and_cannot_be_taken_back() -> None:
    state = play(start("5D", "9C", "2H", "3S"), "take 5D", "take 2H")
    assert all(reveals(state, move) for move in listed(state))


def test_takes_in_the_last_room_deal_nothing_and_can_be_taken_back() -> None:
    state = table(["2S", "3S", "7D", "4H"], [], last_room=True)
    state = play(state, "take 2S bare", "take 3S bare")
    assert not reveals(state, "take 7D")


def test_a_take_that_ends_the_game_cannot_be_taken_back() -> None:
    slain = play(start("KC", "7S", "2H", "3H"), "take KC bare")
    assert reveals(slain, "take 7S bare")
    assert not reveals(slain, "take 2H"), "a potion instead: the game goes on"
    assert reveals(table(["3D"], [], last_room=True), "take 3D"), "won: the end shows all"


# Actions and notation


@pytest.mark.parametrize(
    ("action", "text"),
    [
        ({"type": "avoid"}, "avoid"),
        ({"type": "take", "card": "7C", "weapon": True}, "take 7C weapon"),
        ({"type": "take", "card": "7C", "weapon": False}, "take 7C bare"),
        ({"type": "take", "card": "5D", "weapon": False}, "take 5D"),
        ({"type": "take", "card": "10H", "weapon": False}, "take 10H"),
    ],
)
def test_notation_round_trips(action: dict[str, Any], text: str) -> None:
    assert GAME.notation(action) == text
    assert GAME.parse_notation(text) == action


@pytest.mark.parametrize(
    "text", ["", "flee", "take", "take KH", "take 7C sword", "take 7C weapon now", "avoid 7C"]
)
def test_parse_notation_refuses_junk(text: str) -> None:
    with pytest.raises(IllegalAction) as refusal:
        GAME.parse_notation(text)
    assert refusal.value.code == "malformed"


@pytest.mark.parametrize(
    "action",
    [
        None,
        "avoid",
        {},
        {"type": "flee"},
        {"type": "avoid", "card": "2H"},
        {"type": "take", "card": "2H"},
        {"type": "take", "card": "2H", "weapon": 0},
        {"type": "take", "card": "2H", "weapon": "no"},
        {"type": "take", "card": "KH", "weapon": False},
        {"type": "take", "card": ["2H"], "weapon": False},
        {"type": "take", "card": "2H", "weapon": False, "extra": 1},
    ],
)
def test_malformed_actions_are_refused_as_malformed(action: Any) -> None:
    state = start("2H", "3D", "4C", "5S")
    with pytest.raises(IllegalAction) as refusal:
        GAME.apply(state, 0, action)
    assert refusal.value.code == "malformed"


def test_apply_returns_a_new_state_and_leaves_its_input_alone() -> None:
    state = start("5D", "9C", "2H", "3H")
    before = state.clone()
    after = play(state, "take 5D", "take 9C weapon")
    assert state == before
    assert after != before


def test_legal_actions_are_exactly_what_apply_accepts_here() -> None:
    state = play(start("5D", "9C", "10S", "2H"), "take 5D", "take 9C weapon")
    moves = [
        "avoid",
        "take 10S bare",
        "take 10S weapon",
        "take 2H",
        "take 2H weapon",
        "take 3C bare",
    ]
    accepted = []
    for move in moves:
        try:
            play(state, move)
        except IllegalAction:
            continue
        accepted.append(move)
    assert accepted == listed(state)


# The view


def test_view_shows_the_public_table_and_only_the_dungeon_size() -> None:
    state = play(start("5D", "9C", "10S", "2H"), "take 5D", "take 9C weapon")
    view = GAME.view(state, 0)
    assert view == {
        "phase": "room",
        "health": 16,
        "max_health": 20,
        "room": ["10S", "2H"],
        "weapon": "5D",
        "stack": ["9C"],
        "weapon_limit": 9,
        "dungeon_size": 40,
        "discard_count": 0,
        "can_avoid": False,
        "avoided_last_room": False,
        "last_room": False,
        "taken_this_room": 2,
        "potion_used": False,
        "strict_weapons": False,
        "open_discard": False,
        "takes": [
            {"card": "10S", "weapon": False, "health": -10},
            {"card": "2H", "weapon": False, "health": 2},
        ],
        "result": None,
    }
    text = json.dumps(view)
    assert not [card for card in state.dungeon if f'"{card}"' in text]


def test_view_gives_each_take_its_change_of_health() -> None:
    state = table(["8H", "9C", "4D", "5S"], [], health=15, weapon="3D", stack=["9S"])
    takes = {
        (take["card"], take["weapon"]): take["health"] for take in GAME.view(state, 0)["takes"]
    }
    assert takes == {
        ("8H", False): 5,  # a potion heals up to the maximum
        ("9C", False): -9,
        ("9C", True): -6,  # the weapon takes its value off
        ("4D", False): 0,  # a weapon is equipped
        ("5S", False): -5,
        ("5S", True): -2,
    }


def test_view_shows_a_second_potion_of_a_room_heals_nothing() -> None:
    state = table(["8H", "9C"], [], health=5, potion_used=True, taken=1)
    takes = {take["card"]: take["health"] for take in GAME.view(state, 0)["takes"]}
    assert takes["8H"] == 0


def test_view_lists_no_take_once_the_game_is_over() -> None:
    state = table(["8H", "9C"], [], health=0, phase="over")
    assert GAME.view(state, 0)["takes"] == []


def test_discard_pile_lies_face_down_by_default() -> None:
    state = play(start("5H", "9C", "10S", "2H"), "take 5H", "take 9C bare")
    view = GAME.view(state, 0)
    assert view["discard_count"] == 2
    assert "discard" not in view
    assert '"5H"' not in json.dumps(view) and '"9C"' not in json.dumps(view)


def test_open_discard_shows_the_discarded_cards() -> None:
    state = play(start("5H", "9C", "10S", "2H", open_discard=True), "take 5H", "take 9C bare")
    assert GAME.view(state, 0)["discard"] == ["5H", "9C"]


def test_replays_reveal_the_discard_pile() -> None:
    state = play(start("5H", "9C", "10S", "2H"), "take 5H", "take 9C bare")
    assert GAME.view(state, None, reveal=True)["discard"] == ["5H", "9C"]


def test_strict_weapon_limit_is_one_below_the_last_monster() -> None:
    state = play(start("5D", "9C", "2H", "3H", strict_weapons=True), "take 5D", "take 9C weapon")
    assert GAME.view(state, 0)["weapon_limit"] == 8


def test_spectators_see_the_same_public_table() -> None:
    state = play(start(), "avoid")
    assert GAME.view(state, None) == GAME.view(state, 0)


def test_reveal_adds_the_dungeon_in_order() -> None:
    state = start()
    assert GAME.view(state, None, reveal=True)["dungeon"] == state.dungeon


def test_view_after_the_end_includes_the_result() -> None:
    state = play(start("KC", "7S", "2H", "3H"), "take KC bare", "take 7S bare")
    view = GAME.view(state, 0)
    assert view["phase"] == "over"
    assert view["result"] == GAME.result(state).to_json()


def test_state_round_trips_through_json() -> None:
    state = play(start("5D", "9C", "10S", "2H"), "take 5D", "take 9C weapon")
    assert GAME.state_from_json(json.loads(json.dumps(state.to_json()))) == state
