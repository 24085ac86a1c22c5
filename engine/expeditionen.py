"""Expeditionen (after Lost Cities, Reiner Knizia): two players build ascending expeditions.

Rules: ``templates/rules/expeditionen.html`` (served at ``/rules/expeditionen``). A turn
has two steps, kept as an explicit ``phase``: ``play`` (play a card to your expedition or
discard it) then ``draw``. A round ends when the last card of the draw pile is drawn; the
next round is dealt at once, so a state is always inside a round or ``over``.
"""

from __future__ import annotations

import functools
import random
from dataclasses import dataclass
from typing import Any, ClassVar, Literal, NotRequired, cast

from typing_extensions import TypedDict  # pydantic reads these on Python 3.11 too

from engine.base import (
    Game,
    GameState,
    IllegalAction,
    InvalidAction,
    Option,
    Outcome,
    OutcomeJson,
    Preset,
    Reason,
    Unseen,
    notation_words,
    resolve_options,
    starting_seat,
)
from engine.cards import SUITS, rank, suit
from engine.registry import register

NUMBERS = ("2", "3", "4", "5", "6", "7", "8", "9", "10")
WAGERS = ("J", "Q", "K")
ACE = "A"
ALL_CODES = frozenset(r + s for s in SUITS for r in (ACE, *NUMBERS, *WAGERS))
Source = Literal["deck", "S", "H", "D", "C"]  # where a draw takes its card: a suit's discards
SOURCES: tuple[Source, ...] = ("deck", "S", "H", "D", "C")
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
HAND_SIZE = 8
EXPEDITION_COST = 20
BONUS_CARDS = 8
BONUS = 20
TIEBREAK_ROUNDS = 3
SEATS = (0, 1)

# Wagers sort below every number card (the ace included): they may only start an expedition.
RANK_ORDER = {"J": 0, "Q": 0, "K": 0, ACE: 1} | {r: int(r) for r in NUMBERS}
SORT_ORDER = {r: i for i, r in enumerate((*WAGERS, ACE, *NUMBERS))}
# What each card adds to its expedition: the number, 1 for an ace, 0 for a wager. Looked up
# where every view and the legal plays count (no rank parsed from the code).
VALUE = {code: RANK_ORDER[rank(code)] for code in ALL_CODES}


# One string object per card code, shared by every deck, hand and pile of every match (a
# code made anew for each deal, or parsed from each action, costs some 50 bytes a card).
CARD = {code: code for code in ALL_CODES}
DECKS = {
    with_aces: tuple(
        CARD[r + s]
        for s in SUITS
        for r in ((*WAGERS, ACE, *NUMBERS) if with_aces else (*WAGERS, *NUMBERS))
    )
    for with_aces in (True, False)
}


def deck_for(with_aces: bool) -> list[str]:
    return list(DECKS[with_aces])


def is_wager(card: str) -> bool:
    return rank(card) in WAGERS


@functools.cache  # every view sorts a hand: some 60 codes, looked up instead of parsed
def sort_key(card: str) -> tuple[int, int]:
    return SUITS.index(suit(card)), SORT_ORDER[rank(card)]


def breakdown(cards: list[str]) -> dict[str, Any]:
    """One expedition's score, step by step as the rule file counts it.

    It names ranks, not card codes: a finished round's cards are dealt again in the next
    round, and a code in the history must not read like a card someone holds now.
    """
    total = sum(VALUE[card] for card in cards)
    wagers = sum(1 for card in cards if is_wager(card))
    bonus = BONUS if len(cards) >= BONUS_CARDS else 0
    ranks = [rank(card) for card in cards]
    score = expedition_score(cards)
    return {
        "ranks": ranks,
        "sum": total,
        "wagers": wagers,
        "multiplier": 1 + wagers,
        "bonus": bonus,
        "score": score,
    }


def scored_expedition(cards: list[str]) -> ScoredExpedition:
    """An expedition as every view shows it: its cards, its score and its multiplier."""
    score, multiplier = expedition_count(cards)
    return {"cards": list(cards), "score": score, "multiplier": multiplier}


def expedition_score(cards: list[str]) -> int:
    return expedition_count(cards)[0]


def expedition_count(cards: list[str]) -> tuple[int, int]:
    """The rule file's four steps in one pass (every view scores all eight expeditions):
    the score, and the multiplier (1 + the wagers)."""
    if not cards:
        return 0, 1
    total = wagers = 0
    for card in cards:
        value = VALUE[card]
        total += value
        wagers += value == 0
    bonus = BONUS if len(cards) >= BONUS_CARDS else 0
    return (total - EXPEDITION_COST) * (1 + wagers) + bonus, 1 + wagers


def may_play(expedition: list[str], card: str) -> bool:
    """``play_refusal(expedition, card) is None`` without writing the reason (the legal
    actions ask it of every card in hand, for every view): on an empty expedition or after
    a wager any card, after a number card only a higher one (a wager counts 0)."""
    if not expedition:
        return True
    last = VALUE[expedition[-1]]
    return last == 0 or VALUE[card] > last


def play_refusal(expedition: list[str], card: str) -> str | None:
    """Why ``card`` may not go onto ``expedition`` now, or None if it may."""
    if not expedition:
        return None
    last = expedition[-1]
    has_number = not is_wager(last)
    name = SUIT_NAMES[suit(card)]
    if is_wager(card):
        if has_number:
            return f"A wager may only start an expedition: your {name} already has a number card."
        return None
    if has_number and RANK_ORDER[rank(card)] <= RANK_ORDER[rank(last)]:
        return f"{card} must be higher than {last}, the last card of your {name} expedition."
    return None


@dataclass
class ExpeditionenState(GameState):
    """Plain data. ``draw_pile`` is top first; discard piles and expeditions bottom first."""

    seed: int
    with_aces: bool
    rounds: int
    round: int
    dealer: int
    to_move: int
    phase: Literal["play", "draw", "over"]
    hands: list[list[str]]
    expeditions: list[dict[str, list[str]]]
    discards: dict[str, list[str]]
    draw_pile: list[str]
    discarded: str | None
    finished: list[dict[str, Any]]


def totals(state: ExpeditionenState) -> list[int]:
    return [sum(done["scores"][seat] for done in state.finished) for seat in SEATS]


def draw_refusal(state: ExpeditionenState, source: str) -> str | None:
    """Why the seat to move may not draw from ``source`` now, or None if it may."""
    if source == "deck":
        return None  # the round ends as the last card is drawn, so the pile is never empty here
    pile = state.discards[source]
    if not pile:
        return f"The {SUIT_NAMES[source]} discard pile is empty."
    if pile[-1] == state.discarded:
        return f"You just discarded {pile[-1]}: you may not draw it back this turn."
    return None


def parse_action(action: object) -> tuple[str, str]:
    """(type, card or source) of a well-formed action; InvalidAction for anything else."""
    if not isinstance(action, dict):
        raise InvalidAction("An action is an object with a type.")
    kind = action.get("type")
    if kind in ("play", "discard"):
        field_name = "card"
    elif kind == "draw":
        field_name = "source"
    else:
        raise InvalidAction("The action type must be play, discard or draw.")
    if set(action) != {"type", field_name}:
        raise InvalidAction(f"A {kind} action has exactly the fields type and {field_name}.")
    value = action[field_name]
    if field_name == "card":
        if not (isinstance(value, str) and value in ALL_CODES):
            raise InvalidAction("The card must be a card code such as 7H or QS.")
        value = CARD[value]
    if field_name == "source" and not (isinstance(value, str) and value in SOURCES):
        raise InvalidAction("Draw from deck or from a suit's discard pile: S, H, D or C.")
    return kind, value


class PlayOrDiscard(TypedDict):
    type: Literal["play", "discard"]
    card: str


class Draw(TypedDict):
    type: Literal["draw"]
    source: Source


ExpeditionenAction = PlayOrDiscard | Draw


class ScoredExpedition(TypedDict):
    cards: list[str]
    score: int
    multiplier: int  # 1 + the wager cards in it: what its sum less the cost is multiplied by


class DiscardPile(TypedDict):
    top: str | None
    size: int
    cards: NotRequired[list[str]]  # revealed only


class ExpeditionenDetails(TypedDict):
    rounds: list[dict[str, Any]]  # the rounds played, as the view's ``finished``


class ExpeditionenResult(OutcomeJson, ExpeditionenDetails):
    """A finished match's result: the outcome's fields and the rounds played."""


def result_json(outcome: Outcome[ExpeditionenDetails] | None) -> ExpeditionenResult | None:
    return None if outcome is None else {**outcome.details, **outcome.fields()}


class ExpeditionenView(TypedDict):
    seat: int | None
    round: int
    rounds: int
    tiebreak: int
    max_tiebreaks: int
    with_aces: bool
    dealer: int
    to_move: int | None
    phase: Literal["play", "draw", "over"]
    hand: list[str] | None
    hand_counts: list[int]
    expeditions: list[dict[str, ScoredExpedition]]
    discards: dict[str, DiscardPile]
    draw_pile: int
    discarded: str | None
    finished: list[dict[str, Any]]
    totals: list[int]
    result: ExpeditionenResult | None
    hands: NotRequired[list[list[str]]]  # revealed only
    draw_pile_cards: NotRequired[list[str]]  # revealed only


class ExpeditionenReason(Reason):
    HIGHER_TOTAL = "higher_total"
    """The higher total after the match's rounds."""
    WON_TIEBREAK = "won_tiebreak"
    """The higher total after one of the single rounds that a tie adds."""
    TIED_AFTER_TIEBREAKS = "tied_after_tiebreaks"
    """Still tied after the last of those rounds: a draw."""


class ExpeditionenGame(Game[ExpeditionenState, ExpeditionenAction, ExpeditionenView]):
    name: ClassVar[str] = "expeditionen"
    title: ClassVar[dict[str, str]] = {"de": "Expeditionen", "en": "Expeditions"}
    seats: ClassVar[int] = 2
    options: ClassVar[tuple[Option, ...]] = (
        Option(
            "with_aces",
            False,
            (False, True),
            {"de": "Mit Assen", "en": "With aces"},
            {
                "de": "Die vier Asse spielen mit, als Zahlenkarten mit Wert 1 (52 Karten).",
                "en": "The four aces join as number cards of value 1 (52 cards).",
            },
        ),
        Option(
            "rounds",
            3,
            (1, 3),
            {"de": "Runden", "en": "Rounds"},
            {
                "de": "Drei Runden, oder eine für ein kurzes Spiel.",
                "en": "Three rounds, or one for a short game.",
            },
        ),
        Option(
            "first",
            None,
            (None, 0, 1),
            {"de": "Wer beginnt", "en": "Who starts"},
            {
                "de": "Der Platz, der in Runde 1 beginnt; sonst entscheidet das Los.",
                "en": "The seat that starts round 1; otherwise drawn by lot.",
            },
        ),
    )
    action_type: ClassVar[Any] = ExpeditionenAction
    view_type: ClassVar[Any] = ExpeditionenView
    tables: ClassVar[dict[str, Any]] = {
        "expedition_cost": EXPEDITION_COST,
        "wagers": list(WAGERS),
    }
    state_type = ExpeditionenState
    presets: ClassVar[tuple[Preset, ...]] = (
        Preset("short", {"rounds": 1}, {"de": "Kurzes Spiel", "en": "Short game"}),
        Preset("aces", {"with_aces": True}, {"de": "Mit Assen", "en": "With aces"}),
    )

    def new(
        self,
        seed: int,
        options: dict[str, Any] | None = None,
        deck: list[str] | None = None,
    ) -> ExpeditionenState:
        chosen = resolve_options(self.options, options)
        with_aces = chosen["with_aces"]
        first = starting_seat(chosen["first"], seed, len(SEATS))
        if deck is None:
            deck = shuffled(seed, 1, with_aces)
        elif sorted(deck) != sorted(deck_for(with_aces)):
            size = len(deck_for(with_aces))
            raise ValueError(f"a stacked deck must hold exactly the {size} cards of this game")
        state = ExpeditionenState(
            seed=seed,
            with_aces=with_aces,
            rounds=chosen["rounds"],
            round=1,
            dealer=1 - first,
            to_move=first,
            phase="play",
            hands=[[], []],
            expeditions=[{}, {}],
            discards={},
            draw_pile=[],
            discarded=None,
            finished=[],
        )
        deal(state, list(deck))
        return state

    def to_move(self, state: ExpeditionenState) -> int | None:
        return None if state.phase == "over" else state.to_move

    def legal_actions(self, state: ExpeditionenState, seat: int) -> list[ExpeditionenAction]:
        if state.phase == "over" or seat != state.to_move:
            return []
        if state.phase == "draw":
            return [
                {"type": "draw", "source": source}
                for source in SOURCES
                if draw_refusal(state, source) is None
            ]
        hand = sorted(state.hands[seat], key=sort_key)
        expeditions = state.expeditions[seat]
        plays: list[ExpeditionenAction] = [
            {"type": "play", "card": card}
            for card in hand
            if may_play(expeditions[suit(card)], card)
        ]
        return plays + [{"type": "discard", "card": card} for card in hand]

    def apply(
        self, state: ExpeditionenState, seat: int, action: ExpeditionenAction
    ) -> ExpeditionenState:
        kind, what = parse_action(action)
        if state.phase == "over":
            raise IllegalAction("The match is over.", "game_over")
        if seat != state.to_move:
            raise IllegalAction("It is not your turn.", "not_your_turn")
        if kind == "draw":
            return self._draw(state, what)
        return self._play_or_discard(state, kind, what)

    def _play_or_discard(self, state: ExpeditionenState, kind: str, card: str) -> ExpeditionenState:
        if state.phase != "play":
            raise IllegalAction("Draw a card first: from the deck or a discard pile.")
        seat = state.to_move
        if card not in state.hands[seat]:
            raise IllegalAction(f"You do not hold {card}.")
        if kind == "play":
            refusal = play_refusal(state.expeditions[seat][suit(card)], card)
            if refusal is not None:
                raise IllegalAction(refusal)
        new = state.clone()
        new.hands[seat].remove(card)
        if kind == "play":
            new.expeditions[seat][suit(card)].append(card)
        else:
            new.discards[suit(card)].append(card)
            new.discarded = card
        new.phase = "draw"
        return new

    def _draw(self, state: ExpeditionenState, source: str) -> ExpeditionenState:
        if state.phase != "draw":
            raise IllegalAction("First play or discard a card, then draw.")
        refusal = draw_refusal(state, source)
        if refusal is not None:
            raise IllegalAction(refusal)
        new = state.clone()
        seat = new.to_move
        if source == "deck":
            new.hands[seat].append(new.draw_pile.pop(0))
        else:
            new.hands[seat].append(new.discards[source].pop())
        new.discarded = None
        if not new.draw_pile:
            end_round(new)
        else:
            new.to_move = 1 - seat
            new.phase = "play"
        return new

    def table_view(self, state: ExpeditionenState) -> ExpeditionenView:
        """A spectator's view: no seat, no hand (``seat_view`` sets a seat's)."""
        over = state.phase == "over"
        return {
            "seat": None,
            "round": state.round,
            "rounds": state.rounds,
            "tiebreak": max(0, state.round - state.rounds),
            "max_tiebreaks": TIEBREAK_ROUNDS,
            "with_aces": state.with_aces,
            "dealer": state.dealer,
            "to_move": None if over else state.to_move,
            "phase": state.phase,
            "hand_counts": [len(hand) for hand in state.hands],
            "expeditions": [
                {s: scored_expedition(side[s]) for s in SUITS} for side in state.expeditions
            ],
            "discards": {
                s: {"top": pile[-1] if pile else None, "size": len(pile)}
                for s, pile in state.discards.items()
            },
            "draw_pile": len(state.draw_pile),
            "discarded": state.discarded,
            "finished": list(state.finished),
            "totals": totals(state),
            "result": result_json(self.result(state)),
            "hand": None,
        }

    def seat_view(
        self, table: ExpeditionenView, state: ExpeditionenState, seat: int | None
    ) -> ExpeditionenView:
        """The table's view with the seat and its own hand."""
        hand = sorted(state.hands[seat], key=sort_key) if seat is not None else None
        return {**table, "seat": seat, "hand": hand}

    def revealed(self, view: ExpeditionenView, state: ExpeditionenState) -> ExpeditionenView:
        view["hands"] = [sorted(hand, key=sort_key) for hand in state.hands]
        view["draw_pile_cards"] = list(state.draw_pile)
        for s, pile in state.discards.items():
            view["discards"][s]["cards"] = list(pile)
        return view

    def result(self, state: ExpeditionenState) -> Outcome[ExpeditionenDetails] | None:
        if state.phase != "over":
            return None
        scores = totals(state)
        if scores[0] == scores[1]:
            winner, reason = None, ExpeditionenReason.TIED_AFTER_TIEBREAKS
        else:
            winner = scores.index(max(scores))
            tiebreak = len(state.finished) > state.rounds
            reason = (
                ExpeditionenReason.WON_TIEBREAK if tiebreak else ExpeditionenReason.HIGHER_TOTAL
            )
        return Outcome(tuple(scores), winner, reason, {"rounds": list(state.finished)})

    def redeal_hidden(
        self, state: ExpeditionenState, viewer: int | None, rng: random.Random
    ) -> ExpeditionenState:
        """Hidden from a viewer: the other hands, the draw pile, every discard below a
        pile's top (even one it saw go) and the seed that deals the later rounds."""
        other = state.clone()
        other.seed = rng.randrange(2**63)
        if state.phase == "over":
            return other
        hands = [seat for seat in SEATS if seat != viewer]
        piles = list(other.discards.values())
        pool = [card for seat in hands for card in other.hands[seat]] + other.draw_pile
        pool += [card for pile in piles for card in pile[:-1]]
        rng.shuffle(pool)
        for seat in hands:
            size = len(other.hands[seat])
            other.hands[seat], pool = pool[:size], pool[size:]
        size = len(other.draw_pile)
        other.draw_pile, pool = pool[:size], pool[size:]
        for pile in piles:
            below = len(pile) - 1
            if below > 0:
                pile[:below], pool = pool[:below], pool[below:]
        return other

    def unseen(self, state: ExpeditionenState, viewer: int | None) -> list[Unseen]:
        """The other hands, the draw pile and the cards below the discard piles' tops:
        ``redeal_hidden``'s places; nothing once the match is over."""
        if state.phase == "over":
            return []
        hands = [Unseen("hand", state.hands[s], s) for s in SEATS if s != viewer]
        below = [card for pile in state.discards.values() for card in pile[:-1]]
        return [*hands, Unseen("draw_pile", state.draw_pile), Unseen("discards", below)]

    def reveals(self, state: ExpeditionenState, action: ExpeditionenAction) -> bool:
        """Playing or discarding shows only the card the action names. A draw from the deck
        shows its card to the drawer (and the last one deals the next round or ends the
        match); a draw from a discard pile uncovers the card beneath its top, hidden while
        covered (only a pile's only card leaves nothing to uncover)."""
        if action["type"] != "draw":
            return False
        return action["source"] == "deck" or len(state.discards[action["source"]]) > 1

    def took(self, state: ExpeditionenState, action: ExpeditionenAction) -> list[str]:
        if action["type"] == "draw" and action["source"] != "deck":
            return [state.discards[action["source"]][-1]]
        return []

    def notation(self, action: ExpeditionenAction) -> str:
        kind, what = parse_action(action)
        return f"{kind} {what}"

    def parse_notation(self, text: str) -> ExpeditionenAction:
        words = notation_words(text)
        if len(words) != 2:
            raise InvalidAction("Write an action as 'play 7H', 'discard QS' or 'draw deck'.")
        kind, what = words
        action = {"type": kind, "source" if kind == "draw" else "card": what}
        parse_action(action)
        return cast(ExpeditionenAction, action)


def shuffled(seed: int, round_number: int, with_aces: bool) -> list[str]:
    """The deck of a round, from the seed and the round number alone (replays need no RNG state)."""
    deck = deck_for(with_aces)
    random.Random(f"{seed}:{round_number}").shuffle(deck)
    return deck


def deal(state: ExpeditionenState, deck: list[str]) -> None:
    """Eight cards each, alternately, the non-dealer first; the non-dealer moves first."""
    dealt = 2 * HAND_SIZE
    non_dealer = 1 - state.dealer
    state.hands[non_dealer] = deck[0:dealt:2]
    state.hands[state.dealer] = deck[1:dealt:2]
    state.draw_pile = deck[dealt:]
    state.expeditions = [{s: [] for s in SUITS} for _ in SEATS]
    state.discards = {s: [] for s in SUITS}
    state.discarded = None
    state.to_move = non_dealer
    state.phase = "play"


def end_round(state: ExpeditionenState) -> None:
    """Score the round, then deal the next one or end the match."""
    sides = [{s: breakdown(side[s]) for s in SUITS} for side in state.expeditions]
    scores = [sum(int(part["score"]) for part in side.values()) for side in sides]
    state.finished.append(
        {"round": state.round, "dealer": state.dealer, "scores": scores, "expeditions": sides}
    )
    if match_decided(state):
        state.phase = "over"
        return
    if scores[0] == scores[1]:
        state.dealer = 1 - state.dealer
    else:
        state.dealer = scores.index(max(scores))  # the round's winner deals, so the loser starts
    state.round += 1
    deal(state, shuffled(state.seed, state.round, state.with_aces))


def match_decided(state: ExpeditionenState) -> bool:
    """After the last round the higher total wins; a tie plays up to three more single rounds."""
    played = len(state.finished)
    if played < state.rounds:
        return False
    scores = totals(state)
    return scores[0] != scores[1] or played >= state.rounds + TIEBREAK_ROUNDS


GAME = register(ExpeditionenGame())
