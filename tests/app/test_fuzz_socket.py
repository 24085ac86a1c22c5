"""Random websocket messages to a seated player's socket in a running match.

Each message is answered with an `error`, or (when it happened to be a legal action, a
ping or a rematch) with what the protocol answers to it; the socket stays open, nobody
else hears of a refusal, and the match stays as it was: the room as the HTTP API shows it
and the `state` a fresh connection of the same seat receives.
"""

from __future__ import annotations

import contextlib
import json
import random
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Literal

import pytest
from hypothesis import HealthCheck, given, note
from hypothesis import settings as fuzzing
from hypothesis import strategies as st
from starlette.websockets import WebSocketDisconnect

from app.protocol import CLOSE_UNKNOWN_ROOM
from app.settings import Settings
from engine import games
from tests.app.tables import Socket, Table
from tests.sampling import examples

EXAMPLES_PER_MATCH = 120

# Every card code of docs/protocol.md: rank and suit, the joker, the night cards N2..N9.
CARD = re.compile(r"(?:10|[2-9JQKA])[SHDC]|JK|N[2-9]")


def action_words(plies: int = 60) -> list[str]:
    """The field names and words (not card codes) of every game's actions, from random play."""
    words: set[str] = set()
    rng = random.Random(0)
    for game in games():
        state = game.new(seed=0)
        for _ in range(plies):
            seat = game.to_move(state)
            if seat is None:
                break
            legal = game.legal_actions(state, seat)
            words.update(
                word
                for action in legal
                for item in action.items()
                for word in item
                if isinstance(word, str) and not CARD.fullmatch(word)
            )
            state = game.apply(state, seat, rng.choice(legal))
    return sorted(words)


WORDS = sorted(
    {"action", "rematch", "ping", "type", "version", "S", "H", "D", "C", *action_words()}
)
WORDS += ["2C", "7H", "10D", "QS", "AS", "JK", "N5", "1H", "11C", "7h", "N1", "N10"]
HUGE = [2**31, 2**53 + 1, 2**63, 2**64, -(2**63) - 1, 10**100, 10**4000]
ODD_CHARACTERS = ["\x00", "\ud800", "\udfff", "\ufeff", "\u2028", "\x7f", '"', "\\"]

TEXT = (
    st.sampled_from(WORDS)
    | st.text(max_size=8)
    | st.text(st.sampled_from(ODD_CHARACTERS), min_size=1, max_size=3)
)
NUMBERS = st.integers() | st.sampled_from(HUGE) | st.floats()
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | NUMBERS | TEXT,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(TEXT, inner, max_size=3),
    max_leaves=8,
)


@dataclass(frozen=True)
class CurrentVersion:
    """Stands for the version of the state at the time of sending."""


CURRENT = CurrentVersion()


@dataclass(frozen=True)
class Near:
    """The n-th legal action (counting round) as it is, or with one field changed or dropped,
    or with a field added; junk when nothing is legal."""

    n: int
    change: Literal["none", "set", "drop", "add"]
    key: str
    value: Any

    def action(self, legal: list[dict[str, Any]]) -> Any:
        if not legal:
            return self.value
        action = legal[self.n % len(legal)]
        keys = sorted(action)
        existing = keys[self.n // len(legal) % len(keys)]
        if self.change == "set":
            return {**action, existing: self.value}
        if self.change == "drop":
            return {k: v for k, v in action.items() if k != existing}
        if self.change == "add":
            return {self.key: self.value, **action}
        return action


def stand_in(value: Any, state: dict[str, Any]) -> Any:
    if isinstance(value, Near):
        return value.action(state["legal_actions"])
    if value is CURRENT:
        return state["version"]
    return value


def resolved(message: Any, state: dict[str, Any]) -> Any:
    """The message with its stand-ins replaced by what the state says now."""
    if not isinstance(message, dict):
        return message
    return {key: stand_in(value, state) for key, value in message.items()}


def wire(value: Any, ascii_only: bool) -> str:
    """JSON text as a client sends it; lone surrogates can only travel escaped."""
    text = json.dumps(value, ensure_ascii=ascii_only)
    try:
        text.encode()
    except UnicodeEncodeError:
        return json.dumps(value)
    return text


@dataclass(frozen=True)
class Text:
    message: Any
    ascii_only: bool

    def data(self, state: dict[str, Any]) -> str | bytes:
        return wire(resolved(self.message, state), self.ascii_only)


@dataclass(frozen=True)
class Binary:
    """A binary frame: the message as UTF-8, then maybe bytes that are no UTF-8."""

    message: Any
    tail: bytes

    def data(self, state: dict[str, Any]) -> str | bytes:
        return wire(resolved(self.message, state), False).encode() + self.tail


@dataclass(frozen=True)
class Raw:
    frame: str | bytes

    def data(self, state: dict[str, Any]) -> str | bytes:
        return self.frame


@dataclass(frozen=True)
class DeepAction:
    action: str

    def data(self, state: dict[str, Any]) -> str | bytes:
        return f'{{"type":"action","version":{state["version"]},"action":{self.action}}}'


Frame = Text | Binary | Raw | DeepAction

NEAR = st.builds(
    Near, st.integers(0, 99), st.sampled_from(["none", "set", "drop", "add"]), TEXT, JSON_VALUES
)
ACTION_MESSAGES = st.fixed_dictionaries(
    {
        "type": st.just("action"),
        "version": st.just(CURRENT) | JSON_VALUES,
        "action": NEAR | JSON_VALUES | st.dictionaries(TEXT, JSON_VALUES, max_size=4),
    }
)
TYPED_MESSAGES = st.builds(
    lambda kind, fields: {**fields, "type": kind},
    st.sampled_from(["action", "rematch", "ping"]) | JSON_VALUES,
    st.dictionaries(TEXT, JSON_VALUES, max_size=3),
)
NEAR_LEGAL = st.fixed_dictionaries(
    {"type": st.just("action"), "version": st.just(CURRENT), "action": NEAR}
)
LEGAL_OTHERS = st.sampled_from([{"type": "ping"}, {"type": "rematch"}])
MESSAGES = JSON_VALUES | TYPED_MESSAGES | ACTION_MESSAGES | LEGAL_OTHERS
# Nesting up to (and a little past) the size limit.
DEEP = st.builds(
    lambda depth, core, container: container[0] * depth + core + container[1] * depth,
    st.integers(1, Settings.model_fields["max_message_bytes"].default // 5),
    st.sampled_from(["1", "[]", "{}", '"x"', ""]),
    st.sampled_from([("[", "]"), ('{"a":', "}")]),
)
NO_UTF8 = st.sampled_from([b"", b"\xff", b"\xc3", b"\xed\xa0\x80", b"\x00"])
FRAMES: st.SearchStrategy[Frame] = st.one_of(
    st.builds(Text, NEAR_LEGAL, st.booleans()),
    st.builds(Text, ACTION_MESSAGES, st.booleans()),
    st.builds(Text, MESSAGES, st.booleans()),
    st.builds(Binary, MESSAGES, NO_UTF8),
    st.builds(Raw, DEEP | st.binary(max_size=32)),
    st.builds(DeepAction, DEEP),
)


REFUSALS = {"malformed", "too_large", "stale", "illegal", "not_your_turn", "game_over"}


@dataclass
class Match:
    """A running match, the fuzzed seat's socket and cookie, and the other seats' sockets."""

    table: Table
    room_id: str
    cookie: str
    socket: Socket
    others: list[Socket]

    def room(self) -> Any:
        response = self.table.client.get(f"/api/rooms/{self.room_id}")
        assert response.status_code == 200
        return response.json()

    def fresh_state(self) -> dict[str, Any]:
        with self.table.socket(self.room_id, self.cookie) as fresh:
            return fresh.state


@pytest.fixture(params=[game.name for game in games()])
def match(request: pytest.FixtureRequest, table: Table) -> Iterator[Match]:
    room_id, cookies = table.seated_room(request.param)
    with contextlib.ExitStack() as stack:
        sockets = [stack.enter_context(table.socket(room_id, cookie)) for cookie in cookies]
        for socket in sockets:
            socket.drain()  # the presence messages of connecting
        yield Match(table, room_id, cookies[0], sockets[0], sockets[1:])


def send(socket: Socket, data: str | bytes) -> None:
    note(f"sent {data!r}")
    if isinstance(data, bytes):
        socket.ws.send_bytes(data)
    else:
        socket.ws.send_text(data)


def answered_and_unchanged(match: Match, data: str | bytes) -> None:
    room, state = match.room(), match.fresh_state()
    send(match.socket, data)
    answer = match.socket.receive()
    note(f"answer {answer}")
    if answer["type"] in ("error", "pong"):
        assert answer["type"] == "pong" or answer["code"] in REFUSALS
        assert match.socket.quiet(), "one answer, and the socket still answers"
        assert all(other.quiet() for other in match.others), "nobody else hears of it"
        assert match.room() == room
        assert match.fresh_state() == state
        return
    # A legal action or rematch request: everyone hears of it, and a new socket sees it.
    match.socket.drain()
    for other in match.others:
        other.drain()
    fresh = match.fresh_state()
    if answer["type"] == "rematch":
        assert fresh["rematch"] == {"requested_by": answer["requested_by"]}
    else:
        assert answer["type"] == "state"
        assert (fresh["match_number"], fresh["version"]) > (
            state["match_number"],
            state["version"],
        )
        assert fresh == match.socket.state


def test_no_message_crashes_the_socket_or_changes_the_match_unless_legal(match: Match) -> None:
    @given(frame=FRAMES)
    @fuzzing(
        max_examples=examples(EXAMPLES_PER_MATCH),
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    def fuzz(frame: Frame) -> None:
        answered_and_unchanged(match, frame.data(match.socket.state))

    fuzz()


# What the fuzzers found, kept as examples.


@pytest.mark.parametrize("room_id", ["%00", "a%00b"])
def test_a_socket_to_a_room_id_that_no_room_could_have_is_refused(
    table: Table, room_id: str
) -> None:
    with table.client.websocket_connect(f"/ws/rooms/{room_id}") as ws:
        assert ws.receive_json()["code"] == "unknown_room"
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
    assert closed.value.code == CLOSE_UNKNOWN_ROOM
