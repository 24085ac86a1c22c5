"""The installable web app and Web Push in a browser: every page registers the service
worker; ticking "notify me ... with the tab closed" stores this device's subscription on the
server; without a connection the service worker shows the offline page. (What is pushed,
and when, is tested against a real Web Push endpoint in tests/app/test_push.py.)"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import Errors, open_page, screenshot, serve, wait_until
from tests.browser.layout import SIZES
from tests.browser.players import create_room, join_by_link
from tests.push_service import Device, PushService, push_service

# Headless Chromium has no push service: PushManager.prototype.subscribe is replaced by one
# that answers a subscription to the loopback endpoint of tests/push_service.py, with the
# P-256 key and auth secret the test made (so the server's real Web Push request to it is
# checked and decrypted there). Everything else (the service worker, the permission, the
# page's code, the server) is the real thing.
FAKE_PUSH = """
(() => {
  const made = %s;
  let current = null;
  const subscription = {
    endpoint: made.endpoint,
    expirationTime: null,
    toJSON() { return { endpoint: made.endpoint, expirationTime: null, keys: made.keys }; },
    unsubscribe() { current = null; return Promise.resolve(true); },
  };
  PushManager.prototype.subscribe = function () {
    current = subscription;
    return Promise.resolve(current);
  };
  PushManager.prototype.getSubscription = function () { return Promise.resolve(current); };
})();
"""


@pytest.fixture(scope="module")
def browser(notifying_browser: Browser) -> Browser:
    """Chromium itself: push needs the notification permission (tests/browser/conftest.py)."""
    return notifying_browser


@pytest.fixture(scope="module")
def service() -> Iterator[PushService]:
    with push_service() as running:
        yield running


@pytest.fixture(scope="module")
def server(
    tmp_path_factory: pytest.TempPathFactory, service: PushService
) -> Iterator[tuple[str, Path]]:
    """The server, which may send to the loopback push service (tests only)."""
    folder = tmp_path_factory.mktemp("push-server")
    with serve(folder, PUSH_TEST_ORIGINS=json.dumps([service.origin])) as url:
        yield url, folder / "kartenrunde.db"


def person(browser: Browser, url: str, device: Device | None = None, **options: object) -> Page:
    page = open_page(browser, url, [], Errors(), **options)  # type: ignore[arg-type]
    if device is not None:
        page.context.grant_permissions(["notifications"])
        made = {"endpoint": device.endpoint, "keys": device.subscription()["keys"]}
        page.add_init_script(FAKE_PUSH % json.dumps(made))
    return page


def stored_endpoints(database: Path) -> list[str]:
    with sqlite3.connect(database) as connection:
        return [row[0] for row in connection.execute("SELECT endpoint FROM push_subscriptions")]


def test_every_page_registers_the_service_worker(
    browser: Browser, server: tuple[str, Path]
) -> None:
    url, _ = server
    page = person(browser, url)
    page.goto("/")
    scope = page.evaluate("navigator.serviceWorker.ready.then((r) => r.scope)")
    assert scope == f"{url}/"
    manifest = page.evaluate(
        "fetch(document.querySelector('link[rel=manifest]').href).then((r) => r.json())"
    )
    assert manifest["name"] == "Kartenrunde"
    page.context.close()


def test_opting_in_stores_this_devices_subscription_on_the_server(
    browser: Browser, server: tuple[str, Path], service: PushService
) -> None:
    url, database = server
    phone = service.device()
    anna = person(browser, url, phone)
    ben = person(browser, url)
    link = create_room(anna, "expeditionen", "Anna", preset="short")
    join_by_link(ben, link, "Ben")
    anna.evaluate("navigator.serviceWorker.ready")
    anna.click("#settings-button")
    anna.check("#pref-push")
    expect(anna.locator("#pref-push[data-done='true']")).to_be_attached()
    assert stored_endpoints(database) == [phone.endpoint]
    for theme in ("light", "dark"):
        anna.emulate_media(color_scheme=theme)
        screenshot(anna, f"push-opt-in-{theme}")
    anna.context.close()
    ben.context.close()


def test_a_player_turns_notifications_on_and_off_for_this_device_on_the_you_page(
    browser: Browser, server: tuple[str, Path], service: PushService
) -> None:
    url, database = server
    phone = service.device()
    anna = person(browser, url, phone, viewport=SIZES["phone"], touch=True)
    create_room(anna, "expeditionen", "Anna", preset="short")
    anna.goto("/me")
    anna.wait_for_selector("body[data-ready]")
    anna.check("#pref-push")
    expect(anna.locator("#pref-push[data-done='true']")).to_be_attached()
    assert phone.endpoint in stored_endpoints(database)
    screenshot(anna, "me-push-phone")
    anna.uncheck("#pref-push")
    expect(anna.locator("#pref-push[data-done='false']")).to_be_attached()
    assert phone.endpoint not in stored_endpoints(database)
    anna.context.close()


def test_without_a_connection_the_offline_page_is_shown(
    browser: Browser, server: tuple[str, Path]
) -> None:
    url, _ = server
    page = person(browser, url, locale="de-DE")
    page.goto("/")
    page.evaluate("navigator.serviceWorker.ready")
    page.reload()  # now controlled by the service worker
    wait_until(page, "() => navigator.serviceWorker.controller !== null")
    page.context.set_offline(True)
    page.goto("/history")
    expect(page.locator("h1")).to_have_text("Keine Verbindung")
    page.context.set_offline(False)
    for theme in ("light", "dark"):
        page.emulate_media(color_scheme=theme)
        screenshot(page, f"offline-{theme}")
    page.context.close()
