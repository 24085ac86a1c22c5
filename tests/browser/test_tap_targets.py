"""Every control a player taps is at least 44x44 px where it can be touched (issue 53: the
language switch was 41x32, the theme 36x32, the daily deal's Play 58x32, the reactions 32
high, the seats' and the history's name links about 20, the settings' boxes 20x20). Each
page, the table with its chat and settings open, and a replay, upright and on its side;
the game layouts check their boards and dialogs the same way (tests/browser/layout.py)."""

from __future__ import annotations

from playwright.sync_api import Page

from tests.browser.conftest import SCREENSHOTS, NewPage, shoot
from tests.browser.layout import PHONES, SIZES, resize, small_targets
from tests.browser.players import create_room, join_by_link
from tests.browser.test_resign import confirm

PAGES = ("/", "/daily", "/games", "/history", "/me", "/rules/pilzwanderung")


def at_phone_sizes(page: Page, name: str, within: str | None = None) -> list[str]:
    problems = []
    for label in sorted(PHONES):
        resize(page, SIZES[label])
        file = "-".join(name.replace("#", "").replace("/", " ").split()) or "home"
        shoot(page, SCREENSHOTS / f"targets-{file}-{label}.png", animations="disabled")
        problems += [f"{name} {label}: {small}" for small in small_targets(page, within)]
    return problems


def test_every_control_a_finger_taps_is_44_px_on_a_phone(new_page: NewPage) -> None:
    anna = new_page(viewport=SIZES["phone"], touch=True)
    join_by_link(new_page(), create_room(anna, "pilzwanderung", "Anna"), "Ben")
    problems = at_phone_sizes(anna, "table")
    for part, opener, closer in (
        ("#chat", "#chat-toggle", "#chat-close"),
        ("#settings", "#settings-button", "#settings-close"),
    ):
        resize(anna, SIZES["phone"])
        anna.locator(opener).click()
        problems += at_phone_sizes(anna, f"table {part}", part)
        anna.locator(closer).click()
    confirm(anna, "resign")
    anna.locator("#end h2").wait_for()
    problems += at_phone_sizes(anna, "table at the end")
    for path in PAGES:
        anna.goto(path)
        anna.wait_for_selector("body[data-ready]")
        problems += at_phone_sizes(anna, path)
    anna.goto("/history")
    anna.wait_for_selector("body[data-ready]")
    replay = anna.locator(".match-item a.match-game").first.get_attribute("href")
    assert replay is not None
    anna.goto(replay)
    anna.wait_for_selector("body[data-ready]")
    problems += at_phone_sizes(anna, "replay")
    assert problems == [], "; ".join(problems)
