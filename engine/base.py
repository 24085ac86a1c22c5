"""The turn vocabulary every game shares, and the errors it raises.

A game is an object with static facts (``name``, ``seats``, ``options``, ``presets``)
and pure functions over its state. States are dataclasses of plain data; ``apply``
never mutates its input and never draws fresh randomness (only ``new`` shuffles).
"""

from __future__ import annotations

import dataclasses
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from types import UnionType
from typing import (
    Any,
    ClassVar,
    Generic,
    Literal,
    Protocol,
    Self,
    Union,
    get_args,
    get_origin,
    get_type_hints,
)

from typing_extensions import TypedDict, TypeVar  # TypeVar: with a default (PEP 696)

# Why an action is refused: the stable code beside the sentence for players. app/protocol.py's
# ErrorCode, the wire's codes, is built from these.
ErrorCode = Literal[
    "malformed",  # not an action of this game: wrong shape, unknown type, a field of the wrong kind
    "not_your_turn",
    "game_over",
    "illegal",  # well-formed, but the rules forbid it here
]


class IllegalAction(Exception):
    """An action that cannot be applied now. ``code`` is stable; the message is for players."""

    def __init__(self, message: str, code: ErrorCode = "illegal") -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class InvalidAction(IllegalAction):
    """A malformed action: wrong shape, unknown type, a field of the wrong kind."""

    def __init__(self, message: str) -> None:
        super().__init__(message, code="malformed")


class Reason(StrEnum):
    """How a game ended, in the game's own words (python-chess's ``Termination``): each
    game subclasses it with its members (``"survived"``, ``"slain"``, ``"higher_total"``,
    ...). A member is its string, so JSON and stored results hold the words themselves."""


class Takeback(StrEnum):
    """Whether a seat may take back its last action, if that action revealed nothing
    (``Game.reveals``): app/table/takebacks.py."""

    FREE = "free"
    """Whenever the player likes: nobody else is at the table."""
    CONSENT = "consent"
    """Only if the other players agree."""


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


class OutcomeJson(TypedDict):
    """A finished match's result as the views show it and the server stores and sends it
    (``Outcome.to_json``): these keys, and the game's details beside them (each game's
    result type adds its details' keys: ``ScoundrelResult``, ...)."""

    scores: list[int]
    winner: int | None
    reason: str  # a member of the game's Reason (the server's endings add their own)
    outcome: str  # win, loss or draw (``Outcome.kind``; the server's endings add their own)


# A game's details of an outcome: a TypedDict of plain JSON data.
Details = TypeVar(
    "Details", bound=Mapping[str, object], default=Mapping[str, object], covariant=True
)


def no_details() -> Any:
    """An outcome without details (``{}``: no game's ``Details`` type says so)."""
    return {}


@dataclass(frozen=True)
class Outcome(Generic[Details]):
    """How a finished game ended (after python-chess's ``Outcome``).

    ``winner`` is a seat, or None: a draw when several seats play, a lost game when one does.
    ``reason`` names the ending in the game's own words: a member of its ``Reason``.
    ``details`` is the game's breakdown for the end screen: plain JSON data whose keys are
    the game's own (its TypedDict, the ``Details`` of its ``Outcome[Details]``).
    """

    scores: tuple[int, ...]
    winner: int | None
    reason: Reason
    details: Details = field(default_factory=no_details)

    @property
    def kind(self) -> Literal["win", "loss", "draw"]:
        if self.winner is not None:
            return "win"
        return "loss" if len(self.scores) == 1 else "draw"

    def fields(self) -> OutcomeJson:
        return {
            "scores": list(self.scores),
            "winner": self.winner,
            "reason": self.reason,
            "outcome": self.kind,
        }

    def to_json(self) -> OutcomeJson:
        """One flat object: the game's details, then the typed fields beside them. A game
        builds its own result type the same way: ``{**outcome.details, **outcome.fields()}``."""
        details: Any = self.details  # (mypy cannot spread a type variable into a TypedDict)
        return {**details, **self.fields()}


@dataclass(slots=True)
class Unseen:
    """Cards a viewer may not see, by place: ``zone`` (the game's word for the place),
    ``seat`` (whose place; None: the table's) and the cards lying there, in their order
    (the state's own list, not a copy: read it, never change it). The viewer learns at
    most how many there are (``count``). Every state message lists these counts, so a
    game builds them cheaply: a slotted class over the state's lists, made in well under a
    microsecond (a frozen dataclass with copied tuples cost as much as the views)."""

    zone: str
    cards: Sequence[str]
    seat: int | None = None

    def count(self) -> dict[str, Any]:
        """What a live table may say of it: the place and how many cards, never which."""
        return {"zone": self.zone, "seat": self.seat, "count": len(self.cards)}


S = TypeVar("S", bound="GameState")
A = TypeVar("A")
V = TypeVar("V")
V_contra = TypeVar("V_contra", contravariant=True)


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
        # The fields of a clone: plain data that shares nothing with this state, made by
        # the compiled clone, some 19 times faster than dataclasses.asdict's deep copy.
        return dict(vars(self.clone()))

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Self:
        return cls(**data)

    def clone(self) -> Self:
        cls = type(self)
        cls.clone = compile_clone(cls)  # type: ignore[method-assign,assignment]  # once per class
        return self.clone()


class OutOfBudget(Exception):
    """A search looked at more positions than it was allowed."""


@dataclass(frozen=True)
class Hint(Generic[A]):
    """Per legal action, its chance of winning; ``samples`` sampled worlds were looked at."""

    chances: list[tuple[A, float]]
    samples: int


class HintSearch(Protocol[V_contra, A]):
    """A hint during play, from the seat's views (before each action, and now) and the
    actions: never from what the seat has not seen. Pure, so a worker process can run it."""

    def __call__(
        self,
        views: Sequence[V_contra],
        actions: Sequence[A],
        *,
        samples: int,
        rng: random.Random,
        seconds: float | None,
    ) -> Hint[A]: ...


@dataclass(frozen=True)
class BestLine(Generic[A]):
    """The best score a deal allowed, one line of actions that reaches it, and whether the
    deal could be won at all."""

    score: int
    line: list[A]
    winnable: bool


# From a match's first state to its best line (OutOfBudget if the search gives up). Pure.
BestLineSearch = Callable[[S], BestLine[A]]
# From a match's first state, the actions played and the best score the deal allowed: the
# number of actions after which that score was first out of reach, None if it never was
# (OutOfBudget if the search gives up). Pure.
SlipSearch = Callable[[S, Sequence[A], int], int | None]


class Game(ABC, Generic[S, A, V]):
    """What the server, the bots and the tests may call. Nothing else is public.

    ``S`` is the game's state, ``A`` its action (a union of TypedDicts, what a seat sends
    as JSON) and ``V`` one viewer's view (a TypedDict: a key is ``NotRequired`` only if
    some views lack it, as those only a finished match's revealed view adds). A game
    states its facts and rules; this base fills in the rest (boardgame.io's
    ``ProcessGameConfig`` idea), so a game overrides only where it differs.

    Actions are public: everyone at the table hears each one as it was sent (the last move,
    the move log, the bots' history), so an action names only what the table then sees
    (a card played, discarded or taken from an open place), never a hidden card.
    """

    name: ClassVar[str]
    title: ClassVar[dict[str, str]]
    seats: ClassVar[int]
    options: ClassVar[tuple[Option, ...]] = ()
    presets: ClassVar[tuple[Preset, ...]] = ()
    # JSON-able shapes, for the schemas the server publishes and the server's check of an
    # action: ``A`` and ``V`` again, as objects (pydantic reads them).
    action_type: ClassVar[Any]
    view_type: ClassVar[Any]
    # The rules' tables the client displays (points, roles, costs), JSON-able and published
    # in GET /api/games, so that the client holds no copy of them.
    tables: ClassVar[dict[str, Any]]
    state_type: type[S]
    # Capabilities (OpenSpiel's ``GameType`` idea): the server asks the game, never its
    # name. ``hint_search`` and ``best_line_search`` say whether there is a hint or a best
    # line by answering a function or None.
    takeback: ClassVar[Takeback] = Takeback.CONSENT

    @abstractmethod
    def new(
        self, seed: int, options: dict[str, Any] | None = None, deck: list[str] | None = None
    ) -> S:
        """The first state: the options filled in and checked (``resolve_options``), the
        cards shuffled by ``seed`` (or ``deck``, top first: a stacked deal for tests)."""

    @abstractmethod
    def to_move(self, state: S) -> int | None:
        """The seat to move, None once the game is over."""

    @abstractmethod
    def legal_actions(self, state: S, seat: int) -> list[A]: ...

    @abstractmethod
    def apply(self, state: S, seat: int, action: A) -> S:
        """The state after ``action``; ``state`` stays as it was. ``IllegalAction`` (with
        its ``ErrorCode``) for anything the rules refuse, ``InvalidAction`` for an object
        that is no action of this game (it may come from anyone: the type is a promise the
        caller cannot always keep)."""

    @abstractmethod
    def table_view(self, state: S) -> V:
        """What every viewer sees (seated or not), built once for all of them: an
        allow-list of the state, never the state with secrets deleted. A whole view (a
        spectator's), every key its type requires there: a key only a seat fills
        (its hand) holds a spectator's value until ``seat_view`` sets it."""

    def seat_view(self, table: V, state: S, seat: int | None) -> V:
        """One viewer's view: the table's (shared, not copied) and what only ``seat`` sees.
        The table's itself by default: a game where nobody holds cards of their own."""
        return table

    def revealed(self, view: V, state: S) -> V:
        """``view`` with everything hidden added, for the replay of a finished match. The
        view as it is by default: a game that hides nothing."""
        return view

    def view(self, state: S, seat: int | None, *, reveal: bool = False) -> V:
        """What ``seat`` (None: a spectator) sees; with ``reveal`` everything."""
        shown = self.seat_view(self.table_view(state), state, seat)
        return self.revealed(shown, state) if reveal else shown

    def views(self, state: S, seats: Iterable[int | None]) -> dict[int | None, V]:
        """``view(state, seat)`` for each of ``seats``, what all of them see built once (and
        shared between the views: read them, do not change them)."""
        table = self.table_view(state)
        return {seat: self.seat_view(table, state, seat) for seat in seats}

    def is_over(self, state: S) -> bool:
        return self.to_move(state) is None

    @abstractmethod
    def result(self, state: S) -> Outcome | None:
        """How the game ended, None while it goes on."""

    def rematch_options(
        self, options: dict[str, Any], previous: Outcome | None, previous_first: int | None
    ) -> dict[str, Any]:
        """The options of the next match in a room: the same, and where the game has the
        option ``first`` the loser starts (after a draw the starters alternate)."""
        if any(option.name == "first" for option in self.options):
            return {**options, "first": loser_starts(previous, previous_first, self.seats)}
        return dict(options)

    @abstractmethod
    def redeal_hidden(self, state: S, viewer: int | None, rng: random.Random) -> S:
        """A state that ``viewer`` (a seat, or None for a spectator) cannot tell from
        ``state``: everything hidden from it is dealt again at random among the places it
        may be (the other hands, the draw pile's order, face-down piles, the seed). This is
        where a game states its hidden zones; the leak test and the bots rely on it."""

    def unseen(self, state: S, viewer: int | None) -> list[Unseen]:
        """The places whose cards ``viewer`` (a seat, or None for a spectator) may not see,
        with those cards: the places ``redeal_hidden`` deals again, named (the wire
        inspector's "not sent to ..."). Each viewer's state message carries their counts;
        only a finished match's replay names the cards. None by default: a game that hides
        nothing."""
        return []

    def reveals(self, state: S, action: A) -> bool:
        """Whether applying ``action`` (by the seat to move) to ``state`` brings a hidden
        card into sight for anyone, or otherwise tells anyone something hidden: a card from
        a face-down pile, the next card of a pile turned up, the end of the match (which
        shows everything). Only an action that reveals nothing may be taken back
        (``takeback``: the match is replayed without it), so that nobody knows more than
        before it. Only for an action that ``apply`` accepts in ``state``.

        True by default, the safe answer: a game that does not say otherwise refuses every
        takeback, where a wrong False would let a player see a hidden card and then take
        back the move that showed it."""
        return True

    def took(self, state: S, action: A) -> list[str]:
        """The open cards that ``action``, applied to ``state``, takes from the table and
        does not name itself (a forest position's card, a discard pile's top): what everyone
        saw go, so that a move log can name them once ``state`` is gone. Only for an action
        that ``apply`` accepts in ``state``. None by default: every action names its cards."""
        return []

    def state_from_json(self, data: dict[str, Any]) -> S:
        return self.state_type.from_json(data)

    @abstractmethod
    def notation(self, action: A) -> str:
        """A short text for the action (python-chess's ``Move.uci()``): ``take 7C weapon``."""

    @abstractmethod
    def parse_notation(self, text: str) -> A:
        """The action of a notation; ``InvalidAction`` for any other text."""

    def hint_search(self) -> HintSearch[V, A] | None:
        """The pure function behind a hint during play, or None: this game offers none."""
        return None

    def best_line_search(self) -> BestLineSearch[S, A] | None:
        """The pure function that finds a finished match's best line from its deal, or
        None: this game offers none."""
        return None

    def slip_search(self) -> SlipSearch[S, A] | None:
        """The pure function that finds where a finished match's line fell below the best
        score its deal allowed, or None: this game offers none (it has no best line)."""
        return None


AnyGame = Game[Any, Any, Any]


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


def notation_words(text: object) -> list[str]:
    """The words of a notation, none if it is no text at all (it may come from anyone)."""
    return text.split() if isinstance(text, str) else []


def replay(
    game: Game[S, A, Any], seed: int, options: dict[str, Any], actions: Iterable[tuple[int, A]]
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
