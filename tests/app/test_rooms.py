"""Rooms, seats, identity and presence."""

from __future__ import annotations

import jsonschema_rs
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from app.main import create_app
from app.people.identity import COOKIE, token_hash
from app.settings import Settings
from app.storage.models import DEVICES, SEATS
from engine import games
from engine.playout import playout
from tests.app.tables import Table


def test_games_lists_every_registered_game_with_options_and_presets(table: Table) -> None:
    listed = table.client.get("/api/games").json()
    assert [g["name"] for g in listed] == [g.name for g in games()]
    for entry, game in zip(listed, games(), strict=True):
        assert entry["title"] == game.title
        assert entry["seats"] == game.seats
        assert entry["options"] == [option.describe() for option in game.options]
        assert [p["name"] for p in entry["presets"]] == [p.name for p in game.presets]
    assert any(game["options"] and game["presets"] for game in listed)


def test_games_publish_the_rules_tables_the_client_shows(table: Table) -> None:
    """The client keeps no copy of a rules table: it shows the engine's, as listed here."""
    listed = {game["name"]: game["tables"] for game in table.client.get("/api/games").json()}
    assert listed == {game.name: game.tables for game in games()}
    mushrooms = listed["pilzwanderung"]
    assert (mushrooms["points"]["10"], mushrooms["sticks"]["10"]) == (6, 4)
    assert (mushrooms["roles"]["QH"], mushrooms["roles"]["N5"]) == ("butter", "night")
    assert listed["scoundrel"]["values"]["AS"] == 14
    assert listed["expeditionen"]["expedition_cost"] == 20


def test_a_new_room_has_free_seats_and_starts_nothing(table: Table) -> None:
    room_id = table.create_room("scoundrel")
    room = table.client.get(f"/api/rooms/{room_id}").json()
    assert room["status"] == "waiting"
    assert room["seats"] == [{"seat": 0, "name": None, "connected": False, "computer": None}]
    assert room["tally"] == {"wins": [0], "draws": 0, "matches": 0}


def test_a_preset_and_options_fill_the_room_options(table: Table) -> None:
    room_id = table.create_room("expeditionen", preset="short", options={"with_aces": True})
    room = table.client.get(f"/api/rooms/{room_id}").json()
    assert room["preset"] == "short"
    assert room["options"] == {"with_aces": True, "rounds": 1, "first": None}


def test_room_ids_are_long_random_tokens(table: Table) -> None:
    ids = {table.create_room("scoundrel") for _ in range(5)}
    assert len(ids) == 5
    assert all(len(room_id) >= 22 for room_id in ids)  # >= 128 bits in base64url


def test_the_room_url_is_absolute_behind_a_public_base_url(settings: Settings) -> None:
    public = settings.model_copy(update={"public_base_url": "https://cards.example.org/"})
    with TestClient(create_app(public)) as client:
        created = client.post("/api/rooms", json={"game": "scoundrel"}).json()
    assert created["url"] == f"https://cards.example.org/r/{created['room_id']}"


def test_the_first_join_takes_seat_0_and_starts_scoundrel(table: Table) -> None:
    room_id = table.create_room("scoundrel")
    seat, cookie = table.join(room_id, "Ada")
    assert seat == 0
    with table.socket(room_id, cookie) as ada:
        assert ada.state["to_move"] == 0
        assert ada.state["legal_actions"]
    assert table.client.get(f"/api/rooms/{room_id}").json()["status"] == "playing"


def test_joining_again_returns_the_same_seat(table: Table) -> None:
    room_id = table.create_room("expeditionen")
    first, cookie = table.join(room_id, "Ada")
    again, _ = table.join(room_id, "Ada", cookie=cookie)
    assert first == again == 0


def test_when_every_seat_is_taken_a_newcomer_is_a_spectator(table: Table) -> None:
    room_id, _cookies = table.seated_room("expeditionen")
    seat, _ = table.join(room_id, "Cy")
    assert seat is None


def test_the_player_cookie_is_httponly_samesite_lax_and_secure_over_https(table: Table) -> None:
    room_id = table.create_room("expeditionen")
    plain = table.client.post(f"/api/rooms/{room_id}/join", json={"name": "Ada"})
    table.client.cookies.clear()
    secure = table.client.post(f"https://testserver/api/rooms/{room_id}/join", json={"name": "Bo"})
    table.client.cookies.clear()
    for response in (plain, secure):
        header = response.headers["set-cookie"].lower()
        assert header.startswith(f"{COOKIE}=")
        assert "httponly" in header and "samesite=lax" in header
    assert "secure" not in plain.headers["set-cookie"].lower()
    assert "secure" in secure.headers["set-cookie"].lower()
    assert len(plain.cookies[COOKIE]) >= 43  # 256 bits in base64url


@pytest.mark.both_databases
def test_only_an_hmac_of_the_cookie_is_stored_and_the_seat_holds_the_player(
    table: Table,
) -> None:
    room_id = table.create_room("scoundrel")
    _seat, cookie = table.join(room_id, "Ada")
    with table.app.state.db_engine.connect() as connection:
        holder = connection.scalar(select(SEATS.c.player_id))
        device = connection.scalar(select(DEVICES.c.token_hash))
    assert cookie not in holder and cookie not in device
    assert device == token_hash(table.app.state.settings.secret_key, cookie)
    assert holder == table.player_id(cookie)


@pytest.mark.both_databases
def test_my_rooms_lists_the_rooms_this_browser_holds_a_seat_in(table: Table) -> None:
    older = table.create_room("scoundrel")
    _seat, cookie = table.join(older, "Ada")
    newer = table.create_room("expeditionen")
    table.join(newer, "Ada", cookie=cookie)
    table.create_room("expeditionen")  # not joined
    table.client.cookies.set(COOKIE, cookie)
    mine = table.client.get("/api/me/rooms").json()
    table.client.cookies.clear()
    assert [(r["room_id"], r["seat"], r["name"]) for r in mine] == [
        (newer, 0, "Ada"),
        (older, 0, "Ada"),
    ]
    assert table.client.get("/api/me/rooms").json() == []


def test_presence_tells_when_a_seat_connects_and_drops(table: Table) -> None:
    room_id, cookies = table.seated_room("expeditionen")
    with table.socket(room_id, cookies[0]) as ada:
        assert ada.next("presence")["players"][0]["connected"] is True
        with table.socket(room_id, cookies[1]) as bo:
            assert [p["connected"] for p in ada.next("presence")["players"]] == [True, True]
            assert bo.state["players"][1] == {
                "seat": 1,
                "name": "Bo",
                "connected": True,
                "computer": None,
            }
        assert [p["connected"] for p in ada.next("presence")["players"]] == [True, False]
    seats = table.client.get(f"/api/rooms/{room_id}").json()["seats"]
    assert [s["connected"] for s in seats] == [False, False]
    assert [s["name"] for s in seats] == ["Ada", "Bo"]


def test_a_second_tab_of_the_same_seat_sends_no_presence(table: Table) -> None:
    room_id, cookies = table.seated_room("expeditionen")
    with table.socket(room_id, cookies[0]) as ada, table.socket(room_id, cookies[1]) as bo:
        bo.drain()
        with table.socket(room_id, cookies[0]) as second_tab:
            assert second_tab.state["seat"] == 0
            assert bo.quiet()
        assert bo.quiet()
        # Ada heard Bo arrive (a takeover countdown for Bo's turn may be withdrawn after it).
        assert "presence" in [message["type"] for message in ada.drain()]


def test_a_seat_taken_is_announced_and_starts_the_match(table: Table) -> None:
    room_id = table.create_room("expeditionen")
    _seat, cookie = table.join(room_id, "Ada")
    with table.socket(room_id, cookie) as ada, table.socket(room_id) as watcher:
        ada.drain()
        table.join(room_id, "Bo")
        assert ada.next("presence")["players"][1]["name"] == "Bo"
        started = ada.next("state")
        assert started["to_move"] in (0, 1)
        assert watcher.next("state")["to_move"] == started["to_move"]


def test_a_socket_opened_before_joining_gets_the_seat(table: Table) -> None:
    room_id = table.create_room("expeditionen")
    _seat, cookie = table.join(room_id, "Ada")
    with table.socket(room_id, cookie) as ada:
        ada.drain()
        # A player of another room (an unknown cookie is no one: it joins as a new player).
        _, newcomer_cookie = table.join(table.create_room("expeditionen"), "Bo")
        with table.socket(room_id, newcomer_cookie) as newcomer:
            assert newcomer.state["seat"] is None
            seat, _ = table.join(room_id, "Bo", cookie=newcomer_cookie)
            assert seat == 1
            assert newcomer.next("state")["seat"] == 1
            assert newcomer.state["players"][1]["connected"] is True


def test_openapi_describes_every_api_route_with_a_summary_and_a_response_model(
    table: Table,
) -> None:
    paths = table.client.get("/openapi.json").json()["paths"]
    api = {path: ops for path, ops in paths.items() if path.startswith("/api/")}
    # .../moves, .../computer, .../hint, .../leave, /api/matches/{id}/analysis and /wire,
    # /api/me/games, the three of Web Push, the six of a player's devices and name, a
    # player's record, and the three of the daily deal
    assert len(api) == 29
    for operations in api.values():
        for operation in operations.values():
            assert operation["summary"]
            if "204" in operation["responses"]:  # no body (/api/push/subscriptions)
                continue
            assert operation["responses"]["200" if "201" not in operation["responses"] else "201"][
                "content"
            ]["application/json"]["schema"]


def test_each_game_publishes_the_schema_of_its_actions_and_views(table: Table) -> None:
    for game in games():
        schema = table.client.get(f"/api/games/{game.name}/schema").json()
        assert schema["game"] == game.name
        action_schema = jsonschema_rs.validator_for(schema["action"])
        view_schema = jsonschema_rs.validator_for(schema["view"])
        for state, _, action in playout(game, seed=2):
            for viewer in [None, *range(game.seats)]:
                view_schema.validate(game.view(state, viewer))
            if action is not None:
                action_schema.validate(action)
        assert not action_schema.is_valid({"type": "no-such-move"})


def test_an_unknown_game_has_no_schema(table: Table) -> None:
    response = table.client.get("/api/games/chess/schema")
    assert response.status_code == 404
    assert response.json()["detail"]["code"] == "unknown_game"
