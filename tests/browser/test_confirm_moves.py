"""Confirming one-tap moves: on a touch screen in a turn-based room, a tap on a pile first
shows the move in the banner and rings the pile; a second tap (or Confirm) sends it, Cancel
or a tap elsewhere drops it. A laptop sends at once; once a player turns the setting off, the
first tap sends, and the phone remembers it. The banner costs the board nothing on a phone."""

from __future__ import annotations

import json

from playwright.sync_api import Page, expect

from tests.browser.conftest import PHONE, SCREENSHOTS, NewPage, shoot
from tests.browser.layout import OFF_SCREEN, overlapping_parts
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


def test_a_tap_shows_the_move_and_a_second_tap_or_confirm_sends_it(new_page: NewPage) -> None:
    anna = new_page(viewport=PHONE, touch=True, motion=False)
    ben = new_page(motion=False)
    room = create_turn_based_room(anna, "expeditionen", "Anna", "No limit", preset="short")
    join_by_link(ben, room, "Ben")
    expect(anna.locator("#banner")).to_contain_text("turn")
    sent = SentActions(anna)
    if not is_my_turn(anna):
        laptop_turn(ben, anna)

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
