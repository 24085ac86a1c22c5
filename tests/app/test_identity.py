"""A player, not a browser, holds a seat: devices, sign-in links, signing out."""

from __future__ import annotations

import random
import secrets
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import delete, func, select, update
from starlette.websockets import WebSocketDisconnect

from app.people.identity import COOKIE, LINKS_PER_PLAYER, SignedIn, token_hash
from app.protocol import CLOSE_SIGNED_OUT
from app.storage.models import DEVICE_LINKS, DEVICES, PLAYERS, SEATS
from tests.app.tables import Socket, Table, play

pytestmark = pytest.mark.both_databases  # players and devices are stored


def call(table: Table, method: str, path: str, cookie: str | None, **kwargs: Any) -> Any:
    """A request as the browser holding `cookie` (a new browser without)."""
    table.client.cookies.clear()
    if cookie is not None:
        table.client.cookies.set(COOKIE, cookie)
    response = table.client.request(method, path, follow_redirects=False, **kwargs)
    table.client.cookies.clear()
    return response


def make_link(table: Table, cookie: str, next_path: str | None = None) -> str:
    response = call(table, "POST", "/api/me/links", cookie, json={"next": next_path})
    assert response.status_code == 201, response.text
    url: str = response.json()["url"]
    return url


def open_link(table: Table, url: str, cookie: str | None = None) -> Any:
    """Opens the link (its page asks first) and signs in."""
    agent = {"user-agent": "Mozilla/5.0 (Android) Chrome/1"}
    page = call(table, "GET", url, cookie, headers=agent)
    assert page.status_code == 200, f"{url}: {page.status_code}"
    return call(table, "POST", url, cookie, headers=agent)


def test_opening_a_link_alone_does_not_use_it(table: Table) -> None:
    _, cookies = table.seated_room("expeditionen", preset="short")
    url = make_link(table, cookies[0])
    preview = call(table, "GET", url, None)
    assert preview.status_code == 200 and COOKIE not in preview.cookies
    assert open_link(table, url).status_code == 303


def second_device(table: Table, cookie: str, next_path: str | None = None) -> str:
    response = open_link(table, make_link(table, cookie, next_path))
    assert response.status_code == 303, response.text
    new_cookie: str = response.cookies[COOKIE]
    return new_cookie


def my_rooms(table: Table, cookie: str) -> list[str]:
    return [room["room_id"] for room in call(table, "GET", "/api/me/rooms", cookie).json()]


def devices(table: Table, cookie: str) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = call(table, "GET", "/api/me/devices", cookie).json()["devices"]
    return found


def test_a_link_signs_another_browser_in_as_the_same_player(table: Table) -> None:
    room_id, cookies = table.seated_room("expeditionen", preset="short")
    phone = second_device(table, cookies[0])
    assert phone != cookies[0]
    assert my_rooms(table, phone) == [room_id]
    assert table.join(room_id, "Ada", phone)[0] == 0
    assert len(devices(table, cookies[0])) == 2


def test_a_link_goes_on_to_the_room_it_was_made_for(table: Table) -> None:
    room_id, cookies = table.seated_room("expeditionen", preset="short")
    response = open_link(table, make_link(table, cookies[0], f"/r/{room_id}"))
    assert response.headers["location"] == f"/r/{room_id}"


def test_a_link_never_sends_the_browser_to_another_site(table: Table) -> None:
    _, cookies = table.seated_room("expeditionen", preset="short")
    for elsewhere in ("https://evil.example/", "//evil.example/r/x", "/\\evil.example"):
        response = open_link(table, make_link(table, cookies[0], elsewhere))
        assert response.headers["location"] == "/"


def test_a_link_is_not_used_from_another_sites_form(table: Table) -> None:
    _, cookies = table.seated_room("expeditionen", preset="short")
    url = make_link(table, cookies[0])
    forged = call(table, "POST", url, None, headers={"origin": "https://evil.example"})
    assert forged.status_code == 403 and COOKIE not in forged.cookies
    assert forged.json()["detail"]["code"] == "forbidden_origin"
    assert open_link(table, url).status_code == 303


def refused_link(table: Table, url: str) -> None:
    """The link's page is the 404 page at once (issue 53: it was the sign-in page, whose
    button then failed), and posting to it anyway signs no one in."""
    page = call(table, "GET", url, None)
    assert page.status_code == 404 and "text/html" in page.headers["content-type"]
    posted = call(table, "POST", url, None)
    assert posted.status_code == 404 and COOKIE not in posted.cookies


def test_a_used_link_is_refused_the_second_time(table: Table) -> None:
    room_id, cookies = table.seated_room("expeditionen", preset="short")
    url = make_link(table, cookies[0])
    assert open_link(table, url).status_code == 303
    refused_link(table, url)
    assert len(devices(table, cookies[0])) == 2


def test_an_expired_link_is_refused(table: Table) -> None:
    _, cookies = table.seated_room("expeditionen", preset="short")
    url = make_link(table, cookies[0])
    identity = table.app.state.identity
    identity.clock = lambda: datetime.now(UTC) + timedelta(minutes=10, seconds=1)
    refused_link(table, url)


def test_an_unknown_link_is_refused(table: Table) -> None:
    refused_link(table, "/signin/" + "a" * 43)
    for odd in ("x", "a" * 5000, "%00", "..%2F..%2Fetc", "%F0%9F%83%8F"):
        for method in ("GET", "POST"):
            answer = call(table, method, f"/signin/{odd}", None)
            assert answer.status_code == 404 and COOKIE not in answer.cookies, (odd, method)
    assert stored_links(table) == 0


def test_a_player_has_only_their_newest_links_open(table: Table) -> None:
    _, (ada, bo) = table.seated_room("expeditionen", preset="short")
    bos = make_link(table, bo)
    links = [make_link(table, ada) for _ in range(LINKS_PER_PLAYER + 2)]
    for url in links[:2]:
        refused_link(table, url)
    assert [open_link(table, url).status_code for url in links[2:]] == [303] * LINKS_PER_PLAYER
    assert open_link(table, bos).status_code == 303  # another player's links are theirs


def stored_links(table: Table) -> int:
    with table.app.state.db_engine.connect() as connection:
        found: int = connection.scalar(select(func.count()).select_from(DEVICE_LINKS))
    return found


def test_expired_links_are_deleted_when_the_next_link_is_made(table: Table) -> None:
    _, (ada, bo) = table.seated_room("expeditionen", preset="short")
    for cookie in (ada, ada, ada, bo, bo):
        make_link(table, cookie)
    assert stored_links(table) == 5
    identity = table.app.state.identity
    identity.clock = lambda: datetime.now(UTC) + timedelta(minutes=10, seconds=1)
    fresh = make_link(table, bo)
    assert stored_links(table) == 1
    assert open_link(table, fresh).status_code == 303
    assert stored_links(table) == 0


def test_a_forged_cookie_is_nobody_and_a_join_with_it_makes_a_new_player(table: Table) -> None:
    room_id, cookies = table.seated_room("expeditionen", preset="short")
    owner_hash = token_hash(table.app.state.settings.secret_key, cookies[0])
    for forged in ("garbled", owner_hash, cookies[0][:-1] + "x"):
        assert my_rooms(table, forged) == [] and devices(table, forged) == []
        seat, given = table.join(room_id, "Eve", forged)
        assert seat is None and given != forged  # never a secret the browser chose
        assert [d["this_device"] for d in devices(table, given)] == [True]
        assert my_rooms(table, forged) == [] and devices(table, forged) == []


def stored_players_and_devices(table: Table) -> tuple[int, int]:
    with table.app.state.db_engine.connect() as connection:
        players = connection.scalar(select(func.count()).select_from(PLAYERS))
        devices = connection.scalar(select(func.count()).select_from(DEVICES))
    return players, devices


def test_reading_with_unknown_cookies_stores_no_player_and_no_device(table: Table) -> None:
    room_id, _ = table.seated_room("expeditionen", preset="short")
    before = stored_players_and_devices(table)
    reads = [
        "/api/me/rooms",
        "/api/me/games",
        "/api/me/devices",
        "/api/daily",
        "/api/matches?mine=true",
        f"/api/rooms/{room_id}/moves",
        "/players/me",
        f"/r/{room_id}",
        "/me",
        "/",
    ]
    for number in range(300):
        response = call(table, "GET", reads[number % len(reads)], secrets.token_urlsafe(32))
        assert response.status_code in (200, 303, 404), response.text
        assert COOKIE not in response.cookies
    with table.socket(room_id, secrets.token_urlsafe(32)) as watcher:
        assert watcher.seat is None
    assert stored_players_and_devices(table) == before


def test_a_player_is_stored_when_they_first_take_a_seat(table: Table) -> None:
    room_id = table.create_room("expeditionen", preset="short")
    players, devices_before = stored_players_and_devices(table)
    seat, cookie = table.join(room_id, "Ada", secrets.token_urlsafe(32))
    assert seat == 0
    assert stored_players_and_devices(table) == (players + 1, devices_before + 1)
    assert my_rooms(table, cookie) == [room_id]


def test_a_signed_out_device_no_longer_reaches_the_player(table: Table) -> None:
    room_id, cookies = table.seated_room("expeditionen", preset="short")
    phone = second_device(table, cookies[0])
    (phone_device,) = [d for d in devices(table, phone) if d["this_device"]]
    response = call(table, "DELETE", f"/api/me/devices/{phone_device['id']}", cookies[0])
    assert response.status_code == 204
    assert my_rooms(table, phone) == []
    assert table.join(room_id, "Ada", phone)[0] is None
    assert my_rooms(table, cookies[0]) == [room_id]


@pytest.mark.parametrize("sign_out", ["the phone", "everywhere"])
def test_a_link_made_before_a_sign_out_signs_no_one_in_after_it(
    table: Table, sign_out: str
) -> None:
    """A lost phone's holder may have made a link with it first: a sign-out takes it too."""
    _, (ada, _bo) = table.seated_room("expeditionen", preset="short")
    phone = second_device(table, ada)
    made_on_the_phone = make_link(table, phone)
    if sign_out == "the phone":
        gone = this_device(table, phone)
        assert call(table, "DELETE", f"/api/me/devices/{gone}", ada).status_code == 204
    else:
        assert call(table, "POST", "/api/me/sign-out-all", ada).status_code == 204
    refused_link(table, made_on_the_phone)
    assert stored_links(table) == 0


def test_a_device_of_another_player_cannot_be_signed_out(table: Table) -> None:
    _, cookies = table.seated_room("expeditionen", preset="short")
    (ada,) = devices(table, cookies[0])
    response = call(table, "DELETE", f"/api/me/devices/{ada['id']}", cookies[1])
    assert response.status_code == 404
    assert response.json()["detail"]["code"] == "unknown_device"
    assert len(devices(table, cookies[0])) == 1


def test_a_player_names_a_device_and_sees_when_each_signed_in(table: Table) -> None:
    """Issue 53: two "Chrome on Android" could not be told apart."""
    _, (ada, _bo) = table.seated_room("expeditionen", preset="short")
    phone = second_device(table, ada)
    gone = this_device(table, phone)
    response = call(
        table, "PUT", f"/api/me/devices/{gone}/name", ada, json={"name": " Anna's phone "}
    )
    assert response.status_code == 204
    listed = {device["id"]: device for device in devices(table, ada)}
    assert listed[gone]["name"] == "Anna's phone"
    assert [device["name"] for device in listed.values() if device["id"] != gone] == [None]
    for device in listed.values():
        assert device["signed_in_at"] <= device["last_seen_at"]


def test_a_device_of_another_player_cannot_be_named(table: Table) -> None:
    _, (ada, bo) = table.seated_room("expeditionen", preset="short")
    (device,) = devices(table, ada)
    for cookie in (bo, None):
        response = call(
            table, "PUT", f"/api/me/devices/{device['id']}/name", cookie, json={"name": "mine"}
        )
        assert response.status_code == 404
        assert response.json()["detail"]["code"] == "unknown_device"
    assert devices(table, ada)[0]["name"] is None


def test_an_oversized_device_name_is_refused_before_it_is_read(table: Table) -> None:
    _, (ada, _bo) = table.seated_room("expeditionen", preset="short")
    (device,) = devices(table, ada)
    path = f"/api/me/devices/{device['id']}/name"
    response = call(table, "PUT", path, ada, json={"name": "x" * 2_000_000})
    assert response.status_code == 413
    assert devices(table, ada)[0]["name"] is None


def test_a_flood_of_device_names_overwrites_one_field_and_stores_nothing_more(
    table: Table,
) -> None:
    """What one client can make the server do with it: one row's name, again and again."""
    _, (ada, _bo) = table.seated_room("expeditionen", preset="short")
    (device,) = devices(table, ada)
    path = f"/api/me/devices/{device['id']}/name"
    before = stored_players_and_devices(table)
    for number in range(200):
        response = call(table, "PUT", path, ada, json={"name": f"phone {number}"})
        assert response.status_code == 204
    assert stored_players_and_devices(table) == before
    assert devices(table, ada)[0]["name"] == "phone 199"


@pytest.mark.parametrize(
    "body",
    [{"name": ""}, {"name": "x" * 25}, {"name": "a\nb"}, {"name": 5}, {}, {"name": "a", "x": 1}],
)
def test_a_bad_device_name_is_refused_and_changes_nothing(
    table: Table, body: dict[str, Any]
) -> None:
    _, (ada, _bo) = table.seated_room("expeditionen", preset="short")
    (device,) = devices(table, ada)
    response = call(table, "PUT", f"/api/me/devices/{device['id']}/name", ada, json=body)
    assert response.status_code == 422
    assert devices(table, ada)[0]["name"] is None


@pytest.mark.parametrize("device_id", [0, 2**31, 2**63, 10**20, -(2**63) - 1])
def test_a_device_id_beyond_the_id_column_is_unknown(table: Table, device_id: int) -> None:
    _, cookies = table.seated_room("expeditionen", preset="short")
    response = call(table, "DELETE", f"/api/me/devices/{device_id}", cookies[0])
    assert response.status_code == 404
    assert response.json()["detail"]["code"] == "unknown_device"
    assert len(devices(table, cookies[0])) == 1


def test_signing_out_everywhere_keeps_only_this_browser_with_a_new_secret(table: Table) -> None:
    room_id, cookies = table.seated_room("expeditionen", preset="short")
    phone = second_device(table, cookies[0])
    response = call(table, "POST", "/api/me/sign-out-all", cookies[0])
    assert response.status_code == 204
    renewed = response.cookies[COOKIE]
    assert renewed != cookies[0]
    for old in (cookies[0], phone):
        assert my_rooms(table, old) == []
    assert my_rooms(table, renewed) == [room_id]
    assert [d["this_device"] for d in devices(table, renewed)] == [True]


def this_device(table: Table, cookie: str) -> int:
    (device,) = [d for d in devices(table, cookie) if d["this_device"]]
    found: int = device["id"]
    return found


def closed_with(socket: Socket, probe: dict[str, Any] | None = None) -> int:
    """Sends ``probe`` (a ping by default): the server must close the socket without
    answering it or sending anything else; the close code."""
    socket.send(probe or {"type": "ping"})
    with pytest.raises(WebSocketDisconnect) as closed:
        pytest.fail(f"the socket is still served: {socket.receive()}")
    return closed.value.code


def wait_until(done: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + 5
    while not done():
        assert time.monotonic() < deadline, what
        time.sleep(0.01)


def ada_to_move(table: Table) -> tuple[str, str, str, str]:
    """A running match in which Ada (seat 0) is to move against Bo, and Ada's phone signed
    in by link: the room, and the cookies of Ada, Bo and the phone."""
    room_id = table.create_room("expeditionen", preset="short", options={"first": 0})
    _, ada = table.join(room_id, "Ada")
    _, bo = table.join(room_id, "Bo")
    return room_id, ada, bo, second_device(table, ada)


def test_a_signed_out_devices_socket_is_closed_and_plays_no_more(table: Table) -> None:
    room_id, ada, bo, phone = ada_to_move(table)
    with (
        table.socket(room_id, ada) as desk,
        table.socket(room_id, phone) as hand,
        table.socket(room_id, bo) as other,
    ):
        assert hand.seat == 0 and hand.state["to_move"] == 0
        for socket in (desk, hand, other):
            socket.drain()
        gone = this_device(table, phone)
        assert call(table, "DELETE", f"/api/me/devices/{gone}", ada).status_code == 204
        version = desk.state["version"]
        move = {"type": "action", "version": version, "action": desk.state["legal_actions"][0]}
        assert closed_with(hand, move) == CLOSE_SIGNED_OUT  # its move does nothing
        room = table.app.state.rooms.room(room_id)
        wait_until(lambda: room.online[0] == 1, "the phone's socket is gone")
        assert desk.quiet() and other.quiet()
        assert room.match.version == version
        with table.socket(room_id, phone) as again, table.socket(room_id) as spectator:
            assert again.seat is None  # its cookie only watches, and sees no hand
            assert again.state["view"] == spectator.state["view"]
        desk.act(desk.state["legal_actions"][0])
        assert desk.next("state")["version"] == version + 1


def test_signing_out_everywhere_closes_every_other_devices_sockets(table: Table) -> None:
    room_id, ada, bo, phone = ada_to_move(table)
    tablet = second_device(table, ada)
    with (
        table.socket(room_id, ada) as desk,
        table.socket(room_id, ada) as second_tab,
        table.socket(room_id, phone) as hand,
        table.socket(room_id, tablet) as pad,
        table.socket(room_id, bo) as other,
    ):
        for socket in (desk, second_tab, hand, pad, other):
            socket.drain()
        response = call(table, "POST", "/api/me/sign-out-all", ada)
        assert response.status_code == 204
        assert closed_with(hand) == closed_with(pad) == CLOSE_SIGNED_OUT
        version = desk.state["version"]
        desk.act(desk.state["legal_actions"][0])  # the asking browser's sockets play on
        for socket in (desk, second_tab, other):
            assert socket.next("state")["version"] == version + 1
        renewed = response.cookies[COOKIE]
        with table.socket(room_id, renewed) as reopened:
            assert reopened.seat == 0


@pytest.mark.parametrize("meanwhile", ["its cookie is read", "it joins the room"])
def test_a_socket_whose_device_is_signed_out_while_it_opens_is_closed(
    table: Table, meanwhile: str
) -> None:
    """A sign-out between reading the socket's cookie and the socket being counted among
    its device's must still reach it: it gets no state, and is closed."""
    room_id, ada, _bo, phone = ada_to_move(table)
    gone, player = this_device(table, phone), table.player_id(ada)
    identity, rooms = table.app.state.identity, table.app.state.rooms
    if meanwhile == "its cookie is read":
        read = identity.signed_in

        async def signed_out_after_reading(token: str | None, agent: str) -> SignedIn | None:
            signed: SignedIn | None = await read(token, agent)
            if token == phone:
                await identity.sign_out(player, gone)
            return signed

        identity.signed_in = signed_out_after_reading
    else:
        connect = rooms.connect

        async def signed_out_before_connecting(room: Any, connection: Any) -> None:
            await identity.sign_out(player, gone)
            await connect(room, connection)

        rooms.connect = signed_out_before_connecting
    headers = {"cookie": f"{COOKIE}={phone}"}
    with table.client.websocket_connect(f"/ws/rooms/{room_id}", headers=headers) as ws:
        assert closed_with(Socket(ws)) == CLOSE_SIGNED_OUT
    assert devices(table, phone) == []


def legacy_seat(table: Table, room_id: str, legacy: str) -> None:
    """Seat 0 as stored before players: held by the HMAC of `legacy`, with no player."""
    legacy_hash = token_hash(table.app.state.settings.secret_key, legacy)
    with table.app.state.db_engine.begin() as connection:
        player_id = connection.scalar(
            SEATS.select().with_only_columns(SEATS.c.player_id).where(SEATS.c.seat == 0)
        )
        connection.execute(
            update(SEATS).where(SEATS.c.player_id == player_id).values(player_id=legacy_hash)
        )
        connection.execute(delete(DEVICES).where(DEVICES.c.player_id == player_id))
        connection.execute(delete(PLAYERS).where(PLAYERS.c.id == player_id))
    table.app.state.rooms.cache.rooms.pop(room_id, None)  # as after a restart


def test_a_seat_cookie_from_before_players_keeps_its_seat_and_becomes_a_player(
    table: Table,
) -> None:
    room_id, _ = table.seated_room("expeditionen", preset="short")
    legacy_seat(table, room_id, "a-seat-cookie-from-before-players")
    assert my_rooms(table, "a-seat-cookie-from-before-players") == [room_id]
    assert table.join(room_id, "Ada", "a-seat-cookie-from-before-players")[0] == 0
    phone = second_device(table, "a-seat-cookie-from-before-players")
    assert table.join(room_id, "Ada", phone)[0] == 0


def test_a_signed_out_seat_cookie_from_before_players_does_not_come_back(table: Table) -> None:
    room_id, _ = table.seated_room("expeditionen", preset="short")
    legacy = "a-seat-cookie-from-before-players"
    legacy_seat(table, room_id, legacy)
    phone = second_device(table, legacy)
    (old,) = [d for d in devices(table, phone) if not d["this_device"]]
    assert call(table, "DELETE", f"/api/me/devices/{old['id']}", phone).status_code == 204
    assert my_rooms(table, legacy) == []
    assert table.join(room_id, "Ada", legacy)[0] is None
    assert my_rooms(table, phone) == [room_id]


def test_two_devices_of_one_player_play_the_same_seat_with_one_authority(table: Table) -> None:
    room_id, cookies = table.seated_room("expeditionen", preset="short")
    phone = second_device(table, cookies[0])
    with (
        table.socket(room_id, cookies[0]) as desk,
        table.socket(room_id, phone) as hand,
        table.socket(room_id, cookies[1]) as bo,
    ):
        assert desk.seat == hand.seat == 0
        assert desk.state["view"] == hand.state["view"]
        first, second = (desk, hand) if desk.state["to_move"] == 0 else (bo, bo)
        if first is bo:  # seat 1 starts: it plays a whole turn first
            while bo.state["to_move"] == 1:
                bo.act(bo.state["legal_actions"][0])
                bo.next("state")
            desk.drain()
            hand.drain()
            first, second = desk, hand
        version = desk.state["version"]
        first.act(first.state["legal_actions"][0], version)
        second.act(second.state["legal_actions"][-1], version)
        errors = [m["code"] for s in (first, second) for m in s.drain() if m["type"] == "error"]
        assert errors == ["stale"]
        assert desk.state["version"] == hand.state["version"] == version + 1
        hand.act(hand.state["legal_actions"][0])
        assert hand.next("state")["version"] == version + 2


def test_no_secret_device_list_or_link_of_a_player_reaches_anyone_else(table: Table) -> None:
    room_id, cookies = table.seated_room("expeditionen", preset="short")
    secret = table.app.state.settings.secret_key
    phone = second_device(table, cookies[0])
    link = make_link(table, cookies[0])
    ada_secrets = [cookies[0], phone, link.rsplit("/", 1)[1]]
    ada_secrets += [token_hash(secret, s) for s in ada_secrets]
    heard = [
        call(table, method, path, cookies[1], **kwargs).text
        for method, path, kwargs in (
            ("GET", "/api/me/devices", {}),
            ("GET", "/api/me/rooms", {}),
            ("GET", f"/api/rooms/{room_id}", {}),
            ("GET", "/me", {}),
            ("GET", f"/r/{room_id}", {}),
            ("POST", "/api/me/links", {"json": {}}),
        )
    ]
    with table.socket(room_id, cookies[1]) as bo:
        heard += bo.texts + [m for m in (str(x) for x in bo.drain())]
    own = call(table, "GET", "/api/me/devices", cookies[0]).text
    for text in [*heard, own]:
        for value in ada_secrets:
            assert value not in text
    assert "Android" not in "".join(heard)  # Ada's phone is not in Bo's list


def test_a_rename_renames_the_open_rooms_but_not_ended_matches(table: Table) -> None:
    ended, cookies = table.seated_room("expeditionen", preset="short")
    with table.socket(ended, cookies[0]) as ada, table.socket(ended, cookies[1]) as bo:
        play(table, ended, [ada, bo], random.Random(2))
    running = table.create_room("expeditionen", preset="short")
    table.join(running, "Ada", cookies[0])
    _, cy = table.join(running, "Cy")
    with table.socket(running, cy) as watching:
        watching.drain()
        response = call(table, "PUT", "/api/me/name", cookies[0], json={"name": "Ada L."})
        assert response.status_code == 204
        presence = watching.next("presence")
        assert [p["name"] for p in presence["players"]] == ["Ada L.", "Cy"]
    for room_id in (running, ended):
        seats = call(table, "GET", f"/api/rooms/{room_id}", None).json()["seats"]
        assert seats[0]["name"] == "Ada L."
    (match,) = call(table, "GET", "/api/matches?mine=true", cookies[0]).json()
    assert match["players"] == ["Ada", "Bo"]
    replay = call(table, "GET", f"/api/matches/{match['match_id']}", cookies[0]).json()
    assert replay["players"] == ["Ada", "Bo"]
    assert (
        devices(table, cookies[0])
        and call(table, "GET", "/api/me/devices", cookies[0]).json()["name"] == "Ada L."
    )


def test_a_player_is_named_by_the_first_seat_they_take(table: Table) -> None:
    _, cookies = table.seated_room("expeditionen", preset="short")
    other = table.create_room("expeditionen", preset="short")
    table.join(other, "Ada the Second", cookies[0])
    assert call(table, "GET", "/api/me/devices", cookies[0]).json()["name"] == "Ada"


def test_a_device_is_marked_seen_at_most_once_a_minute(table: Table) -> None:
    _, cookies = table.seated_room("expeditionen", preset="short")
    (first,) = devices(table, cookies[0])
    identity = table.app.state.identity
    start = datetime.now(UTC)
    identity.clock = lambda: start + timedelta(seconds=50)
    assert devices(table, cookies[0])[0]["last_seen_at"] == first["last_seen_at"]
    identity.clock = lambda: start + timedelta(seconds=70)
    devices(table, cookies[0])
    later = datetime.fromisoformat(devices(table, cookies[0])[0]["last_seen_at"])
    assert later >= start + timedelta(seconds=70)
