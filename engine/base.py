"""The turn vocabulary every game shares, and the errors it raises.

A game is an object with static facts (``name``, ``seats``, ``options``, ``presets``)
and pure functions over its state. States are dataclasses of plain data; ``apply``
never mutates its input and never draws fresh randomness (only ``new`` shuffles).
"""

from __future__ import annotations

import copy
import dataclasses
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol, Self, TypeVar

Action = dict[str, Any]
View = dict[str, Any]
Result = dict[str, Any]


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


S = TypeVar("S", bound="GameState")


@dataclass
class GameState:
    """Base for game states: plain data that round-trips through JSON."""

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Self:
        return cls(**data)

    def clone(self) -> Self:
        return copy.deepcopy(self)


class Game(Protocol[S]):
    """What the server, the bots and the tests may call. Nothing else is public."""

    name: ClassVar[str]
    title: ClassVar[dict[str, str]]
    seats: ClassVar[int]
    options: ClassVar[tuple[Option, ...]]
    presets: ClassVar[tuple[Preset, ...]]
    # Who starts a rematch, through the option "first": "loser" or "alternate".
    rematch_starter: ClassVar[str]

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

    def is_over(self, state: S) -> bool: ...

    def result(self, state: S) -> Result | None: ...

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
