"""The server's wall clock, one for every part of the table: turn-based deadlines, idle
rooms, the daily deal's day. A test server's is moved on by a file (``ClockFile``,
TEST_CLOCK_FILE, refused in production); a test in the same process sets ``now``."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path


def utc_now() -> datetime:
    return datetime.now(UTC)


class Clock:
    def __init__(self, now: Callable[[], datetime] = utc_now) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now()


class ClockFile:
    """Tests only (TEST_CLOCK_FILE): the real time moved on by the seconds written in a
    file, so that a test server in a subprocess lives through days in no time. No file,
    or an empty one: no offset."""

    def __init__(self, path: Path, now: Callable[[], datetime]) -> None:
        self.path = path
        self.now = now

    def __call__(self) -> datetime:
        try:
            text = self.path.read_text()
        except FileNotFoundError:
            text = ""
        return self.now() + timedelta(seconds=float(text.strip() or 0))
