"""Generated HTTP requests, from the server's own OpenAPI: no 5xx, every answer as documented.

Schemathesis writes the requests (fitting the schema, and deliberately not fitting it); our
TestClient sends them to the running app on each database. Into the fitting ones we mix
what Schemathesis does not write: path parameters that name a real room or finished match
(so the happy paths are fuzzed too) or hold control characters, and bodies of our own with
the games' words or junk in their fields, lone surrogates included (valid JSON escapes
that no text encoding can carry).
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable, Iterator
from typing import Any
from urllib.parse import quote

import pytest
import schemathesis
from fastapi import params
from fastapi.dependencies.utils import get_flat_params
from fastapi.routing import APIRoute
from hypothesis import HealthCheck, given
from hypothesis import settings as fuzzing
from hypothesis import strategies as st
from pydantic import BaseModel
from schemathesis import APIOperation, Case, GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    negative_data_rejection,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from app.main import app
from app.protocol import AddComputer, CreateRoom, JoinRoom
from app.table.seats import levels
from engine import games
from tests.app.tables import Table, play
from tests.app.walk import Walker, every_route, example_body, walker
from tests.sampling import examples

SCHEMA = schemathesis.openapi.from_dict(app.openapi())
OPERATIONS = [result.ok() for result in SCHEMA.get_all_operations()]
# No check that sends requests of its own: those would leave the in-process app.
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    negative_data_rejection,
]
EXAMPLES_PER_OPERATION = 50

CONTROL = st.sampled_from(["\x00", "\x01", "\x1f", "\x7f", "\u2028"])
# Lone surrogates are valid JSON escapes that no text encoding can carry.
TEXT = st.text(max_size=8) | st.text(st.characters(categories=["Cs"]), min_size=1, max_size=2)
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | TEXT,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(TEXT, inner, max_size=3),
    max_leaves=8,
)
OPTIONS = [option for game in games() for option in game.options]
LEVELS = sorted({level for game in games() for level in levels(game.name)})
# Our own bodies for the routes that take one: their fields, in the games' words or junk.
VOCABULARY = {
    "game": st.sampled_from([game.name for game in games()]),
    "options": st.dictionaries(
        st.sampled_from([option.name for option in OPTIONS]) | TEXT,
        st.sampled_from([choice for option in OPTIONS for choice in option.choices]) | JSON_VALUES,
        max_size=3,
    ),
    "preset": st.sampled_from([preset.name for game in games() for preset in game.presets]) | TEXT,
    "name": TEXT,
    "computer": st.sampled_from(LEVELS) | TEXT,
    "level": st.sampled_from(LEVELS) | TEXT,
    "turn_based": st.booleans() | JSON_VALUES,
    "move_days": st.sampled_from([1, 2, 3, 7, None]) | JSON_VALUES,
    "spectator_chat": st.booleans() | JSON_VALUES,
    "private_chat": st.booleans() | JSON_VALUES,
}
BODY_MODELS: dict[str, type[BaseModel]] = {
    "POST /api/rooms": CreateRoom,
    "POST /api/rooms/{room_id}/join": JoinRoom,
    "POST /api/rooms/{room_id}/computer": AddComputer,
}


def bodies(operation: APIOperation) -> st.SearchStrategy[dict[str, Any] | None]:
    model = BODY_MODELS.get(operation.label)
    if model is None:
        return st.none()
    fields = model.model_fields
    required = {name: VOCABULARY[name] for name in fields if fields[name].is_required()}
    optional = {name: VOCABULARY[name] for name in fields if not fields[name].is_required()}
    return st.none() | st.fixed_dictionaries(required, optional=optional)


def has_input(operation: APIOperation) -> bool:
    return bool(list(operation.iter_parameters())) or bool(operation.body)


def cases(operation: APIOperation) -> st.SearchStrategy[tuple[Case, GenerationMode]]:
    modes = [GenerationMode.POSITIVE] + [GenerationMode.NEGATIVE] * has_input(operation)
    return st.one_of(
        operation.as_strategy(generation_mode=mode).map(lambda case, mode=mode: (case, mode))
        for mode in modes
    )


def finished_match(table: Table) -> int:
    room_id, cookies = table.seated_room("scoundrel")
    with table.socket(room_id, cookies[0]) as player:
        play(table, room_id, [player], random.Random(1))
        match_id: int = player.state["match_id"]
    return match_id


def odd_names(operation: APIOperation) -> st.SearchStrategy[dict[str, str]]:
    """Path parameters with what Schemathesis never puts in a path: control characters."""
    names = [name for name in ("room_id", "match_id") if f"{{{name}}}" in operation.path]
    text = st.text(st.characters(codec="utf-8", exclude_characters="/") | CONTROL, min_size=1)
    segment = text.filter(lambda t: t not in (".", "..")).map(lambda t: quote(t, safe=""))
    return st.fixed_dictionaries({name: segment for name in names})


def real_names(table: Table, operation: APIOperation) -> dict[str, Any]:
    """Path parameters that name a real room (with a free seat) or a finished match."""
    names: dict[str, Any] = {}
    if "{room_id}" in operation.path:
        names["room_id"] = table.create_room("expeditionen")
    if operation.path.startswith("/api/matches"):
        match_id = finished_match(table)  # so the history lists one, too
        if "{match_id}" in operation.path:
            names["match_id"] = match_id
    return names


def send(table: Table, case: Case, body: Any) -> Any:
    """The case as a browser sends it, with our own body instead of the case's if given."""
    kwargs = case.as_transport_kwargs(base_url=str(table.client.base_url))
    kwargs.pop("cookies")  # the schema has no cookie parameters; the client keeps its own jar
    if body is not None:
        kwargs["json"] = body
    if "json" in kwargs:  # escaped: lone surrogates travel as \udxxx
        kwargs["data"] = json.dumps(kwargs.pop("json")).encode()
    if "data" in kwargs:
        kwargs["content"] = kwargs.pop("data")
    return table.client.request(**kwargs)


def fuzz(table: Table, operation: APIOperation) -> Callable[[], None]:
    names = st.none() | st.just(real_names(table, operation)) | odd_names(operation)

    @given(generated=cases(operation), names=names, body=bodies(operation))
    @fuzzing(
        max_examples=examples(EXAMPLES_PER_OPERATION),
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
    )
    def answers_as_documented(
        generated: tuple[Case, GenerationMode], names: dict[str, Any] | None, body: Any
    ) -> None:
        case, mode = generated
        if mode is GenerationMode.NEGATIVE:
            names, body = None, None  # a negative case's own parts make it negative
        if names is not None:
            case.path_parameters = {**(case.path_parameters or {}), **names}
        response = send(table, case, body)
        case.validate_response(response, checks=CHECKS)

    return answers_as_documented


@pytest.mark.both_databases  # NULs, huge numbers
@pytest.mark.parametrize("operation", OPERATIONS, ids=lambda operation: operation.label)
def test_no_request_is_a_server_error_and_every_answer_is_documented(
    table: Table, operation: APIOperation
) -> None:
    fuzz(table, operation)()


# What the fuzzer found, kept as examples.


def test_a_body_that_is_no_utf8_is_malformed(table: Table) -> None:
    response = table.client.post(
        "/api/rooms", content=b"\xff\x04", headers={"content-type": "application/json"}
    )
    assert response.status_code == 422
    assert response.json()["detail"]["code"] == "malformed"


def test_an_option_name_is_printable_text(table: Table) -> None:
    body = '{"game": "scoundrel", "options": {"\\ud800": 1}}'  # a lone surrogate, escaped
    response = table.client.post(
        "/api/rooms", content=body, headers={"content-type": "application/json"}
    )
    assert response.status_code == 422
    assert response.json()["detail"]["code"] == "malformed"


@pytest.mark.both_databases  # PostgreSQL's text holds no NUL
@pytest.mark.parametrize(
    ("room_id", "code"),
    [
        ("%00", "unknown_path"),  # a control character: refused before any route
        ("a%00b", "unknown_path"),
        ("%7F", "unknown_path"),
        ("%C2%B2", "unknown_room"),
        ("%E2%80%A8", "unknown_room"),
    ],
)
def test_a_room_id_that_no_room_could_have_is_unknown(
    table: Table, room_id: str, code: str
) -> None:
    for response in (
        table.client.get(f"/api/rooms/{room_id}"),
        table.client.post(f"/api/rooms/{room_id}/join", json={"name": "Ada"}),
    ):
        assert response.status_code == 404
        assert response.json()["detail"]["code"] == code
    assert table.client.get(f"/r/{room_id}").status_code == 404


@pytest.mark.parametrize("number", ["1%0D", "%201", "1%0A", "%D9%A3", "1_0"])
def test_a_number_in_an_api_url_is_written_in_digits(table: Table, number: str) -> None:
    # A control character names no path at all (404 unknown_path).
    in_path = (404, "unknown_path") if "%0" in number else (422, "malformed")
    for url, refusal in (
        (f"/api/matches/{number}", in_path),
        (f"/api/matches/{number}/analysis", in_path),
        (f"/api/matches?limit={number}", (422, "malformed")),
        (f"/api/matches?offset={number}", (422, "malformed")),
    ):
        response = table.client.get(url)
        assert (response.status_code, response.json()["detail"]["code"]) == refusal, url


@pytest.mark.parametrize("match_id", ["%C2%B2", "%D9%A3", "%00"])
def test_a_match_page_id_is_ascii_digits(table: Table, match_id: str) -> None:
    assert table.client.get(f"/matches/{match_id}").status_code == 404


def test_a_player_name_may_come_with_whitespace_around_it(table: Table) -> None:
    documented = SCHEMA.raw_schema["components"]["schemas"]["JoinRoom"]["properties"]["name"]
    assert re.fullmatch(documented["pattern"], "-\t")
    room_id = table.create_room("scoundrel")
    table.join(room_id, "-\t")
    assert table.client.get(f"/api/rooms/{room_id}").json()["seats"][0]["name"] == "-"


def test_every_refusal_and_the_metrics_are_documented_as_sent() -> None:
    error = {"$ref": "#/components/schemas/ErrorResponse"}
    for path, operations in SCHEMA.raw_schema["paths"].items():
        for operation in operations.values():
            for status in set(operation["responses"]) & {"404", "422"}:
                content = operation["responses"][status]["content"]
                assert content == {"application/json": {"schema": error}}, (path, status)
    metrics = SCHEMA.raw_schema["paths"]["/metrics"]["get"]["responses"]["200"]["content"]
    assert "text/plain" in metrics


# Every route, the pages included, with each parameter and body field out of range or holding
# a NUL or another control character, one at a time, the rest real.

# Beyond PostgreSQL's integer (32 bits), beyond 64 bits both ways.
HUGE_NUMBERS = [str(2**31), str(2**63), str(10**20), str(-(2**63) - 1)]
CONTROL_TEXT = ["%00", "a%00b", "%01", "a%0Ab", "%7F"]  # as they stand in a URL


def odd_values(annotation: Any) -> list[str]:
    return HUGE_NUMBERS if annotation is int else HUGE_NUMBERS + CONTROL_TEXT


def odd_bodies(example: Any) -> Iterator[Any]:
    """The example with one field at a time holding a NUL (text) or a huge number."""
    if isinstance(example, dict):
        for key, value in example.items():
            for odd in odd_bodies(value):
                yield {**example, key: odd}
    elif isinstance(example, str):
        yield from ("\x00", f"{example}\x00", f"{example[:1]}\x00{example[1:]}")
    elif isinstance(example, int) and not isinstance(example, bool):
        yield from (int(number) for number in HUGE_NUMBERS)


OddRequest = tuple[str, str, dict[str, str], Any, bool]


def requests_of(route: APIRoute, walker: Walker) -> Iterator[OddRequest]:
    """(method, path, query, body, refused): one parameter or body field odd at a time, and
    whether it must be refused: a control character, a number beyond an integer's column
    (a number as a text may name nothing, or be a name searched for)."""
    fields = get_flat_params(route.dependant)
    path_names = {f.name: f.field_info.annotation for f in fields if f"{{{f.name}}}" in route.path}
    query_names = {
        f.name: f.field_info.annotation for f in fields if isinstance(f.field_info, params.Query)
    }
    body = example_body(route)
    real_path = {name: walker.real[name] for name in path_names}
    real_query = {name: walker.real[name] for name in query_names}
    path = route.path.format(**real_path)
    for method in route.methods:
        for name, annotation in path_names.items():
            for odd in odd_values(annotation):
                odd_path = route.path.format(**{**real_path, name: odd})
                yield method, odd_path, real_query, body, must_refuse(annotation, odd)
        for name, annotation in query_names.items():
            for odd in odd_values(annotation):
                odd_query = {**real_query, name: odd}
                yield method, path, odd_query, body, must_refuse(annotation, odd)
        for odd_body in odd_bodies(body):
            yield method, path, real_query, odd_body, "\\u0000" in json.dumps(odd_body)


def must_refuse(annotation: Any, odd: str) -> bool:
    return annotation is int or odd in CONTROL_TEXT


@pytest.mark.both_databases  # PostgreSQL's integer is 32 bits, and its text holds no NUL
def test_no_out_of_range_number_and_no_control_character_is_a_server_error(table: Table) -> None:
    walk = walker(table)
    errors: dict[str, str] = {}
    accepted: dict[str, int] = {}
    for route in every_route(table.app.routes):
        for method, path, query, body, refused in requests_of(route, walk):
            request = f"{method} {path} {query} {body}"
            try:
                status = walk.send(method, path, query, body).status_code
            except Exception as error:  # the TestClient raises what the app did not answer
                errors[request] = repr(error)
                continue
            if status >= 500:
                errors[request] = str(status)
            elif refused and status not in (404, 422):
                accepted[request] = status
    listed = [f"{answer}: {request}" for request, answer in {**errors, **accepted}.items()]
    assert not listed, "\n".join(listed)
