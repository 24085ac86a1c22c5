"""Two server processes behind nginx, sharing PostgreSQL and Redis: every client of a room
sees the same room, whichever process serves it (seats, presence, moves, rematch, idle
closing).

The real pieces on loopback: two `python -m app` on their own ports, the machine's
PostgreSQL (a fresh database) and Redis, nginx from Debian's package in front (round
robin, no stickiness).
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest
import redis
from redis.asyncio.connection import DefaultParser
from sqlalchemy.engine import make_url
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect
from websockets.typing import Origin

from app.cluster.relay import room_channel
from app.protocol import CLOSE_ROOM_CLOSED, CLOSE_SIGNED_OUT
from tests.app.processes import (
    SHARED_REDIS,
    Client,
    Nginx,
    behind_nginx,
    create_room,
    join,
    wait_for,
)
from tests.app.test_self_hosting import empty_database, fresh_database  # noqa: F401 (a fixture)
from tests.server import AppProcess

# Their servers all meet on the machine's Redis channel: one after another (pytest-xdist).
pytestmark = [pytest.mark.xdist_group("shared_redis"), pytest.mark.services]
SECONDS = 5.0  # a hang guard per step on a busy machine; each takes milliseconds


# Module scope: each test plays in rooms of its own, and starting two processes on a fresh
# database and nginx took 4.4 to 6.8 s a test.
@pytest.fixture(scope="module")
def scaled(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[tuple[list[AppProcess], Nginx]]:
    with (
        empty_database("scaled") as database,
        behind_nginx(
            tmp_path_factory.mktemp("scaled"),
            database,
            IDLE_CHECK_SECONDS="0.5",
            MESSAGES_PER_SECOND="1000",
        ) as scaled,
    ):
        yield scaled


def play_moves(mover: Client, others: list[Client], count: int, rng: random.Random) -> int:
    """`count` moves, each made by whoever is to move; every client must see each version.
    Returns the number of moves made (fewer when the match ended)."""
    clients = [mover, *others]
    made = 0
    for _ in range(count):
        to_move = mover.state["to_move"]
        if to_move is None:
            break
        actor = next(c for c in clients if c.state.get("seat") == to_move and c.cookie)
        number, version = actor.state["match_number"], actor.state["version"]
        actor.act(rng.choice(actor.state["legal_actions"]))
        for client in clients:
            client.until(
                lambda c=client, n=number, v=version: c.at(n, v + 1),
                SECONDS,
                f"seat {client.state.get('seat')} after seat {to_move}'s move at {version} "
                f"(its errors: {actor.errors})",
            )
        made += 1
    return made


def test_a_process_hears_a_room_only_while_it_has_a_socket_of_it(
    scaled: tuple[list[AppProcess], Nginx],
) -> None:
    """A room's Redis channel has a subscriber for each process with a socket of the room:
    one that only answered a request of it hears none of its moves."""
    (a, b), _proxy = scaled
    channel = room_channel(create_room(a.base_url, rounds=1))
    room_id = channel.rsplit(":", 1)[1]
    _, ada = join(a.base_url, room_id, "Ada")
    assert httpx.get(f"{b.base_url}/api/rooms/{room_id}").status_code == 200  # b holds it
    with redis.Redis.from_url(SHARED_REDIS) as peek:

        def subscribers() -> int:
            return int(peek.pubsub_numsub(channel)[0][1])

        assert subscribers() == 0
        player = Client(a.base_url, room_id, ada).open()
        assert subscribers() == 1  # (subscribed before the first state was sent)
        watchers = [Client(b.base_url, room_id).open() for _ in range(2)]
        assert subscribers() == 2
        watchers[0].close()
        time.sleep(0.3)  # time for b to take in the close
        assert subscribers() == 2
        watchers[1].close()
        wait_for(lambda: subscribers() == 1, SECONDS, "b unsubscribed")
        player.close()
        wait_for(lambda: subscribers() == 0, SECONDS, "a unsubscribed")


def test_a_match_across_two_processes_behind_nginx(
    scaled: tuple[list[AppProcess], Nginx],
) -> None:
    (a, b), proxy = scaled
    rng = random.Random(14)
    room_id = create_room(proxy.base_url, rounds=1)
    # Process b holds the room in memory before anyone joins on a.
    assert httpx.get(f"{b.base_url}/api/rooms/{room_id}").status_code == 200
    seat0, ada = join(a.base_url, room_id, "Ada")
    # b missed that join, and still gives Bo the free seat (not a spectator's place).
    seat1, bo = join(b.base_url, room_id, "Bo")
    assert (seat0, seat1) == (0, 1)
    # Someone else through a, which missed Bo's join: a spectator, both seats are taken.
    assert join(a.base_url, room_id, "Cy")[0] is None

    player0 = Client(a.base_url, room_id, ada).open()
    player1 = Client(b.base_url, room_id, bo).open()
    watcher = Client(proxy.base_url, room_id).open()
    assert (player0.state["seat"], player1.state["seat"], watcher.state["seat"]) == (0, 1, None)
    for client in (player0, player1, watcher):
        client.until(
            lambda c=client: c.connected(0) and c.connected(1), SECONDS, "both players online"
        )

    play_moves(player0, [player1, watcher], 20, rng)

    # Ada reconnects through the proxy twice (round robin: one of them is b); the others
    # see her go and come back, and she resumes at the current version.
    player0.close()
    player1.until(lambda: not player1.connected(0), SECONDS, "Ada shown offline")
    version = player1.state["version"]
    for _ in range(2):
        player0 = Client(proxy.base_url, room_id, ada).open()
        assert player0.state["seat"] == 0 and player0.state["version"] == version
        player1.until(lambda: player1.connected(0), SECONDS, "Ada shown online")
        player0.close()
        player1.until(lambda: not player1.connected(0), SECONDS, "Ada offline")
    player0 = Client(a.base_url, room_id, ada).open()
    player0.close()
    player0 = Client(b.base_url, room_id, ada).open()
    player1.until(lambda: player1.connected(0), SECONDS, "Ada online through b")

    # The rest of the match, players on the same process now, the spectator wherever.
    while player1.state["to_move"] is not None:
        play_moves(player0, [player1, watcher], 200, rng)
    assert player1.state["result"] is not None
    assert watcher.state["result"] == player0.state["result"] == player1.state["result"]

    # Rematch: Ada asks on b, Bo on a (he moves over): both processes agree.
    player1.close()
    player1 = Client(a.base_url, room_id, bo).open()
    player0.send({"type": "rematch"})
    player1.until(lambda: player1.rematch == [0], SECONDS, "Bo hears Ada's request")
    watcher.until(lambda: watcher.rematch == [0], SECONDS, "the spectator hears it")
    player1.send({"type": "rematch"})
    for client in (player0, player1, watcher):
        client.until(lambda c=client: c.at(2, 0), SECONDS, "the rematch's first view")
    assert player0.state["tally"] == player1.state["tally"] == watcher.state["tally"]
    assert player0.state["tally"]["matches"] == 1
    play_moves(player0, [player1, watcher], 4, rng)
    assert not (player0.errors or player1.errors or watcher.errors)

    # Idle closing: by the database's last activity, closed once, every socket told.
    _backdate(a, room_id)
    for client in (player0, player1, watcher):
        with pytest.raises(ConnectionClosed):
            client.until(lambda: False, 10, "the room closes")
        assert client.closed == CLOSE_ROOM_CLOSED
    for app in (a, b):
        assert httpx.get(f"{app.base_url}/api/rooms/{room_id}").status_code == 404


def test_a_takeback_and_a_chat_line_cross_from_one_process_to_the_other(
    scaled: tuple[list[AppProcess], Nginx],
) -> None:
    """A takeback asked on one process is allowed on the other; a chat line and a reaction
    written on one reach the other (two things, one pair of processes: each costs seconds)."""
    (a, b), proxy = scaled
    room_id = create_room(proxy.base_url, rounds=1, first=0)
    cookies = [join(a.base_url, room_id, "Ada")[1], join(b.base_url, room_id, "Bo")[1]]
    ada = Client(a.base_url, room_id, cookies[0]).open()
    bo = Client(b.base_url, room_id, cookies[1]).open()
    ada.until(lambda: ada.state["to_move"] == 0, SECONDS, "Ada's turn")
    before = ada.state
    discard = next(a for a in ada.state["legal_actions"] if a["type"] == "discard")
    ada.act(discard)
    bo.until(lambda: bo.at(1, 1), SECONDS, "Bo sees Ada's discard")
    ada.send({"type": "takeback"})
    bo.until(lambda: bo.state["takeback"]["requested"], SECONDS, "Bo hears Ada's request")
    bo.send({"type": "takeback_answer", "accept": True})
    ada.until(lambda: ada.at(1, 2), SECONDS, "Ada sees her discard taken back")
    assert ada.state["takeback"]["undone"] == 1
    assert (ada.state["view"], ada.state["legal_actions"]) == (
        before["view"],
        before["legal_actions"],
    )
    ada.send({"type": "chat", "text": "Sorry, wrong card!"})
    bo.send({"type": "react", "reaction": "thanks"})
    for client in (ada, bo):
        client.until(lambda c=client: len(c.chat) == 2, SECONDS, "both chat lines")
        lines = {(line["name"], line["text"], line["reaction"]) for line in client.chat}
        assert lines == {("Ada", "Sorry, wrong card!", None), ("Bo", None, "thanks")}
    assert not (ada.errors or bo.errors)


def test_a_browser_on_the_proxys_own_port_may_open_sockets(
    scaled: tuple[list[AppProcess], Nginx],
) -> None:
    """A page served through the proxy on a port of its own (the scaled profile publishes
    8080) sends that origin: the proxy passes on the host with its port, so each process
    finds the socket the site's own, not another origin's."""
    _apps, proxy = scaled
    room_id = create_room(proxy.base_url)
    url = proxy.base_url.replace("http://", "ws://") + f"/ws/rooms/{room_id}"
    for _ in range(2):  # round robin: one socket each process
        with connect(url, origin=Origin(proxy.base_url), open_timeout=SECONDS) as socket:
            assert json.loads(socket.recv(timeout=SECONDS))["type"] == "state"


def test_a_resignation_and_a_leave_reach_the_other_process(
    scaled: tuple[list[AppProcess], Nginx],
) -> None:
    (a, b), _proxy = scaled
    room_id = create_room(a.base_url, rounds=1)
    _, ada = join(a.base_url, room_id, "Ada")
    _, bo = join(b.base_url, room_id, "Bo")
    player0 = Client(a.base_url, room_id, ada).open()
    player1 = Client(b.base_url, room_id, bo).open()
    player0.send({"type": "resign"})
    player1.until(lambda: player1.state["result"] is not None, SECONDS, "Bo hears Ada resign")
    assert player1.state["result"]["reason"] == "resigned"
    assert player1.state["tally"] == {"wins": [0, 1], "draws": 0, "matches": 1}

    # A waiting room both processes hold closes on both once its only player left.
    waiting = create_room(a.base_url)
    _, cy = join(a.base_url, waiting, "Cy")
    watcher = Client(a.base_url, waiting).open()
    answer = httpx.post(
        f"{b.base_url}/api/rooms/{waiting}/leave", headers={"Cookie": f"kr_player={cy}"}
    )
    assert answer.status_code == 204, answer.text
    with pytest.raises(ConnectionClosed):
        watcher.until(lambda: False, SECONDS, "the room closes")
    assert watcher.closed == CLOSE_ROOM_CLOSED
    for app in (a, b):
        assert httpx.get(f"{app.base_url}/api/rooms/{waiting}").status_code == 404
    assert not (player0.errors or player1.errors)


def as_browser(cookie: str) -> dict[str, str]:
    return {"Cookie": f"kr_player={cookie}"}


def another_device(made_on: AppProcess, used_on: AppProcess, cookie: str) -> tuple[str, int]:
    """A device link made through one process and used through the other: the new
    device's cookie and id."""
    made = httpx.post(f"{made_on.base_url}/api/me/links", json={}, headers=as_browser(cookie))
    used = httpx.post(f"{used_on.base_url}{made.json()['url']}")
    assert used.status_code == 303, used.text
    device = used.cookies["kr_player"]
    listed = httpx.get(f"{used_on.base_url}/api/me/devices", headers=as_browser(device))
    (this,) = [d["id"] for d in listed.json()["devices"] if d["this_device"]]
    return device, this


def test_a_device_signed_out_through_one_process_is_cut_off_on_the_other(
    scaled: tuple[list[AppProcess], Nginx],
) -> None:
    (a, b), _proxy = scaled
    room_id = create_room(a.base_url, rounds=1, first=0)
    _, ada = join(a.base_url, room_id, "Ada")
    join(a.base_url, room_id, "Bo")
    phone, phone_id = another_device(a, b, ada)
    tablet, _ = another_device(a, b, ada)
    hand, pad, desk = (Client(b.base_url, room_id, c).open() for c in (phone, tablet, ada))
    assert hand.state["seat"] == pad.state["seat"] == desk.state["seat"] == 0

    signed_out = httpx.delete(f"{a.base_url}/api/me/devices/{phone_id}", headers=as_browser(ada))
    assert signed_out.status_code == 204
    with pytest.raises(ConnectionClosed):
        hand.until(lambda: False, SECONDS, "process b closes the phone's socket")
    assert hand.closed == CLOSE_SIGNED_OUT

    everywhere = httpx.post(f"{a.base_url}/api/me/sign-out-all", headers=as_browser(ada))
    assert everywhere.status_code == 204
    with pytest.raises(ConnectionClosed):
        pad.until(lambda: False, SECONDS, "process b closes the tablet's socket")
    assert pad.closed == CLOSE_SIGNED_OUT
    # The browser that asked keeps its socket on b, and plays on.
    version = desk.state["version"]
    desk.act(desk.state["legal_actions"][0])
    desk.until(lambda: desk.at(1, version + 1), SECONDS, "Ada's move on b")
    assert not (hand.errors or pad.errors or desk.errors)


def _backdate(app: AppProcess, room_id: str) -> None:
    url = make_url(app.env["DATABASE_URL"]).set(drivername="postgresql")
    with psycopg.connect(url.render_as_string(hide_password=False), autocommit=True) as db:
        db.execute(
            "UPDATE rooms SET last_active_at = now() - interval '1 day' WHERE id = %s",
            (room_id,),
        )


@pytest.fixture
def scaled_quick(
    tmp_path: Path,
    fresh_database: str,  # noqa: F811
) -> Iterator[tuple[list[AppProcess], Nginx]]:
    """Two processes whose computer answers at once and offers a takeover after 1 s."""
    with behind_nginx(
        tmp_path,
        fresh_database,
        MESSAGES_PER_SECOND="1000",
        BOT_MOVE_DELAY_SECONDS="0",
        TAKEOVER_SECONDS="1",
    ) as scaled:
        yield scaled


def test_the_computer_takes_an_absent_seat_across_two_processes(
    scaled_quick: tuple[list[AppProcess], Nginx],
) -> None:
    (a, b), _proxy = scaled_quick
    room_id = create_room(a.base_url, rounds=1)
    _, ada = join(a.base_url, room_id, "Ada")
    _, bo = join(b.base_url, room_id, "Bo")
    player0 = Client(a.base_url, room_id, ada).open()
    player1 = Client(b.base_url, room_id, bo).open()
    player0.until(lambda: player0.connected(1), SECONDS, "Bo online")
    if player0.state["to_move"] == 1:
        play_moves(player1, [player0], 2, random.Random(15))
    # Ada (on a) is to move and leaves; Bo (on b) hears of it over Redis, then the offer.
    player0.close()
    player1.until(
        lambda: bool(player1.takeover and player1.takeover["seat"] == 0), SECONDS, "the offer"
    )
    version = player1.state["version"]
    player1.send({"type": "takeover", "choice": "computer", "level": "easy"})
    player1.until(lambda: player1.state["to_move"] == 1, SECONDS, "the computer played Ada's turn")
    assert player1.state["version"] == version + 2
    assert player1.state["last_action"]["computer"] is True
    assert player1.state["players"][0]["computer"] == "easy"
    # Ada comes back through a and takes her seat back; Bo (on b) sees it.
    player0 = Client(a.base_url, room_id, ada).open()
    player1.until(
        lambda: player1.presence[0]["computer"] is None, SECONDS, "Ada took her seat back"
    )
    assert not (player0.errors or player1.errors)


@pytest.fixture
def scaled_days(
    tmp_path: Path,
    fresh_database: str,  # noqa: F811
) -> Iterator[tuple[list[AppProcess], Path]]:
    """Two processes on one clock, moved on by the seconds in the file; they look for run-out
    turns five times a second."""
    clock = tmp_path / "seconds-ahead"
    clock.write_text("0")
    with behind_nginx(
        tmp_path,
        fresh_database,
        MESSAGES_PER_SECOND="1000",
        TEST_CLOCK_FILE=str(clock),
        TURN_CHECK_SECONDS="0.2",
    ) as (apps, _proxy):
        yield apps, clock


def turns(apps: list[AppProcess], room_id: str) -> list[dict[str, Any] | None]:
    """The room's current turn as each process counts it: seat, since and deadline."""
    return [httpx.get(f"{app.base_url}/api/rooms/{room_id}").json()["turn"] for app in apps]


def test_a_turns_time_runs_alike_on_both_processes_after_a_start_or_a_wait_on_either(
    scaled_days: tuple[list[AppProcess], Path],
) -> None:
    """The match started by a seat taken on b, and a choice to keep waiting made on a: each
    process counts the same time per move, so each offers and withdraws alike."""
    apps, clock = scaled_days
    a, b = apps
    body = {"game": "expeditionen", "preset": "short", "turn_based": True, "move_days": 1}
    room_id = httpx.post(f"{a.base_url}/api/rooms", json=body).json()["room_id"]
    cookies = [join(app.base_url, room_id, name)[1] for app, name in ((a, "Ada"), (b, "Bo"))]
    wait_for(lambda: turns(apps, room_id)[0] is not None, SECONDS, "a heard of the start")
    started, turn_on_b = turns(apps, room_id)
    assert started is not None and started == turn_on_b
    absent = started["seat"]
    # The other player has a page on each process; the absent one's day runs out.
    pages = [Client(app.base_url, room_id, cookies[1 - absent]).open() for app in apps]
    clock.write_text(str(2 * 86_400))
    for page in pages:
        page.until(lambda p=page: bool(p.takeover and p.takeover["seat"] == absent), 5, "offer")
    pages[0].send({"type": "takeover", "choice": "wait"})
    for page in pages:
        page.until(lambda p=page: (p.takeover or {}).get("seat", 0) is None, 5, "no offer")
    # Each process's state says its own clock's now; the room's turn has none.
    waited = {**pages[0].state["turn"], "now": None}
    assert waited["deadline"] > started["deadline"]
    assert {**pages[1].state["turn"], "now": None} == waited
    assert turns(apps, room_id) == [waited, waited]


def test_redis_replies_are_parsed_by_hiredis() -> None:
    """Every message between processes passes redis-py's parser; hiredis's, in C, costs less
    CPU than its Python one (bench/relay.py)."""
    assert DefaultParser.__name__ == "_AsyncHiredisParser"
