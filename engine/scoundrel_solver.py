"""Scoundrel's best line: an exact solver over a known dungeon order, and hints in play.

``solve(state)`` searches every line of play from a state whose dungeon order is known
(after a game, or for a stacked deal) and answers the best score the deal allowed, one
line of actions that reaches it, and whether the deal could be won at all. The rules are
those of ``engine.scoundrel``; the search works on plain numbers (see ``Solver``): cards
are their index in ``DECK``, a table is a tuple, and every way through a room is walked
once per room and strength and remembered. ``solve`` runs the same search compiled
(``engine/scoundrel_search.pyx``, built at install by setup.py: the same tables in the same
order, some 18 times faster); ``Solver`` here is its reference, the one to read. What a
deal costs: ``bench/bots.py``.

``win_chances(views, actions)`` is the hint during play: for each legal action, the share
of sampled dungeons (the cards the player has not seen, in random order below what the
player knows) in which a perfect continuation survives. It is optimistic by design: each
sample is solved as if its order were known. Give it a ``seconds`` budget in play.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence

from engine.base import BestLine, Hint, OutOfBudget
from engine.cards import value
from engine.scoundrel import (
    DECK,
    GAME,
    MAX_HEALTH,
    ROOM_SIZE,
    TAKES_PER_ROOM,
    ScoundrelAction,
    ScoundrelState,
    ScoundrelView,
    is_monster,
    is_weapon,
)

ANY = 99  # the limit of a weapon that has slain nothing
MONSTER, WEAPON, POTION = 0, 1, 2
KIND = [MONSTER if is_monster(c) else WEAPON if is_weapon(c) else POTION for c in DECK]
POINTS = [value(card) for card in DECK]
MAX_MONSTER = max(POINTS[card] for card in range(len(DECK)) if KIND[card] == MONSTER)
INDEX = {card: index for index, card in enumerate(DECK)}
# The monster of the other black suit with the same value: the rules never tell them apart.
TWIN = [
    next(
        (
            other
            for other in range(len(DECK))
            if other != card and KIND[other] == MONSTER and POINTS[other] == POINTS[card]
        ),
        card,
    )
    if KIND[card] == MONSTER
    else card
    for card in range(len(DECK))
]
NO_LINE = -(10**6)  # below every score
AVOIDED = -1  # in a line, the card of an avoid
# An avoid loses nothing the ceiling sees, so it would always be tried first; it only puts
# the room off, and best lines seldom avoid: tried after entries that keep up to this much
# less (a third to half fewer tables at the median deal). Order only: same answers.
AVOID_DOUBT = 8
# But a first choice that fails can cost tens of thousands of tables to refute where the
# avoid was the way: the most hopeful option searches up to FIRST_TURN tables, then the
# avoid up to AVOID_TURN, then every option in order (one that was paused goes on from
# what it learned). Order only: same answers.
FIRST_TURN = 1024
AVOID_TURN = 2048

Take = tuple[int, bool]  # (card, with the weapon); (AVOIDED, False) is an avoid
Line = tuple[Take, ...]
# A table where a choice begins: cards dealt from the original dungeon, the cards put
# under it since (avoided rooms, in order), the room in reveal order, health, weapon value
# (0: none), the highest monster it may still be used on (0 without a weapon), whether the
# previous room was avoided, cards taken in this room, whether a potion healed in it,
# whether it is the last room, and a bit mask of every card still to be dealt with.
# Rows of cards are bytes (a card is its index in DECK): a bytes object hashes once and
# keeps it, where a tuple hashes every item again at each of a table's lookups.
Node = tuple[int, bytes, bytes, int, int, int, bool, int, bool, bool, int]
Child = tuple[Line, "Node | int"]  # the takes of one option, and its table or final score
Ends = dict[bytes, list[tuple[int, int, int, Line]]]


class Pause(Exception):
    """An option's turn is over."""


Solution = BestLine[ScoundrelAction]


class Lines:
    """What a search answers, read for play: the table of a state, the best score, and the
    line to it. For ``Solver`` and its compiled twin (``make_solver``), which provide
    ``deck``, ``below``, ``search``, ``ceiling`` and ``step``."""

    deck: bytes
    below: list[int]
    tables: int  # searched so far

    def search(self, node: Node, target: int) -> int:
        raise NotImplementedError

    def ceiling(self, node: Node) -> int:
        raise NotImplementedError

    def step(self, node: Node) -> tuple[Line, Node | int] | None:
        raise NotImplementedError

    def node_of(self, state: ScoundrelState) -> Node:
        """The table of a state whose dungeon is this solver's, or what play made of it:
        the rest of this solver's dungeon, then the cards put under it."""
        room = bytes(INDEX[card] for card in state.room)
        dungeon = bytes(INDEX[card] for card in state.dungeon)
        depth = next(
            depth
            for depth in range(len(self.deck) + 1)
            if dungeon[: len(self.deck) - depth] == self.deck[depth:]
        )
        under = dungeon[len(self.deck) - depth :]
        weapon = value(state.weapon) if state.weapon is not None else 0
        limit = ANY if weapon else 0
        if weapon and state.stack:
            limit = value(state.stack[-1]) - (1 if state.strict_weapons else 0)
        left = self.below[depth]
        for card in under + room:
            left |= 1 << card
        return (
            depth,
            under,
            room,
            state.health,
            weapon,
            limit,
            state.avoided_last_room,
            state.taken,
            state.potion_used,
            state.last_room,
            left,
        )

    def best(self, node: Node) -> int:
        target = self.ceiling(node)
        while (score := self.search(node, target)) < target:
            target = score
        return score

    def reaches(self, node: Node, target: int) -> bool:
        return self.search(node, target) >= target

    def line(self, node: Node) -> list[ScoundrelAction]:
        """The actions of the line found from a node."""
        actions: list[ScoundrelAction] = []
        while (found := self.step(node)) is not None:
            takes, after = found
            actions += [
                AVOID if card == AVOIDED else {"type": "take", "card": DECK[card], "weapon": weapon}
                for card, weapon in takes
            ]
            if isinstance(after, int):
                break
            node = after
        return actions


class Solver(Lines):
    """Exact search for a line reaching a target score, memoized, with bounds.

    ``search(node, target)`` answers a score at least ``target`` that some line reaches
    (its first step kept in ``lines``), or else a bound below ``target`` that no line
    beats. ``best`` asks for the ``ceiling`` first and lowers the target to each bound
    found. A failed table is remembered with its health, weapon and limit: the same table
    with no more of any of them cannot do better (more health, a better weapon, a looser
    limit never hurt: the same line still works). Options are tried most hopeful first,
    after a first turn for the most hopeful and one for the avoid (``FIRST_TURN``).
    ``budget`` caps the tables searched (``OutOfBudget``): a safety net for a server."""

    def __init__(
        self, dungeon: Sequence[str], strict_weapons: bool = False, budget: int | None = None
    ) -> None:
        self.strict = strict_weapons
        self.deck = bytes(INDEX[card] for card in dungeon)
        self.budget = budget
        self.tables = 0
        self.pause_at = 1 << 62  # where the current turn ends, in tables
        self.lines: dict[Node, tuple[int, Line, Node | int]] = {}
        self.bounds: dict[tuple[object, ...], list[tuple[int, int, int, int]]] = {}
        self.walks: dict[tuple[object, ...], tuple[Ends, tuple[int, Line], tuple[int, Line]]] = {}
        self.strengths: dict[tuple[int, int, int], tuple[int, int, int]] = {}
        self.piles: dict[int, tuple[int, int, int, list[int], int]] = {}
        self.room_costs: dict[tuple[bytes, int, int, int, bool, bool], int] = {}
        self.below = [0] * (len(self.deck) + 1)  # cards from a depth on, as a mask
        self.monsters_below = [0] * (len(self.deck) + 1)
        for depth in range(len(self.deck) - 1, -1, -1):
            card = self.deck[depth]
            self.below[depth] = self.below[depth + 1] | 1 << card
            points = POINTS[card] if KIND[card] == MONSTER else 0
            self.monsters_below[depth] = self.monsters_below[depth + 1] + points

    def search(self, node: Node, target: int) -> int:
        found = self.lines.get(node)
        if found is not None and found[0] >= target:
            return found[0]
        depth, under, room, health, weapon, limit, avoided, taken, used, last, left = node
        table = (depth, under, room, avoided, taken, used, last)
        for more, better, looser, bound in self.bounds.get(table, ()):
            if bound < target and more >= health and better >= weapon and looser >= limit:
                return bound
        self.tables += 1
        if self.budget is not None and self.tables > self.budget:
            raise OutOfBudget
        if self.tables > self.pause_at:
            raise Pause
        best = NO_LINE
        hopeful: list[tuple[Line, Node | int]] = []
        for hope, line, after in self.ranked(node):
            if hope < target:
                best = hope if hope > best else best
                break
            hopeful.append((line, after))
        avoid = next((i for i, (line, _) in enumerate(hopeful) if line[0][0] == AVOIDED), 0)
        early = [(0, FIRST_TURN), (avoid, AVOID_TURN)] if avoid else []
        done: set[int] = set()
        for index, turn in [*early, *((index, None) for index in range(len(hopeful)))]:
            if index in done:
                continue
            line, after = hopeful[index]
            score = self.option(after, target, turn)
            if score is None:
                continue
            if score >= target:
                self.lines[node] = (score, line, after)
                return score
            best = score if score > best else best
            done.add(index)
        self.bounds.setdefault(table, []).append((health, weapon, limit, best))
        return best

    def option(self, after: Node | int, target: int, turn: int | None) -> int | None:
        """What ``search`` answers for an option, or None if its ``turn`` (tables) ran out
        first: what it learned is kept, and its next turn goes on from there."""
        if isinstance(after, int):
            return after
        if turn is None:
            return self.search(after, target)
        outer = self.pause_at
        self.pause_at = min(outer, self.tables + turn)
        try:
            return self.search(after, target)
        except Pause:
            if self.pause_at == outer:
                raise  # the turn of an option above ran out
            return None
        finally:
            self.pause_at = outer

    def ranked(self, node: Node) -> list[tuple[int, Line, Node | int]]:
        """The options, most hopeful first: by ceiling, then a final score before a table,
        then the health the table could end with at best (an avoid ``AVOID_DOUBT`` less)."""
        rated: list[tuple[tuple[int, int, int], Line, Node | int]] = []
        for line, after in self.choices(node):
            if isinstance(after, int):
                rated.append(((after, 1, 0), line, after))
            else:
                strength, best_potion, best_weapon = self.strength(after[10], after[4], after[5])
                end = after[3] + strength - self.forced(after, best_weapon)
                doubt = AVOID_DOUBT if line[0][0] == AVOIDED else 0
                rated.append(((ceiling_of(end, best_potion), 0, end - doubt), line, after))
        rated.sort(key=lambda option: option[0], reverse=True)
        return [(rating[0], line, after) for rating, line, after in rated]

    def choices(self, node: Node) -> list[Child]:
        """Avoid, or each way through the room that no other way beats."""
        depth, under, room, health, weapon, limit, avoided, taken, used, last, left = node
        found: list[Child] = []
        if taken == 0 and not avoided and not last:
            dealt, deeper, rest = self.deal(depth, under + room, ROOM_SIZE)
            found.append(
                (
                    ((AVOIDED, False),),
                    (deeper, rest, dealt, health, weapon, limit, True, 0, False, False, left),
                )
            )
        ends, death, win = self.walk(room, health, weapon, limit, taken, used, last)
        if death[0] > NO_LINE:
            found.append((death[1], death[0] - self.monsters_left(depth, under)))
        if win[0] > NO_LINE:
            found.append((win[1], win[0]))
        waiting = len(self.deck) - depth + len(under)
        beyond_room = left & ~mask(room)
        for kept, ways in ends.items():
            need = ROOM_SIZE - len(kept)
            dealt, deeper, rest = self.deal(depth, under, need)
            after_left = beyond_room | mask(kept)
            values = self.cards_left(after_left)[4]
            for after_health, after_weapon, after_limit, line in ways:
                after_weapon, after_limit = worth(after_weapon, after_limit, values)
                found.append(
                    (
                        line,
                        (
                            deeper,
                            rest,
                            kept + dealt,
                            after_health,
                            after_weapon,
                            after_limit,
                            False,
                            0,
                            False,
                            waiting < need,
                            after_left,
                        ),
                    )
                )
        return found

    def deal(self, depth: int, under: bytes, count: int) -> tuple[bytes, int, bytes]:
        """The next ``count`` cards (fewer if there are not so many), and what remains."""
        dealt = self.deck[depth : depth + count]
        depth += len(dealt)
        if len(dealt) < count:
            missing = count - len(dealt)
            dealt, under = dealt + under[:missing], under[missing:]
        return dealt, depth, under

    def monsters_left(self, depth: int, under: bytes) -> int:
        return self.monsters_below[depth] + sum(POINTS[c] for c in under if KIND[c] == MONSTER)

    def ceiling(self, node: Node) -> int:
        """No line from the table scores more."""
        strength, best_potion, best_weapon = self.strength(node[10], node[4], node[5])
        return ceiling_of(node[3] + strength - self.forced(node, best_weapon), best_potion)

    def forced(self, node: Node, best_weapon: int) -> int:
        """What the room costs beyond ``strength``: it is entered, or avoided and the next
        room entered (the cheaper of the two), so all its cards but the one kept over are
        taken now: its monsters meet the weapon in hand or one of the room's, not the best
        weapon still to come, and of its potions only one heals."""
        depth, under, room, _, weapon, limit, avoided, taken, used, last, _ = node
        cost = self.room_cost(room, weapon, limit, best_weapon, used, last)
        if cost and taken == 0 and not avoided and not last:
            after_avoid = self.deal(depth, under + room, ROOM_SIZE)[0]
            cost = min(cost, self.room_cost(after_avoid, weapon, limit, best_weapon, False, False))
        return cost

    def room_cost(
        self, room: bytes, weapon: int, limit: int, best_weapon: int, used: bool, last: bool
    ) -> int:
        key = (room, weapon, limit, best_weapon, used, last)
        known = self.room_costs.get(key)
        if known is None:
            at_hand = max((POINTS[c] for c in room if KIND[c] == WEAPON), default=0)
            extra = []
            for card in room:
                if KIND[card] == MONSTER:
                    points = POINTS[card]
                    held = weapon if points <= limit else 0
                    extra.append(
                        max(0, points - max(at_hand, held))
                        - max(0, points - max(best_weapon, held))
                    )
            potions = sorted(POINTS[c] for c in room if KIND[c] == POTION)
            known = sum(extra) + wasted(potions, used)
            if not last and extra:
                known = min(known, sum(extra) - max(extra) + wasted(potions, used))
            if not last and potions:
                known = min(known, sum(extra) + wasted(potions[:-1], used))
            self.room_costs[key] = known
        return known

    def strength(self, left: int, weapon: int, limit: int) -> tuple[int, int, int]:
        """Of the cards left: every potion's value, less what every monster costs at least
        (met by the best weapon there is, the one in hand only within its limit), the best
        potion and the best weapon."""
        known = self.strengths.get((left, weapon, limit))
        if known is None:
            potions, best_potion, best_weapon, monsters, _ = self.cards_left(left)
            cost = 0
            for points in monsters:
                met = weapon if weapon > best_weapon and points <= limit else best_weapon
                if points > met:
                    cost += points - met
            known = self.strengths[(left, weapon, limit)] = (
                potions - cost,
                best_potion,
                best_weapon,
            )
        return known

    def cards_left(self, left: int) -> tuple[int, int, int, list[int], int]:
        """Potion total, best potion, best weapon, the monsters' values of a card mask, and
        those values as bits."""
        known = self.piles.get(left)
        if known is None:
            potions = best_potion = best_weapon = values = 0
            monsters = []
            bits = left
            while bits:
                card = (bits & -bits).bit_length() - 1
                bits &= bits - 1
                points, kind = POINTS[card], KIND[card]
                if kind == MONSTER:
                    monsters.append(points)
                    values |= 1 << points
                elif kind == WEAPON:
                    best_weapon = max(best_weapon, points)
                else:
                    potions += points
                    best_potion = max(best_potion, points)
            known = self.piles[left] = (potions, best_potion, best_weapon, monsters, values)
        return known

    def walk(
        self, room: bytes, health: int, weapon: int, limit: int, taken: int, used: bool, last: bool
    ) -> tuple[Ends, tuple[int, Line], tuple[int, Line]]:
        key = (bytes(sorted(room)), health, weapon, limit, taken, used, last)
        known = self.walks.get(key)
        if known is None:
            walk = Walk(self.strict, last)
            walk.through(room, health, weapon, limit, taken, used, (), -1)
            known = self.walks[key] = (walk.ends, walk.death, walk.win)
        return known

    def step(self, node: Node) -> tuple[Line, Node | int] | None:
        """The takes of the line found from a table and the table or score they lead to."""
        found = self.lines.get(node)
        return None if found is None else (found[1], found[2])


def make_solver(
    dungeon: Sequence[str], strict_weapons: bool = False, budget: int | None = None
) -> Lines:
    """The search compiled from ``engine/scoundrel_search.pyx`` (the same tables, some 18
    times faster) where it was built at install, else ``Solver``."""
    try:
        from engine.scoundrel_search import FastSolver
    except ImportError:
        return Solver(dungeon, strict_weapons, budget)
    return FastSolver(dungeon, strict_weapons, budget)


AVOID: ScoundrelAction = {"type": "avoid"}


def mask(cards: bytes) -> int:
    bits = 0
    for card in cards:
        bits |= 1 << card
    return bits


def worth(weapon: int, limit: int, values: int) -> tuple[int, int]:
    """A weapon and its limit as they count against the monsters left (their ``values`` as
    bits): the limit lowered to the highest of them it still reaches, the value to that
    limit (no monster left is hurt by more), and none at all if it reaches none of them.
    Tables that differ only so play alike and share what the search learned."""
    reach = (values & ((2 << min(limit, MAX_MONSTER)) - 1)).bit_length() - 1
    if not weapon or reach < 0:
        return 0, 0
    return min(weapon, reach), reach


def wasted(potions: list[int], used: bool) -> int:
    """What potions (in rising order) taken in one room leave unhealed: all but the best,
    or all of them once a potion has healed in it."""
    return sum(potions) - (potions[-1] if potions and not used else 0)


def ceiling_of(end: int, best_potion: int) -> int:
    """No line scores more: a win ends with at most ``end`` health, 20 at most, and only
    at 20 may the best potion taken last add its value; a loss scores at most ``end`` (a
    monster never fought costs its whole value, no less than fighting it)."""
    return MAX_HEALTH + best_potion if end >= MAX_HEALTH else end


class Walk:
    """Every order of taking a room's cards (each monster with the weapon where it may be
    used, and bare-handed), played on plain numbers: the best death (less the monsters of
    the room never fought), the best win of the last room, and for each card left over the
    ways to end the room that no other beats in health, weapon and limit together."""

    def __init__(self, strict: bool, last: bool) -> None:
        self.strict = strict
        self.last = last
        self.ends: Ends = {}
        self.death: tuple[int, Line] = (NO_LINE, ())
        self.win: tuple[int, Line] = (NO_LINE, ())

    def through(
        self,
        room: bytes,
        health: int,
        weapon: int,
        limit: int,
        taken: int,
        used: bool,
        line: Line,
        card: int,
    ) -> None:
        if health <= 0:
            score = health - sum(POINTS[c] for c in room if KIND[c] == MONSTER)
            if score > self.death[0]:
                self.death = (score, line)
        elif self.last and not room:
            bonus = POINTS[card] if health == MAX_HEALTH and KIND[card] == POTION else 0
            if health + bonus > self.win[0]:
                self.win = (health + bonus, line)
        elif not self.last and taken == TAKES_PER_ROOM:
            self.end(room, health, weapon, limit, line)
        else:
            for index, card in enumerate(room):
                if TWIN[card] in room[:index]:
                    continue  # its twin taken first plays the same
                self.take(
                    room[:index] + room[index + 1 :],
                    card,
                    health,
                    weapon,
                    limit,
                    taken + 1,
                    used,
                    line,
                )

    def take(
        self,
        rest: bytes,
        card: int,
        health: int,
        weapon: int,
        limit: int,
        taken: int,
        used: bool,
        line: Line,
    ) -> None:
        points, kind = POINTS[card], KIND[card]
        if kind == WEAPON:
            self.through(rest, health, points, ANY, taken, used, (*line, (card, False)), card)
        elif kind == POTION:
            healed = health if used else min(MAX_HEALTH, health + points)
            self.through(rest, healed, weapon, limit, taken, True, (*line, (card, False)), card)
        else:
            if weapon and points <= limit:
                slain = points - 1 if self.strict else points
                self.through(
                    rest,
                    health - max(0, points - weapon),
                    weapon,
                    slain,
                    taken,
                    used,
                    (*line, (card, True)),
                    card,
                )
            self.through(
                rest, health - points, weapon, limit, taken, used, (*line, (card, False)), card
            )

    def end(self, kept: bytes, health: int, weapon: int, limit: int, line: Line) -> None:
        ways = self.ends.setdefault(kept, [])
        for more, better, looser, _ in ways:
            if more >= health and better >= weapon and looser >= limit:
                return
        ways[:] = [
            way for way in ways if not (health >= way[0] and weapon >= way[1] and limit >= way[2])
        ]
        ways.append((health, weapon, limit, line))


def solve(state: ScoundrelState, budget: int | None = None) -> Solution:
    """The best score from this state (its dungeon order known), a line that reaches it,
    and whether it can be won. ``budget`` caps the tables searched (``OutOfBudget``)."""
    outcome = GAME.result(state)
    if outcome is not None:
        return Solution(score=int(outcome.scores[0]), line=[], winnable=outcome.winner == 0)
    solver = make_solver(state.dungeon, state.strict_weapons, budget)
    node = solver.node_of(state)
    score = solver.best(node)
    return Solution(score=score, line=solver.line(node), winnable=score > 0)


# Tables: over 5x the most any of 1,000 deals needed (bench/bots.py).
BEST_LINE_BUDGET = 1_000_000


def best_line(state: ScoundrelState) -> Solution:
    """A finished match's best line, from its first state: the game's ``best_line_search``."""
    return solve(state, BEST_LINE_BUDGET)


def first_slip(first: ScoundrelState, actions: Sequence[ScoundrelAction], best: int) -> int | None:
    """How many of the actions played from the deal ``first`` were taken when the deal's
    ``best`` score first went out of reach; None if the line kept it in reach to the end:
    the game's ``slip_search``. What a table still allows only falls along a line, so
    halving finds the step in a few searches, each on the one solver of the deal."""
    states = [first]
    for action in actions:
        states.append(GAME.apply(states[-1], 0, action))
    solver = make_solver(first.dungeon, first.strict_weapons, BEST_LINE_BUDGET)
    if reaches_score(solver, states[-1], best):
        return None
    kept, lost = 0, len(actions)  # the best is in reach after ``kept`` actions, not ``lost``
    while lost - kept > 1:
        middle = (kept + lost) // 2
        if reaches_score(solver, states[middle], best):
            kept = middle
        else:
            lost = middle
    return lost


def reaches_score(solver: Lines, state: ScoundrelState, target: int) -> bool:
    outcome = GAME.result(state)
    if outcome is not None:
        return outcome.scores[0] >= target
    return solver.reaches(solver.node_of(state), target)


# Hints during play: the chance of winning of each choice, from the cards still unseen


class Unseen:
    """The game as the player has seen it, from the views before each action and the
    actions: a table whose dungeon holds every card the player has seen there (cards of an
    avoided room, at the bottom in order) and a placeholder for each card never seen."""

    def __init__(self, views: Sequence[ScoundrelView], actions: Sequence[ScoundrelAction]) -> None:
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


def win_chances(
    views: Sequence[ScoundrelView],
    actions: Sequence[ScoundrelAction],
    samples: int = 16,
    rng: random.Random | None = None,
    seconds: float | None = None,
    clock: Callable[[], float] = time.perf_counter,
    budget: int | None = None,
) -> Hint[ScoundrelAction]:
    """For each legal action now, the share of sampled dungeons (the unseen cards in random
    order, consistently with everything seen) in which that action still allows a win.
    Each sample is solved as if its order were known, so this is an upper estimate: the
    chance for a player who guesses every later card right. ``seconds`` bounds the time
    (at least one sample is always tried); a sample whose search needs more than ``budget``
    tables is left out (``samples`` counts those solved; with none, every chance is 0)."""
    rng = rng or random.Random(0)
    unseen = Unseen(views, actions)
    legal = GAME.legal_actions(unseen.table, 0)
    wins = [0] * len(legal)
    started, tried, done = clock(), 0, 0
    while tried < samples and (tried == 0 or seconds is None or clock() - started < seconds):
        tried += 1
        world = unseen.sample(rng)
        solver = make_solver(world.dungeon, world.strict_weapons, budget)
        try:
            won = [still_winnable(solver, GAME.apply(world, 0, action)) for action in legal]
        except OutOfBudget:
            continue
        wins = [total + one for total, one in zip(wins, won, strict=True)]
        done += 1
    chances = [(action, won / max(done, 1)) for action, won in zip(legal, wins, strict=True)]
    return Hint(chances=chances, samples=done)


# Tables per sampled dungeon: more than the slowest of 5,000 deals needs. With the compiled
# search, 64 samples take 0.11 s of CPU at the median and 0.34 s at p90 over 30 seeded
# games, none left out (24 samples on the Python search: 0.62 and 1.97 s, so a time limit
# of a second cut many hints short).
HINT_BUDGET = 200_000


def hint(
    views: Sequence[ScoundrelView],
    actions: Sequence[ScoundrelAction],
    *,
    samples: int,
    rng: random.Random,
    seconds: float | None,
) -> Hint[ScoundrelAction]:
    """The hint during play: the game's ``hint_search``."""
    return win_chances(views, actions, samples, rng, seconds, budget=HINT_BUDGET)


def still_winnable(solver: Lines, state: ScoundrelState) -> bool:
    outcome = GAME.result(state)
    if outcome is not None:
        return outcome.winner is not None
    return solver.reaches(solver.node_of(state), 1)
