"""A record between friends in the browser: from the end of a resigned match the rating stands
beside each name at the table, the name opens that person's record, and the record page reads
right on a phone and a desktop, in both languages."""

from __future__ import annotations

from openskill.models import PlackettLuce
from playwright.sync_api import expect

from app.people.records import Rating
from tests.browser.conftest import DESKTOP, PHONE, NewPage, screenshot
from tests.browser.players import create_room, join_by_link, wait_for_version
from tests.browser.test_resign import confirm


def first_ratings() -> tuple[int, int]:
    """The shown ratings of the winner and the loser of two newcomers' first match."""
    model = PlackettLuce()
    (won,), (lost,) = model.rate([[model.rating()], [model.rating()]], ranks=[1, 2])
    return Rating(won.mu, won.sigma, 1).shown, Rating(lost.mu, lost.sigma, 1).shown


WON, LOST = first_ratings()


def test_the_name_at_the_table_opens_the_record_with_the_rating(new_page: NewPage) -> None:
    anna, ben = new_page(motion=False), new_page(motion=False)
    join_by_link(ben, create_room(anna, "pilzwanderung", "Anna"), "Ben")
    seat = anna.locator(".seat[data-seat='1']")
    expect(seat.locator("a.seat-name")).to_have_text("Ben")
    rating = seat.locator(".seat-rating")
    expect(rating).to_contain_text("new")  # no rated match yet
    expect(rating).to_have_attribute("title", "No rated match yet")
    confirm(anna, "resign")
    expect(ben.locator("#end h2")).to_have_text("Anna resigned")
    # The state that ends the match carries the ratings it made, labelled, on the scale
    # that starts at 1500 (issue 53: the chips were one match behind until a reload).
    expect(rating).to_contain_text(str(WON))
    expect(rating).to_have_attribute("title", f"Rating {WON} from 1 match")
    expect(anna.locator(".seat[data-seat='0'] .seat-rating")).to_contain_text(str(LOST))
    expect(ben.locator(".seat[data-seat='1'] .seat-rating")).to_contain_text(str(WON))
    for page in (anna, ben):
        page.locator("#rematch").click()
    wait_for_version(anna, 2, 0)
    expect(rating).to_contain_text(str(WON))  # and the rematch's
    # Where the seats are narrow the number stands in brackets, as on lichess.
    anna.set_viewport_size(PHONE)
    expect(rating.locator(".seat-rating-paren").first).to_be_visible()
    expect(rating.locator(".seat-rating-word")).not_to_be_in_viewport()
    anna.set_viewport_size(DESKTOP)
    screenshot(anna, "players-table")

    seat.locator("a.seat-name").click()
    expect(anna.locator("h1")).to_have_text("Ben’s record")
    game = anna.locator(".record-game[data-game='pilzwanderung']")
    expect(game.locator(".record-figure").nth(1)).to_contain_text("1")  # won by resignation
    expect(game.locator(".record-rating")).to_have_text(f"Rating: {WON} (1 match)")
    expect(anna.locator(".record-opponents")).to_contain_text("Anna")
    screenshot(anna, "players-ben")
    anna.locator(".lang-switch [data-lang='de']").click()
    expect(anna.locator("h1")).to_have_text("Bilanz von Ben")
    screenshot(anna, "players-ben-de")

    ben.goto("/me")
    ben.locator("#my-record").click()
    expect(ben.locator("h1")).to_have_text("Your record")
    expect(ben.locator(".record-opponents a", has_text="Anna")).to_be_visible()
