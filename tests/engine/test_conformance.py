"""One suite over every registered game (after OpenSpiel's random_sim_test).

Nothing here knows any game's rules: hidden information is checked by comparing views
(``tests/engine/leaks.py``), each game saying what is hidden in its ``redeal_hidden``.
"""

from __future__ import annotations

import copy
import dataclasses
import functools
import json
import pickle
import random
from collections.abc import Iterator
from types import UnionType
from typing import (
    Any,
    NotRequired,
    Required,
    Union,
    get_args,
    get_origin,
    get_type_hints,
)

import pytest
from pydantic import TypeAdapter
from typing_extensions import is_typeddict

from engine import (
    AnyGame,
    ErrorCode,
    IllegalAction,
    Reason,
    games,
    get_game,
    replay,
    resolve_options,
)
from engine.playout import playout
from tests.engine.leaks import hidden_variants, leaks, viewers
from tests.sampling import some

GAME_NAMES = [game.name for game in games()]
SEEDS = some(range(40))


def game_and_seeds() -> list[tuple[str, int]]:
    return [(name, seed) for name in GAME_NAMES for seed in SEEDS]


def option_sets(game: AnyGame) -> list[dict[str, Any]]:
    """Defaults, then each preset: every playout runs under one of them."""
    return [{}] + [dict(preset.options) for preset in game.presets]


def unlisted_actions(game: AnyGame, state: Any, seat: int, rng: random.Random) -> list[Any]:
    """Actions that should be refused: legal ones of other states, mangled ones, junk."""
    legal = game.legal_actions(state, seat)
    junk: list[Any] = [{}, {"type": "no-such-move"}, None, "take", 7, {"type": None}]
    mangled = []
    for action in legal[:3]:
        for key in action:
            if key != "type":
                mangled.append({**action, key: "ZZ"})
        mangled.append({**action, "extra": 1})
    return [a for a in junk + mangled if a not in legal]


@pytest.mark.parametrize(("name", "seed"), game_and_seeds())
def test_random_playout_obeys_the_turn_vocabulary(name: str, seed: int) -> None:
    game = get_game(name)
    options = option_sets(game)[seed % len(option_sets(game))]
    rng = random.Random(seed)
    actions: list[tuple[int, Any]] = []
    action_shape = TypeAdapter(game.action_type)
    view_shape = TypeAdapter(game.view_type)
    for state, seat, action in playout(game, seed, options):
        snapshot = json.dumps(state.to_json(), sort_keys=True)
        stored = game.state_from_json(json.loads(snapshot))  # shares nothing with state
        assert stored == state
        assert state.clone() == state
        for viewer in viewers(game):
            view = game.view(state, viewer)
            assert json.loads(json.dumps(view)) == view
            view_shape.validate_python(view, strict=True)
            if viewer is not None and viewer != seat:
                assert game.legal_actions(state, viewer) == [], "only the seat to move may act"
            assert not leaks(game, state, viewer, seed), f"viewer {viewer} sees hidden cards"
            assert "seed" not in view, "the seed is never shown"
        everyone = viewers(game)
        assert game.views(state, everyone) == {v: game.view(state, v) for v in everyone}
        if seat is None:
            assert game.is_over(state)
            assert game.result(state) is not None
            break
        assert not game.is_over(state)
        action_shape.validate_python(action, strict=True)
        assert game.parse_notation(game.notation(action)) == action
        for wrong in rng.sample(unlisted_actions(game, state, seat, rng), 3):
            with pytest.raises(IllegalAction) as refused:
                game.apply(state, seat, wrong)
            assert refused.value.code in get_args(ErrorCode)
            assert state == stored, "a refused action changed the state"
        for other in range(game.seats):
            if other != seat:
                with pytest.raises(IllegalAction):
                    game.apply(state, other, action)
        actions.append((seat, action))

    *_, replayed = replay(game, seed, options, actions)
    assert replayed == state
    revealed = game.view(state, None, reveal=True)
    assert json.loads(json.dumps(revealed)) == revealed
    view_shape.validate_python(revealed, strict=True)


def owned(value: Any, hint: Any) -> list[Any]:
    """The lists and dicts inside a value that its type hint says are lists and dicts (a
    part typed ``Any`` is shared by design: it is only ever replaced, never changed)."""
    origin, args = get_origin(hint), get_args(hint)
    if value is None:
        return []
    if origin is list:
        return [value, *(inner for item in value for inner in owned(item, args[0]))]
    if origin is dict:
        return [value, *(inner for item in value.values() for inner in owned(item, args[1]))]
    if origin in (Union, UnionType):
        (kind,) = [arg for arg in args if arg is not type(None)]
        return owned(value, kind)
    return []


def owned_ids(state: Any) -> set[int]:
    hints = get_type_hints(type(state))
    return {
        id(part)
        for field in dataclasses.fields(state)
        for part in owned(getattr(state, field.name), hints[field.name])
    }


def shared_parts(state: Any, clone: Any) -> set[int]:
    return owned_ids(state) & owned_ids(clone)


@pytest.mark.parametrize("name", GAME_NAMES)
def test_a_clone_has_every_field_and_shares_no_list_or_dict(name: str) -> None:
    """``apply`` works on a clone: a field left out, or a list shared with the input, would
    lose data or change the state it was given."""
    game = get_game(name)
    for ply, (state, _, _) in enumerate(playout(game, seed=2)):
        if ply % 5:
            continue
        clone = state.clone()
        assert type(clone) is type(state)
        assert clone.__dict__.keys() == {field.name for field in dataclasses.fields(state)}
        assert clone == state
        assert not shared_parts(state, clone), f"ply {ply}: a list or dict is shared"


@pytest.mark.parametrize("name", GAME_NAMES)
def test_the_clone_check_sees_a_shared_list(name: str) -> None:
    state = get_game(name).new(seed=1)
    assert shared_parts(state, copy.copy(state))


@pytest.mark.parametrize("name", GAME_NAMES)
def test_redealing_the_hidden_cards_changes_the_state(name: str) -> None:
    """Else the leak check compares a state with itself and cannot fail."""
    game = get_game(name)
    for state, seat, _ in playout(game, seed=3):
        if seat is None:
            break
        for viewer in viewers(game):
            assert any(other != state for other in hidden_variants(game, state, viewer, 1))


@functools.cache
def keys_of(kind: type) -> tuple[frozenset[str], dict[str, Any]]:
    """A TypedDict's required keys, and the type of each key it declares. Read from its
    hints: under ``from __future__ import annotations`` Python 3.11's ``__required_keys__``
    cannot see ``NotRequired`` (pydantic can)."""
    hints = get_type_hints(kind, include_extras=True)
    optional = {key for key, hint in hints.items() if get_origin(hint) is NotRequired}
    if not kind.__total__:
        optional |= {key for key, hint in hints.items() if get_origin(hint) is not Required}
    return frozenset(hints.keys() - optional), get_type_hints(kind)


def typed_parts(hint: Any, value: Any) -> Iterator[tuple[type, dict[str, Any]]]:
    """Each (TypedDict, the dict it types) inside ``value`` of type ``hint``: the view and
    its piles, displays, offers...; of a union of TypedDicts, the one whose keys fit."""
    origin, args = get_origin(hint), get_args(hint)
    if value is None:
        return
    if is_typeddict(hint):
        yield hint, value
        hints = keys_of(hint)[1]
        for key, item in value.items():
            if key in hints:
                yield from typed_parts(hints[key], item)
    elif origin is list:
        for item in value:
            yield from typed_parts(args[0], item)
    elif origin is dict:
        for item in value.values():
            yield from typed_parts(args[1], item)
    elif origin in (Union, UnionType):
        fitting = [
            kind
            for kind in args
            if is_typeddict(kind) and keys_of(kind)[0] <= value.keys() <= keys_of(kind)[1].keys()
        ]
        kinds = fitting or [kind for kind in args if kind is not type(None)]
        if len(kinds) == 1:
            yield from typed_parts(kinds[0], value)


def every_choice(game: AnyGame) -> list[dict[str, Any]]:
    """Defaults, each preset, and each option's every value alone; each set of options once."""
    alone = [{option.name: choice} for option in game.options for choice in option.choices]
    distinct = {
        json.dumps(resolve_options(game.options, given), sort_keys=True): given
        for given in option_sets(game) + alone
    }
    return list(distinct.values())


@pytest.mark.parametrize("name", GAME_NAMES)
def test_a_view_type_requires_exactly_the_keys_that_every_view_holds(name: str) -> None:
    """The view's TypedDict, and each one inside it, requires what every view has at every
    step under every option; a key only some views hold (a finished match's revealed
    view, an option's) is NotRequired. No view holds a key its type does not declare."""
    game = get_game(name)
    held: dict[type, set[str]] = {}
    for seed, options in enumerate(every_choice(game)):
        for state, _, _ in playout(game, seed, options):
            for viewer in viewers(game):
                for kind, value in typed_parts(game.view_type, game.view(state, viewer)):
                    held[kind] = held.get(kind, set(value)) & value.keys()
                    assert value.keys() <= keys_of(kind)[1].keys(), kind.__name__
        revealed = game.view(state, None, reveal=True)
        for kind, value in typed_parts(game.view_type, revealed):
            assert value.keys() <= keys_of(kind)[1].keys(), kind.__name__
    for kind, keys in held.items():
        assert keys_of(kind)[0] == keys, f"{kind.__name__}: {set(keys_of(kind)[0]) ^ keys}"


@pytest.mark.parametrize("name", GAME_NAMES)
def test_a_result_is_typed_key_by_key_in_the_view(name: str) -> None:
    """The view's ``result`` is the game's result TypedDict: the outcome's fields and the
    game's details beside them, each key declared and required, each value its type."""
    game = get_game(name)
    shown = get_args(keys_of(game.view_type)[1]["result"])
    (kind,) = [hint for hint in shown if hint is not type(None)]
    assert is_typeddict(kind), f"{name}'s result is typed {kind}"
    required, declared = keys_of(kind)
    for seed in range(5):
        *_, (state, _, _) = playout(game, seed)
        result = game.result(state)
        assert result is not None
        stored = result.to_json()
        assert required == stored.keys() == declared.keys()
        TypeAdapter(kind).validate_python(stored, strict=True)


@pytest.mark.parametrize("name", GAME_NAMES)
def test_the_rules_tables_are_plain_json_for_the_client(name: str) -> None:
    tables = get_game(name).tables
    assert tables and json.loads(json.dumps(tables)) == tables


@pytest.mark.parametrize("name", GAME_NAMES)
def test_options_are_validated_without_dealing(name: str) -> None:
    game = get_game(name)
    defaults = {option.name: option.default for option in game.options}
    assert resolve_options(game.options, {}) == defaults


@pytest.mark.parametrize("name", GAME_NAMES)
def test_unknown_options_are_refused(name: str) -> None:
    with pytest.raises(ValueError, match="no_such_option"):
        get_game(name).new(seed=1, options={"no_such_option": True})
    with pytest.raises(ValueError, match="no_such_option"):
        resolve_options(get_game(name).options, {"no_such_option": True})


@pytest.mark.parametrize("name", GAME_NAMES)
def test_bad_option_values_are_refused(name: str) -> None:
    game = get_game(name)
    for option in game.options:
        with pytest.raises(ValueError, match=option.name):
            game.new(seed=1, options={option.name: "not-a-value"})


@pytest.mark.parametrize("name", GAME_NAMES)
def test_same_seed_same_game(name: str) -> None:
    game = get_game(name)
    assert game.new(seed=99) == game.new(seed=99)
    assert game.new(seed=99) != game.new(seed=100)


@pytest.mark.parametrize("name", GAME_NAMES)
def test_a_reason_is_stored_as_the_game_s_word_and_read_back_as_itself(name: str) -> None:
    """Results in JSON (sent, stored) hold the plain word, and a stored word is the member."""
    game = get_game(name)
    *_, (final, _, _) = playout(game, seed=3)
    result = game.result(final)
    assert result is not None and isinstance(result.reason, Reason)
    stored = json.loads(json.dumps(result.to_json()))["reason"]
    assert type(stored) is str and type(result.reason)(stored) is result.reason


@pytest.mark.parametrize("name", GAME_NAMES)
def test_a_game_declares_its_searches_as_pure_functions_or_none(name: str) -> None:
    """The server asks the game for its hint, best line and slip, never its name: each is
    None or a function a worker process receives by reference."""
    game = get_game(name)
    for search in (game.hint_search(), game.best_line_search(), game.slip_search()):
        assert search is None or pickle.loads(pickle.dumps(search)) is search
