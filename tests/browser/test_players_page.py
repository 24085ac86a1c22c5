"""A record between friends in the browser: after a resigned match the rating stands beside
each name at the table, the name opens that person's record, and the record page reads
right on a phone and a desktop, in both languages."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.browser.conftest import NewPage, screenshot
from tests.browser.players import create_room, join_by_link, wait_for_version
from tests.browser.test_resign import confirm


def test_the_name_at_the_table_opens_the_record_with_the_rating(new_page: NewPage) -> None:
    anna, ben = new_page(motion=False), new_page(motion=False)
    join_by_link(ben, create_room(anna, "pilzwanderung", "Anna"), "Ben")
    seat = anna.locator(".seat[data-seat='1']")
    expect(seat.locator("a.seat-name")).to_have_text("Ben")
    expect(seat.locator(".seat-rating")).to_have_text("–")  # no rated match yet
    confirm(anna, "resign")
    expect(ben.locator("#end h2")).to_have_text("Anna resigned")
    for page in (anna, ben):
        page.locator("#rematch").click()
    wait_for_version(anna, 2, 0)
    # The rematch's state carries the ratings after the resigned match: one match each.
    expect(seat.locator(".seat-rating")).to_have_text("3 (1)")
    screenshot(anna, "players-table")

    seat.locator("a.seat-name").click()
    expect(anna.locator("h1")).to_have_text("Ben’s record")
    game = anna.locator(".record-game[data-game='pilzwanderung']")
    expect(game.locator(".record-figure").nth(1)).to_contain_text("1")  # won by resignation
    expect(game.locator(".record-rating")).to_have_text("Rating: 3 (1 match)")
    expect(anna.locator(".record-opponents")).to_contain_text("Anna")
    screenshot(anna, "players-ben")
    anna.locator(".lang-switch [data-lang='de']").click()
    expect(anna.locator("h1")).to_have_text("Bilanz von Ben")
    screenshot(anna, "players-ben-de")

    ben.goto("/me")
    ben.locator("#my-record").click()
    expect(ben.locator("h1")).to_have_text("Your record")
    expect(ben.locator(".record-opponents a", has_text="Anna")).to_be_visible()
