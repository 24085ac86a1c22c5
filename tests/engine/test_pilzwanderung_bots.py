"""Pilzwanderung bots: only legal actions, decisions from what the seat knows, a sampler
that deals worlds the seat cannot tell from the real one, and the easy heuristic's rules
(``engine/bots/pilzwanderung.py``) on stacked tables."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

from engine import get_game
from engine.bots import Bot, bot_levels, get_bot
from engine.bots.pilzwanderung import (
    EasyBot,
    Notebook,
    PilzStrongBot,
    Table,
    candidates,
    determinize,
    easy_action,
    read_facts,
)
from engine.bots.search import StrongBot
from engine.pilzwanderung import HANDABLE_DAY, PilzwanderungState, role_key
from tests.engine.bot_matches import History, bot_match
from tests.engine.test_pilzwanderung import act, table

GAME = get_game("pilzwanderung")
PRESETS = [dict(p.options) for p in GAME.presets]


def quick(level: str) -> Bot:
    if level == "strong":
        return get_bot("pilzwanderung", level, playouts=16)
    return get_bot("pilzwanderung", level)


def match(
    bots: list[Bot], seed: int, options: dict[str, Any]
) -> Iterator[tuple[PilzwanderungState, int, History]]:
    return bot_match(GAME, bots, seed, options, max_plies=1000)


def test_the_registry_offers_easy_and_strong() -> None:
    assert sorted(bot_levels("pilzwanderung")) == ["easy", "strong"]


@pytest.mark.parametrize("options", PRESETS)
@pytest.mark.parametrize("seed", range(6))
def test_easy_and_random_bots_only_play_legal_actions(seed: int, options: dict[str, Any]) -> None:
    for _ in match([quick("easy"), quick("random")][:: 1 - 2 * (seed % 2)], seed, options):
        pass


@pytest.mark.parametrize("options", PRESETS)
def test_the_strong_bot_only_plays_legal_actions(options: dict[str, Any]) -> None:
    for _ in match([quick("strong"), quick("easy")], 3, options):
        pass


def states_along(
    seed: int, options: dict[str, Any], every: int = 7
) -> Iterator[tuple[PilzwanderungState, int, History, Notebook]]:
    """States of an easy-vs-random match, with the notebook the deciding seat kept so far."""
    books = [Notebook(), Notebook()]
    for ply, (state, seat, history) in enumerate(
        match([quick("easy"), quick("random")], seed, options)
    ):
        books[seat].write(GAME.view(state, seat), history)
        if ply % every == 0:
            yield state, seat, history, books[seat]


def decision(bot: Bot, state: PilzwanderungState, seat: int, history: History, view: Any) -> Any:
    return bot.choose(view, GAME.legal_actions(state, seat), history, seat, random.Random(5))


def hidden_changes_decision(
    bot: Bot, state: Any, seat: int, history: History, reveal: bool
) -> bool:
    """Deal what the seat cannot see again: does the bot then decide otherwise?"""
    seen = decision(bot, state, seat, history, GAME.view(state, seat, reveal=reveal))
    for copy in range(3):
        other = GAME.redeal_hidden(state, seat, random.Random(copy))
        assert GAME.view(other, seat) == GAME.view(state, seat)
        if decision(bot, other, seat, history, GAME.view(other, seat, reveal=reveal)) != seen:
            return True
    return False


@pytest.mark.parametrize("options", PRESETS)
@pytest.mark.parametrize("level", ["easy", "strong"])
def test_decisions_depend_on_nothing_hidden(level: str, options: dict[str, Any]) -> None:
    bot = quick(level)
    checked = 0
    for state, seat, history, _ in states_along(11, options, every=9):
        assert not hidden_changes_decision(bot, state, seat, history, reveal=False)
        checked += 1
    assert checked > 3


class Peeker:
    """A planted leak: its choice follows the opponent's hand."""

    def choose(self, view: Any, legal: Any, history: Any, seat: int, rng: Any) -> Any:
        hands = view.get("hands")
        theirs = sorted(hands[1 - seat]) if hands else []
        return legal[len(theirs[0]) * 7 % len(legal)] if theirs else legal[0]


def test_the_hidden_information_check_catches_a_bot_that_peeks() -> None:
    caught = any(
        hidden_changes_decision(Peeker(), state, seat, history, reveal=True)
        for state, seat, history, _ in states_along(2, {}, every=3)
    )
    assert caught


def roles(cards: list[str]) -> Counter[str | int]:
    return Counter(role_key(card) for card in cards)


@pytest.mark.parametrize("options", PRESETS)
def test_a_sampled_world_shows_the_seat_exactly_its_view(options: dict[str, Any]) -> None:
    rng = random.Random(1)
    checked = 0
    for seed in range(3):
        for state, seat, history, book in states_along(seed, options, every=2):
            world = determinize(GAME.view(state, seat), history, seat, rng, book.views)
            assert GAME.view(world, seat) == GAME.view(state, seat)
            hidden = [*state.hands[1 - seat], *state.draw_pile, *state.discard, *state.night_deck]
            dealt = [*world.hands[1 - seat], *world.draw_pile, *world.discard, *world.night_deck]
            assert roles(dealt) == roles(hidden), "the same cards, by role, are unseen"
            assert all(card in HANDABLE_DAY or card[0] == "N" for card in world.hands[1 - seat])
            checked += 1
    assert checked > 50


@pytest.mark.parametrize("options", PRESETS)
def test_what_the_seat_knows_is_true(options: dict[str, Any]) -> None:
    """Every card the notebook places in the opponent's hand or the discard pile is there."""
    known = 0
    for seed in range(3):
        for state, seat, history, book in states_along(seed, options, every=1):
            facts = read_facts(GAME.view(state, seat), history, seat, book.views)
            held = roles([card for card in state.hands[1 - seat] if card in HANDABLE_DAY])
            gone = roles([card for card in state.discard if card[0] != "N"])
            assert facts.held <= held
            assert facts.flushed + facts.sold <= gone
            assert set(facts.nights_out) <= set(state.discard)
            known += facts.held.total()
    assert known > 50


def seen_by_both(
    state: PilzwanderungState, history: History, *moves: str
) -> tuple[PilzwanderungState, History, list[Notebook]]:
    """Play moves in notation, each seat noting the view it decided from."""
    books = [Notebook(), Notebook()]
    for move in moves:
        seat = state.to_move
        books[seat].write(GAME.view(state, seat), history)
        action = GAME.parse_notation(move)
        history = [*history, (seat, action)]
        state = act(state, move)
    return state, history, books


def test_cards_the_opponent_took_from_the_decay_pile_stay_in_its_sampled_hand() -> None:
    start = table(hand0=["2S"], hand1=["4S"], decay=["9H", "9D", "QH"], to_move=0)
    state, history, books = seen_by_both(start, [], "take 1", "decay")
    books[0].write(GAME.view(state, 0), history)
    for copy in range(5):
        world = determinize(GAME.view(state, 0), history, 0, random.Random(copy), books[0].views)
        assert roles(world.hands[1])[9] >= 2 and roles(world.hands[1])["butter"] >= 1


def test_a_card_the_opponent_took_from_the_forest_stays_in_its_sampled_hand() -> None:
    start = table(hand0=["2S"], hand1=["4S"], to_move=0, sticks=(0, 3))
    state, history, books = seen_by_both(start, [], "take 1", "take 5")
    taken = start.forest[6]  # position 5 once position 1 was taken and position 2 fell
    books[0].write(GAME.view(state, 0), history)
    for copy in range(5):
        world = determinize(GAME.view(state, 0), history, 0, random.Random(copy), books[0].views)
        assert roles(world.hands[1])[role_key(taken)] >= 1


def test_without_a_notebook_the_opponent_s_cards_are_unknown() -> None:
    start = table(hand0=["2S"], hand1=["4S"], decay=["9H", "9D", "QH"], to_move=0)
    state, history, _ = seen_by_both(start, [], "take 1", "decay")
    facts = read_facts(GAME.view(state, 0), history, 0, {})
    assert not facts.held


def test_what_a_later_view_contradicts_is_forgotten() -> None:
    start = table(hand0=["2S"], hand1=["4S"], decay=["3H", "3D", "QH"], to_move=0)
    state, history, books = seen_by_both(start, [], "take 1", "decay")
    view = GAME.view(state, 0)
    assert read_facts(view, history, 0, books[0].views).held
    wrong = {**books[0].views[0], "draw_pile": books[0].views[0]["draw_pile"] + 1}
    assert not read_facts(view, history, 0, {0: wrong}).held


def test_a_new_strong_bot_handed_the_earlier_views_decides_as_one_that_kept_them() -> None:
    kept = PilzStrongBot(playouts=16)
    compared = 0
    for state, seat, history in match([kept, quick("easy")], 5, {}):
        if seat != 0 or len(history) % 5:
            continue
        view, legal = GAME.view(state, 0), GAME.legal_actions(state, 0)
        handed = PilzStrongBot(playouts=16, seen=dict(kept.notebook.views))
        told = handed.choose(view, legal, history, 0, random.Random(3))
        assert kept.choose(view, legal, history, 0, random.Random(3)) == told
        compared += 1
    assert compared > 3


# The easy heuristic, rule by rule

PLAIN_REST = ["3S", "4D", "5S", "6S", "7S", "8S", "9C"]


def easy(state: PilzwanderungState) -> str:
    seat = state.to_move
    return GAME.notation(easy_action(Table.of_state(state, seat)))


def test_easy_cooks_a_big_set_with_butter_and_cider() -> None:
    hand = ["3S", "3H", "3D", "3C", "3S", "QH", "KH", "2H"]
    assert easy(table(hand0=hand)) == "cook 3 day5 night0 pan:display butter0 cider1"
    hand = ["2S", "2H", "2D", "2C", "QH", "5H"]
    assert easy(table(hand0=hand)) == "cook 2 day4 night0 pan:display butter1 cider0"


def test_easy_waits_with_a_small_set_while_the_forest_is_long() -> None:
    assert easy(table(hand0=["2S", "2H", "2D", "5S"]))[:4] != "cook"


def test_easy_cooks_every_set_when_the_forest_runs_out() -> None:
    state = table(hand0=["2S", "2H", "2D", "5S"], draw=["3C", "4C"])
    assert easy(state) == "cook 2 day3 night0 pan:display butter0 cider0"


def test_easy_sells_a_pair_for_sticks_to_reach_a_good_deep_card() -> None:
    forest = ["2S", "4D", "6D", "KH", "9C", "9D", "QH", "AS"]
    state = table(forest=forest, hand0=["3S", "3H", "9S", "9H", "5S", "5H"])
    assert easy(state) == "sell 3 day2 night0"


def test_easy_guards_the_hand_limit_and_takes_no_poison_with_a_full_hand() -> None:
    forest = ["KS", "KC", "QS", "2D", "3D", "4D", "5D", "6D"]
    hand = ["2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S"]
    assert easy(table(forest=forest, hand0=hand, sticks=(2, 0))) == "take 3"  # the basket


def test_easy_takes_a_good_decay_pile() -> None:
    state = table(hand0=["3S", "2H"], decay=["3H", "3D", "3C"])
    assert easy(state) == "decay"


def test_easy_discards_the_cards_worth_least_after_a_poison_mushroom() -> None:
    hand = ["9S", "9H", "9D", "2C", "3H", "JS", "QH", "4S"]
    forest = ["KS", *PLAIN_REST]
    state = act(table(forest=forest, hand0=hand), "take 1")
    assert state.phase == "discard"
    discarded = set(easy_action(Table.of_state(state, 0))["cards"])
    assert discarded == {"2C", "3H", "4S", "JS"}


def test_easy_bot_answers_from_the_view() -> None:
    state: PilzwanderungState = GAME.new(seed=8, options={"first": 1})
    legal = GAME.legal_actions(state, 1)
    assert EasyBot().choose(GAME.view(state, 1), legal, [], 1, random.Random(0)) in legal


# The strong bot's machinery


def test_the_search_compares_one_cook_per_kind_the_whole_set_with_its_best_extras() -> None:
    state = table(hand0=["3S", "3H", "3D", "3C", "3S", "QH", "KH"], sticks=(6, 0))
    legal = GAME.legal_actions(state, 0)
    chosen = candidates(GAME.view(state, 0), legal, 0)
    cooks = [GAME.notation(action) for action in chosen if action["type"] == "cook"]
    assert cooks == ["cook 3 day5 night0 pan:display butter0 cider1"]
    assert sum(action["type"] == "cook" for action in legal) > 5
    assert all(action in chosen for action in legal if action["type"] == "take")


def test_the_strong_bot_stops_when_its_seconds_are_up() -> None:
    ticks = iter(range(10**6))
    bot = PilzStrongBot(seconds=3.0)
    bot.search = StrongBot(GAME, bot.search.rules, seconds=3.0, clock=lambda: float(next(ticks)))
    state: PilzwanderungState = GAME.new(seed=4, options={"first": 0})
    legal = GAME.legal_actions(state, 0)
    assert bot.choose(GAME.view(state, 0), legal, [], 0, random.Random(0)) in legal
    assert 0 < bot.last_playouts <= 3 * len(legal)
