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

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine.bots.base import History, register_bot
from engine.bots.search import Clock, SearchRules, StrongBot
from engine.cards import SUITS, suit
from engine.expeditionen import (
    GAME,
    HAND_SIZE,
    RANK_ORDER,
    SOURCES,
    Draw,
    ExpeditionenAction,
    ExpeditionenState,
    ExpeditionenView,
    PlayOrDiscard,
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


class EasyBot:
    def choose(
        self,
        view: ExpeditionenView,
        legal: list[ExpeditionenAction],
        history: History[ExpeditionenAction],
        seat: int,
        rng: random.Random,
    ) -> ExpeditionenAction:
        action = easy_action(Table.of_view(view, seat), view["phase"])
        return action if action in legal else rng.choice(legal)


# The strong bot's rules

RANDOM_MOVES = 0.1  # share of rollout moves chosen at random, so rollouts vary
WON_WEIGHT = 0.5  # after the last round: the share of the reward that is winning itself


def rollout_policy(state: ExpeditionenState, seat: int, rng: random.Random) -> ExpeditionenAction:
    if rng.random() < RANDOM_MOVES:
        return rng.choice(GAME.legal_actions(state, seat))
    return easy_action(Table.of_state(state, seat), state.phase)


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


def squash(margin: int, last_round: bool) -> float:
    """A margin in points as a reward in 0..1; after the last round winning counts most."""
    squashed = 0.5 + 0.5 * math.tanh(margin / 40)
    if last_round:
        won = 1.0 if margin > 0 else 0.5 if margin == 0 else 0.0
        return WON_WEIGHT * won + (1 - WON_WEIGHT) * squashed
    return squashed


def current_points(state: ExpeditionenState, seat: int) -> int:
    return sum(expedition_score(cards) for cards in state.expeditions[seat].values())


def fast_rollout(state: ExpeditionenState, seat: int, rng: random.Random) -> float:
    """The rest of the round by the rollout policy, on the state's lists directly (one
    copy, no action dicts checked), scored as ``margin_reward`` scores a round's end."""
    table = state.clone()
    if table.phase == "over":
        return margin_reward(table, seat)
    while True:
        mover = table.to_move
        view = Table.of_state(table, mover)
        if table.phase == "play":
            play_step(table, mover, rollout_play(view, rng))
            continue
        source = easy_draw(view)["source"]
        pile = table.draw_pile if source == "deck" else table.discards[source]
        table.hands[mover].append(pile.pop(0) if source == "deck" else pile.pop())
        table.discarded = None
        if not table.draw_pile:
            return round_end_reward(table, seat)
        table.to_move, table.phase = 1 - mover, "play"


def rollout_play(view: Table, rng: random.Random) -> PlayOrDiscard:
    if rng.random() < RANDOM_MOVES:
        return {"type": "discard", "card": rng.choice(view.hand)}
    return easy_play(view)


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


def round_end_reward(table: ExpeditionenState, seat: int) -> float:
    points = [current_points(table, side) for side in (0, 1)]
    before = totals(table)
    margin = before[seat] + points[seat] - before[1 - seat] - points[1 - seat]
    last = len(table.finished) + 1 >= table.rounds
    return squash(margin, last)


def view_hint(view: ExpeditionenView, seat: int) -> ExpeditionenAction:
    return easy_action(Table.of_view(view, seat), view["phase"])


RULES: SearchRules[ExpeditionenState, ExpeditionenAction, ExpeditionenView] = SearchRules(
    sampler=sampler,
    policy=rollout_policy,
    horizon=round_over,
    reward=margin_reward,
    hint=view_hint,
    trust=0.02,
    rollout=fast_rollout,
)


def strong_bot(
    seconds: float = 1.0, playouts: int | None = None, clock: Clock = time.perf_counter
) -> StrongBot[ExpeditionenState, ExpeditionenAction, ExpeditionenView]:
    return StrongBot(GAME, RULES, seconds=seconds, playouts=playouts, clock=clock)


register_bot("expeditionen", "easy", lambda **budget: EasyBot())  # needs no budget
register_bot("expeditionen", "strong", strong_bot)
