"""The push sender as an attacker aims it (issue 51): a subscription's endpoint is a URL a
client gives us and the server then posts to, so only a known push service's https URL is
stored.

The tests' push services on loopback (tests/push_service.py) are exempt through
``PUSH_TEST_ORIGINS``, as the other push tests' are; everything else meets the rules."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric import ec
from fastapi.testclient import TestClient

from app.main import create_app
from app.services.push import Notifier
from app.settings import Settings
from app.storage.db import AT_HEAD
from tests.app.tables import Table
from tests.push_service import Device
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
    ("https://fcm.googleapis.com/x\x00", "holds '\\x00'"),
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
