"""Whose history: "your matches" by the seat cookie, and a server whose host turned the public
list off shows (and replays) each browser's own matches only."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from app.main import create_app
from app.services.identity import COOKIE
from app.settings import Settings
from tests.app.tables import Table, play

# The history's queries by the seat cookie's stored HMAC.
pytestmark = pytest.mark.both_databases


def listed(table: Table, cookie: str | None, **params: str) -> list[list[str | None]]:
    table.client.cookies.clear()
    if cookie is not None:
        table.client.cookies.set(COOKIE, cookie)
    answer = table.client.get("/api/matches", params=params)
    table.client.cookies.clear()
    assert answer.status_code == 200, answer.text
    return [match["players"] for match in answer.json()]


@pytest.fixture
def private_table(settings: Settings) -> Iterator[Table]:
    closed = settings.model_copy(update={"public_history": False})
    with TestClient(create_app(closed)) as client:
        yield Table(client)


def own_cookie(table: Table, name: str) -> str:
    """Finish a match as `name` and return the cookie of the browser that played it."""
    room_id, cookies = table.seated_room("scoundrel", names=(name,))
    with table.socket(room_id, cookies[0]) as player:
        play(table, room_id, [player], random.Random(1))
    return cookies[0]


def test_mine_lists_only_the_matches_of_this_browser(table: Table) -> None:
    ada = own_cookie(table, "Ada")
    own_cookie(table, "Bo")
    assert listed(table, ada, mine="true") == [["Ada"]]
    assert listed(table, None, mine="true") == []
    assert sorted(listed(table, None)) == [["Ada"], ["Bo"]]  # the public list, on by default


def test_a_private_history_shows_and_replays_only_your_own_matches(private_table: Table) -> None:
    table = private_table
    ada = own_cookie(table, "Ada")
    bo = own_cookie(table, "Bo")
    assert listed(table, None) == []
    assert listed(table, ada) == [["Ada"]]
    assert listed(table, bo) == [["Bo"]]
    table.client.cookies.set(COOKIE, ada)
    (match,) = table.client.get("/api/matches").json()
    assert table.client.get(f"/api/matches/{match['match_id']}").status_code == 200
    page = table.client.get("/history")
    assert 'data-public-history="false"' in page.text
    assert "scope-all" not in page.text
    table.client.cookies.set(COOKIE, bo)
    refused = table.client.get(f"/api/matches/{match['match_id']}")
    assert refused.status_code == 404
    assert refused.json()["detail"]["code"] == "unknown_match"
    assert table.client.get(f"/matches/{match['match_id']}").status_code == 404
    table.client.cookies.clear()
