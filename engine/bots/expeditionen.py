"""Expeditionen bots: what a seat knows, the easy heuristic, and the strong bot's rules.

What a seat knows (``Knowledge``), read from its view and the public history of the
current round: its own hand, every expedition, every discard pile in full (it saw each
card go down, and the order follows from the actions), and the cards the opponent picked
up from a discard pile and still holds. Everything else (the opponent's other cards and
the draw pile) is one pool of unseen cards, dealt at random for each sampled world.

The strong bot's rollouts stop at the end of the current round and score it (the next
round's deal comes from the seed, which no seat knows): a rollout is at most one round.
"""

from __future__ import annotations

import functools
import itertools
import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, cast

from engine.bots.base import History, register_bot
from engine.bots.search import Clock, SearchRules, StrongBot
from engine.cards import SUITS, suit
from engine.expeditionen import (
    BONUS,
    BONUS_CARDS,
    EXPEDITION_COST,
    GAME,
    HAND_SIZE,
    RANK_ORDER,
    SOURCES,
    Draw,
    ExpeditionenAction,
    ExpeditionenState,
    ExpeditionenView,
    PlayOrDiscard,
    Source,
    deck_for,
    expedition_score,
    is_wager,
    totals,
)

# What a seat knows


@dataclass(frozen=True)
class Knowledge:
    view: ExpeditionenView
    seat: int
    piles: dict[str, list[str]]  # every discard pile, bottom first
    known: list[str]  # cards the opponent picked up from a pile and still holds
    unseen: list[str]  # the opponent's other cards and the draw pile, in some order


def round_actions(
    history: History[ExpeditionenAction], with_aces: bool
) -> History[ExpeditionenAction]:
    """The actions of the current round: a round ends with the last draw from the deck."""
    per_round = len(deck_for(with_aces)) - 2 * HAND_SIZE
    start = draws = 0
    for index, (_, action) in enumerate(history):
        if action["type"] == "draw" and action["source"] == "deck":
            draws += 1
            if draws == per_round:
                start, draws = index + 1, 0
    return history[start:]


def own_hand(view: ExpeditionenView) -> list[str]:
    """The seat's own hand, a copy (a bot always plays a seat, so its view has one)."""
    hand = view["hand"]
    if hand is None:
        raise ValueError("a spectator's view: a bot plays a seat")
    return list(hand)


def knowledge(view: ExpeditionenView, history: History[ExpeditionenAction], seat: int) -> Knowledge:
    opponent = 1 - seat
    piles: dict[str, list[str]] = {s: [] for s in SUITS}
    known: list[str] = []
    for mover, action in round_actions(history, view["with_aces"]):
        if action["type"] == "draw":
            if action["source"] != "deck":
                card = piles[action["source"]].pop()
                if mover == opponent:
                    known.append(card)
            continue
        card = action["card"]
        if mover == opponent and card in known:
            known.remove(card)
        if action["type"] == "discard":
            piles[suit(card)].append(card)
    for s in SUITS:
        top = piles[s][-1] if piles[s] else None
        if top != view["discards"][s]["top"] or len(piles[s]) != view["discards"][s]["size"]:
            raise ValueError("the history does not lead to this view's discard piles")
    seen = own_hand(view) + known
    seen += [card for side in view["expeditions"] for s in SUITS for card in side[s]["cards"]]
    seen += [card for pile in piles.values() for card in pile]
    unseen = list(deck_for(view["with_aces"]))
    for card in seen:
        unseen.remove(card)
    return Knowledge(view, seat, piles, known, unseen)


def deal_world(known: Knowledge, rng: random.Random) -> ExpeditionenState:
    """One state the seat cannot tell from the real one: the unseen cards dealt at random."""
    view, seat = known.view, known.seat
    mover = view["to_move"]
    if mover is None:
        raise ValueError("the match is over: there is no world to play on")
    opponent = 1 - seat
    pool = list(known.unseen)
    rng.shuffle(pool)
    hidden = view["hand_counts"][opponent] - len(known.known)
    hands: list[list[str]] = [[], []]
    hands[seat] = own_hand(view)
    hands[opponent] = known.known + pool[:hidden]
    return ExpeditionenState(
        seed=rng.randrange(2**63),
        with_aces=view["with_aces"],
        rounds=view["rounds"],
        round=view["round"],
        dealer=view["dealer"],
        to_move=mover,
        phase=view["phase"],
        hands=hands,
        expeditions=[{s: list(side[s]["cards"]) for s in SUITS} for side in view["expeditions"]],
        discards={s: list(pile) for s, pile in known.piles.items()},
        draw_pile=pool[hidden:],
        discarded=view["discarded"],
        finished=list(view["finished"]),
    )


def sampler(
    view: ExpeditionenView, history: History[ExpeditionenAction], seat: int
) -> Callable[[random.Random], Any]:
    known = knowledge(view, history, seat)
    return lambda rng: deal_world(known, rng)


def determinize(
    view: ExpeditionenView, history: History[ExpeditionenAction], seat: int, rng: random.Random
) -> ExpeditionenState:
    return deal_world(knowledge(view, history, seat), rng)


# The easy heuristic: open with enough behind it, wager early, keep ascending,
# draw what helps, discard what cannot help the opponent.

OPEN_SUM = 22  # numbers of a suit in hand needed to open it (less while the pile is long)
WAGER_SUM = 25  # numbers of a suit in hand needed to wager on it
WAGER_PILE = 18  # wager only while the draw pile holds at least this many cards
CLOSE_GAP = 2  # a card this close above the expedition's last is played (or picked up)
LATE_PILE = 8  # with this few cards left, any card that fits is played


@dataclass(frozen=True)
class Table:
    """The part of a seat's view the heuristic reads, from a view or from a sampled state."""

    hand: list[str]
    mine: dict[str, list[str]]
    theirs: dict[str, list[str]]
    tops: dict[str, str | None]
    pile: int
    discarded: str | None

    @staticmethod
    def of_view(view: ExpeditionenView, seat: int) -> Table:
        sides = [{s: side[s]["cards"] for s in SUITS} for side in view["expeditions"]]
        return Table(
            hand=own_hand(view),
            mine=sides[seat],
            theirs=sides[1 - seat],
            tops={s: view["discards"][s]["top"] for s in SUITS},
            pile=view["draw_pile"],
            discarded=view["discarded"],
        )

    @staticmethod
    def of_state(state: ExpeditionenState, seat: int) -> Table:
        return Table(
            hand=state.hands[seat],
            mine=state.expeditions[seat],
            theirs=state.expeditions[1 - seat],
            tops={s: pile[-1] if pile else None for s, pile in state.discards.items()},
            pile=len(state.draw_pile),
            discarded=state.discarded,
        )


def worth(card: str) -> int:
    return RANK_ORDER[card[:-1]]


def gap(expedition: list[str], card: str) -> int | None:
    """How far above the expedition's last card this card lies; None if it does not fit."""
    if not expedition:
        return None
    last = worth(expedition[-1])
    if is_wager(card):
        return 0 if last == 0 else None
    return worth(card) - max(last, 1) if worth(card) > last else None


@dataclass(frozen=True)
class Suits:
    """Per suit of the hand: the sum of its numbers and its lowest card's worth."""

    sums: dict[str, int]
    lowest: dict[str, int]

    @staticmethod
    def of(hand: list[str]) -> Suits:
        sums = dict.fromkeys(SUITS, 0)
        lowest = dict.fromkeys(SUITS, 99)
        for card in hand:
            s, points = card[-1], worth(card)
            sums[s] += points
            lowest[s] = min(lowest[s], points)
        return Suits(sums, lowest)


def play_score(table: Table, suits: Suits, card: str) -> float | None:
    """How much the heuristic wants to play ``card`` now; None if it would rather not."""
    s = card[-1]
    if worth(card) > suits.lowest[s]:
        return None  # keep ascending: the lower card of the suit goes first
    if table.mine[s]:
        distance = gap(table.mine[s], card)
        if distance is None:
            return None
        if distance <= CLOSE_GAP or table.pile <= LATE_PILE:
            return 10.0 - distance
        return None
    behind = suits.sums[s]
    if is_wager(card):
        return 6.0 if behind >= WAGER_SUM and table.pile >= WAGER_PILE else None
    needed = OPEN_SUM - (4 if table.pile >= 24 else 0)
    return behind / 5 if behind >= needed else None


def help_to_opponent(table: Table, card: str) -> float:
    theirs = table.theirs[card[-1]]
    if not theirs:
        return 2.0 if is_wager(card) else worth(card) / 3
    distance = gap(theirs, card)
    return 0.0 if distance is None else 15.0 - min(distance, 10)


def use_to_me(table: Table, suits: Suits, card: str) -> float:
    mine = table.mine[card[-1]]
    if not mine:
        return suits.sums[card[-1]] / 4
    distance = gap(mine, card)
    return 0.0 if distance is None else 12.0 - min(distance, 10)


def easy_play(table: Table) -> PlayOrDiscard:
    suits = Suits.of(table.hand)
    scored = [(score, c) for c in table.hand if (score := play_score(table, suits, c))]
    if scored:
        return {"type": "play", "card": max(scored)[1]}
    card = min(
        table.hand, key=lambda c: (help_to_opponent(table, c) + use_to_me(table, suits, c), c)
    )
    return {"type": "discard", "card": card}


def easy_draw(table: Table) -> Draw:
    wanted = []
    for s in SOURCES[1:]:  # the discard piles
        top = table.tops[s]
        if top is None or top == table.discarded:
            continue
        distance = gap(table.mine[s], top)
        if distance is not None and distance <= CLOSE_GAP:
            wanted.append((distance, s))
    return {"type": "draw", "source": min(wanted)[1] if wanted else "deck"}


def easy_action(table: Table, phase: str) -> ExpeditionenAction:
    return easy_draw(table) if phase == "draw" else easy_play(table)


class RuleBot:
    """Plays what its rule picks from the seat's view and the history; should the rule
    ever pick an action that is not legal, a random legal one."""

    def rule(
        self, view: ExpeditionenView, history: History[ExpeditionenAction], seat: int
    ) -> ExpeditionenAction:
        raise NotImplementedError

    def choose(
        self,
        view: ExpeditionenView,
        legal: list[ExpeditionenAction],
        history: History[ExpeditionenAction],
        seat: int,
        rng: random.Random,
    ) -> ExpeditionenAction:
        action = self.rule(view, history, seat)
        return action if action in legal else rng.choice(legal)


class EasyBot(RuleBot):
    def rule(
        self, view: ExpeditionenView, history: History[ExpeditionenAction], seat: int
    ) -> ExpeditionenAction:
        return easy_action(Table.of_view(view, seat), view["phase"])


# The medium heuristic: each play (or discard) then draw scored by an estimate of the
# seat's round score at the end (``Outlook``): what its expeditions can still gain in the
# turns left, an unseen card counted by the odds of drawing it in time, less what a discard
# gives the opponent (``Rival``).

BONUS_FROM = 7  # expected cards in an expedition from which the bonus starts to count
IN_ORDER = 0.75  # of the unseen cards drawn in time, the share that comes in playable order
WAITING = 1.0  # the cost of each card held for a live expedition that a turn left can play
TAKE_SHARE = 0.7  # of what a discard is worth to the opponent: they spend a draw on it


@dataclass(frozen=True)
class Sight:
    """What one seat sees, from its view and the history or from a sampled state."""

    table: Table
    unseen: list[str]  # the cards this seat cannot see: the other hand and the draw pile
    their_hand: list[str]  # the opponent's cards this seat knows of

    @staticmethod
    def of_view(view: ExpeditionenView, history: History[ExpeditionenAction], seat: int) -> Sight:
        known = knowledge(view, history, seat)
        return Sight(Table.of_view(view, seat), known.unseen, known.known)

    @staticmethod
    def of_state(state: ExpeditionenState, seat: int) -> Sight:
        return Sight(Table.of_state(state, seat), state.hands[1 - seat] + state.draw_pile, [])


@dataclass(frozen=True)
class Prospect:
    """One expedition of one seat: what is laid and what may follow, in sums and counts."""

    laid: int  # the sum of the numbers laid
    laid_count: int
    laid_wagers: int
    held: int  # the sum of the playable numbers in hand (above the last laid)
    held_count: int
    held_wagers: int  # wagers in hand, while no number is laid
    coming: float  # the playable unseen numbers, each by the chance of drawing it in time
    coming_count: float
    spread: float  # the variance of what the unseen numbers bring


def prospect(laid: list[str], held: list[str], unseen: list[str], chance: float) -> Prospect:
    top = max((worth(card) for card in laid), default=0)
    numbers = [worth(card) for card in held if worth(card) > top]
    later = [worth(card) for card in unseen if worth(card) > top]
    return Prospect(
        laid=sum(worth(card) for card in laid),
        laid_count=len(laid),
        laid_wagers=sum(1 for card in laid if is_wager(card)),
        held=sum(numbers),
        held_count=len(numbers),
        held_wagers=sum(1 for card in held if is_wager(card)) if top == 0 else 0,
        coming=IN_ORDER * chance * sum(later),
        coming_count=IN_ORDER * chance * len(later),
        spread=chance * (1 - chance) * sum(value * value for value in later),
    )


def suit_value(p: Prospect, room: float = 1.0, opening: bool = True) -> float:
    """The expedition's expected score at the round's end, if the turns left allow the
    share ``room`` of the plays wanted. An unopened one is opened only if it pays, and
    keeps that choice open (``opening``): it is worth what it may bring above nothing."""
    best = -math.inf if p.laid_count else 0.0
    for wagers in {0, p.held_wagers}:
        count = p.laid_count + room * (wagers + p.held_count + p.coming_count)
        total = p.laid + room * (p.held + p.coming)
        bonus = BONUS * min(1.0, max(0.0, count - BONUS_FROM) / (BONUS_CARDS - BONUS_FROM))
        multiplier = 1 + p.laid_wagers + wagers
        mean = (total - EXPEDITION_COST) * multiplier + bonus
        if opening and not p.laid_count:
            mean = above_nothing(mean, multiplier * math.sqrt(room * p.spread))
        best = max(best, mean)
    return best


def above_nothing(mean: float, deviation: float) -> float:
    """E[max(0, X)] for a normal X of this mean and standard deviation."""
    if deviation <= 0:
        return max(0.0, mean)
    z = mean / deviation
    below = 0.5 * (1 + math.erf(z / math.sqrt(2)))
    return mean * below + deviation * math.exp(-z * z / 2) / math.sqrt(2 * math.pi)


def turns_after(pile: int) -> tuple[int, int]:
    """A seat's plays and useful draws still to come once its turn ends with ``pile`` cards
    in the draw pile: the opponent moves next, and the last draw of a round is no use."""
    turns = pile // 2
    return turns, max(0, turns - 1)


def by_suit(cards: list[str]) -> dict[str, list[str]]:
    grouped: dict[str, list[str]] = {s: [] for s in SUITS}
    for card in cards:
        grouped[card[-1]].append(card)
    return grouped


class Outlook:
    """A seat's expected round score after its turn, if it draws from the deck, with a
    what-if for a change to one or two of its suits."""

    def __init__(self, sight: Sight) -> None:
        turns, draws = turns_after(sight.table.pile - 1)
        self.turns = turns
        self.laid = sight.table.mine
        self.held = by_suit(sight.table.hand)
        self.unseen = by_suit(sight.unseen)
        pool = max(1, len(sight.unseen))
        self.chance = min(1.0, (draws + 1) / pool)  # this turn's draw from the deck too
        self.prospects = {s: self.suit(s, self.laid[s], self.held[s]) for s in SUITS}
        self.base = self.value({})
        # What the deck draw adds: a seat that takes a discard instead does without it.
        self.chance = min(1.0, draws / pool)
        kept = self.value({s: self.suit(s, self.laid[s], self.held[s]) for s in SUITS})
        self.deck_draw = self.base - kept
        self.chance = min(1.0, (draws + 1) / pool)

    def suit(self, s: str, laid: list[str], held: list[str]) -> Prospect:
        return prospect(laid, held, self.unseen[s], self.chance)

    def value(self, changed: dict[str, Prospect]) -> float:
        """The outlook with the suits in ``changed`` replaced; when the turns left cannot
        play every card held for a live expedition, each counts by the share they can."""
        prospects = [changed.get(s) or self.prospects[s] for s in SUITS]
        wanted = sum(
            p.held_count + p.held_wagers
            for p in prospects
            if p.laid_count or suit_value(p, opening=False) > 0
        )
        room = min(1.0, self.turns / wanted) if wanted else 1.0
        return sum(suit_value(p, room) for p in prospects) - WAITING * min(wanted, self.turns)


class Rival:
    """What a card on a discard pile is worth to the opponent, if they take it."""

    def __init__(self, sight: Sight) -> None:
        _, draws = turns_after(sight.table.pile)
        self.chance = min(1.0, draws / max(1, len(sight.unseen)))
        self.laid = sight.table.theirs
        self.held = by_suit(sight.their_hand)
        self.unseen = by_suit(sight.unseen)

    def windfall(self, card: str) -> float:
        s = card[-1]
        without = prospect(self.laid[s], self.held[s], self.unseen[s], self.chance)
        with_it = prospect(self.laid[s], [*self.held[s], card], self.unseen[s], self.chance)
        return TAKE_SHARE * max(0.0, suit_value(with_it) - suit_value(without))


def fits(expedition: list[str], card: str) -> bool:
    return not expedition or gap(expedition, card) is not None


def drawable(table: Table) -> dict[str, str]:
    return {s: top for s, top in table.tops.items() if top is not None and top != table.discarded}


def draw_values(
    me: Outlook, rival: Rival, turn: dict[str, tuple[list[str], list[str]]], tops: list[str]
) -> list[float]:
    """The seat's outlook after a draw from the deck, then after taking each of ``tops``
    (less the deck draw forgone, plus what the card would have been worth to the
    opponent); ``turn`` holds the suits this turn's play changed: (laid, held)."""
    changed = {s: me.suit(s, laid, held) for s, (laid, held) in turn.items()}
    values = [me.value(changed)]
    for top in tops:
        t = top[-1]
        laid, held = turn.get(t, (me.laid[t], me.held[t]))
        taken = me.value({**changed, t: me.suit(t, laid, [*held, top])})
        values.append(taken - me.deck_draw + rival.windfall(top))
    return values


def medium_play(sight: Sight, pairs: bool = True) -> PlayOrDiscard:
    """The best play or discard, each followed by its best draw (without ``pairs``, by a
    draw from the deck), less what a discard gives the opponent."""
    table = sight.table
    me, rival = Outlook(sight), Rival(sight)
    tops = list(drawable(table).values()) if pairs else []
    best, chosen = -math.inf, None
    for card in table.hand:
        s = card[-1]
        rest = list(me.held[s])
        rest.remove(card)
        for kind in ("play", "discard") if fits(table.mine[s], card) else ("discard",):
            laid = [*me.laid[s], card] if kind == "play" else me.laid[s]
            given = rival.windfall(card) if kind == "discard" else 0.0
            reachable = [top for top in tops if kind == "play" or top[-1] != s]
            value = max(draw_values(me, rival, {s: (laid, rest)}, reachable)) - given
            if value > best:
                best, chosen = value, {"type": kind, "card": card}
    return cast(PlayOrDiscard, chosen)


def medium_draw(sight: Sight) -> Draw:
    me, rival = Outlook(sight), Rival(sight)
    tops = list(drawable(sight.table).values())
    values = draw_values(me, rival, {}, tops)
    best = max(range(len(values)), key=values.__getitem__)
    source = "deck" if best == 0 else tops[best - 1][-1]
    return {"type": "draw", "source": cast(Source, source)}


class MediumBot(RuleBot):
    def rule(
        self, view: ExpeditionenView, history: History[ExpeditionenAction], seat: int
    ) -> ExpeditionenAction:
        return medium_action(Sight.of_view(view, history, seat), view["phase"])


def medium_action(sight: Sight, phase: str) -> ExpeditionenAction:
    return medium_draw(sight) if phase == "draw" else medium_play(sight)


# The strong bot's rules: rollouts in which both seats play medium to the round's end.

ROLLOUT_TURNS = 80  # turns of a rollout after which both seats draw only from the deck
TRUST = 0.02  # the reward by which medium's own choice leads before the rollouts
WON_WEIGHT = 0.8  # after the last round: the share of the reward that is winning itself


def rollout_policy(state: ExpeditionenState, seat: int, rng: random.Random) -> ExpeditionenAction:
    """The rollout's move through the engine: ``medium_round``'s, one step."""
    sight = Sight.of_state(state, seat)
    return medium_draw(sight) if state.phase == "draw" else medium_play(sight, pairs=False)


def round_over(start: ExpeditionenState, state: ExpeditionenState) -> bool:
    return state.round != start.round or state.phase == "over"


def margin_reward(state: ExpeditionenState, seat: int) -> float:
    """The match's standing after the rollout: a won last round counts as a win, else
    the margin in points, squashed into 0..1."""
    scores = totals(state)
    if state.phase != "over" and len(state.finished) < state.round:
        scores = [scores[s] + current_points(state, s) for s in (0, 1)]
    margin = scores[seat] - scores[1 - seat]
    return squash(margin, len(state.finished) >= state.rounds or state.phase == "over")


def squash(margin: float, last_round: bool) -> float:
    """A margin in points as a reward in 0..1; after the last round winning counts most."""
    squashed = 0.5 + 0.5 * math.tanh(margin / 40)
    if last_round:
        won = 1.0 if margin > 0 else 0.5 if margin == 0 else 0.0
        return WON_WEIGHT * won + (1 - WON_WEIGHT) * squashed
    return squashed


def current_points(state: ExpeditionenState, seat: int) -> int:
    return sum(expedition_score(cards) for cards in state.expeditions[seat].values())


def fast_rollout(state: ExpeditionenState, seat: int, rng: random.Random) -> float:
    """The round played on to its end by medium on both sides, scored as the match's
    standing; the compiled round (engine/expeditionen_rollout.pyx) where it was built."""
    if state.phase == "over":
        return margin_reward(state, seat)
    points = round_player()(state)
    before = totals(state)
    margin = before[seat] + points[seat] - before[1 - seat] - points[1 - seat]
    return squash(margin, len(state.finished) + 1 >= state.rounds)


@functools.cache
def round_player() -> Callable[[ExpeditionenState], tuple[int, int]]:
    """The compiled ``medium_round``, or this module's where no compiler built it."""
    try:
        from engine.expeditionen_rollout import medium_round as compiled
    except ImportError:
        return medium_round
    return compiled


def medium_round(state: ExpeditionenState) -> tuple[int, int]:
    """Both seats' points at the end of the state's round, both playing medium from here
    (a play chosen as if a deck draw followed), on a copy of the state's lists. Two seats
    can pass a card to and fro for ever: after ``ROLLOUT_TURNS`` turns they take the deck."""
    table = state.clone()
    for turn in itertools.count():
        mover = table.to_move
        if table.phase == "play":
            play_step(table, mover, medium_play(Sight.of_state(table, mover), pairs=False))
        stalling = turn >= ROLLOUT_TURNS
        source = "deck" if stalling else medium_draw(Sight.of_state(table, mover))["source"]
        pile = table.draw_pile if source == "deck" else table.discards[source]
        table.hands[mover].append(pile.pop(0) if source == "deck" else pile.pop())
        table.discarded = None
        if not table.draw_pile:
            break
        table.to_move, table.phase = 1 - mover, "play"
    return current_points(table, 0), current_points(table, 1)


def play_step(table: ExpeditionenState, mover: int, action: PlayOrDiscard) -> None:
    card = action["card"]
    table.hands[mover].remove(card)
    if action["type"] == "play":
        table.expeditions[mover][card[-1]].append(card)
        table.discarded = None
    else:
        table.discards[card[-1]].append(card)
        table.discarded = card
    table.phase = "draw"


def view_hint(
    view: ExpeditionenView, history: History[ExpeditionenAction], seat: int
) -> ExpeditionenAction:
    return medium_action(Sight.of_view(view, history, seat), view["phase"])


RULES: SearchRules[ExpeditionenState, ExpeditionenAction, ExpeditionenView] = SearchRules(
    sampler=sampler,
    policy=rollout_policy,
    horizon=round_over,
    reward=margin_reward,
    hint=view_hint,
    trust=TRUST,
    rollout=fast_rollout,
)


def strong_bot(
    seconds: float = 1.0, playouts: int | None = None, clock: Clock = time.perf_counter
) -> StrongBot[ExpeditionenState, ExpeditionenAction, ExpeditionenView]:
    return StrongBot(GAME, RULES, seconds=seconds, playouts=playouts, clock=clock)


register_bot("expeditionen", "easy", lambda **budget: EasyBot())  # needs no budget
register_bot("expeditionen", "medium", lambda **budget: MediumBot())
register_bot("expeditionen", "strong", strong_bot)
