"""A turn-based Expeditionen match over two simulated days, the way friends play remotely:
Anna starts on her laptop and finishes on her phone (signed in by the "another device"
link), Ben gets "your turn" pushed while no page of his is open, the idle sweep leaves the
room alone, and a move's time running out offers Anna the three choices. The server's
clock runs ahead through TEST_CLOCK_FILE; nobody waits."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.browser.conftest import SCREENSHOTS, Errors, open_page, serve
from tests.browser.layout import SIZES
from tests.browser.players import act_and_wait, is_my_turn, join_by_link, wait_for_state
from tests.browser.test_push import FAKE_PUSH
from tests.push_service import Device, PushService, push_service

DAY = 86_400
HAND = "#board button.card[data-testid^='hand-']"


@pytest.fixture(scope="module")
def clock_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("clock") / "seconds-ahead"
    path.write_text("0")
    return path


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, clock_file: Path) -> Iterator[str]:
    """Sweeps for idle rooms and run-out turns five times a second."""
    with serve(
        tmp_path_factory.mktemp("two-days"),
        TEST_CLOCK_FILE=str(clock_file),
        TURN_CHECK_SECONDS="0.2",
        IDLE_CHECK_SECONDS="0.2",
    ) as url:
        yield url


@pytest.fixture(scope="module")
def service() -> Iterator[PushService]:
    with push_service() as running:
        yield running


def with_push(page: Page, device: Device) -> Page:
    page.context.grant_permissions(["notifications"])
    made = {"endpoint": device.endpoint, "keys": device.subscription()["keys"]}
    page.add_init_script(FAKE_PUSH % json.dumps(made))
    return page


def create_room(page: Page) -> str:
    """Anna's turn-based Expeditionen room, the short variant, three days a move."""
    page.goto("/")
    page.wait_for_selector("body[data-ready]")
    page.locator("label[for='game-expeditionen']").click()
    page.locator("input[name='preset'][value='short'] + span").click()
    page.locator("input[name='opponent'][value='turn'] + span").click()
    page.select_option("#move-days", label="3 days")
    page.fill("#player-name", "Anna")
    page.click("#create-room")
    page.wait_for_url("**/r/**")
    wait_for_state(page)
    return page.url


def turn(page: Page) -> None:
    """One whole turn: a card played (or discarded), then a card drawn from the deck."""
    playable = page.locator(f"{HAND}.is-playable")
    card = playable.first if playable.count() else page.locator(HAND).first
    kind = "play" if playable.count() else "discard"
    card.click()
    act_and_wait(page, page.get_by_test_id(kind).click)
    act_and_wait(page, page.get_by_test_id("draw-deck").click)


def over(page: Page) -> bool:
    return page.locator("#end").is_visible()


def room_status(url: str, room_id: str) -> str:
    room = httpx.get(f"{url}/api/rooms/{room_id}").json()
    status: str = room["status"]
    return status


def pushed(service: PushService, device: Device, count: int) -> list[str]:
    deadline = time.monotonic() + 10
    while len(service.received(device)) < count and time.monotonic() < deadline:
        time.sleep(0.05)
    return [notice["title"] for notice in service.received(device)]


def test_a_turn_based_match_over_two_days_on_a_laptop_a_phone_and_with_pushes(
    browser: Browser, server: str, service: PushService, clock_file: Path
) -> None:
    errors = Errors()
    contexts: list[BrowserContext] = []
    laptop = open_page(browser, server, contexts, errors, viewport=SIZES["laptop"], motion=False)
    ben = open_page(browser, server, contexts, errors, motion=False)
    bens_phone = service.device()
    with_push(ben, bens_phone)
    url = create_room(laptop)
    room_path = "/r/" + url.rsplit("/r/", 1)[1]
    room_id = room_path.removeprefix("/r/")
    join_by_link(ben, url, "Ben")
    ben.evaluate("navigator.serviceWorker.ready")
    ben.click("#settings-button")
    ben.check("#pref-push")
    expect(ben.locator("#pref-push[data-done='true']")).to_be_attached()
    ben.keyboard.press("Escape")

    # Day 1, evening: whoever starts plays; then Ben leaves, and Anna's turn ends his wait.
    if is_my_turn(ben):
        turn(ben)
        wait_for_state(laptop)
    ben.goto("about:blank")  # no page of Ben's is open
    seen = len(service.received(bens_phone))
    laptop.wait_for_selector("#banner.is-mine")
    turn(laptop)
    assert pushed(service, bens_phone, seen + 1)[seen:] == ["Your turn"]

    # Anna takes her seat to her phone with the link from "You".
    laptop.goto(f"/me?next={room_path}")
    laptop.wait_for_selector("body[data-ready]")
    laptop.click("#make-link")
    expect(laptop.locator("#link-qr svg")).to_be_visible()
    link = laptop.locator("#link-url").inner_text()
    phone = open_page(browser, server, contexts, errors, viewport=SIZES["phone"], touch=True)
    phone.clock.install()  # the table counts the time left with the browser's clock
    phone.goto(link)
    phone.get_by_role("button", name="Sign in").click()
    phone.wait_for_url(f"**{room_path}")
    wait_for_state(phone)
    laptop.goto("about:blank")

    # Day 2: far longer than a live room may be idle; the turn-based one stays open.
    clock_file.write_text(str(DAY))
    phone.clock.fast_forward(DAY * 1000)
    time.sleep(1)  # several sweeps
    assert room_status(server, room_id) == "playing"

    # Ben's three days run out (day 5): Anna is offered the three choices and waits.
    clock_file.write_text(str(5 * DAY))
    phone.clock.fast_forward(4 * DAY * 1000)
    offer = phone.get_by_test_id("takeover")
    expect(offer).to_contain_text("Ben's time for this move ran out.", timeout=10_000)
    expect(phone.get_by_test_id("turn-clock")).to_contain_text("Ben's time ran out")
    for choice in ("Let the computer play for Ben", "Keep waiting", "End the match"):
        expect(offer.get_by_role("button", name=choice)).to_be_visible()
    phone.screenshot(path=SCREENSHOTS / "two-days-offer-phone.png")
    offer.get_by_role("button", name="Keep waiting").click()
    expect(offer).to_have_count(0)

    # Ben comes back, and the two play the match to its end, Anna on her phone.
    ben.goto(room_path)
    wait_for_state(ben)
    for _ in range(200):
        if over(phone):
            break
        mover = phone if is_my_turn(phone) else ben
        turn(mover)
        (ben if mover is phone else phone).wait_for_selector(
            f"#board[data-version='{mover.locator('#board').get_attribute('data-version')}']"
        )
    expect(phone.locator("#end")).to_be_visible()
    expect(ben.locator("#end")).to_be_visible()
    phone.screenshot(path=SCREENSHOTS / "two-days-end-phone.png")
    for context in contexts:
        context.close()
    assert errors.seen == []
