"""The strong bot's search, for any game: which actions stay in the race."""

import random
from typing import Any

from engine.bots.search import RACE_FROM, Arm, SearchRules, StrongBot, raced


def arms_of(*rewards: list[float]) -> dict[int, Arm]:
    return {index: Arm(list(values)) for index, values in enumerate(rewards)}


def wobble(level: float, worlds: int = RACE_FROM) -> list[float]:
    """Rewards around ``level`` that differ from world to world."""
    return [level + (0.2 if world % 2 else -0.2) * (world % 3) for world in range(worlds)]


def test_an_action_clearly_worse_on_the_same_worlds_drops_out_of_the_race() -> None:
    arms = arms_of(wobble(0.5), [reward - 0.3 for reward in wobble(0.5)])
    assert list(raced(arms, favourite=None, trust=0.0)) == [0]


def test_an_action_only_somewhat_worse_stays_in_the_race() -> None:
    noisy = [0.4 + 0.1 * ((world * 7) % 5 - 2) for world in range(RACE_FROM)]
    arms = arms_of(wobble(0.5), noisy)
    assert list(raced(arms, favourite=None, trust=0.0)) == [0, 1]


def test_an_action_equal_on_every_world_drops_out_for_the_first() -> None:
    arms = arms_of(wobble(0.5), wobble(0.5))
    assert list(raced(arms, favourite=None, trust=0.0)) == [0]


def test_the_games_favourite_keeps_its_head_start_in_the_race() -> None:
    arms = arms_of(wobble(0.5), [reward - 0.01 for reward in wobble(0.5)])
    assert list(raced(arms, favourite=1, trust=0.02)) == [1]
    assert list(raced(arms, favourite=None, trust=0.02)) == [0]


class Lottery:
    """A game of one decision: each action is a ticket whose rollouts pay ``worth`` plus
    noise (only ``apply`` is needed by the search when the rules bring their own rollout)."""

    def apply(self, state: None, seat: int, action: dict[str, Any]) -> float:
        return float(action["worth"])


def noise(worth: float, rng: random.Random) -> float:
    """Luck of its own for each ticket in each world."""
    return random.Random(f"{worth} {rng.random()}").uniform(-0.1, 0.1)


def lottery_bot(playouts: int) -> StrongBot[Any, Any, Any]:
    rules: SearchRules[Any, Any, Any] = SearchRules(
        sampler=lambda view, history, seat: lambda rng: None,
        policy=lambda state, seat, rng: {},
        horizon=lambda start, state: True,
        reward=lambda state, seat: 0.0,
        rollout=lambda worth, seat, rng: worth + noise(worth, rng),
    )
    return StrongBot(Lottery(), rules, playouts=playouts)  # type: ignore[arg-type]


def test_a_decision_the_race_settles_ends_before_its_budget() -> None:
    bot = lottery_bot(playouts=4000)
    tickets = [{"type": "ticket", "worth": worth} for worth in (0.2, 0.9, 0.5, 0.1)]
    assert bot.choose({}, tickets, [], 0, random.Random(1)) == tickets[1]
    assert bot.last_playouts < 4 * RACE_FROM + 3  # the first check settled it


def test_a_close_call_uses_its_whole_budget() -> None:
    bot = lottery_bot(playouts=400)
    tickets = [{"type": "ticket", "worth": worth} for worth in (0.5, 0.5001)]
    bot.choose({}, tickets, [], 0, random.Random(1))
    assert bot.last_playouts == 400
