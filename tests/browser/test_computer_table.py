"""Playing against the computer in the browser, and the computer taking an absent player's
seat. The test server answers for the computer at once and offers a takeover after 2 s."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import NewPage, screenshot, serve, wait_until
from tests.browser.players import (
    act_and_wait,
    create_room,
    is_my_turn,
    join_by_link,
    no_error_toast,
    version,
)

HAND = "#board button.card[data-testid^='hand-']"


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server of this module's own: the computer answers at once, a takeover is offered
    after 2 s (the other modules' pages go offline and reload without offers)."""
    with serve(
        tmp_path_factory.mktemp("computer-server"),
        BOT_MOVE_DELAY_SECONDS="0",
        TAKEOVER_SECONDS="2",
    ) as url:
        yield url


def take_turn(page: Page) -> None:
    """Play a card when one fits an expedition, else discard one; then draw from the deck.
    The computer may answer before the page is looked at: it waits for at least the draw."""
    playable = page.locator(f"{HAND}.is-playable").count() > 0
    page.locator(f"{HAND}.is-playable" if playable else HAND).first.click()
    act_and_wait(page, page.get_by_test_id("play" if playable else "discard").click)
    match, number = version(page)
    page.get_by_test_id("draw-deck").click()
    wait_until(
        page,
        "([match, number]) => { const b = document.getElementById('board');"
        " return Number(b.dataset.match) === match && Number(b.dataset.version) > number; }",
        arg=[match, number],
    )


def wait_for_my_turn_or_the_end(page: Page) -> None:
    page.wait_for_selector("#banner.is-mine, #end:not([hidden])")


def test_a_whole_match_against_the_easy_computer(new_page: NewPage) -> None:
    page = new_page(motion=False)
    create_room(page, "expeditionen", "Anna", preset="short", computer="easy")
    expect(page.locator(".seat-name")).to_have_text(["Anna", "Computer"])
    expect(page.locator(".seat[data-seat='1'] .seat-level")).to_have_text("(easy)")
    wait_for_my_turn_or_the_end(page)
    screenshot(page, "computer-opponent")
    while not page.locator("#end").is_visible():
        take_turn(page)
        wait_for_my_turn_or_the_end(page)
    expect(page.locator("#end h2")).to_have_text(re.compile("You won!|Computer won|A draw"))
    computer_turns = page.locator("#log-list .log-turn[data-seat='1']")
    expect(computer_turns.first).to_have_attribute("data-computer", "true")
    expect(page.locator("#log-list .log-turn[data-seat='0'][data-computer='true']")).to_have_count(
        0
    )
    screenshot(page, "computer-opponent-end")
    no_error_toast(page)


def test_the_computer_takes_the_seat_of_a_player_who_left(new_page: NewPage) -> None:
    anna = new_page()
    url = create_room(anna, "expeditionen", "Anna", preset="short")
    expect(anna.locator("#add-computer")).to_be_visible()
    screenshot(anna, "computer-add-to-free-seat")
    ben = new_page()
    join_by_link(ben, url, "Ben")
    expect(anna.locator("#offer")).to_be_hidden()
    anna.wait_for_selector("#banner.is-mine, #banner:not(.is-mine):not(.is-waiting)")
    if is_my_turn(anna):
        take_turn(anna)
    match, number = version(anna)
    context = ben.context
    ben.close()
    expect(anna.get_by_test_id("away-countdown")).to_have_text(
        re.compile(r"Ben is away · you may choose in 0:0[0-2]")
    )
    expect(anna.locator("#offer [data-testid='takeover']")).to_be_visible(timeout=8_000)
    expect(anna.get_by_test_id("away-countdown")).to_have_count(0)
    expect(anna.locator("#offer")).to_contain_text("Ben has been away")
    screenshot(anna, "computer-takeover-offer")
    anna.locator("#takeover-computer").click()
    anna.wait_for_selector("#banner.is-mine")
    assert version(anna) == (match, number + 2)
    expect(anna.locator("#offer")).to_be_hidden()
    expect(anna.locator(".seat[data-seat='1'] .seat-computer")).to_have_text("computer plays")
    expect(anna.locator("#log-list .log-turn[data-seat='1']").last).to_contain_text("(computer)")
    screenshot(anna, "computer-plays-for-ben")
    back = context.new_page()
    back.goto(url)
    back.wait_for_selector("#board[data-version]")
    expect(anna.locator(".seat[data-seat='1'] .seat-computer")).to_have_count(0)
    expect(back.locator(".seat-name")).to_have_text(["Anna", "Ben"])
    # Ben hears once what the computer did for him, and finds it in the log.
    note = back.get_by_test_id("stand-in-note")
    expect(note).to_have_text(re.compile("the computer played a turn for you"))
    screenshot(back, "computer-played-for-you")
    back.locator("#stand-in-log").click()
    expect(note).to_have_count(0)
    expect(back.locator("#log-list .log-turn[data-seat='1']").last).to_contain_text("(computer)")
    back.reload()
    back.wait_for_selector("#board[data-version]")
    expect(back.locator("#log-list .log-turn").first).to_be_attached()
    expect(back.get_by_test_id("stand-in-note")).to_have_count(0)
    no_error_toast(anna)
