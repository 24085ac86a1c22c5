"""The turn vocabulary every game shares, and the errors it raises.

A game is an object with static facts (``name``, ``seats``, ``options``, ``presets``)
and pure functions over its state. States are dataclasses of plain data; ``apply``
never mutates its input and never draws fresh randomness (only ``new`` shuffles).
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from types import UnionType
from typing import (
    Any,
    ClassVar,
    Literal,
    Protocol,
    Self,
    TypeVar,
    Union,
    get_args,
    get_origin,
    get_type_hints,
)

Action = dict[str, Any]
View = dict[str, Any]


class IllegalAction(Exception):
    """An action that cannot be applied now. ``code`` is stable; the message is for players.

    Codes: ``malformed`` (not an action of this game), ``not_your_turn``, ``game_over``,
    ``illegal`` (well-formed, but the rules forbid it here).
    """

    def __init__(self, message: str, code: str = "illegal") -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class InvalidAction(IllegalAction):
    """A malformed action: wrong shape, unknown type, a field of the wrong kind."""

    def __init__(self, message: str) -> None:
        super().__init__(message, code="malformed")


@dataclass(frozen=True)
class Option:
    """One room option: its default, the values it accepts and its label in the UI."""

    name: str
    default: Any
    choices: tuple[Any, ...]
    label: dict[str, str]
    help: dict[str, str] = field(default_factory=dict)

    def describe(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "default": self.default,
            "choices": list(self.choices),
            "label": self.label,
            "help": self.help,
        }


@dataclass(frozen=True)
class Preset:
    """A named set of option values (for example "Morels (original rules)")."""

    name: str
    options: dict[str, Any]
    label: dict[str, str]


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended (after python-chess's ``Outcome``).

    ``winner`` is a seat, or None: a draw when several seats play, a lost game when one does.
    ``reason`` names the ending in the game's own words (``"survived"``, ``"slain"``,
    ``"higher_total"``, ...). ``details`` is the game's breakdown for the end screen: plain
    JSON data whose keys are the game's own.
    """

    scores: tuple[int, ...]
    winner: int | None
    reason: str
    details: dict[str, Any] = field(default_factory=dict)

    @property
    def kind(self) -> Literal["win", "loss", "draw"]:
        if self.winner is not None:
            return "win"
        return "loss" if len(self.scores) == 1 else "draw"

    def to_json(self) -> dict[str, Any]:
        """One flat object: the typed fields, then the game's details beside them."""
        return {
            **self.details,
            "scores": list(self.scores),
            "winner": self.winner,
            "reason": self.reason,
            "outcome": self.kind,
        }


def outcome_json(outcome: Outcome | None) -> dict[str, Any] | None:
    return None if outcome is None else outcome.to_json()


S = TypeVar("S", bound="GameState")


def copy_expression(hint: Any, value: str, depth: int = 0) -> str:
    """Python code that copies ``value`` of this type so that it shares no list or dict.

    Strings, numbers and ``Any`` are shared: a field typed ``Any`` (or holding ``Any``) must
    never be changed in place, only replaced.
    """
    origin, args = get_origin(hint), get_args(hint)
    item = f"x{depth}"
    if origin is list:
        inner = copy_expression(args[0], item, depth + 1)
        return f"list({value})" if inner == item else f"[{inner} for {item} in {value}]"
    if origin is dict:
        inner = copy_expression(args[1], item, depth + 1)
        key = f"k{depth}"
        if inner == item:
            return f"dict({value})"
        return f"{{{key}: {inner} for {key}, {item} in {value}.items()}}"
    if origin in (Union, UnionType) and type(None) in args:
        (kind,) = [arg for arg in args if arg is not type(None)]
        inner = copy_expression(kind, value, depth)
        return value if inner == value else f"(None if {value} is None else {inner})"
    return value


def compile_clone(cls: type[S]) -> Callable[[S], S]:
    """A clone function for a state class, written out field by field from its type hints
    (as ``dataclasses`` writes ``__init__``): as fast as a hand-written one, and complete."""
    hints = get_type_hints(cls)
    fields = ", ".join(
        f"{field.name!r}: {copy_expression(hints[field.name], f'state.{field.name}')}"
        for field in dataclasses.fields(cls)
    )
    source = (
        "def clone(state):\n"
        "    new = new_object(cls)\n"
        f"    new.__dict__ = {{{fields}}}\n"
        "    return new\n"
    )
    namespace: dict[str, Any] = {"new_object": object.__new__, "cls": cls}
    exec(source, namespace)
    clone: Callable[[S], S] = namespace["clone"]
    return clone


@dataclass
class GameState:
    """Base for game states: plain data (str, int, bool, None, lists, dicts) that
    round-trips through JSON. ``clone`` copies every field by its type, so none is forgotten."""

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Self:
        return cls(**data)

    def clone(self) -> Self:
        cls = type(self)
        cls.clone = compile_clone(cls)  # type: ignore[method-assign,assignment]  # once per class
        return self.clone()


class Game(Protocol[S]):
    """What the server, the bots and the tests may call. Nothing else is public.

    Actions are public: everyone at the table hears each one as it was sent (the last move,
    the move log, the bots' history), so an action names only what the table then sees
    (a card played, discarded or taken from an open place), never a hidden card.
    """

    name: ClassVar[str]
    title: ClassVar[dict[str, str]]
    seats: ClassVar[int]
    options: ClassVar[tuple[Option, ...]]
    presets: ClassVar[tuple[Preset, ...]]
    # JSON-able shapes, for the schemas the server publishes: a TypedDict (or a union of
    # them) for one action, and a TypedDict for one seat's view.
    action_type: ClassVar[Any]
    view_type: ClassVar[Any]
    # The rules' tables the client displays (points, roles, costs), JSON-able and published
    # in GET /api/games, so that the client holds no copy of them.
    tables: ClassVar[dict[str, Any]]

    def new(
        self,
        seed: int,
        options: dict[str, Any] | None = None,
        deck: list[str] | None = None,
        night: list[str] | None = None,
    ) -> S: ...

    def to_move(self, state: S) -> int | None: ...

    def legal_actions(self, state: S, seat: int) -> list[Action]: ...

    def apply(self, state: S, seat: int, action: Action) -> S: ...

    def view(self, state: S, seat: int | None, *, reveal: bool = False) -> View: ...

    def views(self, state: S, seats: Iterable[int | None]) -> dict[int | None, View]:
        """``view(state, seat)`` for each of ``seats``, what all of them see built once (and
        shared between the views: read them, do not change them)."""
        ...

    def is_over(self, state: S) -> bool: ...

    def result(self, state: S) -> Outcome | None: ...

    def rematch_options(
        self, options: dict[str, Any], previous: Outcome | None, previous_first: int | None
    ) -> dict[str, Any]:
        """The options of the next match in a room (for example who starts it)."""
        ...

    def redeal_hidden(self, state: S, viewer: int | None, rng: random.Random) -> S:
        """A state that ``viewer`` (a seat, or None for a spectator) cannot tell from
        ``state``: everything hidden from it is dealt again at random among the places it
        may be (the other hands, the draw pile's order, face-down piles, the seed). This is
        where a game states its hidden zones; the leak test and the bots rely on it."""
        ...

    def took(self, state: S, action: Action) -> list[str]:
        """The open cards that ``action``, applied to ``state``, takes from the table and
        does not name itself (a forest position's card, a discard pile's top): what everyone
        saw go, so that a move log can name them once ``state`` is gone. Only for an action
        that ``apply`` accepts in ``state``."""
        ...

    def state_from_json(self, data: dict[str, Any]) -> S: ...

    def notation(self, action: Action) -> str: ...

    def parse_notation(self, text: str) -> Action: ...


def resolve_options(specs: tuple[Option, ...], given: dict[str, Any] | None) -> dict[str, Any]:
    """Fill defaults and refuse unknown names or values, with a sentence that says which."""
    given = dict(given or {})
    known = {spec.name: spec for spec in specs}
    unknown = sorted(set(given) - set(known))
    if unknown:
        raise ValueError(f"unknown option(s): {', '.join(unknown)}; known: {', '.join(known)}")
    resolved: dict[str, Any] = {}
    for spec in specs:
        value = given.get(spec.name, spec.default)
        if not any(value == choice and type(value) is type(choice) for choice in spec.choices):
            choices = ", ".join(repr(c) for c in spec.choices)
            raise ValueError(f"option {spec.name!r} must be one of {choices}, not {value!r}")
        resolved[spec.name] = value
    return resolved


def replay(
    game: Game[S], seed: int, options: dict[str, Any], actions: Iterable[tuple[int, Action]]
) -> Iterator[S]:
    """The first state, then the state after each (seat, action): a stored match again."""
    state = game.new(seed=seed, options=options)
    yield state
    for seat, action in actions:
        state = game.apply(state, seat, action)
        yield state


def starting_seat(chosen: int | None, seed: int, seats: int) -> int:
    """The seat the option ``first`` names, or else one drawn by lot from the seed."""
    if chosen is not None:
        return chosen
    return random.Random(f"{seed}:first").randrange(seats)


def alternate_starter(previous_first: int | None, seats: int) -> int:
    return ((previous_first or 0) + 1) % seats


def loser_starts(previous: Outcome | None, previous_first: int | None, seats: int) -> int:
    """The loser starts the next match; after a draw the starters alternate."""
    if previous is not None and previous.winner is not None:
        return (previous.winner + 1) % seats
    return alternate_starter(previous_first, seats)
