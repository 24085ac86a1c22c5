"""Turn-based rooms in the browser: creating one from the home page, the table's clock,
and "Your games" with the count of games waiting in the title."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.browser.conftest import SCREENSHOTS, NewPage, shoot
from tests.browser.layout import SIZES
from tests.browser.players import create_room, create_turn_based_room, is_my_turn, join_by_link


def shots(page: Page, name: str) -> None:
    """Phone (390x844) and desktop, light and dark; nothing wider than the screen."""
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        for label in ("phone", "desktop"):
            size = SIZES[label]
            page.set_viewport_size(size)
            shoot(
                page,
                SCREENSHOTS / f"turns-{name}-{label}-{scheme}.png",
                full_page=True,
                animations="disabled",
            )
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= size["width"], f"{name} is {width} px wide on a {label}"
    page.emulate_media(color_scheme="light")
    page.set_viewport_size(SIZES["desktop"])


def test_the_home_page_offers_turn_based_only_for_a_game_of_two(new_page: NewPage) -> None:
    page = new_page()
    page.goto("/")
    page.wait_for_selector("body[data-ready]")
    page.locator("label[for='game-scoundrel']").click()
    expect(page.locator("#opponent")).to_be_hidden()
    expect(page.locator("#pace")).to_be_hidden()
    page.locator("label[for='game-expeditionen']").click()
    expect(page.locator("#opponent .chip-radio").nth(1)).to_have_text("A friend, turn-based")
    expect(page.locator("#pace")).to_be_hidden()
    page.locator("input[name='opponent'][value='turn'] + span").click()
    expect(page.locator("#move-days option")).to_have_text(
        ["1 day", "2 days", "3 days", "7 days", "No limit"]
    )
    expect(page.locator("#move-days option:checked")).to_have_text("2 days")
    shots(page, "home")


def test_a_turn_based_table_says_who_has_how_long_and_your_games_count_it(
    new_page: NewPage,
) -> None:
    ada, bo = new_page(), new_page()
    url = create_turn_based_room(ada, "expeditionen", "Ada", days="2 days")
    join_by_link(bo, url, "Bo")
    mover, waiter = (ada, bo) if is_my_turn(ada) else (bo, ada)
    mover_name = "Ada" if mover is ada else "Bo"
    expect(waiter.get_by_test_id("turn-clock")).to_contain_text(f"{mover_name} has 1 day 23 h")
    expect(mover.get_by_test_id("turn-clock")).to_contain_text("You have 1 day 23 h")
    # Its first minute: "turn just began", not "1 min ago" (issue 53).
    expect(waiter.get_by_test_id("turn-clock")).to_contain_text("turn just began")
    shots(waiter, "table")

    mover.goto("/games")
    mover.wait_for_selector("body[data-ready]")
    expect(mover).to_have_title("(1) Kartenrunde")
    row = mover.get_by_test_id("your-game")
    expect(row).to_have_count(1)
    expect(row).to_contain_text("Your turn")
    expect(row).to_contain_text("You have 1 day 23 h")
    expect(row).to_contain_text("turn just began")
    # Issue 53: on a phone the buttons beside it wrapped the time into short lines.
    mover.set_viewport_size(SIZES["phone"])
    lines = row.get_by_test_id("game-clock").evaluate(
        "el => el.getBoundingClientRect().height / parseFloat(getComputedStyle(el).lineHeight)"
    )
    assert lines < 1.5, f"the time takes {lines:.1f} lines on a phone"
    shots(mover, "games")

    waiter.goto("/games")
    waiter.wait_for_selector("body[data-ready]")
    expect(waiter).to_have_title("Kartenrunde")
    expect(waiter.get_by_test_id("your-game")).to_contain_text(f"{mover_name} has 1 day 23 h")
    waiter.get_by_role("button", name="Deutsch").click()
    expect(waiter.get_by_test_id("your-game")).to_contain_text(
        f"{mover_name} hat noch 1 Tag 23 Std."
    )
    expect(waiter.get_by_test_id("your-game")).to_contain_text("gerade dran")
    waiter.get_by_role("link", name="Öffnen").click()
    waiter.wait_for_url(url)
    expect(waiter.get_by_test_id("turn-clock")).to_contain_text(
        f"{mover_name} hat noch 1 Tag 23 Std."
    )
    waiter.get_by_role("button", name="English").click()

    mover.goto("/")
    mover.wait_for_selector("body[data-ready]")
    expect(mover).to_have_title("(1) Kartenrunde")
    expect(mover.get_by_test_id("your-game")).to_contain_text("You have 1 day 23 h")
    shots(mover, "home-games")


# A device whose clock runs three hours ahead of the server's.
CLOCK_AHEAD = "(() => { const now = Date.now.bind(Date); Date.now = () => now() + 3 * 3600e3; })()"


def test_a_device_whose_clock_is_off_counts_the_turn_by_the_servers(new_page: NewPage) -> None:
    """Issue 53: the table counted on the device's clock, "Your games" on the server's; a
    phone's clock off by hours made them disagree."""
    ada, bo = new_page(), new_page()
    bo.add_init_script(CLOCK_AHEAD)
    join_by_link(bo, create_turn_based_room(ada, "expeditionen", "Ada", days="2 days"), "Bo")
    clock = bo.get_by_test_id("turn-clock")
    expect(clock).to_contain_text(
        " has 1 day 23 h" if not is_my_turn(bo) else "You have 1 day 23 h"
    )
    expect(clock).to_contain_text("turn just began")
    bo.goto("/games")
    bo.wait_for_selector("body[data-ready]")
    row = bo.get_by_test_id("your-game")
    expect(row).to_contain_text("1 day 23 h")
    expect(row).to_contain_text("turn just began")


def test_the_joining_player_learns_the_mode_the_time_per_move_and_the_variant(
    new_page: NewPage,
) -> None:
    """Issue 54, point 6: the join card, the settings and the name's title say what one
    joins."""
    ada, bo = new_page(), new_page(viewport=SIZES["phone"])
    url = create_turn_based_room(ada, "expeditionen", "Ada", days="2 days", preset="short")
    bo.goto(url)
    expect(bo.get_by_test_id("join-mode")).to_have_text("Turn-based: 2 days a move · Short game")
    shoot(bo, SCREENSHOTS / "join-card-turn-based-phone.png")
    title = ada.locator("#game-title")
    expect(title).to_have_attribute("title", "Turn-based: 2 days a move · Short game")
    join_by_link(bo, url, "Bo")
    bo.locator("#settings-button").click()  # the head bar has no room for it: the settings
    expect(bo.get_by_test_id("settings-mode")).to_have_text(
        "Expeditions: Turn-based: 2 days a move · Short game"
    )
    shoot(bo, SCREENSHOTS / "settings-mode-phone.png")
    live = new_page()
    create_room(live, "pilzwanderung", "Cleo")
    expect(live.locator("#game-title")).to_have_attribute("title", "Live · Pilzwanderung")
