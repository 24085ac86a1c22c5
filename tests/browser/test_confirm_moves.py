"""Confirming one-tap moves: on a touch screen in a turn-based room, a tap on a pile first
shows the move in the banner and rings the pile; a second tap (or Confirm) sends it, Cancel
or a tap elsewhere drops it. A laptop sends at once; once a player turns the setting off, the
first tap sends, and the phone remembers it. The banner costs the board nothing on a phone."""

from __future__ import annotations

import json

from playwright.sync_api import Page, expect

from tests.browser.conftest import PHONE, SCREENSHOTS, NewPage, shoot
from tests.browser.layout import OFF_SCREEN, SIZES, overlapping_parts
from tests.browser.players import (
    act_and_wait,
    create_turn_based_room,
    is_my_turn,
    join_by_link,
    version,
    wait_for_state,
)

HAND = "#board button.card[data-testid^='hand-']"


class SentActions:
    """How many actions a page sent over its room socket."""

    def __init__(self, page: Page) -> None:
        self.count = 0
        page.on("websocket", lambda socket: socket.on("framesent", self.frame))

    def frame(self, payload: str | bytes) -> None:
        self.count += json.loads(payload).get("type") == "action"


def layout_problems(page: Page) -> list[str]:
    return [*page.evaluate(OFF_SCREEN, True), *overlapping_parts(page)]


def play_a_card(page: Page, other: Page) -> None:
    """The first step of a turn, itself no one-tap move: a card chosen, then Discard."""
    page.locator(HAND).first.click()
    act_and_wait(page, page.get_by_test_id("discard").click, (other,))


def laptop_turn(laptop: Page, phone: Page) -> None:
    """A whole turn on a laptop, where a draw is sent at the first click."""
    play_a_card(laptop, phone)
    act_and_wait(laptop, laptop.get_by_test_id("draw-deck").click, (phone,))


def phone_to_move(new_page: NewPage, viewport: dict[str, int]) -> tuple[Page, Page, SentActions]:
    """Anna on a phone with touch, Ben on a laptop, at a turn-based Expeditionen table; Ben
    has taken his turn if he was first, so it is Anna's."""
    anna = new_page(viewport=viewport, touch=True, motion=False)
    ben = new_page(motion=False)
    room = create_turn_based_room(anna, "expeditionen", "Anna", "No limit", preset="short")
    join_by_link(ben, room, "Ben")
    expect(anna.locator("#banner")).to_contain_text("turn")
    sent = SentActions(anna)
    if not is_my_turn(anna):
        laptop_turn(ben, anna)
    return anna, ben, sent


def test_a_tap_shows_the_move_and_a_second_tap_or_confirm_sends_it(new_page: NewPage) -> None:
    anna, ben, sent = phone_to_move(new_page, PHONE)

    play_a_card(anna, ben)
    before = layout_problems(anna)
    board_top = anna.locator("#board").bounding_box()
    sent_before, shown = sent.count, version(anna)
    deck = anna.get_by_test_id("draw-deck")
    deck.tap()
    expect(anna.locator("#confirm-move")).to_be_visible()
    expect(anna.get_by_test_id("confirm-what")).to_have_text("drew from the draw pile")
    expect(deck).to_have_class("ex-pile-btn is-confirming")
    assert (sent.count, version(anna)) == (sent_before, shown)
    assert layout_problems(anna) == before
    assert anna.locator("#board").bounding_box() == board_top
    shoot(anna, SCREENSHOTS / "confirm-move-phone.png")
    act_and_wait(anna, deck.tap, (ben,))
    expect(anna.locator("#confirm-move")).to_have_count(0)

    laptop_turn(ben, anna)
    play_a_card(anna, ben)
    sent_before, shown = sent.count, version(anna)
    deck.tap()
    anna.locator("#cancel-move").tap()
    expect(anna.locator("#confirm-move")).to_have_count(0)
    expect(deck).not_to_have_class("ex-pile-btn is-confirming")
    deck.tap()
    anna.locator("#game-title").tap()
    expect(anna.locator("#confirm-move")).to_have_count(0)
    assert (sent.count, version(anna)) == (sent_before, shown)

    deck.tap()
    act_and_wait(anna, anna.locator("#confirm-move").tap, (ben,))


def test_with_the_setting_off_a_tap_sends_at_once_and_the_phone_remembers(
    new_page: NewPage,
) -> None:
    anna = new_page(viewport=PHONE, touch=True, motion=False)
    ben = new_page(motion=False)
    room = create_turn_based_room(anna, "expeditionen", "Anna", "No limit", preset="short")
    join_by_link(ben, room, "Ben")
    expect(anna.locator("#banner")).to_contain_text("turn")
    ben.locator("#settings-button").click()
    expect(ben.locator("#pref-confirm")).not_to_be_checked()
    ben.locator("#settings-close").click()
    anna.locator("#settings-button").click()
    expect(anna.locator("#pref-confirm")).to_be_checked()
    anna.locator("#pref-confirm").uncheck()
    anna.locator("#settings-close").click()
    if not is_my_turn(anna):
        laptop_turn(ben, anna)

    play_a_card(anna, ben)
    act_and_wait(anna, anna.get_by_test_id("draw-deck").tap, (ben,))
    expect(anna.locator("#confirm-move")).to_have_count(0)
    anna.reload()
    wait_for_state(anna)
    anna.locator("#settings-button").click()
    expect(anna.locator("#pref-confirm")).not_to_be_checked()


def center(page: Page, selector: str) -> tuple[float, float]:
    box = page.locator(selector).first.bounding_box()
    assert box is not None, selector
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


class Finger:
    """A finger on the page's screen (Chromium's touch input: pointer events of type touch)."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.session = page.context.new_cdp_session(page)

    def touch(self, kind: str, at: tuple[float, float] | None = None) -> None:
        points = [{"x": at[0], "y": at[1]}] if at else []
        self.session.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

    def long_press(self, card: str) -> None:
        self.touch("touchStart", center(self.page, card))
        self.page.wait_for_timeout(800)
        self.touch("touchEnd")

    def drag(self, card: str, target: str) -> None:
        start, end = center(self.page, card), center(self.page, target)
        self.touch("touchStart", start)
        for step in range(1, 9):
            x = start[0] + (end[0] - start[0]) * step / 8
            y = start[1] + (end[1] - start[1]) * step / 8
            self.touch("touchMove", (x, y))
        self.touch("touchEnd")


def test_every_gesture_that_plays_a_hand_card_asks_first(new_page: NewPage) -> None:
    """Issue 53: a long press, a double tap and a drag on a hand card played it at once;
    with "Confirm moves" on, each shows its move in the banner first, as a tap on a pile."""
    anna, ben, sent = phone_to_move(new_page, SIZES["phone"])
    first = anna.locator(HAND).first
    code = str(first.get_attribute("data-card"))
    card = f"#board button.card[data-card='{code}']"
    sent_before, shown = sent.count, version(anna)

    finger = Finger(anna)
    gestures = {
        "long press": lambda: finger.long_press(card),
        "double tap": lambda: anna.locator(card).first.dblclick(),
        "drag": lambda: finger.drag(card, f"[data-drop='discard-{code[-1]}']"),
    }
    for name, gesture in gestures.items():
        gesture()
        expect(anna.locator("#confirm-move"), name).to_be_visible()
        expect(anna.get_by_test_id("confirm-what"), name).to_contain_text(
            "discarded" if name == "drag" else ""
        )
        assert (sent.count, version(anna)) == (sent_before, shown), name
        if name == "drag":
            shoot(anna, SCREENSHOTS / "confirm-move-drag-phone.png")
            break
        anna.locator("#cancel-move").tap()
        expect(anna.locator("#confirm-move"), name).to_have_count(0)
    # Confirmed by a click: Chromium's synthetic touches make no click of the first tap
    # after a touch drag (the tap itself is tested above).
    act_and_wait(anna, anna.locator("#confirm-move").click, (ben,))  # the drag's discard
    expect(anna.locator("#confirm-move")).to_have_count(0)
    expect(anna.locator(f"[data-drop='discard-{code[-1]}'] [data-card='{code}']")).to_have_count(1)


def test_no_gesture_on_a_pilzwanderung_hand_card_plays_it(new_page: NewPage) -> None:
    """Pilzwanderung's hand cards play nothing by themselves: a tap, a long press or a
    double tap chooses cards or opens the cook or sell dialog, whose button is the move."""
    anna = new_page(viewport=SIZES["phone"], touch=True, motion=False)
    ben = new_page(viewport=SIZES["phone"], touch=True, motion=False)
    room = create_turn_based_room(anna, "pilzwanderung", "Anna", "No limit")
    join_by_link(ben, room, "Ben")
    expect(anna.locator("#banner")).to_contain_text("turn")
    mover = anna if is_my_turn(anna) else ben
    card = "#board [data-testid^='hand-']"
    expect(mover.locator(card).first).to_be_visible()
    shown = version(mover)
    finger = Finger(mover)
    for name, gesture in {
        "long press": lambda: finger.long_press(card),
        "double tap": lambda: mover.locator(card).first.dblclick(),
    }.items():
        gesture()
        mover.wait_for_timeout(300)
        assert version(mover) == shown, name
        expect(mover.locator("#confirm-move"), name).to_have_count(0)
        shoot(mover, SCREENSHOTS / f"confirm-move-pilzwanderung-{name.replace(' ', '-')}.png")
        cancel = mover.get_by_test_id("dialog-cancel")
        if cancel.count():  # the dialog it opened, closed without a move
            cancel.click()
        expect(cancel).to_have_count(0)
