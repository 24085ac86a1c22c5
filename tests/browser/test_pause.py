"""A pause in two browsers on phones: one player asks, the other agrees, both see the match
paused (nobody may play a card), then the other resumes and the match goes on."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.browser.conftest import PHONE, SCREENSHOTS, NewPage, screenshot, shoot
from tests.browser.layout import SIZES, overlapping_parts, resize
from tests.browser.players import act_and_wait, create_room, is_my_turn, join_by_link, version

HAND = "#board button.card[data-testid^='hand-']"


def above_the_board(page: Page) -> None:
    """The pause's panel lies above the board, on screen; on a phone the board keeps its
    height below it and the page scrolls (as under an offer), so no part of the table is
    drawn over another."""
    page.evaluate("window.scrollTo(0, 0)")
    box, board = page.locator("#pause").bounding_box(), page.locator("#board").bounding_box()
    assert box and board and box["y"] + box["height"] <= board["y"]
    expect(page.locator("#pause")).to_be_in_viewport()
    assert overlapping_parts(page) == []


def test_a_pause_asked_agreed_then_resumed(new_page: NewPage) -> None:
    anna = new_page(viewport=PHONE, touch=True, motion=False)
    ben = new_page(viewport=PHONE, touch=True, motion=False)
    join_by_link(ben, create_room(anna, "expeditionen", "Anna", preset="short"), "Ben")
    expect(anna.locator("#banner")).to_contain_text("turn")
    mover, other = (anna, ben) if is_my_turn(anna) else (ben, anna)

    other.locator("#log-toggle").click()  # on a phone the match's tools head the log
    other.locator("#log-pause-ask").click()
    other.locator("#log-close").click()
    expect(other.get_by_test_id("pause-note")).to_contain_text("Waiting for the other player")
    expect(mover.get_by_test_id("pause-note")).to_contain_text("asks for a pause")
    expect(other.locator("#log-pause-ask")).to_have_count(0)
    screenshot(mover, "pause-asked")
    mover.locator("#pause-agree").click()
    for each in (mover, other):
        expect(each.locator("#banner")).to_contain_text("Paused")
        expect(each.get_by_test_id("pause-note")).to_contain_text("no clock runs")
        above_the_board(each)
    screenshot(mover, "pause-paused")
    resize(mover, SIZES["phone-landscape"])
    above_the_board(mover)
    shoot(mover, SCREENSHOTS / "pause-paused-phone-landscape.png", animations="disabled")
    resize(mover, PHONE)

    before = version(mover)
    mover.locator(HAND).first.click()  # no legal actions: nothing to play
    expect(mover.get_by_test_id("discard")).to_be_disabled()
    assert version(mover) == before

    other.locator("#pause-resume").click()
    for each in (mover, other):
        expect(each.get_by_test_id("pause")).to_be_hidden()
        expect(each.locator("#log-pause-ask")).to_have_count(1)
    expect(mover.locator("#banner")).to_contain_text("Your turn")
    expect(mover.get_by_test_id("discard")).to_be_enabled()  # the card is still chosen
    act_and_wait(mover, mover.get_by_test_id("discard").click, (other,))
