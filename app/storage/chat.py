"""The chat's queries: a line stored, a room's latest lines, a match's lines for its replay."""

from __future__ import annotations

import hashlib
from typing import Any

from sqlalchemy import Engine, insert, select

from app.storage.models import CHAT, MATCHES, PLAYERS, ROOMS, ChatRow

LINE_COLUMNS = (
    CHAT.c.match_id,
    CHAT.c.ply,
    CHAT.c.seat,
    CHAT.c.name,
    CHAT.c.player_id,
    CHAT.c.text,
    CHAT.c.reaction,
    CHAT.c.created_at,
)


def line(row: Any) -> dict[str, Any]:
    """A stored line as the protocol's ChatLine."""
    return {
        "match_id": row.match_id,
        "ply": row.ply,
        "seat": row.seat,
        "name": row.name,
        "writer": writer_key(row.player_id),
        "text": row.text,
        "reaction": row.reaction,
        "at": row.created_at.isoformat(),
    }


def writer_key(player_id: str | None) -> str | None:
    """Who wrote a line, as a browser mutes them: the same key for the same player in every
    room and under every name, from which nothing else about them can be learned."""
    if player_id is None:
        return None
    return hashlib.sha256(f"chat-writer:{player_id}".encode()).hexdigest()[:WRITER_KEY_CHARS]


WRITER_KEY_CHARS = 16


class ChatStore:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def add(self, row: ChatRow) -> None:
        with self.engine.begin() as connection:
            connection.execute(insert(CHAT).values(row.values()))

    def player_name(self, player_id: str) -> str | None:
        with self.engine.connect() as connection:
            found: str | None = connection.scalar(
                select(PLAYERS.c.name).where(PLAYERS.c.id == player_id)
            )
            return found

    def room_lines(self, room_id: str, limit: int) -> list[dict[str, Any]]:
        """The room's latest ``limit`` lines, oldest first."""
        with self.engine.connect() as connection:
            rows = connection.execute(
                select(*LINE_COLUMNS)
                .where(CHAT.c.room_id == room_id)
                .order_by(CHAT.c.id.desc())
                .limit(limit)
            ).all()
            return [line(row) for row in reversed(rows)]

    def match_lines(self, match_id: int) -> tuple[bool, list[dict[str, Any]]]:
        """Whether the match's room keeps its chat private, and the match's lines in order."""
        with self.engine.connect() as connection:
            private = connection.scalar(
                select(ROOMS.c.private_chat)
                .join(MATCHES, MATCHES.c.room_id == ROOMS.c.id)
                .where(MATCHES.c.id == match_id)
            )
            rows = connection.execute(
                select(*LINE_COLUMNS).where(CHAT.c.match_id == match_id).order_by(CHAT.c.id)
            ).all()
            return bool(private), [line(row) for row in rows]
