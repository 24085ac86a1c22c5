"""Scoundrel's best line: an exact solver over a known dungeon order, and hints in play.

``solve(state)`` searches every line of play from a state whose dungeon order is known
(after a game, or for a stacked deal) and answers the best score the deal allowed, one
line of actions that reaches it, and whether the deal could be won at all. The rules are
those of ``engine.scoundrel``; the search works on a compact copy of the table (a
``Node``), memoized, since many orders of taking the same cards meet again.

``win_chances(views, actions)`` is the hint during play: for each legal action, the share
of sampled dungeons (the cards the player has not seen, in random order below what the
player knows) in which a perfect continuation survives. It is optimistic by design: each
sample is solved as if its order were known.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import NamedTuple

from engine.base import Action
from engine.cards import value
from engine.scoundrel import (
    MAX_HEALTH,
    ROOM_SIZE,
    TAKES_PER_ROOM,
    ScoundrelState,
    is_monster,
    is_potion,
    is_weapon,
)

ANY = 99  # the limit of a weapon that has slain nothing
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


Step = tuple[Action, "Node | int"]  # an action and the node it leads to, or the final score


class Solver:
    """Exact branch and bound. ``value(node, floor)`` is the node's exact best score when
    that beats ``floor``; otherwise only a bound at or below ``floor`` (the line cannot
    matter to the caller). Exact scores and their best action are memoized in ``exact``.
    A node is never entered when it cannot beat the floor: by its optimistic ``ceiling``,
    or because the same table with at least as much health was already found no better
    (more health never hurts: the same line still works). One solver per rule variant."""

    def __init__(self, strict_weapons: bool = False) -> None:
        self.strict = strict_weapons
        self.exact: dict[Node, tuple[int, Action | None]] = {}
        self.caps: dict[Node, list[tuple[int, int]]] = {}  # table without health: (health, cap)
        self.pools: dict[tuple[str, ...], Pool] = {}

    def value(self, node: Node, floor: int) -> int:
        known = self.exact.get(node)
        if known is not None:
            return known[0]
        table = node._replace(health=0)
        bound = min(self.ceiling(node), self.cap(table, node.health))
        if bound <= floor:
            return bound
        best, choice = NO_LINE, None
        for action, after in sorted(self.steps(node), key=promise, reverse=True):
            score = after if isinstance(after, int) else self.value(after, max(floor, best))
            if score > best:
                best, choice = score, action
        if best > floor:
            self.exact[node] = (best, choice)
        self.caps.setdefault(table, []).append((node.health, best))
        return best

    def cap(self, table: Node, health: int) -> int:
        """The lowest score known not to be beaten at this much health or more."""
        known = self.caps.get(table, ())
        return min((cap for more, cap in known if more >= health), default=NO_FLOOR)

    def line(self, node: Node) -> list[Action]:
        """The actions of one best line from a node solved exactly."""
        actions: list[Action] = []
        while (known := self.exact.get(node)) is not None and known[1] is not None:
            action = known[1]
            actions.append(action)
            after = next(end for step, end in self.steps(node) if step == action)
            if isinstance(after, int):
                break
            node = after
        return actions

    def ceiling(self, node: Node) -> int:
        """No line from here scores more. Every potion heals in full and every monster
        left meets the best weapon there is: a win ends with at most that health (20 at
        most) plus the best potion as bonus; a loss scores at most that health (a monster
        never fought costs its whole value, more than fighting it)."""
        pool = self.pool(node.dungeon)
        potions, best_potion, best_weapon = pool.potions, pool.best_potion, pool.best_weapon
        monsters = pool.monsters
        for card in node.room:
            points = value(card)
            if is_potion(card):
                potions += points
                best_potion = max(best_potion, points)
            elif is_weapon(card):
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

    def steps(self, node: Node) -> Iterator[Step]:
        if node.taken == 0 and not node.avoided and not node.last_room:
            gone = node._replace(dungeon=node.dungeon + node.room, room=())
            yield {"type": "avoid"}, dealt(gone, True)
        for index, card in enumerate(node.room):
            rest = node.room[:index] + node.room[index + 1 :]
            if is_monster(card) and node.weapon and value(card) <= node.limit:
                yield self.take(node, card, rest, True)
            yield self.take(node, card, rest, False)

    def take(self, node: Node, card: str, rest: tuple[str, ...], with_weapon: bool) -> Step:
        action: Action = {"type": "take", "card": card, "weapon": with_weapon}
        points = value(card)
        health, weapon, limit, potion_used = node.health, node.weapon, node.limit, node.potion_used
        if is_weapon(card):
            weapon, limit = points, ANY
        elif is_potion(card):
            if not potion_used:
                health, potion_used = min(MAX_HEALTH, health + points), True
        elif with_weapon:
            health -= max(0, points - weapon)
            limit = points - 1 if self.strict else points
        else:
            health -= points
        if health <= 0:
            left = sum(value(c) for c in rest + node.dungeon if is_monster(c))
            return action, health - left
        if node.last_room and not rest:
            bonus = points if health == MAX_HEALTH and is_potion(card) else 0
            return action, health + bonus
        after = node._replace(
            room=rest, health=health, weapon=weapon, limit=limit,
            taken=node.taken + 1, potion_used=potion_used,
        )
        if not node.last_room and after.taken == TAKES_PER_ROOM:
            after = dealt(after, False)
        return action, after


def promise(step: Step) -> tuple[int, int]:
    """Search order: a final score by its value, otherwise the health and weapon kept."""
    action, after = step
    if isinstance(after, int):
        return after, 1
    late = AVOID_DELAY if action["type"] == "avoid" else 0
    return after.health + after.weapon // 2 - late, 0


@dataclass(frozen=True)
class Pool:
    """What some cards hold for the ceiling: potion total, best potion, best weapon,
    monster values."""

    potions: int
    best_potion: int
    best_weapon: int
    monsters: tuple[int, ...]

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
    score = solver.value(node, NO_LINE)
    return Solution(score=score, line=solver.line(node), winnable=score > 0)
