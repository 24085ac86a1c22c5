"""Finished matches: the history list and replays that reveal everything afterwards."""

from __future__ import annotations

import random

import pytest

from engine import get_game
from tests.app.tables import Table, play

# The history's queries: order, filters, case folding beyond ASCII, ids out of range, on a
# server whose host lists every finished match.
pytestmark = [pytest.mark.both_databases, pytest.mark.public_history]


def finish_scoundrel(table: Table, name: str, matches: int = 1) -> str:
    room_id, cookies = table.seated_room("scoundrel", names=(name,))
    with table.socket(room_id, cookies[0]) as player:
        for number in range(1, matches + 1):
            if number > 1:
                player.send({"type": "rematch"})
                player.wait_version(number, 0)
            play(table, room_id, [player], random.Random(number))
    return room_id


def test_a_finished_match_appears_in_history_and_replays_to_the_same_result(
    table: Table,
) -> None:
    room_id, cookies = table.seated_room("expeditionen", preset="short")
    with table.socket(room_id, cookies[0]) as ada, table.socket(room_id, cookies[1]) as bo:
        play(table, room_id, [ada, bo], random.Random(8))
    final = table.live_state(room_id)
    game = get_game("expeditionen")
    (listed,) = table.client.get("/api/matches").json()
    assert listed["room_id"] == room_id
    assert listed["players"] == ["Ada", "Bo"]
    assert listed["result"] == game.result(final).to_json()
    assert listed["options"]["rounds"] == 1
    replay = table.client.get(f"/api/matches/{listed['match_id']}").json()
    assert replay["result"] == game.result(final).to_json()
    assert replay["players"] == ["Ada", "Bo"]
    steps = replay["steps"]
    assert len(steps) == ada.state["version"] + 1
    assert steps[0]["seat"] is None and steps[0]["action"] is None and steps[0]["ply"] == 0
    assert steps[-1]["view"] == game.view(final, None, reveal=True)
    assert steps[-1]["action"] == ada.state["last_action"]["action"]
    assert all(step["text"] == game.notation(step["action"]) for step in steps[1:])
    assert [step["ply"] for step in steps] == list(range(len(steps)))


def test_a_running_match_is_never_revealed(table: Table) -> None:
    room_id, _cookies = table.seated_room("expeditionen")
    match_id = table.client.get(f"/api/rooms/{room_id}").json()["match_id"]
    out_of_range = "/api/matches/" + "9" * 20  # beyond any id column: still a 404
    for path in (f"/api/matches/{match_id}", "/api/matches/999999", out_of_range, "/api/matches/0"):
        response = table.client.get(path)
        assert response.status_code == 404
        assert response.json()["detail"]["code"] == "unknown_match"
    assert table.client.get("/api/matches").json() == []


def test_history_is_newest_first_and_filters_by_game_and_player(table: Table) -> None:
    ada_room = finish_scoundrel(table, "Ada Lovelace", matches=2)
    cy_room = finish_scoundrel(table, "Cy")
    listed = table.client.get("/api/matches").json()
    assert [m["room_id"] for m in listed] == [cy_room, ada_room, ada_room]
    assert listed[1]["match_id"] > listed[2]["match_id"]

    def rooms(**query: object) -> list[str]:
        return [m["room_id"] for m in table.client.get("/api/matches", params=query).json()]

    assert rooms(player="lovelace") == [ada_room, ada_room]
    assert rooms(player="cy", game="scoundrel") == [cy_room]
    assert rooms(player="%") == []
    assert rooms(game="expeditionen") == []
    assert rooms(limit=1, offset=1) == [ada_room]
    assert table.client.get("/api/matches", params={"limit": 0}).status_code == 422


def test_the_player_filter_ignores_case_beyond_ascii(table: Table) -> None:
    zoe_room = finish_scoundrel(table, "Zoë Ärger-Öl")
    street_room = finish_scoundrel(table, "Straße")

    def rooms(player: str) -> list[str]:
        listed = table.client.get("/api/matches", params={"player": player}).json()
        return [m["room_id"] for m in listed]

    for query in ("ärger", "ÄRGER", "zoë ä", "-öl", "ÖL"):
        assert rooms(query) == [zoe_room], query
    assert rooms("STRASSE") == [street_room]  # casefold: ß is ss
    assert rooms("zoe") == []  # case is ignored, accents are not
