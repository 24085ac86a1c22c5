"""Scoundrel's best line: an exact solver over a known dungeon order, and hints in play.

``solve(state)`` searches every line of play from a state whose dungeon order is known
(after a game, or for a stacked deal) and answers the best score the deal allowed, one
line of actions that reaches it, and whether the deal could be won at all. The rules are
those of ``engine.scoundrel``; the search works on a compact copy of the table (a
``Node``), room by room, memoized, with bounds (see ``Solver``). Its cost varies a lot
from deal to deal: on full 44-card deals a median of about 2 CPU seconds here, with a
long tail (p95 about 25 s); see ``bench/bots.py``.

``win_chances(views, actions)`` is the hint during play: for each legal action, the share
of sampled dungeons (the cards the player has not seen, in random order below what the
player knows) in which a perfect continuation survives. It is optimistic by design: each
sample is solved as if its order were known. Give it a ``seconds`` budget in play.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from engine.base import Action, View
from engine.cards import value
from engine.scoundrel import (
    DECK,
    GAME,
    MAX_HEALTH,
    ROOM_SIZE,
    TAKES_PER_ROOM,
    ScoundrelState,
    is_monster,
    is_potion,
    is_weapon,
)

ANY = 99  # the limit of a weapon that has slain nothing
MONSTER, WEAPON, POTION = 0, 1, 2
KIND = {card: MONSTER if is_monster(card) else WEAPON if is_weapon(card) else POTION
        for card in DECK}
POINTS = {card: value(card) for card in DECK}
NO_LINE = -(10**6)  # below every score
NO_FLOOR = 10**6
AVOID_DELAY = 6  # the search tries entering a room before avoiding it


class Node(NamedTuple):
    """What decides the rest of a game: the cards in order, health, the weapon's value
    (0: none) and the highest monster it may still be used on, and the room's flags."""

    dungeon: tuple[str, ...]
    room: tuple[str, ...]
    health: int
    weapon: int
    limit: int
    taken: int
    potion_used: bool
    avoided: bool
    last_room: bool


@dataclass(frozen=True)
class Solution:
    score: int
    line: list[Action]
    winnable: bool


def node_of(state: ScoundrelState) -> Node:
    limit = ANY
    if state.weapon is not None and state.stack:
        limit = value(state.stack[-1]) - (1 if state.strict_weapons else 0)
    return Node(
        dungeon=tuple(state.dungeon),
        room=tuple(state.room),
        health=state.health,
        weapon=value(state.weapon) if state.weapon is not None else 0,
        limit=limit,
        taken=state.taken,
        potion_used=state.potion_used,
        avoided=state.avoided_last_room,
        last_room=state.last_room,
    )


def dealt(node: Node, avoided: bool) -> Node:
    """The next room: reveal until four cards lie; if the dungeon cannot, it is the last."""
    need = ROOM_SIZE - len(node.room)
    return node._replace(
        dungeon=node.dungeon[need:],
        room=node.room + node.dungeon[:need],
        taken=0,
        potion_used=False,
        avoided=avoided,
        last_room=len(node.dungeon) < need,
    )


Choice = tuple[tuple[Action, ...], "Node | int"]  # the actions of one option and where it ends
AVOID: Action = {"type": "avoid"}


class Solver:
    """Exact branch and bound over rooms. A node is the table where a choice begins (a room
    to avoid or enter, or the middle of a room at the start). Its options are avoiding, and
    every way of taking the room's cards; options that end on the same table keep only
    those no other beats in health, weapon and weapon limit at once (more of each never
    hurts: the same line still works), and of the deaths only the best.

    ``value(node, floor)`` is the node's exact best score when that beats ``floor``;
    otherwise only a bound at or below ``floor`` (the line cannot matter to the caller).
    Exact scores and their option are memoized in ``exact``. A node is never entered when
    it cannot beat the floor: by its optimistic ``ceiling``, or because the same table with
    at least as much health was already found no better. One solver per rule variant."""

    def __init__(self, strict_weapons: bool = False) -> None:
        self.strict = strict_weapons
        self.exact: dict[Node, tuple[int, Choice | None]] = {}
        self.caps: dict[Node, list[tuple[int, int]]] = {}  # table without health: (health, cap)
        self.pools: dict[tuple[str, ...], Pool] = {}

    def best(self, node: Node) -> int:
        """The exact best score, searched from the top down: first only for lines near
        the ceiling (where the ceiling prunes hardest), then lower, twice as far each time.
        What a failed search learnt (its bounds) serves the next one."""
        bound, step = self.ceiling(node), 1
        while True:
            floor = bound - step
            score = self.value(node, floor)
            if score > floor:
                return score
            bound, step = score, step * 2

    def value(self, node: Node, floor: int) -> int:
        known = self.exact.get(node)
        if known is not None:
            return known[0]
        table = node._replace(health=0)
        bound = min(self.ceiling(node), self.cap(table, node.health))
        if bound <= floor:
            return bound
        best, choice = NO_LINE, None
        for option in sorted(self.choices(node), key=self.promise, reverse=True):
            after = option[1]
            score = after if isinstance(after, int) else self.value(after, max(floor, best))
            if score > best:
                best, choice = score, option
        if best > floor:
            self.exact[node] = (best, choice)
        self.caps.setdefault(table, []).append((node.health, best))
        return best

    def promise(self, choice: Choice) -> tuple[int, int, int]:
        """Search order: the most hopeful first (by ceiling, then health and weapon kept)."""
        line, after = choice
        if isinstance(after, int):
            return after, 1, 0
        late = AVOID_DELAY if line[0]["type"] == "avoid" else 0
        return self.ceiling(after), 0, after.health + after.weapon // 2 - late

    def reaches(self, node: Node, target: int) -> bool:
        """Whether some line from here scores at least ``target``: stops at the first one."""
        known = self.exact.get(node)
        if known is not None:
            return known[0] >= target
        table = node._replace(health=0)
        if min(self.ceiling(node), self.cap(table, node.health)) < target:
            return False
        for option in sorted(self.choices(node), key=self.promise, reverse=True):
            after = option[1]
            if after >= target if isinstance(after, int) else self.reaches(after, target):
                return True
        self.caps.setdefault(table, []).append((node.health, target - 1))
        return False

    def cap(self, table: Node, health: int) -> int:
        """The lowest score known not to be beaten at this much health or more."""
        known = self.caps.get(table, ())
        return min((cap for more, cap in known if more >= health), default=NO_FLOOR)

    def line(self, node: Node) -> list[Action]:
        """The actions of one best line from a node solved exactly."""
        actions: list[Action] = []
        while (known := self.exact.get(node)) is not None and known[1] is not None:
            taken, after = known[1]
            actions += taken
            if isinstance(after, int):
                break
            node = after
        return actions

    def choices(self, node: Node) -> list[Choice]:
        """Avoid, or each way through the room, without the ways another one beats."""
        found: list[Choice] = []
        if node.taken == 0 and not node.avoided and not node.last_room:
            gone = node._replace(dungeon=node.dungeon + node.room, room=())
            found.append(((AVOID,), dealt(gone, True)))
        walk = Walk(node, self.strict, self.pool(node.dungeon).monster_total)
        walk.through(node.room, node.health, node.weapon, node.limit, node.taken,
                     node.potion_used, ())
        if walk.death is not None:
            found.append(walk.death)
        found += walk.wins
        for (rest, weapon, limit), (health, line) in walk.ends.items():
            after = node._replace(room=rest, health=health, weapon=weapon, limit=limit)
            found.append((line, dealt(after, False)))
        return unbeaten(found)

    def ceiling(self, node: Node) -> int:
        """No line from here scores more. Every potion heals in full and every monster
        left meets the best weapon there is: a win ends with at most that health (20 at
        most) plus the best potion as bonus; a loss scores at most that health (a monster
        never fought costs its whole value, more than fighting it)."""
        pool = self.pool(node.dungeon)
        potions, best_potion, best_weapon = pool.potions, pool.best_potion, pool.best_weapon
        monsters = pool.monsters
        for card in node.room:
            points, kind = POINTS[card], KIND[card]
            if kind == POTION:
                potions += points
                best_potion = max(best_potion, points)
            elif kind == WEAPON:
                best_weapon = max(best_weapon, points)
            else:
                monsters = (*monsters, points)
        weapon = max(node.weapon, best_weapon)
        end = node.health + potions - sum(m - weapon for m in monsters if m > weapon)
        return min(MAX_HEALTH, end) + best_potion if end > 0 else end

    def pool(self, cards: tuple[str, ...]) -> Pool:
        known = self.pools.get(cards)
        if known is None:
            known = self.pools[cards] = Pool.of(cards)
        return known



class Walk:
    """Every order of taking a room's cards (each monster with the weapon where it may be
    used, and bare-handed), played on plain numbers: the best death, every win of the last
    room, and for each way the room can end (card left, weapon, limit) the most health."""

    def __init__(self, node: Node, strict: bool, dungeon_monsters: int) -> None:
        self.last_room = node.last_room
        self.strict = strict
        self.dungeon_monsters = dungeon_monsters
        self.death: Choice | None = None
        self.death_score = NO_LINE
        self.wins: list[Choice] = []
        self.ends: dict[tuple[tuple[str, ...], int, int], tuple[int, tuple[Action, ...]]] = {}

    def through(
        self,
        room: tuple[str, ...],
        health: int,
        weapon: int,
        limit: int,
        taken: int,
        potion_used: bool,
        line: tuple[Action, ...],
    ) -> None:
        for index, card in enumerate(room):
            rest = room[:index] + room[index + 1 :]
            points, kind = POINTS[card], KIND[card]
            usable = kind == MONSTER and weapon and points <= limit
            for with_weapon in (True, False) if usable else (False,):
                now, arm, bound, used = health, weapon, limit, potion_used
                if kind == WEAPON:
                    arm, bound = points, ANY
                elif kind == POTION:
                    if not used:
                        now, used = min(MAX_HEALTH, now + points), True
                elif with_weapon:
                    now -= max(0, points - weapon)
                    bound = points - 1 if self.strict else points
                else:
                    now -= points
                done = (*line, {"type": "take", "card": card, "weapon": with_weapon})
                self.after_take(rest, now, arm, bound, taken + 1, used, done, card)

    def after_take(
        self,
        rest: tuple[str, ...],
        health: int,
        weapon: int,
        limit: int,
        taken: int,
        potion_used: bool,
        line: tuple[Action, ...],
        card: str,
    ) -> None:
        if health <= 0:
            left = sum(POINTS[c] for c in rest if KIND[c] == MONSTER)
            score = health - self.dungeon_monsters - left
            if self.death is None or score > self.death_score:
                self.death, self.death_score = (line, score), score
        elif self.last_room and not rest:
            bonus = POINTS[card] if health == MAX_HEALTH and KIND[card] == POTION else 0
            self.wins.append((line, health + bonus))
        elif not self.last_room and taken == TAKES_PER_ROOM:
            key = (rest, weapon, limit)
            if key not in self.ends or self.ends[key][0] < health:
                self.ends[key] = (health, line)
        else:
            self.through(rest, health, weapon, limit, taken, potion_used, line)


def strength(node: Node) -> tuple[int, int, int]:
    """Health, weapon and the limit it may still be used to (0 without a weapon)."""
    return node.health, node.weapon, node.limit if node.weapon else 0


def unbeaten(choices: list[Choice]) -> list[Choice]:
    """The best death, and of the ways to each next table those no other one beats in
    health, weapon and limit together."""
    deaths = [c for c in choices if isinstance(c[1], int)]
    kept: list[Choice] = [max(deaths, key=lambda c: c[1])] if deaths else []
    tables: dict[Node, list[tuple[tuple[int, int, int], Choice]]] = {}
    for choice in choices:
        after = choice[1]
        if not isinstance(after, int):
            table = after._replace(health=0, weapon=0, limit=0)
            tables.setdefault(table, []).append((strength(after), choice))
    for ways in tables.values():
        best: list[tuple[int, int, int]] = []
        for mine, choice in sorted(ways, key=lambda way: way[0], reverse=True):
            if not any(beats(other, mine) for other in best):
                best.append(mine)
                kept.append(choice)
    return kept


def beats(one: tuple[int, int, int], other: tuple[int, int, int]) -> bool:
    return all(a >= b for a, b in zip(one, other, strict=True))


@dataclass(frozen=True)
class Pool:
    """What some cards hold for the ceiling: potion total, best potion, best weapon,
    monster values."""

    potions: int
    best_potion: int
    best_weapon: int
    monsters: tuple[int, ...]

    @property
    def monster_total(self) -> int:
        return sum(self.monsters)

    @staticmethod
    def of(cards: tuple[str, ...]) -> Pool:
        potions = [value(c) for c in cards if is_potion(c)]
        weapons = [value(c) for c in cards if is_weapon(c)]
        return Pool(
            potions=sum(potions),
            best_potion=max(potions, default=0),
            best_weapon=max(weapons, default=0),
            monsters=tuple(value(c) for c in cards if is_monster(c)),
        )


def solve(state: ScoundrelState) -> Solution:
    """The best score from this state (its dungeon order known), a line that reaches it,
    and whether it can be won."""
    solver, node = Solver(state.strict_weapons), node_of(state)
    score = solver.best(node)
    return Solution(score=score, line=solver.line(node), winnable=score > 0)


# Hints during play: the chance of winning of each choice, from the cards still unseen


class Unseen:
    """The game as the player has seen it, from the views before each action and the
    actions: a table whose dungeon holds every card the player has seen there (cards of an
    avoided room, at the bottom in order) and a placeholder for each card never seen."""

    def __init__(self, views: Sequence[View], actions: Sequence[Action]) -> None:
        if len(views) != len(actions) + 1:
            raise ValueError("one view before each action, and the current one")
        first = views[0]
        table = ScoundrelState(
            dungeon=[f"?{i}" for i in range(first["dungeon_size"])],
            room=list(first["room"]),
            strict_weapons=first["strict_weapons"],
            open_discard=first["open_discard"],
        )
        for action, seen in zip(actions, views[1:], strict=True):
            table = GAME.apply(table, 0, action)
            table.room = revealed(table.room, seen["room"])
        self.table = table
        known = set(table.room + table.stack + table.discard + table.dungeon)
        known |= {table.weapon} if table.weapon else set()
        self.cards = [card for card in DECK if card not in known]

    def sample(self, rng: random.Random) -> ScoundrelState:
        """One dungeon order the player cannot rule out."""
        order = list(self.cards)
        rng.shuffle(order)
        dealt = iter(order)
        world = self.table.clone()
        world.dungeon = [next(dealt) if card[0] == "?" else card for card in world.dungeon]
        return world


def revealed(room: list[str], seen: list[str]) -> list[str]:
    """The room with its placeholders replaced by the cards the view shows there."""
    if len(room) != len(seen) or any(
        mine != shown for mine, shown in zip(room, seen, strict=True) if mine[0] != "?"
    ):
        raise ValueError("the actions do not lead to these views")
    return list(seen)


@dataclass(frozen=True)
class Hint:
    """Per legal action, its chance of winning; ``samples`` dungeons were looked at."""

    chances: list[tuple[Action, float]]
    samples: int


def win_chances(
    views: Sequence[View],
    actions: Sequence[Action],
    samples: int = 16,
    rng: random.Random | None = None,
    seconds: float | None = None,
    clock: Callable[[], float] = time.perf_counter,
) -> Hint:
    """For each legal action now, the share of sampled dungeons (the unseen cards in random
    order, consistently with everything seen) in which that action still allows a win.
    Each sample is solved as if its order were known, so this is an upper estimate: the
    chance for a player who guesses every later card right. ``seconds`` bounds the time
    (at least one sample is always solved; early in a game one takes seconds)."""
    rng = rng or random.Random(0)
    unseen = Unseen(views, actions)
    legal = GAME.legal_actions(unseen.table, 0)
    wins = [0] * len(legal)
    started, done = clock(), 0
    while done < samples and (done == 0 or seconds is None or clock() - started < seconds):
        world = unseen.sample(rng)
        solver = Solver(world.strict_weapons)
        for index, action in enumerate(legal):
            wins[index] += still_winnable(solver, GAME.apply(world, 0, action))
        done += 1
    chances = [(action, won / done) for action, won in zip(legal, wins, strict=True)]
    return Hint(chances=chances, samples=done)


def still_winnable(solver: Solver, state: ScoundrelState) -> bool:
    outcome = GAME.result(state)
    if outcome is not None:
        return outcome.winner is not None
    return solver.reaches(node_of(state), 1)
