"""Pilzwanderung (after Morels, Brent Povis, 2012): two players walk a forest of mushrooms.

Rules: ``templates/rules/pilzwanderung.html`` (served at ``/rules/pilzwanderung``), with the
Morels presets.

The state in one sentence: the forest row (``forest[0]`` is position 1, at the feet), the
decay pile, the draw pile (top first), the night deck (top first), the face-up discard
pile (bottom first), and per seat a hand, empty pans, dishes, baskets, poison mushrooms
with the turn-ends they still last, and sticks. Night cards (``N2``..``N9``) live in the
hand in the state, as they count as hand cards; the view shows them in the display under
``night_cards: "open"``. A starting pan is the code ``XX`` (a spare card lying face down).

A turn is one action; a poison mushroom adds a second step, the phase ``discard``, in
which the same seat names the cards to discard (``must_discard`` in the view says how
many). A seat that cannot act is skipped at once (``skipped`` in the view lists the seats
skipped since the last action).

Notation: ``take 5``, ``decay``, ``cook 9 day2 night1 pan:display butter1 cider0``,
``sell 8 day3 night0``, ``pan``, ``discard 2H QD N5`` (the cards in any order).

A view shows the viewer's own hand, the other hand's size (and its night cards under
"open", their number under "hidden"), the forest with each position's cost, the decay
pile, the discard pile's top and size, the sizes of the draw pile and night deck, and both
displays with each dish's score. ``redeal_hidden`` says what is hidden from whom.

Decisions where the rule file is silent (the tests name each):

- A cook or sell names counts, not cards: the day cards of that kind, the butter, the
  cider and the pan card (for ``pan: "hand"``) are the first ones in the hand, in the
  order they came into it; ``pan: "display"`` fills the empty pan placed first (the
  starting pan before placed ones). Place a pan plays the first pan card of the hand.
- Taking the decay pile: the baskets in it go to the display first, then moons and the
  rest; the fit check uses the current limit (a poison mushroom already in the display
  counts; one inside the decay pile does not, it asks for a discard afterwards); a moon
  counts as a hand card only while the night deck still has a card for it.
- Taking a moon while the night deck has cards needs room for the night card; with the
  night deck empty a moon can be taken even with a full hand.
- The moons of a decay pile take night cards in the pile's order, as long as there are.
- When the last forest card is taken the game ends at once, even if that card was a
  poison mushroom (no discard is asked for).
- After a turn the forest steps come first, then expired poison mushrooms go to the
  discard pile (in the order they were taken).
- Under ``night_cards: "hidden"`` the opponent sees how many night cards a seat holds
  (the Morels night cards have their own back), not which.
- Every turn ends by refilling the forest from the draw pile, so a cook, a sale or a
  placed pan reveals a card too (``reveals``: it may not be taken back) while the draw
  pile holds cards; a cooked or sold card's suit reveals nothing, suits never matter.
- A rematch is started by the loser (after a draw the starters alternate), as in
  Expeditionen.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
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
from engine.registry import register

SEATS = (0, 1)
SUITS = ("S", "H", "D", "C")
KINDS = (2, 3, 4, 5, 6, 7, 8, 9, 10)  # mushroom kinds, by rank
NIGHT_KINDS = (2, 3, 4, 5, 6, 7, 8, 9)
POINTS = {2: 1, 3: 1, 4: 2, 5: 2, 6: 3, 7: 3, 8: 3, 9: 4, 10: 6}
STICKS = {2: 1, 3: 2, 4: 1, 5: 2, 6: 1, 7: 2, 8: 3, 9: 2, 10: 4}
NAMES = {
    2: "honey fungus",
    3: "tree ear",
    4: "lawyer's wig",
    5: "shiitake",
    6: "hen of the woods",
    7: "birch bolete",
    8: "porcini",
    9: "chanterelle",
    10: "morel",
}
BUTTER_POINTS = 3
CIDER_POINTS = 5
BUTTER_PER = 4  # mushrooms per butter
CIDER_PER = 5  # mushrooms per cider
FOREST_SIZE = 8
FREE_POSITIONS = 2
DECAY_SIZE = 4
HAND_LIMIT = 8
POISON_LIMIT = 4
PER_BASKET = 2
DEAL = 3
POISON_TURNS = 2  # the turn-end in which it was taken, and the next
START_PAN = "XX"  # a spare card face down: each seat's starting pan

MUSHROOM, NIGHT, BUTTER, CIDER, BASKET, POISON, MOON, PAN = (
    "mushroom",
    "night",
    "butter",
    "cider",
    "basket",
    "poison",
    "moon",
    "pan",
)
ROLE: dict[str, str] = {f"{r}{s}": MUSHROOM for r in KINDS for s in SUITS}
ROLE |= {f"N{r}": NIGHT for r in NIGHT_KINDS}
ROLE |= {"QH": BUTTER, "QD": BUTTER, "KH": CIDER, "KD": CIDER}
ROLE |= {"QS": BASKET, "QC": BASKET, "KS": POISON, "KC": POISON}
ROLE |= {f"A{s}": MOON for s in SUITS}
ROLE |= {f"J{s}": PAN for s in SUITS} | {"JK": PAN, START_PAN: PAN}
KIND_OF: dict[str, int] = {code: int(code[:-1]) for code, role in ROLE.items() if role == MUSHROOM}
KIND_OF |= {f"N{r}": r for r in NIGHT_KINDS}
NIGHT_OF = {r: f"N{r}" for r in NIGHT_KINDS}
DAY_CODES = frozenset(code for code, role in ROLE.items() if role != NIGHT and code != START_PAN)
HAND_ROLES = (MUSHROOM, NIGHT, BUTTER, CIDER, PAN)
HAND_CODES = frozenset(code for code, role in ROLE.items() if role in HAND_ROLES)
HANDABLE_DAY = frozenset(c for c in HAND_CODES if ROLE[c] != NIGHT and c != START_PAN)
# Where a card is counted in a hand tally: day kinds at 2..10, night kinds at 11..18 (19,
# the night morel, stays 0).
NIGHT_SLOT = 9
SLOT: dict[str, int] = {code: KIND_OF[code] for code, role in ROLE.items() if role == MUSHROOM}
SLOT |= {f"N{r}": NIGHT_SLOT + r for r in NIGHT_KINDS}
BUTTER_SLOT, CIDER_SLOT, PAN_SLOT, SLOTS = 20, 21, 22, 23
SLOT |= {"QH": BUTTER_SLOT, "QD": BUTTER_SLOT, "KH": CIDER_SLOT, "KD": CIDER_SLOT}
SLOT |= {code: PAN_SLOT for code, role in ROLE.items() if role == PAN}
HAND_ORDER = {MUSHROOM: 0, NIGHT: 0, BUTTER: 1, CIDER: 2, PAN: 3}

# The forest deck of each ``counts`` option: mushrooms per kind, then the other roles.
COUNTS: dict[str, dict[str | int, int]] = {
    "standard": {
        2: 7, 3: 7, 4: 6, 5: 5, 6: 5, 7: 4, 8: 4, 9: 4, 10: 3,
        BUTTER: 4, CIDER: 4, BASKET: 4, POISON: 4, MOON: 8, PAN: 12,
    },
    "original": {
        2: 10, 3: 8, 4: 6, 5: 5, 6: 5, 7: 4, 8: 4, 9: 4, 10: 3,
        BUTTER: 3, CIDER: 3, BASKET: 5, POISON: 5, MOON: 8, PAN: 11,
    },
}  # fmt: skip
ROLE_CODES: dict[str, tuple[str, ...]] = {
    BUTTER: ("QH", "QD"),
    CIDER: ("KH", "KD"),
    BASKET: ("QS", "QC"),
    POISON: ("KS", "KC"),
    MOON: tuple(f"A{s}" for s in SUITS),
    PAN: (*(f"J{s}" for s in SUITS), *(f"J{s}" for s in SUITS), "JK", "JK", "JK", "JK"),
}


def role_key(code: str) -> str | int:
    """What a stacked deck is checked by: a mushroom's kind, or the card's role."""
    return KIND_OF[code] if ROLE[code] == MUSHROOM else ROLE[code]


def deck_for(counts: str) -> list[str]:
    """The forest deck of these counts in a fixed order (suits cycle; they never matter)."""
    deck: list[str] = []
    for key, number in COUNTS[counts].items():
        if isinstance(key, int):
            deck += [f"{key}{SUITS[i % 4]}" for i in range(number)]
        else:
            codes = ROLE_CODES[key]
            deck += [codes[i % len(codes)] for i in range(number)]
    return deck


def night_deck() -> list[str]:
    return [NIGHT_OF[r] for r in NIGHT_KINDS]


def cost(position: int) -> int:
    """Sticks to take the card at a forest position (1 and 2 are free)."""
    return max(0, position - FREE_POSITIONS)


def dish_breakdown(dish: list[str]) -> Dish:
    """One dish as the rule file scores it: cooking points (a night card double), butter, cider."""
    mushrooms = [card for card in dish if card in KIND_OF]
    kind = KIND_OF[mushrooms[0]]
    counted = sum(2 if ROLE[card] == NIGHT else 1 for card in mushrooms)
    butter = sum(1 for card in dish if ROLE[card] == BUTTER)
    cider = sum(1 for card in dish if ROLE[card] == CIDER)
    return {
        "pan": dish[0],
        "rank": kind,
        "cards": list(dish[1:]),
        "mushrooms": counted,
        "points": counted * POINTS[kind],
        "butter": butter,
        "cider": cider,
        "score": dish_score(kind, counted, butter, cider),
    }


def dish_score(kind: int, mushrooms: int, butter: int, cider: int) -> int:
    return mushrooms * POINTS[kind] + BUTTER_POINTS * butter + CIDER_POINTS * cider


def sale_sticks(kind: int, day: int, night: int) -> int:
    return STICKS[kind] * (day + 2 * night)


def offers(actions: list[PilzwanderungAction]) -> list[Offer]:
    """What each legal cook gives (the dish's score) and each sale (sticks), once per choice
    of cards (not per pan): the cook and sell dialogs show it before the player confirms."""
    shown: dict[tuple[int, ...], Offer] = {}
    for action in actions:
        if action["type"] == "sell":
            rank, day, night = action["rank"], action["day"], action["night"]
            sticks = sale_sticks(rank, day, night)
            shown[(0, rank, day, night)] = {
                "type": "sell",
                "rank": rank,
                "day": day,
                "night": night,
                "sticks": sticks,
            }
        elif action["type"] == "cook":
            rank, day, night = action["rank"], action["day"], action["night"]
            butter, cider = action["butter"], action["cider"]
            score = dish_score(rank, day + 2 * night, butter, cider)
            shown[(1, rank, day, night, butter, cider)] = {
                "type": "cook",
                "rank": rank,
                "day": day,
                "night": night,
                "butter": butter,
                "cider": cider,
                "score": score,
            }
    return list(shown.values())


@dataclass
class PilzwanderungState(GameState):
    """Plain data; see the module docstring. Per-seat lists are indexed by seat."""

    seed: int
    counts: Literal["standard", "original"]
    night_cards: Literal["open", "hidden"]
    card_faces: Literal["playing_cards", "mushrooms"]
    first: int
    to_move: int
    phase: Literal["turn", "discard", "over"]
    forest: list[str]
    decay: list[str]
    draw_pile: list[str]
    night_deck: list[str]
    discard: list[str]
    hands: list[list[str]]
    pans: list[list[str]]
    dishes: list[list[str]]  # cooked cards in order; each dish starts with its pan card
    baskets: list[list[str]]
    poison: list[list[str]]
    poison_turns: list[list[int]]  # turn-ends each poison mushroom still lasts
    sticks: list[int]
    skipped: list[int]  # seats skipped since the last action, in turn order


def hand_limit(state: PilzwanderungState, seat: int) -> int:
    base = POISON_LIMIT if state.poison[seat] else HAND_LIMIT
    return base + PER_BASKET * len(state.baskets[seat])


def tally(hand: list[str]) -> list[int]:
    counts = [0] * SLOTS
    for card in hand:
        counts[SLOT[card]] += 1
    return counts


def takes_room(state: PilzwanderungState, card: str) -> bool:
    """Whether taking this card puts a card into the hand."""
    role = ROLE[card]
    if role == BASKET or role == POISON:
        return False
    return role != MOON or bool(state.night_deck)


def decay_room(state: PilzwanderungState) -> tuple[int, int]:
    """(hand cards the decay pile brings, limit it adds by its baskets)."""
    baskets = moons = others = 0
    for card in state.decay:
        role = ROLE[card]
        if role == BASKET:
            baskets += 1
        elif role == MOON:
            moons += 1
        elif role != POISON:
            others += 1
    return others + min(moons, len(state.night_deck)), PER_BASKET * baskets


def take_refusal(state: PilzwanderungState, seat: int, position: int) -> str | None:
    if position > len(state.forest):
        return f"The forest has only {len(state.forest)} cards: there is no position {position}."
    price = cost(position)
    if price > state.sticks[seat]:
        return f"Position {position} costs {price} sticks; you have {state.sticks[seat]}."
    card = state.forest[position - 1]
    limit = hand_limit(state, seat)
    if takes_room(state, card) and len(state.hands[seat]) >= limit:
        what = "the night card" if ROLE[card] == MOON else "that card"
        return f"Your hand is full ({limit} cards): {what} does not fit."
    return None


def decay_refusal(state: PilzwanderungState, seat: int) -> str | None:
    if not state.decay:
        return "The decay pile is empty."
    cards, extra = decay_room(state)
    limit = hand_limit(state, seat) + extra
    if len(state.hands[seat]) + cards > limit:
        return f"The decay pile does not fit into your hand (limit {limit} with its baskets)."
    return None


def cook_refusal(
    state: PilzwanderungState,
    seat: int,
    kind: int,
    day: int,
    night: int,
    pan: str,
    butter: int,
    cider: int,
) -> str | None:
    counts = tally(state.hands[seat])
    name = NAMES[kind]
    if day > counts[kind]:
        return f"You hold only {counts[kind]} day cards of {name} ({kind})."
    if night and not counts[NIGHT_SLOT + kind]:
        return f"You hold no night card of {name} ({kind})."
    mushrooms = day + 2 * night
    if mushrooms < 3:
        return "Cook at least 3 mushrooms of one kind (a night card counts 2)."
    if pan == "display" and not state.pans[seat]:
        return "You have no empty pan in your display."
    if pan == "hand" and not counts[PAN_SLOT]:
        return "You hold no pan card."
    if butter > counts[BUTTER_SLOT] or cider > counts[CIDER_SLOT]:
        return f"You hold {counts[BUTTER_SLOT]} butter and {counts[CIDER_SLOT]} cider."
    if BUTTER_PER * butter + CIDER_PER * cider > mushrooms:
        return (
            f"{mushrooms} mushrooms allow one butter per 4 and one cider per 5 "
            f"(4 x butter + 5 x cider <= {mushrooms})."
        )
    return None


def sell_refusal(
    state: PilzwanderungState, seat: int, kind: int, day: int, night: int
) -> str | None:
    counts = tally(state.hands[seat])
    name = NAMES[kind]
    if day > counts[kind]:
        return f"You hold only {counts[kind]} day cards of {name} ({kind})."
    if night and not counts[NIGHT_SLOT + kind]:
        return f"You hold no night card of {name} ({kind})."
    if day + 2 * night < 2:
        return "Sell at least 2 mushrooms of one kind (a single night card is enough)."
    return None


def can_act(state: PilzwanderungState, seat: int) -> bool:
    """Whether any of the five actions is possible (a fast form of legal_actions != [])."""
    hand = state.hands[seat]
    if len(hand) < hand_limit(state, seat):
        return bool(state.forest)  # position 1 is free, and there is room
    for card in state.forest[: state.sticks[seat] + FREE_POSITIONS]:
        if not takes_room(state, card):
            return True
    counts = tally(hand)
    if counts[PAN_SLOT] or any(counts[NIGHT_SLOT + 2 : NIGHT_SLOT + 10]):
        return True
    if any(number >= 2 for number in counts[2:11]):
        return True
    return bool(state.decay) and decay_refusal(state, seat) is None


def gain(state: PilzwanderungState, seat: int, card: str) -> None:
    """A taken card goes to its place: basket and poison to the display, a moon for a night
    card (or just to the discard pile when the night deck is empty), the rest to the hand."""
    role = ROLE[card]
    if role == BASKET:
        state.baskets[seat].append(card)
    elif role == POISON:
        state.poison[seat].append(card)
        state.poison_turns[seat].append(POISON_TURNS)
    elif role == MOON:
        state.discard.append(card)
        if state.night_deck:
            state.hands[seat].append(state.night_deck.pop(0))
    else:
        state.hands[seat].append(card)


def fall(state: PilzwanderungState) -> None:
    """The three end-of-turn steps: a card onto the decay pile, close up, refill."""
    forest = state.forest
    if forest:
        card = forest.pop(0)
        if len(state.decay) >= DECAY_SIZE:
            state.discard += state.decay
            state.decay = []
        state.decay.append(card)
    draw = state.draw_pile
    if len(forest) < FOREST_SIZE and draw:
        need = FOREST_SIZE - len(forest)
        forest += draw[:need]
        del draw[:need]


def tick_poison(state: PilzwanderungState, seat: int) -> None:
    """A turn of ``seat`` ended (or was skipped): each poison mushroom counts it."""
    turns = state.poison_turns[seat]
    if not turns:
        return
    cards = state.poison[seat]
    kept_cards: list[str] = []
    kept_turns: list[int] = []
    for card, left in zip(cards, turns, strict=True):
        if left > 1:
            kept_cards.append(card)
            kept_turns.append(left - 1)
        else:
            state.discard.append(card)
    state.poison[seat] = kept_cards
    state.poison_turns[seat] = kept_turns


def end_turn(state: PilzwanderungState, seat: int) -> None:
    fall(state)
    if not state.forest:
        state.phase = "over"
        return
    tick_poison(state, seat)
    advance(state, 1 - seat)


def advance(state: PilzwanderungState, seat: int) -> None:
    """Give the turn to ``seat``, skipping each seat that cannot act; two skips in a row run
    the end-of-turn steps once and give the turn back to the seat skipped first."""
    skipped_first: int | None = None
    while True:
        if can_act(state, seat):
            state.to_move = seat
            state.phase = "turn"
            return
        state.skipped.append(seat)
        tick_poison(state, seat)
        if skipped_first is None:
            skipped_first, seat = seat, 1 - seat
            continue
        fall(state)
        if not state.forest:
            state.phase = "over"
            return
        seat, skipped_first = skipped_first, None


def after_take(state: PilzwanderungState, seat: int) -> None:
    """The end of a take: the game may end at once, a poison mushroom asks for a discard."""
    if not state.forest:
        state.phase = "over"
    elif len(state.hands[seat]) > hand_limit(state, seat):
        state.phase = "discard"
    else:
        end_turn(state, seat)


def remove_first(hand: list[str], wanted: int, number: int, taken: list[str]) -> None:
    """Move the first ``number`` cards of tally slot ``wanted`` from ``hand`` to ``taken``."""
    if number <= 0:
        return
    index = 0
    while number:
        if SLOT[hand[index]] == wanted:
            taken.append(hand.pop(index))
            number -= 1
        else:
            index += 1


def discard_choices(hand: list[str], size: int) -> list[tuple[str, ...]]:
    """Every distinct set of ``size`` cards of ``hand`` (two decks repeat codes), sorted."""
    ordered = sorted(hand, key=hand_sort_key)
    return list(dict.fromkeys(itertools.combinations(ordered, size)))


def split_dishes(state: PilzwanderungState, seat: int) -> list[list[str]]:
    dishes: list[list[str]] = []
    for card in state.dishes[seat]:
        if ROLE[card] == PAN:
            dishes.append([card])
        else:
            dishes[-1].append(card)
    return dishes


def hand_sort_key(card: str) -> tuple[int, int, str]:
    return HAND_ORDER[ROLE[card]], KIND_OF.get(card, 0), card


# Actions -------------------------------------------------------------------------------

ACTION_FIELDS: dict[str, frozenset[str]] = {
    "take": frozenset({"type", "position"}),
    "take_decay": frozenset({"type"}),
    "cook": frozenset({"type", "rank", "day", "night", "pan", "butter", "cider"}),
    "sell": frozenset({"type", "rank", "day", "night"}),
    "place_pan": frozenset({"type"}),
    "discard": frozenset({"type", "cards"}),
}


def whole(value: object, low: int, high: int) -> bool:
    return type(value) is int and low <= value <= high


def checked_action(action: object) -> PilzwanderungAction:
    """A well-formed action, now typed as one; InvalidAction for anything else."""
    if not isinstance(action, dict):
        raise InvalidAction("An action is an object with a type.")
    kind = action.get("type")
    if not isinstance(kind, str) or kind not in ACTION_FIELDS:
        raise InvalidAction(
            "The action type must be take, take_decay, cook, sell, place_pan or discard."
        )
    fields = ACTION_FIELDS[kind]
    if action.keys() != fields:
        raise InvalidAction(f"A {kind} action has exactly the fields {', '.join(sorted(fields))}.")
    if kind == "take" and not whole(action["position"], 1, FOREST_SIZE):
        raise InvalidAction("The position is a number from 1 (at the decay pile) to 8.")
    if kind in ("cook", "sell"):
        if not whole(action["rank"], 2, 10):
            raise InvalidAction("The rank is a mushroom kind from 2 to 10.")
        if not whole(action["day"], 0, 99) or not whole(action["night"], 0, 1):
            raise InvalidAction("day is a count of day cards, night is 0 or 1.")
    if kind == "cook":
        if action["pan"] not in ("display", "hand") or not isinstance(action["pan"], str):
            raise InvalidAction('The pan is "display" or "hand".')
        if not whole(action["butter"], 0, 99) or not whole(action["cider"], 0, 99):
            raise InvalidAction("butter and cider are counts.")
    if kind == "discard":
        cards = action["cards"]
        if not isinstance(cards, list) or not all(
            isinstance(card, str) and card in HAND_CODES and card != START_PAN for card in cards
        ):
            raise InvalidAction("cards is a list of card codes such as 2H, QD or N5.")
    return cast(PilzwanderungAction, action)


class Take(TypedDict):
    type: Literal["take"]
    position: int


class TakeDecay(TypedDict):
    type: Literal["take_decay"]


PanPlace = Literal["display", "hand"]  # the empty pan in the display, or a pan card in hand


class Cook(TypedDict):
    type: Literal["cook"]
    rank: int
    day: int
    night: int
    pan: PanPlace
    butter: int
    cider: int


class Sell(TypedDict):
    type: Literal["sell"]
    rank: int
    day: int
    night: int


class PlacePan(TypedDict):
    type: Literal["place_pan"]


class Discard(TypedDict):
    type: Literal["discard"]
    cards: list[str]


PilzwanderungAction = Take | TakeDecay | Cook | Sell | PlacePan | Discard


# The view ------------------------------------------------------------------------------


class ForestCard(TypedDict):
    position: int
    card: str
    cost: int


class Pile(TypedDict):
    top: str | None
    size: int
    cards: NotRequired[list[str]]  # revealed only


class PoisonMushroom(TypedDict):
    card: str
    turns: int  # turn-ends of its owner it still lasts (the current one included)


class Dish(TypedDict):
    pan: str
    rank: int
    cards: list[str]
    mushrooms: int
    points: int
    butter: int
    cider: int
    score: int


class CookOffer(TypedDict):
    type: Literal["cook"]
    rank: int
    day: int
    night: int
    butter: int
    cider: int
    score: int


class SellOffer(TypedDict):
    type: Literal["sell"]
    rank: int
    day: int
    night: int
    sticks: int


Offer = CookOffer | SellOffer


class Display(TypedDict):
    hand_count: int  # cards counting towards the hand limit (night cards included)
    hand_limit: int
    night_count: int
    night: NotRequired[list[str]]  # the night cards, under night_cards "open" only
    sticks: int
    pans: list[str]
    dishes: list[Dish]
    baskets: list[str]
    poison: list[PoisonMushroom]
    score: int
    mushrooms_cooked: int


class PilzwanderungDetails(TypedDict):
    dishes: list[list[Dish]]  # by seat, each dish as scored
    mushrooms_cooked: list[int]  # by seat: the tiebreak


class PilzwanderungResult(OutcomeJson, PilzwanderungDetails):
    """A finished game's result: the outcome's fields and each seat's dishes."""


def result_json(outcome: Outcome[PilzwanderungDetails] | None) -> PilzwanderungResult | None:
    return None if outcome is None else {**outcome.details, **outcome.fields()}


class PilzwanderungView(TypedDict):
    seat: int | None
    first: int
    to_move: int | None
    phase: Literal["turn", "discard", "over"]
    must_discard: int
    skipped: list[int]
    counts: Literal["standard", "original"]
    night_cards: Literal["open", "hidden"]
    card_faces: Literal["playing_cards", "mushrooms"]
    hand: list[str] | None
    offers: list[Offer]  # the seat's own, on its turn
    forest: list[ForestCard]
    decay: list[str]
    discard: Pile
    draw_pile: int
    night_deck: int
    displays: list[Display]
    result: PilzwanderungResult | None
    hands: NotRequired[list[list[str]]]  # revealed only
    draw_pile_cards: NotRequired[list[str]]  # revealed only
    night_deck_cards: NotRequired[list[str]]  # revealed only


class PilzwanderungReason(Reason):
    HIGHER_SCORE = "higher_score"
    MORE_MUSHROOMS_COOKED = "more_mushrooms_cooked"
    """The same score, and more mushrooms in the winner's dishes."""
    TIED = "tied"
    """The same score and as many mushrooms cooked: a draw."""


class PilzwanderungGame(Game[PilzwanderungState, PilzwanderungAction, PilzwanderungView]):
    name: ClassVar[str] = "pilzwanderung"
    title: ClassVar[dict[str, str]] = {"de": "Pilzwanderung", "en": "Pilzwanderung"}
    seats: ClassVar[int] = 2
    options: ClassVar[tuple[Option, ...]] = (
        Option(
            "counts",
            "standard",
            ("standard", "original"),
            {"de": "Kartenzahlen", "en": "Card counts"},
            {
                "de": "Der Waldstapel mit 81 Karten, oder mit den Zahlen von Morels (84 Karten).",
                "en": "The forest deck of 81 cards, or with the counts of Morels (84 cards).",
            },
        ),
        Option(
            "night_cards",
            "open",
            ("open", "hidden"),
            {"de": "Nachtkarten", "en": "Night cards"},
            {
                "de": "Offen in der Auslage, oder verdeckt auf der Hand wie in Morels.",
                "en": "Face up in the display, or held hidden in the hand as in Morels.",
            },
        ),
        Option(
            "card_faces",
            "playing_cards",
            ("playing_cards", "mushrooms"),
            {"de": "Kartenbilder", "en": "Card faces"},
            {
                "de": "Spielkarten oder Pilze (nur die Darstellung).",
                "en": "Playing cards or mushrooms (how the cards are drawn only).",
            },
        ),
        Option(
            "first",
            None,
            (None, 0, 1),
            {"de": "Wer beginnt", "en": "Who starts"},
            {
                "de": "Der Platz, der beginnt; sonst entscheidet das Los.",
                "en": "The seat that starts; otherwise drawn by lot.",
            },
        ),
    )
    presets: ClassVar[tuple[Preset, ...]] = (
        Preset("pilzwanderung", {}, {"de": "Pilzwanderung", "en": "Pilzwanderung"}),
        Preset(
            "morels",
            {"counts": "original", "night_cards": "hidden", "card_faces": "mushrooms"},
            {"de": "Morels (Originalregeln)", "en": "Morels (original rules)"},
        ),
    )
    action_type: ClassVar[Any] = PilzwanderungAction
    view_type: ClassVar[Any] = PilzwanderungView
    tables: ClassVar[dict[str, Any]] = {
        "points": {str(kind): points for kind, points in POINTS.items()},
        "sticks": {str(kind): sticks for kind, sticks in STICKS.items()},
        "butter_points": BUTTER_POINTS,
        "cider_points": CIDER_POINTS,
        "night_mushrooms": 2,  # a night card counts twice (dish_breakdown, sell)
        "decay_size": DECAY_SIZE,
        "roles": dict(ROLE),
    }
    state_type = PilzwanderungState

    def new(
        self,
        seed: int,
        options: dict[str, Any] | None = None,
        deck: list[str] | None = None,
        *,
        night: list[str] | None = None,
    ) -> PilzwanderungState:
        """``night``, this game's own: the night deck stacked (top first), for tests."""
        chosen = resolve_options(self.options, options)
        counts = chosen["counts"]
        first = starting_seat(chosen["first"], seed, len(SEATS))
        if deck is None:
            deck = deck_for(counts)
            random.Random(f"{seed}:deck").shuffle(deck)
        else:
            deck = checked_deck(deck, counts)
        if night is None:
            night = night_deck()
            random.Random(f"{seed}:night").shuffle(night)
        elif not isinstance(night, list) or sorted(night) != sorted(night_deck()):
            raise ValueError("a stacked night deck holds exactly N2, N3, ..., N9, each once")
        state = PilzwanderungState(
            seed=seed,
            counts=counts,
            night_cards=chosen["night_cards"],
            card_faces=chosen["card_faces"],
            first=first,
            to_move=first,
            phase="turn",
            forest=deck[:FOREST_SIZE],
            decay=[],
            draw_pile=deck[FOREST_SIZE:],
            night_deck=list(night),
            discard=[],
            hands=[[], []],
            pans=[[START_PAN], [START_PAN]],
            dishes=[[], []],
            baskets=[[], []],
            poison=[[], []],
            poison_turns=[[], []],
            sticks=[0, 0],
            skipped=[],
        )
        deal(state, first)
        advance(state, first)
        return state

    def to_move(self, state: PilzwanderungState) -> int | None:
        return None if state.phase == "over" else state.to_move

    def legal_actions(self, state: PilzwanderungState, seat: int) -> list[PilzwanderungAction]:
        if state.phase == "over" or seat != state.to_move:
            return []
        hand = state.hands[seat]
        if state.phase == "discard":
            excess = len(hand) - hand_limit(state, seat)
            choices = discard_choices(hand, excess)
            return [{"type": "discard", "cards": list(cards)} for cards in choices]
        limit = hand_limit(state, seat)
        forest = state.forest
        reach = min(len(forest), state.sticks[seat] + FREE_POSITIONS)
        actions: list[PilzwanderungAction]
        if len(hand) < limit:
            actions = [{"type": "take", "position": position} for position in range(1, reach + 1)]
        else:
            actions = [
                {"type": "take", "position": index + 1}
                for index in range(reach)
                if not takes_room(state, forest[index])
            ]
        if state.decay:
            cards, extra = decay_room(state)
            if len(hand) + cards <= limit + extra:
                actions.append({"type": "take_decay"})
        counts = tally(hand)
        pans: list[PanPlace] = ["display"] if state.pans[seat] else []
        pans += ["hand"] if counts[PAN_SLOT] else []
        butters, ciders = counts[BUTTER_SLOT], counts[CIDER_SLOT]
        for kind in KINDS:
            days = counts[kind]
            nights = counts[NIGHT_SLOT + kind]
            if days + nights == 0 or days + 2 * nights < 2:
                continue
            for night in range(nights + 1):
                for day in range(days + 1):
                    mushrooms = day + 2 * night
                    if mushrooms < 2:
                        continue
                    actions.append({"type": "sell", "rank": kind, "day": day, "night": night})
                    if mushrooms < 3:
                        continue
                    for butter in range(min(butters, mushrooms // BUTTER_PER) + 1):
                        left = mushrooms - BUTTER_PER * butter
                        for cider in range(min(ciders, left // CIDER_PER) + 1):
                            for pan in pans:
                                actions.append(
                                    {
                                        "type": "cook",
                                        "rank": kind,
                                        "day": day,
                                        "night": night,
                                        "pan": pan,
                                        "butter": butter,
                                        "cider": cider,
                                    }
                                )
        if counts[PAN_SLOT]:
            actions.append({"type": "place_pan"})
        return actions

    def apply(
        self, state: PilzwanderungState, seat: int, action: PilzwanderungAction
    ) -> PilzwanderungState:
        checked_action(action)
        if state.phase == "over":
            raise IllegalAction("The game is over.", "game_over")
        if seat != state.to_move:
            raise IllegalAction("It is not your turn.", "not_your_turn")
        if state.phase == "discard":
            if action["type"] != "discard":
                excess = len(state.hands[seat]) - hand_limit(state, seat)
                raise IllegalAction(f"First discard {excess} cards for the poison mushroom.")
            return discard(state, seat, action["cards"])
        if action["type"] == "take":
            return take(state, seat, action["position"])
        if action["type"] == "take_decay":
            return take_decay(state, seat)
        if action["type"] == "cook":
            return cook(state, seat, action)
        if action["type"] == "sell":
            return sell(state, seat, action["rank"], action["day"], action["night"])
        if action["type"] == "place_pan":
            return place_pan(state, seat)
        raise IllegalAction("Discard only after taking a poison mushroom, when asked to.")

    def table_view(self, state: PilzwanderungState) -> PilzwanderungView:
        """A spectator's view: no seat, no hand, no offers (``seat_view`` sets a seat's)."""
        over = state.phase == "over"
        must = len(state.hands[state.to_move]) - hand_limit(state, state.to_move)
        return {
            "seat": None,
            "first": state.first,
            "to_move": None if over else state.to_move,
            "phase": state.phase,
            "must_discard": must if state.phase == "discard" else 0,
            "skipped": list(state.skipped),
            "counts": state.counts,
            "night_cards": state.night_cards,
            "card_faces": state.card_faces,
            "forest": [
                {"position": index, "card": card, "cost": cost(index)}
                for index, card in enumerate(state.forest, start=1)
            ],
            "decay": list(state.decay),
            "discard": {
                "top": state.discard[-1] if state.discard else None,
                "size": len(state.discard),
            },
            "draw_pile": len(state.draw_pile),
            "night_deck": len(state.night_deck),
            "displays": [display(state, side) for side in SEATS],
            "result": result_json(self.result(state)),
            "hand": None,
            "offers": [],
        }

    def seat_view(
        self, table: PilzwanderungView, state: PilzwanderungState, seat: int | None
    ) -> PilzwanderungView:
        """The table's view with the seat and its own hand (without its night cards when
        those lie open in the display), and what its legal cooks and sales would give."""
        hand: list[str] | None = None
        if seat is not None:
            own = state.hands[seat]
            open_nights = state.night_cards == "open"
            shown = [card for card in own if ROLE[card] != NIGHT] if open_nights else own
            hand = sorted(shown, key=hand_sort_key)
        legal = [] if seat is None else self.legal_actions(state, seat)
        return {**table, "seat": seat, "hand": hand, "offers": offers(legal)}

    def revealed(self, view: PilzwanderungView, state: PilzwanderungState) -> PilzwanderungView:
        view["hands"] = [sorted(cards, key=hand_sort_key) for cards in state.hands]
        view["draw_pile_cards"] = list(state.draw_pile)
        view["night_deck_cards"] = list(state.night_deck)
        view["discard"]["cards"] = list(state.discard)
        return view

    def result(self, state: PilzwanderungState) -> Outcome[PilzwanderungDetails] | None:
        if state.phase != "over":
            return None
        dishes = [[dish_breakdown(dish) for dish in split_dishes(state, seat)] for seat in SEATS]
        scores = tuple(sum(dish["score"] for dish in side) for side in dishes)
        cooked = [sum(dish["mushrooms"] for dish in side) for side in dishes]
        details: PilzwanderungDetails = {"dishes": dishes, "mushrooms_cooked": cooked}
        if scores[0] != scores[1]:
            winner = scores.index(max(scores))
            return Outcome(scores, winner, PilzwanderungReason.HIGHER_SCORE, details)
        if cooked[0] != cooked[1]:
            winner = cooked.index(max(cooked))
            return Outcome(scores, winner, PilzwanderungReason.MORE_MUSHROOMS_COOKED, details)
        return Outcome(scores, None, PilzwanderungReason.TIED, details)

    def redeal_hidden(
        self, state: PilzwanderungState, viewer: int | None, rng: random.Random
    ) -> PilzwanderungState:
        """Hidden from a viewer: the other hands' day cards (dealt again with the draw pile,
        only cards that can be in a hand going to a hand), the draw pile's order, the night
        deck's order and, under "hidden", the other hands' night cards (dealt again with the
        night deck; how many each holds is seen), and the seed."""
        other = state.clone()
        other.seed = rng.randrange(2**63)
        hidden = [seat for seat in SEATS if seat != viewer]
        open_nights = state.night_cards == "open"
        pool = list(other.draw_pile)
        night_pool = list(other.night_deck)
        days_held = {}
        nights_held = {}
        for seat in hidden:
            days = [card for card in other.hands[seat] if ROLE[card] != NIGHT]
            nights = [card for card in other.hands[seat] if ROLE[card] == NIGHT]
            pool += days
            days_held[seat] = len(days)
            if open_nights:
                nights_held[seat] = nights
            else:
                night_pool += nights
                nights_held[seat] = [""] * len(nights)
        rng.shuffle(pool)
        rng.shuffle(night_pool)
        for seat in hidden:
            dealt: list[str] = []
            rest: list[str] = []
            for card in pool:
                if len(dealt) < days_held[seat] and card in HANDABLE_DAY:
                    dealt.append(card)
                else:
                    rest.append(card)
            pool = rest
            nights = nights_held[seat]
            if not open_nights:
                nights, night_pool = night_pool[: len(nights)], night_pool[len(nights) :]
            other.hands[seat] = dealt + nights
        other.draw_pile = pool
        other.night_deck = night_pool
        return other

    def unseen(self, state: PilzwanderungState, viewer: int | None) -> list[Unseen]:
        """The other hands (their day cards; under "hidden" their night cards too), the
        draw pile and the night deck: ``redeal_hidden``'s places."""
        open_nights = state.night_cards == "open"
        places = []
        for seat in SEATS:
            if seat == viewer:
                continue
            hand = state.hands[seat]
            days = [card for card in hand if ROLE[card] != NIGHT] if open_nights else hand
            places.append(Unseen("hand", days, seat))
        places.append(Unseen("draw_pile", state.draw_pile))
        places.append(Unseen("night_deck", state.night_deck))
        return places

    def reveals(self, state: PilzwanderungState, action: PilzwanderungAction) -> bool:
        """Every turn ends by refilling the forest from the draw pile, so any action that ends
        a turn reveals while the draw pile holds cards (a cook, a sale and a placed pan too);
        a moon brings a night card from the night deck; the end of the game shows every
        hand. What reveals nothing: an action once the draw pile is empty, and a poison
        mushroom taken that asks for a discard first (the discard ends the turn). A cooked
        or sold card shows its suit, which tells nothing: suits never matter here."""
        after = self.apply(state, state.to_move, action)
        return (
            after.phase == "over"
            or len(after.draw_pile) < len(state.draw_pile)
            or len(after.night_deck) < len(state.night_deck)
        )

    def took(self, state: PilzwanderungState, action: PilzwanderungAction) -> list[str]:
        if action["type"] == "take":
            return [state.forest[action["position"] - 1]]
        return list(state.decay) if action["type"] == "take_decay" else []

    def notation(self, action: PilzwanderungAction) -> str:
        """``take 5``, ``decay``, ``cook 9 day2 night1 pan:display butter1 cider0``,
        ``sell 8 day3 night0``, ``pan``, ``discard 2H QD N5``."""
        checked_action(action)
        if action["type"] == "take":
            return f"take {action['position']}"
        if action["type"] == "take_decay":
            return "decay"
        if action["type"] == "place_pan":
            return "pan"
        if action["type"] == "discard":
            return " ".join(["discard", *action["cards"]])
        text = f"{action['type']} {action['rank']} day{action['day']} night{action['night']}"
        if action["type"] == "cook":
            text += f" pan:{action['pan']} butter{action['butter']} cider{action['cider']}"
        return text

    def parse_notation(self, text: str) -> PilzwanderungAction:
        words = notation_words(text)
        action = notation_action(words)
        if action is None:
            raise InvalidAction(
                f"Not a Pilzwanderung move: {text!r} (try 'take 5', 'decay', "
                "'cook 9 day2 night1 pan:display butter1 cider0', 'sell 8 day3 night0', "
                "'pan' or 'discard 2H QD N5')."
            )
        return checked_action(action)


def counted(word: str, prefix: str) -> int | None:
    digits = word[len(prefix) :]
    if word.startswith(prefix) and digits.isdigit() and len(digits) <= 2:
        return int(digits)
    return None


def notation_action(words: list[str]) -> dict[str, Any] | None:
    """The action a notation's words name, if they name one; not yet checked."""
    if not words:
        return None
    head, rest = words[0], words[1:]
    if head == "take" and len(rest) == 1 and rest[0].isdigit() and len(rest[0]) == 1:
        return {"type": "take", "position": int(rest[0])}
    if (head, rest) == ("decay", []):
        return {"type": "take_decay"}
    if (head, rest) == ("pan", []):
        return {"type": "place_pan"}
    if head == "discard" and rest:
        return {"type": "discard", "cards": rest}
    if head in ("cook", "sell") and len(rest) == (6 if head == "cook" else 3):
        if not (rest[0].isdigit() and len(rest[0]) <= 2):
            return None
        day, night = counted(rest[1], "day"), counted(rest[2], "night")
        if day is None or night is None:
            return None
        if head == "sell":
            return {"type": "sell", "rank": int(rest[0]), "day": day, "night": night}
        pan = rest[3].removeprefix("pan:")
        butter, cider = counted(rest[4], "butter"), counted(rest[5], "cider")
        if not rest[3].startswith("pan:") or butter is None or cider is None:
            return None
        return {
            "type": "cook",
            "rank": int(rest[0]),
            "day": day,
            "night": night,
            "pan": pan,
            "butter": butter,
            "cider": cider,
        }
    return None


def checked_deck(deck: list[str], counts: str) -> list[str]:
    """A stacked forest deck holds the right number of cards of each role (suits free)."""
    cards = list(deck) if isinstance(deck, list) else []
    wanted = Counter(role_key(card) for card in deck_for(counts))
    if not all(isinstance(card, str) and card in DAY_CODES for card in cards) or (
        Counter(role_key(card) for card in cards) != wanted
    ):
        size = len(deck_for(counts))
        raise ValueError(
            f"a stacked forest deck ({counts} counts) must hold the {size} cards of each role: "
            "mushrooms per kind, butter (QH QD), cider (KH KD), baskets (QS QC), "
            "poison (KS KC), moons (aces), pans (jacks, JK)"
        )
    return cards


def deal(state: PilzwanderungState, first: int) -> None:
    """Three cards each from the draw pile, alternately from ``first``: a basket to the
    display, a moon to the discard pile for a night card, a poison to the discard pile."""
    for turn in range(2 * DEAL):
        seat = (first + turn) % 2
        card = state.draw_pile.pop(0)
        role = ROLE[card]
        if role == POISON:
            state.discard.append(card)
        else:
            gain(state, seat, card)


def display(state: PilzwanderungState, seat: int) -> Display:
    dishes = [dish_breakdown(dish) for dish in split_dishes(state, seat)]
    hand = state.hands[seat]
    nights = [card for card in hand if ROLE[card] == NIGHT]
    shown: Display = {
        "hand_count": len(hand),
        "hand_limit": hand_limit(state, seat),
        "night_count": len(nights),
        "sticks": state.sticks[seat],
        "pans": list(state.pans[seat]),
        "dishes": dishes,
        "baskets": list(state.baskets[seat]),
        "poison": [
            {"card": card, "turns": turns}
            for card, turns in zip(state.poison[seat], state.poison_turns[seat], strict=True)
        ],
        "score": sum(dish["score"] for dish in dishes),
        "mushrooms_cooked": sum(dish["mushrooms"] for dish in dishes),
    }
    if state.night_cards == "open":
        shown["night"] = sorted(nights, key=hand_sort_key)
    return shown


def take(state: PilzwanderungState, seat: int, position: int) -> PilzwanderungState:
    refusal = take_refusal(state, seat, position)
    if refusal is not None:
        raise IllegalAction(refusal)
    new = state.clone()
    new.skipped = []
    new.sticks[seat] -= cost(position)
    gain(new, seat, new.forest.pop(position - 1))
    after_take(new, seat)
    return new


def take_decay(state: PilzwanderungState, seat: int) -> PilzwanderungState:
    refusal = decay_refusal(state, seat)
    if refusal is not None:
        raise IllegalAction(refusal)
    new = state.clone()
    new.skipped = []
    cards, new.decay = new.decay, []
    for card in cards:
        if ROLE[card] == BASKET:
            gain(new, seat, card)
    for card in cards:
        if ROLE[card] != BASKET:
            gain(new, seat, card)
    after_take(new, seat)
    return new


def cook(state: PilzwanderungState, seat: int, action: Cook) -> PilzwanderungState:
    kind, day, night = action["rank"], action["day"], action["night"]
    pan, butter, cider = action["pan"], action["butter"], action["cider"]
    refusal = cook_refusal(state, seat, kind, day, night, pan, butter, cider)
    if refusal is not None:
        raise IllegalAction(refusal)
    new = state.clone()
    new.skipped = []
    hand = new.hands[seat]
    dish: list[str] = []
    if pan == "display":
        dish.append(new.pans[seat].pop(0))
    else:
        remove_first(hand, PAN_SLOT, 1, dish)
    remove_first(hand, kind, day, dish)
    remove_first(hand, NIGHT_SLOT + kind, night, dish)
    remove_first(hand, BUTTER_SLOT, butter, dish)
    remove_first(hand, CIDER_SLOT, cider, dish)
    new.dishes[seat] += dish
    end_turn(new, seat)
    return new


def sell(
    state: PilzwanderungState, seat: int, kind: int, day: int, night: int
) -> PilzwanderungState:
    refusal = sell_refusal(state, seat, kind, day, night)
    if refusal is not None:
        raise IllegalAction(refusal)
    new = state.clone()
    new.skipped = []
    hand = new.hands[seat]
    remove_first(hand, kind, day, new.discard)
    remove_first(hand, NIGHT_SLOT + kind, night, new.discard)
    new.sticks[seat] += sale_sticks(kind, day, night)
    end_turn(new, seat)
    return new


def place_pan(state: PilzwanderungState, seat: int) -> PilzwanderungState:
    if PAN_SLOT not in (SLOT[card] for card in state.hands[seat]):
        raise IllegalAction("You hold no pan card.")
    new = state.clone()
    new.skipped = []
    remove_first(new.hands[seat], PAN_SLOT, 1, new.pans[seat])
    end_turn(new, seat)
    return new


def discard(state: PilzwanderungState, seat: int, cards: list[str]) -> PilzwanderungState:
    hand = state.hands[seat]
    excess = len(hand) - hand_limit(state, seat)
    if len(cards) != excess:
        raise IllegalAction(f"Discard exactly {excess} cards, down to your hand limit.")
    missing = Counter(cards) - Counter(hand)
    if missing:
        raise IllegalAction(f"You do not hold {', '.join(sorted(missing.elements()))}.")
    new = state.clone()
    new.skipped = []
    for card in cards:
        new.hands[seat].remove(card)
    new.discard += cards
    new.phase = "turn"
    end_turn(new, seat)
    return new


GAME = register(PilzwanderungGame())
