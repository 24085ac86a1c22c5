"""The push sender as an attacker aims it (issue 51): a subscription's endpoint is a URL a
client gives us and the server then posts to, so only a known push service's https URL is
stored, no address off the public internet is ever connected to (DNS rebinding included),
no redirect is followed, every request has its deadline, and one player's or one push
service's stalled deliveries delay nobody else's notices.

The tests' push services on loopback (tests/push_service.py) are exempt through
``PUSH_TEST_ORIGINS``, as the other push tests' are; everything else meets the rules."""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import shutil
import socket
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from multiprocessing.queues import Queue
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from aiohttp.abc import AbstractResolver, ResolveResult
from cryptography.hazmat.primitives.asymmetric import ec
from fastapi.testclient import TestClient

from app.main import create_app
from app.people.push import (
    PLAYER_IN_FLIGHT,
    PUSH_DROPPED,
    PUSH_FAILED,
    PUSH_SENT,
    SERVICE_IN_FLIGHT,
    Notice,
    Notifier,
    new_vapid_key,
    subscription_row,
)
from app.people.push_sender import (
    AT_ONCE,
    PER_PLAYER,
    PER_SERVICE,
    Delivery,
    GuardedResolver,
    Outcome,
    RefusedAddress,
    Sender,
    Slots,
    Terms,
)
from app.push_guard import PushEndpoints, RefusedEndpoint, is_public
from app.settings import Settings
from app.storage.db import AT_HEAD
from app.storage.push import DEVICES_PER_PLAYER
from tests.app.tables import Table
from tests.push_service import Answer, Device, PushService, push_service
from tests.server import migrated_sqlite

# Subscribing


@dataclass
class Site:
    """A running server and a seated player's cookie."""

    table: Table
    cookie: str

    def subscribe(self, endpoint: str) -> dict[str, object]:
        """The status of subscribing a device at ``endpoint``, and the answer's JSON."""
        device = Device(endpoint, ec.generate_private_key(ec.SECP256R1()), os.urandom(16))
        self.table.client.cookies.set("kr_player", self.cookie)
        response = self.table.client.post("/api/push/subscriptions", json=device.subscription())
        self.table.client.cookies.clear()
        return {"status": response.status_code, **(response.json() if response.content else {})}

    def stored(self) -> set[str]:
        push: Notifier = self.table.app.state.notifier
        player = self.table.player_id(self.cookie)
        return {row.endpoint for row in push.store.subscriptions(player)}


def settings_for(folder: Path, **values: object) -> Settings:
    """Settings as tests/conftest.py's, on a copy of the migrated SQLite file in ``folder``."""
    path = folder / "kartenrunde.db"
    shutil.copyfile(migrated_sqlite(), path)
    url = f"sqlite:///{path}"
    AT_HEAD.add(url)
    return Settings(
        _env_file=None,  # type: ignore[call-arg]
        database_url=url,
        secret_key="test-secret-" + "k" * 32,
        log_format="text",
        analysis_ahead=False,
        **values,  # type: ignore[arg-type]
    )


@pytest.fixture(scope="module", params=["development", "production"])
def site(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Site]:
    """One server per environment for the module's subscribing tests (a start each costs
    more than all their requests)."""
    settings = settings_for(tmp_path_factory.mktemp("site"), environment=request.param)
    with TestClient(create_app(settings)) as client:
        table = Table(client)
        _room_id, (cookie, _bo) = table.seated_room("expeditionen", preset="short")
        yield Site(table, cookie)


REFUSED = [
    ("https://127.0.0.1:8443/x", "not a host name"),
    ("https://[::1]/x", "not a host name"),
    ("https://[::ffff:127.0.0.1]/x", "not a host name"),
    ("https://169.254.169.254/latest/meta-data", "not a host name"),
    ("https://10.0.0.1/x", "not a host name"),
    ("https://192.168.1.1/x", "not a host name"),
    ("https://localhost/x", "not a host name"),
    ("https://2130706433/x", "not a host name"),
    ("https://0x7f.1/x", "not a host name"),
    ("https://0177.0.0.1/x", "not a host name"),
    ("https://127.1/x", "not a host name"),
    ("https://fcm.googleapis.com./x", "not a host name"),
    ("http://fcm.googleapis.com/x", "not https"),
    ("https://fcm.googleapis.com:8443/x", "port"),
    ("https://user@fcm.googleapis.com/x", "user name or password"),
    ("https://@fcm.googleapis.com/x", "user name or password"),
    ("https://evil.example/x", "not a known push service"),
    ("https://fcm.googleapis.com.evil.example/x", "not a known push service"),
    ("https://evil-notify.windows.com.example/x", "not a known push service"),
    ("https://push.apple.com/x", "not a known push service"),
    ("https://fcm.googleapis.com/x\x00", "a NUL character"),  # at the edge (app/edge.py)
    ("https://fcm.googleapis.com/x\x7f", "holds '\\x7f'"),
    ("https://fcm.googleapis.com\\@evil.example/x", "holds '\\\\'"),
    ("https://fcm.googleapis.com/" + "a" * 1000, ""),
]


@pytest.mark.parametrize(("endpoint", "why"), REFUSED, ids=[repr(e[:50]) for e, _ in REFUSED])
def test_a_subscription_to_anything_but_a_known_push_service_is_refused(
    site: Site, endpoint: str, why: str
) -> None:
    answer = site.subscribe(endpoint)
    assert answer["status"] == 422, answer
    detail = answer["detail"]
    assert isinstance(detail, dict) and detail["code"] == "malformed"
    assert why in detail["message"], detail
    assert endpoint not in site.stored()


ACCEPTED = [
    "https://fcm.googleapis.com/fcm/send/cYXi5Sv7rXQ:APA91bGWdP1hBNc0Dk3UuAJ2XbAgJzJ2zd1zq",
    "https://updates.push.services.mozilla.com/wpush/v2/gAAAAABmGaIuRb8bHd0jMX4hWfC",
    "https://wns2-par02p.notify.windows.com/w/?token=BQYAAADCvL6hFVz%2bRCcAg3Xm%2fdQk",
    "https://web.push.apple.com/QGuQyavXutnMH6-8oWrJY9cJ0MIAp4sbX",
]


@pytest.mark.parametrize("endpoint", ACCEPTED, ids=["fcm", "autopush", "wns", "apple"])
def test_an_endpoint_of_each_browsers_push_service_is_accepted(site: Site, endpoint: str) -> None:
    assert site.subscribe(endpoint) == {"status": 204}
    assert endpoint in site.stored()


def test_a_push_service_the_host_adds_is_accepted(tmp_path: Path) -> None:
    widened = ["fcm.googleapis.com", "push.example.org", "*.push.example.net"]
    with TestClient(create_app(settings_for(tmp_path, push_services=widened))) as client:
        table = Table(client)
        _room_id, (cookie, _bo) = table.seated_room("expeditionen", preset="short")
        site = Site(table, cookie)
        for endpoint in ("https://push.example.org/x", "https://eu.push.example.net/x"):
            assert site.subscribe(endpoint) == {"status": 204}
        for endpoint in ("https://push.example.net/x", "https://web.push.apple.com/x"):
            assert site.subscribe(endpoint)["status"] == 422
        assert site.stored() == {"https://push.example.org/x", "https://eu.push.example.net/x"}


# Sending


def running(settings: Settings, *services: PushService, **values: object) -> TestClient:
    """A server that may reach these loopback push services (and no other)."""
    origins = [service.origin for service in services]
    return TestClient(
        create_app(settings.model_copy(update={"push_test_origins": origins, **values}))
    )


def subscribe(table: Table, cookie: str, device: Device) -> None:
    table.client.cookies.set("kr_player", cookie)
    response = table.client.post("/api/push/subscriptions", json=device.subscription())
    table.client.cookies.clear()
    assert response.status_code == 204, response.text


def notify(table: Table, *players: str, within: float = 30) -> None:
    """One notice for each of ``players`` (in this order), and their deliveries' outcomes
    (at most ``within`` seconds)."""
    push: Notifier = table.app.state.notifier
    portal = table.client.portal
    assert portal is not None

    async def notices() -> None:
        for player in players:
            push.notify(player, Notice("Your turn", "a test", "/", "turn"))
        await asyncio.wait_for(push.drain(), within)

    portal.call(notices)


def counted() -> tuple[float, float]:
    return PUSH_SENT._value.get(), PUSH_FAILED._value.get()


def test_a_redirect_from_a_push_service_is_not_followed(settings: Settings) -> None:
    with push_service() as inside, push_service() as redirecting:
        redirecting.otherwise = Answer(307, location=f"{inside.origin}/push/inside")
        with running(settings, redirecting, inside) as client:
            table = Table(client)
            _room_id, (cookie, _bo) = table.seated_room("expeditionen", preset="short")
            subscribe(table, cookie, redirecting.device())
            sent, failed = counted()
            notify(table, table.player_id(cookie))
    assert inside.connections == 0
    assert len(redirecting.requests) == 1  # a redirect is no failure to try again
    assert counted() == (sent, failed + 1)


@pytest.mark.parametrize(
    "stall",
    [Answer(stall=True), Answer(delay=10)],
    ids=["accepted-and-never-answered", "answered-after-the-deadline"],
)
def test_a_stalled_push_service_fails_after_the_timeout(settings: Settings, stall: Answer) -> None:
    with push_service(tls=True) as stalled, push_service() as working:
        stalled.otherwise = stall
        timeout = {"push_timeout_seconds": 1, "push_tries": 1}
        with running(settings, stalled, working, **timeout) as client:
            table = Table(client)
            _room_id, (ada_cookie, bo_cookie) = table.seated_room("expeditionen", preset="short")
            subscribe(table, ada_cookie, stalled.device())
            subscribe(table, bo_cookie, working.device())
            notify(table, table.player_id(bo_cookie))  # the sending process started
            sent, failed = counted()
            started = time.monotonic()
            notify(table, table.player_id(ada_cookie), within=10)
            took = time.monotonic() - started
    assert counted() == (sent, failed + 1)
    assert 1 <= took < 3


STALLED_DEVICES = 10
STALLED_NOTICES = 30  # 300 deliveries: more than the sending slots, and a player may hand over


def test_a_player_with_stalled_push_services_delays_only_their_own_notices(
    settings: Settings,
) -> None:
    with push_service(tls=True) as stalled, push_service() as working:
        stalled.otherwise = Answer(stall=True)
        with running(settings, stalled, working, push_timeout_seconds=3, push_tries=1) as client:
            table = Table(client)
            _room_id, (ada_cookie, bo_cookie) = table.seated_room("expeditionen", preset="short")
            for _ in range(STALLED_DEVICES):
                subscribe(table, ada_cookie, stalled.device())
            subscribe(table, bo_cookie, working.device())
            ada, bo = table.player_id(ada_cookie), table.player_id(bo_cookie)
            notify(table, bo)  # the sending process started, and warm
            portal = table.client.portal
            assert portal is not None
            push: Notifier = table.app.state.notifier

            async def ada_then_bo() -> None:
                for _ in range(STALLED_NOTICES):
                    push.notify(ada, Notice("Your turn", "a test", "/", "turn"))
                push.notify(bo, Notice("Your turn", "a test", "/", "turn"))

            started = time.monotonic()
            portal.call(ada_then_bo)
            working.wait_for(2, timeout=1)  # a third of a stalled request's deadline
            took = time.monotonic() - started
            stalled.closing.set()  # Ada's requests end now, not at their deadline
    assert took < 1
    assert stalled.connections > 0  # Ada's devices were tried


# The sending process's own checks, in this process


class FixedDns(AbstractResolver):
    """A DNS of the test's own: ``answers`` for each name, on ``port`` (none of the
    tests' services may listen on 443). Answering loopback for a name that passed the
    checks is what DNS rebinding does."""

    def __init__(self, answers: dict[str, list[str]], port: int = 443) -> None:
        self.answers = answers
        self.port = port
        self.asked: list[str] = []

    async def resolve(
        self, host: str, port: int = 0, family: socket.AddressFamily = socket.AF_INET
    ) -> list[ResolveResult]:
        self.asked.append(host)
        return [
            {
                "hostname": host,
                "host": address,
                "port": self.port,
                "family": socket.AF_INET6 if ":" in address else socket.AF_INET,
                "proto": 0,
                "flags": socket.AI_NUMERICHOST,
            }
            for address in self.answers[host]
        ]

    async def close(self) -> None:
        pass


def terms(**endpoints: object) -> Terms:
    return Terms(
        vapid_pem=new_vapid_key()[0].encode(),
        contact="mailto:tests@example.org",
        tries=1,
        retry_seconds=0,
        timeout_seconds=5,
        ttl_seconds=60,
        endpoints=PushEndpoints(**endpoints),  # type: ignore[arg-type]
    )


def outcome_of(terms: Terms, endpoint: str, dns: AbstractResolver) -> Outcome:
    """What a sender (the sending process's loop, here in this process) tells of one
    delivery of a device of a test's push service to ``endpoint``."""
    keys = Device("", ec.generate_private_key(ec.SECP256R1()), os.urandom(16)).subscription()
    delivery = Delivery(1, "ada", endpoint, keys["keys"]["p256dh"], keys["keys"]["auth"], b"{}")
    jobs: Queue[Delivery | None] = multiprocessing.Queue()
    jobs.put(delivery)
    jobs.put(None)
    heard, told = multiprocessing.Pipe(duplex=False)
    asyncio.run(Sender(terms, told, dns).run(jobs))
    outcome: Outcome = heard.recv()
    return outcome


def test_a_push_service_name_that_resolves_to_loopback_is_refused_at_connect_time() -> None:
    with push_service(tls=True) as inside:
        endpoint = "https://push.attacker.example" + urlsplit(inside.device().endpoint).path
        dns = FixedDns({"push.attacker.example": ["::1", "127.0.0.1"]}, inside.port)
        exempt = terms(test_origins=frozenset({"https://push.attacker.example:443"}))
        outcome_of(exempt, endpoint, dns)  # this DNS does lead to the service
        assert inside.connections == 1
        allowed = terms(services=("push.attacker.example",))
        outcome = outcome_of(allowed, endpoint, dns)
    assert (outcome.result, outcome.failure) == (
        "failed",
        "refused address: push.attacker.example has no public address",
    )
    assert inside.connections == 1  # the refused delivery reached nothing


def test_a_stored_subscription_outside_a_narrowed_allow_list_is_not_sent() -> None:
    dns = FixedDns({"fcm.googleapis.com": ["142.250.185.10"]})
    outcome = outcome_of(
        terms(services=("web.push.apple.com",)), "https://fcm.googleapis.com/x", dns
    )
    assert (outcome.result, outcome.failure) == (
        "failed",
        "endpoint: not a known push service (PUSH_SERVICES)",
    )
    assert dns.asked == []


def test_the_guarded_resolver_keeps_only_public_addresses() -> None:
    dns = FixedDns(
        {
            "mixed.example.org": ["10.0.0.1", "93.184.215.14", "::1", "2606:2800:21f::1"],
            "inside.example.org": ["127.0.0.1", "::ffff:10.0.0.1", "fe80::1%2"],
        }
    )
    test = PushEndpoints(test_origins=frozenset({"https://inside.example.org:443"}))
    guarded = GuardedResolver(PushEndpoints(), dns)

    async def hosts(resolver: AbstractResolver, name: str) -> list[str]:
        return [address["host"] for address in await resolver.resolve(name, 443)]

    assert asyncio.run(hosts(guarded, "mixed.example.org")) == ["93.184.215.14", "2606:2800:21f::1"]
    with pytest.raises(RefusedAddress, match="^refused address"):
        asyncio.run(hosts(guarded, "inside.example.org"))
    assert len(asyncio.run(hosts(GuardedResolver(test, dns), "inside.example.org"))) == 3


REFUSED_ADDRESSES = [
    *("127.0.0.1", "127.255.255.254", "10.1.2.3", "172.16.0.1", "192.168.1.1"),
    *("169.254.169.254", "100.64.0.1", "100.127.255.254", "0.0.0.0", "224.0.0.1"),
    *("239.255.255.250", "240.0.0.1", "255.255.255.255", "192.0.2.1", "198.18.0.1"),
    *("::1", "::", "fe80::1", "fe80::1%2", "fc00::1", "fd12:3456::1", "ff02::1"),
    *("::ffff:127.0.0.1", "::ffff:10.0.0.1", "::ffff:169.254.169.254", "::ffff:100.64.0.1"),
    *("64:ff9b::7f00:1", "64:ff9b::a9fe:a9fe", "2002:7f00:1::1", "2002:c0a8:101::1"),
    *("::127.0.0.1", "64:ff9b:1::1", "2001:db8::1", "2001::1", "localhost", "", "1.2.3"),
]


@pytest.mark.parametrize("address", REFUSED_ADDRESSES)
def test_an_address_off_the_public_internet_is_refused(address: str) -> None:
    assert not is_public(address)


PUBLIC_ADDRESSES = [
    *("8.8.8.8", "1.1.1.1", "142.250.185.10", "17.253.144.10"),
    *("2606:4700:4700::1111", "2a00:1450:4001:82b::200a"),
    *("::ffff:8.8.8.8", "64:ff9b::808:808", "2002:808:808::1"),
]


@pytest.mark.parametrize("address", PUBLIC_ADDRESSES)
def test_a_public_address_may_be_connected_to(address: str) -> None:
    assert is_public(address)


def test_only_a_test_origin_itself_is_exempt() -> None:
    endpoints = PushEndpoints(test_origins=frozenset({"http://127.0.0.1:8080"}))
    assert str(endpoints.checked("http://127.0.0.1:8080/push/a")) == "http://127.0.0.1:8080/push/a"
    for other in (
        "https://127.0.0.1:8080/push/a",
        "http://127.0.0.1:8081/push/a",
        "http://localhost:8080/push/a",
        "http://u@127.0.0.1:8080/push/a",
        "http://127.0.0.1/push/a",
    ):
        with pytest.raises(RefusedEndpoint):
            endpoints.checked(other)


# Slots: what one player or one push service holds


def delivery(number: int, player: str, service: str = "https://fcm.googleapis.com") -> Delivery:
    return Delivery(number, player, f"{service}/{number}", "", "", b"")


def test_a_player_over_their_share_waits_while_another_players_delivery_goes() -> None:
    slots = Slots()
    for number in range(PER_PLAYER + 5):
        slots.wait(delivery(number, "ada"))
    slots.wait(delivery(99, "bo"))
    going = slots.ready()
    assert [d.number for d in going] == [0, 99, *range(1, PER_PLAYER)]
    assert slots.ready() == []
    slots.done(going[0])
    assert [d.number for d in slots.ready()] == [PER_PLAYER]


def test_a_stalled_push_service_holds_at_most_its_share_of_the_slots() -> None:
    slots = Slots()
    for number in range(AT_ONCE):
        slots.wait(delivery(number, f"player-{number}", "https://stalled.example.org"))
    slots.wait(delivery(99, "bo", "https://web.push.apple.com"))
    going = slots.ready()
    assert len(going) == PER_SERVICE + 1
    assert going[-1].number == 99


def test_the_players_lines_take_turns_when_every_slot_is_taken() -> None:
    slots = Slots()
    for player in range(10):
        for number in range(PER_PLAYER):
            slots.wait(delivery(number, f"player-{player}", f"https://s{player}.example.org"))
    going = slots.ready()
    per_player = Counter(d.player for d in going)
    assert len(going) == AT_ONCE
    assert max(per_player.values()) - min(per_player.values()) <= 1


# The handover to the sending process


class Recorder:
    """A sending process that takes every delivery and answers none: each stalls."""

    def __init__(self) -> None:
        self.deliveries: list[Delivery] = []

    def send(self, delivery: Delivery) -> None:
        self.deliveries.append(delivery)

    async def stop(self) -> None:
        pass


def test_a_player_or_push_service_with_too_many_unanswered_deliveries_holds_up_no_other(
    table: Table,
) -> None:
    push: Notifier = table.app.state.notifier
    recorder = Recorder()
    push.sender = recorder  # type: ignore[assignment]
    stalled, busy, other = (f"https://{name}.push.apple.com" for name in ("a", "b", "c"))
    devices = {"ada": (stalled, DEVICES_PER_PLAYER), "bo": (stalled, 1), "dora": (other, 1)}
    crowd = [f"crowd-{n}" for n in range(SERVICE_IN_FLIGHT // PLAYER_IN_FLIGHT + 1)]
    devices |= {player: (busy, DEVICES_PER_PLAYER) for player in crowd}
    for player, (service, count) in devices.items():
        for device in range(count):
            row = subscription_row(player, None, f"{service}/{player}/{device}", "k", "a", "en")
            push.store.subscribe(row)
    # Each just under the player's cap; together over the push service's.
    notices = PLAYER_IN_FLIGHT // DEVICES_PER_PLAYER
    order = ["ada"] * (notices + 1) + ["bo"] + crowd * notices + ["dora"]
    portal = table.client.portal
    assert portal is not None
    dropped = PUSH_DROPPED._value.get()

    async def notify_all() -> None:
        for player in order:
            push.notify(player, Notice("Your turn", "a test", "/", "turn"))
        await push.queue.join()

    portal.call(notify_all)
    handed = Counter(d.player for d in recorder.deliveries)
    services = Counter(d.service for d in recorder.deliveries)
    assert handed["ada"] == PLAYER_IN_FLIGHT
    assert handed["bo"] == handed["dora"] == 1
    assert services[busy] == SERVICE_IN_FLIGHT
    more = (notices + 1) * DEVICES_PER_PLAYER - PLAYER_IN_FLIGHT
    more += len(crowd) * notices * DEVICES_PER_PLAYER - SERVICE_IN_FLIGHT
    assert PUSH_DROPPED._value.get() == dropped + more
