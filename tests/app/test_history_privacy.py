"""Whose history: "your matches" by the seat cookie; by default a browser sees (and replays)
only its own matches, and a host who sets PUBLIC_HISTORY=true lists every match to anyone."""

from __future__ import annotations

import random

import pytest

from app.people.identity import COOKIE
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


def test_by_default_a_browser_sees_and_replays_only_its_own_matches(table: Table) -> None:
    ada = own_cookie(table, "Ada")
    bo = own_cookie(table, "Bo")
    assert listed(table, None) == []
    assert listed(table, ada) == [["Ada"]]
    assert listed(table, bo) == [["Bo"]]
    table.client.cookies.set(COOKIE, ada)
    (match,) = table.client.get("/api/matches").json()
    assert table.client.get(f"/api/matches/{match['match_id']}").status_code == 200
    assert table.client.get(f"/matches/{match['match_id']}").status_code == 200
    page = table.client.get("/history")
    assert 'data-public-history="false"' in page.text
    assert "scope-all" not in page.text
    for stranger in (bo, None):
        table.client.cookies.clear()
        if stranger is not None:
            table.client.cookies.set(COOKIE, stranger)
        refused = table.client.get(f"/api/matches/{match['match_id']}")
        assert refused.status_code == 404
        assert refused.json()["detail"]["code"] == "unknown_match"
        assert table.client.get(f"/matches/{match['match_id']}").status_code == 404
    table.client.cookies.clear()


@pytest.mark.public_history
def test_a_host_may_list_and_replay_every_match_to_anyone(table: Table) -> None:
    ada = own_cookie(table, "Ada")
    own_cookie(table, "Bo")
    assert sorted(listed(table, None)) == [["Ada"], ["Bo"]]
    assert listed(table, ada, mine="true") == [["Ada"]]
    match = table.client.get("/api/matches", params={"player": "Ada"}).json()[0]
    assert table.client.get(f"/api/matches/{match['match_id']}").json()["players"] == ["Ada"]
    assert table.client.get(f"/matches/{match['match_id']}").status_code == 200
    page = table.client.get("/history")
    assert 'data-public-history="true"' in page.text
    assert "scope-all" in page.text
