"""Web Push: a player away from the table hears of their turn, a rematch offer and the
match's end on their devices. The push service is real Web Push on loopback
(tests/push_service.py): it checks each VAPID signature and decrypts each payload."""

from __future__ import annotations

import os
import random
import re
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from app.people.identity import COOKIE, SignedIn
from app.people.push import Notice, Notifier
from app.settings import Settings
from app.storage.models import PUSH_SUBSCRIPTIONS
from tests.app.tables import Socket, Table, play
from tests.app.test_identity import call, second_device, this_device
from tests.push_service import Answer, Device, PushService, push_service

# What is stored (subscriptions, the VAPID key) is tested on both databases.


@pytest.fixture
def service() -> Iterator[PushService]:
    with push_service() as running:
        yield running


@pytest.fixture
def settings(settings: Settings, service: PushService) -> Settings:
    """The loopback push service exempt from the push rules (tests/app/test_push_ssrf.py)."""
    return settings.model_copy(
        update={
            "push_retry_seconds": 0.05,
            "push_timeout_seconds": 2,
            "push_test_origins": [service.origin],
        }
    )


def subscribe(table: Table, cookie: str, device: Device, lang: str = "en") -> None:
    """Subscribes ``device`` once the notices already due went out: a match's first turn
    is pushed (``PushListener.seated``), and were its subscriptions read only after this
    one was stored, the test would see one push more than it caused."""
    drain(table)
    table.client.cookies.set("kr_player", cookie)
    response = table.client.post("/api/push/subscriptions", json=device.subscription(lang))
    table.client.cookies.clear()
    assert response.status_code == 204, response.text


def notifier(table: Table) -> Notifier:
    found: Notifier = table.app.state.notifier
    return found


def drain(table: Table) -> None:
    """Wait until every queued notice was sent or given up."""
    portal = table.client.portal
    assert portal is not None
    portal.call(notifier(table).drain)


def hide(socket: Socket) -> None:
    socket.send({"type": "visibility", "visible": False})
    socket.drain()  # handled before what follows


def act_until_turn_of(sockets: list[Socket], seat: int, rng: random.Random) -> None:
    """Random legal moves by whoever is to move until it is ``seat``'s turn."""
    by_seat = {socket.seat: socket for socket in sockets}
    while sockets[0].state["to_move"] != seat:
        state = sockets[0].state
        mover = by_seat[state["to_move"]]
        mover.act(rng.choice(mover.state["legal_actions"]))
        for socket in sockets:
            socket.wait_version(state["match_number"], state["version"] + 1)


def wait_gone(table: Table, room_id: str, seat: int) -> None:
    room = table.app.state.rooms.room(room_id)
    deadline = time.monotonic() + 5
    while room.online[seat] and time.monotonic() < deadline:
        time.sleep(0.01)
    assert not room.online[seat]


def test_your_turn_is_pushed_to_a_player_with_no_socket_open(
    table: Table, service: PushService
) -> None:
    room_id, (ada_cookie, bo_cookie) = table.seated_room("expeditionen", preset="short")
    phone = service.device()
    subscribe(table, bo_cookie, phone)
    with table.socket(room_id, ada_cookie) as ada:
        with table.socket(room_id, bo_cookie) as bo:
            act_until_turn_of([ada, bo], ada.seat or 0, random.Random(1))
        wait_gone(table, room_id, 1 - (ada.seat or 0))
        act_until_turn_of([ada], 1 - (ada.seat or 0), random.Random(2))
        drain(table)
    [notice] = service.received(phone)
    assert notice["title"] == "Your turn"
    assert notice["body"] == f"Expeditions against Ada · room {room_id[:6]}"
    assert notice["url"] == f"/r/{room_id}"


def test_no_turn_push_while_a_visible_tab_shows_the_table(
    table: Table, service: PushService
) -> None:
    room_id, (ada_cookie, bo_cookie) = table.seated_room("expeditionen", preset="short")
    phone = service.device()
    subscribe(table, bo_cookie, phone)
    with table.socket(room_id, ada_cookie) as ada, table.socket(room_id, bo_cookie) as bo:
        rng = random.Random(3)
        act_until_turn_of([ada, bo], ada.seat or 0, rng)
        act_until_turn_of([ada, bo], bo.seat or 0, rng)
        drain(table)
        assert service.requests == []


def test_your_turn_is_pushed_while_your_tab_is_hidden(table: Table, service: PushService) -> None:
    room_id, (ada_cookie, bo_cookie) = table.seated_room("expeditionen", preset="short")
    phone = service.device()
    subscribe(table, bo_cookie, phone, lang="de")
    with table.socket(room_id, ada_cookie) as ada, table.socket(room_id, bo_cookie) as bo:
        rng = random.Random(4)
        act_until_turn_of([ada, bo], ada.seat or 0, rng)
        hide(bo)
        act_until_turn_of([ada, bo], bo.seat or 0, rng)
        drain(table)
    [notice] = service.received(phone)
    assert notice["title"] == "Du bist dran"
    assert notice["body"] == f"Expeditionen gegen Ada · Tisch {room_id[:6]}"


def finish(table: Table, room_id: str, sockets: list[Socket]) -> dict[str, Any]:
    play(table, room_id, sockets, random.Random(21))
    return sockets[0].state


def test_the_other_player_hears_of_the_match_end(table: Table, service: PushService) -> None:
    room_id, cookies = table.seated_room("expeditionen", preset="short")
    devices = [service.device(), service.device()]
    for cookie, device in zip(cookies, devices, strict=True):
        subscribe(table, cookie, device)
    with table.socket(room_id, cookies[0]) as ada, table.socket(room_id, cookies[1]) as bo:
        hide(ada)
        hide(bo)
        over = finish(table, room_id, [ada, bo])
        drain(table)
    last_mover = over["last_action"]["seat"]
    ended = [n for n in service.received(devices[1 - last_mover]) if n["tag"].startswith("end")]
    assert [n["title"] for n in ended] == ["The match is over"]
    assert not any(n["tag"].startswith("end") for n in service.received(devices[last_mover]))


def test_the_other_player_hears_of_a_resignation(table: Table, service: PushService) -> None:
    room_id, cookies = table.seated_room("expeditionen", preset="short")
    devices = [service.device(), service.device()]
    for cookie, device in zip(cookies, devices, strict=True):
        subscribe(table, cookie, device)
    with table.socket(room_id, cookies[0]) as ada, table.socket(room_id, cookies[1]) as bo:
        hide(ada)
        hide(bo)
        ada.send({"type": "resign"})
        ada.drain()  # handled, and stored, before what follows
        drain(table)
    ended = [n for n in service.received(devices[1]) if n["tag"].startswith("end")]
    assert [n["title"] for n in ended] == ["The match is over"]
    assert not any(n["tag"].startswith("end") for n in service.received(devices[0]))


def test_a_rematch_offer_is_pushed_to_the_other_player(table: Table, service: PushService) -> None:
    room_id, (ada_cookie, bo_cookie) = table.seated_room("expeditionen", preset="short")
    phone = service.device()
    with table.socket(room_id, ada_cookie) as ada, table.socket(room_id, bo_cookie) as bo:
        finish(table, room_id, [ada, bo])
        subscribe(table, bo_cookie, phone)
        hide(bo)
        ada.send({"type": "rematch"})
        bo.next("rematch")
        drain(table)
    [notice] = service.received(phone)
    assert notice["title"] == "Ada offers a rematch"
    assert notice["url"] == f"/r/{room_id}"


@pytest.mark.both_databases
def test_a_subscription_answered_410_is_removed(table: Table, service: PushService) -> None:
    _room_id, (_ada, bo_cookie) = table.seated_room("expeditionen", preset="short")
    phone = service.device()
    subscribe(table, bo_cookie, phone)
    player = table.player_id(bo_cookie)
    service.answers = [Answer(410)]
    push_once(table, player, "Your turn")
    assert service.requests == [phone.endpoint.removeprefix(service.origin)]
    assert notifier(table).store.subscriptions(player) == []


async def _notify(push: Notifier, player: str, notice: Notice) -> None:
    push.notify(player, notice)


def test_a_slow_failing_push_service_does_not_delay_the_move_and_is_tried_again(
    table: Table, service: PushService
) -> None:
    room_id, (ada_cookie, bo_cookie) = table.seated_room("expeditionen", preset="short")
    phone = service.device()
    subscribe(table, bo_cookie, phone)
    with table.socket(room_id, ada_cookie) as ada, table.socket(room_id, bo_cookie) as bo:
        rng = random.Random(5)
        act_until_turn_of([ada, bo], ada.seat or 0, rng)
        hide(bo)
        service.answers = [Answer(500, delay=1.0)]
        started = time.monotonic()
        act_until_turn_of([ada, bo], bo.seat or 0, rng)
        assert time.monotonic() - started < 0.5  # the move's state came before the push
        assert service.received(phone) == []
        drain(table)
    assert len(service.requests) == 2
    assert [n["title"] for n in service.received(phone)] == ["Your turn"]


def push_once(table: Table, player: str, title: str) -> None:
    portal = table.client.portal
    assert portal is not None
    portal.call(lambda: _notify(notifier(table), player, Notice(title, "a test", "/", "turn")))
    drain(table)


def test_a_push_is_sent_from_a_process_of_its_own(table: Table, service: PushService) -> None:
    _room_id, (ada_cookie, _bo) = table.seated_room("expeditionen", preset="short")
    phone = service.device()
    subscribe(table, ada_cookie, phone)
    push_once(table, table.player_id(ada_cookie), "Your turn")
    sender = notifier(table).sender.process
    assert sender is not None and sender.is_alive()
    assert sender.pid != os.getpid()
    assert [n["title"] for n in service.received(phone)] == ["Your turn"]


def test_a_sending_process_that_died_is_started_again(table: Table, service: PushService) -> None:
    _room_id, (ada_cookie, _bo) = table.seated_room("expeditionen", preset="short")
    phone = service.device()
    subscribe(table, ada_cookie, phone)
    player = table.player_id(ada_cookie)
    push_once(table, player, "Your turn")
    dead = notifier(table).sender.process
    assert dead is not None
    dead.kill()
    dead.join(5)
    push_once(table, player, "The match is over")
    again = notifier(table).sender.process
    assert again is not None and again.pid != dead.pid
    assert [n["title"] for n in service.received(phone)] == ["Your turn", "The match is over"]


def test_the_sending_process_ends_with_the_server(settings: Settings, service: PushService) -> None:
    from fastapi.testclient import TestClient

    from app.main import create_app

    with TestClient(create_app(settings)) as client:
        table = Table(client)
        _room_id, (ada_cookie, _bo) = table.seated_room("expeditionen", preset="short")
        subscribe(table, ada_cookie, service.device())
        push_once(table, table.player_id(ada_cookie), "Your turn")
        sender = notifier(table).sender.process
        assert sender is not None and sender.is_alive()
        semaphores = queue_semaphores(notifier(table))
        assert semaphores and all(name.exists() for name in semaphores)
    assert not sender.is_alive()
    # Gone too: uvicorn ends the process by SIGTERM after the shutdown, with no exit
    # cleanup, so what the shutdown leaves in /dev/shm stays there (test_workers.py).
    assert {name for name in semaphores if name.exists()} == set()


def queue_semaphores(push: Notifier) -> set[Path]:
    """The named semaphores of the queue to the sending process (its private locks)."""
    jobs: Any = push.sender.jobs
    locks = [jobs._rlock, jobs._wlock, jobs._sem]
    return {Path("/dev/shm/sem." + lock._semlock.name.lstrip("/")) for lock in locks if lock}


def test_a_push_names_no_card(table: Table, service: PushService) -> None:
    room_id, cookies = table.seated_room("expeditionen", preset="short")
    devices = [service.device(), service.device()]
    for cookie, device in zip(cookies, devices, strict=True):
        subscribe(table, cookie, device)
    codes: set[str] = set()
    with table.socket(room_id, cookies[0]) as ada, table.socket(room_id, cookies[1]) as bo:
        hide(ada)
        hide(bo)
        play(table, room_id, [ada, bo], random.Random(8))
        for message in ada.received + bo.received:
            codes |= card_codes(message)
        drain(table)
    assert len(service.notices) > 10
    assert len(codes) > 20
    for notice in service.notices:
        words = set(re.findall(r"[\w]+", f"{notice['title']} {notice['body']} {notice['url']}"))
        assert not words & codes, notice


def card_codes(message: Any) -> set[str]:
    """Every card a message names (the values of ``card`` fields and of card lists)."""
    found: set[str] = set()
    if isinstance(message, dict):
        for key, value in message.items():
            if key in ("card", "cards", "hand") and isinstance(value, str):
                found.add(value)
            elif key in ("cards", "hand") and isinstance(value, list):
                found |= {card for card in value if isinstance(card, str)}
            else:
                found |= card_codes(value)
    elif isinstance(message, list):
        for item in message:
            found |= card_codes(item)
    return found


@pytest.mark.both_databases
def test_the_vapid_key_is_made_once_and_kept(settings: Settings) -> None:
    from fastapi.testclient import TestClient

    from app.main import create_app

    keys = []
    for _start in range(2):
        with TestClient(create_app(settings)) as client:
            keys.append(client.get("/api/push/key").json()["public_key"])
    assert keys[0] == keys[1]
    assert len(keys[0]) == 87  # base64url of the 65-byte uncompressed point


def test_a_subscription_needs_a_player(table: Table, service: PushService) -> None:
    response = table.client.post("/api/push/subscriptions", json=service.device().subscription())
    assert response.status_code == 403
    assert response.json()["detail"]["code"] == "not_seated"


def test_the_service_worker_may_control_the_whole_site(table: Table) -> None:
    response = table.client.get("/sw.js")
    assert response.status_code == 200
    assert response.headers["service-worker-allowed"] == "/"
    manifest = table.client.get("/manifest.webmanifest").json()
    sizes = {(icon["sizes"], icon["purpose"]) for icon in manifest["icons"]}
    assert {("192x192", "maskable"), ("512x512", "maskable"), ("512x512", "any")} <= sizes


def test_a_full_queue_drops_the_notice_with_a_metric(
    settings: Settings, service: PushService
) -> None:
    from fastapi.testclient import TestClient

    from app.main import create_app
    from app.people.push import PUSH_DROPPED

    app = create_app(settings.model_copy(update={"push_queue": 1}))
    with TestClient(app, client=("127.0.0.1", 50000)) as client:  # /metrics: loopback only
        push: Notifier = client.app.state.notifier  # type: ignore[attr-defined]
        notice = Notice("Your turn", "a test", "/", "turn")

        async def three() -> list[bool]:  # no await between them: the worker cannot take one
            return [push.notify("someone", notice) for _ in range(3)]

        before = PUSH_DROPPED._value.get()
        assert client.portal is not None
        assert client.portal.call(three) == [True, False, False]
        assert PUSH_DROPPED._value.get() == before + 2
        assert "kartenrunde_push_dropped_total" in client.get("/metrics").text


@pytest.mark.both_databases
def test_a_player_keeps_their_ten_newest_devices(table: Table, service: PushService) -> None:
    room_id, (ada_cookie, _bo) = table.seated_room("expeditionen", preset="short")
    devices = [service.device() for _ in range(12)]
    for device in devices:
        subscribe(table, ada_cookie, device)
    player = table.player_id(ada_cookie)
    kept = {row.endpoint for row in notifier(table).store.subscriptions(player)}
    assert kept == {device.endpoint for device in devices[2:]}


def test_the_first_turn_is_pushed_when_the_last_seat_is_taken(
    table: Table, service: PushService
) -> None:
    room_id = table.create_room("expeditionen", preset="short", options={"first": 0})
    _, ada_cookie = table.join(room_id, "Ada")
    phone = service.device()
    subscribe(table, ada_cookie, phone)
    with table.socket(room_id, ada_cookie) as ada:
        hide(ada)
        table.join(room_id, "Bo")
        assert ada.next("state")["to_move"] == ada.seat == 0
        drain(table)
    assert [n["title"] for n in service.received(phone)] == ["Your turn"]


# Signing a device out


def endpoints(table: Table, cookie: str) -> set[str]:
    rows = notifier(table).store.subscriptions(table.player_id(cookie))
    return {row.endpoint for row in rows}


@pytest.mark.both_databases
def test_a_signed_out_device_gets_no_further_notices(table: Table, service: PushService) -> None:
    body = {"turn_based": True, "move_days": 2, "preset": "short"}
    room_id, (ada_cookie, bo_cookie) = table.seated_room("expeditionen", **body)
    phone_cookie = second_device(table, ada_cookie)
    desk, phone = service.device(), service.device()
    subscribe(table, ada_cookie, desk)
    subscribe(table, phone_cookie, phone)
    gone = this_device(table, phone_cookie)
    assert call(table, "DELETE", f"/api/me/devices/{gone}", ada_cookie).status_code == 204
    assert endpoints(table, ada_cookie) == {desk.endpoint}
    with table.socket(room_id, ada_cookie) as ada, table.socket(room_id, bo_cookie) as bo:
        rng = random.Random(6)
        act_until_turn_of([ada, bo], bo.seat or 0, rng)
        act_until_turn_of([ada, bo], ada.seat or 0, rng)
        drain(table)
    assert service.received(desk)[-1]["title"] == "Your turn"
    assert service.received(phone) == []


@pytest.mark.both_databases
def test_a_device_signed_out_while_it_subscribes_stores_nothing(
    table: Table, service: PushService
) -> None:
    _room_id, (ada_cookie, _bo) = table.seated_room("expeditionen", preset="short")
    phone_cookie = second_device(table, ada_cookie)
    gone, player = this_device(table, phone_cookie), table.player_id(ada_cookie)
    identity = table.app.state.identity
    read = identity.signed_in

    async def signed_out_after_reading(token: str | None, agent: str) -> SignedIn | None:
        signed: SignedIn | None = await read(token, agent)
        if token == phone_cookie:
            await identity.sign_out(player, gone)
        return signed

    identity.signed_in = signed_out_after_reading
    table.client.cookies.set(COOKIE, phone_cookie)
    response = table.client.post("/api/push/subscriptions", json=service.device().subscription())
    table.client.cookies.clear()
    assert response.status_code == 403, response.text
    assert response.json()["detail"]["code"] == "not_seated"
    assert endpoints(table, ada_cookie) == set()


@pytest.mark.both_databases
def test_signing_out_everywhere_keeps_only_the_asking_devices_notices(
    table: Table, service: PushService
) -> None:
    _room_id, (ada_cookie, _bo) = table.seated_room("expeditionen", preset="short")
    phone_cookie = second_device(table, ada_cookie)
    desk, phone, older = service.device(), service.device(), service.device()
    subscribe(table, ada_cookie, desk)
    subscribe(table, phone_cookie, phone)
    # One stored before subscriptions named their device: whose it is, nobody knows.
    key = older.subscription()["keys"]
    with table.app.state.db_engine.begin() as connection:
        connection.execute(
            PUSH_SUBSCRIPTIONS.insert().values(
                endpoint=older.endpoint,
                player_id=table.player_id(ada_cookie),
                p256dh=key["p256dh"],
                auth=key["auth"],
                lang="en",
                created_at=datetime.now(UTC),
            )
        )
    response = call(table, "POST", "/api/me/sign-out-all", ada_cookie)
    assert response.status_code == 204
    renewed = response.cookies[COOKIE]
    assert endpoints(table, renewed) == {desk.endpoint}
    push_once(table, table.player_id(renewed), "Your turn")
    assert [n["title"] for n in service.received(desk)] == ["Your turn"]
    assert service.received(phone) == service.received(older) == []


# Turn-based rooms


def test_in_a_turn_based_room_your_turn_is_pushed_even_with_the_table_open(
    table: Table, service: PushService
) -> None:
    body = {"turn_based": True, "move_days": 2, "preset": "short"}
    room_id, (ada_cookie, bo_cookie) = table.seated_room("expeditionen", **body)
    phone = service.device()
    subscribe(table, bo_cookie, phone)
    with table.socket(room_id, ada_cookie) as ada, table.socket(room_id, bo_cookie) as bo:
        rng = random.Random(5)
        act_until_turn_of([ada, bo], ada.seat or 0, rng)
        drain(table)
        before = len(service.received(phone))
        act_until_turn_of([ada, bo], bo.seat or 0, rng)
        drain(table)
    assert [notice["title"] for notice in service.received(phone)[before:]] == ["Your turn"]


def test_a_quarter_of_a_turn_based_moves_time_left_is_pushed(
    table: Table, service: PushService
) -> None:
    body = {"turn_based": True, "move_days": 1, "preset": "short"}
    room_id, cookies = table.seated_room("expeditionen", **body)
    rooms = table.app.state.rooms
    room = rooms.room(room_id)
    mover, deadline = room.to_move(), room.deadline()
    phone = service.device()
    subscribe(table, cookies[mover], phone)
    drain(table)
    before = len(service.received(phone))
    rooms.clock.now = lambda: deadline - timedelta(hours=6) + timedelta(minutes=1)
    portal = table.client.portal
    assert portal is not None
    portal.call(rooms.sweep_turns)
    drain(table)
    [notice] = service.received(phone)[before:]
    assert notice["title"] == "A quarter of your time is left"
    assert notice["url"] == f"/r/{room_id}"
