"""A player takes their seat to another device: the link from "You" signs a phone in as the
same player, and both devices play the same seat."""

from __future__ import annotations

from playwright.sync_api import Dialog, Page, expect

from tests.browser.conftest import NewPage, screenshot
from tests.browser.layout import SIZES
from tests.browser.players import act_and_wait, create_room, wait_for_state


def cards_in_play(page: Page) -> list[str]:
    return page.locator("#board [data-testid^='take-']").evaluate_all(
        "els => els.map(e => e.dataset.testid)"
    )


def test_a_phone_signed_in_by_link_plays_the_same_seat(new_page: NewPage) -> None:
    desk = new_page(viewport=SIZES["laptop"])
    room = create_room(desk, "scoundrel", "Anna")
    act_and_wait(desk, desk.locator("#board [data-testid^='take-']").first.click)
    room_path = "/r/" + room.rsplit("/r/", 1)[1]
    desk.goto(f"/me?next={room_path}")
    desk.wait_for_selector("body[data-ready]")
    desk.click("#make-link")
    expect(desk.locator("#link-qr svg")).to_be_visible()
    link = desk.locator("#link-url").inner_text()
    for scheme in ("light", "dark"):
        desk.emulate_media(color_scheme=scheme)
        screenshot(desk, f"me-link-{scheme}")

    phone = new_page(viewport=SIZES["phone"], touch=True)
    phone.goto(link)
    for scheme in ("dark", "light"):
        phone.emulate_media(color_scheme=scheme)
        screenshot(phone, f"signin-{scheme}")
    phone.get_by_role("button", name="Sign in").click()
    phone.wait_for_url(f"**{room_path}")
    wait_for_state(phone)
    desk.goto(room_path)
    wait_for_state(desk)
    assert cards_in_play(phone) == cards_in_play(desk) != []
    act_and_wait(phone, phone.locator("#board [data-testid^='take-']").first.click, (desk,))
    # Issue 53: a second device's home form left "Your name" empty.
    phone.goto("/")
    phone.wait_for_selector("body[data-ready]")
    expect(phone.locator("#player-name")).to_have_value("Anna")

    phone.goto("/me")
    phone.wait_for_selector("body[data-ready]")
    devices = phone.get_by_test_id("device")
    expect(devices).to_have_count(2)
    expect(phone.locator("#devices")).to_contain_text("this device")
    # Issue 53: two "Chrome on Android" could not be told apart: when each signed in, and
    # a name the player gives one.
    expect(devices.first).to_contain_text("signed in ")
    expect(devices.nth(1)).to_contain_text("signed in ")
    phone.once("dialog", lambda dialog: dialog.accept("Anna's phone"))
    devices.filter(has_text="this device").get_by_role("button", name="Name it").click()
    expect(devices.filter(has_text="this device")).to_contain_text("Anna's phone")
    expect(phone.locator("#me-name")).to_have_value("Anna")
    # Issue 54, point 2: a sign-out asks first and says what is lost; cancelled, nothing is.
    questions: list[str] = []

    def answer(dialog: Dialog, accept: bool) -> None:
        questions.append(dialog.message)
        (dialog.accept if accept else dialog.dismiss)()

    desk_row = devices.filter(has_not_text="this device")
    phone.once("dialog", lambda dialog: answer(dialog, False))
    desk_row.get_by_role("button", name="Sign out").click()
    expect(devices).to_have_count(2)
    phone.once("dialog", lambda dialog: answer(dialog, True))
    desk_row.get_by_role("button", name="Sign out").click()
    expect(devices).to_have_count(1)
    expect(phone.locator(".toast").last).to_contain_text("is signed out.")
    phone.once("dialog", lambda dialog: answer(dialog, False))
    devices.get_by_role("button", name="Sign out").click()
    expect(devices).to_have_count(1)  # the only device, kept
    assert questions[0].endswith("It can no longer play your seats."), questions
    assert "your only device" in questions[2] and "lost for good" in questions[2], questions
    phone.fill("#me-name", "Anna B.")
    phone.get_by_role("button", name="Save name").click()
    expect(phone.locator(".toast").last).to_contain_text("Name saved")
    for scheme in ("light", "dark"):
        phone.emulate_media(color_scheme=scheme)
        screenshot(phone, f"me-devices-{scheme}")


# Counts the sockets the page opens, so that a test sees a reconnect that should not be.
COUNT_SOCKETS = """
window.socketsOpened = 0;
window.WebSocket = class extends window.WebSocket {
  constructor(...args) {
    super(...args);
    window.socketsOpened += 1;
  }
};
"""


def test_a_phone_signed_out_from_the_desk_is_told_and_reconnects_no_more(
    new_page: NewPage,
) -> None:
    desk = new_page(viewport=SIZES["laptop"])
    room = create_room(desk, "scoundrel", "Anna")
    room_path = "/r/" + room.rsplit("/r/", 1)[1]
    desk.goto(f"/me?next={room_path}")
    desk.wait_for_selector("body[data-ready]")
    desk.click("#make-link")
    expect(desk.locator("#link-url")).not_to_be_empty()
    link = desk.locator("#link-url").inner_text()
    phone = new_page(viewport=SIZES["phone"], touch=True)
    phone.add_init_script(COUNT_SOCKETS)
    phone.goto(link)
    phone.get_by_role("button", name="Sign in").click()
    phone.wait_for_url(f"**{room_path}")
    wait_for_state(phone)

    desk.reload()
    desk.wait_for_selector("body[data-ready]")
    other = desk.locator("#devices li").filter(has_not_text="this device")
    desk.once("dialog", lambda dialog: dialog.accept())  # "Sign out Chrome on Linux? ..."
    other.get_by_role("button", name="Sign out").click()
    expect(desk.locator("#devices li")).to_have_count(1)
    expect(phone.locator("#board h1")).to_have_text("This device was signed out")
    # The offline box is redrawn once a second: after a tick it must still be away.
    phone.wait_for_timeout(1100)
    expect(phone.locator("#offline")).to_be_hidden()
    screenshot(phone, "signed-out")
    # Neither the tab shown again nor the network coming back tries the old cookie again.
    phone.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    phone.evaluate("window.dispatchEvent(new Event('online'))")
    assert phone.evaluate("window.socketsOpened") == 1
    assert cards_in_play(phone) == []
