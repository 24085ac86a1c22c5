"""A client's message that is refused, and reading a message into the protocol's models."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from pydantic import ValidationError
from sqlalchemy.exc import SQLAlchemyError

from app.protocol import CLIENT_MESSAGE, AnyClientMessage, ErrorCode


class Refusal(Exception):
    """A client's message that is refused; nothing changed."""

    def __init__(self, code: ErrorCode, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class RoomNotFound(Exception):
    pass


logger = logging.getLogger(__name__)


def store_or_refuse(room_id: str, write: Callable[..., Any], *args: Any) -> Any:
    """A player's choice in a room, stored; a failed write refuses it."""
    try:
        return write(*args)
    except SQLAlchemyError:
        logger.exception("storing a choice failed", extra={"room_id": room_id})
        raise Refusal("unavailable", "the choice could not be saved; try again") from None


def parse_message(data: str | bytes, limit: int) -> AnyClientMessage:
    """One client message as its protocol model (by its ``type``: an ActionMessage, a
    RematchRequest, a Ping, ...)."""
    size = len(data) if isinstance(data, bytes) else len(data.encode())
    if size > limit:
        raise Refusal("too_large", f"a message may have at most {limit} bytes")
    try:
        return CLIENT_MESSAGE.validate_json(data)
    except ValidationError as error:
        raise Refusal("malformed", describe_error(error)) from None


def describe_error(error: ValidationError) -> str:
    first = error.errors(include_url=False, include_input=False)[0]
    if first["type"] == "json_invalid":
        return "not a JSON message"
    where = ".".join(str(part) for part in first["loc"])
    return f"{where}: {first['msg']}" if where else first["msg"]
