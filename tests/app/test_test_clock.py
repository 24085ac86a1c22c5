"""TEST_CLOCK_FILE: a test server in a subprocess lives through days without waiting (the
browser tests' "two simulated days"); production never reads it (tests/app/test_settings.py)."""

from __future__ import annotations

import os
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx

from app.table.clock import ClockFile
from tests.server import AppProcess, free_port

DAY = timedelta(days=1)


def test_the_clock_file_moves_the_clock_on_by_its_seconds(tmp_path: Path) -> None:
    start = datetime(2026, 12, 4, 12, 0, tzinfo=UTC)
    clock = ClockFile(tmp_path / "clock", lambda: start)
    assert clock() == start  # no file yet
    (tmp_path / "clock").write_text("172800\n")
    assert clock() == start + 2 * DAY
    (tmp_path / "clock").write_text("")
    assert clock() == start


def test_a_server_with_a_clock_file_finds_a_turns_time_ran_out_days_later(tmp_path: Path) -> None:
    clock = tmp_path / "clock"
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{tmp_path}/kartenrunde.db",
        "SECRET_KEY": "clock-tests-" + "s" * 32,
        "ENVIRONMENT": "development",
        "TEST_CLOCK_FILE": str(clock),
    }
    server = AppProcess(free_port(), env, tmp_path / "app.log").start()
    try:
        with httpx.Client(base_url=server.base_url) as client:
            body = {"game": "expeditionen", "turn_based": True, "move_days": 1}
            room_id = client.post("/api/rooms", json=body).json()["room_id"]
            client.post(f"/api/rooms/{room_id}/join", json={"name": "Ada"})
            cookie = client.cookies["kr_player"]
            client.cookies.clear()
            client.post(f"/api/rooms/{room_id}/join", json={"name": "Bo"})
            client.cookies.clear()
            client.cookies.set("kr_player", cookie)
            (game,) = client.get("/api/me/games").json()
            assert DAY.total_seconds() - 60 < game["seconds_left"] <= DAY.total_seconds()
            clock.write_text(str(2 * DAY.total_seconds()))
            (game,) = client.get("/api/me/games").json()
            assert game["seconds_left"] < -DAY.total_seconds() + 60
    finally:
        server.stop()
