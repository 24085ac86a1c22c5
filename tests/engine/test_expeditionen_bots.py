"""Expeditionen's bots: only legal actions, decisions from what the seat knows, and the easy
heuristic's rules (``engine/bots/expeditionen.py``) on stacked tables."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest

from engine import get_game
from engine.bots import Bot, bot_levels, get_bot
from engine.bots.expeditionen import (
    EasyBot,
    Sight,
    Table,
    determinize,
    easy_draw,
    easy_play,
    medium_draw,
    medium_play,
)
from engine.expeditionen import ExpeditionenState, deck_for
from tests.engine.bot_matches import History, bot_match

GAME = get_game("expeditionen")
PRESETS = [{}] + [dict(p.options) for p in GAME.presets]


def quick(level: str) -> Bot:
    return (
        get_bot("expeditionen", level, playouts=24)
        if level == "strong"
        else get_bot("expeditionen", level)
    )


def match(
    bots: list[Bot], seed: int, options: dict[str, Any]
) -> Iterator[tuple[ExpeditionenState, int, History]]:
    return bot_match(GAME, bots, seed, options, max_plies=4000)


def test_the_registry_offers_easy_medium_and_strong_and_refuses_unknown_levels() -> None:
    assert bot_levels("expeditionen") == ["easy", "medium", "strong"]
    with pytest.raises(KeyError):
        get_bot("expeditionen", "grandmaster")


@pytest.mark.parametrize("options", PRESETS)
@pytest.mark.parametrize("seed", range(4))
def test_easy_and_random_bots_only_play_legal_actions(seed: int, options: dict[str, Any]) -> None:
    for _ in match([quick("easy"), quick("random")][:: 1 - 2 * (seed % 2)], seed, options):
        pass


def test_the_strong_bot_only_plays_legal_actions() -> None:
    for _ in match([quick("strong"), quick("easy")], 3, {"rounds": 1, "with_aces": True}):
        pass


def states_along(seed: int, options: dict[str, Any], every: int = 7) -> Iterator[Any]:
    for ply, found in enumerate(match([quick("easy"), quick("random")], seed, options)):
        if ply % every == 0:
            yield found


def decision(bot: Bot, state: ExpeditionenState, seat: int, history: Any, view: Any) -> Any:
    return bot.choose(view, GAME.legal_actions(state, seat), history, seat, random.Random(5))


def hidden_changes_decision(bot: Bot, state: Any, seat: int, history: Any, reveal: bool) -> bool:
    """Deal what the seat cannot see again: does the bot then decide otherwise?"""
    seen = decision(bot, state, seat, history, GAME.view(state, seat, reveal=reveal))
    for copy in range(3):
        other = GAME.redeal_hidden(state, seat, random.Random(copy))
        assert GAME.view(other, seat) == GAME.view(state, seat)
        if decision(bot, other, seat, history, GAME.view(other, seat, reveal=reveal)) != seen:
            return True
    return False


@pytest.mark.parametrize("level", ["easy", "medium", "strong"])
def test_decisions_depend_on_nothing_hidden(level: str) -> None:
    bot = quick(level)
    for state, seat, history in states_along(11, {"rounds": 1}, every=9):
        assert not hidden_changes_decision(bot, state, seat, history, reveal=False)


class Peeker:
    """A planted leak: it plays the card the opponent's hand makes most dangerous."""

    def choose(self, view: Any, legal: Any, history: Any, seat: int, rng: Any) -> Any:
        hands = view.get("hands")
        if hands is None:
            return legal[0]
        theirs = sorted(hands[1 - seat])
        return legal[len(theirs[0]) * 7 % len(legal)] if theirs else legal[0]


def test_the_hidden_information_check_catches_a_bot_that_peeks() -> None:
    caught = any(
        hidden_changes_decision(Peeker(), state, seat, history, reveal=True)
        for state, seat, history in states_along(2, {"rounds": 1}, every=5)
    )
    assert caught


@pytest.mark.parametrize("options", PRESETS)
def test_a_determinized_state_shows_the_seat_exactly_its_view(options: dict[str, Any]) -> None:
    rng = random.Random(1)
    checked = 0
    for state, seat, history in states_along(4, options, every=3):
        world = determinize(GAME.view(state, seat), history, seat, rng)
        assert GAME.view(world, seat) == GAME.view(state, seat)
        assert world.discards == state.discards, "the whole discard piles follow from history"
        assert sorted(world.hands[1 - seat] + world.draw_pile) == sorted(
            state.hands[1 - seat] + state.draw_pile
        )
        checked += 1
    assert checked > 10


def test_a_card_the_opponent_picked_up_stays_in_its_sampled_hand() -> None:
    state: ExpeditionenState = GAME.new(seed=3, options={"rounds": 1, "first": 0})
    history: list[tuple[int, dict[str, Any]]] = []
    for seat, text in [(0, "discard " + state.hands[0][0]), (0, "draw deck")]:
        action = GAME.parse_notation(text)
        history.append((seat, action))
        state = GAME.apply(state, seat, action)
    picked = state.discards[history[0][1]["card"][-1]][-1]
    for text in ["discard " + state.hands[1][0], "draw " + picked[-1]]:
        action = GAME.parse_notation(text)
        history.append((1, action))
        state = GAME.apply(state, 1, action)
    for copy in range(5):
        world = determinize(GAME.view(state, 0), history, 0, random.Random(copy))
        assert picked in world.hands[1]


# The easy heuristic, rule by rule


def table(
    hand: list[str],
    mine: dict[str, list[str]] | None = None,
    theirs: dict[str, list[str]] | None = None,
    tops: dict[str, str] | None = None,
    pile: int = 30,
    discarded: str | None = None,
) -> Table:
    empty = {s: [] for s in "SHDC"}
    return Table(
        hand=hand,
        mine={**empty, **(mine or {})},
        theirs={**empty, **(theirs or {})},
        tops={**dict.fromkeys("SHDC"), **(tops or {})},
        pile=pile,
        discarded=discarded,
    )


def test_easy_opens_an_expedition_only_with_enough_behind_it() -> None:
    thin = table(["3H", "9S", "4D", "7C", "2S", "10D", "5C", "6H"])
    assert easy_play(thin)["type"] == "discard"
    backed = table(["4H", "7H", "9H", "10H", "2S", "3D", "5C", "6S"])
    assert easy_play(backed) == {"type": "play", "card": "4H"}


def test_easy_wagers_early_on_a_strong_suit_and_not_late() -> None:
    hand = ["JH", "5H", "7H", "8H", "10H", "2S", "3D", "4C"]
    assert easy_play(table(hand, pile=30)) == {"type": "play", "card": "JH"}
    assert easy_play(table(hand, pile=6))["card"] != "JH"


def test_easy_keeps_ascending_with_the_lowest_close_card() -> None:
    hand = ["5S", "6S", "9S", "2H", "3D", "4C", "KC", "QD"]
    assert easy_play(table(hand, mine={"S": ["4S"]})) == {"type": "play", "card": "5S"}


def test_easy_discards_what_cannot_help_the_opponent() -> None:
    hand = ["2S", "9H", "3D", "4C", "8S", "7D", "KH", "5H"]
    theirs = {"S": ["5S"], "H": ["4H"], "D": ["2D"], "C": ["3C"]}
    assert easy_play(table(hand, theirs=theirs)) == {"type": "discard", "card": "2S"}


def test_easy_draws_a_discard_that_continues_its_expedition_and_otherwise_the_deck() -> None:
    assert easy_draw(table([], mine={"H": ["5H"]}, tops={"H": "6H"})) == {
        "type": "draw",
        "source": "H",
    }
    assert easy_draw(table([], mine={"H": ["5H"]}, tops={"H": "10H"}))["source"] == "deck"
    assert (
        easy_draw(table([], mine={"H": ["5H"]}, tops={"H": "6H"}, discarded="6H"))["source"]
        == "deck"
    )


def test_easy_bot_answers_from_the_view() -> None:
    state: ExpeditionenState = GAME.new(seed=8, options={"first": 1})
    view = GAME.view(state, 1)
    action = EasyBot().choose(view, GAME.legal_actions(state, 1), [], 1, random.Random(0))
    assert action in GAME.legal_actions(state, 1)
    assert json.loads(json.dumps(action)) == action


# The strong bot's machinery


def test_the_fast_rollout_plays_the_round_as_the_engine_does() -> None:
    from engine.bots import expeditionen as bots
    from engine.bots.search import StrongBot

    through_engine = StrongBot(GAME, replace(bots.RULES, rollout=None), playouts=1)
    fast = StrongBot(GAME, bots.RULES, playouts=1)
    checked = 0
    for state, seat, history in states_along(6, {"rounds": 1}, every=5):
        world = determinize(GAME.view(state, seat), history, seat, random.Random(checked))
        action = GAME.legal_actions(world, seat)[0]
        slow = through_engine.playout(world, seat, action, random.Random(1))
        assert fast.playout(world, seat, action, random.Random(1)) == slow
        checked += 1
    assert checked > 5


def test_the_strong_bot_stops_when_its_seconds_are_up() -> None:
    from engine.bots.expeditionen import RULES
    from engine.bots.search import StrongBot

    ticks = iter(range(10**6))
    bot = StrongBot(GAME, RULES, seconds=3.0, clock=lambda: float(next(ticks)))
    state: ExpeditionenState = GAME.new(seed=4, options={"first": 0})
    legal = GAME.legal_actions(state, 0)
    assert bot.choose(GAME.view(state, 0), legal, [], 0, random.Random(0)) in legal
    assert 0 < bot.last_playouts <= 3 * len(legal)


# The medium heuristic, rule by rule


def sight(
    hand: list[str],
    mine: dict[str, list[str]] | None = None,
    theirs: dict[str, list[str]] | None = None,
    tops: dict[str, str] | None = None,
    pile: int = 30,
) -> Sight:
    """A seat's sight of a stacked table: every card not on it is unseen."""
    shown = table(hand, mine, theirs, tops, pile)
    seen = {*hand, *(tops or {}).values()}
    seen |= {
        card for side in (shown.mine, shown.theirs) for cards in side.values() for card in cards
    }
    unseen = [card for card in deck_for(False) if card not in seen]
    return Sight(shown, unseen, [])


def test_medium_does_not_open_an_expedition_it_cannot_pay_for_late_in_the_round() -> None:
    hand = ["4H", "6H", "8H", "9H", "10H", "7S", "7D", "7C"]
    assert medium_play(sight(hand, pile=40)) == {"type": "play", "card": "4H"}
    assert medium_play(sight(hand, pile=4))["type"] == "discard"


def test_medium_wagers_early_with_enough_behind_it_and_not_without() -> None:
    backed = ["JH", "5H", "7H", "8H", "10H", "2S", "3D", "4C"]
    assert medium_play(sight(backed, pile=40)) == {"type": "play", "card": "JH"}
    assert medium_play(sight(backed, pile=6))["card"] != "JH"
    thin = ["JH", "4H", "2S", "9S", "3D", "8D", "4C", "10C"]
    assert medium_play(sight(thin, pile=40))["card"] != "JH"


def test_medium_keeps_ascending_without_skipping_the_cards_it_holds() -> None:
    hand = ["5S", "7S", "9S", "2H", "3D", "4C", "KC", "QD"]
    assert medium_play(sight(hand, mine={"S": ["4S"]})) == {"type": "play", "card": "5S"}


def test_medium_discards_what_gives_the_opponent_least() -> None:
    hand = ["2H", "3H", "2S", "3S", "2C", "3C", "2D", "3D"]
    mine = {s: ["4" + s] for s in "HSCD"}
    theirs = {"H": ["KH"], "S": ["KS"], "C": ["KC"]}
    choice = medium_play(sight(hand, mine=mine, theirs=theirs))
    assert choice["type"] == "discard"
    assert choice["card"] in ("2D", "3D")


def test_medium_takes_a_discard_that_continues_its_expedition_and_otherwise_the_deck() -> None:
    hand = ["2S", "3D", "4C", "KC", "QD", "9S", "10D"]
    assert medium_draw(sight(hand, mine={"H": ["5H"]}, tops={"H": "6H"}))["source"] == "H"
    assert medium_draw(sight(hand, mine={"H": ["5H"]}, tops={"H": "2H"}))["source"] == "deck"


@pytest.mark.parametrize("options", PRESETS)
@pytest.mark.parametrize("seed", range(2))
def test_the_medium_bot_only_plays_legal_actions(seed: int, options: dict[str, Any]) -> None:
    for _ in match([quick("medium"), quick("random")][:: 1 - 2 * (seed % 2)], seed, options):
        pass
