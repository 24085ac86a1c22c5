"""Pilzwanderung bots: what a seat knows, the easy heuristic, and the strong bot's rules.

What a seat knows (``Knowledge``): everything its view shows, and what it saw earlier.
A bot is handed only the view of the moment and the public history (actions, which name
a forest position but not the card there), so each bot keeps the views it was shown in
this match (``Notebook``). Replaying the history from those views tells it which cards the
opponent took from the forest or the decay pile and still holds, and which cards went to
the discard pile (sold, discarded after a poison mushroom, pushed off the decay pile).
Suits never matter, so those facts are counts per mushroom kind or card role. A card the
seat never saw (a forest card refilled and taken between two of its turns) stays unknown;
when a later view contradicts the replay (two turns skipped in a row end a turn unseen),
what was read from the views is dropped.
Everything else is one pool of unseen cards, dealt at random for each sampled world: the
opponent's other hand cards (only cards that can be held), the draw pile, the unseen part
of the discard pile, and the night deck (under "hidden" also the opponent's night cards).

The strong bot compares the root actions worth comparing (``candidates``: every take,
the decay pile, a pan, per kind one cook and a few sells, a few discard sets). Its
rollouts play the easy heuristic on the state (a few moves at random) for at most
``HORIZON`` plies and score the margin of cooked points plus what each hand is likely
still worth; at the game's end, winning counts half. Budget: ``seconds`` per move on one
core (default 1.0, about 650 rollouts) or a fixed number of ``playouts``.
"""

from __future__ import annotations

import math
import random
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from engine.base import IllegalAction
from engine.bots.base import History, register_bot
from engine.bots.search import Clock, SearchRules, StrongBot
from engine.pilzwanderung import (
    BASKET,
    BUTTER,
    BUTTER_PER,
    BUTTER_POINTS,
    CIDER,
    CIDER_PER,
    CIDER_POINTS,
    COUNTS,
    DECAY_SIZE,
    FOREST_SIZE,
    FREE_POSITIONS,
    GAME,
    HANDABLE_DAY,
    KIND_OF,
    KINDS,
    MOON,
    NIGHT,
    NIGHT_OF,
    PAN,
    PER_BASKET,
    POINTS,
    POISON,
    POISON_LIMIT,
    ROLE,
    START_PAN,
    STICKS,
    PilzwanderungAction,
    PilzwanderungState,
    PilzwanderungView,
    Sell,
    deck_for,
    hand_limit,
    night_deck,
    role_key,
)

OPEN = "open"
UNSEEN = "?"  # a forest or decay card the seat has not seen

# Card roles (and mushroom kinds) as the counts of the rule file; a code per role for
# the cards the sampler deals (suits never matter).
CODE_OF: dict[str | int, str] = {}
for _code in deck_for("standard"):
    CODE_OF.setdefault(role_key(_code), _code)


# What a seat knows


class Notebook:
    """The views one bot was shown in the current match, by the length of the history then."""

    def __init__(self, views: dict[int, PilzwanderungView] | None = None) -> None:
        self.views: dict[int, PilzwanderungView] = dict(views or {})
        self.history: list[tuple[int, PilzwanderungAction]] = []

    def write(self, view: PilzwanderungView, history: History[PilzwanderungAction]) -> None:
        """Keep this view; a history that does not continue the kept one starts a new match."""
        if list(history[: len(self.history)]) != self.history:
            self.views.clear()
        self.history = list(history)
        self.views[len(history)] = view


@dataclass
class Trail:
    """The forest and decay pile as last seen, played forward; UNSEEN for a refilled card."""

    forest: list[str]
    decay: list[str]
    draw: int

    @staticmethod
    def of_view(view: PilzwanderungView) -> Trail:
        return Trail(
            [spot["card"] for spot in view["forest"]], list(view["decay"]), view["draw_pile"]
        )

    def agrees_with(self, view: PilzwanderungView) -> bool:
        seen = Trail.of_view(view)
        return (
            self.draw == seen.draw
            and matches(self.forest, seen.forest)
            and matches(self.decay, seen.decay)
        )

    def fall(self, flushed: Counter[str | int]) -> None:
        """The end-of-turn steps; a decay pile pushed off counts into ``flushed``."""
        if self.forest:
            card = self.forest.pop(0)
            if len(self.decay) >= DECAY_SIZE:
                flushed.update(role_key(c) for c in self.decay if c != UNSEEN)
                self.decay = []
            self.decay.append(card)
        while len(self.forest) < FOREST_SIZE and self.draw:
            self.forest.append(UNSEEN)
            self.draw -= 1


def matches(guessed: list[str], seen: list[str]) -> bool:
    return len(guessed) == len(seen) and all(
        g in (UNSEEN, s) for g, s in zip(guessed, seen, strict=True)
    )


@dataclass
class Facts:
    """What the seat knows beyond its view: day cards by role in the opponent's hand and in
    the discard pile, and the night cards in the discard pile."""

    held: Counter[str | int] = field(default_factory=Counter)  # the opponent's
    flushed: Counter[str | int] = field(default_factory=Counter)  # seen going to the discard
    sold: Counter[str | int] = field(default_factory=Counter)  # from the history alone
    nights_out: list[str] = field(default_factory=list)  # night cards in the discard pile

    def forget_seen(self) -> None:
        self.held.clear()
        self.flushed.clear()

    def lose(self, key: str | int, number: int) -> None:
        self.held[key] = max(0, self.held[key] - number)


def read_facts(
    view: PilzwanderungView,
    history: History[PilzwanderungAction],
    seat: int,
    seen: dict[int, PilzwanderungView],
) -> Facts:
    facts = Facts()
    trail: Trail | None = None
    for index, (mover, action) in enumerate(history):
        if index in seen:
            if trail is not None and not trail.agrees_with(seen[index]):
                facts.forget_seen()
            trail = Trail.of_view(seen[index])
        asks_discard = index + 1 < len(history) and history[index + 1][1]["type"] == "discard"
        note(facts, trail, action, mover != seat)
        if trail is not None and not (action["type"] in ("take", "take_decay") and asks_discard):
            trail.fall(facts.flushed)
    if trail is not None and not trail.agrees_with(view):
        facts.forget_seen()
    return facts


def note(facts: Facts, trail: Trail | None, action: PilzwanderungAction, theirs: bool) -> None:
    """What one action tells the seat, and its effect on the forest and decay pile."""
    if action["type"] == "take":
        card = UNSEEN
        if trail is not None and action["position"] <= len(trail.forest):
            card = trail.forest.pop(action["position"] - 1)
        gained(facts, [card], theirs)
    elif action["type"] == "take_decay":
        cards = trail.decay if trail is not None else []
        gained(facts, cards, theirs)
        if trail is not None:
            trail.decay = []
    elif action["type"] == "sell":
        rank = action["rank"]
        if theirs:
            facts.lose(rank, action["day"])
        facts.sold[rank] += action["day"]
        if action["night"]:
            facts.nights_out.append(NIGHT_OF[rank])
    elif action["type"] == "cook":
        if theirs:
            facts.lose(action["rank"], action["day"])
            facts.lose(BUTTER, action["butter"])
            facts.lose(CIDER, action["cider"])
            facts.lose(PAN, action["pan"] == "hand")
    elif action["type"] == "place_pan" and theirs:
        facts.lose(PAN, 1)
    elif action["type"] == "discard":
        for card in action["cards"]:
            if ROLE[card] == NIGHT:
                facts.nights_out.append(card)
                continue
            if theirs:
                facts.lose(role_key(card), 1)
            facts.sold[role_key(card)] += 1


def gained(facts: Facts, cards: list[str], theirs: bool) -> None:
    for card in cards:
        if card == UNSEEN:
            continue
        if ROLE[card] == MOON:
            facts.flushed[MOON] += 1
        elif theirs and card in HANDABLE_DAY:
            facts.held[role_key(card)] += 1


@dataclass(frozen=True)
class Knowledge:
    view: PilzwanderungView
    seat: int
    held: list[str]  # day cards known in the opponent's hand
    gone: list[str]  # cards known in the discard pile, below its top
    days: list[str]  # the unseen day cards
    nights: list[str]  # the unseen night cards


def knowledge(
    view: PilzwanderungView,
    history: History[PilzwanderungAction],
    seat: int,
    seen: dict[int, PilzwanderungView],
) -> Knowledge:
    """What the seat knows; facts the view cannot hold (an inconsistent notebook) are dropped."""
    facts = read_facts(view, history, seat, seen)
    for trusted in (facts, Facts(nights_out=facts.nights_out), Facts()):
        known = tally_knowledge(view, seat, trusted)
        if known is not None:
            return known
    raise ValueError("the view does not hold the cards of its deck")


def own_hand(view: PilzwanderungView) -> list[str]:
    """The seat's own hand, a copy (a bot always plays a seat, so its view has one)."""
    hand = view["hand"]
    if hand is None:
        raise ValueError("a spectator's view: a bot plays a seat")
    return list(hand)


def visible(view: PilzwanderungView) -> list[str]:
    """Every card code the view shows, night cards included (the starting pans excepted)."""
    cards = own_hand(view)
    cards += [spot["card"] for spot in view["forest"]] + list(view["decay"])
    if view["discard"]["top"] is not None:
        cards.append(view["discard"]["top"])
    for side in view["displays"]:
        cards += side.get("night", []) + side["pans"] + side["baskets"]
        cards += [poison["card"] for poison in side["poison"]]
        for dish in side["dishes"]:
            cards += [dish["pan"], *dish["cards"]]
    return [card for card in cards if card != START_PAN]


def tally_knowledge(view: PilzwanderungView, seat: int, facts: Facts) -> Knowledge | None:
    opponent = 1 - seat
    shown = visible(view)
    days: Counter[str | int] = Counter(COUNTS[view["counts"]])
    days.subtract(role_key(card) for card in shown if ROLE[card] != NIGHT)
    held, gone = list(facts.held.elements()), list((facts.flushed + facts.sold).elements())
    top = view["discard"]["top"]
    if top is not None and ROLE[top] != NIGHT and role_key(top) in gone:
        gone.remove(role_key(top))  # the top may be one of them, and is counted already
    nights_gone = [card for card in facts.nights_out if card != top]
    days.subtract(held + gone)
    nights = Counter(night_deck())
    nights.subtract([card for card in shown if ROLE[card] == NIGHT] + nights_gone)
    if min(days.values(), default=0) < 0 or min(nights.values(), default=0) < 0:
        return None
    theirs = view["displays"][opponent]
    hidden_nights = 0 if view["night_cards"] == OPEN else theirs["night_count"]
    hidden = theirs["hand_count"] - theirs["night_count"] - len(held)
    below_top = view["discard"]["size"] - (top is not None) - len(gone) - len(nights_gone)
    unseen_days = sum(days.values())
    unseen_nights = sum(nights.values())
    holdable = sum(n for key, n in days.items() if CODE_OF[key] in HANDABLE_DAY)
    if (
        hidden < 0
        or holdable < hidden
        or unseen_nights < hidden_nights + view["night_deck"]
        or unseen_days < hidden + view["draw_pile"]
        or unseen_days + unseen_nights
        != hidden + hidden_nights + view["draw_pile"] + view["night_deck"] + below_top
    ):
        return None
    return Knowledge(
        view=view,
        seat=seat,
        held=[CODE_OF[key] for key in held],
        gone=[CODE_OF[key] for key in gone] + nights_gone,
        days=[CODE_OF[key] for key in days.elements()],
        nights=sorted(nights.elements()),
    )


def deal_world(known: Knowledge, rng: random.Random) -> PilzwanderungState:
    """One state the seat cannot tell from the real one: the unseen cards dealt at random."""
    view, seat = known.view, known.seat
    mover = view["to_move"]
    if mover is None:
        raise ValueError("the game is over: there is no world to play on")
    opponent = 1 - seat
    theirs = view["displays"][opponent]
    days, nights = list(known.days), list(known.nights)
    rng.shuffle(days)
    rng.shuffle(nights)
    hidden = theirs["hand_count"] - theirs["night_count"] - len(known.held)
    dealt: list[str] = []
    rest: list[str] = []
    for card in days:
        (dealt if len(dealt) < hidden and card in HANDABLE_DAY else rest).append(card)
    draw = view["draw_pile"]
    if view["night_cards"] == OPEN:
        their_nights = list(theirs.get("night", []))
    else:
        their_nights, nights = nights[: theirs["night_count"]], nights[theirs["night_count"] :]
    night_pile = nights[: view["night_deck"]]
    top = view["discard"]["top"]
    discard = rest[draw:] + nights[view["night_deck"] :] + known.gone + ([top] if top else [])
    hands: list[list[str]] = [[], []]
    hands[seat] = own_hand(view)
    if view["night_cards"] == OPEN:
        hands[seat] += view["displays"][seat].get("night", [])
    hands[opponent] = known.held + dealt + their_nights
    displays = view["displays"]
    return PilzwanderungState(
        seed=rng.randrange(2**63),
        counts=view["counts"],
        night_cards=view["night_cards"],
        card_faces=view["card_faces"],
        first=view["first"],
        to_move=mover,
        phase=view["phase"],
        forest=[spot["card"] for spot in view["forest"]],
        decay=list(view["decay"]),
        draw_pile=rest[:draw],
        night_deck=night_pile,
        discard=discard,
        hands=hands,
        pans=[list(side["pans"]) for side in displays],
        dishes=[
            [c for dish in side["dishes"] for c in (dish["pan"], *dish["cards"])]
            for side in displays
        ],
        baskets=[list(side["baskets"]) for side in displays],
        poison=[[p["card"] for p in side["poison"]] for side in displays],
        poison_turns=[[p["turns"] for p in side["poison"]] for side in displays],
        sticks=[side["sticks"] for side in displays],
        skipped=list(view["skipped"]),
    )


def sampler_with(
    seen: dict[int, PilzwanderungView],
) -> Callable[
    [PilzwanderungView, History[PilzwanderungAction], int], Callable[[random.Random], Any]
]:
    def sampler(
        view: PilzwanderungView, history: History[PilzwanderungAction], seat: int
    ) -> Callable[[random.Random], Any]:
        known = knowledge(view, history, seat, seen)
        return lambda rng: deal_world(known, rng)

    return sampler


def determinize(
    view: PilzwanderungView,
    history: History[PilzwanderungAction],
    seat: int,
    rng: random.Random,
    seen: dict[int, PilzwanderungView] | None = None,
) -> PilzwanderungState:
    return deal_world(knowledge(view, history, seat, seen or {}), rng)


# The easy heuristic: cook big sets with butter and cider, sell for sticks to reach the
# deep forest, guard the hand limit, take what fits the hand (or the decay pile), avoid
# poison with a full hand, and discard what is worth least.

POOR = 4  # with fewer sticks a seat sells pairs to reach the deep forest
LATE_DRAW = 8  # with this few cards in the draw pile, every set of 3 is cooked
BIG_SET = 5  # a set this big is cooked at once


@dataclass(frozen=True)
class Table:
    """The part of a seat's view the heuristic reads, from a view or from a sampled state."""

    hand: list[str]  # night cards included
    limit: int
    sticks: int
    pans: int  # empty pans in the display
    forest: list[str]
    decay: list[str]
    draw: int
    nights_left: int
    baskets: int
    phase: str
    must_discard: int

    @staticmethod
    def of_view(view: PilzwanderungView, seat: int) -> Table:
        mine = view["displays"][seat]
        hand = own_hand(view)
        if view["night_cards"] == OPEN:
            hand += mine.get("night", [])
        return Table(
            hand=hand,
            limit=mine["hand_limit"],
            sticks=mine["sticks"],
            pans=len(mine["pans"]),
            forest=[spot["card"] for spot in view["forest"]],
            decay=list(view["decay"]),
            draw=view["draw_pile"],
            nights_left=view["night_deck"],
            baskets=len(mine["baskets"]),
            phase=view["phase"],
            must_discard=view["must_discard"],
        )

    @staticmethod
    def of_state(state: PilzwanderungState, seat: int) -> Table:
        hand = state.hands[seat]
        limit = hand_limit(state, seat)
        return Table(
            hand=hand,
            limit=limit,
            sticks=state.sticks[seat],
            pans=len(state.pans[seat]),
            forest=state.forest,
            decay=state.decay,
            draw=len(state.draw_pile),
            nights_left=len(state.night_deck),
            baskets=len(state.baskets[seat]),
            phase=state.phase,
            must_discard=len(hand) - limit if state.phase == "discard" else 0,
        )


@dataclass
class Hand:
    """A hand by what it can do: mushrooms per kind (a night card counts 2), the rest by role."""

    kinds: dict[int, int]
    days: dict[int, int]
    nights: dict[int, int]
    butter: int = 0
    cider: int = 0
    pans: int = 0

    @staticmethod
    def of(cards: list[str]) -> Hand:
        hand = Hand(dict.fromkeys(KINDS, 0), dict.fromkeys(KINDS, 0), dict.fromkeys(KINDS, 0))
        for card in cards:
            hand.add(card)
        return hand

    def add(self, card: str) -> None:
        role = ROLE[card]
        if role == NIGHT:
            self.nights[KIND_OF[card]] += 1
            self.kinds[KIND_OF[card]] += 2
        elif card in KIND_OF:
            self.days[KIND_OF[card]] += 1
            self.kinds[KIND_OF[card]] += 1
        elif role == BUTTER:
            self.butter += 1
        elif role == CIDER:
            self.cider += 1
        elif role == PAN:
            self.pans += 1


def extras(mushrooms: int, butter: int, cider: int) -> tuple[int, int]:
    """The most points of butter and cider these mushrooms can carry (4 per butter, 5 per cider)."""
    best = (0, 0, 0)
    for b in range(min(butter, mushrooms // BUTTER_PER) + 1):
        c = min(cider, (mushrooms - BUTTER_PER * b) // CIDER_PER)
        best = max(best, (BUTTER_POINTS * b + CIDER_POINTS * c, -b, c))
    return -best[1], best[2]


def dish_score(kind: int, mushrooms: int, butter: int, cider: int) -> int:
    return mushrooms * POINTS[kind] + BUTTER_POINTS * butter + CIDER_POINTS * cider


def cook_action(table: Table, hand: Hand, kind: int) -> PilzwanderungAction:
    butter, cider = extras(hand.kinds[kind], hand.butter, hand.cider)
    return {
        "type": "cook",
        "rank": kind,
        "day": hand.days[kind],
        "night": hand.nights[kind],
        "pan": "hand" if hand.pans else "display",
        "butter": butter,
        "cider": cider,
    }


def best_cook(table: Table, hand: Hand) -> tuple[float, PilzwanderungAction] | None:
    """The set to cook now, if one is ready: big, carrying butter or cider, or forced."""
    if not table.pans and not hand.pans:
        return None
    full = len(table.hand) >= table.limit - 1
    late = table.draw <= LATE_DRAW
    best: tuple[float, PilzwanderungAction] | None = None
    for kind in KINDS:
        count = hand.kinds[kind]
        if count < 3:
            continue
        butter, cider = extras(count, hand.butter, hand.cider)
        score = dish_score(kind, count, butter, cider)
        ready = count >= BIG_SET or butter or cider or full or late
        ready = ready or (count >= 4 and POINTS[kind] >= 3)
        if ready and (best is None or score > best[0]):
            best = (score, cook_action(table, hand, kind))
    return best


def card_worth(card: str, hand: Hand, table: Table) -> float:
    """What one more card is worth to this hand, in cooking points."""
    role = ROLE[card]
    late = table.draw <= LATE_DRAW
    if card in KIND_OF:
        kind = KIND_OF[card]
        count = hand.kinds[kind] + (2 if role == NIGHT else 1)
        share = 1.15 if count >= 3 else (0.25 if late else 0.35 + 0.25 * hand.kinds[kind])
        return max(share * POINTS[kind] * (count - hand.kinds[kind]), 0.3 * STICKS[kind])
    biggest = max(hand.kinds.values())
    if role == BUTTER:
        return (
            BUTTER_POINTS
            * (0.9 if biggest >= 4 else 0.5 if biggest >= 2 else 0.25)
            / (1 + hand.butter)
        )
    if role == CIDER:
        return (
            CIDER_POINTS
            * (0.9 if biggest >= 5 else 0.45 if biggest >= 3 else 0.2)
            / (1 + hand.cider)
        )
    if role == PAN:
        pans = table.pans + hand.pans
        sets = sum(1 for n in hand.kinds.values() if n >= 2)
        return 3.5 if pans < sets else 1.0 if pans < 2 else 0.3
    if role == BASKET:
        return 0.5 if late else 2.5
    if role == MOON:
        return 2.5 if table.nights_left else 0.0
    if role == POISON:
        keep = POISON_LIMIT + PER_BASKET * table.baskets
        return -1.0 - 1.5 * max(0, len(table.hand) - keep)
    return 0.0


def stick_worth(table: Table) -> float:
    """One stick, in cooking points, when buying a deep forest card: less the more one has."""
    return 0.6 if table.sticks < POOR else 0.3 if table.sticks < 2 * POOR else 0.15


def holds(card: str, nights_left: int) -> bool:
    role = ROLE[card]
    return role not in (BASKET, POISON) and (role != MOON or nights_left > 0)


def take_score(table: Table, hand: Hand, position: int) -> float | None:
    price = max(0, position - FREE_POSITIONS)
    card = table.forest[position - 1]
    if price > table.sticks:
        return None
    if holds(card, table.nights_left) and len(table.hand) >= table.limit:
        return None
    return card_worth(card, hand, table) - stick_worth(table) * price


def decay_score(table: Table, hand: Hand) -> float | None:
    if not table.decay:
        return None
    room = table.limit + PER_BASKET * sum(ROLE[card] == BASKET for card in table.decay)
    nights = table.nights_left
    cards = 0
    for card in table.decay:
        if holds(card, nights):
            cards += 1
            nights -= ROLE[card] == MOON
    if len(table.hand) + cards > room:
        return None
    after = Hand.of(table.hand)
    score = 0.0
    for card in table.decay:
        score += card_worth(card, after, table)
        if card in KIND_OF:
            after.add(card)
    return score


def sell_score(table: Table, hand: Hand, kind: int) -> float | None:
    """Sticks from a pair not worth collecting, when they buy a good deep forest card."""
    count = hand.kinds[kind]
    if count < 2 or count >= 3 or table.sticks >= POOR:
        return None
    sticks = STICKS[kind] * count
    deep = [
        card_worth(card, hand, table) - stick_worth(table) * (position - FREE_POSITIONS)
        for position, card in enumerate(table.forest, start=1)
        if table.sticks < position - FREE_POSITIONS <= table.sticks + sticks
    ]
    return max(deep, default=0.0) - POINTS[kind] * count * 0.6


def easy_turn(table: Table) -> PilzwanderungAction:
    hand = Hand.of(table.hand)
    cook = best_cook(table, hand)
    if cook is not None:
        return cook[1]
    options: list[tuple[float, int, PilzwanderungAction]] = []
    for position in range(1, len(table.forest) + 1):
        score = take_score(table, hand, position)
        if score is not None:
            options.append((score, -position, {"type": "take", "position": position}))
    score = decay_score(table, hand)
    if score is not None:
        options.append((score, 0, {"type": "take_decay"}))
    for kind in KINDS:
        score = sell_score(table, hand, kind)
        if score is not None:
            sell: Sell = {
                "type": "sell",
                "rank": kind,
                "day": hand.days[kind],
                "night": hand.nights[kind],
            }
            options.append((score - 0.5, -10 - kind, sell))
    if options:
        best = max(options, key=lambda option: option[:2])
        if best[0] > 0 or len(table.hand) < table.limit:
            return best[2]
    return relief(table, hand, options)


def relief(
    table: Table, hand: Hand, options: list[tuple[float, int, PilzwanderungAction]]
) -> PilzwanderungAction:
    """With a full hand and nothing worth taking: cook any set, else sell the least kind,
    else place a pan, else the least bad option."""
    if (table.pans or hand.pans) and any(n >= 3 for n in hand.kinds.values()):
        kind = max(KINDS, key=lambda k: dish_score(k, hand.kinds[k], 0, 0) * (hand.kinds[k] >= 3))
        return cook_action(table, hand, kind)
    sellable = [k for k in KINDS if hand.kinds[k] >= 2]
    if sellable:
        kind = min(sellable, key=lambda k: (POINTS[k] * hand.kinds[k], -STICKS[k]))
        return {"type": "sell", "rank": kind, "day": hand.days[kind], "night": hand.nights[kind]}
    if hand.pans:
        return {"type": "place_pan"}
    if options:
        return max(options, key=lambda option: option[:2])[2]
    single = next((k for k in KINDS if hand.nights[k]), None)
    if single is not None:
        return {"type": "sell", "rank": single, "day": 0, "night": 1}
    return {"type": "take", "position": 1}


def keep_worth(card: str, hand: Hand, table: Table) -> float:
    """What a hand card is worth keeping (the least goes first in a discard)."""
    role = ROLE[card]
    if card in KIND_OF:
        kind = KIND_OF[card]
        count = hand.kinds[kind]
        share = 1.0 if count >= 3 else 0.4 + 0.1 * count
        return POINTS[kind] * (2 if role == NIGHT else 1) * share
    rest = list(table.hand)
    rest.remove(card)
    return card_worth(card, Hand.of(rest), table)


def ranked_for_discard(table: Table) -> list[str]:
    hand = Hand.of(table.hand)
    return sorted(table.hand, key=lambda card: (keep_worth(card, hand, table), card))


def easy_discard(table: Table) -> PilzwanderungAction:
    ranked = ranked_for_discard(table)
    return {"type": "discard", "cards": ranked[: table.must_discard]}


def easy_action(table: Table) -> PilzwanderungAction:
    return easy_discard(table) if table.phase == "discard" else easy_turn(table)


class EasyBot:
    def choose(
        self,
        view: PilzwanderungView,
        legal: list[PilzwanderungAction],
        history: History[PilzwanderungAction],
        seat: int,
        rng: random.Random,
    ) -> PilzwanderungAction:
        action = easy_action(Table.of_view(view, seat))
        if action["type"] == "discard":
            action = next(
                (
                    a
                    for a in legal
                    if a["type"] == "discard" and sorted(a["cards"]) == sorted(action["cards"])
                ),
                action,
            )
        return action if action in legal else rng.choice(legal)


# The strong bot's rules

HORIZON = 24  # rollout plies before the table is scored as it stands
RANDOM_MOVES = 0.05  # share of rollout moves chosen at random, so rollouts vary
WON_WEIGHT = 0.5  # at the game's end: the share of the reward that is winning itself
MARGIN_SCALE = 15.0  # points of margin that make a clear lead
DISCARD_CHOICES = 8  # discard sets the search compares after a poison mushroom


def rollout_policy(state: PilzwanderungState, seat: int, rng: random.Random) -> PilzwanderungAction:
    if rng.random() < RANDOM_MOVES and state.phase == "turn":
        return rng.choice(GAME.legal_actions(state, seat))
    return easy_action(Table.of_state(state, seat))


def cooked(state: PilzwanderungState, seat: int) -> int:
    total = 0
    kind = 0
    for card in state.dishes[seat]:
        role = ROLE[card]
        if card in KIND_OF:
            kind = KIND_OF[card]
            total += POINTS[kind] * (2 if role == NIGHT else 1)
        elif role == BUTTER:
            total += BUTTER_POINTS
        elif role == CIDER:
            total += CIDER_POINTS
    return total


def promise(state: PilzwanderungState, seat: int) -> float:
    """What a hand is likely still worth, in cooking points: its sets the pans can take (and
    one more: a pan may still come), the other sets and parts of sets less, butter and cider
    while there is a set for them, and sticks."""
    hand = Hand.of(state.hands[seat])
    pans = len(state.pans[seat]) + hand.pans
    sets = sorted((POINTS[k] * n for k, n in hand.kinds.items() if n >= 3), reverse=True)
    worth = 0.7 * sum(sets[: pans + 1]) + 0.18 * sum(sets[pans + 1 :])
    worth += sum(0.25 * POINTS[k] * n for k, n in hand.kinds.items() if n < 3)
    worth += 0.5 * (BUTTER_POINTS * hand.butter + CIDER_POINTS * hand.cider) if sets else 0.0
    return worth + 0.2 * state.sticks[seat]


def reward(state: PilzwanderungState, seat: int) -> float:
    margin: float = cooked(state, seat) - cooked(state, 1 - seat)
    if state.phase != "over":
        return 0.5 + 0.5 * squash(margin + promise(state, seat) - promise(state, 1 - seat))
    outcome = GAME.result(state)
    assert outcome is not None
    won = 0.5 if outcome.winner is None else float(outcome.winner == seat)
    return WON_WEIGHT * won + (1 - WON_WEIGHT) * (0.5 + 0.5 * squash(margin))


def squash(margin: float) -> float:
    return math.tanh(margin / MARGIN_SCALE)


def rollout(state: PilzwanderungState, seat: int, rng: random.Random) -> float:
    """Both seats play the rollout policy for up to HORIZON plies; the table is then scored."""
    for _ in range(HORIZON):
        mover = GAME.to_move(state)
        if mover is None:
            break
        action = rollout_policy(state, mover, rng)
        try:
            state = GAME.apply(state, mover, action)
        except IllegalAction:
            state = GAME.apply(state, mover, rng.choice(GAME.legal_actions(state, mover)))
    return reward(state, seat)


def within_horizon(start: PilzwanderungState, state: PilzwanderungState) -> bool:
    return False  # ``rollout`` counts its own HORIZON plies


def view_hint(
    view: PilzwanderungView, history: History[PilzwanderungAction], seat: int
) -> PilzwanderungAction:
    return easy_action(Table.of_view(view, seat))


RULES: SearchRules[PilzwanderungState, PilzwanderungAction, PilzwanderungView] = SearchRules(
    sampler=sampler_with({}),
    policy=rollout_policy,
    horizon=within_horizon,
    reward=reward,
    hint=view_hint,
    trust=0.01,
    rollout=rollout,
)


def candidates(
    view: PilzwanderungView, legal: list[PilzwanderungAction], seat: int
) -> list[PilzwanderungAction]:
    """The root actions worth comparing: every take, the decay pile, a pan, and per kind the
    whole set cooked with its best butter and cider, sold whole, or sold as a pair."""
    table = Table.of_view(view, seat)
    if table.phase == "discard":
        return discard_candidates(table, legal)
    hand = Hand.of(table.hand)
    wanted: list[PilzwanderungAction] = []
    for kind in KINDS:
        if hand.kinds[kind] >= 3:
            wanted.append(cook_action(table, hand, kind))
        wanted.append(
            {"type": "sell", "rank": kind, "day": hand.days[kind], "night": hand.nights[kind]}
        )
        wanted.append({"type": "sell", "rank": kind, "day": 2, "night": 0})
        wanted.append({"type": "sell", "rank": kind, "day": 0, "night": 1})
    chosen = [a for a in legal if a["type"] in ("take", "take_decay", "place_pan") or a in wanted]
    return chosen or legal


def discard_candidates(table: Table, legal: list[PilzwanderungAction]) -> list[PilzwanderungAction]:
    """The easy discard and sets that swap one of its cards for one it keeps."""
    ranked = ranked_for_discard(table)
    size = table.must_discard
    sets = [sorted(ranked[:size])]
    for out in range(size):
        for kept in range(size, min(len(ranked), size + 3)):
            swapped = ranked[:size]
            swapped[out] = ranked[kept]
            sets.append(sorted(swapped))
    chosen: list[PilzwanderungAction] = [
        a for a in legal if a["type"] == "discard" and sorted(a["cards"]) in sets
    ]
    return chosen[:DISCARD_CHOICES] or legal


class PilzStrongBot:
    """The generic search, with this bot's notebook of the views it was shown. A caller that
    makes a new bot for each move (a server keeping no bot between moves) may hand it the
    seat's earlier views of this match as ``seen`` (by the length of the history then);
    without them it knows less and plays weaker, but still legally."""

    def __init__(
        self,
        seconds: float = 1.0,
        playouts: int | None = None,
        seen: dict[int, PilzwanderungView] | None = None,
        clock: Clock = time.perf_counter,
    ) -> None:
        self.notebook = Notebook(seen)
        rules = SearchRules(
            sampler=sampler_with(self.notebook.views),
            policy=RULES.policy,
            horizon=RULES.horizon,
            reward=RULES.reward,
            hint=RULES.hint,
            trust=RULES.trust,
            rollout=RULES.rollout,
        )
        self.search = StrongBot(GAME, rules, seconds=seconds, playouts=playouts, clock=clock)

    @property
    def last_playouts(self) -> int:
        return self.search.last_playouts

    def choose(
        self,
        view: PilzwanderungView,
        legal: list[PilzwanderungAction],
        history: History[PilzwanderungAction],
        seat: int,
        rng: random.Random,
    ) -> PilzwanderungAction:
        self.notebook.write(view, history)
        return self.search.choose(view, candidates(view, legal, seat), history, seat, rng)


register_bot("pilzwanderung", "easy", lambda **budget: EasyBot())  # needs no budget
register_bot("pilzwanderung", "strong", PilzStrongBot)
