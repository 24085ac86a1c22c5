"""The pages around the tables as a phone sees them, and what every page shares: the header's
theme switch and the "your turn" favicon."""

from __future__ import annotations

import itertools
import re
from urllib.parse import unquote

import pytest
from playwright.sync_api import expect

from engine import games
from tests.browser.conftest import SCREENSHOTS, NewPage, screenshot, shoot
from tests.browser.layout import SIZES
from tests.browser.players import choose_language, create_room

EXTERNAL = re.compile(r"""(?:xlink:)?href\s*=|url\(""")


def test_the_your_turn_favicon_draws_the_icon_itself(new_page: NewPage) -> None:
    """A favicon loads nothing further, so the badge must not refer to the icon by address."""
    page = new_page()
    create_room(page, "scoundrel", "Dana")  # alone at the table: always Dana's turn
    page.wait_for_selector("link[rel='icon'][data-badge='turn']", state="attached")
    href = page.locator("link[rel='icon']").get_attribute("href") or ""
    assert href.startswith("data:image/svg+xml,")
    svg = unquote(href.removeprefix("data:image/svg+xml,"))
    assert EXTERNAL.search(svg) is None, svg
    # As an image, like a favicon: the card of the icon (left) and the red dot (top right).
    drawn = page.evaluate(
        """href => new Promise((resolve, reject) => {
            const img = new Image();
            img.onload = () => {
                const canvas = document.createElement('canvas');
                canvas.width = canvas.height = 64;
                const pen = canvas.getContext('2d');
                pen.drawImage(img, 0, 0, 64, 64);
                const at = (x, y) => [...pen.getImageData(x, y, 1, 1).data];
                resolve({ width: img.naturalWidth, card: at(20, 36), dot: at(48, 16) });
            };
            img.onerror = reject;
            img.src = href;
        })""",
        href,
    )
    assert drawn["width"] > 0
    assert drawn["card"][3] == 255, drawn  # the icon's card, not a transparent gap
    assert drawn["dot"][:3] == [0xD9, 0x30, 0x25], drawn


def test_the_theme_switch_sits_beside_the_language_on_every_page(new_page: NewPage) -> None:
    page = new_page()
    page.emulate_media(color_scheme="light")
    room = create_room(page, "expeditionen", "Anna")
    for path in ("/", "/history", "/rules/pilzwanderung", room):
        page.goto(path)
        page.wait_for_selector("body[data-ready]" if path != room else "#board[data-version]")
        switch = page.get_by_role("button", name="Dark colours")
        expect(switch).to_be_visible()
        assert switch.evaluate("b => b.previousElementSibling.classList.contains('lang-switch')")
        expect(switch).to_have_attribute("aria-pressed", "false")
    switch.click()
    expect(page.locator("html")).to_have_attribute("data-theme", "dark")
    expect(switch).to_have_attribute("aria-pressed", "true")
    screenshot(page, "table-dark-by-the-header-switch")


def test_the_chosen_theme_holds_on_every_page_from_the_first_paint(new_page: NewPage) -> None:
    """Kept in this browser, and set before any module runs: no light flash on a dark page."""
    page = new_page()
    page.emulate_media(color_scheme="light")
    page.goto("/")
    page.wait_for_selector("body[data-ready]")
    page.get_by_role("button", name="Dark colours").click()
    page.route("**/static/js/pages/*.js", lambda route: route.abort())
    for path in ("/", "/history"):
        page.goto(path)
        expect(page.locator("html")).to_have_attribute("data-theme", "dark")
        paper = page.evaluate("getComputedStyle(document.body).getPropertyValue('--paper')")
        assert paper == "#121518", paper  # the dark paper
    page.unroute("**/static/js/pages/*.js")
    page.goto("/history")
    page.wait_for_selector("body[data-ready]")
    switch = page.get_by_role("button", name="Dark colours")
    expect(switch).to_have_attribute("aria-pressed", "true")
    switch.click()
    expect(page.locator("html")).to_have_attribute("data-theme", "light")
    page.reload()
    expect(page.locator("html")).to_have_attribute("data-theme", "light")


def test_on_a_phone_create_room_is_on_the_first_screen(new_page: NewPage) -> None:
    """Upright and on its side, in both themes, whichever game is chosen."""
    page = new_page(viewport=SIZES["phone"])
    page.goto("/")
    page.wait_for_selector("body[data-ready]")
    for size, theme in itertools.product(("phone", "phone-landscape"), ("light", "dark")):
        viewport = SIZES[size]
        page.set_viewport_size(viewport)
        page.emulate_media(color_scheme=theme)
        for game in games():
            page.locator(f"label[for='game-{game.name}']").click()
            page.evaluate("window.scrollTo(0, 0)")
            for needed in ("#create-room", "#player-name"):
                box = page.locator(needed).bounding_box()
                assert box is not None and box["y"] + box["height"] <= viewport["height"], (
                    size,
                    game.name,
                    needed,
                    box,
                )
            shoot(page, SCREENSHOTS / f"home-{size}-{game.name}-{theme}.png")


def test_on_a_phone_the_invite_button_says_invite(new_page: NewPage) -> None:
    page = new_page(viewport=SIZES["phone"])
    create_room(page, "pilzwanderung", "Anna")
    invite = page.locator("#share")
    expect(invite).to_have_accessible_name("Invite")
    expect(invite.locator(".tool-label")).to_be_visible()
    expect(invite.locator(".tool-label")).to_have_text("Invite")
    choose_language(page, "de")  # in the settings on a phone
    expect(invite.locator(".tool-label")).to_have_text("Einladen")
    expect(invite.locator(".tool-label")).to_be_visible()
    for label in ("phone", "phone-landscape"):
        page.set_viewport_size(SIZES[label])
        expect(invite.locator(".tool-label")).to_be_in_viewport()
        shoot(page, SCREENSHOTS / f"waiting-room-{label}-de.png")


@pytest.mark.parametrize("game", ["expeditionen", "pilzwanderung"])
def test_a_waiting_room_waits_for_a_second_player_not_a_free_seat(
    new_page: NewPage, game: str
) -> None:
    page = new_page(viewport=SIZES["phone"])
    create_room(page, game, "Anna")
    board = page.locator("#board")
    expect(board).to_contain_text("Waiting for a second player…")
    expect(board).not_to_contain_text(re.compile("Waiting for (Free seat|Anna)"))
    expect(board).not_to_contain_text("Display of Free seat")
    shoot(page, SCREENSHOTS / f"waiting-room-{game}-phone.png", full_page=True)


def test_the_home_page_says_what_it_is_and_offers_live_or_turn_based_at_once(
    new_page: NewPage,
) -> None:
    """Issue 53: on a phone the lead sentence was hidden and the daily deal below the fold;
    live versus turn-based showed only after picking a game of two; a solo game offered to
    "Create room"."""
    page = new_page(viewport=SIZES["phone"])
    page.goto("/")
    page.wait_for_selector("body[data-ready]")
    expect(page.locator(".hero .lead")).to_be_in_viewport()
    jump = page.locator("#daily-jump")
    expect(jump).to_be_in_viewport()
    expect(page.locator("#opponent")).to_be_visible()  # a game of two is chosen at first
    expect(page.locator("#opponent .chip-radio").first).to_have_text("A friend, live")
    expect(page.locator("#opponent .chip-radio").nth(1)).to_have_text("A friend, turn-based")
    create = page.locator("#create-room")
    expect(create).to_have_text("Create room")
    shoot(page, SCREENSHOTS / "home-first-screen-phone.png")
    page.locator("input[name='opponent'][value='easy'] + span").click()
    expect(create).to_have_text("Start the game")  # against the computer: no room to share
    page.locator("label[for='game-scoundrel']").click()
    expect(create).to_have_text("Start the game")  # alone
    page.reload()
    page.wait_for_selector("body[data-ready]")
    expect(page.locator("#game-scoundrel")).to_be_checked()  # the game chosen last
    jump.click()
    expect(page.locator("#daily-panel")).to_be_in_viewport()
