"""Scoundrel (Zach Gage and Kurt Bieg, 2011): a solo dungeon crawl through 44 cards.

Rules: ``templates/rules/scoundrel.html`` (served at ``/rules/scoundrel``). Decisions
where the rules leave a case open:

- ``weapon`` is a required bool on every take. It is read only for monsters; a weapon or a
  potion is listed (and accepted) with ``weapon: false`` only, and ``weapon: true`` on one
  of them is refused as illegal.
- The potion bonus of a win counts whenever health is exactly 20 and the very last card
  taken was a potion, whether or not that potion healed.
- The dungeon is face down: a view shows its size only (``reveal=True``, for replays of
  finished games, adds its order). The discard pile lies face down as in the seed: a view
  shows how many cards it holds, and its cards only under ``open_discard`` (or revealed).
  After a loss the result names the monsters still in the dungeon, for the score.
- Room order is reveal order: the card left over from the previous room comes first.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal, NotRequired

from typing_extensions import TypedDict  # pydantic reads these on Python 3.11 too

from engine.base import (
    BestLineSearch,
    Game,
    GameState,
    HintSearch,
    IllegalAction,
    InvalidAction,
    Option,
    Outcome,
    OutcomeJson,
    Preset,
    Reason,
    SlipSearch,
    Takeback,
    Unseen,
    notation_words,
    resolve_options,
)
from engine.cards import RANKS, suit, value
from engine.registry import register

MAX_HEALTH = 20
ROOM_SIZE = 4
TAKES_PER_ROOM = 3

MONSTERS = [r + s for s in ("C", "S") for r in RANKS]
WEAPONS = [r + "D" for r in RANKS[:9]]
POTIONS = [r + "H" for r in RANKS[:9]]
DECK = MONSTERS + WEAPONS + POTIONS
CARDS = frozenset(DECK)


def is_monster(card: str) -> bool:
    return suit(card) in ("C", "S")


def is_weapon(card: str) -> bool:
    return suit(card) == "D"


def is_potion(card: str) -> bool:
    return suit(card) == "H"


@dataclass
class ScoundrelState(GameState):
    """The whole table. ``dungeon[0]`` is the top; ``room`` is in the order it was revealed."""

    dungeon: list[str]
    room: list[str] = field(default_factory=list)
    weapon: str | None = None
    stack: list[str] = field(default_factory=list)
    discard: list[str] = field(default_factory=list)
    health: int = MAX_HEALTH
    strict_weapons: bool = False
    open_discard: bool = False
    avoided_last_room: bool = False
    last_room: bool = False
    taken: int = 0
    potion_used: bool = False
    last_card: str | None = None
    phase: Literal["room", "over"] = "room"


class Avoid(TypedDict):
    type: Literal["avoid"]


class Take(TypedDict):
    type: Literal["take"]
    card: str
    weapon: bool


class TakeEffect(TypedDict):
    card: str
    weapon: bool
    health: int  # the change of health this take makes (0 for a weapon or a wasted potion)


ScoundrelAction = Avoid | Take


class ScoundrelDetails(TypedDict):
    health: int
    potion_bonus: int  # a full health's last potion, added to the score
    monsters_left: list[str]  # slain: the monsters still in the room and the dungeon
    last_card: str | None


class ScoundrelResult(OutcomeJson, ScoundrelDetails):
    """A finished game's result: the outcome's fields and Scoundrel's details."""


def result_json(outcome: Outcome[ScoundrelDetails] | None) -> ScoundrelResult | None:
    return None if outcome is None else {**outcome.details, **outcome.fields()}


class ScoundrelView(TypedDict):
    phase: Literal["room", "over"]
    health: int
    max_health: int
    room: list[str]
    weapon: str | None
    stack: list[str]
    weapon_limit: int | None
    dungeon_size: int
    discard: NotRequired[list[str]]  # only under open_discard (or revealed)
    discard_count: int
    can_avoid: bool
    avoided_last_room: bool
    last_room: bool
    taken_this_room: int
    potion_used: bool
    strict_weapons: bool
    open_discard: bool
    takes: list[TakeEffect]
    result: ScoundrelResult | None
    dungeon: NotRequired[list[str]]  # revealed only


class ScoundrelReason(Reason):
    SURVIVED = "survived"
    """The last room emptied with health left."""
    SLAIN = "slain"
    """Health fell to 0 or below."""


class ScoundrelGame(Game[ScoundrelState, ScoundrelAction, ScoundrelView]):
    name: ClassVar[str] = "scoundrel"
    title: ClassVar[dict[str, str]] = {"de": "Scoundrel", "en": "Scoundrel"}
    seats: ClassVar[int] = 1
    options: ClassVar[tuple[Option, ...]] = (
        Option(
            "strict_weapons",
            False,
            (False, True),
            label={"de": "Strenge Waffen", "en": "Strict weapons"},
            help={
                "de": "Eine benutzte Waffe wirkt nur gegen Monster, die echt kleiner sind "
                "als das letzte auf ihr.",
                "en": "A used weapon only works on monsters strictly lower than the last "
                "one it slew.",
            },
        ),
        Option(
            "open_discard",
            False,
            (False, True),
            label={"de": "Offener Ablagestapel", "en": "Open discard pile"},
            help={
                "de": "Der Ablagestapel liegt offen: Du siehst, was schon weg ist, statt "
                "es dir zu merken.",
                "en": "The discard pile lies face up: see what has gone instead of remembering it.",
            },
        ),
    )
    action_type: ClassVar[Any] = ScoundrelAction
    view_type: ClassVar[Any] = ScoundrelView
    tables: ClassVar[dict[str, Any]] = {
        "values": {card: value(card) for card in DECK},
        "kinds": {"C": "monster", "S": "monster", "D": "weapon", "H": "potion"},
        "takes_per_room": TAKES_PER_ROOM,
    }
    state_type = ScoundrelState
    takeback: ClassVar[Takeback] = Takeback.FREE  # a solo game: nobody else to ask
    presets: ClassVar[tuple[Preset, ...]] = (
        Preset(
            "strict",
            {"strict_weapons": True},
            label={"de": "Strenge Waffen", "en": "Strict weapons"},
        ),
    )

    def new(
        self,
        seed: int,
        options: dict[str, Any] | None = None,
        deck: list[str] | None = None,
    ) -> ScoundrelState:
        resolved = resolve_options(self.options, options)
        if deck is None:
            dungeon = list(DECK)
            random.Random(seed).shuffle(dungeon)
        else:
            dungeon = checked_deck(deck)
        state = ScoundrelState(
            dungeon=dungeon,
            strict_weapons=resolved["strict_weapons"],
            open_discard=resolved["open_discard"],
        )
        deal_room(state)
        return state

    def to_move(self, state: ScoundrelState) -> int | None:
        return None if state.phase == "over" else 0

    def legal_actions(self, state: ScoundrelState, seat: int) -> list[ScoundrelAction]:
        if seat != self.to_move(state):
            return []
        actions: list[ScoundrelAction] = [{"type": "avoid"}] if may_avoid(state) else []
        for card in state.room:
            actions.append({"type": "take", "card": card, "weapon": False})
            if is_monster(card) and weapon_usable(state, card):
                actions.append({"type": "take", "card": card, "weapon": True})
        return actions

    def apply(self, state: ScoundrelState, seat: int, action: ScoundrelAction) -> ScoundrelState:
        checked_shape(action)
        if self.is_over(state):
            raise IllegalAction("The game is over.", "game_over")
        if seat != 0:
            raise IllegalAction("Scoundrel has only seat 0.", "not_your_turn")
        if action["type"] == "avoid":
            return avoid(state)
        return take(state, action["card"], action["weapon"])

    def table_view(self, state: ScoundrelState) -> ScoundrelView:
        """The one view: the player's and a spectator's are the same."""
        shown: ScoundrelView = {
            "phase": state.phase,
            "health": state.health,
            "max_health": MAX_HEALTH,
            "room": list(state.room),
            "weapon": state.weapon,
            "stack": list(state.stack),
            "weapon_limit": weapon_limit(state),
            "dungeon_size": len(state.dungeon),
            "discard_count": len(state.discard),
            "can_avoid": may_avoid(state),
            "avoided_last_room": state.avoided_last_room,
            "last_room": state.last_room,
            "taken_this_room": state.taken,
            "potion_used": state.potion_used,
            "strict_weapons": state.strict_weapons,
            "open_discard": state.open_discard,
            "takes": [
                {"card": a["card"], "weapon": a["weapon"], "health": health_change(state, a)}
                for a in self.legal_actions(state, 0)
                if a["type"] == "take"
            ],
            "result": result_json(self.result(state)),
        }
        if state.open_discard:
            shown["discard"] = list(state.discard)
        return shown

    def revealed(self, view: ScoundrelView, state: ScoundrelState) -> ScoundrelView:
        view["discard"] = list(state.discard)
        view["dungeon"] = list(state.dungeon)
        return view

    def result(self, state: ScoundrelState) -> Outcome[ScoundrelDetails] | None:
        if not self.is_over(state):
            return None
        if state.health > 0:
            bonus = potion_bonus(state)
            return Outcome(
                scores=(state.health + bonus,),
                winner=0,
                reason=ScoundrelReason.SURVIVED,
                details={
                    "health": state.health,
                    "potion_bonus": bonus,
                    "monsters_left": [],
                    "last_card": state.last_card,
                },
            )
        left = [card for card in state.room + state.dungeon if is_monster(card)]
        return Outcome(
            scores=(state.health - sum(value(card) for card in left),),
            winner=None,
            reason=ScoundrelReason.SLAIN,
            details={
                "health": state.health,
                "potion_bonus": 0,
                "monsters_left": left,
                "last_card": state.last_card,
            },
        )

    def redeal_hidden(
        self, state: ScoundrelState, viewer: int | None, rng: random.Random
    ) -> ScoundrelState:
        """Hidden from everyone: the dungeon's order, and the discard pile's cards unless open."""
        if self.is_over(state):
            return state.clone()
        other = state.clone()
        if state.open_discard:
            rng.shuffle(other.dungeon)
            return other
        pool = other.dungeon + other.discard
        rng.shuffle(pool)
        other.dungeon, other.discard = pool[: len(state.dungeon)], pool[len(state.dungeon) :]
        return other

    def unseen(self, state: ScoundrelState, viewer: int | None) -> list[Unseen]:
        """The dungeon (its cards and their order) and, unless open, the discard pile:
        ``redeal_hidden``'s places; nothing once the game is over."""
        if self.is_over(state):
            return []
        places = [Unseen("dungeon", state.dungeon)]
        if not state.open_discard:
            places.append(Unseen("discard", state.discard))
        return places

    def reveals(self, state: ScoundrelState, action: ScoundrelAction) -> bool:
        """Avoiding turns up a new room from the dungeon (never empty then: the last room
        cannot be avoided); a take that ends a room deals the next one, and one that ends
        the game shows the dungeon and the face-down discard pile. Any other take shows
        nothing new: the room lies open."""
        if action["type"] == "avoid":
            return True
        after = take(state, action["card"], action["weapon"])
        return self.is_over(after) or len(after.dungeon) < len(state.dungeon)

    def notation(self, action: ScoundrelAction) -> str:
        checked_shape(action)
        if action["type"] == "avoid":
            return "avoid"
        card = action["card"]
        if is_monster(card):
            return f"take {card} {'weapon' if action['weapon'] else 'bare'}"
        return f"take {card} weapon" if action["weapon"] else f"take {card}"

    def parse_notation(self, text: str) -> ScoundrelAction:
        words = notation_words(text)
        if words == ["avoid"]:
            return {"type": "avoid"}
        if len(words) in (2, 3) and words[0] == "take" and words[1] in CARDS:
            how = words[2] if len(words) == 3 else "bare"
            if how in ("weapon", "bare"):
                return {"type": "take", "card": words[1], "weapon": how == "weapon"}
        raise InvalidAction(f"Not a Scoundrel move: {text!r} (try 'avoid' or 'take 7C weapon').")

    # The solver is built on these rules: it imports this module, so it is imported here.

    def hint_search(self) -> HintSearch[ScoundrelView, ScoundrelAction]:
        from engine.scoundrel_solver import hint

        return hint

    def best_line_search(self) -> BestLineSearch[ScoundrelState, ScoundrelAction]:
        from engine.scoundrel_solver import best_line

        return best_line

    def slip_search(self) -> SlipSearch[ScoundrelState, ScoundrelAction]:
        from engine.scoundrel_solver import first_slip

        return first_slip


def checked_deck(deck: list[str]) -> list[str]:
    """A stacked dungeon must be exactly the 44 Scoundrel cards, top first."""
    cards = list(deck)
    if not all(isinstance(card, str) for card in cards) or sorted(cards) != sorted(DECK):
        raise ValueError(
            "a Scoundrel deck is exactly the 44 cards: clubs and spades 2..A, "
            "diamonds and hearts 2..10, each once"
        )
    return cards


def checked_shape(action: object) -> None:
    """Refuse anything that is not one of the two action shapes of the rules."""
    if not isinstance(action, dict):
        raise InvalidAction("An action is a JSON object with a 'type'.")
    kind = action.get("type")
    if kind == "avoid":
        if set(action) != {"type"}:
            raise InvalidAction("'avoid' takes no other fields.")
        return
    if kind != "take":
        raise InvalidAction("The action type must be 'avoid' or 'take'.")
    if set(action) != {"type", "card", "weapon"}:
        raise InvalidAction("'take' has exactly the fields 'card' and 'weapon'.")
    if not isinstance(action["card"], str) or action["card"] not in CARDS:
        raise InvalidAction("'card' must be a Scoundrel card code such as '7C'.")
    if not isinstance(action["weapon"], bool):
        raise InvalidAction("'weapon' must be true or false.")


def may_avoid(state: ScoundrelState) -> bool:
    return (
        state.phase == "room"
        and state.taken == 0
        and not state.avoided_last_room
        and not state.last_room
    )


def weapon_limit(state: ScoundrelState) -> int | None:
    """The highest monster value the equipped weapon may still be used on; None if any or none."""
    if state.weapon is None or not state.stack:
        return None
    last = value(state.stack[-1])
    return last - 1 if state.strict_weapons else last


def weapon_usable(state: ScoundrelState, monster: str) -> bool:
    if state.weapon is None:
        return False
    limit = weapon_limit(state)
    return limit is None or value(monster) <= limit


def potion_bonus(state: ScoundrelState) -> int:
    last = state.last_card
    if state.health == MAX_HEALTH and last is not None and is_potion(last):
        return value(last)
    return 0


def deal_room(state: ScoundrelState) -> None:
    """Reveal cards until the room holds four; if the dungeon cannot, reveal all: the last room."""
    need = ROOM_SIZE - len(state.room)
    state.last_room = len(state.dungeon) < need
    state.room += state.dungeon[:need]
    del state.dungeon[:need]
    state.taken = 0
    state.potion_used = False


def avoid(state: ScoundrelState) -> ScoundrelState:
    if not may_avoid(state):
        raise IllegalAction(avoid_refusal(state))
    after = state.clone()
    after.dungeon += after.room
    after.room = []
    after.avoided_last_room = True
    deal_room(after)
    return after


def avoid_refusal(state: ScoundrelState) -> str:
    if state.last_room:
        return "The last room cannot be avoided."
    if state.taken:
        return "You already entered this room; you can only avoid it before taking a card."
    return "You avoided the previous room; you cannot avoid two rooms in a row."


def take(state: ScoundrelState, card: str, with_weapon: bool) -> ScoundrelState:
    if card not in state.room:
        raise IllegalAction(f"{card} is not in this room.")
    if with_weapon and not is_monster(card):
        raise IllegalAction("Only a monster can be fought with the weapon.")
    if with_weapon and not weapon_usable(state, card):
        raise IllegalAction(weapon_refusal(state, card))
    after = state.clone()
    after.room.remove(card)
    after.taken += 1
    after.last_card = card
    if is_weapon(card):
        equip(after, card)
    elif is_potion(card):
        drink(after, card)
    else:
        fight(after, card, with_weapon)
    end_of_take(after)
    return after


def weapon_refusal(state: ScoundrelState, monster: str) -> str:
    if state.weapon is None:
        return "You have no weapon equipped."
    last = state.stack[-1]
    bound = "lower than" if state.strict_weapons else "at most"
    return f"Your weapon may only be used on monsters {bound} {last}, not on {monster}."


def equip(state: ScoundrelState, card: str) -> None:
    if state.weapon is not None:
        state.discard += [state.weapon, *state.stack]
    state.weapon = card
    state.stack = []


def health_change(state: ScoundrelState, take: Take) -> int:
    """What a legal take does to health: a potion heals up to the maximum (the first of a
    room only), a monster hurts by its value less the weapon's, a weapon changes nothing."""
    card = take["card"]
    if is_weapon(card) or (is_potion(card) and state.potion_used):
        return 0
    if is_potion(card):
        return min(value(card), MAX_HEALTH - state.health)
    if take["weapon"] and state.weapon is not None:
        return -max(0, value(card) - value(state.weapon))
    return -value(card)


def drink(state: ScoundrelState, card: str) -> None:
    state.health += health_change(state, {"type": "take", "card": card, "weapon": False})
    state.potion_used = True
    state.discard.append(card)


def fight(state: ScoundrelState, monster: str, with_weapon: bool) -> None:
    state.health += health_change(state, {"type": "take", "card": monster, "weapon": with_weapon})
    if with_weapon and state.weapon is not None:
        state.stack.append(monster)
    else:
        state.discard.append(monster)


def end_of_take(state: ScoundrelState) -> None:
    """Death ends the game at once; an emptied last room wins; three takes end a room."""
    if state.health <= 0 or (state.last_room and not state.room):
        state.phase = "over"
    elif not state.last_room and state.taken == TAKES_PER_ROOM:
        state.avoided_last_room = False
        deal_room(state)


GAME = register(ScoundrelGame())
