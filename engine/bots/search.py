"""The strong bot, for any game: determinized Monte Carlo over the root actions, compared
on common sampled worlds, with sequential halving.

Each sampled world deals the hidden cards again at random, consistently with everything
the seat has seen (the game's ``sampler``). Every root action still in the running is
tried in that same world with the same rollout dice: apply it, play on with a fast policy
(the game's ``policy``) until the game's ``horizon``, and score the end with the game's
``reward`` (0 = lost, 1 = won, from the deciding seat's side). Comparing actions on the
same worlds cancels most of the luck of the deal. After 4, 8, 16, ... worlds the worse
half of the actions drops out, so the budget goes to the close calls. The answer is the
best mean of those left. An action that the same worlds show clearly worse than the
leader (its mean difference more than ``RACE_Z`` standard errors) drops out at once, and
a decision with a single action left ends before its budget: the budget is a ceiling
that only close calls use up. Nothing but the view and the public history goes in: a state
only exists as one of the sampled worlds.

Budget: ``playouts`` (a fixed number of rollouts, for reproducible tests) or else
``seconds`` of thinking on one core (default 1.0), measured with ``time.perf_counter``
(or another ``clock``: the figures count the process's own CPU time).
"""

from __future__ import annotations

import math
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from engine.base import Game, GameState
from engine.bots.base import History

S = TypeVar("S", bound=GameState)
A = TypeVar("A")
V = TypeVar("V")

Sampler = Callable[[random.Random], S]
Clock = Callable[[], float]
Policy = Callable[[S, int, random.Random], A]


@dataclass(frozen=True)
class SearchRules(Generic[S, A, V]):
    """What the strong bot needs to know about one game, beside its contract.

    ``sampler(view, history, seat)`` reads what the seat knows once per decision and
    returns a function that deals one consistent world per call; ``policy(state, seat,
    rng)`` is the rollout move of the seat to move; ``horizon(start, state)`` says a rollout
    may stop (for example at the end of the round) and ``reward(state, seat)`` scores it.
    """

    sampler: Callable[[V, History[A], int], Sampler[S]]
    policy: Policy[S, A]
    horizon: Callable[[S, S], bool]
    reward: Callable[[S, int], float]
    max_plies: int = 1000
    # The game's easy choice from the view, if it has one: it keeps a head start of
    # ``trust`` (in reward) so that the search leaves it only on clear evidence.
    hint: Callable[[V, History[A], int], A] | None = None
    trust: float = 0.0
    # A game may play its rollouts itself, faster than through the contract: from the
    # state after the root action to the reward of the deciding seat.
    rollout: Callable[[S, int, random.Random], float] | None = None


MIN_WORLDS = 2  # worlds per halving phase, however small the budget
RACE_FROM = 16  # worlds before the first race check; then after 32, 64, ...
RACE_Z = 4.0  # standard errors by which an action must trail to drop out early


@dataclass
class Arm:
    rewards: list[float] = field(default_factory=list)  # one per world, shared by all arms

    @property
    def visits(self) -> int:
        return len(self.rewards)

    def mean(self) -> float:
        return sum(self.rewards) / len(self.rewards) if self.rewards else 0.0


class StrongBot(Generic[S, A, V]):
    def __init__(
        self,
        game: Game[S, A, V],
        rules: SearchRules[S, A, V],
        seconds: float = 1.0,
        playouts: int | None = None,
        clock: Clock = time.perf_counter,
    ) -> None:
        self.game = game
        self.rules = rules
        self.seconds = seconds
        self.playouts = playouts
        self.clock = clock
        self.last_playouts = 0  # how many rollouts the last decision ran (for the figures)

    def choose(
        self, view: V, legal: list[A], history: History[A], seat: int, rng: random.Random
    ) -> A:
        self.last_playouts = 0
        if len(legal) == 1:
            return legal[0]
        sample = self.rules.sampler(view, history, seat)
        arms = {index: Arm() for index in range(len(legal))}
        started = self.clock()
        self._world(arms, sample, legal, seat, rng)
        budget = self._budget(len(legal), self.clock() - started)
        phases = max(1, math.ceil(math.log2(len(legal))))
        favourite = self._favourite(view, legal, history, seat)
        check = RACE_FROM
        while len(arms) > 1 and self._has_budget(budget, len(arms), started):
            for _ in range(max(MIN_WORLDS, budget // (phases * len(arms)))):
                if len(arms) == 1 or not self._has_budget(budget, len(arms), started):
                    break
                self._world(arms, sample, legal, seat, rng)
                if next(iter(arms.values())).visits == check:
                    arms, check = raced(arms, favourite, self.rules.trust), 2 * check
            if len(arms) > 2:
                arms = halved(arms, favourite)
        return legal[leader(arms, favourite, self.rules.trust)]

    def _favourite(self, view: V, legal: list[A], history: History[A], seat: int) -> int | None:
        if self.rules.hint is None:
            return None
        action = self.rules.hint(view, history, seat)
        return legal.index(action) if action in legal else None

    def _budget(self, actions: int, first_world: float) -> int:
        """Rollouts for this decision: the fixed count, or what the seconds allow at the
        speed of the first world."""
        if self.playouts is not None:
            return self.playouts
        return int(self.seconds * actions / max(first_world, 1e-6))

    def _has_budget(self, budget: int, alive: int, started: float) -> bool:
        if self.last_playouts + alive > budget:
            return False
        return self.playouts is not None or self.clock() - started < self.seconds

    def _world(
        self,
        arms: dict[int, Arm],
        sample: Sampler[S],
        legal: list[A],
        seat: int,
        rng: random.Random,
    ) -> None:
        """Every action still running, tried in one sampled world with the same dice."""
        world, dice = sample(rng), rng.getrandbits(64)
        for index, arm in arms.items():
            arm.rewards.append(self.playout(world, seat, legal[index], random.Random(dice)))
        self.last_playouts += len(arms)

    def playout(self, state: S, seat: int, action: A, rng: random.Random) -> float:
        """Apply the root action in one sampled world, play on with the policy, score it."""
        start = state
        state = self.game.apply(state, seat, action)
        if self.rules.rollout is not None:
            return self.rules.rollout(state, seat, rng)
        for _ in range(self.rules.max_plies):
            mover = self.game.to_move(state)
            if mover is None or self.rules.horizon(start, state):
                break
            state = self.game.apply(state, mover, self.rules.policy(state, mover, rng))
        return self.rules.reward(state, seat)


def halved(arms: dict[int, Arm], favourite: int | None) -> dict[int, Arm]:
    """The better half of the actions (at least two), all measured on the same worlds; the
    game's own favourite stays in until the end."""
    ranked = sorted(arms, key=lambda index: (index != favourite, -arms[index].mean(), index))
    return {index: arms[index] for index in ranked[: max(2, len(ranked) // 2)]}


def leader(arms: dict[int, Arm], favourite: int | None, trust: float) -> int:
    """The best mean, the game's favourite counted ``trust`` higher; ties to the first."""
    return max(arms, key=lambda i: (arms[i].mean() + (trust if i == favourite else 0), -i))


def raced(arms: dict[int, Arm], favourite: int | None, trust: float) -> dict[int, Arm]:
    """The leader and every action the shared worlds do not yet show clearly worse."""
    best = leader(arms, favourite, trust)
    return {
        index: arm
        for index, arm in arms.items()
        if index == best or not trails(arms[best], arm, head_start(best, index, favourite, trust))
    }


def head_start(best: int, other: int, favourite: int | None, trust: float) -> float:
    return trust if best == favourite else -trust if other == favourite else 0.0


def trails(best: Arm, other: Arm, head: float) -> bool:
    """Whether ``other`` is worse than ``best`` beyond doubt, world by world: the mean
    difference more than RACE_Z standard errors (or every world the same, no better)."""
    differences = [b - o for b, o in zip(best.rewards, other.rewards, strict=True)]
    gap = statistics.fmean(differences) + head
    spread = statistics.stdev(differences) / math.sqrt(len(differences))
    return gap > RACE_Z * spread if spread > 0 else gap >= 0
