"""docs/protocol.md documents every message, field and code of app/protocol.py."""

from __future__ import annotations

import re
import typing
from pathlib import Path

import pytest
from fastapi.routing import APIRoute
from pydantic import BaseModel

from app import protocol
from app.routes import api
from engine import ErrorCode as EngineErrorCode

DOC = (Path(__file__).resolve().parents[2] / "docs" / "protocol.md").read_text()


def members(union: object) -> list[type[BaseModel]]:
    inner = typing.get_args(union)[0]  # Annotated[A | B, discriminator]
    return list(typing.get_args(inner))


def row_of(kind: str, table_heading: str) -> str:
    """The table row for message `kind` in the table after `table_heading`."""
    section = DOC.split(table_heading, 1)[1]
    rows = [line for line in section.splitlines() if line.startswith(f"| `{kind}` |")]
    assert rows, f"{kind!r} is not documented under {table_heading!r}"
    return rows[0]


@pytest.mark.parametrize("model", members(protocol.ClientMessage), ids=lambda m: m.__name__)
def test_every_client_message_is_documented_with_its_fields(model: type[BaseModel]) -> None:
    kind = typing.get_args(model.model_fields["type"].annotation)[0]
    row = row_of(kind, "Client → server:")
    for name in model.model_fields:
        assert name == "type" or f"`{name}" in row, f"{kind}.{name} is not documented"


@pytest.mark.parametrize("model", members(protocol.ServerMessage), ids=lambda m: m.__name__)
def test_every_server_message_is_documented_with_its_fields(model: type[BaseModel]) -> None:
    kind = typing.get_args(model.model_fields["type"].annotation)[0]
    row = row_of(kind, "Server → client:")
    for name in model.model_fields:
        assert name == "type" or re.search(rf"\b{name}\b", row), f"{kind}.{name} undocumented"


@pytest.mark.parametrize("code", typing.get_args(protocol.ErrorCode))
def test_every_error_code_is_documented(code: str) -> None:
    section = DOC.split("### Error codes", 1)[1]
    assert f"`{code}`" in section


def test_the_wire_knows_every_code_the_engine_refuses_with_once() -> None:
    """An engine's refusal goes out with its own code (app/table/actions.py): the protocol's
    list holds each of the engine's, and no code twice."""
    codes = typing.get_args(protocol.ErrorCode)
    assert set(typing.get_args(EngineErrorCode)) <= set(codes)
    assert len(codes) == len(set(codes))


@pytest.mark.parametrize(
    "code",
    [
        protocol.CLOSE_UNKNOWN_ROOM,
        protocol.CLOSE_FORBIDDEN_ORIGIN,
        protocol.CLOSE_ROOM_CLOSED,
        protocol.CLOSE_SIGNED_OUT,
        protocol.CLOSE_TOO_SLOW,
        protocol.CLOSE_RATE_LIMITED,
        protocol.CLOSE_RESTART,
        protocol.CLOSE_TRY_AGAIN,
        protocol.CLOSE_TOO_BIG,
        protocol.CLOSE_INVALID_TEXT,
    ],
)
def test_every_close_code_is_documented(code: int) -> None:
    assert f"| `{code}` |" in DOC.split("### Close codes", 1)[1]


def test_every_state_field_is_explained() -> None:
    explained = DOC.split("`state` fields:", 1)[1].split("Example", 1)[0]
    for name in protocol.StateMessage.model_fields:
        assert name == "type" or f"`{name}`" in explained, f"state.{name} is not explained"


@pytest.mark.parametrize(
    "route",
    [r for router in api.ROUTERS for r in router.routes if isinstance(r, APIRoute)],
    ids=lambda r: r.path,
)
def test_every_api_route_is_documented(route: APIRoute) -> None:
    for method in route.methods:
        assert re.search(rf"^\| `{method} {re.escape(route.path)}[`?]", DOC, re.M), (
            f"{method} {route.path} is not in the HTTP table"
        )
